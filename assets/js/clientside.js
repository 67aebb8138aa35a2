/* The clientside callbacks (window.dash_clientside.citemap, namespace "citemap" of dashboard/web/callbacks/), each a
   thin call into the module that does the work. */

import { hoverCard, listsFull } from "./controls.js";
import { loadGraph } from "./draw.js";
import { loadField } from "./field.js";
import { loadLibrary } from "./library.js";
import { libraryStatus } from "./logic/library-status.js";
import { isFirstView } from "./logic/url-state.js";
import { yearsRange } from "./logic/years-range.js";
import { presentDraft, presentOverlay, storyCamera, storyText } from "./story.js";

function context() {
  return window.dash_clientside.callback_context || {};
}

export const clientside = {
  listsFull: (clicks) => listsFull(clicks),
  loadGraph: (query, library, libraryFilter, story) => loadGraph(query, library, libraryFilter, story),
  loadLibrary: (contents, filename) => loadLibrary(contents, filename),
  libraryStatus: (library, error) => libraryStatus(library, error),
  forgetLibrary: (n) => (n ? [null, "all"] : [window.dash_clientside.no_update, window.dash_clientside.no_update]),
  hoverCard: (data, edge, tapped) => {
    const trig = context().triggered || [];
    return hoverCard(trig.length ? trig[0].prop_id : "", data, edge, tapped);
  },
  presentDraft: (n, draft) => presentDraft(n, draft),
  presentOverlay: (story, query) => presentOverlay(story, query),
  storyCamera: (n) => storyCamera(n),
  storyText: (titles, captions, draft) => storyText(context().inputs_list, draft),
  loadField: (query, mode) => loadField(query, mode),
  /* the first view's line is hidden once the address shows another view (its seeds in data-seeds) */
  firstViewHidden: (search) => {
    const el = document.getElementById("div-first-view");
    return !isFirstView(search, el ? el.dataset.seeds : "");
  },
  yearsRange: (dragged, value) => {
    const el = document.getElementById("span-years-range");
    const floor = el ? Number(el.dataset.floor) : NaN,
      oldest = el ? Number(el.dataset.oldest) : NaN;
    const trig = (context().triggered || [])[0];
    return yearsRange(trig && /drag_value$/.test(trig.prop_id) ? dragged : value, floor, oldest);
  },
};
