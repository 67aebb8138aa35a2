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
    var inner = (await citemapMapSvg(cy, "#ffffff")).replace(/^<\?xml[^>]*>\s*/, "");
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

/* The map as it is on screen (the view's zoom and pan, the labels drawn now) as the text of an SVG document of the
   graph's size in CSS pixels, on a ``bg`` ground. Cytoscape's canvas renderer draws the elements as it does for
   cy.png(), into canvas2svg's stand-in for a canvas's 2D context (assets/vendor/canvas2svg.js, loaded on first
   use), which keeps each shape, line and label as an SVG element: labels stay text. canvas2svg records only the
   context's own path calls, so the renderer draws its shapes with them for the while, not through Path2D objects;
   and it has no setLineDash, so the one given here puts the dashes (a truncated paper's border) on each line stroked
   while they are set, as stroke-dasharray on the element canvas2svg has just written. */
async function citemapMapSvg(cy, bg) {
  var C2S = await citemapScript("canvas2svg.js", "C2S");
  var r = cy.renderer(), W = Math.round(cy.width()), H = Math.round(cy.height());
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
    r.drawElements(ctx, r.getCachedZSortedEles());
  } finally {
    r.path2dEnabled(paths);
  }
  return ctx.getSerializedSvg(true);
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
