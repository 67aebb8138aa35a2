/* The map's labels (window.citemapLabels). */

/* Labels that never collide and never cover a paper. After every change of the elements, of their classes (a
   paper selected, from wherever it was chosen; the library's filter), of the zoom or of the pan, the papers in the
   viewport are ranked (selected or focused, seeds and a path's ends, expanded, most cited in the dataset, then by
   citers in the dataset) and each one's title is wrapped to the lines it may take (two, three while presenting; the
   font measured on a canvas, as Cytoscape does). A title is drawn on the first side of its paper (under, over,
   right, left; on a timeline right first) where its box overlaps no label drawn before it and no other paper's
   body (grids of boxes, as Sigma.js does); failing that on one line, and for the papers that matter on a short
   line. Drawn labels have one size on screen whatever the zoom; the full title is on the hover card. Node class
   "lbl" = label drawn, its text in data "wrapped". */
var CITEMAP_FONT = "Helvetica, Arial, sans-serif";  /* the stylesheet's font-family (dashboard/web/layout.py) */
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
  /* A title in at most ``lines`` lines of at most ``maxW`` px at ``px`` px, cut with an ellipsis where it does not
     fit: {text (lines joined by newlines), w (widest line, px), lines}. */
  var wraps = new Map();
  function wrap(title, bold, px, maxW, lines) {
    var key = [title, bold, px, maxW, lines].join("|"), got = wraps.get(key);
    if (got) { return got; }
    var unit = px / 100, words = title.split(" "), out = [], line = "", i = 0;
    var fits = function (t) { return textWidth(t, bold) * unit <= maxW; };
    while (i < words.length && out.length < lines) {
      var next = line ? line + " " + words[i] : words[i];
      if (fits(next)) { line = next; i++; continue; }
      if (!line) { line = words[i]; i++; }  /* one word wider than a line: cut below */
      out.push(line);
      line = "";
    }
    if (line && out.length < lines) { out.push(line); }
    if (i < words.length || !fits(out[out.length - 1])) {  /* more than fits: the last line ends with an ellipsis */
      var last = [out[out.length - 1]].concat(words.slice(i)).join(" "), cut = last;
      while (cut.length > 1 && !fits(cut + "…")) { cut = cut.slice(0, -1); }
      var word = cut.lastIndexOf(" ");  /* at a word's end, unless that leaves the line less than two thirds full */
      if (word > 0 && textWidth(cut.slice(0, word), bold) * unit >= maxW * 2 / 3) { cut = cut.slice(0, word); }
      out[out.length - 1] = cut.replace(/[\s,:;.-]+$/, "") + "…";
    }
    var w = 0;
    out.forEach(function (t) { w = Math.max(w, textWidth(t, bold) * unit); });
    got = {text: out.join("\n"), w: w, lines: out.length};
    if (wraps.size > 20000) { wraps.clear(); }
    wraps.set(key, got);
    return got;
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
  /* The label box of node n, in model coordinates, if its label (form f) were drawn at the given zoom on the given
     side of the node ("bottom", "top", "right", "left"). */
  function box(n, z, side, f) {
    /* Cytoscape's box of a label (measured): the text's box and about 3 px more each side, a text-margin-y
       2 px nearer the node; this estimate is a little over it each way */
    var fz = f.px / z, dx = 5 / z, dy = 4 / z;
    var w = f.w / z, h = fz * (0.15 + f.lines), p = n.position(), nw = n.outerWidth() / 2, nh = n.outerHeight() / 2;
    var st = SIDE_STYLE[side], x1, y1, my = st.my - Math.sign(st.my) * 2;
    x1 = st["text-halign"] === "center" ? p.x - w / 2 : st["text-halign"] === "right" ? p.x + nw + st.mx / z
      : p.x - nw + st.mx / z - w;
    y1 = st["text-valign"] === "center" ? p.y - h / 2 : st["text-valign"] === "bottom" ? p.y + nh + my / z
      : p.y - nh + my / z - h;
    return {x1: x1 - dx, x2: x1 + w + dx, y1: y1 - dy, y2: y1 + h + dy,
            f: fz, w: (f.w + 8) / z, side: side, text: f.text};
  }
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
  function overlaps(a, b) { return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2; }
  /* A grid of boxes in model coordinates (cells ``cell`` wide): add a box, ask whether a box hits one (boxes with
     an ``id`` equal to ``except`` left aside: a paper's own body). */
  function Grid(cell) { this.cell = cell; this.cells = new Map(); }
  Grid.prototype.add = function (b) {
    for (var gx = Math.floor(b.x1 / this.cell); gx <= Math.floor(b.x2 / this.cell); gx++) {
      for (var gy = Math.floor(b.y1 / this.cell); gy <= Math.floor(b.y2 / this.cell); gy++) {
        var k = gx + ":" + gy, list = this.cells.get(k);
        if (!list) { list = []; this.cells.set(k, list); }
        list.push(b);
      }
    }
  };
  Grid.prototype.hits = function (b, except) {
    for (var gx = Math.floor(b.x1 / this.cell); gx <= Math.floor(b.x2 / this.cell); gx++) {
      for (var gy = Math.floor(b.y1 / this.cell); gy <= Math.floor(b.y2 / this.cell); gy++) {
        var list = this.cells.get(gx + ":" + gy);
        if (!list) { continue; }
        for (var i = 0; i < list.length; i++) {
          if ((except === undefined || list[i].id !== except) && overlaps(b, list[i])) { return true; }
        }
      }
    }
    return false;
  };
  /* The papers' bodies near the viewport, as boxes (a star or a circle inside its box): labels keep off them. */
  function bodies(cy, ext, z) {
    var grid = new Grid(160 / z), m = 1 / z;
    cy.nodes(".paper").forEach(function (n) {
      if (n.hasClass("lib-hidden")) { return; }
      var p = n.position(), r = n.outerWidth() / 2 + 1 + m;  /* Cytoscape's body box: 1 unit round the border */
      if (p.x + r < ext.x1 || p.x - r > ext.x2 || p.y + r < ext.y1 || p.y - r > ext.y2) { return; }
      grid.add({x1: p.x - r, x2: p.x + r, y1: p.y - r, y2: p.y + r, id: n.id()});
    });
    return grid;
  }
  function choose(cy) {
    var z = cy.zoom() || 1, ext = cy.extent();
    var candidates = cy.nodes(".paper").filter(function (n) {
      if (n.hasClass("lib-hidden") || !n.data("label")) { return false; }
      var p = n.position();
      return p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2;
    }).toArray();
    candidates.sort(function (a, b) {
      return rank(a) - rank(b) || (b.data("in_cited") || 0) - (a.data("in_cited") || 0) ||
        (a.id() < b.id() ? -1 : 1);
    });
    var grid = new Grid(160 / z), body = bodies(cy, ext, z), chosen = [], callouts = [];
    cy.nodes(".axis").not(".axis-thinned").forEach(function (n) { grid.add(tickBox(n, z)); });  /* ticks first */
    overlays(cy).forEach(function (b) { grid.add(b); });
    function beside(n, fs) {
      var ss = sides(n);
      for (var k = 0; k < fs.length; k++) {
        for (var o = 0; o < ss.length; o++) {
          var b = box(n, z, ss[o], fs[k]);
          if (b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2) { continue; }  /* cut by the edge */
          if (grid.hits(b) || body.hits(b, n.id())) { continue; }
          grid.add(b);
          chosen.push([n, b]);
          return true;
        }
      }
      return false;
    }
    /* the papers that matter first, in turns: each title beside its paper, else set apart, else shortened beside
       it, else shortened and set apart (so that no title set apart takes the place beside another's paper) */
    var matter = candidates.filter(function (n) { return rank(n) <= 1; }), left = matter;
    [[beside, 0], [callout, 0], [beside, 1], [callout, 1]].forEach(function (turn) {
      left = left.filter(function (n) {
        var fs = forms(n), f = turn[1] ? fs.slice(-1) : fs.slice(0, -1);
        return !(turn[0] === beside ? beside(n, f) : callout(n, f, z, ext, grid, body, callouts));
      });
    });
    candidates.forEach(function (n) { if (rank(n) > 1) { beside(n, forms(n)); } });
    return {chosen: chosen, bodies: body, callouts: callouts};
  }
  /* A paper that matters (selected, focused, a seed) with no room for its title beside it: the title in the
     nearest free place around it (rings outwards, from below round), else in the band along the top or the bottom
     edge of the map (the fit leaves it free of papers), joined to it by a thin line. */
  var RINGS = [1.5, 2.5, 3.5, 5, 7, 9, 12, 15];
  function callout(n, fs, z, ext, grid, body, out) {
    var p = n.position(), r0 = n.outerWidth() / 2, padX = 5 / z, padY = 4 / z;  /* as in box() */
    function tryAt(f, cx, cy) {
      var w = f.w / z, h = f.px / z * (0.15 + f.lines);
      var b = {x1: cx - w / 2 - padX, x2: cx + w / 2 + padX, y1: cy - h / 2 - padY, y2: cy + h / 2 + padY,
               f: f.px / z, w: (f.w + 8) / z, text: f.text, x: cx, y: cy};
      if (b.x1 < ext.x1 || b.x2 > ext.x2 || b.y1 < ext.y1 || b.y2 > ext.y2) { return false; }
      if (grid.hits(b) || body.hits(b)) { return false; }
      grid.add(b);
      out.push([n, b]);
      return true;
    }
    for (var k = 0; k < fs.length; k++) {
      var w = fs[k].w / z, h = fs[k].px / z * (0.15 + fs[k].lines);
      for (var ri = 0; ri < RINGS.length; ri++) {
        for (var a = 0; a < 16; a++) {
          var t = Math.PI / 2 + (a % 2 ? 1 : -1) * Math.ceil(a / 2) * Math.PI / 8;
          var dx = Math.cos(t), dy = Math.sin(t), d = r0 + RINGS[ri] * 16 / z;
          if (tryAt(fs[k], p.x + dx * (d + w / 2), p.y + dy * (d + h / 2))) { return true; }
        }
      }
    }
    for (k = fs.length - 1; k >= 0; k--) {  /* the bands: the one-line title first, it fits them best */
      w = fs[k].w / z;
      h = fs[k].px / z * (0.15 + fs[k].lines);
      var lo = ext.x1 + w / 2 + 2 * padX, hi = ext.x2 - w / 2 - 2 * padX;
      if (lo > hi) { continue; }
      var ys = p.y < (ext.y1 + ext.y2) / 2 ? [ext.y1 + h / 2 + 2 * padY, ext.y2 - h / 2 - 2 * padY]
        : [ext.y2 - h / 2 - 2 * padY, ext.y1 + h / 2 + 2 * padY];
      for (var yi = 0; yi < 2; yi++) {
        for (var step = 0; step <= 8; step++) {  /* above or below it, then further along the band */
          var x = Math.min(hi, Math.max(lo, p.x + (step % 2 ? 1 : -1) * Math.ceil(step / 2) * w / 2));
          if (tryAt(fs[k], x, ys[yi])) { return true; }
        }
      }
    }
    return false;
  }
  /* What lies over the map (its zoom buttons), as boxes in model coordinates: no label goes under them. */
  function overlays(cy) {
    var box = cy.container() && cy.container().getBoundingClientRect(), z = cy.zoom() || 1, pan = cy.pan(), out = [];
    if (!box) { return out; }
    document.querySelectorAll(".zoom-controls").forEach(function (el) {
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
  /* Callouts are elements of their own: a node "callout" holding the title (no body) and an edge "leader" from the
     paper to it, made again on every placing (none when the title fits beside its paper). */
  function drawCallouts(cy, list, kept, body, ext) {
    var opts = {includeLabels: true, includeNodes: false, includeOverlays: false}, z = cy.zoom() || 1, made = [];
    cy.batch(function () {
      cy.remove(cy.elements(".callout, .leader"));
      list.forEach(function (c) {
        var n = c[0], b = c[1], id = "callout:" + n.id();
        var node = cy.add({group: "nodes", data: {id: id, wrapped: b.text, of: n.id()}, position: {x: b.x, y: b.y},
                           classes: "callout", selectable: false, grabbable: false});
        node.style({"font-size": b.f, "text-max-width": b.w, "text-background-padding": 2 / z,
                    "font-weight": n.hasClass("seed") || n.hasClass("selected") ? "bold" : "normal"});
        made.push([n, node]);
      });
    });
    made.forEach(function (m) {  /* Cytoscape's own box has the last word, as for the labels beside their paper */
      var bb = m[1].boundingBox(opts);
      var bad = bb.x1 < ext.x1 || bb.x2 > ext.x2 || bb.y1 < ext.y1 || bb.y2 > ext.y2 || body.hits(bb) ||
        kept.some(function (k) { return overlaps(k, bb); });
      if (bad) { cy.remove(m[1]); return; }
      kept.push(bb);
      cy.add({group: "edges", data: {id: "leader:" + m[0].id(), source: m[0].id(), target: m[1].id()},
              classes: "leader", selectable: false});
    });
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
