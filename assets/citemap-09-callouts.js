/* Titles set apart from their paper (window.citemapCallouts), for the papers that matter when there is no room
   beside them (assets/citemap-09-labels.js): where such a title goes, and drawing it with a thin line to its paper. */
window.citemapCallouts = (function () {
  var overlaps = window.citemapBoxes.overlaps;
  /* A paper that matters (selected, focused, a seed) with no room for its title beside it: the title in the
     nearest free place around it (rings outwards, from below round), else in the band along the top or the bottom
     edge of the map (the fit leaves it free of papers), joined to it by a thin line. */
  var RINGS = [1.5, 2.5, 3.5, 5, 7, 9, 12, 15];
  /* Distance from point p to box b (0 inside it). */
  function reach(p, b) {
    var dx = Math.max(b.x1 - p.x, 0, p.x - b.x2), dy = Math.max(b.y1 - p.y, 0, p.y - b.y2);
    return Math.hypot(dx, dy);
  }
  /* ``free(box)``: whether a box is inside the map and over no title or paper (citemap-09-labels.js); ``grid``: the
     titles placed, which it joins. ``others``: the places of the other papers that matter; a title set apart near
     its paper is nearer it than any of them, so that it is not read as theirs. */
  function callout(n, fs, z, ext, free, grid, out, others) {
    var p = n.position(), r0 = n.outerWidth() / 2, padX = 5 / z, padY = 4 / z;  /* as box() in citemap-09-labels.js */
    function tryAt(f, cx, cy, band) {
      var w = f.w / z, h = f.px / z * (0.15 + f.lines);
      var b = {x1: cx - w / 2 - padX, x2: cx + w / 2 + padX, y1: cy - h / 2 - padY, y2: cy + h / 2 + padY,
               f: f.px / z, w: (f.w + 8) / z, text: f.text, x: cx, y: cy};
      if (!free(b)) { return false; }  /* its own paper's body included */
      var mine = reach(p, b);  /* in a band along the edge, far from every paper, the line says whose it is */
      if (!band && (others || []).some(function (q) { return reach(q, b) <= mine; })) { return false; }
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
          if (tryAt(fs[k], x, ys[yi], true)) { return true; }
        }
      }
    }
    return false;
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
  return {find: callout, draw: drawCallouts};
})();
