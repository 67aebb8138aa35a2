/* The field view (mode=field): every paper of the dataset as a WebGL point (plotly.js's scattergl, in its full
   (strict) bundle, loaded only for this view: assets/citemap-02-charts.js citemapPlotlyFull), from GET /field?<query>
   (dashboard/view/field.py says what it sends). Clientside callbacks loadField and fieldSelection
   (dashboard/web/callbacks/field.py); PNG and SVG export of the field while it is shown. */

var citemapFieldAsked = 0;  /* the latest loadField call: an older answer is dropped */
var citemapFieldCited = new Map();  /* row -> citers in the dataset, of the points drawn */
var CITEMAP_FIELD_SEEDS = 20;  /* a map's seeds at most (MAX_SEEDS, dashboard/graph/state.py) */
function citemapFieldQuery(query) { return /[?&]mode=field(&|$)/.test(query || ""); }  /* a link to the field view */
/* A page opened on the field view asks for the full bundle at once, before anything else can ask for the basic one. */
if (citemapFieldQuery(window.location.search) && window.citemapPlotlyFull) { window.citemapPlotlyFull(); }

/* A point's size in pixels by its citers in the dataset. */
function citemapFieldSize(cited) { return 3 + 2.2 * Math.log10(1 + Math.max(cited, 0)); }

/* The plotly figure of a field payload: one trace per colour (the legend names them), then the current map's
   papers ringed, the seeds as stars, the selected paper in a red ring; the regions' names over them. ``wide``: room
   for the legend over the field. */
function citemapFieldFigure(p, wide) {
  var n = p.r.length, groups = p.names.map(function () { return []; }), i, k;
  var text = new Array(n), size = new Array(n);
  for (i = 0; i < n; i++) {
    groups[p.c[i]].push(i);
    size[i] = citemapFieldSize(p.s[i]);
    text[i] = p.t[i] + "<br>" + (p.y0[i] >= 0 ? p.y0[i] : "year not known") + " · " + p.s[i] + " citing in dataset";
  }
  function pick(list, values) { return list.map(function (j) { return values[j]; }); }
  function trace(list, extra) {
    return Object.assign({
      type: "scattergl", mode: "markers", x: pick(list, p.x), y: pick(list, p.y), text: pick(list, text),
      customdata: pick(list, p.r), hovertemplate: "%{text}<extra></extra>",
    }, extra);
  }
  var data = [], last = p.names.length - 1;
  for (k = 0; k < groups.length; k++) {
    if (!groups[k].length) { continue; }
    data.push(trace(groups[k], {
      name: p.names[k],
      showlegend: p.color !== "year" || k % 5 === 0 || k >= last - 1,
      marker: {color: p.colors[k], size: pick(groups[k], size), opacity: 0.7, line: {width: 0}},
    }));
  }
  var colorOf = function (j) { return p.colors[p.c[j]]; };
  if (p.map.length) {
    data.push(trace(p.map, {
      name: "in the current map (" + p.map.length + ")",
      marker: {color: p.map.map(colorOf), size: pick(p.map, size).map(function (s) { return s + 4; }),
               line: {color: "#1d2430", width: 1.5}},
    }));
  }
  if (p.seeds.length) {
    data.push(trace(p.seeds, {
      name: "seed", marker: {symbol: "star", color: p.seeds.map(colorOf), size: 18, line: {color: "#1d2430", width: 1.5}},
    }));
  }
  if (p.selected !== null) {
    data.push(trace([p.selected], {
      name: "selected", marker: {symbol: "circle-open", color: "#e11d48", size: 24, line: {width: 3}},
    }));
  }
  var axis = {visible: false, range: p.range.slice(), zeroline: false};
  return {
    data: data,
    layout: {
      margin: {l: 0, r: 0, t: 0, b: 0},
      xaxis: axis,
      yaxis: Object.assign({}, axis, {range: p.range.slice(), scaleanchor: "x"}),
      dragmode: "pan",
      hovermode: "closest",
      uirevision: "field",  /* the zoom and the legend's choices stay while the view changes */
      plot_bgcolor: "#ffffff",
      paper_bgcolor: "#ffffff",
      showlegend: !!wide,  /* on a narrow screen the legend would cover the field: the Filters tab has it */
      legend: {x: 0, y: 1, xanchor: "left", yanchor: "top", bgcolor: "rgba(255,255,255,0.85)", font: {size: 11},
               itemsizing: "constant"},
      annotations: p.regions.map(function (r) {
        return {x: r.x, y: r.y, text: r.name, showarrow: false, font: {size: wide ? 13 : 10, color: "#1d2430"},
                bgcolor: "rgba(255,255,255,0.7)", borderpad: 2, captureevents: false};
      }),
    },
  };
}

