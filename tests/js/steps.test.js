// A replay's steps: fetched in chunks of 100 as playback needs them, each chunk once.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Steps } from "../../static/pages/steps.js";

function server(total) {
  const asked = [];
  const fetcher = async (url) => {
    const start = Number(new URL(url, "http://x").searchParams.get("start"));
    asked.push(start);
    const steps = [];
    for (let i = start; i < Math.min(total, start + 100); i += 1) steps.push({ index: i });
    return { ok: true, json: async () => ({ total, start, steps }) };
  };
  return { asked, fetcher };
}

test("a step beyond the page's chunk is fetched with its chunk, once", async () => {
  const { asked, fetcher } = server(250);
  const steps = new Steps({ total: 250, steps: [{ index: 0 }] }, "/replay/1/steps/", fetcher);
  const [a, b] = await Promise.all([steps.get(130), steps.get(131)]);
  assert.deepEqual([a.index, b.index], [130, 131]);
  assert.deepEqual(asked, [100]);
});

test("the next chunk is fetched 25 steps before playback needs it", async () => {
  const { asked, fetcher } = server(250);
  const steps = new Steps({ total: 250, steps: [{ index: 0 }] }, "/replay/1/steps/", fetcher);
  await steps.get(174);
  assert.deepEqual(asked, [100]);
  await steps.get(175);
  assert.deepEqual(asked, [100, 200]);
});

test("indexes are clamped to the game", () => {
  const steps = new Steps({ total: 10, steps: [] }, "/replay/1/steps/", async () => ({}));
  assert.deepEqual([steps.clamp(-3), steps.clamp(4), steps.clamp(99)], [0, 4, 9]);
});
