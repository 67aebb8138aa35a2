/* The visitor's library (a file of papers: marked on the map, filtered): clientside callbacks. */

/* dashboard/view/library.py MAX_BYTES: a bigger file is refused before it is sent */
var CITEMAP_LIBRARY_MAX_BYTES = 2 * 1024 * 1024;

window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: Object.assign({}, (window.dash_clientside || {}).citemap, {
    /* A library file chosen in the page -> POST /library -> {name, entries, matched, ids}; nothing is kept on
       the server. A file that cannot be used changes nothing and says why. */
    loadLibrary: async function (contents, filename) {
      var nu = window.dash_clientside.no_update;
      if (typeof contents !== "string" || contents.indexOf(",") < 0) { return [nu, nu]; }
      var b64 = contents.slice(contents.indexOf(",") + 1);
      if (b64.length * 3 / 4 > CITEMAP_LIBRARY_MAX_BYTES) {
        return [nu, (filename || "the file") + " is too big: a library file may have at most " +
                CITEMAP_LIBRARY_MAX_BYTES.toLocaleString("en") + " bytes. Nothing was changed."];
      }
      var bin = atob(b64), bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
      var response = await fetch(citemapPrefix() + "library?name=" + encodeURIComponent(filename || "library"),
                                 {method: "POST", body: bytes, headers: {"Content-Type": "application/octet-stream"}});
      var answer;
      try { answer = await response.json(); } catch { answer = null; }
      if (!response.ok || !answer || !Array.isArray(answer.ids)) {
        var why = answer && answer.error ? answer.error : "HTTP " + response.status;
        return [nu, "Could not read the library: " + why + ". Nothing was changed."];
      }
      return [answer, ""];
    },
    libraryStatus: function (library, error) {
      var text = "";
      if (library && Array.isArray(library.ids)) {
        text = library.name + ": " + library.matched.toLocaleString("en") + " of " +
          library.entries.toLocaleString("en") + " entries are papers of this dataset.";
      }
      return [error ? [error, text].filter(Boolean).join(" ") : text, error ? "library-status error" : "library-status",
              {display: library && Array.isArray(library.ids) ? "flex" : "none"}];
    },
    forgetLibrary: function (n) {
      return n ? [null, "all"] : [window.dash_clientside.no_update, window.dash_clientside.no_update];
    }
  })
});
