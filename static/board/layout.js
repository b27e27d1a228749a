// Where things sit on the table. The heart's geometry is the server's (the play socket's greeting
// and the board pages carry it as `layout`, docs/protocol.md): its rows' x offsets in card
// widths, positions numbered 1-25 row by row. Display only: which card covers which is the
// server's business (the view says "free").

// A row step is ~0.6 card widths on screen, so distances are measured in card widths.
const ROW_STEP = 0.6;

/** target (1-25, "stock", "waste") -> {x, r}: the heart's positions from `rows`, and the piles
 * flanking its tip, on its last row at its outer edges. */
function spotsOf(rows) {
  const spots = new Map();
  let position = 1;
  rows.forEach((xs, r) => xs.forEach((x) => spots.set(position++, { x, r })));
  const xs = rows.flat();
  spots.set("stock", { x: Math.min(...xs), r: rows.length - 1 });
  spots.set("waste", { x: Math.max(...xs), r: rows.length - 1 });
  return spots;
}

/** The table of a layout: `spots` (target -> {x, r}), the heart's `positions` and its `tip`
 * (the last position, where the focus starts). */
export function createLayout({ rows }) {
  const spots = spotsOf(rows);
  const positions = [...spots.keys()].filter((t) => typeof t === "number");
  return { spots, positions, tip: positions.at(-1) };
}

function cost(key, dx, dy) {
  const horizontal = key === "ArrowLeft" || key === "ArrowRight";
  const ahead = { ArrowLeft: -dx, ArrowRight: dx, ArrowUp: -dy, ArrowDown: dy }[key];
  if (ahead <= 0.01) return Infinity;
  if (horizontal && Math.abs(dy) > ROW_STEP + 0.01) return Infinity;
  return horizontal ? ahead + 4 * Math.abs(dy) : ahead * 4 + Math.abs(dx);
}

/** The nearest target from `from` in an arrow key's direction among `present`, or null. */
export function neighbour(layout, from, key, present) {
  const a = layout.spots.get(from);
  let best = null;
  let bestCost = Infinity;
  for (const t of present) {
    const b = layout.spots.get(t);
    const c = cost(key, b.x - a.x, (b.r - a.r) * ROW_STEP);
    if (c < bestCost) [best, bestCost] = [t, c];
  }
  return best;
}

/** How far apart two targets sit, in card widths. */
export function distance(layout, a, b) {
  const [p, q] = [layout.spots.get(a), layout.spots.get(b)];
  return Math.hypot(p.x - q.x, (p.r - q.r) * ROW_STEP);
}
