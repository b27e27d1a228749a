// The one reconnecting socket of every page (play, race, watch, leaderboards). Each connect
// begins with the server's full snapshot, so reconnecting is also resynchronising. The play
// socket numbers its messages (`numbered`): replies are matched by seq, and after a reconnect
// what was not acknowledged is resent, once, with the same seq. A message the server could not
// store now (`storage_unavailable`) is sent again with the same seq after a back-off, one at a
// time, while the page says "Connection trouble — retrying".

import { gettext } from "../site/i18n.js";
import { FORBIDDEN, LIVE_PAUSED, LOGGED_OUT, NOT_FOUND, TOO_MANY_SOCKETS } from "./close-codes.js";

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;
// Too many sockets: another tab must close first, so ask again rarely.
const CROWDED_BASE_MS = 30000;
const CROWDED_MAX_MS = 300000;
// A message not stored is sent again after 0.25-0.5 s, doubling up to 2.5-5 s: one frame at a
// time, at most 4 a second, well inside the socket's bucket (10 a second, bursts of 20).
const TROUBLE_MAX_MS = 5000;
export const STORAGE_UNAVAILABLE = "storage_unavailable";

// Live updates paused (LIVE_PAUSED): the server's channel layer is down for a moment. A live page
// (a board, a game watched, a race room) says so and asks again within a few seconds: 1 s
// doubling to 3.
const PAUSED_BASE_MS = 1000;
const PAUSED_MAX_MS = 3000;
// Refusals that retrying cannot fix (docs/protocol.md): not (or no longer) logged in; not
// allowed now (a race running, a lobby, a locked daily, a deal the viewer plays); no such game,
// board, room or deal code. Any other close (a restart, 4008 flooding) is worth retrying.
const FINAL_CLOSE_CODES = new Set([LOGGED_OUT, FORBIDDEN, NOT_FOUND]);

