/* The field view (mode=field): every paper of the dataset as a WebGL point (plotly.js's scattergl, in its full
   (strict) bundle, loaded only for this view: assets/citemap-02-charts.js citemapPlotlyFull). Two answers
   (dashboard/view/field.py says what they send): GET /field/points, the points, fetched once a build; GET
   /field?<query>, the state's layer over them (colours, filters, the current map, and past what a browser draws
   well a density grid of the papers that are not points). Clientside callbacks loadField and
   fieldSelection (dashboard/web/callbacks/field.py); region names placed on the screen as it is; PNG and SVG export
   of the field while it is shown. */

var citemapFieldAsked = 0;  /* the latest loadField call: an older answer is dropped */
var citemapFieldCited = new Map();  /* row -> citers in the dataset, of the points drawn */
var citemapFieldPointsMemo = null;  /* {build, promise}: the points of the build last seen */
var CITEMAP_FIELD_SEEDS = 20;  /* a map's seeds at most (MAX_SEEDS, dashboard/graph/state.py) */
var CITEMAP_FIELD_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";  /* region names */
var CITEMAP_FIELD_PAD = 2;  /* a region name's padding inside its box, pixels */
var CITEMAP_FIELD_GAP = 4;  /* pixels kept free between two names and between a name and the plot's edge */
function citemapFieldQuery(query) { return /[?&]mode=field(&|$)/.test(query || ""); }  /* a link to the field view */
/* A page opened on the field view asks for the full bundle at once, before anything else can ask for the basic one. */
if (citemapFieldQuery(window.location.search) && window.citemapPlotlyFull) { window.citemapPlotlyFull(); }

/* A colour's name as the legend shows it: a cluster's first term ("object detection · convolutional" -> "object
   detection"), cut to CITEMAP_FIELD_NAME characters; the region names on the field give the rest. */
var CITEMAP_FIELD_NAME = 24;
function citemapFieldShort(name) {
  var first = String(name).split(" · ")[0];
  return first.length > CITEMAP_FIELD_NAME ? first.slice(0, CITEMAP_FIELD_NAME - 1).trimEnd() + "…" : first;
}

/* A point's size in pixels by its citers in the dataset. */
function citemapFieldSize(cited) { return 3 + 2.2 * Math.log10(1 + Math.max(cited, 0)); }

/* GET a JSON answer of the field (``path`` after the app's prefix). */
async function citemapFieldGet(path) {
  var response = await fetch(citemapPrefix() + path, {headers: {Accept: "application/json"}});
  if (!response.ok) { throw new Error("field request failed: HTTP " + response.status); }
  return response.json();
}

/* The points of the field for a build (fetched once a build: a later state fetches its layer only). */
function citemapFieldPoints(build) {
  if (!citemapFieldPointsMemo || (build !== undefined && citemapFieldPointsMemo.build !== build)) {
    var memo = {build: build, promise: citemapFieldGet("field/points")};
    memo.promise.then(function (points) { memo.build = points.build; }, function () { citemapFieldPointsMemo = null; });
    citemapFieldPointsMemo = memo;
  }
  return citemapFieldPointsMemo.promise;
}

