/* The graph payload (GET /graph, dashboard/view/payload.py) as Cytoscape elements: papers (their label, size, colour,
   classes, place), a timeline's ticks, citations or similarity links. Pure. */

import { nodeColour } from "./colour-key.js";
import { stretchTimeline } from "./timeline.js";

/* A node label: the title on one line (labels.js wraps and cuts it to the room it has). */
export function label(title) {
  return String(title || "")
    .replace(/\s+/g, " ")
    .trim();
}

/* A paper's size the layouts make room for, model units, by its citers in the dataset; seeds at least SEED_SIZE (the
   same rule as node_radius in dashboard/graph/layouts.py, which keeps such papers from overlapping). */
export const SEED_SIZE = 28;
export function nodeSize(inCited, seed) {
  const size = Math.round((9 + 4 * Math.log10(1 + Math.max(inCited, 0))) * 10) / 10;
  return seed ? Math.max(size, SEED_SIZE) : size;
}

/* The size a paper is drawn at if it has room, by its citers: a steeper scale than nodeSize's, so that the order of
   citers reads from the sizes (a paper with 4,000 citers more than twice as large as one with 200). */
export function wantedSize(inCited, seed) {
  const size = Math.round((8 + Math.pow(Math.max(inCited, 0), 0.4)) * 10) / 10;
  return seed ? Math.max(size, SEED_SIZE) : size;
}

/* Room kept between two papers' drawn bodies, model units (their borders, up to the selected paper's, included). */
export const BODY_GAP = 6;

/* The drawn sizes of papers at (xs[i], ys[i]) with ``cites[i]`` citers (``seeds[i]``: a seed): wantedSize where
   there is room, never so large that two bodies come nearer than BODY_GAP. The layouts keep nodeSize's bodies
   apart, so a paper may grow by the room left between its nodeSize and a neighbour's: all of it towards a paper
   that does not grow, half of it towards one that grows too. A paper smaller than its nodeSize takes less room, and
   no paper is drawn smaller than either size allows. */
export function drawnSizes(xs, ys, cites, seeds) {
  const n = xs.length,
    base = new Array(n),
    want = new Array(n),
    out = new Array(n);
  let reach = 0,
    i;
  for (i = 0; i < n; i++) {
    base[i] = nodeSize(cites[i], seeds[i]) / 2;
    want[i] = wantedSize(cites[i], seeds[i]) / 2;
    out[i] = Math.min(base[i], want[i]) * 2;
    reach = Math.max(reach, base[i], want[i]);
  }
  const cell = 2 * reach + BODY_GAP,
    grid = new Map(),
    key = (gx, gy) => gx * 1048576 + gy;
  for (i = 0; i < n; i++) {
    const k = key(Math.floor(xs[i] / cell), Math.floor(ys[i] / cell));
    let list = grid.get(k);
    if (!list) {
      list = [];
      grid.set(k, list);
    }
    list.push(i);
  }
  for (i = 0; i < n; i++) {
    if (want[i] <= base[i]) {
      continue;
    }
    let r = want[i];
    const gx = Math.floor(xs[i] / cell),
      gy = Math.floor(ys[i] / cell);
    for (let ax = gx - 1; ax <= gx + 1; ax++) {
      for (let ay = gy - 1; ay <= gy + 1; ay++) {
        const list = grid.get(key(ax, ay)) || [];
        for (let q = 0; q < list.length; q++) {
          const j = list[q];
          if (j === i) {
            continue;
          }
          const d = Math.hypot(xs[i] - xs[j], ys[i] - ys[j]);
          const room = want[j] > base[j] ? base[i] + (d - base[i] - base[j] - BODY_GAP) / 2 : d - out[j] / 2 - BODY_GAP;
          r = Math.min(r, room);
        }
      }
    }
    out[i] = Math.max(base[i] * 2, Math.floor(r * 20) / 10); /* rounded down: never nearer than the room */
  }
  return out;
}

