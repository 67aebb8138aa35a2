/* Exports drawn in the browser: an image of the map (PNG, SVG: title and legend; the SVG drawn through canvas2svg),
   a story's steps (zip of PNGs, PDF handout; JSZip and jsPDF); the libraries loaded from assets/vendor/ on first
   use. */

document.addEventListener("click", function (event) {
  var item = event.target && event.target.closest && event.target.closest(".export-menu button");
  if (item) { item.closest("details").removeAttribute("open"); }
  if (item && (item.id === "button-export-png" || item.id === "button-export-svg") && window.cy) {
    citemapExportImage(window.cy, item.id.slice(-3));
  }
});

/* An image of the map as it is on screen (same zoom, same labels), with a title line (dataset, seeds, filters,
   layout, size: GET /image-title, dashboard/view/naming.py) above it and a legend (colours in view, shapes) below. PNG at twice the
   screen's pixels; SVG as vectors (the map as citemapMapSvg draws it inside). */
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
  } else {  /* as the page's legend (dashboard/view/colour_key.py): one entry a colour in view, in the palette's
               order; the areas beyond the palette share one colour, "other areas" */
    var colours = new Set(), shared = new Map();
    cy.nodes(".paper").not(".lib-hidden").forEach(function (node) { colours.add(node.data("color")); });
    Object.keys(pal.area || {}).forEach(function (a) { shared.set(pal.area[a], (shared.get(pal.area[a]) || 0) + 1); });
    Object.keys(pal.area || {}).forEach(function (a) {
      var c = pal.area[a];
      if (!colours.has(c)) { return; }
      colours.delete(c);
      items.push({label: shared.get(c) > 1 ? "other areas" : citemapAreaLabel(a), color: c});
    });
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
/* [{item, x, row}] left to right, wrapped at width; ``textWidth``: a label's width, ``unit``: the size of the image's
   CSS pixel (the key and the gaps around it scale with it). */
function citemapLegendLayout(textWidth, items, x0, width, unit) {
  var x = x0, row = 0, out = [];
  items.forEach(function (it) {
    var w = 34 * unit + textWidth(it.label);
    if (x > x0 && x + w > x0 + width) { x = x0; row += 1; }
    out.push({item: it, x: x, row: row});
    x += w;
  });
  return out;
}
/* A legend key's outline as points around (x, y), r from the centre to a corner: the map's star, diamond (similar)
   and hexagon (on a path); null for the shapes drawn as a square or a circle. */
function citemapPolygon(shape, x, y, r) {
  if (shape === "star") { return citemapStar(x, y, r); }
  var sides = {diamond: 4, hexagon: 6}[shape];
  if (!sides) { return null; }
  var out = [];
  for (var k = 0; k < sides; k++) {
    var a = (sides === 4 ? -Math.PI / 2 : 0) + 2 * Math.PI * k / sides;
    out.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
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
  try {  /* the title line and file name: GET /image-title?<view> (dashboard/view/naming.py) */
    var named = await fetch(citemapPrefix() + "image-title" + (meta.query || ""));
    if (named.ok) { Object.assign(meta, await named.json()); }
  } catch { /* the image without its title is still the image */ }
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
/* The map as it is on screen (citemapMapBox: not what a story's caption covers) with ``meta.title`` above it
   (" · " parts on lines) and its legend below, as a PNG (twice the screen's pixels) or SVG blob: {blob, width,
   height} (CSS pixels). */
async function citemapImage(cy, kind, meta) {
  var E = CITEMAP_EXPORT, box = citemapMapBox(cy), W = box.w, H = box.h;
  var measure = document.createElement("canvas").getContext("2d");
  var lines = citemapTitleLines(measure, meta.title || "citemap", W - 32);
  measure.font = "12px " + E.font;
  var legend = citemapLegendLayout(function (t) { return measure.measureText(t).width; }, citemapLegendItems(cy, meta),
                                   16, W - 32, 1);
  var head = 12 + 18 * lines.length, rows = legend.length ? legend[legend.length - 1].row + 1 : 0;
  var foot = 12 + 22 * rows, total = head + H + foot;
  var items = legend.map(function (p) { return {item: p.item, x: p.x, y: head + H + 20 + 22 * p.row}; });
  window.__citemapExportSize = [W, total];  /* what tests compare the file with */
  var blob;
  if (kind === "svg") {
    var esc = function (t) { return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); };
    var C2S = await citemapScript("canvas2svg.js", "C2S");
    var inner = citemapMapSvg(cy, C2S, "#ffffff", box).replace(/^<\?xml[^>]*>\s*/, "");
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
      var poly = citemapPolygon(it.shape, p.x + 6, p.y, 7);
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
    var map = citemapMapCanvas(cy, 2);
    var canvas = document.createElement("canvas");
    canvas.width = W * 2;
    canvas.height = total * 2;
    var ctx = canvas.getContext("2d");
    ctx.scale(2, 2);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, W, total);
    ctx.drawImage(map, 0, 0, map.width, map.height * H / box.full, 0, head, W, H);
    ctx.fillStyle = E.ink;
    ctx.font = "bold 13px " + E.font;
    lines.forEach(function (line, k) { ctx.fillText(line, 16, 24 + 18 * k); });
    ctx.font = "12px " + E.font;
    items.forEach(function (p) {
      var it = p.item;
      ctx.fillStyle = it.color || "#9aa3af";
      ctx.beginPath();
      var poly = citemapPolygon(it.shape, p.x + 6, p.y, 7);
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

/* The map as it is on screen (the view's zoom and pan, the labels drawn now) as the text of an SVG document of the
   size of ``box`` (citemapMapBox) in CSS pixels, on a ``bg`` ground. Cytoscape's canvas renderer draws the elements
   as it does for cy.png() (in the order of citemapDrawOrder, without what the map shows only for the moment:
   citemapSteady), into canvas2svg's stand-in for a canvas's 2D context (assets/vendor/canvas2svg.js, loaded on first
   use: ``C2S``), which keeps each shape, line and label as an SVG element: labels stay text. canvas2svg records only
   the context's own path calls, so the renderer draws its shapes with them for the while, not through Path2D
   objects; and it has no setLineDash, so the one given here puts the dashes (a truncated paper's border) on each
   line stroked while they are set, as stroke-dasharray on the element canvas2svg has just written. */
function citemapMapSvg(cy, C2S, bg, box) {
  var r = cy.renderer(), W = box.w, H = box.h;
  var ctx = new C2S(W, H), pan = cy.pan(), zoom = cy.zoom(), paths = r.path2dEnabled(), dash = [];
  var stroke = ctx.stroke;
  ctx.setLineDash = function (d) { dash = d.slice(); };
  ctx.stroke = function () {
    stroke.apply(ctx, arguments);
    if (dash.length) { ctx.__currentElement.setAttribute("stroke-dasharray", dash.join(",")); }
  };
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, W, H);
  ctx.translate(pan.x, pan.y);
  ctx.scale(zoom, zoom);
  r.path2dEnabled(false);
  try {
    citemapSteady(cy, function () { r.drawElements(ctx, citemapDrawOrder(r)); });
  } finally {
    r.path2dEnabled(paths);
  }
  return ctx.getSerializedSvg(true);
}

/* What the map shows only for the moment, left out of every export so that an export of a view is the same whatever
   was done, hovered or exported before it: the amber ring of the papers the last action added (class "new"), the
   citations of the paper under the pointer ("near"), a paper or link held down (Cytoscape's :active). ``draw`` is
   called with them off (Cytoscape restyles at once, and draws an export at the call); they are back after it. */
function citemapSteady(cy, draw) {
  var fresh = cy.nodes(".new"), near = cy.edges(".near"), held = cy.elements(":active");
  cy.batch(function () { fresh.removeClass("new"); near.removeClass("near"); held.unactivate(); });
  try {
    return draw();
  } finally {
    cy.batch(function () { fresh.addClass("new"); near.addClass("near"); });
  }
}
/* The part of the map an export shows, CSS pixels {w, h} from the top left corner of the map's box (``full``: its
   height): all of it, but while a story is presented only down to a little below the lowest paper or title drawn
   (the fit keeps papers out from under the caption and the controls at the map's bottom: an image of all of it would
   end in an empty band). */
function citemapMapBox(cy) {
  var full = Math.round(cy.height()), h = full, cover = citemapCaptionCover(cy);
  if (cover > 0) {
    var drawn = cy.elements(":visible").renderedBoundingBox({includeLabels: true, includeOverlays: false});
    h = isFinite(drawn.y2) ? Math.max(1, Math.min(full, Math.ceil(drawn.y2) + 16)) : full - cover;
  }
  return {w: Math.round(cy.width()), h: Math.round(h), full: full};
}
/* The map as it is on screen, ``scale`` times its CSS pixels, as a canvas on white: the whole box (the part
   citemapMapBox says is the top of it). Drawn as cy.png() draws it, by Cytoscape's renderer, but in the order of
   citemapDrawOrder, and without what the map shows only for the moment (citemapSteady). */
function citemapMapCanvas(cy, scale) {
  var r = cy.renderer(), pan = cy.pan(), canvas = document.createElement("canvas");
  canvas.width = Math.round(cy.width() * scale);
  canvas.height = Math.round(cy.height() * scale);
  var ctx = canvas.getContext("2d", {alpha: false});
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.translate(pan.x * scale, pan.y * scale);
  ctx.scale(scale * cy.zoom(), scale * cy.zoom());
  citemapSteady(cy, function () { r.drawElements(ctx, citemapDrawOrder(r)); });
  return canvas;
}
/* The elements in the order Cytoscape draws them (its z-index sort: edges under nodes, then by z-index; the map has
   no compound nodes), but those of one rank in the order of their ids, not in the order they came into the map
   (which depends on the views shown before, and on titles set apart and taken back meanwhile): where two of them
   overlap, the one drawn on top is the same whatever came before. */
function citemapDrawOrder(r) {
  var eles = Array.prototype.slice.call(r.getCachedZSortedEles()), key = new Map();
  eles.forEach(function (e) {
    key.set(e, [e.pstyle("z-index-compare").value === "auto" && e.isNode() ? 1 : 0, e.pstyle("z-index").value, e.id()]);
  });
  return eles.sort(function (a, b) {
    var ka = key.get(a), kb = key.get(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || (ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0);
  });
}

/* A story exported: its first step drawn anew (citemapRedrawAnew), then each step in turn as presenting shows it,
   each taken as an image; all of them in one zip of PNGs (JSZip) or one PDF handout (jsPDF), both vendored in
   assets/vendor/ and loaded on first use. The same story gives the same file, whatever was shown, hovered or
   exported before: the images leave out what the map shows only for the moment (citemapSteady), the zip's entries
   and the PDF carry a fixed date, and the PDF's file id is made from the story. The page comes back to the step it
   was on. */
var CITEMAP_STORY_DATE = new Date(Date.UTC(2000, 0, 1));
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
  return String(markdown || "").replace(/[*_`#>]+/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ").trim();
}
function citemapSleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }
/* Resolves once step ``index`` of ``n`` is drawn and at rest: a drawing begun after ``mark``
   (window.__citemapDrawing, which citemapDraw counts) has ended, the rendered query is no longer ``before`` (when
   given), the frame shows the step's number and no paper glides, at two looks a frame or more apart (an animation
   starts at the frame after it is asked for). Then the map is fitted to the step's caption as it is now and its
   titles are placed for where the papers came to rest (presenting, they were placed while the papers glided). */
async function citemapStepDrawn(mark, index, n, before) {
  var count = (index + 1) + " / " + n, still = 0;
  for (var t = 0; t < 200 && still < 2; t++) {
    await citemapSleep(100);
    var g = document.getElementById("div-rendered-graph"), c = document.getElementById("span-present-count");
    var cy = window.cy;
    var drawn = (window.__citemapDrawing || 0) > mark && cy && cy.nodes(".paper").nonempty() &&
      (before === undefined || (g && g.textContent !== before)) && c && c.textContent === count &&
      cy.nodes().filter(function (e) { return e.animated(); }).empty() &&
      !document.querySelector('[data-dash-is-loading="true"]');
    still = drawn ? still + 1 : 0;
  }
  if (window.cy) { citemapRefit(window.cy); }
  await citemapSleep(300);  /* the titles placed after the fit */
  if (window.cy && window.citemapLabels) { window.citemapLabels.apply(window.cy); }
}
/* The story's first step drawn as if the page had just opened on it: no paper kept in the place it had in the view
   shown before, none marked new, no camera moved by hand. Forgetting what the drawing remembers of the map
   (assets/citemap-03-draw.js) makes the next drawing a first one; moving to the first step, or on it already setting
   the library filter's value again, runs the map's callback (loadGraph), which draws it. */
async function citemapRedrawAnew(n) {
  var mark = window.__citemapDrawing || 0, filter = document.getElementById("radio-library");
  window.__citemapShown = null;
  window.__citemapDrawn = new Map();
  if (window.__citemapStory.index !== 0) {
    citemapGoToStep(0);
  } else {
    window.dash_clientside.set_props("radio-library", {"data-value": filter.getAttribute("data-value")});
  }
  await citemapStepDrawn(mark, 0, n);
}
async function citemapExportStory(kind) {
  var cur = window.__citemapStory, cy = window.cy;
  if (!cur || !cy || window.__citemapStoryExporting) { return; }
  window.__citemapStoryExporting = true;
  var story = cur.story, start = cur.index, n = story.steps.length;
  var stem = (story.name || story.title || "story").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  try {
    var out = kind === "zip" ? citemapStoryZip(await citemapScript("jszip.min.js", "JSZip"), story, stem)
      : citemapStoryPdf((await citemapScript("jspdf.umd.min.js", "jspdf")).jsPDF, story);
    for (var i = 0; i < n; i++) {
      if (i === 0) {
        await citemapRedrawAnew(n);
      } else {
        var mark = window.__citemapDrawing || 0;
        var before = (document.getElementById("div-rendered-graph") || {}).textContent;
        citemapGoToStep(i);
        await citemapStepDrawn(mark, i, n, before);
      }
      await out.add(cy, i);
    }
    citemapSave(await out.file(), stem + (kind === "zip" ? "-steps.zip" : "-handout.pdf"));
  } finally {
    window.__citemapStoryExporting = false;
    if (window.__citemapStory && window.__citemapStory.index !== start) { citemapGoToStep(start); }
  }
}

/* A story's PNGs: each step's map with the story's title, the step's number, title and caption above it and its
   legend below (citemapImage), in one zip. */
function citemapStoryZip(JSZip, story, stem) {
  var zip = new JSZip(), n = story.steps.length;
  return {
    add: async function (cy, i) {
      var step = story.steps[i], caption = citemapPlain(step.caption);
      var title = story.title + " · " + (i + 1) + " / " + n + ": " + step.title + (caption ? " · " + caption : "");
      var meta = Object.assign({}, window.__citemapMeta || {}, {title: title});  /* the step's colours' legend */
      var image = await citemapImage(cy, "png", meta);
      zip.file(stem + "-step-" + String(i + 1).padStart(2, "0") + ".png", image.blob, {date: CITEMAP_STORY_DATE});
    },
    file: function () { return zip.generateAsync({type: "blob"}); }
  };
}

/* A story's PDF handout: A4 landscape, a page a step. Its words are text, sharp at any size: the story's title and the
   step's number, the step's title, its caption, the legend of the map's colours and shapes. The map is an image of
   about CITEMAP_PDF.dpi dots an inch on the page, lossless (PNG, deflated by jsPDF) unless that PNG is bigger than
   CITEMAP_PDF.budget bytes, then JPEG: a handout small enough to send by e-mail. */
var CITEMAP_PDF = {margin: 28, dpi: 220, budget: 1400000, jpeg: 0.9, ink: [29, 36, 48], grey: [91, 100, 114],
                   frame: [209, 213, 219], date: "D:20000101000000+00'00'"};
function citemapStoryPdf(jsPDF, story) {
  var doc = new jsPDF({orientation: "landscape", unit: "pt", format: "a4"});
  doc.setCreationDate(CITEMAP_PDF.date);
  doc.setFileId(citemapHash(JSON.stringify([story.title, story.steps])));
  doc.setProperties({title: String(story.title || ""), creator: "citemap"});
  return {
    add: async function (cy, i) {
      if (i) { doc.addPage(); }
      await citemapPdfPage(doc, cy, story, i);
    },
    file: function () { return doc.output("blob"); }
  };
}
async function citemapPdfPage(doc, cy, story, i) {
  var P = CITEMAP_PDF, M = P.margin, width = doc.internal.pageSize.getWidth() - 2 * M;
  var bottom = doc.internal.pageSize.getHeight() - M, y = M, step = story.steps[i];
  var caption = citemapPlain(step.caption);
  function write(text, size, style, colour, lead) {  /* in lines of the page's width, each ``lead`` below the last */
    doc.setFont("helvetica", style);
    doc.setFontSize(size);
    doc.setTextColor(colour[0], colour[1], colour[2]);
    doc.splitTextToSize(text, width).forEach(function (line) { y += lead; doc.text(line, M, y); });
  }
  write(story.title + " · step " + (i + 1) + " of " + story.steps.length, 10, "normal", P.grey, 8);
  write(step.title || "", 16, "bold", P.ink, 21);
  if (caption) { write(caption, 11, "normal", P.ink, 15); }
  y += 12;
  var meta = Object.assign({}, window.__citemapMeta || {});
  doc.setFont("helvetica", "normal");
  doc.setFontSize(9);
  var legend = citemapLegendLayout(function (t) { return doc.getTextWidth(t); }, citemapLegendItems(cy, meta),
                                   0, width, 0.75);
  var rows = legend.length ? legend[legend.length - 1].row + 1 : 0;
  /* the map as large as the room left lets it be, at the map's shape */
  var box = citemapMapBox(cy), room = Math.max(72, bottom - y - (rows ? 10 + 14 * rows : 0));
  var k = Math.min(width / box.w, room / box.h), w = box.w * k, h = box.h * k, x = M + (width - w) / 2;
  var image = await citemapPdfImage(cy, box, Math.min(3, Math.max(0.5, w / 72 * P.dpi / box.w)));
  doc.addImage(image.data, image.format, x, y, w, h, "map-" + (i + 1), "FAST");
  doc.setDrawColor(P.frame[0], P.frame[1], P.frame[2]);
  doc.setLineWidth(0.5);
  doc.rect(x, y, w, h, "S");
  y += h + 17;
  doc.setTextColor(P.ink[0], P.ink[1], P.ink[2]);
  legend.forEach(function (p) {
    var it = p.item, lx = M + p.x, ly = y + 14 * p.row, rgb = citemapRgb(it.color || "#9aa3af");
    doc.setFillColor(rgb[0], rgb[1], rgb[2]);
    var poly = citemapPolygon(it.shape, lx + 4.5, ly - 3, 5.25);
    if (poly) {
      var steps = poly.slice(1).map(function (q, j) { return [q[0] - poly[j][0], q[1] - poly[j][1]]; });
      doc.lines(steps, poly[0][0], poly[0][1], [1, 1], "F", true);
    } else if (it.shape === "square") {
      doc.roundedRect(lx, ly - 7.5, 9, 9, 1.5, 1.5, "F");
    } else {
      doc.circle(lx + 4.5, ly - 3, 4.5, "F");
    }
    doc.text(it.label, lx + 13.5, ly);
  });
}
/* The part of the map a page shows (citemapMapBox), ``scale`` times its CSS pixels: {data: bytes, format}. */
async function citemapPdfImage(cy, box, scale) {
  var map = citemapMapCanvas(cy, scale), canvas = document.createElement("canvas");
  canvas.width = map.width;
  canvas.height = Math.round(map.height * box.h / box.full);
  canvas.getContext("2d", {alpha: false}).drawImage(map, 0, 0);
  var encode = function (type, quality) {
    return new Promise(function (resolve) { canvas.toBlob(resolve, type, quality); });
  };
  var blob = await encode("image/png"), format = "PNG";
  if (blob.size > CITEMAP_PDF.budget) { blob = await encode("image/jpeg", CITEMAP_PDF.jpeg); format = "JPEG"; }
  return {data: new Uint8Array(await blob.arrayBuffer()), format: format};
}
function citemapRgb(colour) {  /* a CSS colour as [r, g, b] (0-255) */
  var ctx = document.createElement("canvas").getContext("2d");
  ctx.fillStyle = "#000000";
  ctx.fillStyle = colour;
  var c = ctx.fillStyle, m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c);
  if (m) { return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)]; }
  return (c.match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
}
function citemapHash(text) {  /* 32 hex digits made from ``text``: four FNV-1a hashes of it, seeded apart */
  var out = "";
  for (var s = 0; s < 4; s++) {
    var h = (0x811c9dc5 ^ Math.imul(s, 0x9e3779b9)) >>> 0;
    for (var i = 0; i < text.length; i++) { h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0; }
    out += h.toString(16).padStart(8, "0");
  }
  return out;
}
