/* Drawing the map: a view's payload (GET /graph) into Cytoscape, in slices, keeping what the map shows between two
   drawings (the papers on it, their places, what was drawn of each); the first view fetched early; the map's
   callback (loadGraph). */

import { plotlyMayStart } from "./charts.js";
import { setViewportShortcuts } from "./cytoscape-private.js";
import { BIG_VIEW, elementsFrom } from "./logic/map-elements.js";
import { keepsCamera } from "./logic/fit.js";
import { afterFrame, fetchGraph, isAppPage, presenting, reducedMotion, whenCy } from "./page.js";
import { storyStep } from "./logic/story-steps.js";
import { prefetchNext } from "./story.js";
import { camera, fitPlaces, keepCamera } from "./viewport.js";

/* Papers are added at most in halves, then citations in slices of SLICE, one slice per frame. */
export const SLICE = 2000;
/* presenting: how long papers glide to their new places and new ones fade in (none under reduced motion) */
export const GLIDE_MS = 300;
export function glideMs() {
  return reducedMotion() ? 0 : GLIDE_MS;
}

/* What the map holds between drawings. */
const state = {
  drawing: 0 /* drawings begun (a newer one stops an older one between slices) */,
  drawn: new Map() /* id -> its data and classes as drawn */,
  shown: null /* the ids of the papers of the last view made into elements (null: none yet) */,
  layout: undefined /* that view's layout */,
  onMap: null /* the {layout, kind (of links: citations, similar, path)} of the view last drawn into Cytoscape */,
  changed: false /* whether that drawing added, removed or moved papers */,
  meta: {} /* that view's {query, color, palette}, for exports */,
};

/* Drawings begun so far (a story's export waits for the next one to end). */
export function drawings() {
  return state.drawing;
}
/* The view last made into elements: {query, color, palette}. */
export function viewMeta() {
  return state.meta;
}
/* Forget what the map held: the next drawing is a first one (no paper kept in its place, none marked new). */
export function forgetMap() {
  state.shown = null;
  state.onMap = null;
  state.drawn = new Map();
}

/* A payload's text -> {elements, query, count, map} (map-elements.js), against what the map shows now: papers already
   on it are kept in place, new ones marked; ``map``: the view's {layout, kind} (of links). */
export function elementsFromPayload(text, library, libraryFilter) {
  if (!text) {
    return { elements: [], query: "", count: "" };
  }
  const p = JSON.parse(text),
    cy = window.cy;
  let mapBox = null;
  if (p.layout === "timeline") {
    const map = document.getElementById("graph-citations");
    mapBox = map ? map.getBoundingClientRect() : null;
  }
  const positionOf = cy
    ? (id) => {
        const node = cy.getElementById(id);
        return node.nonempty() ? node.position() : null;
      }
    : null;
  const got = elementsFrom(p, {
    library: library,
    libraryFilter: libraryFilter,
    before: state.shown,
    previousLayout: state.layout,
    positionOf: positionOf,
    mapBox: mapBox,
  });
  got.map = { layout: p.layout, kind: p.edges.kind || "citations" };
  state.layout = p.layout;
  state.shown = got.shown;
  state.meta = { query: p.query, color: p.color, palette: p.palette };
  return got;
}

/* Draw elements into Cytoscape: papers and citations no longer in view go, the others take their new data, classes
   and place (one batch, restyling only what changed), new papers come in at most two slices, then new citations in
   slices of SLICE, one slice per frame, so that the page never blocks for long (Cytoscape styles and draws each
   element it adds); the first drawing to finish lets Plotly start (charts.js). Done here rather than through the
   component's ``elements`` prop: Dash and react-cytoscapejs copy and compare every element of the prop on each
   change, which stalled the page for seconds at 5,000 papers (bench/browser.py). Fits the map once its papers are
   in, when papers came, went or moved, unless ``keep`` (the camera stays where the visitor left it: fit.js
   keepsCamera); ``map``: the view's {layout, kind}. Resolves to false if a newer drawing stopped it. */
