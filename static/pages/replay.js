// The replay viewer: a completed game step by step. Each step's public view comes from the
// server, which replays the stored log; the stock's order never reaches this page. The board
// only shows: no socket, no window, and the time is the step's.
import { createBoard, readOnlyState } from "../board/board.js";
import { formatTime } from "../board/state.js";
import { receiveState } from "../board/transitions.js";
import { readJson } from "../site/dom.js";
import { interpolate } from "../site/i18n.js";
import { Steps } from "./steps.js";

const BASE_STEP_MS = 650; // one step at 1×
const KEYS = { ArrowLeft: "back", ArrowRight: "forward", " ": "play" };

function collectControls(root) {
  const controls = document.querySelector("[data-replay]");
  return {
    controls,
    button: (name) => controls.querySelector(`[data-do=${name}]`),
    position: controls.querySelector("[data-position]"),
    speed: controls.querySelector("[data-speed]"),
    text: controls.querySelector("[data-step-text]"),
    time: root.querySelector("[data-stat=time]"),
  };
}

function paintStep(replay, step) {
  const { ui, steps } = replay;
  const last = steps.total - 1;
  ui.time.textContent = formatTime(step.at_ms);
  ui.position.value = String(step.index);
  ui.text.textContent = interpolate(ui.text.dataset.format, { n: step.index, total: last });
  replay.root.dataset.step = String(step.index);
  ui.button("back").disabled = ui.button("first").disabled = step.index === 0;
  ui.button("forward").disabled = ui.button("last").disabled = step.index === last;
}

/** The step's view on the board, its move animated when `animate` (the steps played forward). */
function showView(board, view, event) {
  const { state } = receiveState(board.state, { type: "state", view, event });
  board.show(state);
  state.event = null; // animated once
}

async function show(replay, index, animate) {
  const step = await replay.steps.get(replay.steps.clamp(index));
  replay.at = step.index;
  showView(replay.board, step.view, animate ? step.event : null);
  paintStep(replay, step);
  if (step.index === replay.steps.total - 1) pause(replay);
}

function setPlayButton(replay, playing) {
  const play = replay.ui.button("play");
  play.textContent = playing ? play.dataset.pauseLabel : play.dataset.playLabel;
  play.setAttribute("aria-pressed", String(playing));
}

function play(replay) {
  if (replay.at === replay.steps.total - 1) show(replay, 0, false);
  setPlayButton(replay, true);
  const delay = () => BASE_STEP_MS / Number(replay.ui.speed.value);
  const tick = async () => {
    await show(replay, replay.at + 1, true);
    if (replay.timer !== null) replay.timer = setTimeout(tick, delay());
  };
  replay.timer = setTimeout(tick, delay());
}

function pause(replay) {
  clearTimeout(replay.timer);
  replay.timer = null;
  setPlayButton(replay, false);
}

function act(replay, name) {
  if (name !== "play") pause(replay);
  const last = replay.steps.total - 1;
  if (name === "first") show(replay, 0, false);
  else if (name === "back") show(replay, replay.at - 1, false);
  else if (name === "forward") show(replay, replay.at + 1, true);
  else if (name === "last") show(replay, last, false);
  else if (name === "play") (replay.timer === null ? play : pause)(replay);
}

function bindControls(replay) {
  const { controls, position } = replay.ui;
  controls.addEventListener("click", (event) => {
    const name = event.target.closest("[data-do]")?.dataset.do;
    if (name) act(replay, name);
  });
  position.addEventListener("input", () => {
    pause(replay);
    show(replay, Number(position.value), false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select, textarea, button") || !KEYS[event.key]) return;
    event.preventDefault();
    act(replay, KEYS[event.key]);
  });
}

function boot() {
  const root = document.getElementById("board");
  const first = readJson("replay-steps");
  const ui = collectControls(root);
  const steps = new Steps(first, ui.controls.dataset.stepsUrl);
  const [view, game] = [first.steps[0].view, { status: "open", started_at: null }];
  const state = readOnlyState(view, game);
  const board = createBoard(root, { layout: readJson("h2h-layout"), state, readOnly: true });
  const replay = { root, ui, steps, board, at: 0, timer: null };
  bindControls(replay);
  show(replay, 0, false).then(() => (root.dataset.ready = "1"));
}

boot();
