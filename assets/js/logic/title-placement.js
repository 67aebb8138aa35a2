/* Where the map's titles go, on plain data (labels.js reads the papers from Cytoscape and draws what this chooses).
   Pure.

   Titles never collide and never cover a paper. The papers in the viewport are ranked (0: selected or focused by the
   keyboard, 1: seeds and a path's ends, 2: the rest; then by citers in the dataset: importance, whatever else a
   paper is) and each one's title is wrapped to the forms it may take (two lines, three while presenting; the same
   narrower; one line; see forms). A title is drawn on the first of eight sides of its paper where its box overlaps no
   title placed before it, no other paper's body, no tick label and nothing laid over the map (grids of boxes). The
   papers that matter (ranks 0 and 1) are placed first, then the others among the NOTABLE most cited in view, each
   set apart with a thin line to its paper where there is no room beside it (a callout, as near its paper as there is
   room);
   then the others in turn, beside their paper only. So a paper is left unnamed only where no room is left by the more
   important ones. Titles have one size on screen whatever the zoom.

   A paper: {id, x, y (its centre), r (half its size, border included), ring (how far a ring drawn round it reaches
   beyond that, if any), rank, cites, label, bold (a seed or the selected paper: its title in bold), tl (on a
   timeline: titles prefer its sides)}. */

import { Grid } from "./text-boxes.js";

export const MAX_TRIED = 400; /* titles measured and tried in one placing, at most (a big view has thousands) */
/* how many of the most cited papers in view (those that matter among them count) have their titles set apart where
   there is no room beside them */
export const NOTABLE = 10;
export const SIDES = ["bottom", "top", "right", "left", "bottom-right", "bottom-left", "top-right", "top-left"];
export const TL_SIDES = ["right", "left", "bottom-right", "top-right", "bottom", "top", "bottom-left", "top-left"];
/* Cytoscape's label placement of each side (margins in px on screen, divided by the zoom) */
export const SIDE_STYLE = {
  bottom: { "text-valign": "bottom", "text-halign": "center", mx: 0, my: 4 },
  top: { "text-valign": "top", "text-halign": "center", mx: 0, my: -4 },
  right: { "text-valign": "center", "text-halign": "right", mx: 6, my: 0 },
  left: { "text-valign": "center", "text-halign": "left", mx: -6, my: 0 },
  "bottom-right": { "text-valign": "bottom", "text-halign": "right", mx: 2, my: 2 },
  "bottom-left": { "text-valign": "bottom", "text-halign": "left", mx: -2, my: 2 },
  "top-right": { "text-valign": "top", "text-halign": "right", mx: 2, my: -2 },
  "top-left": { "text-valign": "top", "text-halign": "left", mx: -2, my: -2 },
};

export function sidesOf(paper) {
  return paper.tl ? TL_SIDES : SIDES;
}

/* The forms a paper's title may take at ``px`` px on screen (one more in bold) in at most ``lines`` lines: as many
   lines as there is room for, the same narrower, one line, and for the papers that matter (``short``, by default
   those of rank 0 and 1) a short line. Each {text, w (px on screen), lines, px, bold}. */
export function forms(paper, px, lines, wrap, short) {
  const bold = paper.bold;
  const size = px + (bold ? 1 : 0),
    maxW = size * (paper.tl ? 17 : 15.5);
  const title = paper.label || "",
    out = [wrap(title, bold, size, maxW, lines)];
  if (out[0].lines > 1) {
    /* narrower, then on one line */
    out.push(wrap(title, bold, size, maxW * 0.75, lines), wrap(title, bold, size, maxW, 1));
  }
  if (short === undefined ? paper.rank <= 1 : short) {
    out.push(wrap(title, bold, size, maxW / 2, 1));
  }
  return out.map((f) => ({ text: f.text, w: f.w, lines: f.lines, px: size, bold: bold }));
}

/* The box of a paper's title, in model coordinates, if form ``f`` were drawn at zoom ``z`` on ``side`` of it
   ("bottom", "top", "right", "left", "bottom-right", ...): Cytoscape's box of a label (measured) is the text's box
   and about 3 px more each side, its text-margin-y 2 px nearer the node; this is a little over it each way. Also
   what the label's style needs: f (font size), w (text-max-width), side, text. */
export function box(g, z, side, f) {
  const fz = f.px / z,
    dx = 5 / z,
    dy = 4 / z;
  const w = f.w / z,
    h = fz * (0.15 + f.lines),
    nw = g.r,
    nh = g.r;
  const st = SIDE_STYLE[side],
    my = st.my - Math.sign(st.my) * 2;
  const x1 =
    st["text-halign"] === "center"
      ? g.x - w / 2
      : st["text-halign"] === "right"
        ? g.x + nw + st.mx / z
        : g.x - nw + st.mx / z - w;
  const y1 =
    st["text-valign"] === "center"
      ? g.y - h / 2
      : st["text-valign"] === "bottom"
        ? g.y + nh + my / z
        : g.y - nh + my / z - h;
  return {
    x1: x1 - dx,
    x2: x1 + w + dx,
    y1: y1 - dy,
    y2: y1 + h + dy,
    f: fz,
    w: (f.w + 8) / z,
    side: side,
    text: f.text,
  };
}

