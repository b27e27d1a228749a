// Small helpers of the pages' DOM: the data a page passed, slots, times.

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
