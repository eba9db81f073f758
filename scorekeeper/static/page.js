// scorekeeper static build (scorekeeper/static/build.py fills in GZIPPED): the site keeps its largest files
// gzipped only (scorekeeper/static/trim.py), and everything asks for them by their plain names. Once the service
// worker controls the page it answers those names from its inflated copies (sw.js); until then (the first load,
// a browser without service workers) this script answers the page's own requests: `fetch` (CanvasKit, fonts)
// gets the `.gz` inflated, and the script tag of Flutter's main.dart.js gets the inflated script as a blob;
// unless the host answers the plain names itself (the owner's server, scorekeeper/server/static_site.py).
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
  // Does the host answer the plain names itself (the owner's server does, gzip-encoded: its security policy runs
  // no blob: script)? One HEAD request tells, before the first of them is needed.
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

  var source = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
  Object.defineProperty(HTMLScriptElement.prototype, "src", {
    configurable: true,
    enumerable: source.enumerable,
    get: source.get,
    set: function (value) {
      var name = controlled() ? null : packedName(value);
      if (!name) {
        source.set.call(this, value);
        return;
      }
      // The script gets its address once the bytes are inflated: an element inserted without one waits, and
      // loads when it is given one (Flutter's loader appends it right after setting the address).
      var element = this;
      hostPlain
        .then(function (plain) {
          return plain ? null : inflated(name);
        })
        .then(function (response) {
          if (response === null) {
            source.set.call(element, value);
            return null;
          }
          if (!response.ok) {
            throw new Error(name + ".gz: HTTP " + response.status);
          }
          return response.blob();
        })
        .then(function (blob) {
          if (blob !== null) {
            source.set.call(element, URL.createObjectURL(blob));
          }
        })
        .catch(function (error) {
          console.error("scorekeeper:", error);
          element.dispatchEvent(new Event("error"));
        });
    },
  });
})();
