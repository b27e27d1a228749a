// The rank orders the server sends as data, e.g. ["-score", "duration_ms", "moves"]: the pages
// sort by them and never write a rank order of their own.

function compareValues(a, b) {
  if (a === b) return 0;
  if (a == null) return 1; // no value yet (a racer still playing has no time): after all others
  if (b == null) return -1;
  return a < b ? -1 : 1;
}

/** A comparer for `order`: keys in turn, a leading "-" for descending; null sorts last. */
export function compareBy(order) {
  return (a, b) => {
    for (const key of order) {
      const field = key.replace(/^-/, "");
      const nullish = a[field] == null || b[field] == null;
      const c = compareValues(a[field], b[field]);
      if (c) return key.startsWith("-") && !nullish ? -c : c;
    }
    return 0;
  };
}

/** Where `row` goes among `rows` (already in `order`): after every row it does not beat. */
export function insertionIndex(rows, row, order) {
  const compare = compareBy(order);
  const index = rows.findIndex((shown) => compare(row, shown) < 0);
  return index < 0 ? rows.length : index;
}
