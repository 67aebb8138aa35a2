/* A timeline's shape and its ticks (the payload's axis: year ticks "yNNNN" under the papers, citer ticks "cN" left
   of them and their unit "cunit"). Pure. */

import { overlaps } from "./text-boxes.js";

/* A timeline drawn to the map's shape. The server lays it out 3.5 times as wide as high (dashboard/graph/layouts.py),
   a wide screen's shape; in a map about as high as wide, or higher (a laptop's side panels, a phone), it was a strip.
   Its heights (citers, log scale) are stretched so that the papers span about as much of the map's height as of its
   width: TIMELINE_FILL of the height the map's shape gives them, no less high than the server made them. Stretching
   only moves papers apart (their sizes stay), so no two come to overlap. The citer ticks stretch with them; the year
   ticks stay below the lowest paper. ``ys`` and ``axis`` are changed in place; ``box``: {width, height} of the map
   on screen and modelWidth, the papers' span. Returns the factor (1: as the server made it). */
export const TIMELINE_FILL = 0.8;
export function stretchTimeline(ys, axis, box) {
  let lo = Infinity,
    hi = -Infinity,
    i;
  for (i = 0; i < ys.length; i++) {
    if (ys[i] < lo) {
      lo = ys[i];
    }
    if (ys[i] > hi) {
      hi = ys[i];
    }
  }
  if (!box || !box.width || !box.height || !(hi > lo) || !box.modelWidth) {
    return 1;
  }
  const k = Math.min(8, Math.max(1, (TIMELINE_FILL * (box.height / box.width) * box.modelWidth) / (hi - lo)));
  if (k === 1) {
    return 1;
  }
  for (i = 0; i < ys.length; i++) {
    ys[i] *= k;
  }
  axis.forEach((ax) => {
    /* the year row (ids "y...", and the unit "cunit") stays as far below the lowest paper */
    ax.y = ax.id.charAt(0) === "y" || ax.id === "cunit" ? ax.y - hi + hi * k : ax.y * k;
  });
  return k;
}

/* The box of a tick label drawn at ``px`` px on screen at zoom ``z`` (model coordinates): a citer tick's (``c``)
   ends 6 px left of its place, a year's is centred on it. A tick: {label, x, y, c}. */
export function tickBox(tick, z, px, textWidth) {
  const f = px / z,
    w = (textWidth(tick.label || "", true) * f) / 100;
  const x1 = tick.c ? tick.x - 6 / z - w : tick.x - w / 2;
  return { x1: x1 - 2 / z, x2: x1 + w + 2 / z, y1: tick.y - f * 0.6, y2: tick.y + f * 0.6 };
}

/* Which year ticks to leave out at this zoom: all but every second, fifth, ... year when they would touch (at a
   phone's zoom a year is a few pixels wide), and those over the unit "citing" (``unit``, or null) or cut by the map's
   edge (``ext``). ``years``: the year ticks; returns a Map tick -> left out. */
export function thinnedYears(years, unit, z, px, ext, textWidth) {
  const out = new Map();
  const sorted = years.slice().sort((a, b) => a.x - b.x);
  if (sorted.length < 2) {
    return out;
  }
  const gap = (sorted[1].x - sorted[0].x) * z;
  let widest = 0;
  sorted.forEach((t) => {
    widest = Math.max(widest, (textWidth(t.label || "", true) * px) / 100);
  });
  const every = [1, 2, 5, 10, 20, 50].find((k) => k * gap >= widest + 8) || 100;
  const corner = unit ? tickBox(unit, z, px, textWidth) : null;
  sorted.forEach((t, i) => {
    const b = tickBox(t, z, px, textWidth); /* not over "citing", not cut by the map's edge */
    out.set(t, i % every !== 0 || (corner !== null && overlaps(b, corner)) || b.x1 < ext.x1 || b.x2 > ext.x2);
  });
  return out;
}
