/* Drawing the map: the graph payload (GET /graph, dashboard/view/payload.py) into Cytoscape elements (clientside
   elementsFromPayload, labels cut, places kept), drawn in slices (citemapDraw); the first view fetched early; the
   clientside callback loadGraph. */

/* A node label: the title on one line (assets/citemap-09-labels.js wraps and cuts it to the room it has). */
function citemapLabel(title) {
  return String(title || "").replace(/\s+/g, " ").trim();
}
/* A paper's drawn size, model units, by its citers in the dataset; seeds at least SEED_SIZE (the same rule as
   node_radius in dashboard/graph/layouts.py, which keeps papers from overlapping). */
var CITEMAP_SEED_SIZE = 28;
function citemapNodeSize(inCited, seed) {
  var size = Math.round((9 + 4 * Math.log10(1 + Math.max(inCited, 0))) * 10) / 10;
  return seed ? Math.max(size, CITEMAP_SEED_SIZE) : size;
}
/* Where to draw the papers of a new force-layout view: a paper already on the map stays where it is drawn (also
   where the visitor dragged it); a new one goes where the server put it, moved as the paper it links to that was
   already on the map moved (the server's places differ from the drawn ones only after a change it does not place
   step by step: removing a seed, collapsing, more of one seed among several; see dashboard/graph/force_layout.py).
   Timeline and concentric places mean something (date, rank): they are the server's. Returns [xs, ys]. */
function citemapKeepPlaces(p, nodes, before) {
  var cy = window.cy, xs = p.x.slice(), ys = p.y.slice(), n = nodes.length, i;
  var same = p.layout === "force" && window.__citemapLayout === "force";
  window.__citemapLayout = p.layout;
  if (!same || before === null || !cy) { return [xs, ys]; }
  var dx = new Array(n), dy = new Array(n), kept = 0, sx = 0, sy = 0;
  for (i = 0; i < n; i++) {
    var node = before.has(nodes[i].id) ? cy.getElementById(nodes[i].id) : null;
    if (node && node.nonempty()) {
      var at = node.position();
      dx[i] = at.x - xs[i]; dy[i] = at.y - ys[i];
      xs[i] = at.x; ys[i] = at.y;
      kept++; sx += dx[i]; sy += dy[i];
    } else { dx[i] = null; }
  }
  if (!kept || (sx === 0 && sy === 0 && dx.every(function (d) { return d === null || d === 0; }))) { return [xs, ys]; }
  var shift = new Array(n), src = p.edges.source, dst = p.edges.target, k;
  for (k = 0; k < src.length; k++) {  /* a new paper moves with a kept paper it links to */
    var a = src[k], b = dst[k];
    if (dx[a] === null && dx[b] !== null && shift[a] === undefined) { shift[a] = b; }
    if (dx[b] === null && dx[a] !== null && shift[b] === undefined) { shift[b] = a; }
  }
  for (i = 0; i < n; i++) {
    if (dx[i] !== null) { continue; }
    var j = shift[i];
    xs[i] += j === undefined ? sx / kept : dx[j];
    ys[i] += j === undefined ? sy / kept : dy[j];
  }
  return [xs, ys];
}

/* A timeline drawn to the map's shape. The server lays it out 3.5 times as wide as high (dashboard/graph/layouts.py),
   a wide screen's shape; in a map about as high as wide, or higher (a laptop's side panels, a phone), it was a
   strip. Its heights (citers, log scale) are stretched so that the papers span about as much of the map's height as
   of its width: TIMELINE_FILL of the height the map's shape gives them, no less high than the server made them.
   Stretching only moves papers apart (their sizes stay), so no two come to overlap. The citer ticks stretch with
   them; the year ticks stay below the lowest paper. Returns the factor (1: as the server made it). */
var CITEMAP_TIMELINE_FILL = 0.8;
function citemapStretchTimeline(ys, axis, box) {
  var lo = Infinity, hi = -Infinity, i;
  for (i = 0; i < ys.length; i++) { if (ys[i] < lo) { lo = ys[i]; } if (ys[i] > hi) { hi = ys[i]; } }
  if (!box || !box.width || !box.height || !(hi > lo) || !box.modelWidth) { return 1; }
  var k = Math.min(8, Math.max(1, CITEMAP_TIMELINE_FILL * (box.height / box.width) * box.modelWidth / (hi - lo)));
  if (k === 1) { return 1; }
  for (i = 0; i < ys.length; i++) { ys[i] *= k; }
  axis.forEach(function (ax) {  /* the year row (ids "y...", and the unit "cunit") stays as far below the lowest paper */
    ax.y = ax.id.charAt(0) === "y" || ax.id === "cunit" ? ax.y - hi + hi * k : ax.y * k;
  });
  return k;
}

