/* citemap: clientside functions (namespace "citemap") and keyboard shortcuts. */

/* A node label: the title cut to LABEL_CHARS (dashboard/graph/view.py) with an ellipsis. */
var CITEMAP_LABEL_CHARS = 42;
function citemapLabel(title) {
  title = String(title || "").replace(/\s+/g, " ").trim();
  return title.length <= CITEMAP_LABEL_CHARS ? title : title.slice(0, CITEMAP_LABEL_CHARS - 1).trimEnd() + "…";
}
/* dashboard/library.py MAX_BYTES: a bigger file is refused before it is sent */
var CITEMAP_LIBRARY_MAX_BYTES = 2 * 1024 * 1024;
function citemapPrefix() {
  var config = JSON.parse(document.getElementById("_dash-config").textContent || "{}");
  return config.requests_pathname_prefix || "/";
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

/* Papers from which a view is big: fainter edges without arrows (dashboard/layout.py, edge.big), and Cytoscape hides
   edges and draws a texture while the map is panned or zoomed. */
var CITEMAP_BIG_VIEW = 1500;

/* The Cytoscape instance, once dash-cytoscape has made it. */
function citemapCy() {
  return new Promise(function (resolve, reject) {
    var waited = 0, timer = setInterval(function () {
      if (window.cy) { clearInterval(timer); resolve(window.cy); }
      else if ((waited += 25) > 30000) { clearInterval(timer); reject(new Error("the map did not start")); }
    }, 25);
    if (window.cy) { clearInterval(timer); resolve(window.cy); }
  });
}

/* Draw elements into Cytoscape: papers and citations no longer in view go, the others take their new data, classes
   and place (one batch, restyling only what changed), new papers come in at most two slices, then new citations
   in slices of CITEMAP_SLICE, one slice per frame, so that the page never blocks for long (Cytoscape styles and
   draws each element it adds); the first drawing to finish lets Plotly start (citemapPlotlyGate). Done here
   rather than through the component's
   ``elements`` prop: Dash and react-cytoscapejs copy and compare every element of the prop on each change, which
   stalled the page for seconds at 5,000 papers (bench/browser.py). Fits the map once its papers are in, when
   papers came, went or moved. A newer drawing stops an older one between slices. */
var CITEMAP_SLICE = 2000;
/* Under prefers-reduced-motion nothing moves by itself: glides, fades, animated zooms and pans take no time. */
function citemapReducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}
/* presenting: how long papers glide to their new places and new ones fade in (none under reduced motion) */
var CITEMAP_GLIDE_MS = citemapReducedMotion() ? 0 : 300;

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
  var r = cy.renderer(), big = papers > CITEMAP_BIG_VIEW;  /* options dash-cytoscape does not pass on */
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
  citemapPlotlyMayStart();
  return true;
}

/* Fit the papers of ``elements`` from their places and sizes (what citemapFit measures, without styling them). */
function citemapFitPlaces(cy, elements) {
  var x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity, zoom = null;
  elements.forEach(function (el) {
    if (!el.position || (el.classes || "").indexOf("lib-hidden") >= 0) { return; }
    var h = (el.data.size || 0) / 2, p = el.position;
    if (p.x - h < x1) { x1 = p.x - h; } if (p.x + h > x2) { x2 = p.x + h; }
    if (p.y - h < y1) { y1 = p.y - h; } if (p.y + h > y2) { y2 = p.y + h; }
  });
  if (x1 === Infinity) { return; }
  var axis = elements.filter(function (el) { return (el.classes || "").indexOf("axis") >= 0; });
  if (axis.length) {  /* a timeline: room for its tick labels (citemapRoom; centred on their place) */
    var chars = Math.max.apply(null, axis.map(function (el) { return el.data.label.length; }));
    citemapViewport(cy, {x1: x1, y1: y1, w: x2 - x1, h: y2 - y1}, false, {axis: chars});
    return;
  }
  citemapViewport(cy, {x1: x1, y1: y1, w: x2 - x1, h: y2 - y1}, false);
}

/* Fit the papers (not their labels, which follow the zoom; not the edges, which lie between papers: measuring either
   for thousands of elements took most of a second) with 40 px around. */
