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

window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: {
    /* After every change of the view, of the visitor's library or of its filter: GET /graph?<query> (cached
       by the browser) and draw it, marking the library's papers (an error keeps the old graph). */
    loadGraph: async function (query, library, libraryFilter) {
      var nu = window.dash_clientside.no_update;
      if (typeof query !== "string") { return [nu, nu, nu]; }
      var response = await fetch(citemapPrefix() + "graph" + query, {headers: {Accept: "application/json"}});
      if (!response.ok) { throw new Error("graph request failed: HTTP " + response.status); }
      return window.dash_clientside.citemap.elementsFromPayload(await response.text(), library, libraryFilter);
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
      var ROLE = {s: "seed", r: "reference", c: "citer", x: "selected"};
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
      var src = p.edges.source, dst = p.edges.target;
      for (i = 0; i < src.length; i++) {
        var s = nodes[src[i]].id, t = nodes[dst[i]].id;
        out.push({data: {id: s + ">" + t, source: s, target: t},
                  classes: (s === sel || t === sel) ? "cites touching" : "cites"});
      }
      var count = lib === null ? "" : "in your library: " + inLib.toLocaleString("en") + " of " +
        nodes.length.toLocaleString("en") + " papers in view";
      window.__citemapShown = now;
      return [out, p.query, count];
    },
    hoverCard: function (data) {
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

document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") { return; }
  var results = document.getElementById("div-search-results");
  if (results) { results.classList.add("closed"); }
  if (window.dash_clientside && window.dash_clientside.set_props) {
    window.dash_clientside.set_props("store-escape", {data: Date.now()});
  }
});

