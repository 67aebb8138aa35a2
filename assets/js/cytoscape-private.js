/* Every use the page makes of Cytoscape.js and of dash-cytoscape beyond their public API, in one place
   (dash-cytoscape bundles the Cytoscape it runs). An export draws the map as the screen shows it with the canvas
   renderer's own drawing, in an order of its own; two options of that renderer that dash-cytoscape does not pass on
   are set on it; a touch picks its element through the renderer's own search, which the page answers for papers
   (touch.js); and dash-cytoscape's listeners that copy the map into Dash props the page never reads are taken off
   (quietDashCytoscape). ``missing(cy)`` names what the running Cytoscape lacks and ``quieted`` what was taken off:
   tests/browser/test_client_modules.py fails when an upgrade of dash-cytoscape changes either. */

/* the renderer (cy.renderer()) and what the page uses of it */
export const RENDERER_METHODS = ["drawElements", "getCachedZSortedEles", "path2dEnabled", "findNearestElements"];
export const RENDERER_OPTIONS = ["hideEdgesOnViewport", "textureOnViewport"];
/* an element's parsed style (the value the renderer draws with) */
export const ELEMENT_METHODS = ["pstyle"];
/* the core's: its event emitter (what quietDashCytoscape counts) */
export const CORE_METHODS = ["emitter"];

export function missing(cy) {
  const r = typeof cy.renderer === "function" ? cy.renderer() : null;
  if (!r) {
    return ["renderer"];
  }
  const eles = cy.collection();
  return [
    ...RENDERER_METHODS.filter((m) => typeof r[m] !== "function"),
    ...RENDERER_OPTIONS.filter((o) => !(o in r)),
    ...ELEMENT_METHODS.filter((m) => typeof eles[m] !== "function"),
    ...CORE_METHODS.filter((m) => typeof cy[m] !== "function"),
  ];
}

/* While the map is panned or zoomed, Cytoscape hides the edges and moves a texture of the map (a big view). */
export function setViewportShortcuts(cy, on) {
  const r = cy.renderer();
  if (r) {
    r.hideEdgesOnViewport = on;
    r.textureOnViewport = on;
  }
}

/* A touch (a tap, the start of a drag) on model point (x, y) takes the element under it exactly (a paper's body or
   its title), else the paper ``pick(x, y)`` gives (or null), else what the renderer finds within its own touch
   tolerance (the first element in its drawing order: not the nearest). The renderer looks up the element under a
   touch with findNearestElements; the page answers it first. */
export function pickOnTouch(cy, pick) {
  const r = cy.renderer();
  if (!r || r.citemapPick) {
    return;
  }
  const own = r.findNearestElements;
  /* A paper picked near the finger, not under it, is made pannable and ungrabbable until the touch ends: a finger
     that then moves drags the map (as on the background), not the paper; a finger that lifts taps the paper. */
  const eased = [];
  const ease = (node) => {
    if (!node.pannable() || node.grabbable()) {
      eased.push([node, node.pannable(), node.grabbable()]);
      node.panify().ungrabify();
    }
  };
  const restore = () => {
    for (const [node, pannable, grabbable] of eased.splice(0)) {
      if (!pannable) {
        node.unpanify();
      }
      if (grabbable) {
        node.grabify();
      }
    }
  };
  /* added after the renderer's own listeners: runs once the renderer has handled the touch's end */
  window.addEventListener("touchend", restore);
  window.addEventListener("touchcancel", restore);
  r.findNearestElements = function (x, y, interactiveOnly, isTouch) {
    if (isTouch) {
      const exact = own.call(this, x, y, interactiveOnly, false).filter((e) => e.isNode());
      if (exact.length) {
        return exact;
      }
      const node = pick(x, y);
      if (node) {
        ease(node);
        return [node];
      }
    }
    return own.call(this, x, y, interactiveOnly, isTouch);
  };
  r.citemapPick = true;
}

/* The elements in the order the renderer draws them (its cached z-index sort). */
export function zSorted(cy) {
  return Array.prototype.slice.call(cy.renderer().getCachedZSortedEles());
}

/* An element's place in the draw order: [0 for an edge or a node with a manual z-index comparison, else 1; its
   z-index; its id] (export-files.js drawOrder). */
export function drawKey(e) {
  return [e.pstyle("z-index-compare").value === "auto" && e.isNode() ? 1 : 0, e.pstyle("z-index").value, e.id()];
}

/* Draw ``eles`` into the 2D context ``ctx`` (already translated and scaled to the view) as the renderer draws the
   map; ``plainPaths``: with the context's own path calls, not Path2D objects (canvas2svg records only those). */
export function drawInto(cy, ctx, eles, plainPaths) {
  const r = cy.renderer();
  const paths = r.path2dEnabled();
  if (plainPaths) {
    r.path2dEnabled(false);
  }
  try {
    r.drawElements(ctx, eles);
  } finally {
    if (plainPaths) {
      r.path2dEnabled(paths);
    }
  }
}

/* dash-cytoscape listens to the map to keep Dash props in step with it: on every element added or removed (and
   every drag) it serialises all elements into its ``elements`` prop, which then goes through Dash's store and
   React, whose update compares the old and new lists and measures every element's box (each label's text
   included); on every pan or zoom it sends ``extent``; on every selection ``selectedNodeData``. The page reads none
   of them (it draws elements itself: draw.js), and on a big map each serialisation cost more than drawing.
   dash-cytoscape adds these listeners right after it sets window.cy, in the same task: window.cy is made a property
   whose setter, a microtask later, takes off the listeners of those events (Cytoscape's own listeners are on other
   events; the page's are added later). window.cy stays what dash-cytoscape set. */
export const QUIET_EVENTS = "add remove dragfree resize viewport select unselect";
export const quieted = [];
export function quietDashCytoscape() {
  let current = window.cy;
  Object.defineProperty(window, "cy", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (cy) => {
      current = cy;
      if (!cy || typeof cy.off !== "function") {
        return;
      }
      queueMicrotask(() => {
        const events = new Set(QUIET_EVENTS.split(" "));
        const taken = cy.emitter().listeners.filter((l) => events.has(l.event)).length;
        cy.off(QUIET_EVENTS);
        quieted.push(taken);
      });
    },
  });
}
