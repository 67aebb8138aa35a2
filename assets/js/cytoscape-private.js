/* Every use the page makes of Cytoscape.js beyond its public API, in one place (dash-cytoscape bundles the
   Cytoscape it runs). An export draws the map as the screen shows it with the canvas renderer's own drawing, in an
   order of its own; two options of that renderer that dash-cytoscape does not pass on are set on it. ``missing(cy)``
   names what the running Cytoscape lacks: tests/browser/test_client_modules.py fails when an upgrade of
   dash-cytoscape removes any of them. */

/* the renderer (cy.renderer()) and what the page uses of it */
export const RENDERER_METHODS = ["drawElements", "getCachedZSortedEles", "path2dEnabled"];
export const RENDERER_OPTIONS = ["hideEdgesOnViewport", "textureOnViewport"];
/* an element's parsed style (the value the renderer draws with) */
export const ELEMENT_METHODS = ["pstyle"];

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
