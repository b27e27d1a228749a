// The share card: spoiler-free text to post after a game. The heart in its own shape in emoji,
// a cell cleared or left (never a card's rank, never the leaderboard place), time, moves (against
// par, but for a daily deal), a clean mark and the link. Pure: node tests read it.
import { formatTime } from "../board/state.js";
import { gettext, interpolate, ngettext } from "../site/i18n.js";
import { parText } from "./finish.js";

export const CLEARED = "🟥"; // the heart fills in red as it is cleared
export const LEFT = "⬜";
const HALF_CARD = "\u2002"; // an en space: half an emoji's width, as the rows sit half a card apart

/** The heart's rows (4, 6, 5, 4, 3, 2, 1 cells) as `layout` (board/layout.js) places them, each
 * a line; `heart` is the view's 25 entries, null where the card is gone. */
export function heartPicture(heart, layout) {
  const lines = [];
  for (const [target, { x, r }] of layout.spots) {
    if (typeof target !== "number") continue;
    const row = (lines[r] ??= { text: "", at: 0 });
    row.text += HALF_CARD.repeat(Math.round(2 * x) - row.at);
    row.text += heart[target - 1] == null ? CLEARED : LEFT;
    row.at = Math.round(2 * x) + 2;
  }
  return lines.map((row) => row.text).join("\n");
}

function headline(game) {
  const name = game.daily_date ? `${gettext("Daily deal")} ${game.daily_date}` : game.code;
  return `Heart to Heart · ${name}`;
}

/** A daily deal's card is posted while others still have the day's game to play, and par
 * would give them its shortest line's length: only another deal's card shows it. */
function numbers(game) {
  const result = game.result;
  const n = result.moves;
  const moves = interpolate(ngettext("%(n)s move", "%(n)s moves", n), { n });
  const par = game.daily_date ? null : parText(result.par);
  const parts = [`⏱ ${formatTime(result.duration_ms)}`, par ? `${moves} (${par})` : moves];
  if (result.clean) parts.push(`✨ ${gettext("clean")}`);
  return parts.join(" · ");
}

/** The whole share text of a finished game (`game.result` set) whose last view is `view`. */
export function shareCard(game, view, url, layout) {
  return [headline(game), heartPicture(view.heart, layout), numbers(game), url].join("\n");
}

/** Where the shared link points: a daily's public leaderboard of its day (it previews as a card
 * and leads to the day's deal), else the deal's own page. */
export function sharePath(game) {
  return game.daily_date ? `/leaderboard/daily/${game.daily_date}/` : `/play/${game.code}/`;
}
