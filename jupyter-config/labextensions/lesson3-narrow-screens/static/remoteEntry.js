// lesson3-narrow-screens: a prebuilt JupyterLab extension with one plugin. On a narrow screen it closes the side
// panels once the layout is restored (JupyterLab 4 opens the file browser on a first visit whatever the width: at
// 390 px it left the notebook 45 px). It goes through the shell's API (collapseLeft/collapseRight), as the
// «Ver › Mostrar barra lateral izquierda» command does; the learner can open them again.
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
      app.restored.then(function () {
        var shell = app.shell;
        if (window.matchMedia(NARROW).matches && typeof shell.collapseLeft === "function") {
          shell.collapseLeft();
          shell.collapseRight();
        }
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