function citemapFit(cy, animate) {
  citemapViewport(cy, cy.nodes().not(".lib-hidden").boundingBox({includeLabels: false, includeOverlays: false}),
                  animate);
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
    try { return JSON.parse(text).query === query ? text : null; } catch (e) { return null; }
  });
}
(function () {
  if (!document.getElementById("_dash-config")) { return; }  /* not the app's page */
  citemapFirst = fetch(citemapPrefix() + "graph" + window.location.search, {headers: {Accept: "application/json"}})
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
  citemap: {
    /* After every change of the view, of the visitor's library or of its filter: GET /graph?<query> (cached
       by the browser) and draw it, marking the library's papers (an error keeps the old graph). */
    loadGraph: async function (query, library, libraryFilter, story) {
      var nu = window.dash_clientside.no_update;
      if (typeof query !== "string") { return [nu, nu, nu]; }
      var text = await citemapFirstView(query);
      if (text === null) {
        var response = await fetch(citemapPrefix() + "graph" + query, {headers: {Accept: "application/json"}});
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
    /* A library file chosen in the page -> POST /library -> {name, entries, matched, ids}; nothing is kept on
       the server. A file that cannot be used changes nothing and says why. */
    loadLibrary: async function (contents, filename) {
      var nu = window.dash_clientside.no_update;
      if (typeof contents !== "string" || contents.indexOf(",") < 0) { return [nu, nu]; }
      var b64 = contents.slice(contents.indexOf(",") + 1);
      if (b64.length * 3 / 4 > CITEMAP_LIBRARY_MAX_BYTES) {
        return [nu, (filename || "the file") + " is too big: a library file may have at most " +
                CITEMAP_LIBRARY_MAX_BYTES.toLocaleString("en") + " bytes. Nothing was changed."];
      }
      var bin = atob(b64), bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
      var response = await fetch(citemapPrefix() + "library?name=" + encodeURIComponent(filename || "library"),
                                 {method: "POST", body: bytes, headers: {"Content-Type": "application/octet-stream"}});
      var answer = null;
      try { answer = await response.json(); } catch (e) { answer = null; }
      if (!response.ok || !answer || !Array.isArray(answer.ids)) {
        var why = answer && answer.error ? answer.error : "HTTP " + response.status;
        return [nu, "Could not read the library: " + why + ". Nothing was changed."];
      }
      return [answer, ""];
    },
    libraryStatus: function (library, error) {
      var text = "";
      if (library && Array.isArray(library.ids)) {
        text = library.name + ": " + library.matched.toLocaleString("en") + " of " +
          library.entries.toLocaleString("en") + " entries are papers of this dataset.";
      }
      return [error ? [error, text].filter(Boolean).join(" ") : text, error ? "library-status error" : "library-status",
              {display: library && Array.isArray(library.ids) ? "flex" : "none"}];
    },
    forgetLibrary: function (n) {
      return n ? [null, "all"] : [window.dash_clientside.no_update, window.dash_clientside.no_update];
    },
    /* The graph payload (dashboard/graph/view.py) -> Cytoscape elements, the query it draws, and the library
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
      mark(p.expanded, 1); mark(p.truncated, 8); mark(p.top, 4); mark(p.seeds, 4 | 16); mark(p.expanded, 4);
      var sel = p.selected, tail = p.layout === "timeline" ? " tl" : "";
      var xy = citemapKeepPlaces(p, nodes, before);
      for (i = 0; i < nodes.length; i++) {
        var n = nodes[i], f = flags[i], role = ROLE[p.role[i]];
        if (n.id === sel) { f |= 2 | 4; }
        var mine = lib !== null && lib.has(n.id);
        if (mine) { inLib++; }
        var hide = lib !== null && role !== "seed" && n.id !== sel &&
          ((libraryFilter === "in" && !mine) || (libraryFilter === "out" && mine));
        var classes = "paper " + role + (f & 1 ? " expanded" : "") + (f & 2 ? " selected" : "") +
          (f & 4 ? " labelled" : "") + (f & 8 ? " truncated" : "") + (mine ? " lib" : "") +
          (hide ? " lib-hidden" : "") + (before !== null && !before.has(n.id) ? " new" : "") + tail;
        now.add(n.id);
        var size = Math.round((14 + 5.5 * Math.log10(1 + Math.max(n.in_cited, 0))) * 10) / 10;  /* in-dataset count */
        if (f & 16) { size = Math.max(size, 42); }
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
                  classes: "axis", selectable: false, grabbable: false});
      }
      var src = p.edges.source, dst = p.edges.target, big = nodes.length > CITEMAP_BIG_VIEW ? " big" : "";
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
    },
    /* "Add this view as a step": the click's number and the camera (null at the fit: the step fits its map too). */
    storyCamera: function (n) {
      if (!n) { return window.dash_clientside.no_update; }
      return {n: n, camera: citemapCameraNow(window.cy)};
    },
    /* A step's title or caption typed in its box: into the draft here, at once (no server round trip that would
       draw the boxes again), and noted as what the list shows (store-story-shown: the list is not drawn again). */
    storyText: function (titles, captions, draft) {
      var nu = window.dash_clientside.no_update, ctx = window.dash_clientside.callback_context || {};
      if (!draft || !Array.isArray(draft.steps)) { return [nu, nu]; }
      var steps = draft.steps.slice(), changed = false;
      (ctx.inputs_list || []).forEach(function (boxes, k) {
        var field = k === 0 ? "title" : "caption";
        (boxes || []).forEach(function (box) {
          var i = box.id && box.id.index, s = steps[i];
          if (!s || typeof box.value !== "string" || (s[field] || "") === box.value) { return; }
          steps[i] = Object.assign({}, s);
          steps[i][field] = box.value;
          changed = true;
        });
      });
      if (!changed) { return [nu, nu]; }
      var next = Object.assign({}, draft, {steps: steps});
      return [next, next];
    },
    /* Present the story written in this page (or loaded from a file): from its first step. */
    presentDraft: function (n, draft) {
      var nu = window.dash_clientside.no_update;
      if (!n || !draft || !Array.isArray(draft.steps) || !draft.steps.length) { return [nu, nu]; }
      return [Object.assign({source: "file", name: "", step: 1}, draft), draft.steps[0].view];
    },
    /* Presenting (a story in store-story): the page's frame (class "presenting": the map takes the window), the
       step's title, its caption (Markdown, rendered by dcc.Markdown: no HTML) and its number. */
    presentOverlay: function (story, query) {
      var step = citemapStoryStep(story, query);
      window.__citemapStory = step ? {story: story, index: step.index} : null;
      var was = document.documentElement.classList.contains("presenting");
      document.documentElement.classList.toggle("presenting", !!step);
      citemapWatchCaption();
      if (window.cy && was !== !!step) {
        citemapProjectorTheme(window.cy, !!step);
        /* the ticks' size changed, and so the room they need: fit again once Dash has drawn the frame */
        requestAnimationFrame(function () { if (window.cy) { citemapRefit(window.cy); } });
      }
      if (window.citemapLabels && window.cy) { window.citemapLabels.apply(window.cy); }
      if (!step) { return ["app", {display: "none"}, "", "", ""]; }
      return ["app presenting", {display: "flex"}, step.step.title, step.step.caption || "",
              (step.index + 1) + " / " + story.steps.length];
    },
    hoverCard: function (data, edge, tapped) {
      var trig = (window.dash_clientside.callback_context || {}).triggered || [];
      var prop = trig.length ? trig[0].prop_id : "";
      if (prop.slice(-8) === "EdgeData") {
        var e = prop === "graph-citations.tapEdgeData" ? tapped : edge;
        return e && e.why ? e.why + "\n" + (e.ends || "") : "";
      }
      if (!data || !data.title) { return ""; }
      var year = data.year === null || data.year === undefined ? "?" : data.year;
      var areas = (data.areas || []).join(", ");
      var authors = (data.authors || []).join(", ");
      var counts = Number(data.in_cited || 0).toLocaleString("en") + " citing in dataset" +
        (data.cited_by === null || data.cited_by === undefined ? "" :
          " · " + Number(data.cited_by).toLocaleString("en") + " per source");
      return data.title + (authors ? "\n" + authors : "") + "\n" + year + " · " + counts + " · " + areas +
        (data.lib ? "\nin your library" : "");
    }
  }
});

