// Rendering: builds the table once, then writes to the DOM only what changed since last time.
import { cardName, faceLabel } from "./cards.js";
import { gettext, interpolate, ngettext } from "../site/i18n.js";
import { awaitingStart, isDimmed, isHinted, isOver, isPlayable } from "./state.js";

const reducedMotion = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function face(node) {
  node.append(el("span", "rk"), el("span", "su", "♥"), el("span", "pip", "♥"));
  for (const child of node.children) child.setAttribute("aria-hidden", "true");
  return node;
}

function spot(layout, target, className) {
  const node = el("button", className);
  node.type = "button";
  node.dataset.target = target;
  node.tabIndex = -1;
  const { x, r } = layout.spots.get(target);
  node.style.setProperty("--x", x);
  node.style.setProperty("--r", r);
  return node;
}

/** Create the heart's cards, the stock and the waste of `layout` (layout.js) inside `heart`;
 * returns target -> node. */
export function buildTable(heart, layout) {
  const nodes = new Map();
  for (const t of layout.positions) nodes.set(t, face(spot(layout, t, "playcard")));
  nodes.set("stock", spot(layout, "stock", "pile stock"));
  nodes.set("waste", face(spot(layout, "waste", "pile waste playcard")));
  nodes.get("stock").append(el("span", "count"));
  nodes.get("waste").append(el("span", "count"));
  heart.replaceChildren(...nodes.values());
  return nodes;
}

function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

/** The card's index ("K", "10") is drawn from an attribute, not written as text: the button's
 * name says the card in words ("King of hearts"), and a letter of text inside the button that
 * its name does not contain fails the label-in-name check of speech control. */
function setFace(node, rank) {
  const face = faceLabel(rank);
  if (node.firstChild.dataset.face !== face) node.firstChild.dataset.face = face;
}

function toggle(node, name, on) {
  if (node.classList.contains(name) !== on) node.classList.toggle(name, on);
}

function animate(node, keyframes, duration) {
  if (reducedMotion || !node.animate) return;
  node.animate(keyframes, { duration, easing: "cubic-bezier(.3,.7,.4,1)" });
}

const LEAVE = [
  { visibility: "visible", opacity: 1, transform: "none" },
  { visibility: "visible", opacity: 0, transform: "translateY(-35%) scale(1.15)" },
];

function cardLabel(rank, parts) {
  return [cardName(rank), ...parts].join(", ");
}

function paintHeartCard(node, state, t) {
  const entry = state.view.heart?.[t - 1]; // no heart before the start: nothing to show
  const selected = state.view.selected === t;
  const look = entry
    ? [entry.rank, entry.free, selected, isHinted(state, t), isDimmed(state, t)].join()
    : "gone";
  if (node.look === look) return;
  const wasThere = node.look !== undefined && node.look !== "gone";
  node.look = look;
  node.getAnimations?.().forEach((a) => a.cancel());
  toggle(node, "gone", !entry);
  node.disabled = !entry;
  if (!entry) {
    node.removeAttribute("aria-label");
    if (wasThere && state.event === "pair") animate(node, LEAVE, 320);
    return;
  }
  setFace(node, entry.rank);
  toggle(node, "ten", entry.rank === 10);
  toggle(node, "free", entry.free);
  toggle(node, "covered", !entry.free);
  toggle(node, "selected", selected);
  toggle(node, "hint", isHinted(state, t));
  toggle(node, "dim", isDimmed(state, t));
  node.setAttribute("aria-pressed", String(selected));
  const parts = [entry.free ? gettext("free") : gettext("covered")];
  if (isHinted(state, t)) parts.push(gettext("has a partner"));
  node.setAttribute("aria-label", cardLabel(entry.rank, parts));
}

function stockLabel(view) {
  if (view.stock) {
    const fmt = ngettext("Stock, %(n)s card", "Stock, %(n)s cards", view.stock);
    return interpolate(fmt, { n: view.stock });
  }
  return view.waste.size ? gettext("Stock empty: tap to redeal") : gettext("Stock empty");
}

