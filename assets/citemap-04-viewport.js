/* The viewport: fitting the map (room around it, a timeline's ticks, a story's caption), following resizes, a
   story step's camera. */

/* Fit the papers of ``elements`` from their places and sizes (what citemapFit measures, without styling them). */
function citemapFitPlaces(cy, elements) {
  var x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  elements.forEach(function (el) {
    if (!el.position || (el.classes || "").indexOf("lib-hidden") >= 0) { return; }
    var h = (el.data.size || 0) / 2, p = el.position;
    if (p.x - h < x1) { x1 = p.x - h; } if (p.x + h > x2) { x2 = p.x + h; }
    if (p.y - h < y1) { y1 = p.y - h; } if (p.y + h > y2) { y2 = p.y + h; }
  });
  if (x1 === Infinity) { return; }
  var axis = elements.filter(function (el) { return (el.classes || "").indexOf("axis") >= 0; });
  if (axis.length) {  /* a timeline: room for its tick labels (citemapRoom) */
    var widest = axis.filter(function (el) { return el.data.id.indexOf("axis-c") === 0; })
      .map(function (el) { return el.data.label; })
      .sort(function (a, b) { return b.length - a.length; })[0] || "";
    citemapViewport(cy, {x1: x1, y1: y1, w: x2 - x1, h: y2 - y1}, false, {axis: widest});
    return;
  }
  /* a few papers: room at the sides for the titles centred under the outermost ones */
  var few = elements.filter(function (el) { return el.position; }).length <= CITEMAP_FEW;
  citemapViewport(cy, {x1: x1, y1: y1, w: x2 - x1, h: y2 - y1}, false, few ? {left: 110, right: 110} : undefined);
}
var CITEMAP_FEW = 12;

/* Fit the papers (not their labels, which follow the zoom; not the edges, which lie between papers: measuring either
   for thousands of elements took most of a second) with the room of the view's first fit around. */
function citemapFit(cy, animate) {
  var f = cy.__citemapFitted;  /* the room the view was first fitted with (a timeline's ticks, a few papers' titles) */
  citemapViewport(cy, cy.nodes().not(".lib-hidden, .callout").boundingBox({includeLabels: false, includeOverlays: false}),
                  animate, f ? f.room : undefined);
}

/* Show the box bb (model coordinates) with room around it on screen (``spec``: see citemapRoom; kept, not the px it
   gave, so that a fit made again after a resize or a change of presenting measures the room again). */
function citemapViewport(cy, bb, animate, spec) {
  if (!bb.w && !bb.h) { return; }
  var room = citemapRoom(cy, spec);
  var w = cy.width() - room.left - room.right, h = cy.height() - room.top - room.bottom;
  var z = Math.min(Math.max(w, 40) / Math.max(bb.w, 1), Math.max(h, 40) / Math.max(bb.h, 1));
  z = Math.max(cy.minZoom(), Math.min(cy.maxZoom(), z));
  var view = {zoom: z, pan: {x: room.left + w / 2 - z * (bb.x1 + bb.w / 2), y: room.top + h / 2 - z * (bb.y1 + bb.h / 2)}};
  if (animate && !citemapReducedMotion()) { cy.animate(view, {duration: 200}); } else { cy.viewport(view); }
  cy.__citemapFitted = {zoom: z, x: view.pan.x, y: view.pan.y, bb: bb, room: spec};
  citemapOnResize(cy);
}

/* A new size of the map's box (the page still laying itself out, a window resized, a phone's tab shown): while the
   visitor has not moved the map since it was fitted, fit it again; else keep what was at the centre at the centre,
   at the same zoom. The only handler of Cytoscape's resize (dash-cytoscape's ``responsive`` mode, which rescaled
   the zoom from the viewport at the last frame drawn, undid a fit made in between). */
function citemapOnResize(cy) {
  if (cy.__citemapSize) { return; }
  cy.__citemapSize = {w: cy.width(), h: cy.height()};
  cy.on("resize", function () {
    var f = cy.__citemapFitted, pan = cy.pan(), was = cy.__citemapSize, w = cy.width(), h = cy.height();
    cy.__citemapSize = {w: w, h: h};
    if (f && Math.abs(cy.zoom() - f.zoom) < 1e-9 && Math.abs(pan.x - f.x) < 1e-6 && Math.abs(pan.y - f.y) < 1e-6) {
      citemapViewport(cy, f.bb, false, f.room);
    } else if (w !== was.w || h !== was.h) {
      cy.pan({x: pan.x + (w - was.w) / 2, y: pan.y + (h - was.h) / 2});
    }
  });
}

/* A step's camera: a zoom centred on a model point, after the map is drawn (else the map is fitted as always). */
function citemapCamera(cy, step) {
  if (!step) { return; }
  var cam = step.step.camera;
  if (!cam || cam.fit || typeof cam.zoom !== "number") {
    /* a step at its fit after one with a camera on the same view (two steps may differ by their camera only): the
       drawing changed nothing, so it fitted nothing */
    var last = cy.__citemapFitted || cy.__citemapLastFit;
    if (last && !citemapAtFit(cy)) { citemapViewport(cy, last.bb, false, last.room); }
    return;
  }
  var z = Math.max(cy.minZoom(), Math.min(cy.maxZoom(), cam.zoom));
  if (cy.__citemapFitted) { cy.__citemapLastFit = cy.__citemapFitted; }  /* the fit of this view, for the above */
  cy.viewport({zoom: z, pan: {x: cy.width() / 2 - z * cam.x, y: cy.height() / 2 - z * cam.y}});
  cy.__citemapFitted = null;  /* placed on purpose: a resize keeps it */
}

