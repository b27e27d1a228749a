// The connection to the referee: numbered messages, replies matched by seq, and a reconnect
// with jittered exponential backoff that resends what was not acknowledged, once, same seq.

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;
// 4001: not (or no longer) logged in, 4004: not a deal code (docs/protocol.md): retrying
// cannot help. Others (a restart, 4008 flooding, 4009 too many tabs) are worth retrying.
export const LOGGED_OUT = 4001;
const FINAL_CLOSE_CODES = new Set([LOGGED_OUT, 4004]);

/** Delay before reconnect attempt `n` (0-based): exponential, capped, with full jitter. */
export function backoff(n, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** n);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function wsUrl(path, loc = globalThis.location) {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}${path}`;
}

/** Reconnect at once, not at the next backoff, when the network or the page comes back. */
export function reconnectWhenBack(socket) {
  globalThis.addEventListener?.("online", () => socket.reconnectNow());
  document.addEventListener?.("visibilitychange", () => {
    if (document.visibilityState === "visible") socket.reconnectNow();
  });
}

export class Connection {
  /** `onFrame(frame)` gets every frame; `onStatus(online, closeCode)` hears the socket open
   * and close. */
  constructor(path, { onFrame, onStatus }) {
    this.url = wsUrl(path);
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.nextSeq = 1;
    this.unacked = new Map(); // seq -> message sent but not yet answered
    this.attempts = 0;
    this.timer = null;
    this.stopped = false;
    reconnectWhenBack(this);
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.greeted = false;
    ws.onmessage = (msg) => this.receive(msg.data);
    ws.onclose = (e) => this.closed(ws, e);
  }

  get isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Number and send a message; it is resent after a reconnect until it is answered. */
  send(message) {
    const numbered = { ...message, seq: this.nextSeq++ };
    this.unacked.set(numbered.seq, numbered);
    if (this.isOpen) this.ws.send(JSON.stringify(numbered));
    return numbered.seq;
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame.seq != null) this.unacked.delete(frame.seq);
    // Another tab may have stored actions: number on past the game's last stored seq.
    const last = Number(frame.game?.last_seq);
    if (last >= this.nextSeq) this.nextSeq = last + 1;
    const greeting = frame.type === "state" && !this.greeted;
    if (greeting) this.greet(frame);
    this.onFrame(frame);
    if (!greeting) return;
    for (const m of this.unacked.values()) this.ws.send(JSON.stringify(m));
    this.onStatus(true);
  }

  /** The server's greeting (full state) after each connect: number on from its last seq. */
  greet(frame) {
    this.greeted = true;
    this.attempts = 0;
    const pending = [...this.unacked.keys()].map((seq) => seq + 1);
    this.nextSeq = Math.max(this.nextSeq, ...pending);
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.onStatus(false, event.code);
    if (this.stopped || FINAL_CLOSE_CODES.has(event.code)) return;
    this.timer = setTimeout(() => this.open(), backoff(this.attempts++));
  }

  reconnectNow() {
    if (this.timer && !this.stopped) this.open();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