document.addEventListener("click", function (event) {
  var item = event.target && event.target.closest && event.target.closest(".export-menu button");
  if (item) { item.closest("details").removeAttribute("open"); }
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
  function screenPx() { return window.innerWidth >= 1700 ? 15 : 13; }
  function rank(n) {
    if (n.hasClass("selected")) { return 0; }
    if (n.hasClass("seed")) { return 1; }
    if (n.hasClass("expanded")) { return 2; }
    if (n.hasClass("labelled")) { return 3; }
    return 4;
  }
  /* The label box of node n, in model coordinates, if its label were drawn at the given zoom. */
  function box(n, z) {
    var bold = n.hasClass("seed") || n.hasClass("selected");
    var px = screenPx() + (bold ? 1 : 0), f = px / z, pad = 2 / z, slack = 1 / z;  /* ~1 px over Cytoscape's */
    var maxW = (n.hasClass("tl") ? 260 : 220) / z;
    var w = Math.min(textWidth(n.data("label") || "", bold) * f / 100, maxW);
    var h = f * 1.15, p = n.position(), nw = n.outerWidth() / 2, nh = n.outerHeight() / 2;
    if (n.hasClass("tl")) {
      var left = p.x + nw + 6 / z;
      return {x1: left - pad - slack, x2: left + w + pad + slack, y1: p.y - h / 2 - pad - slack,
              y2: p.y + h / 2 + pad + slack, f: f, w: maxW, bold: bold};
    }
    var top = p.y + nh + 4 / z;
    return {x1: p.x - w / 2 - pad - slack, x2: p.x + w / 2 + pad + slack, y1: top - pad - slack,
            y2: top + h + pad + slack, f: f, w: maxW, bold: bold};
  }
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
    candidates.forEach(function (n) {
      var b = box(n, z), keys = [], free = true;
      if (b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2) { return; }  /* cut by the edge */
      for (var gx = Math.floor(b.x1 / cell); gx <= Math.floor(b.x2 / cell) && free; gx++) {
        for (var gy = Math.floor(b.y1 / cell); gy <= Math.floor(b.y2 / cell) && free; gy++) {
          var k = gx + ":" + gy, list = grid.get(k);
          keys.push(k);
          if (list) { for (var i = 0; i < list.length; i++) { if (overlaps(b, list[i])) { free = false; break; } } }
        }
      }
      if (!free) { return; }
      keys.forEach(function (k) { if (!grid.has(k)) { grid.set(k, []); } grid.get(k).push(b); });
      chosen.push([n, b]);
    });
    return chosen;
  }
  function apply(cy) {
    var chosen = choose(cy), keep = new Set();
    cy.batch(function () {
      chosen.forEach(function (c) {
        var n = c[0], b = c[1], z = cy.zoom() || 1;
        keep.add(n.id());
        n.style({"font-size": b.f, "text-max-width": b.w, "text-background-padding": 2 / z,
                 "text-margin-y": n.hasClass("tl") ? 0 : 4 / z, "text-margin-x": n.hasClass("tl") ? 6 / z : 0});
        if (!n.hasClass("lbl")) { n.addClass("lbl"); }
      });
      cy.nodes(".lbl").forEach(function (n) { if (!keep.has(n.id())) { n.removeClass("lbl"); } });
      cy.nodes(".axis").style({"font-size": Math.min(90, Math.max(14, 15 / (cy.zoom() || 1)))});
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
  var api = {choose: choose, apply: apply, runs: 0};
  return api;
})();

/* Controls done in the browser: zoom and fit buttons, dismissing a notice, a double-click on the citations-by-year
   chart clearing its year selection, and a paper chosen in a list brought into view once the map is drawn. */
(function () {
  var centreOn = null;
  function zoomBy(cy, factor) {
    cy.animate({zoom: {level: cy.zoom() * factor, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}}},
               {duration: 150});
  }
  document.addEventListener("click", function (event) {
    var t = event.target, cy = window.cy;
    if (!t || !t.closest) { return; }
    if (t.closest(".notice-close")) { t.closest(".notice").classList.add("dismissed"); return; }
    if (cy && t.closest("#button-zoom-in")) { zoomBy(cy, 1.3); return; }
    if (cy && t.closest("#button-zoom-out")) { zoomBy(cy, 1 / 1.3); return; }
    if (cy && t.closest("#button-fit")) { fit(cy); return; }
    var link = t.closest(".list .link, .seed-item .link, .search-select");
    if (link) {
      var id = link.id && link.id.charAt(0) === "{" ? JSON.parse(link.id).index : null;
      centreOn = id;
      if (cy && id && cy.getElementById(id).nonempty()) { centre(cy, id); }
    }
  });
  /* Fit the papers (not their labels, which follow the zoom) with 40 px around, as the first drawing does. */
  function fit(cy) {
    var bb = cy.elements(":visible").boundingBox({includeLabels: false, includeOverlays: false});
    if (!bb.w && !bb.h) { return; }
    var z = Math.min((cy.width() - 80) / Math.max(bb.w, 1), (cy.height() - 80) / Math.max(bb.h, 1));
    z = Math.max(cy.minZoom(), Math.min(cy.maxZoom(), z));
    cy.animate({zoom: z, pan: {x: cy.width() / 2 - z * (bb.x1 + bb.w / 2), y: cy.height() / 2 - z * (bb.y1 + bb.h / 2)}},
               {duration: 200});
  }
  function centre(cy, id) {
    var n = cy.getElementById(id);
    if (n.empty() || !n.visible()) { return; }
    var ext = cy.extent(), p = n.position();
    var inside = p.x > ext.x1 + ext.w * 0.1 && p.x < ext.x2 - ext.w * 0.1 && p.y > ext.y1 + ext.h * 0.1 &&
      p.y < ext.y2 - ext.h * 0.1;
    if (!inside) { cy.animate({center: {eles: n}}, {duration: 250}); }
  }
  function attach(cy) {
    if (cy.__citemapControls) { return; }
    cy.__citemapControls = true;
    cy.on("add", function () {  /* the map of the new state is drawn: bring the chosen paper into view */
      if (!centreOn) { return; }
      var id = centreOn;
      setTimeout(function () { centreOn = null; centre(cy, id); }, 120);
    });
  }
  var chartAttached = null;
  var timer = setInterval(function () {
    if (window.cy) { attach(window.cy); }
    var chart = document.querySelector("#graph-by-year .js-plotly-plot");
    if (chart && chart !== chartAttached && chart.on) {
      chartAttached = chart;
      var clear = function () {  /* in select mode a double-click is a "deselect"; in zoom mode a "doubleclick" */
        if (window.dash_clientside && window.dash_clientside.set_props) {
          window.dash_clientside.set_props("store-chart-clear", {data: Date.now()});
        }
      };
      chart.on("plotly_doubleclick", clear);
      chart.on("plotly_deselect", clear);
    }
  }, 250);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
})();
