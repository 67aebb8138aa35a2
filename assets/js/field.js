/* The field view (mode=field) in the page: its answers fetched (the points once a build, the state's layer each
   time), the figure drawn by plotly.js's strict bundle (charts.js plotlyFull), region names placed on the screen as
   it is, a click and a box or lasso selection sent to the app, PNG and SVG export of the field while it is shown.
   field-figure.js makes the figure. Clientside callback loadField (dashboard/web/callbacks/field.py).

   The plot's events are listened to here, not through dcc.Graph: dcc.Graph binds its listeners once, to the event
   emitter of the plot's first drawing, and a plot first drawn by the basic bundle (the page's charts' library, loaded
   before the field was asked for) gets a new emitter when the strict bundle draws it, without those listeners. So a
   field entered from the sidebar had no click or selection. Here the listeners are checked after every drawing and
   bound again to whatever emitter the plot has. */

import { plotlyFull } from "./charts.js";
import {
  FONT,
  HINT,
  clickedRow,
  eventRows,
  fieldFigure,
  joinLayer,
  regionLabels,
  sameLabels,
  selectionSeeds,
} from "./logic/field-figure.js";
import { prefix, setProps } from "./page.js";
import { isFieldQuery } from "./logic/url-state.js";

let asked = 0; /* the latest loadField call: an older answer is dropped */
let cited = new Map(); /* row -> citers in the dataset, of the points drawn */
let pointsMemo = null; /* {build, promise}: the points of the build last seen */
const POLL_MS = 2000; /* between two asks of a field whose map is still being made */
const watched = new WeakSet(); /* the plots whose drawings are watched */
const PING = "citemap_field_listening"; /* an event of our own: heard if our listeners are on the plot's emitter */
let heard = null;

/* GET a JSON answer of the field (``path`` after the app's prefix). */
async function get(path) {
  const response = await fetch(prefix() + path, { headers: { Accept: "application/json" } });
  if (!response.ok) {
    throw new Error("field request failed: HTTP " + response.status);
  }
  return response.json();
}

/* The points of the field for a build (fetched once a build: a later state fetches its layer only). */
function fieldPoints(build) {
  if (!pointsMemo || (build !== undefined && pointsMemo.build !== build)) {
    const memo = { build: build, promise: get("field/points") };
    memo.promise.then(
      (points) => {
        memo.build = points.build;
        if (points.making && pointsMemo === memo) {
          pointsMemo = null; /* not the points yet: asked again once the map is there */
        }
      },
      () => {
        pointsMemo = null;
      },
    );
    pointsMemo = memo;
  }
  return pointsMemo.promise;
}

/* The widest of some texts in pixels, at a font size. */
let canvas = null;
function textWidth(texts, fontSize) {
  const ctx = (canvas = canvas || document.createElement("canvas")).getContext("2d");
  ctx.font = fontSize + "px " + FONT;
  return Math.ceil(texts.reduce((w, t) => Math.max(w, ctx.measureText(t).width), 0));
}

/* Region names placed anew after each drawing (a new state, a pan, a zoom, a resize), when they changed. */
function placeNames(gd) {
  const full = gd._fullLayout,
    meta = gd.layout && gd.layout.meta;
  let want = [];
  if (full && full._size && full.xaxis && meta && meta.regions) {
    const plot = { w: full._size.w, h: full._size.h, xr: full.xaxis.range, yr: full.yaxis.range };
    want = regionLabels(plot, meta, textWidth);
  }
  const have = (gd.layout && gd.layout.annotations) || [];
  if (!sameLabels(want, have)) {
    window.Plotly.relayout(gd, { annotations: want });
  }
}
/* What a selection of the field offers: "Map these N papers" and what it sends (none: the button hidden). */
function offer(rows) {
  const [text, style, sent] = selectionSeeds(rows, cited);
  setProps("button-field-map", { children: text, style: style });
  setProps("store-field-selection", { data: sent });
}

/* The plot's listeners, on the emitter it has now: region names placed after each drawing, a click sent to the app
   (store-field-click: the row clicked), a box or lasso selection offered for mapping. Bound again whenever the
   plot's emitter lost them (a PING that nobody hears). */
