// scorekeeper's offline copy (the static build, scorekeeper/static/build.py fills in VERSION, FILES and GZIPPED).
//
// At the first load the whole site is put in one cache named after its version; afterwards every request of
// the site (the page, Flutter's client, Pyodide, the app's archive) is answered from that cache, so the app
// opens with the network off. A new build has a new version: it is cached whole beside the old one, takes over
// at the next load, and the old cache is deleted. Requests to other origins are not touched (the site makes
// none). The app's data is not here: it lives in IndexedDB (scorekeeper/static/worker.py).
//
// The site keeps its largest files gzipped only (GZIPPED: plain name -> type, scorekeeper/static/trim.py). They
// are inflated once, here at install, and cached under their plain names, which are the names the page and the
// worker ask for: a start reads them as any cached file, with nothing to inflate.
"use strict";

const VERSION = "__VERSION__";
const CACHE = "scorekeeper-" + VERSION;
const FILES = __FILES__;
const GZIPPED = __GZIPPED__;

function inflated(packed, type) {
  return new Response(packed.body.pipeThrough(new DecompressionStream("gzip")), {
    headers: { "Content-Type": type },
  });
}

async function cacheInflated(cache, name) {
  const packed = await fetch(new Request(name + ".gz", { cache: "reload" }));
  if (!packed.ok) {
    throw new Error(`${name}.gz: HTTP ${packed.status}`);
  }
  // the whole body first: a cached entry must not be a stream that failed half-way
  const body = await inflated(packed, GZIPPED[name]).arrayBuffer();
  await cache.put(name, new Response(body, { headers: { "Content-Type": GZIPPED[name] } }));
}

self.addEventListener("install", (event) => {
  const packed = new Set(Object.keys(GZIPPED).map((name) => name + ".gz"));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        Promise.all([
          cache.addAll(
            FILES.filter((name) => !packed.has(name)).map((name) => new Request(name, { cache: "reload" })),
          ),
          ...Object.keys(GZIPPED)
            .filter((name) => FILES.includes(name + ".gz"))
            .map((name) => cacheInflated(cache, name)),
        ]),
      )
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
      const key = request.mode === "navigate" ? "./" : request;
      const cached = await cache.match(key, { ignoreSearch: true });
      if (cached) {
        return cached;
      }
      // a gzipped file this cache lacks (an older worker's cache, storage cleared): inflate it from the site
      const scope = new URL(self.registration.scope);
      const name = new URL(request.url).pathname.slice(scope.pathname.length);
      if (GZIPPED[name]) {
        const packed = await fetch(name + ".gz");
        return packed.ok ? inflated(packed, GZIPPED[name]) : packed;
      }
      return fetch(request);
    }),
  );
});
