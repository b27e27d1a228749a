// How many watch the player's own game: the play socket's "watchers" frames
// (docs/protocol.md, "Spectating"). The play page shows the number while it is not zero.

/** Show `count` in the page's [data-watchers] element, hidden while nobody watches. */
export function showWatchers(count) {
  const node = document.querySelector("[data-watchers]");
  if (!node) return;
  node.querySelector("[data-slot=n]").textContent = String(count);
  node.hidden = !count;
}
