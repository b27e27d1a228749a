// The page's own dialogs: opened without moving the page, and a yes/no question.

/** Open a window at its top, over the page as it was: showModal() focuses the window's first
 * control and scrolls the window, and the page, to bring it into view, which on a short screen
 * hid the window's title and result. The control keeps the focus; nothing moves. */
export function show(dialog) {
  if (!dialog || dialog.open) return;
  const [x, y] = [window.scrollX, window.scrollY];
  dialog.showModal();
  dialog.scrollTop = 0;
  window.scrollTo(x, y);
}

export function hide(dialog) {
  if (dialog?.open) dialog.close();
}

/** Ask a yes/no question in the page's own dialog; resolves true on yes. */
export function confirmWith(dialog, message) {
  dialog.querySelector("[data-slot=question]").textContent = message;
  show(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}