/* The status line above the field: how many papers it shows of how many, and what to do. */
function citemapFieldStatus(p) {
  var parts = [p.shown.toLocaleString("en") + " of " + p.total.toLocaleString("en") + " papers"];
  if (p.passing < p.total) { parts.push(p.passing.toLocaleString("en") + " pass the filters"); }
  if (p.capped) { parts.push("the " + (p.passing - p.capped).toLocaleString("en") + " most cited drawn"); }
  if (p.map.length) { parts.push("the current map's " + p.map.length + " ringed"); }
  parts.push("click: select · box or lasso: select papers to map");
  return parts.join(" · ");
}

window.dash_clientside = window.dash_clientside || {};
window.dash_clientside.citemap = Object.assign(window.dash_clientside.citemap || {}, {
  /* The field view of a state (its query; ``mode``: the state's mode, which a story's query does not show):
     [figure, the box's class, status]. Other modes hide it and fetch nothing. */
  loadField: async function (query, mode) {
    var nu = window.dash_clientside.no_update;
    var asked = ++citemapFieldAsked;
    var field = mode === "field" || citemapFieldQuery(query);
    if (typeof query !== "string" || !field) { return [nu, "field-box", ""]; }
    var library = window.citemapPlotlyFull();  /* asked first: the basic bundle is then never fetched */
    var response = await fetch(citemapPrefix() + "field" + query);
    if (!response.ok) { throw new Error("field request failed: HTTP " + response.status); }
    var p = await response.json();
    await library;
    if (asked !== citemapFieldAsked) { return [nu, nu, nu]; }
    /* The box shown and its status line written before the points are drawn, and the plot sized to the room left:
       a plot resized while its WebGL points are first being drawn loses them (plotly.js shows "WebGL is not
       supported" instead). */
    citemapFieldCited = new Map(p.r.map(function (r, i) { return [r, p.s[i]]; }));
    var box = document.getElementById("div-field"), gd = box && box.querySelector(".js-plotly-plot");
    var status = citemapFieldStatus(p), line = document.getElementById("span-field-status");
    if (line) { line.textContent = status; }
    if (box) { box.classList.add("on"); }
    if (gd && window.Plotly && window.Plotly.Plots) { await window.Plotly.Plots.resize(gd); }
    return [citemapFieldFigure(p, box && box.getBoundingClientRect().width >= 600), "field-box on", status];
  },
  /* A box or lasso selection of the field: the button that maps its papers, with their number, and what the button
     sends: the selection's MAX_SEEDS most cited papers (ties: the first row; dashboard/view/field.py
     seeds_from_selection picks them alike) and how many it holds. */
  fieldSelection: function (selected) {
    var rows = new Set();
    ((selected && selected.points) || []).forEach(function (pt) { rows.add(pt.customdata); });
    if (!rows.size) { return ["Map these papers", {display: "none"}, null]; }
    var cited = citemapFieldCited, top = Array.from(rows).sort(function (a, b) {
      return ((cited.get(b) || 0) - (cited.get(a) || 0)) || a - b;
    }).slice(0, CITEMAP_FIELD_SEEDS);
    return ["Map these " + rows.size.toLocaleString("en") + " papers", {display: "inline-block"},
            {rows: top, n: rows.size}];
  },
});

/* Export while the field is shown: the field as it is on screen (Plotly draws the WebGL points into the image), not
   the citation map under it (assets/citemap-07-export.js, whose handler this one comes before). */
document.addEventListener("click", function (event) {
  var item = event.target && event.target.closest && event.target.closest(".export-menu button");
  var box = document.getElementById("div-field");
  if (!item || !box || !box.classList.contains("on")) { return; }
  if (item.id !== "button-export-png" && item.id !== "button-export-svg") { return; }
  event.stopPropagation();
  item.closest("details").removeAttribute("open");
  var gd = box.querySelector(".js-plotly-plot");
  if (gd && window.Plotly && window.Plotly.downloadImage) {
    window.Plotly.downloadImage(gd, {format: item.id.slice(-3), filename: "citemap-field", scale: 2});
  }
}, true);
