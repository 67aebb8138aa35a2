import assert from "node:assert/strict";
import test from "node:test";

import { areaLabel, legendItems, legendLayout, nodeColour, polygon } from "../../assets/js/logic/colour-key.js";

const PALETTE = {
  unknown: "#999999",
  area: { "cs.LG": "#0072B2", "cs.CL": "#E69F00", "cs.CV": "#cccccc", "stat.ML": "#cccccc" },
  year0: 2018,
  year: ["#100000", "#200000", "#300000", "#400000", "#500000", "#600000", "#700000", "#800000"],
  cluster: ["#aa0000", "#00aa00"],
  cluster_names: ["graphs", "vision"],
  area_names: { "cs.LG": "Machine learning (cs.LG)", unknown: "no area given" },
};

test("a paper's colour is its primary area's, its year's or its cluster's, else the palette's unknown", () => {
  const p = { palette: PALETTE, color: "area", cluster: [1, 5] };
  assert.equal(nodeColour(p, { areas: ["cs.CL", "cs.LG"], year: 2020 }, 0), "#E69F00");
  assert.equal(nodeColour(p, { areas: ["math.AG"], year: 2020 }, 0), "#999999");
  p.color = "year";
  assert.equal(nodeColour(p, { areas: [], year: 2020 }, 0), "#300000");
  assert.equal(nodeColour(p, { areas: [], year: null }, 0), "#999999");
  assert.equal(nodeColour(p, { areas: [], year: 2040 }, 0), "#999999");
  p.color = "cluster";
  assert.equal(nodeColour(p, { areas: [] }, 0), "#00aa00");
  assert.equal(nodeColour(p, { areas: [] }, 1), "#999999");
});

test("the legend names the shapes, then one entry a colour in view, in the palette's order", () => {
  const items = legendItems(
    { color: "area", palette: PALETTE },
    { similar: false, onpath: true, colours: new Set(["#cccccc", "#0072B2"]) },
  );
  assert.deepEqual(
    items.map((i) => i.label),
    ["seed", "builds on (reference)", "built on by (citer)", "on a path", "Machine learning (cs.LG)", "other areas"],
  );
  assert.equal(items[5].color, "#cccccc");
  assert.equal(areaLabel("unknown"), "no area given");
  assert.equal(areaLabel("cs.LG", PALETTE.area_names), "Machine learning (cs.LG)");
  assert.equal(areaLabel("math.AG", PALETTE.area_names), "math.AG"); /* a name the table lacks: as stored */
});

test("a year legend shows at most seven years, the first and the last among them", () => {
  const items = legendItems({ color: "year", palette: PALETTE }, { colours: new Set() }).filter((i) => i.color);
  assert.ok(items.length <= 7);
  assert.equal(items[0].label, "2018");
  assert.equal(items[items.length - 1].label, "2025");
  const clusters = legendItems({ color: "cluster", palette: PALETTE }, { similar: true, colours: new Set() });
  assert.deepEqual(
    clusters.slice(3).map((i) => i.label),
    ["similar", "graphs", "vision"],
  );
});

test("the legend's entries are laid out in rows no wider than the image", () => {
  const items = legendItems({ color: "area", palette: PALETTE }, { colours: new Set(Object.values(PALETTE.area)) });
  const width = (t) => t.length * 7;
  const laid = legendLayout(width, items, 16, 200, 1);
  assert.equal(laid.length, items.length);
  laid.forEach((p) => assert.ok(p.x === 16 || p.x + 34 + width(p.item.label) <= 216));
  assert.ok(laid[laid.length - 1].row >= 2);
  laid.slice(1).forEach((p, i) => assert.ok(p.row > laid[i].row || p.x > laid[i].x));
});

test("a legend key's star, diamond and hexagon have their corners at the radius given", () => {
  const star = polygon("star", 10, 20, 7);
  assert.equal(star.length, 10);
  assert.ok(Math.abs(Math.hypot(star[0][0] - 10, star[0][1] - 20) - 7) < 1e-9);
  assert.equal(polygon("diamond", 0, 0, 5).length, 4);
  assert.equal(polygon("hexagon", 0, 0, 5).length, 6);
  assert.equal(polygon("circle", 0, 0, 5), null);
});