/* The papers' bodies near the viewport ``ext``, as boxes (a star or a circle inside its box, with its ring): titles
   keep off them. */
export function bodies(papers, ext, z) {
  const grid = new Grid(32 / z),
    m = 1 / z; /* small cells: a crowd of bodies, few in each */
  papers.forEach((g) => {
    const r = g.r + (g.ring || 0) + 1 + m; /* Cytoscape's body box: 1 unit round the border or the ring */
    if (g.x + r < ext.x1 || g.x - r > ext.x2 || g.y + r < ext.y1 || g.y - r > ext.y2) {
      return;
    }
    grid.add({ x1: g.x - r, x2: g.x + r, y1: g.y - r, y2: g.y + r, id: g.id });
  });
  return grid;
}

/* A paper that matters with no room for its title beside it: the title in the nearest free place around it (rings
   outwards, from below round), else in the band along the edge of the map on its side, top or bottom (the fit leaves
   it free of papers), joined to it by a thin line that crosses no other such line. ``free(box)``: whether a box is
   inside the map and over no title or paper; ``grid``: the titles placed, which it joins; ``out``: the callouts,
   which it joins. ``others``: the other papers that matter; a title set apart near its paper is nearer it than any
   of them, so that it is not read as theirs. */
/* distances from a paper's body tried for its title set apart, in 16 px on screen: nearest first */
const RINGS = [1.5, 2, 2.5, 3, 3.5, 4.25, 5, 6, 7, 8, 9, 10.5, 12, 13.5, 15, 17, 19, 21.5, 24, 27, 30];
/* whether segments ab and cd cross (touching ends aside) */
export function crosses(a, b, c, d) {
  const side = (p, q, r) => Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}