/** Delay before reconnect attempt `n` (0-based): exponential, capped, with full jitter. */
export function backoff(n, random = Math.random, base = BASE_DELAY_MS, cap = MAX_DELAY_MS) {
  const ceiling = Math.min(cap, base * 2 ** n);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** What to do after a close: `{final: true}`, or `{delayMs}` before reconnect attempt `n`. */
export function retryAfter(closeCode, n, random = Math.random) {
  if (FINAL_CLOSE_CODES.has(closeCode)) return { final: true };
  if (closeCode === TOO_MANY_SOCKETS) {
    return { delayMs: backoff(n, random, CROWDED_BASE_MS, CROWDED_MAX_MS) };
  }
  if (closeCode === LIVE_PAUSED) {
    return { delayMs: backoff(n, random, PAUSED_BASE_MS, PAUSED_MAX_MS) };
  }
  return { delayMs: backoff(n, random) };
}

export function wsUrl(path, loc = globalThis.location) {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}${path}`;
}

/** Reconnect at once, not at the next backoff, when the network or the page comes back. */
export function reconnectWhenBack(socket, win = globalThis) {
  win.addEventListener?.("online", () => socket.reconnectNow());
  win.document?.addEventListener?.("visibilitychange", () => {
    if (win.document.visibilityState === "visible") socket.reconnectNow();
  });
}

/** What the page says while the server cannot store messages and they wait to be sent again. */
export function troubleNotice() {
  return gettext("Connection trouble — retrying…");
}

/** What the page says while a closed socket waits or gives up: the server's reason when it
 * gave one, else a word for the close code; null for an ordinary drop (the page's own
 * "reconnecting" notice says enough). */
export function closeNotice(closeCode, serverMessage, final) {
  if (!final && closeCode !== TOO_MANY_SOCKETS && closeCode !== LIVE_PAUSED) return null;
  if (serverMessage) return serverMessage;
  if (closeCode === LIVE_PAUSED) return gettext("Live updates paused: reconnecting…");
  if (closeCode === LOGGED_OUT) return gettext("Logged out: log in again to play.");
  return gettext("This page cannot connect: reload it to try again.");
}

function parse(data) {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

export class Connection {
  /** `onFrame(frame)` gets every frame; `onStatus(online, closeCode, notice)` hears the socket
   * come up (its snapshot arrived) and go down: `notice` is {final, text}, `final` when the
   * socket gives up, `text` what to tell the player (closeNotice) or null. */
  constructor(path, { onFrame, onStatus = () => {}, numbered = false }) {
    this.url = wsUrl(path);
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.numbered = numbered;
    this.nextSeq = 1;
    this.unacked = new Map(); // seq -> message sent but not yet answered
    this.refused = null; // while the server cannot store: the seqs to send again, in order
    this.retrying = null; // the seq sent again and not answered yet
    this.troubles = 0; // messages not stored since one last was: the back-off
    this.retryTimer = null;
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
    this.lastError = null;
    ws.onmessage = (msg) => this.receive(msg.data);
    ws.onclose = (e) => this.closed(ws, e);
  }

  get isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Send a message. Numbered: it gets the next seq and is resent after a reconnect until it
   * is answered (while the server cannot store, it waits its turn after those refused).
   * Otherwise it goes only if the socket is open (the next snapshot will tell). */
  send(message) {
    if (!this.numbered) return this.isOpen && (this.ws.send(JSON.stringify(message)), true);
    const numbered = { ...message, seq: this.nextSeq++ };
    this.unacked.set(numbered.seq, numbered);
    if (this.refused) this.refused.add(numbered.seq);
    else if (this.isOpen) this.ws.send(JSON.stringify(numbered));
    return numbered.seq;
  }

  receive(data) {
    const frame = parse(data);
    if (frame === null) return;
    if (frame.seq != null) this.answered(frame);
    // Another tab may have stored actions: number on past the game's last stored seq.
    const last = Number(frame.game?.last_seq);
    if (last >= this.nextSeq) this.nextSeq = last + 1;
    this.lastError = frame.type === "error" ? frame : null; // a refusal comes just before its close
    const greeting = frame.type !== "error" && !this.greeted;
    if (greeting) this.greet();
    this.onFrame(frame);
    if (!greeting) return;
    for (const m of this.unacked.values()) this.ws.send(JSON.stringify(m));
    this.onStatus(true);
  }

  /** The server's snapshot after each connect: only now does the socket count as up (a
   * refusal also opens before it closes), and numbering goes on past what is pending. */
  greet() {
    this.greeted = true;
    this.attempts = 0;
    const pending = [...this.unacked.keys()].map((seq) => seq + 1);
    this.nextSeq = Math.max(this.nextSeq, ...pending);
  }

  /** A numbered message's answer: done with, unless the server could not store it now. */
  answered(frame) {
    const { seq } = frame;
    if (!this.unacked.has(seq)) return;
    if (seq === this.retrying) this.retrying = null;
    if (frame.error === STORAGE_UNAVAILABLE) return this.notStored(seq);
    this.unacked.delete(seq);
    this.troubles = 0;
    if (this.refused && !this.retryTimer && this.retrying === null) this.sendRefused();
  }

  /** Keep the message to send again, with its seq, after a back-off; say so the first time. */
  notStored(seq) {
    const first = this.refused === null;
    this.refused ??= new Set();
    this.refused.add(seq);
    if (first) this.onStatus(false, null, { final: false, text: troubleNotice() });
    if (this.retryTimer) return;
    const delayMs = backoff(this.troubles++, Math.random, BASE_DELAY_MS, TROUBLE_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.refused) this.sendRefused(); // else the socket closed meanwhile
    }, delayMs);
  }

  /** Send the first refused message still unanswered, alone (its answer sends the next); with
   * none left, the trouble is over. */
  sendRefused() {
    const waiting = [...this.refused].filter((seq) => this.unacked.has(seq));
    if (waiting.length === 0) {
      this.refused = null;
      return this.onStatus(true);
    }
    this.retrying = Math.min(...waiting);
    this.refused = new Set(waiting.filter((seq) => seq !== this.retrying));
    this.ws.send(JSON.stringify(this.unacked.get(this.retrying)));
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    clearTimeout(this.retryTimer); // the greeting after the reconnect resends everything
    this.refused = this.retrying = this.retryTimer = null;
    const retry = retryAfter(event.code, this.attempts++);
    const final = Boolean(retry.final);
    this.crowded = event.code === TOO_MANY_SOCKETS;
    const text = closeNotice(event.code, this.lastError?.message, final);
    this.onStatus(false, event.code, { final, text });
    if (this.stopped || final) return;
    this.timer = setTimeout(() => this.open(), retry.delayMs);
  }

  /** Skipped while too many sockets are open: coming back to the tab closes none of them. */
  reconnectNow() {
    if (this.timer && !this.stopped && !this.crowded) this.open();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.retryTimer);
    this.ws?.close();
  }
}
