/* What the page says of the visitor's library (a file of papers: marked on the map, filtered), as Dash components
   in plain data. Names and reasons come from the visitor's file: they stay text. Pure. */

/* dashboard/view/library.py MAX_BYTES: a bigger file is refused before it is sent */
export const MAX_BYTES = 2 * 1024 * 1024;
/* a log this short shows open; a longer one opens on a click */
export const LOG_OPEN = 5;

/* A Dash component as plain data, for a clientside callback to return: its text stays text (no markup) */
function element(type, props) {
  return { namespace: "dash_html_components", type: type, props: props };
}
function line(text, className) {
  return element("Div", { children: String(text), className: className || "library-line" });
}

/* Why a file is refused before it is sent (its base64 text ``b64length`` characters long), or null. */
export function tooBig(b64length, filename) {
  if ((b64length * 3) / 4 <= MAX_BYTES) {
    return null;
  }
  return (
    (filename || "the file") +
    " is too big: a library file may have at most " +
    MAX_BYTES.toLocaleString("en") +
    " bytes. Nothing was changed."
  );
}

/* The import log: "N entries could not be read and were skipped", then "line L (key): reason" for each one named and
   how many more there are. */
export function skipLog(count, log) {
  const items = log.map((s) => {
    let where = typeof s.line === "number" ? "line " + s.line : "";
    if (typeof s.entry === "string" && s.entry) {
      where += (where ? " " : "") + "(" + s.entry + ")";
    }
    return element("Li", { children: (where ? where + ": " : "") + String(s.reason || "") });
  });
  if (count > log.length) {
    items.push(element("Li", { children: "and " + (count - log.length).toLocaleString("en") + " more" }));
  }
  const summary =
    count.toLocaleString("en") +
    (count === 1 ? " entry" : " entries") +
    " could not be read and " +
    (count === 1 ? "was" : "were") +
    " skipped";
  return element("Details", {
    className: "library-log",
    open: count <= LOG_OPEN,
    children: [
      element("Summary", { children: summary }),
      element("Ol", {
        children: items,
        style: { maxHeight: "12em", overflowY: "auto", margin: "2px 0", paddingLeft: "1.6em" },
      }),
    ],
  });
}

/* [lines, the status's class, the library controls' style]: the server's sentence on the library (how many of its
   entries are papers here: dashboard/view/library.py), the format and encoding it was read in, and the entries
   skipped (the first ones by line, key and reason; all counted); ``error``: why the last file could not be used. */
export function libraryStatus(library, error) {
  const lines = error ? [line(error)] : [];
  const loaded = library && Array.isArray(library.ids);
  if (loaded) {
    lines.push(line(library.summary || library.name)); /* the server's sentence (library.py) */
    const how = [library.format, library.encoding].filter((s) => typeof s === "string" && s);
    if (how.length) {
      lines.push(line("Read as " + how.join(" in ") + ".", "library-how"));
    }
    if (typeof library.skipped === "number" && library.skipped > 0) {
      lines.push(skipLog(library.skipped, Array.isArray(library.log) ? library.log : []));
    }
  }
  return [lines, error ? "library-status error" : "library-status", { display: loaded ? "flex" : "none" }];
}
