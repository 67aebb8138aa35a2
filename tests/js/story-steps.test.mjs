import assert from "node:assert/strict";
import test from "node:test";

import {
  captionComponent,
  nextStepQuery,
  plainCaption,
  stepChange,
  stepForKey,
  stepImageTitle,
  storyStep,
} from "../../assets/js/logic/story-steps.js";

const steps = [1, 2, 3].map((i) => ({
  view: "?seeds=" + i,
  title: "Step " + i,
  caption: i === 2 ? "**Bold** [a](x)" : "",
}));
const dataset = { source: "dataset", name: "seeds", title: "Seeds", steps: steps };
const file = { source: "file", name: "", title: "Mine", steps: steps, step: 2 };

test("a dataset's story is at the step its link names, a file's at the step the page moved to", () => {
  assert.equal(storyStep(dataset, "?story=seeds").index, 0);
  assert.equal(storyStep(dataset, "?story=seeds&step=3").index, 2);
  assert.equal(storyStep(dataset, "?story=seeds&step=9").index, 2, "past the end: the last");
  assert.equal(storyStep(dataset, "?story=other&step=2"), null);
  assert.equal(storyStep(dataset, "?seeds=1"), null);
  assert.equal(storyStep(file, "?seeds=2").step, steps[1]);
  assert.equal(storyStep(null, "?story=seeds"), null);
  assert.equal(storyStep({ source: "file", steps: [] }, ""), null);
});

test("presenting, the keys go to the next, the previous, the first and the last step", () => {
  assert.deepEqual(
    ["ArrowRight", " ", "PageDown", "ArrowLeft", "PageUp", "Home", "End", "x"].map((k) => stepForKey(k, 1, 3)),
    [2, 2, 2, 0, 0, 0, 2, undefined],
  );
});

test("moving to a step sets a dataset story's link, or a file story's step and view; never past the ends", () => {
  assert.deepEqual(stepChange(dataset, 0, 2), { search: "?story=seeds&step=3", story: undefined });
  assert.deepEqual(stepChange(dataset, 1, 0), { search: "?story=seeds", story: undefined });
  assert.equal(stepChange(dataset, 2, 5), null, "already at the last");
  const change = stepChange(file, 1, -4);
  assert.equal(change.search, "?seeds=1");
  assert.equal(change.story.step, 1);
  assert.equal(file.step, 2, "the story given is not changed");
});

test("the next step's map is fetched ahead: none after the last step", () => {
  assert.equal(nextStepQuery(dataset, "?story=seeds"), "?story=seeds&step=2");
  assert.equal(nextStepQuery(dataset, "?story=seeds&step=2"), "?story=seeds&step=3");
  assert.equal(nextStepQuery(dataset, "?story=seeds&step=3"), null);
  assert.equal(nextStepQuery(file, "?seeds=2"), "?seeds=3");
});

test("a caption: Markdown for the page, its words alone for an image's title", () => {
  assert.equal(plainCaption("**Bold**  and _it_ [a link](http://x) `code`"), "Bold and it a link code");
  assert.deepEqual(captionComponent("*x*"), {
    type: "Markdown",
    namespace: "dash_core_components",
    props: { children: "*x*", link_target: "_blank" },
  });
  assert.equal(captionComponent(""), "");
  assert.equal(stepImageTitle(dataset, 1), "Seeds · 2 / 3: Step 2 · Bold a");
  assert.equal(stepImageTitle(dataset, 0), "Seeds · 1 / 3: Step 1");
});
