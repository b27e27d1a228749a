{% autoescape off %}// Heart to Heart's service worker (docs/protocol.md, "Installing the site"), served at /sw.js.
//
// It keeps the static shell and the offline pages, nothing else. Pages always come from the
// server (every page carries a CSRF token, many a player's game); only when the server cannot be
// reached does a navigation get the offline page, in the language of the last page the server sent.
"use strict";

{{ constants }}
const SHELL_CACHE = `h2h-shell-${VERSION}`;
const STATE_CACHE = "h2h-state";
const LANGUAGE_KEY = "/sw.js?language";
const SHELL_PATHS = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOldShells().then(enablePreload).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (inShell(request.url)) {
    event.respondWith(fromShell(request));
  }
});

async function keepShell() {
  const cache = await caches.open(SHELL_CACHE);
  const urls = [...SHELL, ...Object.values(OFFLINE_PAGES)];
  await cache.addAll(urls.map((url) => new Request(url, { cache: "no-cache" })));
}

async function dropOldShells() {
  const old = (await caches.keys()).filter((name) => name.startsWith("h2h-shell-") && name !== SHELL_CACHE);
  await Promise.all(old.map((name) => caches.delete(name)));
}

async function enablePreload() {
  // The page's request starts while the worker wakes up, instead of after.
  if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
}

function inShell(href) {
  const url = new URL(href);
  return url.origin === self.location.origin && SHELL_PATHS.has(url.pathname);
}

async function fromShell(request) {
  const cached = await caches.match(request, { cacheName: SHELL_CACHE, ignoreVary: true });
  return cached || fetch(request);
}

// Network only: the response goes to the page and is never stored.
async function navigate(event) {
  try {
    const response = (await event.preloadResponse) || (await fetch(event.request));
    event.waitUntil(rememberLanguage(response.headers.get("Content-Language")));
    return response;
  } catch {
    return offlinePage();
  }
}

async function offlinePage() {
  const url = OFFLINE_PAGES[await offlineLanguage()];
  const page = await caches.match(url, { cacheName: SHELL_CACHE, ignoreVary: true });
  return page || Response.error();
}

let language = null;

async function rememberLanguage(header) {
  const spoken = supported(header);
  if (!spoken || spoken === language) return;
  language = spoken;
  const state = await caches.open(STATE_CACHE);
  await state.put(LANGUAGE_KEY, new Response(spoken, { headers: { "Content-Type": "text/plain" } }));
}

// The last page's language (the site's choice: its cookie, else Accept-Language), else the
// browser's languages (what its Accept-Language says), else the site's default.
async function offlineLanguage() {
  if (language) return language;
  const stored = await caches.match(LANGUAGE_KEY, { cacheName: STATE_CACHE });
  if (stored) return (language = await stored.text());
  const preferred = (self.navigator.languages || []).map(supported).find(Boolean);
  return preferred || DEFAULT_LANGUAGE;
}

function supported(tag) {
  const base = (tag || "").trim().toLowerCase().split("-")[0];
  return Object.hasOwn(OFFLINE_PAGES, base) ? base : null;
}
{% endautoescape %}
