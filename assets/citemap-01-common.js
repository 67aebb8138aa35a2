/* citemap's own scripts, in assets/ beside this one. Dash puts a <script> tag for each .js file of assets/ (not
   assets/vendor/) in the page, in the order of their names, and the browser runs them in that order: their numbers
   keep the order of the single file they were cut from (citemap.js). A file may use at load time only what an
   earlier file defines (as this file's citemapPrefix and citemapReducedMotion); everything else is used once the
   page runs. Each file adds its clientside callbacks to window.dash_clientside.citemap (namespace "citemap",
   dashboard/web/callbacks/), whatever the order. Globals shared between files: eslint.config.js.

   This file: what the others share (the app's URL prefix, reduced motion, the Cytoscape instance, GET /graph). */

/* dash-cytoscape always hands Cytoscape a wheelSensitivity (its default prop, 1), and Cytoscape warns whenever one is
   given ("You have set a custom wheel sensitivity ..."), although the page sets none (its wheel zoom is
   citemap-04-viewport.js's). That one message is dropped; every other warning reaches the console. This file runs
   before Dash draws the map. */
(function () {
  var warn = console.warn;
  console.warn = function (first) {
    if (typeof first === "string" && first.indexOf("You have set a custom wheel sensitivity") === 0) { return; }
    return warn.apply(console, arguments);
  };
})();

function citemapPrefix() {
  var config = JSON.parse(document.getElementById("_dash-config").textContent || "{}");
  return config.requests_pathname_prefix || "/";
}
/* Under prefers-reduced-motion nothing moves by itself: glides, fades, animated zooms and pans take no time. */
function citemapReducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/* An area as the page names it: papers without one are stored as "unknown" and named NO_AREA
   (dashboard/view/naming.py). */
function citemapAreaLabel(area) { return area === "unknown" ? "no area given" : area; }

/* Whose figure a paper's own citation count (data cited_by) is, named as the page names sources
   (dashboard/view/naming.py source_name): the dataset's one source of figures (div-figure-sources data-source),
   else the sources of the view's papers that the server sends there ({names, of: {paper id: position}}). */
function citemapFigureSource(id) {
  var el = document.getElementById("div-figure-sources");
  if (!el) { return "its source"; }
  if (el.dataset.source) { return el.dataset.source; }
  var sent = el.textContent ? JSON.parse(el.textContent) : {};  /* empty until the view's sources are sent */
  return (sent.names || [])[(sent.of || {})[id]] || "its source";
}

/* The Cytoscape instance, once dash-cytoscape has made it. */
function citemapCy() {
  return new Promise(function (resolve, reject) {
    var waited = 0, timer = setInterval(function () {
      if (window.cy) { clearInterval(timer); resolve(window.cy); }
      else if ((waited += 25) > 30000) { clearInterval(timer); reject(new Error("the map did not start")); }
    }, 25);
    if (window.cy) { clearInterval(timer); resolve(window.cy); }
  });
}

/* GET /graph?<query>: a view's payload (dashboard/view/payload.py). A replica that dies under the request shows as
   a network error, or as 502 or 503 from nginx in front; the request is idempotent, so it is asked once more, a
   moment later (nginx then picks a live replica, or a restarted one). Only a failure that came quickly is asked
   again: a view that ran until a timeout (504, or a 502 after gunicorn killed the worker) would only take a worker
   of the other replica the same way. What the second try gets is the answer: its response, or its rejection. */
var CITEMAP_GRAPH_RETRY_MS = 500;
var CITEMAP_GRAPH_RETRY_WITHIN_MS = 10000;
function citemapFetchGraph(query) {
  var url = citemapPrefix() + "graph" + query, options = {headers: {Accept: "application/json"}};
  var started = Date.now();
  function quick() { return Date.now() - started < CITEMAP_GRAPH_RETRY_WITHIN_MS; }
  function again() {
    return new Promise(function (resolve) { setTimeout(resolve, CITEMAP_GRAPH_RETRY_MS); })
      .then(function () { return fetch(url, options); });
  }
  return fetch(url, options).then(function (response) {
    return (response.status === 502 || response.status === 503) && quick() ? again() : response;
  }, function (error) {
    if (quick()) { return again(); }
    throw error;
  });
}
