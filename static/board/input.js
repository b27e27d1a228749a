// Input: pointer and keyboard become intents (tap, undo, draw, start, resign); the board decides
// nothing.
import { distance, neighbour } from "./layout.js";

function targetOf(node) {
  const t = node?.closest?.("[data-target]")?.dataset.target;
  if (t === undefined) return null;
  return t === "stock" || t === "waste" ? t : Number(t);
}

function focusable(nodes) {
  return [...nodes.keys()].filter((t) => !nodes.get(t).disabled);
}

/** Roving focus: one tab stop for the table, arrow keys move it. */
export function focusTarget(nodes, t, { move = true } = {}) {
  for (const [key, node] of nodes) node.tabIndex = key === t ? 0 : -1;
  if (move) nodes.get(t)?.focus();
}

/** After a card leaves, keep the tab stop (and the focus, if it was there: `focused`) on the
 * nearest card still on the table. */
export function keepTabStop({ nodes, layout }, focused) {
  const current = [...nodes].find(([, n]) => n.tabIndex === 0);
  if (current && !current[1].disabled) return;
  const from = current ? current[0] : layout.tip;
  const away = (t) => distance(layout, from, t);
  const nearest = focusable(nodes).sort((a, b) => away(a) - away(b))[0];
  focusTarget(nodes, nearest, { move: Boolean(current) && focused === current[1] });
}

function typing(event) {
  return (
    event.target.closest?.("input, textarea, select, [contenteditable]") &&
    event.target.type !== "checkbox"
  );
}

/** Wire the table, the keyboard and the page's [data-action] buttons (Start, Undo, Resign) to
 * `intents`: {tap(target), undo(), start(), resign()}. */
export function bindInput(ui, intents) {
  const { heart, nodes, layout } = ui;
  heart.addEventListener("click", (event) => {
    const t = targetOf(event.target);
    if (t === null || nodes.get(t)?.disabled) return;
    focusTarget(nodes, t, { move: false });
    intents.tap(t);
  });
  heart.addEventListener("keydown", (event) => {
    const from = targetOf(event.target);
    if (from === null || !event.key.startsWith("Arrow")) return;
    const present = focusable(nodes).filter((t) => t !== from);
    const to = neighbour(layout, from, event.key, present);
    if (to !== null) focusTarget(nodes, to);
    event.preventDefault();
  });
  document.addEventListener("keydown", (event) => onShortcut(event, intents));
  document.addEventListener("click", (event) => onAction(event, intents));
}

/** Start, Undo and Resign are buttons of the page: in the controls, and in a window. */
function onAction(event, intents) {
  const action = event.target.closest?.("[data-action]")?.dataset.action;
  if (["start", "undo", "resign"].includes(action)) intents[action]();
}

function onShortcut(event, intents) {
  if (event.defaultPrevented || typing(event) || event.altKey || event.metaKey) return;
  if (document.querySelector("dialog[open]")) return;
  const key = event.key.toLowerCase();
  if (key === "z" && event.ctrlKey) intents.undo();
  else if (event.ctrlKey) return;
  else if (key === "u") intents.undo();
  else if (key === "d") intents.tap("stock");
  else return;
  event.preventDefault();
}