/* Papers from which a view is big: fainter edges without arrows (dashboard/web/layout.py, edge.big), and Cytoscape hides
   edges and draws a texture while the map is panned or zoomed. At that size a fitted map's arrowheads are a pixel or
   two, and drawing them was a good part of each frame. */
var CITEMAP_BIG_VIEW = 1000;

/* Draw elements into Cytoscape: papers and citations no longer in view go, the others take their new data, classes
   and place (one batch, restyling only what changed), new papers come in at most two slices, then new citations
   in slices of CITEMAP_SLICE, one slice per frame, so that the page never blocks for long (Cytoscape styles and
   draws each element it adds); the first drawing to finish lets Plotly start (citemapPlotlyGate). Done here
   rather than through the component's
   ``elements`` prop: Dash and react-cytoscapejs copy and compare every element of the prop on each change, which
   stalled the page for seconds at 5,000 papers (bench/browser.py). Fits the map once its papers are in, when
   papers came, went or moved. A newer drawing stops an older one between slices. */
var CITEMAP_SLICE = 2000;
/* presenting: how long papers glide to their new places and new ones fade in (none under reduced motion) */
var CITEMAP_GLIDE_MS = citemapReducedMotion() ? 0 : 300;

async function citemapDraw(cy, elements) {
  var mine = (window.__citemapDrawing = (window.__citemapDrawing || 0) + 1);
  var want = new Map(), moved = false, nodes = [], edges = [], papers = 0, i;
  var drawn = window.__citemapDrawn || (window.__citemapDrawn = new Map());  /* id -> its data and classes as drawn */
  /* presenting a story: papers that stay glide to their new places, new ones fade in (the audience follows) */
  var glide = document.documentElement.classList.contains("presenting") && drawn.size > 0 && CITEMAP_GLIDE_MS > 0;
  var glides = [];
  for (i = 0; i < elements.length; i++) { want.set(elements[i].data.id, elements[i]); }
  cy.batch(function () {
    var gone = cy.elements().filter(function (e) { return !want.has(e.id()); });
    if (gone.nonempty()) { moved = true; cy.remove(gone); gone.forEach(function (e) { drawn.delete(e.id()); }); }
    want.forEach(function (el, id) {
      var e = cy.getElementById(id), key = JSON.stringify(el.data) + "|" + (el.classes || "");
      var paper = el.data.source === undefined;
      if (paper) { papers++; }
      if (e.empty()) { (paper ? nodes : edges).push(el); drawn.set(id, key); return; }
      if (drawn.get(id) !== key) {  /* setting data or classes restyles the element: only when they changed */
        e.data(el.data);
        e.classes(el.classes || "");
        drawn.set(id, key);
      }
      if (el.position) {
        var p = e.position();
        if (p.x !== el.position.x || p.y !== el.position.y) {
          moved = true;
          if (glide) { glides.push([e, el.position]); } else { e.position(el.position); }
        }
      }
    });
  });
  glides.forEach(function (g) {
    g[0].animate({position: g[1]}, {duration: CITEMAP_GLIDE_MS, easing: "ease-in-out-cubic"});
  });
  var r = cy.renderer(), big = papers >= CITEMAP_BIG_VIEW;  /* options dash-cytoscape does not pass on */
  if (r) { r.hideEdgesOnViewport = big; r.textureOnViewport = big; }
  if (moved || nodes.length) { citemapFitPlaces(cy, elements); }  /* from the places: no element styled yet */
  var todo = nodes.concat(edges);  /* the papers in halves (each styled and drawn in ~0.25 s), then the citations */
  var half = Math.max(CITEMAP_SLICE, Math.ceil(nodes.length / 2));
  for (i = 0; i < todo.length; i = i < nodes.length ? Math.min(i + half, nodes.length) : i + CITEMAP_SLICE) {
    if (i > 0) {
      /* after the frame that draws the last slice, and a task later: input and other work run in between */
      await new Promise(function (resolve) { requestAnimationFrame(function () { setTimeout(resolve, 0); }); });
      if (mine !== window.__citemapDrawing) { return false; }  /* a newer view is being drawn */
    }
    var added = cy.add(todo.slice(i, i < nodes.length ? Math.min(i + half, nodes.length) : i + CITEMAP_SLICE));
    if (glide) { added.nodes().style("opacity", 0).animate({style: {opacity: 1}}, {duration: CITEMAP_GLIDE_MS}); }
  }
  document.documentElement.classList.add("map-drawn");  /* the page's picture of the map gives way to the map */
  citemapPlotlyMayStart();
  return true;
}

