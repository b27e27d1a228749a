// The heart's layout as the server sends it (docs/protocol.md, "The layout"): the rows' x
// offsets in card widths, positions numbered 1-25 row by row.
export const LAYOUT = {
  rows: [[0.5, 1.5, 3.5, 4.5], [0, 1, 2, 3, 4, 5], [0.5, 1.5, 2.5, 3.5, 4.5], [1, 2, 3, 4],
    [1.5, 2.5, 3.5], [2, 3], [2.5]],
};

/** A view as the engine makes it (docs/protocol.md, "The view"): every card of `ranks` (25,
 * null where removed) on the heart, the free ones listed in `free`. */
export function viewOf({ ranks, free = [25], ...fields } = {}) {
  const heart = (ranks ?? Array.from({ length: 25 }, (_, i) => (i % 13) + 1)).map((rank, i) =>
    rank ? { rank, free: free.includes(i + 1) } : null,
  );
  return {
    code: "HH1-N-AAAAAAM", heart, stock: 26, waste: { top: 4, size: 1 }, selected: null,
    hints: [], score: 0, moves: 0, undos: 0, can_undo: false, won: false, deadlocked: false,
    ...fields,
  };
}

/** A game object (docs/protocol.md, "The game object") of an open game. */
export function gameOf(fields = {}) {
  return {
    id: 7, code: "HH1-N-AAAAAAM", kind: "N", ranked: false, practice: false, status: "open",
    started_at: "2026-01-01T10:00:00Z", awaiting_start: false, server_now: "2026-01-01T10:00:00Z",
    last_seq: 0, daily_date: null, placement_help: true, result: null, ...fields,
  };
}
