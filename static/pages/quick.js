// The quick race's queue page: its socket queues the player on connect, says how many wait,
// and sends the room once matched (docs/protocol.md, "The quick race"); the page then goes to
// the room. A ghost race offered after a long wait may be taken or put aside: either way the
// player stays queued until the page is left.
import { readJson } from "../site/dom.js";
import { interpolate } from "../site/i18n.js";
import { Connection } from "../socket/socket.js";

const $ = (selector, root = document) => root.querySelector(selector);

function showStatus(page, text) {
  const status = $("[data-quick-status]", page.root);
  if (status.textContent !== text) status.textContent = text;
}

function offerGhost(page, url) {
  $("[data-quick-ghost-link]", page.root).href = url;
  $("[data-quick-ghost]", page.root).hidden = false;
}

function onFrame(page, frame) {
  page.root.dataset.frames = String(++page.frames);
  if (frame.type === "queued") {
    showStatus(page, interpolate(page.labels.waiting, { n: frame.waiting }));
  } else if (frame.type === "matched") {
    showStatus(page, page.labels.matched);
    page.socket.close();
    globalThis.location.assign(frame.url);
  } else if (frame.type === "ghost_offer") offerGhost(page, frame.url);
  else if (frame.type === "error") showStatus(page, frame.message);
}

function onStatus(page, online, closeCode, notice) {
  page.root.classList.toggle("offline", !online);
  if (!online && notice?.text) showStatus(page, notice.text);
}

function boot() {
  const root = $("[data-quick]");
  const page = { root, labels: readJson("quick-labels"), frames: 0 };
  page.socket = new Connection(root.dataset.wsPath, {
    onFrame: (frame) => onFrame(page, frame),
    onStatus: (...status) => onStatus(page, ...status),
  });
  $("[data-quick-keep]", root).addEventListener("click", () => {
    $("[data-quick-ghost]", root).hidden = true;
  });
  page.socket.open();
}

boot();