/* On a projector faint lines vanish: while presenting, citations are darker and every paper has a dark outline. */
function citemapProjectorTheme(cy, on) {
  if (on) {
    cy.__citemapBaseStyle = cy.__citemapBaseStyle || cy.style().json();
    cy.style().selector("edge").style({"line-color": "#6b7280", "target-arrow-color": "#6b7280", "opacity": 0.85})
      .selector("node.paper").style({"border-color": "#1d2430", "border-width": 1.5}).update();
  } else if (cy.__citemapBaseStyle) {
    cy.style().fromJson(cy.__citemapBaseStyle).update();
  }
}

/* The step of a story shown now ({step, index}), or null: a dataset's story by the link (``step=N``), a file's by
   the step the page moved to. */
function citemapStoryStep(story, query) {
  if (!story || !Array.isArray(story.steps) || !story.steps.length) { return null; }
  var n = story.step || 1;
  if (story.source === "dataset") {
    if (typeof query !== "string" || query.indexOf("story=" + story.name) < 0) { return null; }
    var m = /[?&]step=(\d+)/.exec(query);
    n = m ? parseInt(m[1], 10) : 1;
  }
  var index = Math.min(Math.max(n, 1), story.steps.length) - 1;
  return {step: story.steps[index], index: index};
}

/* Presenting: the next step's map is asked for while this one is shown. /graph answers are public for an hour, so the
   browser's cache keeps it and Right draws the next step without waiting for the server (a presenter's slides are
   ready before they are shown). Nothing is drawn here; a failure changes nothing. */
function citemapPrefetchNext(story, query) {
  var cur = citemapStoryStep(story, query);
  if (!cur || cur.index + 1 >= story.steps.length) { return; }
  var next = cur.index + 2, q;  /* step numbers count from 1 */
  if (story.source === "dataset") {
    q = /[?&]step=\d+/.test(query) ? query.replace(/([?&]step=)\d+/, "$1" + next) : query + "&step=" + next;
  } else {
    q = story.steps[cur.index + 1].view;
  }
  setTimeout(function () {  /* once presenting has been set up (another callback of the same change) */
    if (!document.documentElement.classList.contains("presenting") || typeof q !== "string") { return; }
    fetch(citemapPrefix() + "graph" + q, {headers: {Accept: "application/json"}}).catch(function () {});
  }, 150);
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

/* The map's camera as a story step writes it (dashboard/stories.py: zoom, and the model point at the centre), or
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
   {axis: n} for a timeline whose longest tick label has n characters (the ticks lie left of and under the papers,
   their labels centred there, at citemapTickPx). While presenting, the caption over the bottom of the map is added
   under it: no paper, no tick sits behind the caption. */
function citemapRoom(cy, spec) {
  spec = spec || {};
  var room = {left: spec.left || 40, right: spec.right || 40, top: spec.top || 40, bottom: spec.bottom || 40};
  if (spec.axis) {
    var s = citemapTickPx() / 15;  /* the room below was measured for 15 px ticks */
    room.left = 40 + 5 * spec.axis * s;
    room.bottom = 56 * s;
  }
  room.bottom += citemapCaptionCover(cy);
  return room;
}
/* A timeline's tick labels, px on screen: 15, a projector's size while presenting (>= 18 at 1920x1080). */
function citemapTickPx() {
  var presenting = document.documentElement.classList.contains("presenting");
  return presenting && window.citemapLabels ? window.citemapLabels.screenPx() : 15;
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

/* Presenting: Right, Space, PageDown (what a clicker sends) next; Left, PageUp back; Home, End; Esc leaves. */
function citemapGoToStep(index) {
  var cur = window.__citemapStory, set = window.dash_clientside && window.dash_clientside.set_props;
  if (!cur || !set) { return; }
  var story = cur.story, n = story.steps.length;
  index = Math.min(Math.max(index, 0), n - 1);
  if (index === cur.index) { return; }
  if (story.source === "dataset") {
    set("url", {search: "?story=" + encodeURIComponent(story.name) + (index ? "&step=" + (index + 1) : "")});
  } else {
    set("store-story", {data: Object.assign({}, story, {step: index + 1})});
    set("url", {search: story.steps[index].view});
  }
}
function citemapLeaveStory() {
  var cur = window.__citemapStory, set = window.dash_clientside && window.dash_clientside.set_props;
  if (!cur || !set) { return; }
  if (cur.story.source !== "dataset") { set("store-story", {data: null}); }
  else { set("store-escape", {data: Date.now()}); }  /* the state callback leaves the story at its step's view */
  if (document.fullscreenElement && document.exitFullscreen) { document.exitFullscreen().catch(function () {}); }
}
document.addEventListener("keydown", function (event) {
  var cur = window.__citemapStory;
  if (!cur || event.altKey || event.ctrlKey || event.metaKey) { return; }
  var t = event.target, typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
  if (typing) { return; }
  var k = event.key, i = cur.index;
  var to = {ArrowRight: i + 1, " ": i + 1, PageDown: i + 1, ArrowLeft: i - 1, PageUp: i - 1, Home: 0,
            End: cur.story.steps.length - 1}[k];
  if (to !== undefined) { event.preventDefault(); citemapGoToStep(to); return; }
  if (k === "Escape") { event.preventDefault(); event.stopImmediatePropagation(); citemapLeaveStory(); }
}, true);
document.addEventListener("click", function (event) {
  var b = event.target && event.target.closest && event.target.closest(".present-button");
  if (!b || !window.__citemapStory) { return; }
  var i = window.__citemapStory.index;
  if (b.id === "button-present-next") { citemapGoToStep(i + 1); }
  if (b.id === "button-present-prev") { citemapGoToStep(i - 1); }
  if (b.id === "button-present-exit") { citemapLeaveStory(); }
  if (b.id === "button-present-zip") { citemapExportStory("zip"); }
  if (b.id === "button-present-pdf") { citemapExportStory("pdf"); }
  if (b.id === "button-present-full" && document.documentElement.requestFullscreen) {
    document.documentElement.requestFullscreen().catch(function () {});  /* refused: the page fills the window */
  }
});

/* Esc closes an open menu (Export, "?", the areas) and gives the focus back to its button; else it closes the search suggestions
   and clears the selection. */
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") { return; }
  var menus = document.querySelectorAll("details.export[open], details.help[open], details.checkbox-menu[open]");
  if (menus.length) {
    menus.forEach(function (d) {
      var inside = d.contains(document.activeElement);
      d.removeAttribute("open");
      if (inside) { d.querySelector("summary").focus(); }
    });
    return;
  }
  var results = document.getElementById("div-search-results");
  if (results) { results.classList.add("closed"); }
  if (window.dash_clientside && window.dash_clientside.set_props) {
    window.dash_clientside.set_props("store-escape", {data: Date.now()});
  }
});

