import assert from "node:assert/strict";
import test from "node:test";

import { overlaps } from "../../assets/js/logic/text-boxes.js";
import { stretchTimeline, thinnedYears, tickBox } from "../../assets/js/logic/timeline.js";
import { textWidth } from "./measure.mjs";

test("a timeline in a tall map is stretched up, its year row kept as far below the lowest paper", () => {
  const ys = [0, -100, -50],
    axis = [
      { id: "y2020", y: 40 },
      { id: "cunit", y: 30 },
      { id: "c10", y: -80 },
    ];
  const k = stretchTimeline(ys, axis, { width: 400, height: 600, modelWidth: 1000 });
  assert.ok(k > 1 && k <= 8);
  assert.deepEqual(
    ys,
    [0, -100, -50].map((y) => y * k),
  );
  const lowest = Math.max(...ys);
  assert.equal(axis[0].y - lowest, 40, "the year row stays 40 below the lowest paper");
  assert.equal(axis[1].y - lowest, 30);
  assert.equal(axis[2].y, -80 * k, "a citer tick stretches with the papers");
  assert.ok(Math.abs((Math.max(...ys) - Math.min(...ys)) / 1000 - (0.8 * 600) / 400) < 1e-9 || k === 8);
});

test("a timeline in a wide map, or with no height to stretch, stays as the server made it", () => {
  const ys = [0, -300];
  assert.equal(stretchTimeline(ys, [], { width: 1600, height: 500, modelWidth: 1000 }), 1);
  assert.deepEqual(ys, [0, -300]);
  assert.equal(stretchTimeline([5, 5], [], { width: 400, height: 600, modelWidth: 1000 }), 1);
  assert.equal(stretchTimeline([0, -1], [], null), 1);
});

test("a citer tick's label ends left of its place; a year's is centred on it", () => {
  const c = tickBox({ label: "100", x: 0, y: 0, c: true }, 1, 15, textWidth);
  const y = tickBox({ label: "2020", x: 0, y: 0, c: false }, 1, 15, textWidth);
  const w3 = (textWidth("100", true) * 15) / 100;
  assert.ok(Math.abs(c.x2 - (-6 + 2)) < 1e-9 && Math.abs(c.x2 - c.x1 - (w3 + 4)) < 1e-9);
  assert.ok(Math.abs(y.x1 + y.x2) < 1e-9, "centred");
  const zoomed = tickBox({ label: "2020", x: 0, y: 0, c: false }, 2, 15, textWidth);
  assert.ok(Math.abs((zoomed.x2 - zoomed.x1) * 2 - (y.x2 - y.x1)) < 1e-9, "one size on screen");
});

test("year ticks are thinned to every k-th year so that no two kept ones touch", () => {
  const years = [];
  for (let yr = 1990; yr <= 2025; yr++) {
    years.push({ label: String(yr), x: (yr - 1990) * 10, y: 0, c: false });
  }
  const ext = { x1: -100, x2: 1000, y1: -100, y2: 100 };
  for (const z of [0.5, 1, 3, 8]) {
    const thin = thinnedYears(years.slice().reverse(), null, z, 15, ext, textWidth);
    const kept = years.filter((t) => !thin.get(t));
    assert.ok(kept.length >= 1 && kept[0] === years[0], "the first year is kept");
    const boxes = kept.map((t) => tickBox(t, z, 15, textWidth));
    boxes.slice(1).forEach((b, i) => assert.ok(!overlaps(boxes[i], b), `at zoom ${z}`));
  }
  const roomy = thinnedYears(years, null, 8, 15, ext, textWidth);
  assert.ok(
    years.every((t) => !roomy.get(t)),
    "with room, every year",
  );
});

test("a year tick is left out under the unit 'citing' and where the map's edge cuts it", () => {
  const years = [0, 1, 2, 3].map((i) => ({ label: String(2000 + i), x: i * 100, y: 0, c: false }));
  const unit = { label: "citing", x: 0, y: 0, c: true };
  const thin = thinnedYears(years, unit, 1, 15, { x1: -10, x2: 250, y1: -50, y2: 50 }, textWidth);
  assert.deepEqual(
    years.map((t) => thin.get(t)),
    [true, false, false, true],
  );
});
