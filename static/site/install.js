// Every page registers the site's service worker (templates/install/sw.js): it keeps the static
// shell and shows the offline page when the server cannot be reached. The site works without it.

const script = document.querySelector("script[data-service-worker]");

if ("serviceWorker" in navigator) {
  navigator.serviceWorker
    .register(script.dataset.serviceWorker, { scope: "/" })
    .catch((error) => console.warn("The service worker was not installed:", error));
}