document.addEventListener("click", function (event) {
  var item = event.target && event.target.closest && event.target.closest(".export-menu button");
  if (item) { item.closest("details").removeAttribute("open"); }
  if (item && (item.id === "button-export-png" || item.id === "button-export-svg") && window.cy) {
    citemapExportImage(window.cy, item.id.slice(-3));
  }
});

/* An image of the map as it is on screen (same zoom, same labels), with a title line (dataset, seeds, filters,
   layout, size: GET /image-title, dashboard/graph/naming.py) above it and a legend (colours in view, shapes) below. PNG at twice the
   screen's pixels; SVG as vectors (Cytoscape's own SVG inside). */
var CITEMAP_EXPORT = {font: "Helvetica, Arial, sans-serif", ink: "#1d2430"};
function citemapLegendItems(cy, meta) {
  var items = [{label: "seed", shape: "star"}, {label: "builds on (reference)", shape: "square"},
               {label: "built on by (citer)", shape: "circle"}];
  var pal = meta.palette || {};
  if (cy.nodes(".paper.similar").nonempty()) { items.push({label: "similar", shape: "diamond"}); }
  if (cy.nodes(".paper.onpath").nonempty()) { items.push({label: "on a path", shape: "hexagon"}); }
  if (meta.color === "cluster" && pal.cluster) {
    (pal.cluster_names || []).forEach(function (name, k) { items.push({label: name, color: pal.cluster[k]}); });
  } else if (meta.color === "year" && pal.year && pal.year.length) {
    var n = pal.year.length, step = Math.max(1, Math.ceil(n / 6));
    for (var k = 0; k < n; k += step) { items.push({label: String(pal.year0 + k), color: pal.year[k]}); }
    if ((n - 1) % step) { items.push({label: String(pal.year0 + n - 1), color: pal.year[n - 1]}); }
  } else {
    var seen = new Map();
    cy.nodes(".paper").not(".lib-hidden").forEach(function (node) {
      var area = (node.data("areas") || [])[0];
      if (area !== undefined && !seen.has(area)) { seen.set(area, node.data("color")); }
    });
    var named = Object.keys(pal.area || {}).filter(function (a) { return seen.has(a); }).slice(0, 10);
    named.forEach(function (a) { items.push({label: a, color: seen.get(a)}); });
    if (seen.size > named.length) { items.push({label: "other areas", color: pal.unknown || "#c0c0c0"}); }
  }
  return items;
}
function citemapTitleLines(ctx, title, width) {  /* the title's " · " parts on as few lines as fit width, 13 px */
  ctx.font = "bold 13px " + CITEMAP_EXPORT.font;
  var lines = [], line = "";
  String(title).split(" · ").forEach(function (part) {
    var next = line ? line + " · " + part : part;
    if (line && ctx.measureText(next).width > width) { lines.push(line); line = part; } else { line = next; }
    while (ctx.measureText(line).width > width && line.indexOf(" ") > 0) {  /* a long part: cut between words */
      var words = line.split(" "), head = words.shift();
      while (words.length && ctx.measureText(head + " " + words[0]).width <= width) { head += " " + words.shift(); }
      lines.push(head);
      line = words.join(" ");
    }
  });
  if (line) { lines.push(line); }
  return lines;
}
function citemapLegendLayout(ctx, items, x0, width) {  /* [{item, x, row}] left to right, wrapped at width */
  var x = x0, row = 0, out = [];
  ctx.font = "12px " + CITEMAP_EXPORT.font;
  items.forEach(function (it) {
    var w = 18 + ctx.measureText(it.label).width + 16;
    if (x > x0 && x + w > x0 + width) { x = x0; row += 1; }
    out.push({item: it, x: x, row: row});
    x += w;
  });
  return out;
}
/* A legend key's outline as points around (x, y): the map's star, diamond (similar) and hexagon (on a path);
   null for the shapes drawn as a square or a circle. */
