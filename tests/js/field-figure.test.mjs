import assert from "node:assert/strict";
import test from "node:test";

import {
  SEEDS,
  clickedRow,
  eventRows,
  fieldFigure,
  joinLayer,
  regionLabels,
  sameLabels,
  selectionSeeds,
  shortName,
} from "../../assets/js/logic/field-figure.js";

const points = {
  build: "b1",
  r: [0, 1, 2, 3],
  x: [0, 1, 2, 3],
  y: [0, 1, 0, 1],
  s: [5, 0, 50, 1],
  y0: [2020, -1, 2021, 2019],
  t: ["A", "B", "C", "D"],
  regions: [{ name: "graphs", x: 1, y: 0.5 }],
};
const layer = {
  build: "b1",
  extra: { r: [9], x: [4], y: [4], s: [7], y0: [2022], t: ["E"] },
  mask: Buffer.from([0b0101]).toString("base64"),
  map: [4],
  c: Buffer.from([0, 1, 0, 1, 1]).toString("base64"),
  names: ["object detection · convolutional networks and more", "graphs"],
  colors: ["#111111", "#222222"],
  color: "cluster",
  seeds: [4],
  selected: null,
  density: null,
  range: [-1, 5],
};

test("the layer over the points: the map's extra papers added, the filters' mask read bit by bit", () => {
  const p = joinLayer(points, layer);
  assert.deepEqual(p.r, [0, 1, 2, 3, 9]);
  assert.deepEqual([...p.shown], [1, 0, 1, 0, 1], "rows 0 and 2 pass, the map's paper always");
  assert.deepEqual([...p.c], [0, 1, 0, 1, 1]);
});

test("the figure: a trace a colour of the papers shown, the map's papers ringed, the seeds as stars", () => {
  const p = joinLayer(points, layer);
  const fig = fieldFigure(p, layer, true, false, (texts, size) => Math.max(...texts.map((t) => t.length)) * size);
  const names = fig.data.map((t) => t.name);
  assert.deepEqual(names, ["object detection", "graphs", "current map", "seed"]);
  assert.deepEqual(fig.data[0].customdata, [0, 2]);
  assert.deepEqual(fig.data[1].customdata, [9]);
  assert.equal(fig.layout.showlegend, true);
  assert.equal(fig.layout.legend.entrywidth, "object detection".length * 11 + 8);
  assert.equal(fieldFigure(p, layer, false, false, () => 0).layout.showlegend, false);
  assert.equal(shortName("a very long cluster name that goes on and on"), "a very long cluster nam…");
});

test("region names fit the plot, none over another", () => {
  const meta = {
    font: 13,
    regions: [
      { name: "graphs", x: 0, y: 0 },
      { name: "graph theory", x: 0.01, y: 0 },
      { name: "vision", x: 8, y: 8 },
      { name: "off the plot", x: 50, y: 0 },
    ],
  };
  const plot = { w: 400, h: 300, xr: [-10, 10], yr: [-10, 10] };
  const got = regionLabels(plot, meta, (texts, size) => texts[0].length * size * 0.6);
  assert.deepEqual(
    got.map((a) => a.text),
    ["graphs", "vision"],
  );
  got.forEach((a) => assert.ok(a.x >= -10 && a.x <= 10 && a.y >= -10 && a.y <= 10));
  assert.ok(
    sameLabels(
      got,
      got.map((a) => Object.assign({}, a)),
    ) && !sameLabels(got, got.slice(1)),
  );
});

test("a selection maps its most cited papers, at most SEEDS of them, ties by row", () => {
  const cited = new Map(Array.from({ length: 30 }, (_, r) => [r, r % 5]));
  const selected = { points: Array.from({ length: 30 }, (_, r) => ({ customdata: r })).concat([{ customdata: "x" }]) };
  const [text, style, sent] = selectionSeeds(eventRows([], selected), cited);
  assert.equal(text, "Map these 30 papers");
  assert.deepEqual(style, { display: "inline-block" });
  assert.equal(sent.n, 30);
  assert.equal(sent.rows.length, SEEDS);
  assert.deepEqual(sent.rows.slice(0, 3), [4, 9, 14]);
  assert.deepEqual(selectionSeeds([], cited), ["Map these papers", { display: "none" }, null]);
  assert.deepEqual(selectionSeeds(eventRows([], null), cited), ["Map these papers", { display: "none" }, null]);
});

test("an event's points name rows by their trace's customdata, each row once", () => {
  const data = [{ customdata: [7, 8, 9] }, { customdata: [3, 7] }];
  const event = {
    points: [
      { curveNumber: 0, pointNumber: 2 },
      { curveNumber: 1, pointNumber: 1 } /* row 7 again, from another trace */,
      { curveNumber: 1, pointIndex: 0 },
      { curveNumber: 5, pointNumber: 0, customdata: 11 } /* no such trace: the event's own customdata */,
      { curveNumber: 0, pointNumber: 9 } /* no such point */,
    ],
  };
  assert.deepEqual(eventRows(data, event), [9, 7, 3, 11]);
  assert.equal(clickedRow(data, event), 9);
  assert.equal(clickedRow(data, { points: [] }), null);
  assert.equal(clickedRow(data, undefined), null);
});
