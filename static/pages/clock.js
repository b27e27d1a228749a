// A game page's clock: the time shown ticks from the server's start, corrected for this
// device's clock, and stands still at the result (board/state.js's elapsedMs).
import { elapsedMs, formatTime } from "../board/state.js";

const TICK_MS = 250;

/** Show in `node` the time of whatever state `stateOf()` gives (none yet: nothing changes). */
export function startClock(node, stateOf) {
  const tick = () => {
    const state = stateOf();
    if (!state || !node) return;
    const text = formatTime(elapsedMs(state));
    if (node.textContent !== text) node.textContent = text;
  };
  tick();
  return setInterval(tick, TICK_MS);
}
