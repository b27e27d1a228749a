// A replay's steps, fetched from the server in chunks of 100 as playback needs them.

const CHUNK = 100; // the steps URL answers up to 100 steps from a start (docs/protocol.md)
const PREFETCH = 25; // fetch the next chunk this many steps before it is needed

export class Steps {
  /** `first` is the page's first chunk {total, steps}; `url` answers `?start=N`. */
  constructor(first, url, fetcher = (...args) => globalThis.fetch(...args)) {
    this.total = first.total;
    this.url = url;
    this.fetcher = fetcher;
    this.loaded = new Map(first.steps.map((step) => [step.index, step]));
    this.pending = new Map();
  }

  /** `index` within the game: 0 to its last step. */
  clamp(index) {
    return Math.max(0, Math.min(this.total - 1, index));
  }

  async get(index) {
    if (!this.loaded.has(index)) await this.fetch(index);
    const next = index + PREFETCH;
    if (next < this.total && !this.loaded.has(next)) this.fetch(next);
    return this.loaded.get(index);
  }

  fetch(index) {
    const start = index - (index % CHUNK);
    if (!this.pending.has(start)) this.pending.set(start, this.load(start));
    return this.pending.get(start);
  }

  load(start) {
    return this.fetcher(`${this.url}?start=${start}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((chunk) => chunk.steps.forEach((step) => this.loaded.set(step.index, step)))
      .finally(() => this.pending.delete(start));
  }
}
