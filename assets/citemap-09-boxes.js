/* Text and boxes for the map's titles (window.citemapBoxes): text widths measured on a canvas as Cytoscape
   measures them, titles wrapped to lines, and a grid of boxes to ask what a box would overlap. */
var CITEMAP_FONT = "Helvetica, Arial, sans-serif";  /* the stylesheet's font-family (dashboard/web/layout.py) */
window.citemapBoxes = (function () {
  var canvas = document.createElement("canvas"), ctx = canvas.getContext("2d"), widths = new Map(), font = null;
  function textWidth(text, bold) {  /* at 100 px; widths scale with the font size */
    var key = (bold ? "b" : "n") + text, w = widths.get(key);
    if (w === undefined) {
      var want = (bold ? "bold " : "normal ") + "100px " + CITEMAP_FONT;
      if (font !== want) { ctx.font = want; font = want; }  /* setting a font parses it: only when it changes */
      w = ctx.measureText(text).width;
      if (widths.size > 50000) { widths.clear(); }
      widths.set(key, w);
    }
    return w;
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
      /* the longest start of the rest that fits with an ellipsis (at least one character): widths grow with the
         characters, so a binary search finds it */
      var last = [out[out.length - 1]].concat(words.slice(i)).join(" "), lo = 1, hi = last.length;
      while (lo < hi) {
        var mid = Math.ceil((lo + hi) / 2);
        if (fits(last.slice(0, mid) + "…")) { lo = mid; } else { hi = mid - 1; }
      }
      var cut = last.slice(0, lo);
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
  function overlaps(a, b) { return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2; }
  /* A grid of boxes in model coordinates (cells ``cell`` wide): add a box, ask whether a box hits one (boxes with
     an ``id`` equal to ``except`` left aside: a paper's own body). Cells are keyed by a number (a cell's column and
     row, each well within 2^20 of zero). */
  function Grid(cell) { this.cell = cell; this.cells = new Map(); }
  function cellKey(gx, gy) { return (gx + 1048576) * 2097152 + (gy + 1048576); }
  Grid.prototype.add = function (b) {
    var c = this.cell;
    for (var gx = Math.floor(b.x1 / c), gx2 = Math.floor(b.x2 / c); gx <= gx2; gx++) {
      for (var gy = Math.floor(b.y1 / c), gy2 = Math.floor(b.y2 / c); gy <= gy2; gy++) {
        var k = cellKey(gx, gy), list = this.cells.get(k);
        if (!list) { list = []; this.cells.set(k, list); }
        list.push(b);
      }
    }
  };
  Grid.prototype.hits = function (b, except) {
    var c = this.cell;
    for (var gx = Math.floor(b.x1 / c), gx2 = Math.floor(b.x2 / c); gx <= gx2; gx++) {
      for (var gy = Math.floor(b.y1 / c), gy2 = Math.floor(b.y2 / c); gy <= gy2; gy++) {
        var list = this.cells.get(cellKey(gx, gy));
        if (!list) { continue; }
        for (var i = 0; i < list.length; i++) {
          var o = list[i];
          if (b.x1 < o.x2 && o.x1 < b.x2 && b.y1 < o.y2 && o.y1 < b.y2 && (except === undefined || o.id !== except)) {
            return true;
          }
        }
      }
    }
    return false;
  };
  return {textWidth: textWidth, wrap: wrap, overlaps: overlaps, Grid: Grid};
})();
