// The offline page (templates/install/offline.html): the service worker shows it in place of a
// page the server could not send. When the server answers again, the page the player asked for
// opens (a reload of the same address); opened at its own address, it leads to
// the start page (the manifest's start_url).

const RETRY_MS = 5000;
const section = document.querySelector("[data-offline]");
const status = section.querySelector("[data-retry-status]");

async function serverAnswers() {
  try {
    return (await fetch(section.dataset.probe, { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

function reopen() {
  if (location.pathname === section.dataset.ownPath) location.replace(section.dataset.start);
  else location.reload();
}

async function retry({ told = false } = {}) {
  if (await serverAnswers()) reopen();
  else if (told) status.textContent = status.dataset.stillDown;
}

section.querySelector("[data-retry]").addEventListener("click", () => retry({ told: true }));
window.addEventListener("online", () => retry());
setInterval(retry, RETRY_MS);
