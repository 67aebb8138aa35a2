/* A story's steps: which one is shown, where a key or a button goes, what to fetch ahead, what a step's caption says.
   A story (store-story): {source: "dataset" (by its link, step=N) or "file" (written in the page or loaded: by the
   step the page moved to), name, title, steps: [{view (a query), title, caption (Markdown), camera}], step}. Pure. */

import { stepIn, storyLink, withStep } from "./url-state.js";

/* The step of ``story`` shown at ``query`` ({step, index}), or null: a dataset's story by the link, a file's by the
   step the page moved to. */
export function storyStep(story, query) {
  if (!story || !Array.isArray(story.steps) || !story.steps.length) {
    return null;
  }
  let n = story.step || 1;
  if (story.source === "dataset") {
    if (typeof query !== "string" || query.indexOf("story=" + story.name) < 0) {
      return null;
    }
    n = stepIn(query) || 1;
  }
  const index = Math.min(Math.max(n, 1), story.steps.length) - 1;
  return { step: story.steps[index], index: index };
}

/* The query of the step after the one shown at ``query`` (fetched ahead while this one is shown), or null. */
export function nextStepQuery(story, query) {
  const cur = storyStep(story, query);
  if (!cur || cur.index + 1 >= story.steps.length) {
    return null;
  }
  if (story.source === "dataset") {
    return withStep(query, cur.index + 2); /* step numbers count from 1 */
  }
  return story.steps[cur.index + 1].view;
}

/* Presenting, the step a key goes to from step ``index`` of ``n``: Right, Space, PageDown (what a clicker sends) the
   next; Left, PageUp the one before; Home, End; undefined for any other key. */
export function stepForKey(key, index, n) {
  return {
    ArrowRight: index + 1,
    " ": index + 1,
    PageDown: index + 1,
    ArrowLeft: index - 1,
    PageUp: index - 1,
    Home: 0,
    End: n - 1,
  }[key];
}

/* What moving to step ``index`` sets (null if it is the step shown): {search (the page's URL query), story (the
   story to store, a file's at its new step; undefined for a dataset's, which its link says)}. */
export function stepChange(story, current, index) {
  const n = story.steps.length;
  index = Math.min(Math.max(index, 0), n - 1);
  if (index === current) {
    return null;
  }
  if (story.source === "dataset") {
    return { search: storyLink(story.name, index), story: undefined };
  }
  return { search: story.steps[index].view, story: Object.assign({}, story, { step: index + 1 }) };
}

/* A caption's words without Markdown's marks. */
export function plainCaption(markdown) {
  return String(markdown || "")
    .replace(/[*_`#>]+/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/* A step's caption as a dcc.Markdown component (Markdown, no HTML; links open a new tab), made only while a story is
   presented, so that its renderer is fetched then and not with every page; "" when the step has none. */
export function captionComponent(text) {
  if (!text) {
    return "";
  }
  return { type: "Markdown", namespace: "dash_core_components", props: { children: text, link_target: "_blank" } };
}

/* The title line of step ``i``'s image in a story's zip: the story's title, the step's number, title and caption. */
export function stepImageTitle(story, i) {
  const step = story.steps[i],
    caption = plainCaption(step.caption);
  return (
    story.title + " · " + (i + 1) + " / " + story.steps.length + ": " + step.title + (caption ? " · " + caption : "")
  );
}