/* Papers from which a view is big: fainter edges without arrows (dashboard/web/layout.py, edge.big), and Cytoscape
   hides edges and draws a texture while the map is panned or zoomed. At that size a fitted map's arrowheads are a
   pixel or two, and drawing them was a good part of each frame. */
export const BIG_VIEW = 1000;

/* Where to draw the papers of a new force-layout view: a paper already on the map stays where it is drawn (also
   where the visitor dragged it); a new one goes where the server put it, moved as the paper it links to that was
   already on the map moved (the server's places differ from the drawn ones only after a change it does not place
   step by step: removing a seed, collapsing, more of one seed among several; see dashboard/graph/force_layout.py).
   Timeline and concentric places mean something (date, rank): they are the server's. ``before``: the ids on the
   map (null on a first drawing), ``previousLayout``: the layout of the view drawn before, ``positionOf(id)``: where
   a paper is drawn ({x, y}, or null), or null when there is no map. Returns [xs, ys]. */
export function keepPlaces(p, nodes, before, previousLayout, positionOf) {
  const xs = p.x.slice(),
    ys = p.y.slice(),
    n = nodes.length;
  let i;
  const same = p.layout === "force" && previousLayout === "force";
  if (!same || before === null || !positionOf) {
    return [xs, ys];
  }
  const dx = new Array(n),
    dy = new Array(n);
  let kept = 0,
    sx = 0,
    sy = 0;
  for (i = 0; i < n; i++) {
    const at = before.has(nodes[i].id) ? positionOf(nodes[i].id) : null;
    if (at) {
      dx[i] = at.x - xs[i];
      dy[i] = at.y - ys[i];
      xs[i] = at.x;
      ys[i] = at.y;
      kept++;
      sx += dx[i];
      sy += dy[i];
    } else {
      dx[i] = null;
    }
  }
  if (!kept || (sx === 0 && sy === 0 && dx.every((d) => d === null || d === 0))) {
    return [xs, ys];
  }
  const shift = new Array(n),
    src = p.edges.source,
    dst = p.edges.target;
  for (let k = 0; k < src.length; k++) {
    /* a new paper moves with a kept paper it links to */
    const a = src[k],
      b = dst[k];
    if (dx[a] === null && dx[b] !== null && shift[a] === undefined) {
      shift[a] = b;
    }
    if (dx[b] === null && dx[a] !== null && shift[b] === undefined) {
      shift[b] = a;
    }
  }
  for (i = 0; i < n; i++) {
    if (dx[i] !== null) {
      continue;
    }
    const j = shift[i];
    xs[i] += j === undefined ? sx / kept : dx[j];
    ys[i] += j === undefined ? sy / kept : dy[j];
  }
  return [xs, ys];
}

const ROLE = { s: "seed", r: "reference", c: "citer", x: "selected", m: "similar", p: "onpath" };

/* The elements of payload ``p`` (parsed). ``opts``: library ({ids: [...]} or null), libraryFilter ("all" | "in" |
   "out": seeds always show), before (the ids of the papers on the map, null on a first drawing: the others are
   "new", a dotted ring until the next action), previousLayout and positionOf (keepPlaces), mapBox ({width, height}
   of the map on screen, or null: a timeline is drawn to its shape). Returns {elements, query (the view drawn),
   count (what the page says of the library), shown (the ids of the papers, the next drawing's ``before``)}. */
