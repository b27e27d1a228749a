// The end-of-game window's words and numbers, from the result the server sends (docs/protocol.md,
// "The end of a ranked daily"). Pure: no DOM, so node tests read every text it makes.
import { gettext, interpolate } from "../site/i18n.js";

const MINUTE_MS = 60_000;
const pad = (n) => String(n).padStart(2, "0");

/** "par 38", the same word in both languages; "" while the server has not computed it. */
export function parText(par) {
  return Number.isInteger(par) ? interpolate(gettext("par %(n)s"), { n: par }) : "";
}

/** A percentile as shown: "62 %" (a no-break space before the sign, as both languages write it). */
export function percentText(percent) {
  return `${percent}\u00a0%`;
}

/** Where the result stands among the day's ranked results (its `daily` object). With nobody
 * after it (a percentile of 0) it is not "faster than 0 %": a win says it is one of the day's
 * winners, a loss what it cleared. */
export function standingText(result) {
  const { cleared, percentile, compared } = result.daily;
  const percent = percentile ? percentText(percentile) : null;
  if (result.won) {
    if (percentile == null) return gettext("The first winner of the day so far");
    if (percent == null) {
      return interpolate(gettext("One of today's %(n)s winners so far"), { n: compared + 1 });
    }
    return interpolate(gettext("Faster than %(percent)s of today's winners"), { percent });
  }
  if (percent == null) return interpolate(gettext("Cleared %(n)s of 25"), { n: cleared });
  const fmt = gettext("Cleared %(n)s of 25: better than %(percent)s of today's players");
  return interpolate(fmt, { n: cleared, percent });
}

/** "hh:mm:ss" until an instant `ms` milliseconds away; never below zero. */
export function countdownText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}

/** The next deal's instant in the player's own time zone: "Wed 08:00" (in `lang`). */
export function localMoment(iso, lang, timeZone = undefined) {
  const format = { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  return new Intl.DateTimeFormat(lang, { ...format, timeZone }).format(new Date(iso));
}

/** A bar's label: "<2", "2–3", "15+" minutes, or "not cleared". */
export function barLabel(bar) {
  if (!bar.won) return gettext("not cleared");
  const from = bar.from_ms / MINUTE_MS;
  if (bar.to_ms == null) return `${from}+`;
  const to = bar.to_ms / MINUTE_MS;
  return from === 0 ? `<${to}` : `${from}–${to}`;
}

/** The chart's text alternative: every bar's count, and which one is the player's. */
export function chartSummary(distribution) {
  const { bars, you } = distribution;
  const minutes = (bar) =>
    bar.won ? interpolate(gettext("%(span)s min"), { span: barLabel(bar) }) : barLabel(bar);
  const parts = bars.map((bar) => `${minutes(bar)}: ${bar.count}`);
  const fmt = gettext("Today's results, players per time in minutes: %(bars)s. Yours: %(yours)s.");
  return interpolate(fmt, { bars: parts.join(", "), yours: minutes(bars[you]) });
}

/** Bar geometry in a `width` × `height` box: each bar's x, width, y and height, the tallest
 * filling `height`, an empty one a hairline so every bucket shows. */
export function chartBars(distribution, width, height) {
  const { bars, you } = distribution;
  const most = Math.max(1, ...bars.map((bar) => bar.count));
  const step = width / bars.length;
  const gap = Math.min(4, step / 5);
  return bars.map((bar, i) => {
    const tall = Math.max(1, Math.round((bar.count / most) * height));
    return { x: i * step + gap / 2, width: step - gap, y: height - tall, height: tall,
      count: bar.count, label: barLabel(bar), yours: i === you, won: bar.won };
  });
}