/* The map's camera as a story step writes it (dashboard/view/stories.py: zoom, and the model point at the centre), or
   null while the map is at its fit (citemapViewport), the default of a step. */
function citemapCameraNow(cy) {
  if (!cy || citemapAtFit(cy)) { return null; }
  var z = cy.zoom(), pan = cy.pan();
  var round = function (v, k) { return Math.round(v * k) / k; };
  return {zoom: round(Math.max(0.05, Math.min(4, z)), 1e4), x: round((cy.width() / 2 - pan.x) / z, 100),
          y: round((cy.height() / 2 - pan.y) / z, 100)};
}
function citemapAtFit(cy) {
  var f = cy.__citemapFitted, pan = cy.pan();
  return !!f && Math.abs(cy.zoom() - f.zoom) < 1e-6 * f.zoom && Math.abs(pan.x - f.x) < 0.5 &&
    Math.abs(pan.y - f.y) < 0.5;
}
/* Fit the map again (the room around it changed: presenting began or ended, the caption grew or shrank), unless the
   visitor or a step's camera moved it away from its fit. */
function citemapRefit(cy) {
  var f = cy.__citemapFitted;
  if (f && citemapAtFit(cy)) { citemapViewport(cy, f.bb, false, f.room); }
}

/* The room around a fitted map, px on screen: ``spec`` {left, right, top, bottom} (40 each unless given), or
   {axis: text} for a timeline whose widest citer tick label is ``text`` (those labels end at their place, left of
   the papers; the year ticks are centred under the papers; all at citemapTickPx). While presenting, the caption
   over the bottom of the map is added under it: no paper, no tick sits behind the caption. */
function citemapRoom(cy, spec) {
  spec = spec || {};
  var room = {left: spec.left || 40, right: spec.right || 40, top: spec.top || 40, bottom: spec.bottom || 40};
  if (spec.axis !== undefined) {
    var px = citemapTickPx(), labels = window.citemapLabels;
    var wide = labels ? labels.textWidth(String(spec.axis), true) * px / 100 : String(spec.axis).length * px * 0.62;
    room.left = 10 + wide;  /* the label, its margin, a little air */
    room.right = 16;
    room.top = 24;
    room.bottom = 56 * px / 15;  /* measured for 15 px ticks */
  }
  room.bottom += citemapCaptionCover(cy);
  return room;
}
/* A timeline's tick labels, px on screen: 15 (13 on a phone), a projector's size while presenting (>= 18 at
   1920x1080). */
function citemapTickPx() {
  var presenting = document.documentElement.classList.contains("presenting");
  if (presenting && window.citemapLabels) { return window.citemapLabels.screenPx(); }
  return window.innerWidth < 600 ? 13 : 15;  /* a phone: 13 px, room for the papers */
}
/* How much of the map's box the caption and controls cover from its bottom edge up, px (0 unless presenting). */
function citemapCaptionCover(cy) {
  var el = document.getElementById("div-present"), box = cy.container && cy.container();
  if (!el || !box || !document.documentElement.classList.contains("presenting")) { return 0; }
  var r = el.getBoundingClientRect(), c = box.getBoundingClientRect();
  return r.height > 0 ? Math.max(0, Math.min(c.height / 2, c.bottom - r.top)) : 0;
}
/* A caption of another height (a new step, presenting begun or ended) changes the room: fit again. */
var citemapCaptionWatched = null;
function citemapWatchCaption() {
  var el = document.getElementById("div-present");
  if (!el || el === citemapCaptionWatched || !window.ResizeObserver) { return; }
  citemapCaptionWatched = el;
  new ResizeObserver(function () { if (window.cy) { citemapRefit(window.cy); } }).observe(el);
}

/* The mouse wheel zooms gently, CITEMAP_WHEEL_STEP a notch, around the pointer. Cytoscape's own wheel zoom is 2.5x a
   notch, and slowing it with its wheelSensitivity option makes Cytoscape warn in the console on every load; so the
   wheel is taken on its way to the map (capture phase, on the map's parent) and Cytoscape never sees it. Pinching on
   a touch screen stays Cytoscape's. */
var CITEMAP_WHEEL_STEP = 1.26;
(function () {
  if (!document.getElementById("_dash-config")) { return; }  /* not the app's page */
  citemapCy().then(function (cy) {
    var box = cy.container();
    if (!box || !box.parentNode) { return; }
    box.parentNode.addEventListener("wheel", function (event) {
      if (!box.contains(event.target)) { return; }
      event.preventDefault();
      event.stopPropagation();
      if (!cy.zoomingEnabled() || !cy.userZoomingEnabled()) { return; }
      var pixels = event.deltaY * (event.deltaMode === 1 ? 33 : event.deltaMode === 2 ? 800 : 1);
      var level = cy.zoom() * Math.pow(CITEMAP_WHEEL_STEP, -pixels / 100), rect = box.getBoundingClientRect();
      level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), level));
      cy.zoom({level: level, renderedPosition: {x: event.clientX - rect.left, y: event.clientY - rect.top}});
    }, {capture: true, passive: false});
  }).catch(function () {});
})();
