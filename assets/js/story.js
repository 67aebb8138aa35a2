/* Stories in the page: writing one (a step's camera and text), presenting one (the frame, the projector theme, the
   steps' keys and buttons, the next step's map fetched ahead). story-steps.js decides which step and where a key
   goes. */

import { placeNow } from "./labels.js";
import { fetchGraph, setProps } from "./page.js";
import { captionComponent, nextStepQuery, stepChange, stepForKey, storyStep } from "./logic/story-steps.js";
import { cameraNow, refit, watchCaption } from "./viewport.js";

/* The story presented now and the index of its step shown ({story, index}), or null. */
let presented = null;
export function presentedStep() {
  return presented;
}

/* "Add this view as a step": the click's number and the camera (null at the fit: the step fits its map too). */
export function storyCamera(n) {
  if (!n) {
    return window.dash_clientside.no_update;
  }
  return { n: n, camera: cameraNow(window.cy) };
}

/* A step's title or caption typed in its box: into the draft here, at once (no server round trip that would draw the
   boxes again), and noted as what the list shows (store-story-shown: the list is not drawn again). ``inputs``: the
   callback's inputs_list (the title boxes, then the caption boxes). */
export function storyText(inputs, draft) {
  const nu = window.dash_clientside.no_update;
  if (!draft || !Array.isArray(draft.steps)) {
    return [nu, nu];
  }
  const steps = draft.steps.slice();
  let changed = false;
  (inputs || []).forEach((boxes, k) => {
    const field = k === 0 ? "title" : "caption";
    (boxes || []).forEach((box) => {
      const i = box.id && box.id.index,
        s = steps[i];
      if (!s || typeof box.value !== "string" || (s[field] || "") === box.value) {
        return;
      }
      steps[i] = Object.assign({}, s);
      steps[i][field] = box.value;
      changed = true;
    });
  });
  if (!changed) {
    return [nu, nu];
  }
  const next = Object.assign({}, draft, { steps: steps });
  return [next, next];
}

/* Present the story written in this page (or loaded from a file): from its first step. */
export function presentDraft(n, draft) {
  const nu = window.dash_clientside.no_update;
  if (!n || !draft || !Array.isArray(draft.steps) || !draft.steps.length) {
    return [nu, nu];
  }
  return [Object.assign({ source: "file", name: "", step: 1 }, draft), draft.steps[0].view];
}

/* On a projector faint lines vanish: while presenting, citations are darker and every paper has a dark outline; the
   ring of the papers the last action added is not drawn (a story's steps are not the audience's actions). */
const baseStyles = new WeakMap();
function projectorTheme(cy, on) {
  if (on) {
    if (!baseStyles.has(cy)) {
      baseStyles.set(cy, cy.style().json());
    }
    cy.style()
      .selector("edge")
      .style({ "line-color": "#6b7280", "target-arrow-color": "#6b7280", opacity: 0.85 })
      .selector("node.paper")
      .style({ "border-color": "#1d2430", "border-width": 1.5 })
      .selector("node.new")
      .style({ "outline-width": 0, "outline-opacity": 0 })
      .update();
  } else if (baseStyles.has(cy)) {
    cy.style().fromJson(baseStyles.get(cy)).update();
  }
}

/* Presenting (a story in store-story): the page's frame (class "presenting": the map takes the window), the step's
   title, its caption (Markdown, rendered by dcc.Markdown: no HTML) and its number. */
export function presentOverlay(story, query) {
  const step = storyStep(story, query);
  presented = step ? { story: story, index: step.index } : null;
  const was = document.documentElement.classList.contains("presenting");
  document.documentElement.classList.toggle("presenting", !!step);
  watchCaption();
  if (window.cy && was !== !!step) {
    projectorTheme(window.cy, !!step);
    /* the ticks' size changed, and so the room they need: fit again once Dash has drawn the frame */
    requestAnimationFrame(() => {
      if (window.cy) {
        refit(window.cy);
      }
    });
  }
  if (window.cy) {
    placeNow(window.cy);
  }
  if (!step) {
    return ["app", { display: "none" }, "", "", ""];
  }
  return [
    "app presenting",
    { display: "flex" },
    step.step.title,
    captionComponent(step.step.caption),
    step.index + 1 + " / " + story.steps.length,
  ];
}

/* Presenting: the next step's map is asked for while this one is shown. The browser's cache keeps the answer; on
   Right the browser only revalidates it ("no-cache": the server answers an unchanged map with a bodiless 304 at
   once), so the next step is drawn without waiting for the server to build and send it (a presenter's slides are
   ready before they are shown). Nothing is drawn here; a failure changes nothing. */
export function prefetchNext(story, query) {
  const q = nextStepQuery(story, query);
  if (q === null) {
    return;
  }
  setTimeout(() => {
    /* once presenting has been set up (another callback of the same change) */
    if (!document.documentElement.classList.contains("presenting") || typeof q !== "string") {
      return;
    }
    fetchGraph(q).catch(() => {});
  }, 150);
}

/* Presenting: go to step ``index`` (a dataset's story by its link; a file's by storing its step and its view). */
export function goToStep(index) {
  const cur = presented;
  if (!cur || !(window.dash_clientside && window.dash_clientside.set_props)) {
    return;
  }
  const change = stepChange(cur.story, cur.index, index);
  if (!change) {
    return;
  }
  if (change.story !== undefined) {
    setProps("store-story", { data: change.story });
  }
  setProps("url", { search: change.search });
}
function leaveStory() {
  const cur = presented;
  if (!cur || !(window.dash_clientside && window.dash_clientside.set_props)) {
    return;
  }
  if (cur.story.source !== "dataset") {
    setProps("store-story", { data: null });
  } else {
    setProps("store-escape", { data: Date.now() }); /* the state callback leaves the story at its step's view */
  }
  if (document.fullscreenElement && document.exitFullscreen) {
    document.exitFullscreen().catch(() => {});
  }
}

/* Presenting: Right, Space, PageDown (what a clicker sends) next; Left, PageUp back; Home, End; Esc leaves; the
   frame's buttons. */
export function installStoryKeys() {
  document.addEventListener(
    "keydown",
    (event) => {
      const cur = presented;
      if (!cur || event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      const t = event.target,
        typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
      if (typing) {
        return;
      }
      const to = stepForKey(event.key, cur.index, cur.story.steps.length);
      if (to !== undefined) {
        event.preventDefault();
        goToStep(to);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopImmediatePropagation();
        leaveStory();
      }
    },
    true,
  );
  document.addEventListener("click", (event) => {
    const b = event.target && event.target.closest && event.target.closest(".present-button");
    if (!b || !presented) {
      return;
    }
    const i = presented.index;
    if (b.id === "button-present-next") {
      goToStep(i + 1);
    }
    if (b.id === "button-present-prev") {
      goToStep(i - 1);
    }
    if (b.id === "button-present-exit") {
      leaveStory();
    }
    if (b.id === "button-present-full" && document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().catch(() => {}); /* refused: the page fills the window */
    }
  });
}
