/* The map's titles in Cytoscape: after every change of the elements, of their classes (a paper selected, from
   wherever it was chosen; the library's filter), of the zoom or of the pan, the papers are read from the map, their
   titles placed (title-placement.js) and drawn: node class "lbl" = a title drawn beside its paper, its text in data
   "wrapped", its side and size as node styles; node "callout" and edge "leader" = a title set apart, joined to its
   paper by a thin line. Cytoscape's own boxes have the last word: a title whose drawn box still overlaps is taken
   back. A timeline's ticks keep one size on screen and are thinned where they would touch. */

import { hasMapFocus } from "./map-focus.js";
import { onEachCy, presenting, screenPx, tickPx } from "./page.js";
import { overlaps } from "./logic/text-boxes.js";
import { textWidth, wrap } from "./text-measure.js";
import { thinnedYears, tickBox } from "./logic/timeline.js";
import { SIDE_STYLE, placeTitles } from "./logic/title-placement.js";

/* How many placings have run (a placing follows each change of the map, its zoom or its pan). */
export let placings = 0;

/* 0: the selected paper or the one the keyboard is on, 1: a seed (a path's two ends are its seeds), 2: the rest
   (title-placement.js then goes by citers) */
function rank(n) {
  if (n.hasClass("selected") || hasMapFocus(n.id())) {
    return 0;
  }
  return n.hasClass("seed") ? 1 : 2;
}

/* How far a ring drawn round a paper reaches beyond its body (the mark of a paper the last action added, the
   keyboard's focus): Cytoscape counts it in the paper's box but not in its outer width. */
function ring(n) {
  const w = n.pstyle("outline-width").pfValue;
  return w > 0 && n.pstyle("outline-opacity").value > 0 ? w + n.pstyle("outline-offset").pfValue : 0;
}

/* The shown papers as title-placement.js takes them, each read once a placing (Cytoscape computes an outer width
   from the style each time it is asked), and the nodes by id. */
function readPapers(cy) {
  const papers = [],
    nodes = new Map();
  cy.nodes(".paper").forEach((n) => {
    if (n.hasClass("lib-hidden")) {
      return;
    }
    const p = n.position(),
      id = n.id();
    nodes.set(id, n);
    papers.push({
      id: id,
      x: p.x,
      y: p.y,
      r: n.outerWidth() / 2,
      ring: ring(n),
      rank: rank(n),
      cites: n.data("in_cited") || 0,
      label: n.data("label"),
      bold: n.hasClass("seed") || n.hasClass("selected"),
      tl: n.hasClass("tl"),
    });
  });
  return { papers: papers, nodes: nodes };
}

function tickOf(n) {
  const p = n.position();
  return { label: n.data("label"), x: p.x, y: p.y, c: n.hasClass("axis-c"), node: n };
}

/* What lies over the map (its zoom buttons, the legend while presenting), as boxes in model coordinates: no title
   goes under them. */
function overlays(cy) {
  const box = cy.container() && cy.container().getBoundingClientRect(),
    z = cy.zoom() || 1,
    pan = cy.pan(),
    out = [];
  if (!box) {
    return out;
  }
  document.querySelectorAll(".zoom-controls, .map-legend").forEach((el) => {
    const r = el.getBoundingClientRect(); /* hidden: no box */
    if (!r.width) {
      return;
    }
    out.push({
      x1: (r.left - box.left - pan.x) / z,
      x2: (r.right - box.left - pan.x) / z,
      y1: (r.top - box.top - pan.y) / z,
      y2: (r.bottom - box.top - pan.y) / z,
    });
  });
  return out;
}

/* A timeline's ticks have one size on screen (tickPx) whatever the zoom; the year ticks are thinned where they would
   touch (timeline.js thinnedYears). */
function thinTicks(cy) {
  const z = cy.zoom() || 1,
    px = tickPx(),
    ticks = cy.nodes(".axis");
  ticks.style({ "font-size": px / z });
  ticks.filter(".axis-c").style({ "text-margin-x": -6 / z }); /* tickBox: 6 px left of its place */
  const years = ticks.filter((n) => n.id().indexOf("axis-y") === 0).map(tickOf);
  const unit = ticks.filter((n) => n.id() === "axis-cunit");
  const thin = thinnedYears(years, unit.nonempty() ? tickOf(unit[0]) : null, z, px, cy.extent(), textWidth);
  thin.forEach((out, t) => {
    if (out !== t.node.hasClass("axis-thinned")) {
      t.node.toggleClass("axis-thinned", out);
    }
  });
}

/* Callouts are elements of their own: a node "callout" holding the title (no body) and an edge "leader" from the
   paper to it, made again on every placing (none when the title fits beside its paper). */
