// lesson3-file-types: a prebuilt JupyterLab extension with one plugin. It names each file type in the interface's
// language. JupyterLab's document registry is made before any translator, so its file types keep their English names
// and every item named after the document says them: «Guardar Notebook», «Renombrar Notebook…» in the Spanish File
// menu, where the course's texts cite «Archivo › Guardar cuaderno». The plugin translates each name with JupyterLab's
// own catalogue: first with the context «file type» (the name inside a sentence: «cuaderno», which the course's
// language pack gives), else as JupyterLab translates it elsewhere; a name with no translation stays as it is.
//
// Written by hand, not by webpack (as lesson3-narrow-screens): the translator's token comes from the share scope
// JupyterLab passes to init(), the same @jupyterlab/translation module its own plugins use.
(function () {
  "use strict";
  var NAME = "lesson3-file-types";
  var shareScope = null;

  // The module JupyterLab shares under this name (the one already loaded, else the newest).
  function shared(name) {
    var versions = (shareScope && shareScope[name]) || {};
    var keys = Object.keys(versions);
    if (!keys.length) return Promise.reject(new Error(NAME + ": " + name + " is not shared"));
    var loaded = keys.filter(function (v) { return versions[v].loaded; });
    var version = (loaded.length ? loaded : keys).sort().pop();
    return Promise.resolve(versions[version].get()).then(function (factory) { return factory(); });
  }

  function plugin(translation) {
    return {
      id: NAME + ":plugin",
      description: "Names file types (and the documents the menus name after them) in the interface's language.",
      autoStart: true,
      requires: [translation.ITranslator],
      activate: function (app, translator) {
        var trans = translator.load("jupyterlab");
        var rename = function () {
          var types = Array.from(app.docRegistry.fileTypes());
          types.forEach(function (type) {
            var english = type.__lesson3English || type.displayName;
            if (!english) return;
            type.__lesson3English = english;
            var inSentence = trans._p("file type", english);
            type.displayName = inSentence !== english ? inSentence : trans.__(english);
          });
        };
        rename();
        app.restored.then(rename); // file types other extensions add when they start
      },
    };
  }

  var containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers[NAME] = {
    init: function (scope) {
      shareScope = scope;
    },
    get: function (module) {
      if (module !== "./extension") {
        return Promise.reject(new Error(NAME + " has no module " + module));
      }
      return shared("@jupyterlab/translation").then(function (translation) {
        return function () {
          return { __esModule: true, default: [plugin(translation)] };
        };
      });
    },
  };
})();