export async function draw(cy, elements, map, keep) {
  const mine = (state.drawing += 1);
  state.onMap = map;
  const want = new Map(),
    nodes = [],
    edges = [];
  let moved = false,
    papers = 0,
    i;
  const drawn = state.drawn;
  /* presenting a story: papers that stay glide to their new places, new ones fade in (the audience follows) */
  const glide = document.documentElement.classList.contains("presenting") && drawn.size > 0 && glideMs() > 0;
  const glides = [];
  for (i = 0; i < elements.length; i++) {
    want.set(elements[i].data.id, elements[i]);
  }
  cy.batch(() => {
    const gone = cy.elements().filter((e) => !want.has(e.id()));
    if (gone.nonempty()) {
      /* papers going change the map; titles' callouts and leaders (labels.js adds them after a drawing) do not */
      moved = moved || gone.nodes(".paper").nonempty();
      cy.remove(gone);
      gone.forEach((e) => drawn.delete(e.id()));
    }
    want.forEach((el, id) => {
      const e = cy.getElementById(id),
        key = JSON.stringify(el.data) + "|" + (el.classes || "");
      const paper = el.data.source === undefined;
      if (paper) {
        papers++;
      }
      if (e.empty()) {
        (paper ? nodes : edges).push(el);
        drawn.set(id, key);
        return;
      }
      if (drawn.get(id) !== key) {
        /* setting data or classes restyles the element: only when they changed */
        e.data(el.data);
        e.classes(el.classes || "");
        drawn.set(id, key);
      }
      if (el.position) {
        const p = e.position();
        if (p.x !== el.position.x || p.y !== el.position.y) {
          moved = true;
          if (glide) {
            glides.push([e, el.position]);
          } else {
            e.position(el.position);
          }
        }
      }
    });
  });
  state.changed = moved || nodes.length > 0;
  glides.forEach((g) => {
    g[0].animate({ position: g[1] }, { duration: glideMs(), easing: "ease-in-out-cubic" });
  });
  setViewportShortcuts(cy, papers >= BIG_VIEW);
  if ((moved || nodes.length) && !keep) {
    fitPlaces(cy, elements); /* from the places: no element styled yet */
  }
  const todo = nodes.concat(edges); /* the papers in halves, then the citations */
  const half = Math.max(SLICE, Math.ceil(nodes.length / 2));
  for (i = 0; i < todo.length; i = i < nodes.length ? Math.min(i + half, nodes.length) : i + SLICE) {
    if (i > 0) {
      /* after the frame that draws the last slice, and a task later: input and other work run in between */
      await afterFrame();
      if (mine !== state.drawing) {
        return false; /* a newer view is being drawn */
      }
    }
    const added = cy.add(todo.slice(i, i < nodes.length ? Math.min(i + half, nodes.length) : i + SLICE));
    if (glide) {
      added
        .nodes()
        .style("opacity", 0)
        .animate({ style: { opacity: 1 } }, { duration: glideMs() });
    }
  }
  document.documentElement.classList.add("map-drawn"); /* the page's picture of the map gives way to the map */
  plotlyMayStart();
  return true;
}

/* The first view is fetched as the page's script starts and drawn as soon as Cytoscape exists, while Dash is still
   starting (running the first callbacks). The view Dash then asks for is the same one: its payload is taken from
   here, and the drawing finds nothing to change. */
let first = null;
function firstView(query) {
  /* the first payload if it is the view of ``query``, else null */
  if (!first) {
    return Promise.resolve(null);
  }
  const got = first;
  first = null; /* used once */
  return got.then((text) => {
    if (!text) {
      return null;
    }
    try {
      return JSON.parse(text).query === query ? text : null;
    } catch {
      return null;
    }
  });
}
export function fetchFirstView() {
  if (!isAppPage()) {
    return;
  }
  first = fetchGraph(window.location.search)
    .then((r) => (r.ok ? r.text() : null))
    .catch(() => null);
  first.then(async (text) => {
    if (!text) {
      return;
    }
    const cy = await whenCy();
    const got = elementsFromPayload(text, null, "all");
    /* not in the task right after Dash's first render (its longest): a frame later */
    await afterFrame();
    if (state.drawing) {
      return; /* Dash's first drawing has begun */
    }
    draw(cy, got.elements, got.map, false);
  });
}

/* The map's callback: after every change of the view, of the visitor's library or of its filter, GET /graph?<query>
   (cached by the browser) and draw it, marking the library's papers (an error keeps the old map); the camera stays
   where the visitor left it, moved only as far as the selected paper needs to be in view (fit.js keepsCamera), or a
   story's step sets it; the next step is fetched ahead. [the view drawn (store-drawn, div-rendered-graph), what the
   page says of the library]. */
export async function loadGraph(query, library, libraryFilter, story) {
  const nu = window.dash_clientside.no_update;
  if (typeof query !== "string") {
    return [nu, nu, nu];
  }
  let text = await firstView(query);
  if (text === null) {
    const response = await fetchGraph(query);
    if (!response.ok) {
      plotlyMayStart(); /* no map to wait for */
      throw new Error("graph request failed: HTTP " + response.status);
    }
    text = await response.text();
  }
  const cy = await whenCy();
  const got = elementsFromPayload(text, library, libraryFilter),
    step = storyStep(story, query);
  const drawn = cy.nodes(".paper").nonempty() ? state.onMap : null;
  const keep = keepsCamera(drawn, got.map, !!step || presenting(), got.elements, cy.extent());
  if (!(await draw(cy, got.elements, got.map, keep))) {
    return [nu, nu, nu]; /* superseded: the newer call answers */
  }
  if (keep && state.changed) {
    keepCamera(cy);
  }
  camera(cy, step);
  prefetchNext(story, query);
  return [got.query, got.query, got.count];
}
