// Where things sit on the table: RULES.md's heart geometry as data, x in card widths, r in rows.
// Display only: which card covers which is the server's business (the view says "free").

const ROWS = [
  [0.5, 1.5, 3.5, 4.5],
  [0, 1, 2, 3, 4, 5],
  [0.5, 1.5, 2.5, 3.5, 4.5],
  [1, 2, 3, 4],
  [1.5, 2.5, 3.5],
  [2, 3],
  [2.5],
];

/** target (1-25, "stock", "waste") -> {x, r}; the piles flank the tip. */
export const SPOTS = new Map();
let position = 1;
ROWS.forEach((xs, r) => xs.forEach((x) => SPOTS.set(position++, { x, r })));
SPOTS.set("stock", { x: 0, r: 6 });
SPOTS.set("waste", { x: 5, r: 6 });

export const POSITIONS = [...SPOTS.keys()].filter((t) => typeof t === "number");

// A row step is ~0.6 card widths on screen, so distances are measured in card widths.
const ROW_STEP = 0.6;

function cost(key, dx, dy) {
  const horizontal = key === "ArrowLeft" || key === "ArrowRight";
  const ahead = { ArrowLeft: -dx, ArrowRight: dx, ArrowUp: -dy, ArrowDown: dy }[key];
  if (ahead <= 0.01) return Infinity;
  if (horizontal && Math.abs(dy) > ROW_STEP + 0.01) return Infinity;
  return horizontal ? ahead + 4 * Math.abs(dy) : ahead * 4 + Math.abs(dx);
}

/** The nearest target from `from` in an arrow key's direction among `present`, or null. */
export function neighbour(from, key, present) {
  const a = SPOTS.get(from);
  let best = null;
  let bestCost = Infinity;
  for (const t of present) {
    const b = SPOTS.get(t);
    const c = cost(key, b.x - a.x, (b.r - a.r) * ROW_STEP);
    if (c < bestCost) [best, bestCost] = [t, c];
  }
  return best;
}
