/* The field view's figure (mode=field: every paper of the dataset a WebGL point) from its two answers
   (dashboard/view/field.py says what they send): GET /field/points, the points, and GET /field?<query>, the state's
   layer over them; the region names placed on the plot as drawn; what a box or lasso selection maps. Pure
   (field.js fetches, draws and listens). */

export const SEEDS = 20; /* a map's seeds at most (MAX_SEEDS, dashboard/graph/state.py) */
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"; /* region names */
export const PAD = 2; /* a region name's padding inside its box, pixels */
export const GAP = 4; /* pixels kept free between two names and between a name and the plot's edge */
export const NAME = 24; /* a colour's name in the legend, characters at most */
export const HINT = "click: select · box or lasso: pick papers to map"; /* the line above the field */

/* A colour's name as the legend shows it: a cluster's first term ("object detection · convolutional" -> "object
   detection"), cut to NAME characters; the region names on the field give the rest. */
export function shortName(name) {
  const first = String(name).split(" · ")[0];
  return first.length > NAME ? first.slice(0, NAME - 1).trimEnd() + "…" : first;
}

/* A point's size in pixels by its citers in the dataset. */
export function pointSize(cited) {
  return 3 + 2.2 * Math.log10(1 + Math.max(cited, 0));
}

/* Bytes sent as base64, as numbers. */
export function bytesOf(text) {
  const raw = atob(text || ""),
    out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    out[i] = raw.charCodeAt(i);
  }
  return out;
}

/* The points and the state's layer as one list of points: the points, then the layer's extra ones (the current map's
   papers that are not among the points); ``shown``: which pass the filters (the map's always). */
export function joinLayer(points, layer) {
  const cols = ["r", "x", "y", "s", "y0", "t"],
    p = {},
    n = points.r.length;
  cols.forEach((k) => {
    p[k] = points[k].concat(layer.extra[k]);
  });
  const all = p.r.length,
    shown = new Uint8Array(all).fill(1);
  if (layer.mask) {
    const bits = bytesOf(layer.mask);
    for (let i = 0; i < n; i++) {
      shown[i] = (bits[i >> 3] >> (i & 7)) & 1;
    }
  }
  p.map = layer.map;
  p.regions = points.regions;
  p.map.forEach((j) => {
    shown[j] = 1;
  });
  p.shown = shown;
  p.c = bytesOf(layer.c);
  return p;
}

/* The density grid as a heatmap under the points: a cell's shade by the logarithm of its papers, from clear (none)
   to grey, smoothed between cells. */
export function densityTrace(d) {
  const z = d.z.map((row) => row.map((count) => Math.log10(1 + count)));
  return {
    type: "heatmap",
    x0: d.x0,
    dx: d.dx,
    y0: d.y0,
    dy: d.dy,
    z: z,
    zmin: 0,
    showscale: false,
    hoverinfo: "skip",
    colorscale: [
      [0, "rgba(138,147,163,0)"],
      [1, "rgba(138,147,163,0.9)"],
    ],
    zsmooth: "best",
    name: "other papers",
  };
}

/* The plotly figure of a field: one trace per colour (the legend names them), then the current map's papers ringed,
   the seeds as stars, the selected paper in a red ring; under them the density grid, if any. ``wide``: room for the
   legend under the field (``top``: over it, where a presented story's caption leaves room). ``textWidth(texts,
   size)``: the widest of some texts in px at a font size (the legend's columns are as wide as its longest name).
   Region names are placed once it is drawn (regionLabels). */
export function fieldFigure(p, layer, wide, top, textWidth) {
  const n = p.r.length,
    groups = layer.names.map(() => []);
  const text = new Array(n),
    size = new Array(n);
  for (let i = 0; i < n; i++) {
    size[i] = pointSize(p.s[i]);
    if (!p.shown[i]) {
      continue;
    }
    groups[p.c[i]].push(i);
    text[i] = p.t[i] + "<br>" + (p.y0[i] >= 0 ? p.y0[i] : "year not known") + " · " + p.s[i] + " citing in dataset";
  }
  const pick = (list, values) => list.map((j) => values[j]);
  function trace(list, extra) {
    return Object.assign(
      {
        type: "scattergl",
        mode: "markers",
        x: pick(list, p.x),
        y: pick(list, p.y),
        text: pick(list, text),
        customdata: pick(list, p.r),
        hovertemplate: "%{text}<extra></extra>",
      },
      extra,
    );
  }
  const data = layer.density ? [densityTrace(layer.density)] : [],
    last = layer.names.length - 1;
  for (let k = 0; k < groups.length; k++) {
    if (!groups[k].length) {
      continue;
    }
    data.push(
      trace(groups[k], {
        name: shortName(layer.names[k]),
        showlegend: layer.color !== "year" || k % 5 === 0 || k >= last - 1,
        marker: { color: layer.colors[k], size: pick(groups[k], size), opacity: 0.7, line: { width: 0 } },
      }),
    );
  }
  const colorOf = (j) => layer.colors[p.c[j]];
  if (p.map.length) {
    data.push(
      trace(p.map, {
        name: "current map",
        marker: {
          color: p.map.map(colorOf),
          size: pick(p.map, size).map((s) => s + 4),
          line: { color: "#1d2430", width: 1.5 },
        },
      }),
    );
  }
  if (layer.seeds.length) {
    data.push(
      trace(layer.seeds, {
        name: "seed",
        marker: { symbol: "star", color: layer.seeds.map(colorOf), size: 18, line: { color: "#1d2430", width: 1.5 } },
      }),
    );
  }
  if (layer.selected !== null) {
    data.push(
      trace([layer.selected], {
        name: "selected",
        marker: { symbol: "circle-open", color: "#e11d48", size: 24, line: { width: 3 } },
      }),
    );
  }
  const axis = { visible: false, range: layer.range.slice(), zeroline: false };
  const named = data.filter((t) => t.type === "scattergl" && t.showlegend !== false);
  return {
    data: data,
    layout: {
      margin: { l: 0, r: 0, t: 0, b: 0 },
      xaxis: axis,
      yaxis: Object.assign({}, axis, { range: layer.range.slice(), scaleanchor: "x" }),
      dragmode: "pan",
      hovermode: "closest",
      uirevision: "field" /* the zoom and the legend's choices stay while the view changes */,
      plot_bgcolor: "#ffffff",
      paper_bgcolor: "#ffffff",
      showlegend: !!wide /* on a narrow screen the legend would take the field's room */,
      legend: {
        orientation: "h",
        x: 0,
        y: top ? 1 : 0,
        xanchor: "left",
        yanchor: top ? "bottom" : "top",
        font: { size: 11, family: FONT },
        itemsizing: "constant",
        bgcolor: "rgba(255,255,255,0)" /* under the field */,
        entrywidth:
          textWidth(
            named.map((t) => t.name),
            11,
          ) + 8,
      },
      annotations: [],
      meta: { regions: p.regions, font: wide ? 13 : 11 } /* what regionLabels names */,
    },
  };
}

