// The end-of-game windows' shared part (templates/game/_finish.html): time, moves and par, a
// ranked daily's standing, streaks, chart and countdown, and the share card. The words and
// numbers come from finish.js and share.js; this only puts them in the window.
import { elapsedMs, formatTime } from "../board/state.js";
import { gettext, interpolate } from "../site/i18n.js";
import {
  chartBars,
  chartSummary,
  countdownText,
  localMoment,
  parText,
  standingText,
} from "./finish.js";
import { shareCard, sharePath } from "./share.js";

const SVG = "http://www.w3.org/2000/svg";
// The chart's box (its viewBox): bars between a count line on top and a label line below. The
// page scales it evenly to the window's width (board.css), so its numbers keep their shape.
const CHART = { width: 300, bars: 45, top: 14, bottom: 16 };

const slot = (root, name) => root.querySelector(`[data-slot=${name}]`);

function put(root, name, text) {
  const node = slot(root, name);
  if (node && node.textContent !== text) node.textContent = text;
}

function svgNode(name, attributes, text = "") {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  node.textContent = text;
  return node;
}

function drawBar(svg, bar) {
  const middle = bar.x + bar.width / 2;
  const kind = bar.yours ? " yours" : bar.won ? "" : " lost";
  const y = CHART.top + bar.y;
  svg.append(
    svgNode("rect", { class: `h2h-chart-bar${kind}`, x: bar.x, y, width: bar.width, height: bar.height }),
    svgNode("text", { class: "h2h-chart-count", x: middle, y: y - 3 }, String(bar.count)),
    svgNode("text", { class: `h2h-chart-label${kind}`, x: middle, y: CHART.top + CHART.bars + 12 },
      bar.won ? bar.label : "×"),
  );
}

/** The day's results as bars in the window's inline SVG; its aria-label says it all in words. */
export function drawChart(svg, distribution) {
  svg.replaceChildren();
  const height = CHART.top + CHART.bars + CHART.bottom;
  svg.setAttribute("viewBox", `0 0 ${CHART.width} ${height}`);
  svg.setAttribute("aria-label", chartSummary(distribution));
  for (const bar of chartBars(distribution, CHART.width, CHART.bars)) drawBar(svg, bar);
}

let countdownTimer = null;

/** The countdown to the next deal ticks once a second while its window is open. */
function startCountdown(section, nextDealAt, state) {
  const next = Date.parse(nextDealAt);
  const lang = document.documentElement.lang || undefined;
  put(section, "next-at", `(${localMoment(nextDealAt, lang)})`);
  const dialog = section.closest("dialog");
  const show = () => {
    const left = next - (Date.now() + state.skewMs);
    put(section, "countdown", countdownText(left));
    if (left <= 0) put(section, "next-label", gettext("The next deal is out:"));
  };
  // A closed window stops its clock; opening it again fills it and starts a new one.
  const tick = () => (dialog && !dialog.open ? clearInterval(countdownTimer) : show());
  clearInterval(countdownTimer);
  show();
  countdownTimer = setInterval(tick, 1000);
}

/** The deal's difficulty on the players' rating scale, once the day's deal has one. */
function fillDifficulty(section, difficulty) {
  const box = slot(section, "difficulty-box");
  if (box) box.hidden = difficulty == null;
  put(section, "difficulty", difficulty == null ? "" : String(difficulty));
}

function fillDay(section, result, state) {
  section.hidden = !result?.daily;
  if (!result?.daily) return;
  const { streak, distribution, next_deal_at: nextDealAt } = result.daily;
  put(section, "standing", standingText(result));
  put(section, "streak-current", String(streak.current));
  put(section, "streak-best", String(streak.best));
  fillDifficulty(section, result.daily.difficulty);
  drawChart(slot(section, "chart"), distribution);
  startCountdown(section, nextDealAt, state);
}

function fillShare(dialog, state, layout) {
  const box = slot(dialog, "share-box");
  const { game, view } = state;
  for (const node of [box, slot(dialog, "copy-share")]) node.hidden = !game.result;
  if (!game.result) return;
  const url = `${location.origin}${sharePath(game)}`;
  slot(box, "share").value = shareCard(game, view, url, layout);
  const webShare = slot(dialog, "web-share");
  if (webShare) webShare.hidden = typeof navigator.share !== "function";
}

/** Fill an end-of-game window from the state: what every game shows, then a ranked daily's
 * standing (only its result carries one), then the share card (its heart drawn on `layout`). */
export function fillFinish(dialog, state, layout) {
  const result = state.game.result;
  put(dialog, "time", formatTime(elapsedMs(state)));
  put(dialog, "moves", String(state.view.moves));
  put(dialog, "par", parText(result?.par));
  put(dialog, "rank", result?.rank ? `#${result.rank}` : "–");
  const of = result?.rank && result.of ? interpolate(gettext("of %(n)s"), { n: result.of }) : "";
  put(dialog, "rank-of", of);
  fillDay(slot(dialog, "day"), result, state);
  const note = slot(dialog, "ended-note"); // a ranked daily's standing says more than it
  if (note) note.hidden = Boolean(result?.daily);
  fillShare(dialog, state, layout);
}

/** The share text of the window around `node`: what its Copy and Share buttons send. */
export function shareTextNear(node) {
  return node.closest("dialog")?.querySelector("[data-share]")?.value ?? "";
}