/* The first view is fetched as this script loads and drawn as soon as Cytoscape exists, while Dash is still
   starting (loading Plotly, running the first callbacks: about a second). The view Dash then asks for is the same
   one: its payload is taken from here, and the drawing finds nothing to change. */
var citemapFirst = null;
function citemapFirstView(query) {  /* the first payload if it is the view of ``query``, else null */
  if (!citemapFirst) { return Promise.resolve(null); }
  var first = citemapFirst;
  citemapFirst = null;  /* used once */
  return first.then(function (text) {
    if (!text) { return null; }
    try { return JSON.parse(text).query === query ? text : null; } catch { return null; }
  });
}
(function () {
  if (!document.getElementById("_dash-config")) { return; }  /* not the app's page */
  citemapFirst = citemapFetchGraph(window.location.search)
    .then(function (r) { return r.ok ? r.text() : null; }).catch(function () { return null; });
  citemapFirst.then(async function (text) {
    if (!text) { return; }
    var cy = await citemapCy();
    var elements = window.dash_clientside.citemap.elementsFromPayload(text, null, "all")[0];
    /* not in the task right after Dash's first render (its longest): a frame later */
    await new Promise(function (resolve) { requestAnimationFrame(function () { setTimeout(resolve, 0); }); });
    if (window.__citemapDrawing) { return; }  /* Dash's first drawing has begun */
    citemapDraw(cy, elements);
  });
})();

