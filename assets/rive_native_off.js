// scorekeeper: stands in for the Rive runtime that Flet's web client would load from cdn.jsdelivr.net (see
// assets/scorekeeper.js). The app draws no Rive animation; a rejected start tells the client Rive is not there.
window.RiveNative = function () {
  return Promise.reject(new Error("Rive is not part of this app"));
};