/* The region names that fit on the plot as it is drawn: largest region first, each name centred on its region's
   middle, moved inside the plot if it would leave it, and left out if its region's middle is off the plot or its box
   would overlap a name already placed. ``plot``: {w, h (the plot's size, px), xr, yr (its axes' ranges)};
   ``meta``: the figure's layout.meta; pixel boxes from the names' measured widths (``textWidth``). Plotly
   annotations. */
export function regionLabels(plot, meta, textWidth) {
  const xr = plot.xr,
    yr = plot.yr,
    fontSize = meta.font;
  const placed = [],
    out = [];
  const h = Math.ceil(fontSize * 1.4) + 2 * PAD + 2;
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  meta.regions.forEach((r) => {
    const w = textWidth([r.name], fontSize) + 2 * PAD + 6;
    let cx = ((r.x - xr[0]) / (xr[1] - xr[0])) * plot.w,
      cy = ((yr[1] - r.y) / (yr[1] - yr[0])) * plot.h;
    if (cx < 0 || cx > plot.w || cy < 0 || cy > plot.h || w + 2 * GAP > plot.w) {
      return;
    }
    cx = clamp(cx, w / 2 + GAP, plot.w - w / 2 - GAP);
    cy = clamp(cy, h / 2 + GAP, plot.h - h / 2 - GAP);
    const b = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
    if (placed.some((o) => b[0] < o[2] + GAP && o[0] < b[2] + GAP && b[1] < o[3] + GAP && o[1] < b[3] + GAP)) {
      return;
    }
    placed.push(b);
    out.push({
      x: xr[0] + (cx / plot.w) * (xr[1] - xr[0]),
      y: yr[1] - (cy / plot.h) * (yr[1] - yr[0]),
      text: r.name,
      showarrow: false,
      xanchor: "center",
      yanchor: "middle",
      captureevents: false,
      font: { size: fontSize, family: FONT, color: "#1d2430" },
      bgcolor: "rgba(255,255,255,0.75)",
      borderpad: PAD,
    });
  });
  return out;
}

/* Whether two lists of annotations name the same places (a new placing is drawn only when they differ). */
export function sameLabels(a, b) {
  const key = (list) => list.map((x) => x.text + "@" + Math.round(x.x * 10) + "," + Math.round(x.y * 10)).join("|");
  return key(a) === key(b);
}

/* The rows a plotly event's points name (a click, a box or lasso selection), each once: a point's row is its trace's
   customdata at the point's number (``data``: the plot's traces), else the customdata the event carries. */
export function eventRows(data, event) {
  const rows = new Set();
  ((event && event.points) || []).forEach((pt) => {
    const trace = data && data[pt.curveNumber];
    const k = typeof pt.pointNumber === "number" ? pt.pointNumber : pt.pointIndex;
    const r = trace && trace.customdata && typeof k === "number" ? trace.customdata[k] : pt.customdata;
    if (typeof r === "number") {
      rows.add(r);
    }
  });
  return Array.from(rows);
}

/* The row a click names (its first point's), or null. */
export function clickedRow(data, event) {
  const first = event && event.points && event.points.length ? { points: [event.points[0]] } : null;
  const rows = eventRows(data, first);
  return rows.length ? rows[0] : null;
}

/* A box or lasso selection of the field (``rows``: the rows it holds): [the button's text, its style, what it
   sends]: the selection's SEEDS most cited papers (ties: the first row; dashboard/view/field.py seeds_from_selection
   picks them alike) and how many it holds. ``cited``: row -> citers in the dataset, of the points drawn. */
export function selectionSeeds(rows, cited) {
  if (!rows || !rows.length) {
    return ["Map these papers", { display: "none" }, null];
  }
  const top = rows
    .slice()
    .sort((a, b) => (cited.get(b) || 0) - (cited.get(a) || 0) || a - b)
    .slice(0, SEEDS);
  return [
    "Map these " + rows.length.toLocaleString("en") + " papers",
    { display: "inline-block" },
    { rows: top, n: rows.length },
  ];
}
