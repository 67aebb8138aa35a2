import assert from "node:assert/strict";
import test from "node:test";

import { resetChanges } from "../../assets/js/dash-private.js";

test("a reset changes Dash's update counts only where some are kept at its path or below", () => {
  const hashes = { "children,0,props,children,2": { hash: 1 }, "children,3": { hash: 2 } };
  assert.equal(resetChanges(hashes, ["children", 0, "props", "children", 2]), true);
  assert.equal(resetChanges(hashes, ["children", 0]), true, "a parent of a path with counts");
  assert.equal(resetChanges(hashes, ["children", 0, "props", "children", 2, "props", "children", 0]), false);
  assert.equal(resetChanges(hashes, ["children", 1]), false, "a new component's path");
  assert.equal(resetChanges({}, ["children", 3]), false);
  assert.equal(resetChanges(hashes, undefined), true, "no path: left to Dash");
});
