// A small DOM for the browser modules under node: linkedom's, plus the little of a browser it
// leaves out that the modules use (focus, modal dialogs, key events, the page's address). Each
// call makes a fresh page and puts it where the modules look: document, window, location,
// navigator.
import { parseHTML } from "linkedom";

/** The board's markup as templates/game/play.html lays it out, without the windows. */
export const BOARD = `
<section id="board" class="h2h">
  <div class="h2h-bar">
    <span data-stat="time">0:00</span><span data-stat="score">0</span>
    <span data-stat="moves">0</span>
  </div>
  <div class="h2h-table">
    <div class="h2h-heart"></div>
    <p class="h2h-toast" hidden></p>
    <div class="h2h-start" data-start hidden><button data-action="start">Start</button></div>
  </div>
  <div class="h2h-controls">
    <button data-action="undo" disabled>Undo</button>
    <button data-action="resign" disabled>Resign</button>
  </div>
  <p data-watchers hidden><strong data-slot="n">0</strong> watching</p>
  <div class="h2h-offline" hidden>Offline — reconnecting…</div>
  <div class="h2h-live"></div>
</section>`;

/** Focus, and linkedom's tabIndex, which reads -1 whatever was set. */
function focusing(window, document) {
  let focused = null;
  Object.defineProperty(window.HTMLElement.prototype, "tabIndex", {
    configurable: true,
    get() {
      return Number(this.getAttribute("tabindex") ?? -1);
    },
    set(value) {
      this.setAttribute("tabindex", String(value));
    },
  });
  Object.defineProperty(document, "activeElement", {
    configurable: true,
    get: () => (focused?.isConnected ? focused : document.body),
  });
  window.HTMLElement.prototype.focus = function focus() {
    focused = this;
  };
}

function dialogs(window) {
  const proto = window.HTMLElement.prototype;
  Object.defineProperty(proto, "open", {
    configurable: true,
    get() {
      return this.hasAttribute("open");
    },
  });
  proto.showModal = function showModal() {
    this.setAttribute("open", "");
  };
  proto.close = function close(value) {
    if (value !== undefined) this.returnValue = value;
    this.removeAttribute("open");
    this.dispatchEvent(new window.Event("close"));
  };
}

function keyEvents(window) {
  window.KeyboardEvent = class KeyboardEvent extends window.Event {
    constructor(type, init = {}) {
      super(type, { bubbles: true, cancelable: true, ...init });
      this.key = init.key;
      this.ctrlKey = Boolean(init.ctrlKey);
      this.altKey = Boolean(init.altKey);
      this.metaKey = Boolean(init.metaKey);
    }
  };
}

/** A fresh page whose body is `html`; returns its window and document. */
export function page(html = BOARD, url = "https://hearts.example/play/HH1-N-AAAAAAM/") {
  const { window, document } = parseHTML(`<!doctype html><html lang="en"><body>${html}</body></html>`);
  focusing(window, document);
  dialogs(window);
  keyEvents(window);
  Object.assign(window, { scrollX: 0, scrollY: 0, scrollTo() {} });
  const globals = { window, document, location: new URL(url), navigator: {} };
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  return { window, document };
}

/** Press a key on `node` (the document's body if none). */
export function press(key, node = document.body, init = {}) {
  const event = new window.KeyboardEvent("keydown", { key, ...init });
  node.dispatchEvent(event);
  return event;
}

export function click(node) {
  node.dispatchEvent(new window.Event("click", { bubbles: true, cancelable: true }));
}
