// lesson3-narrow-screens: a prebuilt JupyterLab extension with one plugin. On a narrow screen it closes the side
// panels once the layout is restored (JupyterLab 4 opens the file browser on a first visit whatever the width: at
// 390 px it left the notebook 45 px), and again each time the window becomes narrow (a window made narrower, a
// tablet turned upright). It goes through the shell's API (collapseLeft/collapseRight), as the
// «Ver › Apariencia › Mostrar barra lateral izquierda» command does. It acts only at those moments, never while the
// window stays narrow: a panel the learner opens again on a narrow screen stays open.
//
// Written by hand, not by webpack: the plugin imports nothing, so the module-federation container JupyterLab loads
// (window._JUPYTERLAB[name] with init() and get(module)) is this object, and no build step or Node.js is needed.
(function () {
  "use strict";
  // JupyterLab 3's "mobile" breakpoint (the width of a phone or a narrow window).
  var NARROW = "(max-width: 760px)";
  var plugin = {
    id: "lesson3-narrow-screens:plugin",
    description: "Opens narrow screens with the side panels closed.",
    autoStart: true,
    activate: function (app) {
      var shell = app.shell;
      if (typeof shell.collapseLeft !== "function") return;
      var narrow = window.matchMedia(NARROW);
      var collapse = function () {
        shell.collapseLeft();
        shell.collapseRight();
      };
      app.restored.then(function () {
        if (narrow.matches) collapse();
        // Only the change from wide to narrow: not every resize, not while it stays narrow.
        var onChange = function (event) {
          if (event.matches) collapse();
        };
        if (typeof narrow.addEventListener === "function") narrow.addEventListener("change", onChange);
        else narrow.addListener(onChange); // Safari before 14
      });
    },
  };
  var containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers["lesson3-narrow-screens"] = {
    init: function () {},
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error("lesson3-narrow-screens has no module " + module));
      }
      return Promise.resolve(function () {
        return { __esModule: true, default: [plugin] };
      });
    },
  };
})();
