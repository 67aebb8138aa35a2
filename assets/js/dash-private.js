/* Every use the page makes of Dash's renderer (dash-renderer, in the dash version pyproject.toml pins) beyond its
   public API, in one place.

   Each Dash component, when first drawn, dispatches RESET_COMPONENT_STATE to the renderer's store: it drops the
   update counts kept for its path and below (layoutHashes), so that a component drawn where another was starts
   afresh. Every dispatch makes every component on the page read the store again, so drawing n components costs n
   times n reads: the page's first load drew about 500 components, and those dispatches were most of Dash's time on
   the main thread. A new component's path has no counts yet, and then the dispatch changes nothing: such dispatches
   are left out here (the store stays exactly as the reducer would leave it); the others go through.

   The store is made when Dash's renderer starts and put in window.dash_stores: the array is set up here first, so
   that the store's dispatch is wrapped as it is added, before any component dispatches. ``resets`` counts what
   went through and what was left out: tests/browser/test_client_modules.py fails when a version of Dash no longer
   does what this expects. */

export const RESET = "RESET_COMPONENT_STATE";
export const resets = { dispatched: 0, skipped: 0 };

/* Whether a RESET_COMPONENT_STATE for ``itempath`` would change ``layoutHashes`` (the reducer drops the keys that
   start with the path joined by commas). */
export function resetChanges(layoutHashes, itempath) {
  if (!itempath || !layoutHashes) {
    return true;
  }
  const prefix = itempath.join(",");
  for (const key in layoutHashes) {
    if (key.startsWith(prefix)) {
      return true;
    }
  }
  return false;
}

function lighten(store) {
  const dispatch = store.dispatch;
  store.dispatch = function (action) {
    if (action && action.type === RESET && action.payload) {
      if (!resetChanges(store.getState().layoutHashes, action.payload.itempath)) {
        resets.skipped += 1;
        return action;
      }
      resets.dispatched += 1;
    }
    return dispatch.apply(this, arguments);
  };
}

/* Called before Dash's renderer starts. */
export function skipEmptyResets() {
  const stores = window.dash_stores || [];
  const push = stores.push;
  stores.push = function (...added) {
    added.forEach((store) => {
      if (store && typeof store.dispatch === "function" && typeof store.getState === "function") {
        lighten(store);
      }
    });
    return push.apply(this, added);
  };
  window.dash_stores = stores;
}