function paintStock(node, state) {
  const { view } = state;
  const look = [view.stock, view.waste.size].join();
  if (node.look === look) return;
  node.look = look;
  toggle(node, "empty", !view.stock);
  toggle(node, "redeal", !view.stock && view.waste.size > 0);
  toggle(node, "thick", view.stock > 1);
  setText(node.lastChild, view.stock ? String(view.stock) : view.waste.size ? "↻" : "");
  node.setAttribute("aria-label", stockLabel(view));
}

function wasteLabel(view, parts) {
  const { top, size } = view.waste;
  if (top == null) return gettext("Waste, empty");
  const fmt = ngettext("Waste: %(card)s, %(n)s card", "Waste: %(card)s, %(n)s cards", size);
  return [interpolate(fmt, { card: cardName(top), n: size }), ...parts].join(", ");
}

const DRAWN = [
  { transform: "translateX(calc(var(--cw) * -5)) rotateY(80deg)" },
  { transform: "none" },
];

function paintWaste(node, state) {
  const { view, previous, event } = state;
  const selected = view.selected === "waste";
  const [hinted, dimmed] = [isHinted(state, "waste"), isDimmed(state, "waste")];
  const look = [view.waste.top, view.waste.size, selected, hinted, dimmed].join();
  if (node.look === look) return;
  if (event === "pair" && previous && previous.waste.size > view.waste.size) ghost(node);
  node.look = look;
  toggle(node, "empty", view.waste.top == null);
  toggle(node, "free", view.waste.top != null);
  toggle(node, "selected", selected);
  toggle(node, "hint", hinted);
  toggle(node, "dim", dimmed);
  setFace(node, view.waste.top);
  toggle(node, "ten", view.waste.top === 10);
  // Before the start the waste shows no card, so no count either: an empty slot.
  setText(node.lastChild, view.waste.top != null ? String(view.waste.size) : "");
  node.setAttribute("aria-pressed", String(selected));
  node.setAttribute("aria-label", wasteLabel(view, selected ? [gettext("selected")] : []));
  if (event === "draw") animate(node, DRAWN, 240);
}

/** A paired waste card flies off as a copy while the real waste shows the card below it. */
function ghost(node) {
  if (reducedMotion) return;
  const copy = node.cloneNode(true);
  copy.removeAttribute("data-target");
  copy.setAttribute("aria-hidden", "true");
  copy.tabIndex = -1;
  copy.classList.add("ghost");
  node.after(copy);
  const done = () => copy.remove();
  copy.animate(LEAVE, { duration: 320, easing: "ease-in" }).finished.then(done, done);
}

function paintBar(ui, state) {
  const { view } = state;
  setText(ui.stats.score, String(view.score));
  setText(ui.stats.moves, String(view.moves));
  const playable = isPlayable(state);
  for (const button of ui.controls.undo) button.disabled = !(playable && view.can_undo);
  for (const button of ui.controls.resign) button.disabled = !playable;
  toggle(ui.root, "offline", !state.online);
  toggle(ui.root, "over", isOver(state));
}

function paintStart(ui, state) {
  if (!ui.start) return; // a spectator's or a racer's board has no Start
  const waiting = awaitingStart(state);
  if (ui.start.hidden === waiting) ui.start.hidden = !waiting;
  ui.start.querySelector("[data-action=start]").disabled = !state.online;
  toggle(ui.root, "awaiting-start", waiting);
}

/** Bring the page in line with `state`; cheap when little changed. */
export function render(ui, state) {
  for (const t of ui.layout.positions) paintHeartCard(ui.nodes.get(t), state, t);
  paintStock(ui.nodes.get("stock"), state);
  paintWaste(ui.nodes.get("waste"), state);
  paintBar(ui, state);
  paintStart(ui, state);
}
