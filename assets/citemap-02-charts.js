/* The year charts' library: plotly.js (its basic bundle) loaded for dcc.Graph once the map is drawn. */

/* Plotly (the year charts) starts after the map is drawn, and it is plotly.js's basic bundle (bar charts are all
   the page draws; 1.2 MB against 4.8 MB): the full bundle's start was ~0.75 s of main thread that nothing can
   interrupt, which, next to Dash's own start or a slice of a big map, made stalls of 1-1.4 s and held the map back
   (bench/browser.py). dcc.Graph loads plotly.js by a script tag only when ``window.Plotly`` is not set (the hook
   dcc offers for a custom bundle), and takes what it finds through Promise.resolve: here it finds a promise that
   loads assets/vendor/plotly-basic.min.js (the same plotly.js version as Dash's, tests/test_vendor.py; Dash's full
   bundle if it cannot) once the first drawing of the map has finished, or after CITEMAP_PLOTLY_WAIT ms whatever
   happened. The script sets window.Plotly to the real library as it runs; the charts are made a task later. */
var CITEMAP_PLOTLY_WAIT = 6000;
var citemapPlotlyGate = null;
(function () {
  if (window.Plotly || !document.getElementById("_dash-config")) { return; }  /* not the app's page */
  var open;
  var gate = new Promise(function (resolve) { open = resolve; });
  setTimeout(function () { open(); }, CITEMAP_PLOTLY_WAIT);
  citemapPlotlyGate = function () { open(); };
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
  window.Plotly = gate.then(function () {
    return load(citemapPrefix() + "assets/vendor/plotly-basic.min.js").catch(function () {
      return load(window._dashPlotlyJSURL);
    });
  });
})();
function citemapPlotlyMayStart() {  /* a frame after the last slice has been drawn */
  if (!citemapPlotlyGate) { return; }
  var gate = citemapPlotlyGate;
  citemapPlotlyGate = null;
  requestAnimationFrame(function () { setTimeout(gate, 0); });
}
