/* The visitor's library (a file of papers: marked on the map, filtered): clientside callbacks. */

/* dashboard/view/library.py MAX_BYTES: a bigger file is refused before it is sent */
var CITEMAP_LIBRARY_MAX_BYTES = 2 * 1024 * 1024;

/* A Dash component as plain data, for a clientside callback to return: its text stays text (no markup) */
function citemapLibraryElement(type, props) {
  return {namespace: "dash_html_components", type: type, props: props};
}

function citemapLibraryLine(text, className) {
  return citemapLibraryElement("Div", {children: String(text), className: className || "library-line"});
}

var CITEMAP_LIBRARY_LOG_OPEN = 5; /* a log this short shows open; a longer one opens on a click */

/* The import log: "N entries could not be read and were skipped", then "line L (key): reason" for each one named
   and how many more there are */
function citemapSkipLog(count, log) {
  var items = log.map(function (s) {
    var where = typeof s.line === "number" ? "line " + s.line : "";
    if (typeof s.entry === "string" && s.entry) { where += (where ? " " : "") + "(" + s.entry + ")"; }
    return citemapLibraryElement("Li", {children: (where ? where + ": " : "") + String(s.reason || "")});
  });
  if (count > log.length) {
    items.push(citemapLibraryElement("Li", {children: "and " + (count - log.length).toLocaleString("en") + " more"}));
  }
  var summary = count.toLocaleString("en") + (count === 1 ? " entry" : " entries") +
    " could not be read and " + (count === 1 ? "was" : "were") + " skipped";
  return citemapLibraryElement("Details", {
    className: "library-log", open: count <= CITEMAP_LIBRARY_LOG_OPEN,
    children: [
      citemapLibraryElement("Summary", {children: summary}),
      citemapLibraryElement("Ol", {children: items,
                                   style: {maxHeight: "12em", overflowY: "auto", margin: "2px 0", paddingLeft: "1.6em"}})
    ]
  });
}

window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: Object.assign({}, (window.dash_clientside || {}).citemap, {
    /* A library file chosen in the page -> POST /library -> {name, format, encoding, entries, matched, ids,
       skipped, log}; nothing is kept on the server. A file that cannot be used changes nothing and says why. */
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
    /* What the page says of the library: how many of its entries are papers here, the format and encoding it was
       read in, and the entries skipped (the first ones by line, key and reason; all counted). Plain text only:
       names and reasons come from the visitor's file. */
    libraryStatus: function (library, error) {
      var lines = error ? [citemapLibraryLine(error)] : [];
      var loaded = library && Array.isArray(library.ids);
      if (loaded) {
        lines.push(citemapLibraryLine(library.summary || library.name)); /* the server's sentence (library.py) */
        var how = [library.format, library.encoding].filter(function (s) { return typeof s === "string" && s; });
        if (how.length) { lines.push(citemapLibraryLine("Read as " + how.join(" in ") + ".", "library-how")); }
        if (typeof library.skipped === "number" && library.skipped > 0) {
          lines.push(citemapSkipLog(library.skipped, Array.isArray(library.log) ? library.log : []));
        }
      }
      return [lines, error ? "library-status error" : "library-status", {display: loaded ? "flex" : "none"}];
    },
    forgetLibrary: function (n) {
      return n ? [null, "all"] : [window.dash_clientside.no_update, window.dash_clientside.no_update];
    }
  })
});
