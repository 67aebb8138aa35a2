import assert from "node:assert/strict";
import test from "node:test";

import { atFit, cameraOf, cameraView, placesBox, roomFor, untouched, viewFor } from "../../assets/js/logic/fit.js";

const paper = (x, y, size, classes) => ({
  data: { id: "p" + x, size: size },
  position: { x: x, y: y },
  classes: classes || "paper",
});

test("the box of a view's papers, from their places and sizes, without hidden papers", () => {
  const got = placesBox([
    paper(0, 0, 20),
    paper(100, 50, 10),
    paper(500, 500, 10, "paper lib-hidden"),
    { data: { id: "e", source: "a" } },
  ]);
  assert.deepEqual(got.bb, { x1: -10, y1: -10, w: 115, h: 65 });
  assert.deepEqual(got.spec, { left: 110, right: 110 }, "a few papers: room for the titles at the sides");
  assert.equal(placesBox([{ data: { id: "e", source: "a" } }]), null);
  const many = Array.from({ length: 13 }, (_, i) => paper(i * 10, 0, 10));
  assert.equal(placesBox(many).spec, undefined);
  const ticks = [
    paper(0, 0, 10),
    { data: { id: "axis-c1000", label: "1,000" }, position: { x: -50, y: 0 }, classes: "axis axis-c" },
    { data: { id: "axis-c10", label: "10" }, position: { x: -50, y: 9 }, classes: "axis axis-c" },
  ];
  assert.deepEqual(placesBox(ticks).spec, { axis: "1,000" }, "a timeline: room for its widest citer tick");
  assert.equal(placesBox(ticks).bb.x1, -50);
});

test("the room around a fit: 40 px, a timeline's ticks, a presented story's caption under it", () => {
  assert.deepEqual(
    roomFor(undefined, 15, () => 0, 0),
    { left: 40, right: 40, top: 40, bottom: 40 },
  );
  assert.deepEqual(
    roomFor({ left: 110, right: 110 }, 15, () => 0, 100),
    { left: 110, right: 110, top: 40, bottom: 140 },
  );
  const tl = roomFor({ axis: "1,000" }, 15, (t) => t.length * 60, 0);
  assert.deepEqual(tl, { left: 10 + 45, right: 16, top: 24, bottom: 56 });
});

test("a fitted box fills the room left for it, centred, within the zoom's bounds", () => {
  const bb = { x1: -100, y1: -50, w: 200, h: 100 };
  const room = { left: 40, right: 40, top: 40, bottom: 40 };
  const v = viewFor(bb, room, 1000, 600, 0.01, 10);
  assert.equal(v.zoom, Math.min(920 / 200, 520 / 100));
  const screen = (x, y) => [v.pan.x + v.zoom * x, v.pan.y + v.zoom * y];
  const [l, t] = screen(bb.x1, bb.y1),
    [r, b] = screen(bb.x1 + bb.w, bb.y1 + bb.h);
  assert.ok(l >= 40 - 1e-9 && r <= 960 + 1e-9 && t >= 40 - 1e-9 && b <= 560 + 1e-9);
  assert.ok(Math.abs((l + r) / 2 - 500) < 1e-9 && Math.abs((t + b) / 2 - 300) < 1e-9);
  assert.equal(viewFor(bb, room, 1000, 600, 0.01, 2).zoom, 2);
  assert.equal(viewFor({ x1: 0, y1: 0, w: 0, h: 0 }, room, 1000, 600, 0.01, 2), null);
});

test("a step's camera: written as zoom and centre, shown as the same view", () => {
  const cam = cameraOf(1.5, { x: 120, y: -40 }, 800, 600);
  assert.deepEqual(cam, { zoom: 1.5, x: 186.67, y: 226.67 });
  const v = cameraView(cam, 800, 600, 0.05, 4);
  assert.ok(Math.abs(v.pan.x - 120) < 0.01 && Math.abs(v.pan.y + 40) < 0.01);
  assert.equal(cameraOf(9, { x: 0, y: 0 }, 800, 600).zoom, 4);
  const f = { zoom: 1.5, x: 120, y: -40 };
  assert.ok(
    atFit(f, 1.5, { x: 120.3, y: -40 }) && !atFit(f, 1.5, { x: 121, y: -40 }) && !atFit(null, 1, { x: 0, y: 0 }),
  );
  assert.ok(untouched(f, 1.5, { x: 120, y: -40 }) && !untouched(f, 1.5, { x: 120.3, y: -40 }));
});