window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: Object.assign({}, (window.dash_clientside || {}).citemap, {
    /* After every change of the view, of the visitor's library or of its filter: GET /graph?<query> (cached
       by the browser) and draw it, marking the library's papers (an error keeps the old graph). */
    loadGraph: async function (query, library, libraryFilter, story) {
      var nu = window.dash_clientside.no_update;
      if (typeof query !== "string") { return [nu, nu, nu]; }
      var text = await citemapFirstView(query);
      if (text === null) {
        var response = await citemapFetchGraph(query);
        if (!response.ok) {
          citemapPlotlyMayStart();  /* no map to wait for */
          throw new Error("graph request failed: HTTP " + response.status);
        }
        text = await response.text();
      }
      var cy = await citemapCy();
      var got = window.dash_clientside.citemap.elementsFromPayload(text, library, libraryFilter);
      if (!(await citemapDraw(cy, got[0]))) { return [nu, nu, nu]; }  /* superseded: the newer call answers */
      citemapCamera(cy, citemapStoryStep(story, query));
      citemapPrefetchNext(story, query);
      return [got[1], got[1], got[2]];
    },
    /* The graph payload (dashboard/view/payload.py) -> Cytoscape elements, the query it draws, and the library
       count. ``library``: {ids: [...]} or null; ``libraryFilter``: "all" | "in" | "out" (seeds always show). */
    elementsFromPayload: function (text, library, libraryFilter) {
      if (!text) { return [[], "", ""]; }
      var p = JSON.parse(text), pal = p.palette, out = [], i, k;
      var lib = null, inLib = 0;
      if (library && Array.isArray(library.ids)) { lib = new Set(library.ids); }
      /* papers this action added to the map (not on the first draw, nor when only colours or marks change):
         class "new" (an amber ring) until the next action */
      var before = window.__citemapShown || null, now = new Set();
      var nodes = p.nodes.map(function (a) {  /* arrays of p.fields -> objects */
        var o = {};
        for (k = 0; k < p.fields.length; k++) { o[p.fields[k]] = a[k]; }
        return o;
      });
      var ROLE = {s: "seed", r: "reference", c: "citer", x: "selected", m: "similar", p: "onpath"};
      var flags = new Array(nodes.length);
      function mark(list, bit) { for (k = 0; k < list.length; k++) { flags[list[k]] |= bit; } }
      for (i = 0; i < nodes.length; i++) { flags[i] = 0; }
      mark(p.expanded, 1); mark(p.truncated, 8); mark(p.dimmed || [], 32); mark(p.top, 4); mark(p.seeds, 4 | 16); mark(p.expanded, 4);
      var sel = p.selected, tail = p.layout === "timeline" ? " tl" : "";
      var xy = citemapKeepPlaces(p, nodes, before);
      if (p.layout === "timeline") {
        var map = document.getElementById("graph-citations"), r = map ? map.getBoundingClientRect() : null;
        var xlo = Math.min.apply(null, xy[0].length ? xy[0] : [0]), xhi = Math.max.apply(null, xy[0].length ? xy[0] : [0]);
        citemapStretchTimeline(xy[1], p.axis, r && {width: r.width, height: r.height, modelWidth: xhi - xlo});
      }
      for (i = 0; i < nodes.length; i++) {
        var n = nodes[i], f = flags[i], role = ROLE[p.role[i]];
        if (n.id === sel) { f |= 2 | 4; }
        var mine = lib !== null && lib.has(n.id);
        if (mine) { inLib++; }
        var hide = lib !== null && role !== "seed" && n.id !== sel &&
          ((libraryFilter === "in" && !mine) || (libraryFilter === "out" && mine));
        var classes = "paper " + role + (f & 1 ? " expanded" : "") + (f & 2 ? " selected" : "") +
          (f & 4 ? " labelled" : "") + (f & 8 ? " truncated" : "") + (f & 32 ? " dimmed" : "") + (mine ? " lib" : "") +
          (hide ? " lib-hidden" : "") + (before !== null && !before.has(n.id) ? " new" : "") + tail;
        now.add(n.id);
        var size = citemapNodeSize(n.in_cited, (f & 16) !== 0);
        var color = p.color === "year"
          ? (n.year === null ? pal.unknown : (pal.year[n.year - pal.year0] || pal.unknown))
          : p.color === "cluster" ? ((pal.cluster || [])[p.cluster[i]] || pal.unknown)
          : (pal.area[n.areas[0]] || pal.unknown);
        out.push({
          data: {id: n.id, label: citemapLabel(n.title), title: n.title, year: n.year, areas: n.areas,
                 in_cited: n.in_cited, cited_by: n.cited_by, authors: n.authors, color: color, size: size,
                 role: role, lib: mine},
          position: {x: xy[0][i], y: xy[1][i]},
          classes: classes
        });
      }
      for (i = 0; i < p.axis.length; i++) {
        var ax = p.axis[i];
        out.push({data: {id: "axis-" + ax.id, label: ax.label}, position: {x: ax.x, y: ax.y},
                  classes: ax.id.charAt(0) === "c" ? "axis axis-c" : "axis", selectable: false, grabbable: false});
      }
      var src = p.edges.source, dst = p.edges.target, big = nodes.length >= CITEMAP_BIG_VIEW ? " big" : "";
      var kind = p.edges.kind || "citations", weight = p.edges.weight, why = p.edges.why;
      var strongest = weight && weight.length ? Math.max.apply(null, weight) || 1 : 1;
      for (i = 0; i < src.length; i++) {
        var s = nodes[src[i]].id, t = nodes[dst[i]].id;
        if (kind === "similar") {  /* a similarity link: no direction; its width and its reason from the server */
          out.push({data: {id: s + "~" + t, source: s, target: t, width: 1 + 7 * (weight ? weight[i] / strongest : 0.2),
                           why: why ? why[i] : "", ends: nodes[src[i]].title + " · " + nodes[dst[i]].title},
                    classes: "similar" + ((s === sel || t === sel) ? " touching" : "")});
          continue;
        }
        out.push({data: {id: s + ">" + t, source: s, target: t},
                  classes: "cites" + big + (kind === "path" ? " onpath" : "") +
                    ((s === sel || t === sel) ? " touching" : "")});
      }
      var count = lib === null ? "" : "in your library: " + inLib.toLocaleString("en") + " of " +
        nodes.length.toLocaleString("en") + " papers in view";
      window.__citemapShown = now;
      window.__citemapMeta = {query: p.query, color: p.color, palette: p.palette};  /* for exports */
      return [out, p.query, count];
    }
  })
});