export function elementsFrom(p, opts) {
  const out = [];
  let i, k;
  let lib = null,
    inLib = 0;
  if (opts.library && Array.isArray(opts.library.ids)) {
    lib = new Set(opts.library.ids);
  }
  const before = opts.before || null,
    now = new Set(),
    libraryFilter = opts.libraryFilter;
  const nodes = p.nodes.map((a) => {
    /* arrays of p.fields -> objects */
    const o = {};
    for (k = 0; k < p.fields.length; k++) {
      o[p.fields[k]] = a[k];
    }
    return o;
  });
  const flags = new Array(nodes.length);
  function mark(list, bit) {
    for (k = 0; k < list.length; k++) {
      flags[list[k]] |= bit;
    }
  }
  for (i = 0; i < nodes.length; i++) {
    flags[i] = 0;
  }
  mark(p.expanded, 1);
  mark(p.truncated, 8);
  mark(p.dimmed || [], 32);
  mark(p.seeds, 16);
  const sel = p.selected,
    tail = p.layout === "timeline" ? " tl" : "";
  const xy = keepPlaces(p, nodes, before, opts.previousLayout, opts.positionOf);
  if (p.layout === "timeline") {
    const r = opts.mapBox || null;
    const xlo = Math.min.apply(null, xy[0].length ? xy[0] : [0]),
      xhi = Math.max.apply(null, xy[0].length ? xy[0] : [0]);
    stretchTimeline(xy[1], p.axis, r && { width: r.width, height: r.height, modelWidth: xhi - xlo });
  }
  const sizes = drawnSizes(
    xy[0],
    xy[1],
    nodes.map((n) => n.in_cited),
    flags.map((f) => (f & 16) !== 0),
  );
  for (i = 0; i < nodes.length; i++) {
    const n = nodes[i],
      role = ROLE[p.role[i]];
    let f = flags[i];
    if (n.id === sel) {
      f |= 2;
    }
    const mine = lib !== null && lib.has(n.id);
    if (mine) {
      inLib++;
    }
    const hide =
      lib !== null &&
      role !== "seed" &&
      n.id !== sel &&
      ((libraryFilter === "in" && !mine) || (libraryFilter === "out" && mine));
    const classes =
      "paper " +
      role +
      (f & 1 ? " expanded" : "") +
      (f & 2 ? " selected" : "") +
      (f & 8 ? " truncated" : "") +
      (f & 32 ? " dimmed" : "") +
      (mine ? " lib" : "") +
      (hide ? " lib-hidden" : "") +
      (before !== null && !before.has(n.id) ? " new" : "") +
      tail;
    now.add(n.id);
    out.push({
      data: {
        id: n.id,
        label: label(n.title),
        title: n.title,
        year: n.year,
        areas: n.areas,
        in_cited: n.in_cited,
        cited_by: n.cited_by,
        authors: n.authors,
        color: nodeColour(p, n, i),
        size: sizes[i],
        role: role,
        lib: mine,
      },
      position: { x: xy[0][i], y: xy[1][i] },
      classes: classes,
    });
  }
  for (i = 0; i < p.axis.length; i++) {
    const ax = p.axis[i];
    out.push({
      data: { id: "axis-" + ax.id, label: ax.label },
      position: { x: ax.x, y: ax.y },
      classes: ax.id.charAt(0) === "c" ? "axis axis-c" : "axis",
      selectable: false,
      grabbable: false,
    });
  }
  const src = p.edges.source,
    dst = p.edges.target,
    big = nodes.length >= BIG_VIEW ? " big" : "";
  const kind = p.edges.kind || "citations",
    weight = p.edges.weight,
    why = p.edges.why;
  const strongest = weight && weight.length ? Math.max.apply(null, weight) || 1 : 1;
  for (i = 0; i < src.length; i++) {
    const s = nodes[src[i]].id,
      t = nodes[dst[i]].id;
    if (kind === "similar") {
      /* a similarity link: no direction; its width and its reason from the server */
      out.push({
        data: {
          id: s + "~" + t,
          source: s,
          target: t,
          width: 1 + 7 * (weight ? weight[i] / strongest : 0.2),
          why: why ? why[i] : "",
          ends: nodes[src[i]].title + " · " + nodes[dst[i]].title,
        },
        classes: "similar" + (s === sel || t === sel ? " touching" : ""),
      });
      continue;
    }
    out.push({
      data: { id: s + ">" + t, source: s, target: t },
      classes: "cites" + big + (kind === "path" ? " onpath" : "") + (s === sel || t === sel ? " touching" : ""),
    });
  }
  const count =
    lib === null
      ? ""
      : "in your library: " +
        inLib.toLocaleString("en") +
        " of " +
        nodes.length.toLocaleString("en") +
        " papers in view";
  return { elements: out, query: p.query, count: count, shown: now };
}