function listen(gd) {
  if (!gd || typeof gd.on !== "function" || typeof gd.emit !== "function") {
    return;
  }
  heard = null;
  gd.emit(PING);
  if (heard === gd) {
    return;
  }
  gd.on(PING, () => {
    heard = gd;
  });
  gd.on("plotly_afterplot", () => placeNames(gd));
  gd.on("plotly_relayout", (change) => {
    if (change && !("annotations" in change)) {
      setTimeout(() => placeNames(gd), 0);
    }
  });
  gd.on("plotly_click", (event) => {
    const row = clickedRow(gd.data, event);
    if (row !== null) {
      setProps("store-field-click", { data: { row: row, at: Date.now() } });
    }
  });
  gd.on("plotly_selected", (event) => offer(eventRows(gd.data, event)));
  gd.on("plotly_deselect", () => offer([]));
}

/* Listen to the plot once it is a plotly plot, and check its listeners after each of its drawings (dcc.Graph marks a
   drawing in progress with a class on the plot). */
function hook(tries) {
  const gd = document.querySelector("#div-field .js-plotly-plot");
  if (gd && gd.on) {
    listen(gd);
    if (!watched.has(gd)) {
      watched.add(gd);
      new MutationObserver(() => listen(gd)).observe(gd, { attributes: true, attributeFilter: ["class"] });
    }
  } else if (tries > 0) {
    setTimeout(() => hook(tries - 1), 100);
  }
}

/* The field view of a state (its query; ``mode``: the state's mode, which a story's query does not show): [figure,
   the box's class, the line above it]. Other modes hide it and fetch nothing. */
export async function loadField(query, mode) {
  const nu = window.dash_clientside.no_update;
  const mine = ++asked;
  const field = mode === "field" || isFieldQuery(query);
  if (typeof query !== "string" || !field) {
    return [nu, "field-box", ""];
  }
  const library = plotlyFull(); /* asked first: the basic bundle is then never fetched */
  let pointsAsked = fieldPoints(); /* with the layer: the first time, both at once */
  let layer = await get("field" + query);
  /* The map of the field is made after the dataset is served: until it is there the box says how far along it is,
     asked again every few seconds while this state is the one shown. */
  while (layer.making) {
    if (mine !== asked) {
      return [nu, nu, nu];
    }
    const waiting = document.getElementById("div-field"),
      said = document.getElementById("span-field-status");
    if (waiting) {
      waiting.classList.add("on", "making");
    }
    if (said) {
      said.textContent = layer.making.text;
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
    if (mine !== asked) {
      return [nu, nu, nu];
    }
    layer = await get("field" + query);
    if (!layer.making) {
      pointsAsked = fieldPoints(layer.build);
    }
  }
  let points = await pointsAsked;
  if (points.making || points.build !== layer.build) {
    points = await fieldPoints(layer.build); /* a new build served */
  }
  await library;
  if (mine !== asked) {
    return [nu, nu, nu];
  }
  const p = joinLayer(points, layer);
  /* The box shown and its line written before the points are drawn, and the plot sized to the room left: a plot
     resized while its WebGL points are first being drawn loses them (plotly.js shows "WebGL is not supported"
     instead). */
  cited = new Map(p.r.map((r, i) => [r, p.s[i]]));
  const box = document.getElementById("div-field"),
    gd = box && box.querySelector(".js-plotly-plot");
  const line = document.getElementById("span-field-status");
  if (line) {
    line.textContent = HINT;
  }
  if (box) {
    box.classList.add("on");
    box.classList.remove("making");
  }
  if (gd && window.Plotly && window.Plotly.Plots) {
    await window.Plotly.Plots.resize(gd);
  }
  hook(100);
  const wide = box && box.getBoundingClientRect().width >= 600;
  return [fieldFigure(p, layer, wide, !!document.querySelector(".app.presenting"), textWidth), "field-box on", HINT];
}

/* A page opened on the field view asks for the full bundle at once, before anything else can ask for the basic one;
   export while the field is shown is the field as it is on screen (Plotly draws the WebGL points into the image),
   not the citation map under it (this listener comes before export-image.js's). */
export function installField() {
  if (isFieldQuery(window.location.search)) {
    plotlyFull();
  }
  document.addEventListener(
    "click",
    (event) => {
      const item = event.target && event.target.closest && event.target.closest(".export-menu button");
      const box = document.getElementById("div-field");
      if (!item || !box || !box.classList.contains("on")) {
        return;
      }
      if (item.id !== "button-export-png" && item.id !== "button-export-svg") {
        return;
      }
      event.stopPropagation();
      item.closest("details").removeAttribute("open");
      const gd = box.querySelector(".js-plotly-plot");
      if (gd && window.Plotly && window.Plotly.downloadImage) {
        window.Plotly.downloadImage(gd, { format: item.id.slice(-3), filename: "citemap-field", scale: 2 });
      }
    },
    true,
  );
}
