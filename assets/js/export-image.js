/* An image of the map as it is on screen (same zoom, same labels), with a title line (dataset, seeds, filters,
   layout, size: GET /image-title, dashboard/view/naming.py) above it and a legend (colours in view, shapes) below:
   PNG at twice the screen's pixels, SVG as vectors (the map drawn through canvas2svg, assets/vendor/, loaded on first
   use). export-files.js lays it out; cytoscape-private.js draws the map. */

import { legendItems, legendLayout, polygon } from "./logic/colour-key.js";
import { drawInto, drawKey, zSorted } from "./cytoscape-private.js";
import { viewMeta } from "./draw.js";
import { placeNow } from "./labels.js";
import { EXPORT, drawOrder, imageFileName, imageLayout, imageSvg, titleLines } from "./logic/export-files.js";
import { prefix, save, vendorScript } from "./page.js";
import { captionCover } from "./viewport.js";

/* What the map shows in view, for its legend: similar papers, papers on a path, the colours of the papers. */
export function legendOf(cy, meta) {
  const colours = new Set();
  cy.nodes(".paper")
    .not(".lib-hidden")
    .forEach((node) => {
      colours.add(node.data("color"));
    });
  return legendItems(meta, {
    similar: cy.nodes(".paper.similar").nonempty(),
    onpath: cy.nodes(".paper.onpath").nonempty(),
    colours: colours,
  });
}

/* What the map shows only for the moment, left out of every export so that an export of a view is the same whatever
   was done, hovered or exported before it: the dotted ring of the papers the last action added (class "new"), the
   citations of the paper under the pointer ("near"), a paper or link held down (Cytoscape's :active). ``draw`` is
   called with them off (Cytoscape restyles at once, and draws an export at the call) and the titles placed as they
   are without the rings (titles keep off a ring); they are back after it, the titles placed round them again. */
function steady(cy, draw) {
  const fresh = cy.nodes(".new"),
    near = cy.edges(".near"),
    held = cy.elements(":active");
  cy.batch(() => {
    fresh.removeClass("new");
    near.removeClass("near");
    held.unactivate();
  });
  if (fresh.nonempty()) {
    placeNow(cy);
    /* the leaders just made have no line until Cytoscape measures them (in its next frame, or asked for their box) */
    cy.edges(".leader").boundingBox({ includeLabels: false });
  }
  try {
    return draw();
  } finally {
    cy.batch(() => {
      fresh.addClass("new");
      near.addClass("near");
    });
    if (fresh.nonempty()) {
      placeNow(cy);
    }
  }
}

/* The elements in the order an export draws them (export-files.js drawOrder). */
function ordered(cy) {
  return drawOrder(zSorted(cy), drawKey);
}

/* The part of the map an export shows, CSS pixels {w, h} from the top left corner of the map's box (``full``: its
   height): all of it, but while a story is presented only down to a little below the lowest paper or title drawn
   (the fit keeps papers out from under the caption and the controls at the map's bottom: an image of all of it would
   end in an empty band). */
export function mapBox(cy) {
  const full = Math.round(cy.height()),
    cover = captionCover(cy);
  let h = full;
  if (cover > 0) {
    const drawn = cy.elements(":visible").renderedBoundingBox({ includeLabels: true, includeOverlays: false });
    h = isFinite(drawn.y2) ? Math.max(1, Math.min(full, Math.ceil(drawn.y2) + 16)) : full - cover;
  }
  return { w: Math.round(cy.width()), h: Math.round(h), full: full };
}

/* The map as it is on screen, ``scale`` times its CSS pixels, as a canvas on white: the whole box (the part mapBox
   says is the top of it), without what the map shows only for the moment. */
export function mapCanvas(cy, scale) {
  const pan = cy.pan(),
    canvas = document.createElement("canvas");
  canvas.width = Math.round(cy.width() * scale);
  canvas.height = Math.round(cy.height() * scale);
  const ctx = canvas.getContext("2d", { alpha: false });
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.translate(pan.x * scale, pan.y * scale);
  ctx.scale(scale * cy.zoom(), scale * cy.zoom());
  steady(cy, () => drawInto(cy, ctx, ordered(cy), false));
  return canvas;
}

