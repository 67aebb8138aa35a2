/* The year charts' library: plotly.js (its basic bundle) loaded for dcc.Graph once the map is drawn and a chart is on
   screen; the field view's (its strict bundle) when that view asks for it.

   Plotly is the page's largest script: it loads when a chart is first on screen (a phone shows the panel and its
   chart behind a tab: they load when it opens), and not before the map is drawn, and it is plotly.js's basic bundle
   (bar and line charts are all the page draws): the full bundle's start was most of a second of main thread that
   nothing can interrupt, which, next to Dash's own start or a slice of a big map, made stalls and held the map back
   (bench/browser.py). dcc.Graph loads plotly.js by a script tag only when ``window.Plotly`` is not set (the hook dcc
   offers for a custom bundle), and takes what it finds through Promise.resolve: here it finds a promise that loads
   assets/vendor/plotly-basic.min.js (the same plotly.js version as Dash's, tests/test_vendor.py; Dash's full bundle
   if it cannot) once the first drawing of the map has finished (or PLOTLY_WAIT ms have passed, whatever happened)
   and a chart is in view. The script sets window.Plotly to the real library as it runs; the charts are made a task
   later. */

import { isAppPage, prefix } from "./page.js";

export const PLOTLY_WAIT = 6000;
const CHARTS = ["graph-by-year", "graph-overview"];

let gate = null; /* opens the gate once the map is drawn (plotlyMayStart) */
let full = null; /* the strict bundle, once the field view asked for it */
let requestFull = () => Promise.resolve(window.Plotly);

function load(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => setTimeout(() => resolve(window.Plotly), 0);
    script.onerror = reject;
    document.body.appendChild(script);
  });
}

/* window.Plotly: the promise of the library, for dcc.Graph. Called before Dash draws the page. */
export function installPlotlyGate() {
  if (window.Plotly || !isAppPage()) {
    return;
  }
  let open,
    drawn = false,
    seen = false,
    watching = false;
  const opened = new Promise((resolve) => {
    open = resolve;
  });
  function maybe() {
    if (drawn && !watching) {
      watching = true;
      watchCharts();
    }
    if (drawn && seen) {
      open();
    }
  }
  function watchCharts() {
    /* seen: a chart has a pixel on screen (a hidden tab's has none) */
    const charts = CHARTS.map((id) => document.getElementById(id)).filter(Boolean);
    if (!window.IntersectionObserver || !charts.length) {
      seen = true;
      return;
    }
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        seen = true;
        io.disconnect();
        maybe();
      }
    });
    charts.forEach((el) => io.observe(el));
  }
  setTimeout(() => {
    drawn = true;
    maybe();
  }, PLOTLY_WAIT);
  gate = () => {
    drawn = true;
    maybe();
  };
  let started = false;
  const pending = opened.then(() => {
    started = true;
    if (full) {
      return full;
    }
    return load(prefix() + "assets/vendor/plotly-basic.min.js").catch(() => load(window._dashPlotlyJSURL));
  });
  window.Plotly = pending;
  /* The field view (field.js) draws WebGL points (scattergl), which the basic bundle lacks: it asks here for
     plotly.js's strict bundle (all traces, the same version as Dash's, assets/vendor/plotly-strict.min.js, whose
     WebGL shaders are compiled ahead: the full bundle compiles them with eval(), which the page's Content Security
     Policy forbids, dashboard/web/security.py), and only then is it loaded (never for the other views). Asked before
     the charts' library has started loading, it is the charts' library too (the basic one is never fetched); after,
     it is loaded once the basic one is in, and replaces it (window.Plotly, which dcc.Graph calls at each drawing: the
     same version, a superset). */
  const fullURL = () => prefix() + "assets/vendor/plotly-strict.min.js";
  requestFull = () => {
    if (!full) {
      if (started) {
        full = pending.then(() => load(fullURL()));
      } else {
        full = load(fullURL());
        drawn = true;
        seen = true;
        open();
      }
    }
    return full;
  };
}

/* The strict bundle of plotly.js (the field view's): resolves to the library. */
export function plotlyFull() {
  return requestFull();
}

/* The map's first drawing has ended: the charts' library may start loading, a frame after the last slice was drawn. */
export function plotlyMayStart() {
  if (!gate) {
    return;
  }
  const g = gate;
  gate = null;
  requestAnimationFrame(() => setTimeout(g, 0));
}
