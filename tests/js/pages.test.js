// Which modules each page loads, read from their imports: the board loads no page, socket or
// window; the watch and replay pages load no window and no share card; and the play page
// preloads exactly the modules it loads.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const STATIC = new URL("../../static/", import.meta.url);

/** Every module `entry` (a path under static/) loads, itself included. */
function loads(entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length) {
    const path = todo.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const source = readFileSync(new URL(path, STATIC), "utf8");
    for (const [, from] of source.matchAll(/^import [^;]*? from "([^"]+)";/gms)) {
      todo.push(new URL(from, new URL(path, STATIC)).href.slice(STATIC.href.length));
    }
  }
  return [...seen].sort();
}

test("the board loads only the board and what every page shares", () => {
  const outside = loads("board/board.js").filter((path) => !/^(board|site)\//.test(path));
  assert.deepEqual(outside, []);
});

test("the watch and replay pages load no window and no share card", () => {
  for (const page of ["pages/watch.js", "pages/replay.js"]) {
    assert.deepEqual(loads(page).filter((path) => path.startsWith("windows/")), [], page);
  }
  assert.ok(!loads("pages/replay.js").includes("socket/socket.js")); // a replay has no socket
});

test("the play page preloads every module it loads, and nothing else", () => {
  const template = readFileSync(new URL("../../templates/game/play.html", import.meta.url), "utf8");
  const named = [...template.matchAll(/static_prefix }}([\w/.-]+\.js)"/g)].map(([, path]) => path);
  assert.deepEqual(named.sort(), loads("pages/play.js"));
});
