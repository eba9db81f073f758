// scorekeeper's additions to Flet's web page (loaded by assets/index.html, see scorekeeper/server/web_index.py).
//
// 1. Nothing is fetched from third-party hosts. Flet's client loads the Rive animation runtime
//    (rive_native.js) from cdn.jsdelivr.net at every start, whatever no_cdn says; the app draws no Rive
//    animation, so that script is pointed at rive_native_off.js here, which tells the client Rive is not there
//    (as it finds when the CDN cannot be reached).
// 2. Emoji are drawn from the font the app ships, also offline. Flutter's own fallback, for an emoji it finds in
//    no loaded font, asks Google Fonts for a piece of Noto Color Emoji; that request is answered by the bundled
//    file instead. The browser so fetches the font only once a screen shows an emoji (scorekeeper/ui/emoji_font.py).
// 3. While the connection to the host is lost, Flet's client shows only "Working...". A notice says what
//    happens, in the app's language (else the browser's: en, de, nl, fr), until the client is connected again.
(function () {
  "use strict";

  var RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/";
  var RIVE_OFF = "rive_native_off.js";
  var source = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
  if (source && source.set) {
    Object.defineProperty(HTMLScriptElement.prototype, "src", {
      configurable: true,
      enumerable: source.enumerable,
      get: source.get,
      set: function (value) {
        if (String(value).indexOf(RIVE_CDN) === 0) {
          value = new URL(RIVE_OFF, document.baseURI).href;
        }
        source.set.call(this, value);
      },
    });
  }

  var EMOJI_FALLBACK = "https://fonts.gstatic.com/s/notocoloremoji/";
  var EMOJI_FONT = "fonts/NotoColorEmoji.ttf"; // scorekeeper/ui/theme.py EMOJI_FONT
  var fetchNative = window.fetch;
  window.fetch = function (input, init) {
    var url = typeof input === "string" ? input : input && input.url;
    if (typeof url === "string" && url.indexOf(EMOJI_FALLBACK) === 0) {
      input = new URL(EMOJI_FONT, document.baseURI).href;
    }
    return fetchNative.call(this, input, init);
  };

  var TEXTS = {
    en: ["The connection to the host is lost.", "Trying again…"],
    de: ["Die Verbindung zum Gastgeber ist unterbrochen.", "Neuer Versuch läuft …"],
    nl: ["De verbinding met de host is verbroken.", "Opnieuw proberen…"],
    fr: ["La connexion à l’hôte est perdue.", "Nouvelle tentative…"],
  };
  var NOTICE_ID = "sk-connection";
  var DELAY_MS = 1000; // a reconnect within a second (a reload) shows nothing

  function language() {
    // The app's own language first (it tells the browser, see AppContext.remember_language), then the browser's.
    try {
      var chosen = JSON.parse(localStorage.getItem("flutter.scorekeeper.language") || "null");
      if (TEXTS[chosen]) return chosen;
    } catch (e) {}
    var wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (var i = 0; i < wanted.length; i++) {
      var code = String(wanted[i] || "").slice(0, 2).toLowerCase();
      if (TEXTS[code]) return code;
    }
    return "en";
  }

  var timer = null;
  var connected = false;

  function show() {
    timer = null;
    if (connected || document.getElementById(NOTICE_ID)) return;
    var lines = TEXTS[language()];
    var notice = document.createElement("div");
    notice.id = NOTICE_ID;
    notice.setAttribute("role", "alert");
    notice.style.cssText =
      "position:fixed;left:50%;top:5vh;transform:translateX(-50%);z-index:2147483647;max-width:90vw;" +
      "padding:0.8em 1.4em;border-radius:12px;background:#B71C1C;color:#FFFFFF;text-align:center;" +
      "font:600 clamp(18px,2.4vw,40px)/1.3 Roboto,system-ui,sans-serif;box-shadow:0 4px 24px #0006;" +
      "pointer-events:none";
    var first = document.createElement("div");
    first.textContent = lines[0];
    var second = document.createElement("div");
    second.textContent = lines[1];
    second.style.fontWeight = "400";
    notice.appendChild(first);
    notice.appendChild(second);
    document.body.appendChild(notice);
  }

  function lost() {
    connected = false;
    if (timer === null && !document.getElementById(NOTICE_ID)) timer = setTimeout(show, DELAY_MS);
  }

  function found() {
    connected = true;
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    var notice = document.getElementById(NOTICE_ID);
    if (notice) notice.remove();
  }

  // Flet's client opens a new WebSocket to its endpoint for every attempt to reach the host.
  var Native = window.WebSocket;
  function Watched(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("open", found);
    socket.addEventListener("close", lost);
    return socket;
  }
  Watched.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) {
    Object.defineProperty(Watched, name, { value: Native[name] });
  });
  window.WebSocket = Watched;
})();
