/* The map's camera in Cytoscape: fitting the map (room around it for a timeline's ticks, a few papers' titles, a
   story's caption), following resizes, a story step's camera, the mouse wheel's zoom (fit.js computes). */

import {
  SELECTION_ROOM,
  atFit,
  cameraOf,
  cameraView,
  panToShow,
  placesBox,
  roomFor,
  untouched,
  viewFor,
} from "./logic/fit.js";
import { isAppPage, reducedMotion, tickPx, whenCy } from "./page.js";
import { textWidth } from "./text-measure.js";

/* per Cytoscape instance: the view's fit ({zoom, x, y, bb, room}: null once a step's camera moved away from it), the
   last fit before such a camera, the map's size when last seen */
const fits = new WeakMap(),
  lastFits = new WeakMap(),
  sizes = new WeakMap();

/* The fit the map is at, or was last given ({zoom, x, y (pan), bb, room}), or null. */
export function fitted(cy) {
  return fits.get(cy) || null;
}

/* How much of the map's box the caption and controls cover from its bottom edge up, px (0 unless presenting). */
export function captionCover(cy) {
  const el = document.getElementById("div-present"),
    box = cy.container && cy.container();
  if (!el || !box || !document.documentElement.classList.contains("presenting")) {
    return 0;
  }
  const r = el.getBoundingClientRect(),
    c = box.getBoundingClientRect();
  return r.height > 0 ? Math.max(0, Math.min(c.height / 2, c.bottom - r.top)) : 0;
}

/* Show the box bb (model coordinates) with room around it on screen (``spec``: fit.js roomFor; kept, not the px it
   gave, so that a fit made again after a resize or a change of presenting measures the room again). */
function viewport(cy, bb, animate, spec) {
  const room = roomFor(spec, tickPx(), textWidth, captionCover(cy));
  const view = viewFor(bb, room, cy.width(), cy.height(), cy.minZoom(), cy.maxZoom());
  if (!view) {
    return;
  }
  if (animate && !reducedMotion()) {
    cy.animate(view, { duration: 200 });
  } else {
    cy.viewport(view);
  }
  fits.set(cy, { zoom: view.zoom, x: view.pan.x, y: view.pan.y, bb: bb, room: spec });
  followResizes(cy);
}

/* Fit the papers of ``elements`` from their places and sizes (what fit() measures, without styling them). */
export function fitPlaces(cy, elements) {
  const got = placesBox(elements);
  if (got) {
    viewport(cy, got.bb, false, got.spec);
  }
}

/* The camera kept as the visitor left it after a new map was drawn, moved as little as the selected paper needs to be
   in view with room for its title (fit.js panToShow): the zoom never changes. The map is no longer at a fit, so a
   resize keeps the centre and the zoom rather than fitting the former papers again. */
export function keepCamera(cy) {
  fits.set(cy, null);
  const sel = cy.nodes(".paper.selected").not(".lib-hidden");
  if (sel.empty() || !cy.width() || !cy.height()) {
    return;
  }
  const pan = cy.pan(),
    to = panToShow(pan, cy.zoom(), cy.width(), cy.height(), sel[0].position(), SELECTION_ROOM);
  if (to.x !== pan.x || to.y !== pan.y) {
    cy.pan(to);
  }
}

/* Fit the papers (not their labels, which follow the zoom; not the edges, which lie between papers: measuring either
   for thousands of elements took most of a second) with the room of the view's first fit around. */
export function fit(cy, animate) {
  const f = fits.get(cy);
  viewport(
    cy,
    cy.nodes().not(".lib-hidden, .callout").boundingBox({ includeLabels: false, includeOverlays: false }),
    animate,
    f ? f.room : undefined,
  );
}

/* A new size of the map's box (the page still laying itself out, a window resized, a phone's tab shown): while the
   visitor has not moved the map since it was fitted, fit it again; else keep what was at the centre at the centre,
   at the same zoom. The only handler of Cytoscape's resize (dash-cytoscape's ``responsive`` mode, which rescaled the
   zoom from the viewport at the last frame drawn, undid a fit made in between). */
