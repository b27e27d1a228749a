// A reconnecting JSON socket for the live pages: boards, spectating and races. Every connect
// begins with the server's full snapshot, so reconnecting is also resynchronising.
import { backoff, reconnectWhenBack, wsUrl } from "../game/socket.js";

// Close codes after which retrying cannot help (docs/protocol.md, "Realtime").
const FINAL = new Set([4001, 4003, 4004]);

export class LiveSocket {
  /** `onFrame(frame)` gets every frame; `onStatus(online, closeCode)` hears opens and closes. */
  constructor(path, { onFrame, onStatus = () => {} }) {
    this.url = wsUrl(path);
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.attempts = 0;
    this.timer = null;
    this.ws = null;
    reconnectWhenBack(this);
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.onStatus(true);
    };
    ws.onmessage = (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    };
    ws.onclose = (event) => this.closed(ws, event);
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.onStatus(false, event.code);
    if (FINAL.has(event.code)) return;
    this.timer = setTimeout(() => this.open(), backoff(this.attempts++));
  }

  /** Send a frame if the socket is open; false if it is not (the next snapshot will tell). */
  send(frame) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  reconnectNow() {
    if (this.timer) this.open();
  }
}

/** The JSON a page passed with json_script. */
export function readJson(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

/** A result's time as m:ss, as the pages' `duration` filter writes it. */
export function duration(ms) {
  if (ms == null) return "";
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Put `text` in the element marked data-slot=`name` inside `root`. */
export function fillSlot(root, name, text) {
  const node = root.querySelector(`[data-slot=${name}]`);
  if (node && node.textContent !== String(text)) node.textContent = String(text);
  return node;
}
