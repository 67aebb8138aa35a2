/* The colour key: a paper's colour from the payload's palette (by area, year or cluster: dashboard/view/colour_key.py
   makes the palette), an area's name as the page names it, and the legend of an image of the map (its entries, their
   places in rows, the shapes of its keys). Pure. */

/* An area as the page names it: ``names`` (the payload's palette.area_names, dashboard/view/naming.py area_labels)
   names each of the dataset's areas ("Machine learning (cs.LG)"); an area it lacks keeps its stored name, and papers
   without one (stored as "unknown") are named NO_AREA. */
export function areaLabel(area, names) {
  if (names && names[area]) {
    return names[area];
  }
  return area === "unknown" ? "no area given" : area;
}

/* The colour of paper ``n`` (row ``i`` of payload ``p``) on the map. */
export function nodeColour(p, n, i) {
  const pal = p.palette;
  if (p.color === "year") {
    return n.year === null ? pal.unknown : pal.year[n.year - pal.year0] || pal.unknown;
  }
  if (p.color === "cluster") {
    return (pal.cluster || [])[p.cluster[i]] || pal.unknown;
  }
  return pal.area[n.areas[0]] || pal.unknown;
}

/* The legend of an image of the map: the shapes, then the colours. ``meta``: the view's {color, palette};
   ``shown``: {similar, onpath (whether such papers are in view), colours (a Set of the colours of the papers in
   view)}. For areas, as the page's legend (dashboard/view/colour_key.py): one entry a colour in view, in the
   palette's order; the areas beyond the palette share one colour, "other areas". Each {label, shape} or {label,
   color}. */
export function legendItems(meta, shown) {
  const items = [
    { label: "seed", shape: "star" },
    { label: "builds on (reference)", shape: "square" },
    { label: "built on by (citer)", shape: "circle" },
  ];
  const pal = meta.palette || {};
  if (shown.similar) {
    items.push({ label: "similar", shape: "diamond" });
  }
  if (shown.onpath) {
    items.push({ label: "on a path", shape: "hexagon" });
  }
  if (meta.color === "cluster" && pal.cluster) {
    (pal.cluster_names || []).forEach((name, k) => {
      items.push({ label: name, color: pal.cluster[k] });
    });
  } else if (meta.color === "year" && pal.year && pal.year.length) {
    const n = pal.year.length,
      step = Math.max(1, Math.ceil(n / 6));
    for (let k = 0; k < n; k += step) {
      items.push({ label: String(pal.year0 + k), color: pal.year[k] });
    }
    if ((n - 1) % step) {
      items.push({ label: String(pal.year0 + n - 1), color: pal.year[n - 1] });
    }
  } else {
    const colours = new Set(shown.colours),
      shared = new Map();
    Object.keys(pal.area || {}).forEach((a) => {
      shared.set(pal.area[a], (shared.get(pal.area[a]) || 0) + 1);
    });
    Object.keys(pal.area || {}).forEach((a) => {
      const c = pal.area[a];
      if (!colours.has(c)) {
        return;
      }
      colours.delete(c);
      items.push({ label: shared.get(c) > 1 ? "other areas" : areaLabel(a, pal.area_names), color: c });
    });
  }
  return items;
}

/* The legend's entries left to right, wrapped at ``width``: [{item, x, row}]; ``textWidth``: a label's width,
   ``unit``: the size of the image's CSS pixel (the key and the gaps around it scale with it). */
export function legendLayout(textWidth, items, x0, width, unit) {
  let x = x0,
    row = 0;
  const out = [];
  items.forEach((it) => {
    const w = 34 * unit + textWidth(it.label);
    if (x > x0 && x + w > x0 + width) {
      x = x0;
      row += 1;
    }
    out.push({ item: it, x: x, row: row });
    x += w;
  });
  return out;
}

/* A legend key's outline as points around (x, y), r from the centre to a corner: the map's star, diamond (similar)
   and hexagon (on a path); null for the shapes drawn as a square or a circle. */
export function polygon(shape, x, y, r) {
  if (shape === "star") {
    return star(x, y, r);
  }
  const sides = { diamond: 4, hexagon: 6 }[shape];
  if (!sides) {
    return null;
  }
  const out = [];
  for (let k = 0; k < sides; k++) {
    const a = (sides === 4 ? -Math.PI / 2 : 0) + (2 * Math.PI * k) / sides;
    out.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
  }
  return out;
}
function star(x, y, r) {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5,
      rr = k % 2 ? r * 0.45 : r;
    pts.push([x + rr * Math.cos(a), y + rr * Math.sin(a)]);
  }
  return pts;
}