function citemapPolygon(shape, x, y) {
  if (shape === "star") { return citemapStar(x, y, 7); }
  var sides = {diamond: 4, hexagon: 6}[shape];
  if (!sides) { return null; }
  var out = [];
  for (var k = 0; k < sides; k++) {
    var a = (sides === 4 ? -Math.PI / 2 : 0) + 2 * Math.PI * k / sides;
    out.push([x + 7 * Math.cos(a), y + 7 * Math.sin(a)]);
  }
  return out;
}
function citemapStar(x, y, r) {
  var pts = [];
  for (var k = 0; k < 10; k++) {
    var a = -Math.PI / 2 + k * Math.PI / 5, rr = k % 2 ? r * 0.45 : r;
    pts.push([x + rr * Math.cos(a), y + rr * Math.sin(a)]);
  }
  return pts;
}
async function citemapExportImage(cy, kind) {
  var meta = Object.assign({}, window.__citemapMeta || {});
  try {  /* the title line and file name: GET /image-title?<view> (dashboard/graph/naming.py) */
    var named = await fetch(citemapPrefix() + "image-title" + (meta.query || ""));
    if (named.ok) { Object.assign(meta, await named.json()); }
  } catch (e) { /* the image without its title is still the image */ }
  var image = await citemapImage(cy, kind, meta);
  citemapSave(image.blob, (meta.file || "citemap-graph") + "." + kind);
}
function citemapSave(blob, name) {
  var a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
/* The map as it is on screen with ``meta.title`` above it (" · " parts on lines) and its legend below, as a PNG
   (twice the screen's pixels) or SVG blob: {blob, width, height} (CSS pixels). */
async function citemapImage(cy, kind, meta) {
  var E = CITEMAP_EXPORT;
  var W = Math.round(cy.width()), H = Math.round(cy.height());
  var measure = document.createElement("canvas").getContext("2d");
  var lines = citemapTitleLines(measure, meta.title || "citemap", W - 32);
  var legend = citemapLegendLayout(measure, citemapLegendItems(cy, meta), 16, W - 32);
  var head = 12 + 18 * lines.length, rows = legend.length ? legend[legend.length - 1].row + 1 : 0;
  var foot = 12 + 22 * rows, total = head + H + foot;
  var items = legend.map(function (p) { return {item: p.item, x: p.x, y: head + H + 20 + 22 * p.row}; });
  window.__citemapExportSize = [W, total];  /* what tests compare the file with */
  var blob;
  if (kind === "svg") {
    var esc = function (t) { return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); };
    var inner = cy.svg({full: false, scale: 1, bg: "#ffffff"}).replace(/^<\?xml[^>]*>\s*/, "");
    var parts = ['<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="' + W +
                 '" height="' + total + '" viewBox="0 0 ' + W + " " + total + '">',
                 '<rect width="' + W + '" height="' + total + '" fill="#ffffff"/>'];
    lines.forEach(function (line, k) {
      parts.push('<text class="citemap-title" x="16" y="' + (24 + 18 * k) + '" font-family="' + E.font +
                 '" font-size="13" font-weight="bold" fill="' + E.ink + '">' + esc(line) + "</text>");
    });
    parts.push('<g transform="translate(0,' + head + ')">' + inner + "</g>", '<g class="citemap-legend">');
    items.forEach(function (p) {
      var it = p.item, fill = it.color || "#9aa3af";
      var poly = citemapPolygon(it.shape, p.x + 6, p.y);
      if (poly) {
        parts.push('<polygon points="' + poly.map(function (q) { return q.join(","); }).join(" ") + '" fill="' +
                   fill + '"/>');
      } else if (it.shape === "square") {
        parts.push('<rect x="' + p.x + '" y="' + (p.y - 6) + '" width="12" height="12" rx="2" fill="' + fill + '"/>');
      } else {
        parts.push('<circle cx="' + (p.x + 6) + '" cy="' + p.y + '" r="6" fill="' + fill + '"/>');
      }
      parts.push('<text x="' + (p.x + 18) + '" y="' + (p.y + 4) + '" font-family="' + E.font +
                 '" font-size="12" fill="' + E.ink + '">' + esc(it.label) + "</text>");
    });
    parts.push("</g></svg>");
    blob = new Blob([parts.join("")], {type: "image/svg+xml"});
  } else {
    var map = await createImageBitmap(await cy.png({full: false, scale: 2, bg: "#ffffff", output: "blob-promise"}));
    var canvas = document.createElement("canvas");
    canvas.width = W * 2;
    canvas.height = total * 2;
    var ctx = canvas.getContext("2d");
    ctx.scale(2, 2);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, W, total);
    ctx.drawImage(map, 0, head, W, H);
    ctx.fillStyle = E.ink;
    ctx.font = "bold 13px " + E.font;
    lines.forEach(function (line, k) { ctx.fillText(line, 16, 24 + 18 * k); });
    ctx.font = "12px " + E.font;
    items.forEach(function (p) {
      var it = p.item;
      ctx.fillStyle = it.color || "#9aa3af";
      ctx.beginPath();
      var poly = citemapPolygon(it.shape, p.x + 6, p.y);
      if (poly) {
        poly.forEach(function (q, k) { if (k) { ctx.lineTo(q[0], q[1]); } else { ctx.moveTo(q[0], q[1]); } });
        ctx.closePath();
      } else if (it.shape === "square") { ctx.rect(p.x, p.y - 6, 12, 12); } else { ctx.arc(p.x + 6, p.y, 6, 0, 2 * Math.PI); }
      ctx.fill();
      ctx.fillStyle = E.ink;
      ctx.fillText(it.label, p.x + 18, p.y + 4);
    });
    blob = await new Promise(function (resolve) { canvas.toBlob(resolve, "image/png"); });
  }
  return {blob: blob, width: W, height: total};
}

/* A story exported: each step drawn in turn and taken as a PNG with the story's title, the step's number, title and
   caption above the map; all of them in one zip (JSZip) or one PDF handout (jsPDF, a page a step, the text also as
   text), both vendored in assets/vendor/ and loaded on first use. The page comes back to the step it was on. */
