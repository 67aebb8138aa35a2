/* Where the map's camera goes, as numbers: the box a view's papers fill, the room kept around it on screen, the zoom
   and pan that show it, a story step's camera. Pure (viewport.js applies them to Cytoscape). */

/* A view of at most FEW papers: room at the sides for the titles centred under the outermost ones. */
export const FEW = 12;

/* The box the papers of ``elements`` fill (from their places and sizes: nothing styled yet) and the room to keep
   around it (see roomFor): {bb: {x1, y1, w, h}, spec}; null without papers. A timeline's ticks are in the box, and
   its widest citer tick label sets the room at the left. */
export function placesBox(elements) {
  let x1 = Infinity,
    y1 = Infinity,
    x2 = -Infinity,
    y2 = -Infinity;
  elements.forEach((el) => {
    if (!el.position || (el.classes || "").indexOf("lib-hidden") >= 0) {
      return;
    }
    const h = (el.data.size || 0) / 2,
      p = el.position;
    if (p.x - h < x1) {
      x1 = p.x - h;
    }
    if (p.x + h > x2) {
      x2 = p.x + h;
    }
    if (p.y - h < y1) {
      y1 = p.y - h;
    }
    if (p.y + h > y2) {
      y2 = p.y + h;
    }
  });
  if (x1 === Infinity) {
    return null;
  }
  const bb = { x1: x1, y1: y1, w: x2 - x1, h: y2 - y1 };
  const axis = elements.filter((el) => (el.classes || "").indexOf("axis") >= 0);
  if (axis.length) {
    const widest =
      axis
        .filter((el) => el.data.id.indexOf("axis-c") === 0)
        .map((el) => el.data.label)
        .sort((a, b) => b.length - a.length)[0] || "";
    return { bb: bb, spec: { axis: widest } };
  }
  const few = elements.filter((el) => el.position).length <= FEW;
  return { bb: bb, spec: few ? { left: 110, right: 110 } : undefined };
}

/* The room around a fitted map, px on screen: ``spec`` {left, right, top, bottom} (40 each unless given), or {axis:
   text} for a timeline whose widest citer tick label is ``text`` (those labels end at their place, left of the
   papers; the year ticks are centred under the papers; all at ``tickPx``, ``textWidth`` their width at 100 px).
   ``cover``: how much of the map's bottom a presented story's caption covers (no paper, no tick sits behind it). */
export function roomFor(spec, tickPx, textWidth, cover) {
  spec = spec || {};
  const room = { left: spec.left || 40, right: spec.right || 40, top: spec.top || 40, bottom: spec.bottom || 40 };
  if (spec.axis !== undefined) {
    const wide = (textWidth(String(spec.axis), true) * tickPx) / 100;
    room.left = 10 + wide; /* the label, its margin, a little air */
    room.right = 16;
    room.top = 24;
    room.bottom = (56 * tickPx) / 15; /* measured for 15 px ticks */
  }
  room.bottom += cover;
  return room;
}

/* The zoom and pan that show box ``bb`` (model coordinates) with ``room`` around it in a map ``width`` x ``height``
   px, the zoom within [minZoom, maxZoom]; null for an empty box. */
export function viewFor(bb, room, width, height, minZoom, maxZoom) {
  if (!bb.w && !bb.h) {
    return null;
  }
  const w = width - room.left - room.right,
    h = height - room.top - room.bottom;
  let z = Math.min(Math.max(w, 40) / Math.max(bb.w, 1), Math.max(h, 40) / Math.max(bb.h, 1));
  z = Math.max(minZoom, Math.min(maxZoom, z));
  return {
    zoom: z,
    pan: { x: room.left + w / 2 - z * (bb.x1 + bb.w / 2), y: room.top + h / 2 - z * (bb.y1 + bb.h / 2) },
  };
}

/* Whether the camera (zoom, pan) is still where a fit put it (``fitted``: {zoom, x, y}, or null). */
export function atFit(fitted, zoom, pan) {
  return (
    !!fitted &&
    Math.abs(zoom - fitted.zoom) < 1e-6 * fitted.zoom &&
    Math.abs(pan.x - fitted.x) < 0.5 &&
    Math.abs(pan.y - fitted.y) < 0.5
  );
}

/* Whether the visitor has not moved the map since it was fitted (a stricter atFit: a resize fits it again). */
export function untouched(fitted, zoom, pan) {
  return (
    !!fitted &&
    Math.abs(zoom - fitted.zoom) < 1e-9 &&
    Math.abs(pan.x - fitted.x) < 1e-6 &&
    Math.abs(pan.y - fitted.y) < 1e-6
  );
}

/* The camera as a story step writes it (dashboard/view/stories.py): the zoom (within [0.05, 4]) and the model point
   at the centre of a map ``width`` x ``height`` px. */
export function cameraOf(zoom, pan, width, height) {
  const round = (v, k) => Math.round(v * k) / k;
  return {
    zoom: round(Math.max(0.05, Math.min(4, zoom)), 1e4),
    x: round((width / 2 - pan.x) / zoom, 100),
    y: round((height / 2 - pan.y) / zoom, 100),
  };
}

/* The zoom and pan of a step's camera {zoom, x, y}: the zoom centred on the model point. */
export function cameraView(cam, width, height, minZoom, maxZoom) {
  const z = Math.max(minZoom, Math.min(maxZoom, cam.zoom));
  return { zoom: z, pan: { x: width / 2 - z * cam.x, y: height / 2 - z * cam.y } };
}

/* Whether a new drawing keeps the camera where the visitor left it: a click (an expand, a collapse, a selection)
   keeps the zoom and the centre. A first drawing, a map of another kind or layout (its places are new: only the
   force layout keeps papers where they were drawn), a story's step and presenting are fitted; so is a map none of
   whose papers would be on screen. ``before``/``now``: {layout, kind} of the last map and of the new one (``before``
   null on a first drawing); ``elements``: the new map's; ``ext``: the viewport, model coordinates. */
export function keepsCamera(before, now, story, elements, ext) {
  if (!before || story || before.layout !== "force" || now.layout !== "force" || before.kind !== now.kind) {
    return false;
  }
  return elements.some(
    (el) =>
      el.position &&
      el.data.source === undefined &&
      (el.classes || "").indexOf("lib-hidden") < 0 &&
      el.position.x >= ext.x1 &&
      el.position.x <= ext.x2 &&
      el.position.y >= ext.y1 &&
      el.position.y <= ext.y2,
  );
}

/* Room on screen around the selected paper that a kept camera keeps in view, px: its title goes beside it. */
export const SELECTION_ROOM = { x: 90, y: 45 };

/* The pan that shows model point ``at`` (the selected paper) at ``room`` px ({x, y}, at most a third of the map) from
   the edges of a map ``width`` x ``height`` px at ``zoom``, moving ``pan`` as little as needed: unchanged when it is
   already there. */
export function panToShow(pan, zoom, width, height, at, room) {
  const mx = Math.min(room.x, width / 3),
    my = Math.min(room.y, height / 3);
  const sx = at.x * zoom + pan.x,
    sy = at.y * zoom + pan.y;
  const dx = sx < mx ? mx - sx : sx > width - mx ? width - mx - sx : 0;
  const dy = sy < my ? my - sy : sy > height - my ? height - my - sy : 0;
  return { x: pan.x + dx, y: pan.y + dy };
}
