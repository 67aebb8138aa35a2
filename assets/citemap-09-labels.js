/* The map's labels (window.citemapLabels). */

/* Labels that never collide. After every change of the elements, of their classes (a paper selected, from
   wherever it was chosen; the library's filter), of the zoom or of the pan, the papers in the viewport are
   ranked (selected, seeds, expanded, most cited in the dataset, then by citers in the dataset) and each one's
   label box is measured on screen (the font measured on a canvas, as Cytoscape does); a label is drawn only if
   its box overlaps no label drawn before it (a grid of accepted boxes, as Sigma.js does). Drawn labels have one
   size on screen whatever the zoom; the others are on the hover card. Node class "lbl" = label drawn. */
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
    cy.nodes(".axis").not(".axis-thinned").forEach(function (n) {  /* a timeline's ticks are there first */
      var f = citemapTickPx() / z, w = textWidth(n.data("label") || "", true) * f / 100;
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
  /* A timeline's ticks have one size on screen (citemapTickPx) whatever the zoom. The year ticks are thinned to
     every second, fifth, ... year when they would touch: at a phone's zoom a year is a few pixels wide. */
  function thinTicks(cy) {
    var z = cy.zoom() || 1, px = citemapTickPx(), ticks = cy.nodes(".axis");
    ticks.style({"font-size": px / z});
    var years = ticks.filter(function (n) { return n.id().indexOf("axis-y") === 0; }).toArray()
      .sort(function (a, b) { return a.position("x") - b.position("x"); });
    if (years.length < 2) { return; }
    var gap = (years[1].position("x") - years[0].position("x")) * z, widest = 0;
    years.forEach(function (n) { widest = Math.max(widest, textWidth(n.data("label") || "", true) * px / 100); });
    var every = [1, 2, 5, 10, 20, 50].find(function (k) { return k * gap >= widest + 8; }) || 100;
    years.forEach(function (n, i) {
      var thin = i % every !== 0;
      if (thin !== n.hasClass("axis-thinned")) { n.toggleClass("axis-thinned", thin); }
    });
  }
  var applying = false;  /* the label classes this file sets are no reason to choose again */
  function apply(cy) {
    applying = true;
    try { place(cy); } finally { applying = false; }
  }
  function place(cy) {
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
      thinTicks(cy);
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
    cy.on("class", "node.paper", function () { if (!applying) { schedule(); } });
    window.addEventListener("resize", schedule);
    schedule();
  }
  var timer = setInterval(function () { if (window.cy) { attach(window.cy); } }, 200);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
  var api = {choose: choose, apply: apply, screenPx: screenPx, runs: 0};
  return api;
})();