/* The map as it is on screen as the text of an SVG document of the size of ``box`` (mapBox) in CSS pixels, on a
   ``bg`` ground, drawn into canvas2svg's stand-in for a canvas's 2D context (``C2S``), which keeps each shape, line
   and label as an SVG element: labels stay text. canvas2svg records only the context's own path calls (so the
   renderer draws without Path2D objects for the while); and it has no setLineDash, so the one given here puts the
   dashes (a truncated paper's border) on each line stroked while they are set, as stroke-dasharray on the element
   canvas2svg has just written (its __currentElement). */
function mapSvg(cy, C2S, bg, box) {
  const W = box.w,
    H = box.h;
  const ctx = new C2S(W, H),
    pan = cy.pan(),
    zoom = cy.zoom();
  let dash = [];
  const stroke = ctx.stroke;
  ctx.setLineDash = (d) => {
    dash = d.slice();
  };
  ctx.stroke = function () {
    stroke.apply(ctx, arguments);
    if (dash.length) {
      ctx.__currentElement.setAttribute("stroke-dasharray", dash.join(","));
    }
  };
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, W, H);
  ctx.translate(pan.x, pan.y);
  ctx.scale(zoom, zoom);
  steady(cy, () => drawInto(cy, ctx, ordered(cy), true));
  return ctx.getSerializedSvg(true);
}

/* The map as it is on screen (mapBox: not what a story's caption covers) with ``meta.title`` above it (" · " parts
   on lines) and its legend below, as a PNG (twice the screen's pixels) or SVG blob: {blob, width, height} (CSS
   pixels). */
export async function mapImage(cy, kind, meta) {
  const E = EXPORT,
    box = mapBox(cy),
    W = box.w,
    H = box.h;
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = "bold 13px " + E.font;
  const lines = titleLines((t) => measure.measureText(t).width, meta.title || "citemap", W - 32);
  measure.font = "12px " + E.font;
  const legend = legendLayout((t) => measure.measureText(t).width, legendOf(cy, meta), 16, W - 32, 1);
  const layout = imageLayout(W, H, lines, legend),
    total = layout.total;
  let blob;
  if (kind === "svg") {
    const C2S = await vendorScript("canvas2svg.js", "C2S");
    blob = new Blob([imageSvg(W, layout, lines, mapSvg(cy, C2S, "#ffffff", box))], { type: "image/svg+xml" });
  } else {
    const map = mapCanvas(cy, 2);
    const canvas = document.createElement("canvas");
    canvas.width = W * 2;
    canvas.height = total * 2;
    const ctx = canvas.getContext("2d");
    ctx.scale(2, 2);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, W, total);
    ctx.drawImage(map, 0, 0, map.width, (map.height * H) / box.full, 0, layout.head, W, H);
    ctx.fillStyle = E.ink;
    ctx.font = "bold 13px " + E.font;
    lines.forEach((line, k) => ctx.fillText(line, 16, 24 + 18 * k));
    ctx.font = "12px " + E.font;
    layout.items.forEach((p) => {
      const it = p.item;
      ctx.fillStyle = it.color || "#9aa3af";
      ctx.beginPath();
      const poly = polygon(it.shape, p.x + 6, p.y, 7);
      if (poly) {
        poly.forEach((q, k) => {
          if (k) {
            ctx.lineTo(q[0], q[1]);
          } else {
            ctx.moveTo(q[0], q[1]);
          }
        });
        ctx.closePath();
      } else if (it.shape === "square") {
        ctx.rect(p.x, p.y - 6, 12, 12);
      } else {
        ctx.arc(p.x + 6, p.y, 6, 0, 2 * Math.PI);
      }
      ctx.fill();
      ctx.fillStyle = E.ink;
      ctx.fillText(it.label, p.x + 18, p.y + 4);
    });
    blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  }
  return { blob: blob, width: W, height: total };
}

/* The Export menu's PNG and SVG: the map's image, named and titled by GET /image-title?<view>. */
async function exportImage(cy, kind) {
  const meta = Object.assign({}, viewMeta());
  try {
    const named = await fetch(prefix() + "image-title" + (meta.query || ""));
    if (named.ok) {
      Object.assign(meta, await named.json());
    }
  } catch {
    /* the image without its title is still the image */
  }
  const image = await mapImage(cy, kind, meta);
  save(image.blob, imageFileName(meta, kind));
}

export function installImageExport() {
  document.addEventListener("click", (event) => {
    const item = event.target && event.target.closest && event.target.closest(".export-menu button");
    if (item) {
      item.closest("details").removeAttribute("open");
    }
    if (item && (item.id === "button-export-png" || item.id === "button-export-svg") && window.cy) {
      exportImage(window.cy, item.id.slice(-3));
    }
  });
}
