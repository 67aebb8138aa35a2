/* What the page's URLs say: the app's prefix (from Dash's config), the field view, a story's step. Pure. */

/* The app's URL prefix, from the text of Dash's config script (#_dash-config): "/" unless the app is mounted
   elsewhere. */
export function prefixFrom(configText) {
  const config = JSON.parse(configText || "{}");
  return config.requests_pathname_prefix || "/";
}

/* Whether a query links to the field view (mode=field). */
export function isFieldQuery(query) {
  return /[?&]mode=field(&|$)/.test(query || "");
}

/* The step number a query names (step=N), or null. */
export function stepIn(query) {
  const m = /[?&]step=(\d+)/.exec(query);
  return m ? parseInt(m[1], 10) : null;
}

/* The query with step=N: the one it names replaced, else added at its end. */
export function withStep(query, n) {
  return /[?&]step=\d+/.test(query) ? query.replace(/([?&]step=)\d+/, "$1" + n) : query + "&step=" + n;
}

/* The link to a dataset's story at step ``index`` (counted from 0; the first step's link names no step). */
export function storyLink(name, index) {
  return "?story=" + encodeURIComponent(name) + (index ? "&step=" + (index + 1) : "");
}

/* Whether ``query`` (the address's search) shows the first view: no seeds named, or the dataset's own ``seeds``
   (a comma-separated list, in any order), in a map of citations, no story presented and no path drawn. A paper
   selected or expanded, or a filter, keeps it the first view. */
export function isFirstView(query, seeds) {
  const params = new URLSearchParams(query || "");
  if (params.has("story") || params.has("path") || (params.get("mode") || "citations") !== "citations") {
    return false;
  }
  if (!params.has("seeds")) {
    return true;
  }
  const key = (list) => list.split(",").filter(Boolean).sort().join(",");
  return key(params.get("seeds")) === key(seeds || "");
}
