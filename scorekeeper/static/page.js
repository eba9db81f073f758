// scorekeeper static build (scorekeeper/static/build.py fills in GZIPPED): the site keeps its largest files
// gzipped only (scorekeeper/static/trim.py), and everything asks for them by their plain names. Once the service
// worker controls the page it answers those names from its inflated copies (sw.js); until then (the first load,
// a browser without service workers) this script answers the page's own requests: `fetch` (CanvasKit, fonts)
// gets the `.gz` inflated, unless the host answers the plain names itself (the owner's server,
// scorekeeper/server/static_site.py).
// The Python worker does the same for its files (boot.js).
(function () {
  "use strict";

  var GZIPPED = __GZIPPED__;
  var base = new URL(".", document.baseURI).href;

  function packedName(url) {
    var address = new URL(String(url), document.baseURI);
    address.search = "";
    address.hash = "";
    var name = address.href.indexOf(base) === 0 ? address.href.slice(base.length) : null;
    return name !== null && Object.prototype.hasOwnProperty.call(GZIPPED, name) ? name : null;
  }

  function controlled() {
    return Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  }

  var plainFetch = window.fetch;
  // Does the host answer the plain names itself (the owner's server does, gzip-encoded)? One HEAD request tells,
  // before the first of them is needed.
  var probe = Object.keys(GZIPPED)[0];
  var hostPlain = controlled()
    ? Promise.resolve(true)
    : plainFetch.call(window, base + probe, { method: "HEAD" }).then(
        function (response) {
          return response.ok;
        },
        function () {
          return false;
        },
      );

  function inflated(name) {
    return plainFetch.call(window, base + name + ".gz").then(function (packed) {
      if (!packed.ok) {
        return packed;
      }
      return new Response(packed.body.pipeThrough(new DecompressionStream("gzip")), {
        headers: { "Content-Type": GZIPPED[name] },
      });
    });
  }

  window.fetch = function (input, init) {
    var url = typeof input === "string" || input instanceof URL ? input : input && input.url;
    var name = url && !controlled() ? packedName(url) : null;
    if (!name) {
      return plainFetch.call(this, input, init);
    }
    var self = this;
    return hostPlain.then(function (plain) {
      return plain ? plainFetch.call(self, input, init) : inflated(name);
    });
  };
})();
