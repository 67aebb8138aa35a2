import assert from "node:assert/strict";
import test from "node:test";

import {
  SELECTION_ROOM,
  atFit,
  cameraOf,
  cameraView,
  keepsCamera,
  panToShow,
  placesBox,
  roomFor,
  untouched,
  viewFor,
} from "../../assets/js/logic/fit.js";

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

test("a click keeps the camera; a first map, another layout or kind, a story and a map off screen are fitted", () => {
  const force = { layout: "force", kind: "citations" },
    ext = { x1: 0, x2: 100, y1: 0, y2: 100 };
  const here = [paper(50, 50, 10), paper(500, 500, 10)],
    away = [paper(500, 500, 10), { data: { id: "e", source: "a" } }];
  assert.equal(keepsCamera(force, force, false, here, ext), true, "an expand, a collapse, a selection");
  assert.equal(keepsCamera(null, force, false, here, ext), false, "the first map");
  assert.equal(keepsCamera({ layout: "timeline", kind: "citations" }, force, false, here, ext), false);
  assert.equal(keepsCamera(force, { layout: "concentric", kind: "citations" }, false, here, ext), false);
  assert.equal(keepsCamera(force, { layout: "force", kind: "similar" }, false, here, ext), false);
  assert.equal(keepsCamera(force, force, true, here, ext), false, "a story's step, presenting");
  assert.equal(keepsCamera(force, force, false, away, ext), false, "none of the new map's papers on screen");
  const hidden = [paper(50, 50, 10, "paper lib-hidden"), paper(500, 500, 10)];
  assert.equal(keepsCamera(force, force, false, hidden, ext), false, "a paper the library filter hides is not seen");
});

test("the camera moves as little as the selected paper needs to be in view with room for its title", () => {
  const pan = { x: 10, y: -20 },
    z = 0.5,
    w = 800,
    h = 600;
  const at = (p) => ({ x: p.x * z + pan.x, y: p.y * z + pan.y }); /* on screen before the move */
  const inside = { x: 400, y: 300 };
  assert.deepEqual(panToShow(pan, z, w, h, inside, SELECTION_ROOM), pan, "in view: no move at all");
  for (const p of [
    { x: -2000, y: 300 },
    { x: 3000, y: 700 },
    { x: 500, y: -900 },
    { x: 1200, y: 5000 },
  ]) {
    const to = panToShow(pan, z, w, h, p, SELECTION_ROOM);
    const sx = p.x * z + to.x,
      sy = p.y * z + to.y;
    assert.ok(sx >= SELECTION_ROOM.x - 1e-9 && sx <= w - SELECTION_ROOM.x + 1e-9, "room at the sides");
    assert.ok(sy >= SELECTION_ROOM.y - 1e-9 && sy <= h - SELECTION_ROOM.y + 1e-9, "room above and below");
    const before = at(p);
    /* no less move would do: on each axis it stops at the edge of the room */
    if (before.x < SELECTION_ROOM.x) {
      assert.ok(Math.abs(sx - SELECTION_ROOM.x) < 1e-9);
    } else if (before.x > w - SELECTION_ROOM.x) {
      assert.ok(Math.abs(sx - (w - SELECTION_ROOM.x)) < 1e-9);
    } else {
      assert.equal(to.x, pan.x, "no move across where none is needed");
    }
  }
  /* a map narrower than the room: at most a third of it each side */
  const narrow = panToShow({ x: 0, y: 0 }, 1, 90, 60, { x: -500, y: 500 }, SELECTION_ROOM);
  assert.deepEqual(narrow, { x: 530, y: -460 });
});
