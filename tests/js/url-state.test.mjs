import assert from "node:assert/strict";
import test from "node:test";

import { isFieldQuery, isFirstView, prefixFrom, stepIn, storyLink, withStep } from "../../assets/js/logic/url-state.js";

test("the app's prefix comes from Dash's config, '/' by default", () => {
  assert.equal(prefixFrom('{"requests_pathname_prefix": "/maps/"}'), "/maps/");
  assert.equal(prefixFrom("{}"), "/");
  assert.equal(prefixFrom(""), "/");
});

test("the field view is mode=field, not a mode that starts so", () => {
  assert.ok(isFieldQuery("?mode=field"));
  assert.ok(isFieldQuery("?seeds=1&mode=field&color=year"));
  assert.ok(!isFieldQuery("?mode=fields") && !isFieldQuery("?xmode=field") && !isFieldQuery(null));
});

test("a story's step in its link: read, replaced or added", () => {
  assert.equal(stepIn("?story=seeds&step=3"), 3);
  assert.equal(stepIn("?story=seeds"), null);
  assert.equal(withStep("?story=seeds&step=3", 4), "?story=seeds&step=4");
  assert.equal(withStep("?story=seeds", 2), "?story=seeds&step=2");
  assert.equal(storyLink("my story", 0), "?story=my%20story");
  assert.equal(storyLink("seeds", 2), "?story=seeds&step=3");
});

test("the first view: the dataset's own seeds in a map of citations, whatever is selected or filtered", () => {
  const seeds = "a,b,c";
  assert.equal(isFirstView("", seeds), true);
  assert.equal(isFirstView("?seeds=a,b,c", seeds), true);
  assert.equal(isFirstView("?seeds=c,a,b&selected=b&expand=x&years=2019-2021", seeds), true);
  assert.equal(isFirstView("?seeds=a,b", seeds), false);
  assert.equal(isFirstView("?seeds=a,b,c,d", seeds), false);
  assert.equal(isFirstView("?seeds=a,b,c&mode=similar", seeds), false);
  assert.equal(isFirstView("?seeds=a,b,c&mode=citations", seeds), true);
  assert.equal(isFirstView("?story=seeds", seeds), false);
  assert.equal(isFirstView("?seeds=a,b,c&path=a,c", seeds), false);
  assert.equal(isFirstView("?mode=field", seeds), false);
});
