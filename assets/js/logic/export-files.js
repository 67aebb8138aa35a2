/* What an export of the map writes, apart from drawing the map: file names, the title line's lines, the image's
   layout (title above, legend below) and its SVG document, the order elements are drawn in, a PDF's fixed date and
   file id. The same view gives the same bytes. Pure. */

import { polygon } from "./colour-key.js";

export const EXPORT = { font: "Helvetica, Arial, sans-serif", ink: "#1d2430" };
/* a story's zip entries and PDF carry a fixed date */
export const STORY_DATE = new Date(Date.UTC(2000, 0, 1));
/* A story's PDF handout: A4 landscape, a page a step, its map an image of about ``dpi`` dots an inch on the page,
   lossless (PNG) unless that PNG is bigger than ``budget`` bytes, then JPEG of quality ``jpeg``: a handout small
   enough to send by e-mail. */
export const PDF = {
  margin: 28,
  dpi: 220,
  budget: 1400000,
  jpeg: 0.9,
  ink: [29, 36, 48],
  grey: [91, 100, 114],
  frame: [209, 213, 219],
  date: "D:20000101000000+00'00'",
};

/* An image of the map's file name: the stem GET /image-title names (else "citemap-graph") and the kind. */
export function imageFileName(meta, kind) {
  return (meta.file || "citemap-graph") + "." + kind;
}

/* A story's files: its stem (its name or title in lower case, words joined by "-"), each step's PNG in the zip, the
   zip and the PDF handout. */
export function storyStem(story) {
  return (story.name || story.title || "story")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
export function stepImageName(stem, i) {
  return stem + "-step-" + String(i + 1).padStart(2, "0") + ".png";
}
export function storyFileName(stem, kind) {
  return stem + (kind === "zip" ? "-steps.zip" : "-handout.pdf");
}

/* The title's " · " parts on as few lines as fit ``width``, cut between words where one part is too long;
   ``measure(text)``: its width (bold 13 px). */
export function titleLines(measure, title, width) {
  const lines = [];
  let line = "";
  String(title)
    .split(" · ")
    .forEach((part) => {
      const next = line ? line + " · " + part : part;
      if (line && measure(next) > width) {
        lines.push(line);
        line = part;
      } else {
        line = next;
      }
      while (measure(line) > width && line.indexOf(" ") > 0) {
        /* a long part: cut between words */
        const words = line.split(" ");
        let head = words.shift();
        while (words.length && measure(head + " " + words[0]) <= width) {
          head += " " + words.shift();
        }
        lines.push(head);
        line = words.join(" ");
      }
    });
  if (line) {
    lines.push(line);
  }
  return lines;
}

/* An image of the map ``W`` x ``H`` CSS px with ``lines`` of title above it and ``legend`` (colour-key.js
   legendLayout) below: {head (the title's height), total (the image's height), items ([{item, x, y}]: the legend's
   keys at their places)}. */
export function imageLayout(W, H, lines, legend) {
  const head = 12 + 18 * lines.length,
    rows = legend.length ? legend[legend.length - 1].row + 1 : 0;
  const foot = 12 + 22 * rows,
    total = head + H + foot;
  const items = legend.map((p) => ({ item: p.item, x: p.x, y: head + H + 20 + 22 * p.row }));
  return { head: head, total: total, items: items };
}

function escapeXml(t) {
  return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/* The SVG document of an image: white ground, the title's lines, the map (``inner``: an SVG document's text, drawn
   by canvas2svg) under them, the legend below; as imageLayout lays them out. */
export function imageSvg(W, layout, lines, inner) {
  const E = EXPORT,
    total = layout.total;
  inner = inner.replace(/^<\?xml[^>]*>\s*/, "");
  const parts = [
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="' +
      W +
      '" height="' +
      total +
      '" viewBox="0 0 ' +
      W +
      " " +
      total +
      '">',
    '<rect width="' + W + '" height="' + total + '" fill="#ffffff"/>',
  ];
  lines.forEach((line, k) => {
    parts.push(
      '<text class="citemap-title" x="16" y="' +
        (24 + 18 * k) +
        '" font-family="' +
        E.font +
        '" font-size="13" font-weight="bold" fill="' +
        E.ink +
        '">' +
        escapeXml(line) +
        "</text>",
    );
  });
  parts.push('<g transform="translate(0,' + layout.head + ')">' + inner + "</g>", '<g class="citemap-legend">');
  layout.items.forEach((p) => {
    const it = p.item,
      fill = it.color || "#9aa3af";
    const poly = polygon(it.shape, p.x + 6, p.y, 7);
    if (poly) {
      parts.push('<polygon points="' + poly.map((q) => q.join(",")).join(" ") + '" fill="' + fill + '"/>');
    } else if (it.shape === "square") {
      parts.push('<rect x="' + p.x + '" y="' + (p.y - 6) + '" width="12" height="12" rx="2" fill="' + fill + '"/>');
    } else {
      parts.push('<circle cx="' + (p.x + 6) + '" cy="' + p.y + '" r="6" fill="' + fill + '"/>');
    }
    parts.push(
      '<text x="' +
        (p.x + 18) +
        '" y="' +
        (p.y + 4) +
        '" font-family="' +
        E.font +
        '" font-size="12" fill="' +
        E.ink +
        '">' +
        escapeXml(it.label) +
        "</text>",
    );
  });
  parts.push("</g></svg>");
  return parts.join("");
}

/* Elements in the order Cytoscape draws them (its z-index sort: edges under nodes, then by z-index; the map has no
   compound nodes), but those of one rank in the order of their ids, not in the order they came into the map (which
   depends on the views shown before, and on titles set apart and taken back meanwhile): where two of them overlap,
   the one drawn on top is the same whatever came before. ``keyOf(e)``: [0 for an edge or a node of a manual
   z-index comparison, else 1; its z-index; its id]. */
export function drawOrder(eles, keyOf) {
  const key = new Map();
  eles.forEach((e) => {
    key.set(e, keyOf(e));
  });
  return eles.slice().sort((a, b) => {
    const ka = key.get(a),
      kb = key.get(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || (ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0);
  });
}

/* 32 hex digits made from ``text``: four FNV-1a hashes of it, seeded apart (a story's PDF file id). */
export function hash(text) {
  let out = "";
  for (let s = 0; s < 4; s++) {
    let h = (0x811c9dc5 ^ Math.imul(s, 0x9e3779b9)) >>> 0;
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, "0");
  }
  return out;
}

/* A colour as a canvas normalises it ("#rrggbb", or "rgba(r, g, b, a)") as [r, g, b] (0-255). */
export function rgbOf(normalised) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(normalised);
  if (m) {
    return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
  }
  return (normalised.match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
}