/* Bytes sent as base64, as numbers. */
function citemapFieldBytes(text) {
  var raw = atob(text || ""), out = new Uint8Array(raw.length), i;
  for (i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
  return out;
}

/* The points and the state's layer as one list of points: the points, then the layer's extra ones (the current
   map's papers that are not among the points); ``shown``: which pass the filters (the map's always). */
function citemapFieldJoin(points, layer) {
  var cols = ["r", "x", "y", "s", "y0", "t"], p = {}, n = points.r.length;
  cols.forEach(function (k) { p[k] = points[k].concat(layer.extra[k]); });
  var all = p.r.length, shown = new Uint8Array(all).fill(1), i;
  if (layer.mask) {
    var bits = citemapFieldBytes(layer.mask);
    for (i = 0; i < n; i++) { shown[i] = (bits[i >> 3] >> (i & 7)) & 1; }
  }
  p.map = layer.map;
  p.regions = points.regions;
  p.map.forEach(function (j) { shown[j] = 1; });
  p.shown = shown;
  p.c = citemapFieldBytes(layer.c);
  return p;
}

/* The density grid as a heatmap under the points: a cell's shade by the logarithm of its papers, from clear (none)
   to grey, smoothed between cells. */
function citemapFieldDensity(d) {
  var z = d.z.map(function (row) { return row.map(function (count) { return Math.log10(1 + count); }); });
  return {
    type: "heatmap", x0: d.x0, dx: d.dx, y0: d.y0, dy: d.dy, z: z, zmin: 0, showscale: false, hoverinfo: "skip",
    colorscale: [[0, "rgba(138,147,163,0)"], [1, "rgba(138,147,163,0.9)"]], zsmooth: "best", name: "other papers",
  };
}

/* The plotly figure of a field: one trace per colour (the legend names them), then the current map's papers
   ringed, the seeds as stars, the selected paper in a red ring; under them the density grid, if any. ``wide``: room
   for the legend under the field (``top``: over it, where a presented story's caption leaves room). Region names are placed once it is drawn (citemapFieldPlace). */
function citemapFieldFigure(p, layer, wide, top) {
  var n = p.r.length, groups = layer.names.map(function () { return []; }), i, k;
  var text = new Array(n), size = new Array(n);
  for (i = 0; i < n; i++) {
    size[i] = citemapFieldSize(p.s[i]);
    if (!p.shown[i]) { continue; }
    groups[p.c[i]].push(i);
    text[i] = p.t[i] + "<br>" + (p.y0[i] >= 0 ? p.y0[i] : "year not known") + " · " + p.s[i] + " citing in dataset";
  }
  function pick(list, values) { return list.map(function (j) { return values[j]; }); }
  function trace(list, extra) {
    return Object.assign({
      type: "scattergl", mode: "markers", x: pick(list, p.x), y: pick(list, p.y), text: pick(list, text),
      customdata: pick(list, p.r), hovertemplate: "%{text}<extra></extra>",
    }, extra);
  }
  var data = layer.density ? [citemapFieldDensity(layer.density)] : [], last = layer.names.length - 1;
  for (k = 0; k < groups.length; k++) {
    if (!groups[k].length) { continue; }
    data.push(trace(groups[k], {
      name: citemapFieldShort(layer.names[k]),
      showlegend: layer.color !== "year" || k % 5 === 0 || k >= last - 1,
      marker: {color: layer.colors[k], size: pick(groups[k], size), opacity: 0.7, line: {width: 0}},
    }));
  }
  var colorOf = function (j) { return layer.colors[p.c[j]]; };
  if (p.map.length) {
    data.push(trace(p.map, {
      name: "current map",
      marker: {color: p.map.map(colorOf), size: pick(p.map, size).map(function (s) { return s + 4; }),
               line: {color: "#1d2430", width: 1.5}},
    }));
  }
  if (layer.seeds.length) {
    data.push(trace(layer.seeds, {
      name: "seed",
      marker: {symbol: "star", color: layer.seeds.map(colorOf), size: 18, line: {color: "#1d2430", width: 1.5}},
    }));
  }
  if (layer.selected !== null) {
    data.push(trace([layer.selected], {
      name: "selected", marker: {symbol: "circle-open", color: "#e11d48", size: 24, line: {width: 3}},
    }));
  }
  var axis = {visible: false, range: layer.range.slice(), zeroline: false};
  var named = data.filter(function (t) { return t.type === "scattergl" && t.showlegend !== false; });
  return {
    data: data,
    layout: {
      margin: {l: 0, r: 0, t: 0, b: 0},
      xaxis: axis,
      yaxis: Object.assign({}, axis, {range: layer.range.slice(), scaleanchor: "x"}),
      dragmode: "pan",
      hovermode: "closest",
      uirevision: "field",  /* the zoom and the legend's choices stay while the view changes */
      plot_bgcolor: "#ffffff",
      paper_bgcolor: "#ffffff",
      showlegend: !!wide,  /* on a narrow screen the legend would take the field's room */
      legend: {orientation: "h", x: 0, y: top ? 1 : 0, xanchor: "left", yanchor: top ? "bottom" : "top",
               font: {size: 11, family: CITEMAP_FIELD_FONT}, itemsizing: "constant", bgcolor: "rgba(255,255,255,0)",  /* under the field */
               entrywidth: citemapFieldTextWidth(named.map(function (t) { return t.name; }), 11) + 8},
      annotations: [],
      meta: {regions: p.regions, font: wide ? 13 : 11},  /* what citemapFieldPlace names */
    },
  };
}

/* The widest of some texts in pixels, at a font size (the legend's columns are as wide as its longest name). */
var citemapFieldCanvas = null;
function citemapFieldTextWidth(texts, fontSize) {
  var ctx = (citemapFieldCanvas = citemapFieldCanvas || document.createElement("canvas")).getContext("2d");
  ctx.font = fontSize + "px " + CITEMAP_FIELD_FONT;
  return Math.ceil(texts.reduce(function (w, t) { return Math.max(w, ctx.measureText(t).width); }, 0));
}

/* The region names that fit on the plot as it is drawn: largest region first, each name centred on its region's
   middle, moved inside the plot if it would leave it, and left out if its region's middle is off the plot or its
   box would overlap a name already placed. Pixel boxes from the plot's axes and the names' measured widths. */
function citemapFieldLabels(gd) {
  var full = gd._fullLayout, meta = gd.layout && gd.layout.meta;
  if (!full || !full._size || !full.xaxis || !meta || !meta.regions) { return []; }
  var box = full._size, xr = full.xaxis.range, yr = full.yaxis.range, fontSize = meta.font;
  var gap = CITEMAP_FIELD_GAP, placed = [], out = [];
  var h = Math.ceil(fontSize * 1.4) + 2 * CITEMAP_FIELD_PAD + 2;
  function clamp(v, lo, hi) { return Math.min(Math.max(v, lo), hi); }
  meta.regions.forEach(function (r) {
    var w = citemapFieldTextWidth([r.name], fontSize) + 2 * CITEMAP_FIELD_PAD + 6;
    var cx = (r.x - xr[0]) / (xr[1] - xr[0]) * box.w, cy = (yr[1] - r.y) / (yr[1] - yr[0]) * box.h;
    if (cx < 0 || cx > box.w || cy < 0 || cy > box.h || w + 2 * gap > box.w) { return; }
    cx = clamp(cx, w / 2 + gap, box.w - w / 2 - gap);
    cy = clamp(cy, h / 2 + gap, box.h - h / 2 - gap);
    var b = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
    if (placed.some(function (o) {
      return b[0] < o[2] + gap && o[0] < b[2] + gap && b[1] < o[3] + gap && o[1] < b[3] + gap;
    })) { return; }
    placed.push(b);
    out.push({
      x: xr[0] + cx / box.w * (xr[1] - xr[0]), y: yr[1] - cy / box.h * (yr[1] - yr[0]), text: r.name,
      showarrow: false, xanchor: "center", yanchor: "middle", captureevents: false,
      font: {size: fontSize, family: CITEMAP_FIELD_FONT, color: "#1d2430"},
      bgcolor: "rgba(255,255,255,0.75)", borderpad: CITEMAP_FIELD_PAD,
    });
  });
  return out;
}
/* Names placed anew after each drawing (a new state, a pan, a zoom, a resize), when they changed. */
function citemapFieldPlace(gd) {
  var want = citemapFieldLabels(gd), have = (gd.layout && gd.layout.annotations) || [];
  function key(list) {
    return list.map(function (a) { return a.text + "@" + Math.round(a.x * 10) + "," + Math.round(a.y * 10); }).join("|");
  }
  if (key(want) !== key(have)) { window.Plotly.relayout(gd, {annotations: want}); }
}
/* Listen to the plot's drawing once it is a plotly plot. */
function citemapFieldHook(tries) {
  var gd = document.querySelector("#div-field .js-plotly-plot");
  if (gd && gd.on && !gd.citemapFieldHooked) {
    gd.citemapFieldHooked = true;
    gd.on("plotly_afterplot", function () { citemapFieldPlace(gd); });
    gd.on("plotly_relayout", function (change) {
      if (change && !("annotations" in change)) { setTimeout(function () { citemapFieldPlace(gd); }, 0); }
    });
  } else if (!(gd && gd.citemapFieldHooked) && tries > 0) {
    setTimeout(function () { citemapFieldHook(tries - 1); }, 100);
  }
}

/* The line above the field: what to do there. */
var CITEMAP_FIELD_HINT = "click: select · box or lasso: pick papers to map";

window.dash_clientside = window.dash_clientside || {};
window.dash_clientside.citemap = Object.assign(window.dash_clientside.citemap || {}, {
  /* The field view of a state (its query; ``mode``: the state's mode, which a story's query does not show):
     [figure, the box's class, the line above it]. Other modes hide it and fetch nothing. */
  loadField: async function (query, mode) {
    var nu = window.dash_clientside.no_update;
    var asked = ++citemapFieldAsked;
    var field = mode === "field" || citemapFieldQuery(query);
    if (typeof query !== "string" || !field) { return [nu, "field-box", ""]; }
    var library = window.citemapPlotlyFull();  /* asked first: the basic bundle is then never fetched */
    var pointsAsked = citemapFieldPoints();  /* with the layer: the first time, both at once */
    var layer = await citemapFieldGet("field" + query);
    var points = await pointsAsked;
    if (points.build !== layer.build) { points = await citemapFieldPoints(layer.build); }  /* a new build served */
    await library;
    if (asked !== citemapFieldAsked) { return [nu, nu, nu]; }
    var p = citemapFieldJoin(points, layer);
    /* The box shown and its line written before the points are drawn, and the plot sized to the room left: a plot
       resized while its WebGL points are first being drawn loses them (plotly.js shows "WebGL is not supported"
       instead). */
    citemapFieldCited = new Map(p.r.map(function (r, i) { return [r, p.s[i]]; }));
    var box = document.getElementById("div-field"), gd = box && box.querySelector(".js-plotly-plot");
    var line = document.getElementById("span-field-status");
    if (line) { line.textContent = CITEMAP_FIELD_HINT; }
    if (box) { box.classList.add("on"); }
    if (gd && window.Plotly && window.Plotly.Plots) { await window.Plotly.Plots.resize(gd); }
    citemapFieldHook(100);
    var wide = box && box.getBoundingClientRect().width >= 600;
    return [citemapFieldFigure(p, layer, wide, !!document.querySelector(".app.presenting")), "field-box on",
            CITEMAP_FIELD_HINT];
  },
  /* A box or lasso selection of the field: the button that maps its papers, with their number, and what the button
     sends: the selection's MAX_SEEDS most cited papers (ties: the first row; dashboard/view/field.py
     seeds_from_selection picks them alike) and how many it holds. */
  fieldSelection: function (selected) {
    var rows = new Set();
    ((selected && selected.points) || []).forEach(function (pt) {
      if (typeof pt.customdata === "number") { rows.add(pt.customdata); }
    });
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
