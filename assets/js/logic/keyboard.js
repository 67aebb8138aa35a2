/* Key handling, as plain decisions: which paper an arrow key goes to on the map, what the map's focus says of a
   paper, which button a zoom key presses, where the arrows go in the search suggestions and in a radio group. Pure
   (map-keys.js, page-keys.js, choices.js and story.js listen to the keys). */

export const DIRECTION = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
export const WORD = { ArrowRight: "right", ArrowLeft: "left", ArrowUp: "up", ArrowDown: "down" };
const ROLE = { seed: "seed", reference: "reference", citer: "citer", similar: "similar paper", onpath: "on a path" };
/* the zoom buttons' keys: + (or =) and - zoom, 0 fits */
export const ZOOM_KEYS = {
  "+": "button-zoom-in",
  "=": "button-zoom-in",
  "-": "button-zoom-out",
  _: "button-zoom-out",
  0: "button-fit",
};

/* The nearest of ``among`` ({id, x, y} each) from ``from`` in the direction of arrow key ``key``: within 45 degrees
   either side (``wide``: 90), scored by the distance ahead plus twice the distance aside; ties to the smaller id;
   null if none. */
export function nearest(from, key, among, wide) {
  const v = DIRECTION[key];
  let best = null,
    bestScore = Infinity;
  among.forEach((n) => {
    if (n.id === from.id) {
      return;
    }
    const dx = n.x - from.x,
      dy = n.y - from.y;
    const along = dx * v[0] + dy * v[1],
      across = Math.abs(dx * v[1] - dy * v[0]);
    if (along <= 0 || (!wide && across > along)) {
      return;
    }
    const score = along + 2 * across;
    if (score < bestScore || (score === bestScore && n.id < best.id)) {
      bestScore = score;
      best = n;
    }
  });
  return best;
}

/* What the map's focus says of a paper: its title, year, role, state, counts and links. ``d``: its data;
   ``state``: {selected, expanded, links (papers linked to it in view), source (whose its citation count is)}. */
export function describePaper(d, state) {
  const role = ROLE[d.role] || "paper";
  const counts =
    Number(d.in_cited || 0).toLocaleString("en") +
    " citing in this dataset" +
    (d.cited_by === null || d.cited_by === undefined
      ? ""
      : ", " + Number(d.cited_by).toLocaleString("en") + " according to " + state.source);
  const how = state.selected ? ", selected" : state.expanded ? ", expanded" : "";
  const links = state.links;
  return (
    d.title +
    ", " +
    (d.year === null || d.year === undefined ? "year unknown" : d.year) +
    ", " +
    role +
    how +
    ", " +
    counts +
    ", linked to " +
    links +
    " paper" +
    (links === 1 ? "" : "s") +
    " in view" +
    (d.lib ? ", in your library" : "")
  );
}

/* What a key pressed on the map does (modifiers: {shift, alt}): {move: arrow key, along: along a citation},
   {select: true} (Enter, Space), {press: a zoom button's id}, or null. */
export function mapKeyAction(key, mods) {
  if (mods.alt) {
    return null;
  }
  if (DIRECTION[key]) {
    return { move: key, along: !!mods.shift };
  }
  if (key === "Enter" || key === " ") {
    return { select: true };
  }
  if (ZOOM_KEYS[key]) {
    return { press: ZOOM_KEYS[key] };
  }
  return null;
}

/* The search suggestions from the keyboard: where ArrowDown or ArrowUp goes from suggestion ``i`` of ``n`` (-1: the
   search box): the index of the suggestion, -1 for the box, or null (the key is not theirs). */
export function suggestionTarget(key, i, n) {
  if (i === -1) {
    return key === "ArrowDown" ? 0 : null;
  }
  if (key === "ArrowDown") {
    return Math.min(i + 1, n - 1);
  }
  return i === 0 ? -1 : i - 1;
}

/* A radio group's arrow keys: the option after (Right, Down) or before (Left, Up) option ``i`` of ``n``, round the
   ends; null for another key. */
const RADIO_STEP = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
export function radioTarget(key, i, n) {
  const step = RADIO_STEP[key];
  return step ? (i + step + n) % n : null;
}
