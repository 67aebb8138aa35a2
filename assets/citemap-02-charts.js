/* The year charts' library: plotly.js (its basic bundle) loaded for dcc.Graph once the map is drawn and a chart is
   on screen. */

/* Plotly (the year charts) is the page's largest script: it loads when a chart is first on screen (a phone shows the
   panel and its chart behind a tab: they load when it opens), and not before the map is drawn, and it is
   plotly.js's basic bundle (bar and line charts are all the page draws; 1.2 MB against 4.8 MB): the full bundle's
   start was ~0.75 s of main thread that nothing can interrupt, which, next to Dash's own start or a slice of a big
   map, made stalls and held the map back (bench/browser.py). dcc.Graph loads plotly.js by a script tag only when
   ``window.Plotly`` is not set (the hook dcc offers for a custom bundle), and takes what it finds through
   Promise.resolve: here it finds a promise that loads assets/vendor/plotly-basic.min.js (the same plotly.js version
   as Dash's, tests/test_vendor.py; Dash's full bundle if it cannot) once the first drawing of the map has finished
   (or CITEMAP_PLOTLY_WAIT ms have passed, whatever happened) and a chart is in view. The script sets window.Plotly
   to the real library as it runs; the charts are made a task later. */
var CITEMAP_PLOTLY_WAIT = 6000;
var CITEMAP_CHARTS = ["graph-by-year", "graph-overview"];
var citemapPlotlyGate = null;
(function () {
  if (window.Plotly || !document.getElementById("_dash-config")) { return; }  /* not the app's page */
  var open, drawn = false, seen = false, watching = false;
  var gate = new Promise(function (resolve) { open = resolve; });
  function maybe() {
    if (drawn && !watching) { watching = true; watchCharts(); }
    if (drawn && seen) { open(); }
  }
  function watchCharts() {  /* seen: a chart has a pixel on screen (a hidden tab's has none) */
    var charts = CITEMAP_CHARTS.map(function (id) { return document.getElementById(id); }).filter(Boolean);
    if (!window.IntersectionObserver || !charts.length) { seen = true; return; }
    var io = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { seen = true; io.disconnect(); maybe(); }
    });
    charts.forEach(function (el) { io.observe(el); });
  }
  setTimeout(function () { drawn = true; maybe(); }, CITEMAP_PLOTLY_WAIT);
  citemapPlotlyGate = function () { drawn = true; maybe(); };
  function load(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = function () { setTimeout(function () { resolve(window.Plotly); }, 0); };
      script.onerror = reject;
      document.body.appendChild(script);
    });
  }
  var full = null, started = false;  /* the full bundle, once the field view asked for it */
  var pending = gate.then(function () {
    started = true;
    if (full) { return full; }
    return load(citemapPrefix() + "assets/vendor/plotly-basic.min.js").catch(function () {
      return load(window._dashPlotlyJSURL);
    });
  });
  window.Plotly = pending;
  /* The field view (assets/citemap-11-field.js) draws WebGL points (scattergl), which the basic bundle lacks: it
     asks here for plotly.js's strict bundle (all traces, the same version as Dash's, assets/vendor/plotly-strict
     .min.js, whose WebGL shaders are compiled ahead: the full bundle compiles them with eval(), which the page's
     Content Security Policy forbids, dashboard/web/security.py), and only then is it loaded (never for the other
     views). Asked before the charts' library has started loading, it is the charts' library too (the basic one is
     never fetched); after, it is loaded once the basic one is in, and replaces it (window.Plotly, which dcc.Graph
     calls at each drawing: the same version, a superset). Resolves to the strict library. */
  function fullURL() { return citemapPrefix() + "assets/vendor/plotly-strict.min.js"; }
  window.citemapPlotlyFull = function () {
    if (!full) {
      if (started) {
        full = pending.then(function () { return load(fullURL()); });
      } else {
        full = load(fullURL());
        drawn = true; seen = true; open();
      }
    }
    return full;
  };
})();
function citemapPlotlyMayStart() {  /* a frame after the last slice has been drawn */
  if (!citemapPlotlyGate) { return; }
  var gate = citemapPlotlyGate;
  citemapPlotlyGate = null;
  requestAnimationFrame(function () { setTimeout(gate, 0); });
}
