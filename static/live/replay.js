// The replay viewer: a completed game step by step. Each step's public view comes from the
// server, which replays the stored log; the stock's order never reaches this page.
import { formatTime } from "../game/state.js";
import { interpolate } from "../game/i18n.js";
import { readJson } from "./socket.js";
import { createViewer } from "./viewer.js";

const BASE_STEP_MS = 650; // one step at 1×
const PREFETCH = 25; // fetch the next chunk this many steps before it is needed

class Steps {
  /** The steps loaded so far, fetched in chunks from the server as playback needs them. */
  constructor(first, url) {
    this.total = first.total;
    this.url = url;
    this.loaded = new Map(first.steps.map((step) => [step.index, step]));
    this.pending = new Map();
  }

  async get(index) {
    if (!this.loaded.has(index)) await this.fetch(index);
    const next = index + PREFETCH;
    if (next < this.total && !this.loaded.has(next)) this.fetch(next);
    return this.loaded.get(index);
  }

  fetch(index) {
    const start = index - (index % 100);
    if (!this.pending.has(start)) {
      const request = fetch(`${this.url}?start=${start}`, { credentials: "same-origin" })
        .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
        .then((chunk) => chunk.steps.forEach((step) => this.loaded.set(step.index, step)))
        .finally(() => this.pending.delete(start));
      this.pending.set(start, request);
    }
    return this.pending.get(start);
  }
}

function boot() {
  const root = document.getElementById("board");
  const controls = document.querySelector("[data-replay]");
  const first = readJson("replay-steps");
  const steps = new Steps(first, controls.dataset.stepsUrl);
  const start = first.steps[0];
  const viewer = createViewer(root, start.view, { status: "open", started_at: null });
  const button = (name) => controls.querySelector(`[data-do=${name}]`);
  const position = controls.querySelector("[data-position]");
  const speed = controls.querySelector("[data-speed]");
  const text = controls.querySelector("[data-step-text]");
  const time = root.querySelector("[data-stat=time]");
  let at = 0;
  let timer = null;

  async function show(index, animate) {
    index = Math.max(0, Math.min(steps.total - 1, index));
    const step = await steps.get(index);
    at = index;
    viewer.show({ view: step.view, event: animate ? step.event : null });
    time.textContent = formatTime(step.at_ms);
    position.value = String(index);
    text.textContent = interpolate(text.dataset.format, { n: index, total: steps.total - 1 });
    root.dataset.step = String(index);
    button("back").disabled = button("first").disabled = index === 0;
    button("forward").disabled = button("last").disabled = index === steps.total - 1;
    if (index === steps.total - 1) pause();
  }

  function play() {
    if (at === steps.total - 1) show(0, false);
    const play = button("play");
    play.textContent = play.dataset.pauseLabel;
    play.setAttribute("aria-pressed", "true");
    const tick = async () => {
      await show(at + 1, true);
      if (timer !== null) timer = setTimeout(tick, BASE_STEP_MS / Number(speed.value));
    };
    timer = setTimeout(tick, BASE_STEP_MS / Number(speed.value));
  }

  function pause() {
    clearTimeout(timer);
    timer = null;
    const play = button("play");
    play.textContent = play.dataset.playLabel;
    play.setAttribute("aria-pressed", "false");
  }

  const actions = {
    first: () => show(0, false),
    back: () => show(at - 1, false),
    forward: () => show(at + 1, true),
    last: () => show(steps.total - 1, false),
    play: () => (timer === null ? play() : pause()),
  };
  controls.addEventListener("click", (event) => {
    const name = event.target.closest("[data-do]")?.dataset.do;
    if (!name) return;
    if (name !== "play") pause();
    actions[name]();
  });
  position.addEventListener("input", () => {
    pause();
    show(Number(position.value), false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select, textarea, button")) return;
    const name = { ArrowLeft: "back", ArrowRight: "forward", " ": "play" }[event.key];
    if (!name) return;
    event.preventDefault();
    if (name !== "play") pause();
    actions[name]();
  });
  show(0, false).then(() => (root.dataset.ready = "1"));
}

boot();