function citemapScript(src, global) {
  if (window[global]) { return Promise.resolve(window[global]); }
  return new Promise(function (resolve, reject) {
    var s = document.createElement("script");
    s.src = citemapPrefix() + "assets/vendor/" + src;
    s.onload = function () { resolve(window[global]); };
    s.onerror = function () { reject(new Error("could not load " + src)); };
    document.head.appendChild(s);
  });
}
function citemapPlain(markdown) {  /* a caption's words without Markdown's marks */
  return String(markdown || "").replace(/[*_`#>]+/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\s+/g, " ").trim();
}
async function citemapStepDrawn(before) {  /* a step's map drawn (the rendered query moved on, nothing gliding) */
  for (var t = 0; t < 200; t++) {
    await new Promise(function (r) { setTimeout(r, 100); });
    var g = document.getElementById("div-rendered-graph"), cy = window.cy;
    if (g && g.textContent !== before && cy && cy.nodes().filter(function (n) { return n.animated(); }).empty() &&
        !document.querySelector('[data-dash-is-loading="true"]')) { break; }
  }
  await new Promise(function (r) { setTimeout(r, 300); });  /* the labels of the new view */
}
async function citemapExportStory(kind) {
  var cur = window.__citemapStory, cy = window.cy;
  if (!cur || !cy || window.__citemapStoryExporting) { return; }
  window.__citemapStoryExporting = true;
  var story = cur.story, start = cur.index, n = story.steps.length, pages = [];
  try {
    var lib = kind === "zip" ? await citemapScript("jszip.min.js", "JSZip")
      : (await citemapScript("jspdf.umd.min.js", "jspdf")).jsPDF;
    for (var i = 0; i < n; i++) {
      if (i !== window.__citemapStory.index) {
        var before = (document.getElementById("div-rendered-graph") || {}).textContent;
        citemapGoToStep(i);
        await citemapStepDrawn(before);
      }
      var step = story.steps[i], caption = citemapPlain(step.caption);
      var title = story.title + " · " + (i + 1) + " / " + n + ": " + step.title + (caption ? " · " + caption : "");
      var meta = Object.assign({}, window.__citemapMeta || {}, {title: title});  /* the step's colours' legend */
      pages.push({image: await citemapImage(cy, "png", meta), step: step, caption: caption});
    }
    var stem = (story.name || story.title || "story").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    if (kind === "zip") {
      var zip = new lib();
      pages.forEach(function (p, k) { zip.file(stem + "-step-" + String(k + 1).padStart(2, "0") + ".png", p.image.blob); });
      citemapSave(await zip.generateAsync({type: "blob"}), stem + "-steps.zip");
    } else {
      var doc = new lib({orientation: "landscape", unit: "pt", format: "a4"});
      var PW = doc.internal.pageSize.getWidth(), PH = doc.internal.pageSize.getHeight();
      for (var k = 0; k < pages.length; k++) {
        if (k) { doc.addPage(); }
        var p = pages[k], img = p.image, textH = 54;
        var scale = Math.min((PW - 48) / img.width, (PH - 48 - textH) / img.height);
        var url = await new Promise(function (resolve) {
          var r = new FileReader();
          r.onload = function () { resolve(r.result); };
          r.readAsDataURL(img.blob);
        });
        doc.setFontSize(14);
        doc.text(story.title + " (" + (k + 1) + " / " + pages.length + "): " + p.step.title, 24, 30, {maxWidth: PW - 48});
        doc.setFontSize(10);
        if (p.caption) { doc.text(p.caption, 24, 48, {maxWidth: PW - 48}); }
        doc.addImage(url, "PNG", 24, 24 + textH, img.width * scale, img.height * scale);
      }
      citemapSave(doc.output("blob"), stem + "-handout.pdf");
    }
  } finally {
    window.__citemapStoryExporting = false;
    if (window.__citemapStory && window.__citemapStory.index !== start) { citemapGoToStep(start); }
  }
}

/* The search suggestions from the keyboard: Down from the search box to the first, Up and Down between them, Up from
   the first back to the box. */
document.addEventListener("keydown", function (event) {
  var t = event.target, k = event.key;
  if (!t || (k !== "ArrowDown" && k !== "ArrowUp") || event.altKey || event.ctrlKey || event.metaKey) { return; }
  var box = document.getElementById("input-search");
  var items = Array.prototype.slice.call(document.querySelectorAll("#div-search-results:not(.closed) .search-select"));
  if (!box || !items.length) { return; }
  var i = items.indexOf(t);
  if (t === box && k === "ArrowDown") { event.preventDefault(); items[0].focus(); return; }
  if (i < 0) { return; }
  event.preventDefault();
  if (k === "ArrowDown") { items[Math.min(i + 1, items.length - 1)].focus(); } else if (i === 0) { box.focus(); }
  else { items[i - 1].focus(); }
});

document.addEventListener("input", function (event) {
  if (event.target && event.target.id === "input-search") {
    var results = document.getElementById("div-search-results");
    if (results) { results.classList.remove("closed"); }
  }
});

/* Labels that never collide. After every change of the elements, zoom or pan, the papers in the viewport are
   ranked (selected, seeds, expanded, most cited in the dataset, then by citers in the dataset) and each one's
   label box is measured on screen (the font measured on a canvas, as Cytoscape does); a label is drawn only if
   its box overlaps no label drawn before it (a grid of accepted boxes, as Sigma.js does). Drawn labels have one
   size on screen whatever the zoom; the others are on the hover card. Node class "lbl" = label drawn. */
var CITEMAP_FONT = "Helvetica, Arial, sans-serif";  /* the stylesheet's font-family (dashboard/layout.py) */
window.citemapLabels = (function () {
  var canvas = document.createElement("canvas"), ctx = canvas.getContext("2d"), widths = new Map();
  function textWidth(text, bold) {  /* at 100 px; widths scale with the font size */
    var key = (bold ? "b" : "n") + text, w = widths.get(key);
    if (w === undefined) {
      ctx.font = (bold ? "bold " : "normal ") + "100px " + CITEMAP_FONT;
      w = ctx.measureText(text).width;
      widths.set(key, w);
    }
    return w;
  }
  function screenPx() {  /* presenting: 19 px, readable on a projector */
    if (document.documentElement.classList.contains("presenting")) { return 19; }
    return window.innerWidth >= 1700 ? 15 : 13;
  }
  function rank(n) {
    if (n.hasClass("selected") || (window.citemapMapKeys && window.citemapMapKeys.isFocused(n))) { return 0; }
    if (n.hasClass("seed")) { return 1; }
    if (n.hasClass("expanded")) { return 2; }
    if (n.hasClass("labelled")) { return 3; }
    return 4;
  }
  /* The label box of node n, in model coordinates, if its label were drawn at the given zoom on the given side of
     the node ("bottom", "top", "right", "left"; a timeline's labels go right, else left). */
  function box(n, z, side) {
    var bold = n.hasClass("seed") || n.hasClass("selected");
    var px = screenPx() + (bold ? 1 : 0), f = px / z, pad = 2 / z, slack = 1 / z;  /* ~1 px over Cytoscape's */
    var maxW = (n.hasClass("tl") ? 260 : 220) / z;
    var w = Math.min(textWidth(n.data("label") || "", bold) * f / 100, maxW);
    var h = f * 1.15, p = n.position(), nw = n.outerWidth() / 2, nh = n.outerHeight() / 2, x1, y1;
    if (side === "right" || side === "left") {
      x1 = side === "right" ? p.x + nw + 6 / z : p.x - nw - 6 / z - w;
      y1 = p.y - h / 2;
    } else {
      x1 = p.x - w / 2;
      y1 = side === "bottom" ? p.y + nh + 4 / z : p.y - nh - 4 / z - h;
    }
    return {x1: x1 - pad - slack, x2: x1 + w + pad + slack, y1: y1 - pad - slack, y2: y1 + h + pad + slack,
            f: f, w: maxW, bold: bold, side: side};
  }
  /* Where a label may go: under the node (right of it on a timeline); the seeds', the selected and the expanded
     papers' labels may also go above, right or left, rather than not at all. */
  function sides(n) {
    var first = n.hasClass("tl") ? ["right", "left"] : ["bottom"];
    return rank(n) <= 2 ? first.concat(n.hasClass("tl") ? ["bottom", "top"] : ["top", "right", "left"]) : first;
  }
  var SIDE_STYLE = {  /* Cytoscape label placement of each side (margins in px on screen, divided by the zoom) */
    bottom: {"text-valign": "bottom", "text-halign": "center", mx: 0, my: 4},
    top: {"text-valign": "top", "text-halign": "center", mx: 0, my: -4},
    right: {"text-valign": "center", "text-halign": "right", mx: 6, my: 0},
    left: {"text-valign": "center", "text-halign": "left", mx: -6, my: 0}
  };
  function overlaps(a, b) { return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2; }
  function choose(cy) {
    var z = cy.zoom() || 1, ext = cy.extent(), cell = 160 / z;
    var candidates = cy.nodes(".paper").filter(function (n) {
      if (n.hasClass("lib-hidden") || !n.data("label")) { return false; }
      var p = n.position();
      return p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2;
    }).toArray();
    candidates.sort(function (a, b) {
      return rank(a) - rank(b) || (b.data("in_cited") || 0) - (a.data("in_cited") || 0) ||
        (a.id() < b.id() ? -1 : 1);
    });
    var grid = new Map(), chosen = [];
    cy.nodes(".axis").forEach(function (n) {  /* a timeline's tick labels are there first: papers' labels avoid them */
      var f = Math.min(90, Math.max(14, citemapTickPx() / z)), w = textWidth(n.data("label") || "", true) * f / 100;
      var p = n.position();
      var b = {x1: p.x - w / 2 - 2 / z, x2: p.x + w / 2 + 2 / z, y1: p.y - f * 0.6, y2: p.y + f * 0.6};
      for (var gx = Math.floor(b.x1 / cell); gx <= Math.floor(b.x2 / cell); gx++) {
        for (var gy = Math.floor(b.y1 / cell); gy <= Math.floor(b.y2 / cell); gy++) {
          var k = gx + ":" + gy;
          if (!grid.has(k)) { grid.set(k, []); }
          grid.get(k).push(b);
        }
      }
    });
    candidates.forEach(function (n) {
      var options = sides(n);
      for (var o = 0; o < options.length; o++) {
        var b = box(n, z, options[o]), keys = [], free = true;
        if (b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2) { continue; }  /* cut by the edge */
        for (var gx = Math.floor(b.x1 / cell); gx <= Math.floor(b.x2 / cell) && free; gx++) {
          for (var gy = Math.floor(b.y1 / cell); gy <= Math.floor(b.y2 / cell) && free; gy++) {
            var k = gx + ":" + gy, list = grid.get(k);
            keys.push(k);
            if (list) { for (var i = 0; i < list.length; i++) { if (overlaps(b, list[i])) { free = false; break; } } }
          }
        }
        if (!free) { continue; }
        keys.forEach(function (k) { if (!grid.has(k)) { grid.set(k, []); } grid.get(k).push(b); });
        chosen.push([n, b]);
        return;
      }
    });
    return chosen;
  }
  function apply(cy) {
    var chosen = choose(cy), keep = new Set();
    cy.batch(function () {
      chosen.forEach(function (c) {
        var n = c[0], b = c[1], z = cy.zoom() || 1;
        keep.add(n.id());
        var side = SIDE_STYLE[b.side];
        n.style({"font-size": b.f, "text-max-width": b.w, "text-background-padding": 2 / z,
                 "text-valign": side["text-valign"], "text-halign": side["text-halign"],
                 "text-margin-y": side.my / z, "text-margin-x": side.mx / z});
        if (!n.hasClass("lbl")) { n.addClass("lbl"); }
      });
      cy.nodes(".lbl").forEach(function (n) { if (!keep.has(n.id())) { n.removeClass("lbl"); } });
      cy.nodes(".axis").style({"font-size": Math.min(90, Math.max(14, citemapTickPx() / (cy.zoom() || 1)))});
    });
    /* the estimate is a little generous; Cytoscape's own boxes have the last word, in the same order */
    var ext = cy.extent(), kept = [], opts = {includeLabels: true, includeNodes: false, includeOverlays: false};
    cy.batch(function () {
      chosen.forEach(function (c) {
        var bb = c[0].boundingBox(opts);
        var out = bb.x1 < ext.x1 || bb.x2 > ext.x2 || bb.y1 < ext.y1 || bb.y2 > ext.y2;
        if (out || kept.some(function (k) { return overlaps(k, bb); })) { c[0].removeClass("lbl"); } else { kept.push(bb); }
      });
    });
    api.runs += 1;  /* tests wait for the labels of a new zoom to be chosen */
  }
  var pending = null;
  function attach(cy) {
    if (cy.__citemapLabels) { return; }
    cy.__citemapLabels = true;
    var schedule = function () {
      if (pending) { clearTimeout(pending); }
      pending = setTimeout(function () { pending = null; window.requestAnimationFrame(function () { apply(cy); }); }, 60);
    };
    cy.on("zoom pan add remove layoutstop", schedule);
    cy.on("class", "node.lib-hidden", schedule);
    window.addEventListener("resize", schedule);
    schedule();
  }
  var timer = setInterval(function () { if (window.cy) { attach(window.cy); } }, 200);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
  var api = {choose: choose, apply: apply, screenPx: screenPx, runs: 0};
  return api;
})();

/* Controls done in the browser: zoom and fit buttons, dismissing a notice, a double-click on the citations-by-year
   chart clearing its year selection, and a paper chosen in a list brought into view once the map is drawn. */
(function () {
  var centreOn = null;
  function zoomBy(cy, factor) {
    var zoom = {level: cy.zoom() * factor, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}};
    if (citemapReducedMotion()) { cy.zoom(zoom); } else { cy.animate({zoom: zoom}, {duration: 150}); }
  }
  document.addEventListener("click", function (event) {
    var t = event.target, cy = window.cy;
    if (!t || !t.closest) { return; }
    if (t.closest(".notice-close")) { t.closest(".notice").classList.add("dismissed"); return; }
    if (cy && t.closest("#button-zoom-in")) { zoomBy(cy, 1.3); return; }
    if (cy && t.closest("#button-zoom-out")) { zoomBy(cy, 1 / 1.3); return; }
    if (cy && t.closest("#button-fit")) { citemapFit(cy, true); return; }
    var link = t.closest(".list .link, .seed-item .link, .search-select");
    if (link) {
      var id = link.id && link.id.charAt(0) === "{" ? JSON.parse(link.id).index : null;
      centreOn = id;
      if (cy && id && cy.getElementById(id).nonempty()) { centre(cy, id); }
    }
  });
  function centre(cy, id) {
    var n = cy.getElementById(id);
    if (n.empty() || !n.visible()) { return; }
    var ext = cy.extent(), p = n.position();
    var inside = p.x > ext.x1 + ext.w * 0.1 && p.x < ext.x2 - ext.w * 0.1 && p.y > ext.y1 + ext.h * 0.1 &&
      p.y < ext.y2 - ext.h * 0.1;
    if (inside) { return; }
    if (citemapReducedMotion()) { cy.center(n); } else { cy.animate({center: {eles: n}}, {duration: 250}); }
  }
  function attach(cy) {
    if (cy.__citemapControls) { return; }
    cy.__citemapControls = true;
    cy.on("add", function () {  /* the map of the new state is drawn: bring the chosen paper into view */
      if (!centreOn) { return; }
      var id = centreOn;
      setTimeout(function () { centreOn = null; centre(cy, id); }, 120);
    });
    cy.on("mouseout", "node.paper, edge.similar", function () {  /* the hover card goes with the pointer */
      if (window.dash_clientside && window.dash_clientside.set_props) {
        window.dash_clientside.set_props("div-hover", {children: ""});
      }
    });
  }
  function clearChartYears() {
    if (window.dash_clientside && window.dash_clientside.set_props) {
      window.dash_clientside.set_props("store-chart-clear", {data: Date.now()});
    }
  }
  var chartAttached = null;
  function attachChart() {  /* in select mode a double-click is a "deselect"; in zoom mode a "doubleclick" */
    var chart = document.querySelector("#graph-by-year .js-plotly-plot");
    if (chart && chart !== chartAttached && chart.on) {
      chartAttached = chart;
      chart.on("plotly_doubleclick", clearChartYears);
      chart.on("plotly_deselect", clearChartYears);
    }
  }
  /* The chart's listeners are added as soon as Plotly has drawn it (the 250 ms timer alone lost a double-click made
     just after the first paint: the selection was cleared but the years stayed). */
  new MutationObserver(function () { if (!chartAttached || !chartAttached.isConnected) { attachChart(); } })
    .observe(document.body, {childList: true, subtree: true});
  var timer = setInterval(function () {
    if (window.cy) { attach(window.cy); }
    attachChart();
  }, 250);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
})();

/* Narrow screens: the tabs under the map choose what covers the page (the filters, the map, the paper panel); the
   map itself stays laid out underneath, so that Cytoscape keeps its size and the view. */
function citemapTab(name) {
  var app = document.querySelector(".app");
  if (!app) { return; }
  app.setAttribute("data-tab", name);
  document.querySelectorAll(".tab[data-tab]").forEach(function (t) {
    t.setAttribute("aria-selected", t.getAttribute("data-tab") === name ? "true" : "false");
  });
}
document.addEventListener("click", function (event) {
  if (!event.target.closest) { return; }
  var tab = event.target.closest(".tab[data-tab]");
  if (tab) { citemapTab(tab.getAttribute("data-tab")); return; }
  /* a paper chosen in a list, on a narrow screen: show it on the map (where it is brought into view) */
  var tabs = document.querySelector(".tabs");
  if (tabs && tabs.offsetParent !== null && event.target.closest(".panel .link, .seeds .link")) { citemapTab("map"); }
});
