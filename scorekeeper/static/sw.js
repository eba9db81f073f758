// scorekeeper's offline copy (the static build, scorekeeper/static/build.py fills in VERSION and FILES).
//
// At the first load the whole site is put in one cache named after its version; afterwards every request of
// the site (the page, Flutter's client, Pyodide, the app's archive) is answered from that cache, so the app
// opens with the network off. A new build has a new version: it is cached whole beside the old one, takes over
// at the next load, and the old cache is deleted. Requests to other origins are not touched (the site makes
// none). The app's data is not here: it lives in IndexedDB (scorekeeper/static/worker.py).
"use strict";

const VERSION = "__VERSION__";
const CACHE = "scorekeeper-" + VERSION;
const FILES = __FILES__;
// Kept gzipped in the site (scorekeeper/static/trim.py): answered inflated.
const GZIPPED = { "assets/NOTICES": "assets/NOTICES.gz" };

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((name) => new Request(name, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("scorekeeper-") && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const path = new URL(request.url).pathname;
      const gzipped = Object.keys(GZIPPED).find((name) => path.endsWith("/" + name));
      if (gzipped) {
        const packed = (await cache.match(GZIPPED[gzipped])) || (await fetch(GZIPPED[gzipped]));
        return new Response(packed.body.pipeThrough(new DecompressionStream("gzip")), {
          headers: { "Content-Type": "text/plain; charset=utf-8" },
        });
      }
      const key = request.mode === "navigate" ? "./" : request;
      const cached = await cache.match(key, { ignoreSearch: true });
      if (cached) {
        return cached;
      }
      return fetch(request);
    }),
  );
});