function followResizes(cy) {
  if (sizes.has(cy)) {
    return;
  }
  sizes.set(cy, { w: cy.width(), h: cy.height() });
  cy.on("resize", () => {
    const f = fits.get(cy),
      pan = cy.pan(),
      was = sizes.get(cy),
      w = cy.width(),
      h = cy.height();
    sizes.set(cy, { w: w, h: h });
    if (untouched(f, cy.zoom(), pan)) {
      viewport(cy, f.bb, false, f.room);
    } else if (w !== was.w || h !== was.h) {
      cy.pan({ x: pan.x + (w - was.w) / 2, y: pan.y + (h - was.h) / 2 });
    }
  });
}

function isAtFit(cy) {
  return atFit(fits.get(cy), cy.zoom(), cy.pan());
}

/* A step's camera ({step, index}, story-steps.js storyStep): a zoom centred on a model point, after the map is drawn
   (else the map is fitted as always). */
export function camera(cy, step) {
  if (!step) {
    return;
  }
  const cam = step.step.camera;
  if (!cam || cam.fit || typeof cam.zoom !== "number") {
    /* a step at its fit after one with a camera on the same view (two steps may differ by their camera only): the
       drawing changed nothing, so it fitted nothing */
    const last = fits.get(cy) || lastFits.get(cy);
    if (last && !isAtFit(cy)) {
      viewport(cy, last.bb, false, last.room);
    }
    return;
  }
  if (fits.get(cy)) {
    lastFits.set(cy, fits.get(cy)); /* the fit of this view, for the above */
  }
  cy.viewport(cameraView(cam, cy.width(), cy.height(), cy.minZoom(), cy.maxZoom()));
  fits.set(cy, null); /* placed on purpose: a resize keeps it */
}

/* The map's camera as a story step writes it, or null while the map is at its fit, the default of a step. */
export function cameraNow(cy) {
  if (!cy || isAtFit(cy)) {
    return null;
  }
  return cameraOf(cy.zoom(), cy.pan(), cy.width(), cy.height());
}

/* Fit the map again (the room around it changed: presenting began or ended, the caption grew or shrank), unless the
   visitor or a step's camera moved it away from its fit. */
export function refit(cy) {
  const f = fits.get(cy);
  if (f && isAtFit(cy)) {
    viewport(cy, f.bb, false, f.room);
  }
}

/* A caption of another height (a new step, presenting begun or ended) changes the room: fit again. */
let captionWatched = null;
export function watchCaption() {
  const el = document.getElementById("div-present");
  if (!el || el === captionWatched || !window.ResizeObserver) {
    return;
  }
  captionWatched = el;
  new ResizeObserver(() => {
    if (window.cy) {
      refit(window.cy);
    }
  }).observe(el);
}

/* The mouse wheel zooms gently, WHEEL_STEP a notch, around the pointer. Cytoscape's own wheel zoom is 2.5x a notch,
   and slowing it with its wheelSensitivity option makes Cytoscape warn in the console on every load; so the wheel is
   taken on its way to the map (capture phase, on the map's parent) and Cytoscape never sees it. Pinching on a touch
   screen stays Cytoscape's. */
export const WHEEL_STEP = 1.26;
export function installWheelZoom() {
  if (!isAppPage()) {
    return;
  }
  whenCy()
    .then((cy) => {
      const box = cy.container();
      if (!box || !box.parentNode) {
        return;
      }
      box.parentNode.addEventListener(
        "wheel",
        (event) => {
          if (!box.contains(event.target)) {
            return;
          }
          event.preventDefault();
          event.stopPropagation();
          if (!cy.zoomingEnabled() || !cy.userZoomingEnabled()) {
            return;
          }
          const pixels = event.deltaY * (event.deltaMode === 1 ? 33 : event.deltaMode === 2 ? 800 : 1);
          let level = cy.zoom() * Math.pow(WHEEL_STEP, -pixels / 100);
          const rect = box.getBoundingClientRect();
          level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), level));
          cy.zoom({ level: level, renderedPosition: { x: event.clientX - rect.left, y: event.clientY - rect.top } });
        },
        { capture: true, passive: false },
      );
    })
    .catch(() => {});
}
