import assert from "node:assert/strict";
import test from "node:test";

import { FINGER, nearestPaper } from "../../assets/js/logic/touch.js";

test("a tap picks the paper whose body is nearest the finger, within a finger's reach", () => {
  /* two small papers 10 px apart, as on a phone at its fit zoom: the tap nearer the second picks it */
  const papers = [
    { x: 0, y: 0, r: 2, cites: 743 },
    { x: 10, y: 0, r: 2, cites: 1671 },
  ];
  assert.equal(nearestPaper(papers, 6, 1, FINGER), 1);
  assert.equal(nearestPaper(papers, 3, -2, FINGER), 0);
  assert.equal(nearestPaper(papers, 1, 0, FINGER), 0, "on a body: that paper");
  /* a large body near and a small one whose centre is nearer: the edge counts, not the centre */
  const sizes = [
    { x: 0, y: 0, r: 20, cites: 1 },
    { x: 30, y: 0, r: 2, cites: 1 },
  ];
  assert.equal(nearestPaper(sizes, 23, 0, FINGER), 0);
  assert.equal(nearestPaper(sizes, 27, 0, FINGER), 1);
  /* out of reach: none */
  assert.equal(nearestPaper(papers, 100, 100, FINGER), -1);
  assert.equal(nearestPaper(papers, 10 + 2 + FINGER + 0.5, 0, FINGER), -1);
  assert.equal(nearestPaper(papers, 10 + 2 + FINGER - 0.5, 0, FINGER), 1);
  assert.equal(nearestPaper([], 0, 0, FINGER), -1);
});

test("of two papers as near, the nearer centre, then the more cited", () => {
  const inside = [
    { x: 0, y: 0, r: 10, cites: 5 },
    { x: 3, y: 0, r: 10, cites: 1 },
  ];
  assert.equal(nearestPaper(inside, 2.5, 0, FINGER), 1, "inside both: the nearer centre");
  const twins = [
    { x: -5, y: 0, r: 2, cites: 5 },
    { x: 5, y: 0, r: 2, cites: 9 },
  ];
  assert.equal(nearestPaper(twins, 0, 0, FINGER), 1);
});