const BAND_ROWS = 4; /* rows of titles in a band along the map's edge */
function reach(p, b) {
  /* distance from point p to box b (0 inside it) */
  const dx = Math.max(b.x1 - p.x, 0, p.x - b.x2),
    dy = Math.max(b.y1 - p.y, 0, p.y - b.y2);
  return Math.hypot(dx, dy);
}
export function callout(g, fs, z, ext, free, grid, out, others) {
  const r0 = g.r,
    padX = 5 / z,
    padY = 4 / z; /* as box() */
  function tryAt(f, cx, cy, band, cross) {
    const w = f.w / z,
      h = (f.px / z) * (0.15 + f.lines);
    const b = {
      x1: cx - w / 2 - padX,
      x2: cx + w / 2 + padX,
      y1: cy - h / 2 - padY,
      y2: cy + h / 2 + padY,
      f: f.px / z,
      w: (f.w + 8) / z,
      text: f.text,
      x: cx,
      y: cy,
      band: band,
    };
    if (!free(b) || (!cross && out.some((o) => crosses(g, b, o[0], o[1])))) {
      return false; /* its own paper's body included; a line crossing another is easily misread */
    }
    const mine = reach(g, b); /* in a band along the edge, far from every paper, the line says whose it is */
    if (!band && (others || []).some((q) => reach(q, b) <= mine)) {
      return false;
    }
    grid.add(b);
    out.push([g, b]);
    return true;
  }
  let k, w, h;
  for (k = 0; k < fs.length; k++) {
    w = fs[k].w / z;
    h = (fs[k].px / z) * (0.15 + fs[k].lines);
    for (let ri = 0; ri < RINGS.length; ri++) {
      const turns = 2 * Math.max(8, Math.ceil((Math.PI * RINGS[ri] * 16) / 24)); /* places about 24 px apart */
      for (let a = 0; a < turns; a++) {
        const t = Math.PI / 2 + ((a % 2 ? 1 : -1) * Math.ceil(a / 2) * 2 * Math.PI) / turns;
        const dx = Math.cos(t),
          dy = Math.sin(t),
          d = r0 + (RINGS[ri] * 16) / z;
        if (tryAt(fs[k], g.x + dx * (d + w / 2), g.y + dy * (d + h / 2))) {
          return true;
        }
      }
    }
  }
  /* the bands: the one-line title first, it fits them best; a line that crosses another only where no other way is;
     the band on the paper's side of the map (a line across the whole map is not read as leading anywhere); on a map
     a quarter taller than wide or more (a phone's), which leaves room for few titles above and below the papers,
     the other side's band where that side's is full */
  const own = g.y < (ext.y1 + ext.y2) / 2,
    tall = ext.y2 - ext.y1 > 1.25 * (ext.x2 - ext.x1);
  for (const top of tall ? [own, !own] : [own]) {
    for (let i = 2 * fs.length - 1; i >= 0; i--) {
      k = i % fs.length;
      const cross = i < fs.length;
      w = fs[k].w / z;
      h = (fs[k].px / z) * (0.15 + fs[k].lines);
      const lo = ext.x1 + w / 2 + 2 * padX,
        hi = ext.x2 - w / 2 - 2 * padX;
      if (lo > hi) {
        continue;
      }
      /* rows from the edge inwards */
      const steps = Math.ceil((2 * (hi - lo)) / w) + 1;
      for (let row = 0; row < BAND_ROWS; row++) {
        const d = h / 2 + 2 * padY + row * (h + 2 * padY),
          y = top ? ext.y1 + d : ext.y2 - d;
        for (let step = 0; step <= steps; step++) {
          /* above or below it, then further along the band */
          const x = Math.min(hi, Math.max(lo, g.x + ((step % 2 ? 1 : -1) * Math.ceil(step / 2) * w) / 2));
          if (tryAt(fs[k], x, y, true, cross)) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

/* The titles of ``papers`` (the papers shown, in the map's order) for the view ``view``: {z (zoom), ext (the
   viewport, model coordinates), px (titles' size on screen), lines (at most), obstacles (boxes no title may cover:
   tick labels, what lies over the map)}; ``wrap``: text-boxes.js makeWrap. Returns {chosen: [[paper, box]] (titles
   beside their paper), callouts: [[paper, box]] (titles set apart; box.band: in a band along the map's edge), bodies
   (the grid of the papers' bodies)}. */
export function placeTitles(papers, view, wrap) {
  const z = view.z,
    ext = view.ext;
  const candidates = papers.filter((g) => g.label && g.x >= ext.x1 && g.x <= ext.x2 && g.y >= ext.y1 && g.y <= ext.y2);
  candidates.sort((a, b) => a.rank - b.rank || b.cites - a.cites || (a.id < b.id ? -1 : 1));
  const grid = new Grid(160 / z),
    body = bodies(papers, ext, z),
    chosen = [],
    callouts = [];
  (view.obstacles || []).forEach((b) => grid.add(b));
  /* whether a title's box is free: inside the map, over no title placed and no paper's body (``id``'s own aside) */
  function free(b, id) {
    return b.x1 >= ext.x1 && b.x2 <= ext.x2 && b.y1 >= ext.y1 && b.y2 <= ext.y2 && !grid.hits(b) && !body.hits(b, id);
  }
  function roomy(g) {
    const least = { w: view.px * 3, lines: 1, px: view.px };
    return sidesOf(g).some((side) => free(box(g, z, side, least), g.id));
  }
  function beside(g, fs) {
    const ss = sidesOf(g);
    for (let k = 0; k < fs.length; k++) {
      for (let o = 0; o < ss.length; o++) {
        const b = box(g, z, ss[o], fs[k]);
        if (!free(b, g.id)) {
          continue;
        }
        grid.add(b);
        chosen.push([g, b]);
        return true;
      }
    }
    return false;
  }
  /* the papers that matter, then the notable ones: first each title beside its paper (so that no title set apart
     takes the place beside another's paper), then one by one, most important first: set apart, else shortened beside
     it, else shortened and set apart (so that a less cited paper's title takes no room a more cited one could have
     had); a title set apart is nearer its paper than any other paper that matters */
  const matter = candidates.filter((g) => g.rank <= 1),
    notable = candidates
      .slice()
      .sort((a, b) => b.cites - a.cites || (a.id < b.id ? -1 : 1))
      .slice(0, NOTABLE)
      .filter((g) => g.rank > 1),
    marked = matter.concat(notable);
  [matter, notable].forEach((group) => {
    const fs = new Map(group.map((g) => [g, forms(g, view.px, view.lines, wrap, true)]));
    group
      .filter((g) => !beside(g, fs.get(g).slice(0, -1)))
      .forEach((g) => {
        const full = fs.get(g).slice(0, -1),
          short = fs.get(g).slice(-1),
          others = matter.filter((m) => m !== g);
        return (
          callout(g, full, z, ext, free, grid, callouts, others) ||
          beside(g, short) ||
          callout(g, short, z, ext, free, grid, callouts, others)
        );
      });
  });
  const done = new Set(marked);
  /* the others, most important first, beside their paper; a paper with no room even for a few characters on any
     side is passed over before its title is measured, and the search stops after MAX_TRIED of them measured */
  let tried = 0;
  for (let i = 0; i < candidates.length && tried < MAX_TRIED; i++) {
    const g = candidates[i];
    if (done.has(g) || !roomy(g)) {
      continue;
    }
    tried += 1;
    beside(g, forms(g, view.px, view.lines, wrap));
  }
  return { chosen: chosen, callouts: callouts, bodies: body };
}
