// The board's plain state and pure derivations from the server's public view.
// Nothing here is trusted: the server's next view always replaces what we show.

const SETTINGS_KEY = "h2h.settings";
const DEFAULT_SETTINGS = { moveErrors: false, placementHelp: true };

export function loadSettings(storage = globalThis.localStorage) {
  try {
    const saved = JSON.parse(storage.getItem(SETTINGS_KEY) || "{}");
    return { ...DEFAULT_SETTINGS, ...saved };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(settings, storage = globalThis.localStorage) {
  try {
    storage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or a full quota: the setting still holds for this page.
  }
}

export function createState(view, game) {
  return {
    view,
    previous: null, // the view before the last frame, to animate what changed
    event: null,
    game,
    skewMs: clockSkew(game),
    settings: loadSettings(),
    online: false,
    ready: false,
  };
}

/** Server time minus local time, so the timer counts the server's clock. */
export function clockSkew(game, now = Date.now()) {
  const serverNow = Date.parse(game?.server_now);
  return Number.isFinite(serverNow) ? serverNow - now : 0;
}

/** Apply a state frame: the server's view and game replace ours. */
export function applyFrame(state, frame) {
  state.previous = state.view;
  state.view = frame.view;
  state.event = frame.event || null;
  if (frame.game) {
    state.game = { ...state.game, ...frame.game };
    if (frame.game.server_now) state.skewMs = clockSkew(frame.game);
  }
}

/** The rank shown at a target (1-25 or "waste"), or null. */
export function rankAt(view, target) {
  if (target === "waste") return view.waste?.top ?? null;
  if (typeof target !== "number") return null;
  return view.heart?.[target - 1]?.rank ?? null; // no heart before the start
}

export function isOver(state) {
  return Boolean(state.view.won) || (state.game.status && state.game.status !== "open");
}

/** A ranked daily game before its Start: no card is shown and nothing but Start is sent. */
export function awaitingStart(state) {
  return Boolean(state.game.awaiting_start) && !isOver(state);
}

/** Whether taps, undo and resign make sense now (the server decides anyway). */
export function isPlayable(state) {
  return state.online && !isOver(state) && !awaitingStart(state);
}

/** Placement help's darkening: while a card is selected, does `target` fail to match it? */
export function isDimmed(state, target) {
  const { view, settings } = state;
  if (!settings.placementHelp || view.selected == null || target === view.selected) return false;
  const rank = rankAt(view, target);
  return rank != null && rank !== rankAt(view, view.selected);
}

export function isHinted(state, target) {
  return state.settings.placementHelp && (state.view.hints || []).includes(target);
}

/** Milliseconds played: from the server's start to now, without the servers' outages in
 * between (`paused_ms`), or the finished game's duration. */
export function elapsedMs(state, now = Date.now()) {
  const { game } = state;
  if (game.result?.duration_ms != null) return game.result.duration_ms;
  const start = Date.parse(game.started_at);
  if (!Number.isFinite(start)) return 0;
  const end = game.finished_at ? Date.parse(game.finished_at) : now + state.skewMs;
  return Math.max(0, end - start - (game.paused_ms || 0));
}

export function formatTime(ms) {
  const total = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