function drawCallouts(cy, list, nodes, kept, body, ext) {
  const opts = { includeLabels: true, includeNodes: false, includeOverlays: false },
    z = cy.zoom() || 1,
    made = [];
  cy.batch(() => {
    cy.remove(cy.elements(".callout, .leader"));
    list.forEach((c) => {
      const g = c[0],
        b = c[1],
        id = "callout:" + g.id;
      const node = cy.add({
        group: "nodes",
        data: { id: id, wrapped: b.text, of: g.id },
        position: { x: b.x, y: b.y },
        classes: "callout",
        selectable: false,
        grabbable: false,
      });
      node.style({
        "font-size": b.f,
        "text-max-width": b.w,
        "text-background-padding": 2 / z,
        "font-weight": g.bold ? "bold" : "normal",
      });
      made.push([nodes.get(g.id), node]);
    });
  });
  made.forEach((m) => {
    /* Cytoscape's own box has the last word, as for the titles beside their paper */
    const bb = m[1].boundingBox(opts);
    const bad =
      bb.x1 < ext.x1 ||
      bb.x2 > ext.x2 ||
      bb.y1 < ext.y1 ||
      bb.y2 > ext.y2 ||
      body.hits(bb) ||
      kept.some((k) => overlaps(k, bb));
    if (bad) {
      cy.remove(m[1]);
      return;
    }
    kept.push(bb);
    cy.add({
      group: "edges",
      data: { id: "leader:" + m[0].id(), source: m[0].id(), target: m[1].id() },
      classes: "leader",
      selectable: false,
    });
  });
}

function place(cy) {
  const z = cy.zoom() || 1,
    ext = cy.extent(),
    px = tickPx();
  const read = readPapers(cy),
    nodes = read.nodes;
  const obstacles = cy
    .nodes(".axis")
    .not(".axis-thinned")
    .map((n) => tickBox(tickOf(n), z, px, textWidth)); /* ticks first */
  overlays(cy).forEach((b) => obstacles.push(b));
  const view = { z: z, ext: ext, px: screenPx(), lines: presenting() ? 3 : 2, obstacles: obstacles };
  const got = placeTitles(read.papers, view, wrap);
  const chosen = got.chosen.map((c) => [nodes.get(c[0].id), c[1]]),
    keep = new Set();
  cy.batch(() => {
    chosen.forEach((c) => {
      const n = c[0],
        b = c[1],
        side = SIDE_STYLE[b.side];
      keep.add(n.id());
      if (n.data("wrapped") !== b.text) {
        n.data("wrapped", b.text);
      }
      n.style({
        "font-size": b.f,
        "text-max-width": b.w,
        "text-background-padding": 2 / z,
        "text-valign": side["text-valign"],
        "text-halign": side["text-halign"],
        "text-margin-y": side.my / z,
        "text-margin-x": side.mx / z,
      });
      if (!n.hasClass("lbl")) {
        n.addClass("lbl");
      }
    });
    cy.nodes(".lbl").forEach((n) => {
      if (!keep.has(n.id())) {
        n.removeClass("lbl");
      }
    });
    thinTicks(cy);
  });
  /* the estimate is a little generous; Cytoscape's own boxes have the last word, in the same order */
  const ext2 = cy.extent(),
    kept = [],
    opts = { includeLabels: true, includeNodes: false, includeOverlays: false };
  cy.batch(() => {
    chosen.forEach((c) => {
      const bb = c[0].boundingBox(opts);
      const out = bb.x1 < ext2.x1 || bb.x2 > ext2.x2 || bb.y1 < ext2.y1 || bb.y2 > ext2.y2;
      if (out || got.bodies.hits(bb, c[0].id()) || kept.some((k) => overlaps(k, bb))) {
        c[0].removeClass("lbl");
      } else {
        kept.push(bb);
      }
    });
  });
  drawCallouts(cy, got.callouts, nodes, kept, got.bodies, ext2);
  placings += 1;
}

let applying = false; /* the classes and callouts a placing sets are no reason to place again */
/* Place the titles now. */
export function placeNow(cy) {
  applying = true;
  try {
    place(cy);
  } finally {
    applying = false;
  }
}

/* Place the titles after each change of the map (60 ms after the last, in a frame). */
export function installLabels() {
  let pending = null;
  onEachCy((cy) => {
    const schedule = () => {
      if (pending) {
        clearTimeout(pending);
      }
      pending = setTimeout(() => {
        pending = null;
        window.requestAnimationFrame(() => placeNow(cy));
      }, 60);
    };
    cy.on("zoom pan layoutstop", schedule);
    cy.on("add remove", () => {
      if (!applying) {
        schedule();
      }
    });
    cy.on("class", "node.paper", () => {
      if (!applying) {
        schedule();
      }
    });
    window.addEventListener("resize", schedule);
    schedule();
  }, 200);
}
