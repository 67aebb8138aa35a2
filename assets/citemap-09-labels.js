/* The map's labels (window.citemapLabels). */

/* Titles that never collide and never cover a paper. After every change of the elements, of their classes (a
   paper selected, from wherever it was chosen; the library's filter), of the zoom or of the pan, the papers in the
   viewport are ranked (selected or focused, seeds and a path's ends, expanded, most cited in the dataset, then by
   citers in the dataset) and each one's title is wrapped to the forms it may take (two lines, three while
   presenting; the same narrower; one line; see forms). A title is drawn on the first of eight sides of its paper
   where its box overlaps no title placed before it, no other paper's body and not the zoom buttons (grids of
   boxes, window.citemapBoxes). The papers that matter are placed first, and set apart with a thin line to their
   paper where there is no room beside it (callout). Titles have one size on screen whatever the zoom; the whole
   title is on the hover card. Node class "lbl" = title drawn beside its paper, its text in data "wrapped"; node
   "callout" and edge "leader" = a title set apart. */
window.citemapLabels = (function () {
  var B = window.citemapBoxes, textWidth = B.textWidth, wrap = B.wrap, overlaps = B.overlaps, Grid = B.Grid;
  var callout = window.citemapCallouts.find, drawCallouts = window.citemapCallouts.draw;
  function presenting() { return document.documentElement.classList.contains("presenting"); }
  function screenPx() {  /* presenting: 19 px, readable on a projector */
    if (presenting()) { return 19; }
    return window.innerWidth >= 1700 ? 15 : 13;
  }
  function rank(n) {
    if (n.hasClass("selected") || (window.citemapMapKeys && window.citemapMapKeys.isFocused(n))) { return 0; }
    if (n.hasClass("seed")) { return 1; }
    if (n.hasClass("expanded")) { return 2; }
    if (n.hasClass("labelled")) { return 3; }
    return 4;
  }
  /* The forms a paper's title may take: as many lines as there is room for, the same narrower, one line, and for
     the papers that matter (selected, focused, seeds) a short line. */
  function forms(n) {
    var bold = n.hasClass("seed") || n.hasClass("selected");
    var px = screenPx() + (bold ? 1 : 0), maxW = px * (n.hasClass("tl") ? 17 : 15.5);
    var title = n.data("label") || "", lines = presenting() ? 3 : 2, out = [wrap(title, bold, px, maxW, lines)];
    if (out[0].lines > 1) {  /* narrower, then on one line */
      out.push(wrap(title, bold, px, maxW * 0.75, lines), wrap(title, bold, px, maxW, 1));
    }
    if (rank(n) <= 1) { out.push(wrap(title, bold, px, maxW / 2, 1)); }
    return out.map(function (f) { return {text: f.text, w: f.w, lines: f.lines, px: px, bold: bold}; });
  }
  /* The label box of a paper (g: its place and half size, see geometry), in model coordinates, if its label (form
     f) were drawn at the given zoom on the given side of it ("bottom", "top", "right", "left", "bottom-right", ...). */
  function box(g, z, side, f) {
    /* Cytoscape's box of a label (measured): the text's box and about 3 px more each side, a text-margin-y
       2 px nearer the node; this estimate is a little over it each way */
    var fz = f.px / z, dx = 5 / z, dy = 4 / z;
    var w = f.w / z, h = fz * (0.15 + f.lines), p = g, nw = g.r, nh = g.r;
    var st = SIDE_STYLE[side], x1, y1, my = st.my - Math.sign(st.my) * 2;
    x1 = st["text-halign"] === "center" ? p.x - w / 2 : st["text-halign"] === "right" ? p.x + nw + st.mx / z
      : p.x - nw + st.mx / z - w;
    y1 = st["text-valign"] === "center" ? p.y - h / 2 : st["text-valign"] === "bottom" ? p.y + nh + my / z
      : p.y - nh + my / z - h;
    return {x1: x1 - dx, x2: x1 + w + dx, y1: y1 - dy, y2: y1 + h + dy,
            f: fz, w: (f.w + 8) / z, side: side, text: f.text};
  }
  var MAX_TRIED = 400;  /* titles measured and tried in one placing, at most (a big view has thousands of papers) */
  var SIDES = ["bottom", "top", "right", "left", "bottom-right", "bottom-left", "top-right", "top-left"];
  var TL_SIDES = ["right", "left", "bottom-right", "top-right", "bottom", "top", "bottom-left", "top-left"];
  function sides(n) { return n.hasClass("tl") ? TL_SIDES : SIDES; }
  var SIDE_STYLE = {  /* Cytoscape label placement of each side (margins in px on screen, divided by the zoom) */
    "bottom": {"text-valign": "bottom", "text-halign": "center", mx: 0, my: 4},
    "top": {"text-valign": "top", "text-halign": "center", mx: 0, my: -4},
    "right": {"text-valign": "center", "text-halign": "right", mx: 6, my: 0},
    "left": {"text-valign": "center", "text-halign": "left", mx: -6, my: 0},
    "bottom-right": {"text-valign": "bottom", "text-halign": "right", mx: 2, my: 2},
    "bottom-left": {"text-valign": "bottom", "text-halign": "left", mx: -2, my: 2},
    "top-right": {"text-valign": "top", "text-halign": "right", mx: 2, my: -2},
    "top-left": {"text-valign": "top", "text-halign": "left", mx: -2, my: -2}
  };
  /* Each shown paper's place, half size (its border included), rank and citers, read once a placing: Cytoscape
     computes an outer width from the style each time it is asked. */
  function geometry(cy) {
    var out = new Map();
    cy.nodes(".paper").forEach(function (n) {
      if (n.hasClass("lib-hidden")) { return; }
      var p = n.position();
      out.set(n.id(), {x: p.x, y: p.y, r: n.outerWidth() / 2, rank: rank(n), cites: n.data("in_cited") || 0});
    });
    return out;
  }
  /* The papers' bodies near the viewport, as boxes (a star or a circle inside its box): labels keep off them. */
  function bodies(geo, ext, z) {
    var grid = new Grid(32 / z), m = 1 / z;  /* small cells: a crowd of bodies, few in each */
    geo.forEach(function (g, id) {
      var r = g.r + 1 + m;  /* Cytoscape's body box: 1 unit round the border */
      if (g.x + r < ext.x1 || g.x - r > ext.x2 || g.y + r < ext.y1 || g.y - r > ext.y2) { return; }
      grid.add({x1: g.x - r, x2: g.x + r, y1: g.y - r, y2: g.y + r, id: id});
    });
    return grid;
  }
  function choose(cy) {
    var z = cy.zoom() || 1, ext = cy.extent(), geo = geometry(cy);
    var candidates = cy.nodes(".paper").filter(function (n) {
      var g = geo.get(n.id());
      return g !== undefined && n.data("label") && g.x >= ext.x1 && g.x <= ext.x2 && g.y >= ext.y1 && g.y <= ext.y2;
    }).toArray();
    candidates.sort(function (a, b) {
      var ga = geo.get(a.id()), gb = geo.get(b.id());
      return ga.rank - gb.rank || gb.cites - ga.cites || (a.id() < b.id() ? -1 : 1);
    });
    var grid = new Grid(160 / z), body = bodies(geo, ext, z), chosen = [], callouts = [];
    cy.nodes(".axis").not(".axis-thinned").forEach(function (n) { grid.add(tickBox(n, z)); });  /* ticks first */
    overlays(cy).forEach(function (b) { grid.add(b); });
    /* whether a title's box is free: inside the map, over no title placed and no paper's body (``id``'s own aside) */
    function free(b, id) {
      return b.x1 >= ext.x1 && b.x2 <= ext.x2 && b.y1 >= ext.y1 && b.y2 <= ext.y2 && !grid.hits(b) && !body.hits(b, id);
    }
    function roomy(n) {
      var px = screenPx(), least = {w: px * 3, lines: 1, px: px}, g = geo.get(n.id());
      return sides(n).some(function (side) { return free(box(g, z, side, least), n.id()); });
    }
    function beside(n, fs) {
      var ss = sides(n), g = geo.get(n.id());
      for (var k = 0; k < fs.length; k++) {
        for (var o = 0; o < ss.length; o++) {
          var b = box(g, z, ss[o], fs[k]);
          if (!free(b, n.id())) { continue; }
          grid.add(b);
          chosen.push([n, b]);
          return true;
        }
      }
      return false;
    }
    /* the papers that matter first, in turns: each title beside its paper, else set apart, else shortened beside
       it, else shortened and set apart (so that no title set apart takes the place beside another's paper) */
    var matter = candidates.filter(function (n) { return geo.get(n.id()).rank <= 1; }), left = matter;
    [[beside, 0], [callout, 0], [beside, 1], [callout, 1]].forEach(function (turn) {
      left = left.filter(function (n) {
        var fs = forms(n), f = turn[1] ? fs.slice(-1) : fs.slice(0, -1);
        var others = matter.filter(function (m) { return m !== n; }).map(function (m) { return geo.get(m.id()); });
        return !(turn[0] === beside ? beside(n, f) : callout(n, f, z, ext, free, grid, callouts, others));
      });
    });
    /* the others, most important first, beside their paper; a paper with no room even for a few characters on any
       side is passed over before its title is measured, and the search stops after MAX_TRIED of them measured */
    var tried = 0;
    for (var i = 0; i < candidates.length && tried < MAX_TRIED; i++) {
      var n = candidates[i];
      if (geo.get(n.id()).rank <= 1 || !roomy(n)) { continue; }
      tried += 1;
      beside(n, forms(n));
    }
    return {chosen: chosen, bodies: body, callouts: callouts};
  }
  /* What lies over the map (its zoom buttons, the legend while presenting), as boxes in model coordinates: no
     title goes under them. */
  function overlays(cy) {
    var box = cy.container() && cy.container().getBoundingClientRect(), z = cy.zoom() || 1, pan = cy.pan(), out = [];
    if (!box) { return out; }
    document.querySelectorAll(".zoom-controls, .map-legend").forEach(function (el) {  /* hidden: no box */
      var r = el.getBoundingClientRect();
      if (!r.width) { return; }
      out.push({x1: (r.left - box.left - pan.x) / z, x2: (r.right - box.left - pan.x) / z,
                y1: (r.top - box.top - pan.y) / z, y2: (r.bottom - box.top - pan.y) / z});
    });
    return out;
  }
  /* The box of a timeline's tick label (a citer tick's ends at its place, a year's is centred on it). */
  function tickBox(n, z) {
    var f = citemapTickPx() / z, w = textWidth(n.data("label") || "", true) * f / 100, p = n.position();
    var x1 = n.hasClass("axis-c") ? p.x - 6 / z - w : p.x - w / 2;
    return {x1: x1 - 2 / z, x2: x1 + w + 2 / z, y1: p.y - f * 0.6, y2: p.y + f * 0.6};
  }
  /* A timeline's ticks have one size on screen (citemapTickPx) whatever the zoom. The year ticks are thinned to
     every second, fifth, ... year when they would touch (at a phone's zoom a year is a few pixels wide), and left
     out where the unit "citing" or the map's edge is. */
  function thinTicks(cy) {
    var z = cy.zoom() || 1, px = citemapTickPx(), ticks = cy.nodes(".axis");
    ticks.style({"font-size": px / z});
    ticks.filter(".axis-c").style({"text-margin-x": -6 / z});  /* tickBox: 6 px left of its place */
    var years = ticks.filter(function (n) { return n.id().indexOf("axis-y") === 0; }).toArray()
      .sort(function (a, b) { return a.position("x") - b.position("x"); });
    if (years.length < 2) { return; }
    var gap = (years[1].position("x") - years[0].position("x")) * z, widest = 0;
    years.forEach(function (n) { widest = Math.max(widest, textWidth(n.data("label") || "", true) * px / 100); });
    var every = [1, 2, 5, 10, 20, 50].find(function (k) { return k * gap >= widest + 8; }) || 100;
    var unit = ticks.filter(function (n) { return n.id() === "axis-cunit"; });
    var corner = unit.nonempty() ? tickBox(unit[0], z) : null;
    var ext = cy.extent();
    years.forEach(function (n, i) {
      var b = tickBox(n, z);  /* not over "citing", not cut by the map's edge */
      var thin = i % every !== 0 || (corner !== null && overlaps(b, corner)) || b.x1 < ext.x1 || b.x2 > ext.x2;
      if (thin !== n.hasClass("axis-thinned")) { n.toggleClass("axis-thinned", thin); }
    });
  }
  var applying = false;  /* the label classes this file sets are no reason to choose again */
  function apply(cy) {
    applying = true;
    try { place(cy); } finally { applying = false; }
  }
  function place(cy) {
    var got = choose(cy), chosen = got.chosen, keep = new Set(), z = cy.zoom() || 1;
    cy.batch(function () {
      chosen.forEach(function (c) {
        var n = c[0], b = c[1], side = SIDE_STYLE[b.side];
        keep.add(n.id());
        if (n.data("wrapped") !== b.text) { n.data("wrapped", b.text); }
        n.style({"font-size": b.f, "text-max-width": b.w, "text-background-padding": 2 / z,
                 "text-valign": side["text-valign"], "text-halign": side["text-halign"],
                 "text-margin-y": side.my / z, "text-margin-x": side.mx / z});
        if (!n.hasClass("lbl")) { n.addClass("lbl"); }
      });
      cy.nodes(".lbl").forEach(function (n) { if (!keep.has(n.id())) { n.removeClass("lbl"); } });
      thinTicks(cy);
    });
    /* the estimate is a little generous; Cytoscape's own boxes have the last word, in the same order */
    var ext = cy.extent(), kept = [], opts = {includeLabels: true, includeNodes: false, includeOverlays: false};
    cy.batch(function () {
      chosen.forEach(function (c) {
        var bb = c[0].boundingBox(opts);
        var out = bb.x1 < ext.x1 || bb.x2 > ext.x2 || bb.y1 < ext.y1 || bb.y2 > ext.y2;
        if (out || got.bodies.hits(bb, c[0].id()) || kept.some(function (k) { return overlaps(k, bb); })) {
          c[0].removeClass("lbl");
        } else { kept.push(bb); }
      });
    });
    drawCallouts(cy, got.callouts, kept, got.bodies, ext);
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
    cy.on("zoom pan layoutstop", schedule);
    cy.on("add remove", function () { if (!applying) { schedule(); } });  /* not for its own callouts */
    cy.on("class", "node.paper", function () { if (!applying) { schedule(); } });
    window.addEventListener("resize", schedule);
    schedule();
  }
  var timer = setInterval(function () { if (window.cy) { attach(window.cy); } }, 200);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
  var api = {choose: choose, apply: apply, screenPx: screenPx, wrap: wrap, textWidth: textWidth, runs: 0};
  return api;
})();
