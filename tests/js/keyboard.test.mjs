import assert from "node:assert/strict";
import test from "node:test";

import { describePaper, mapKeyAction, nearest, radioTarget, suggestionTarget } from "../../assets/js/logic/keyboard.js";

const at = (id, x, y) => ({ id: id, x: x, y: y });

test("an arrow goes to the nearest paper in its direction, straight ahead preferred", () => {
  const from = at("o", 0, 0);
  const papers = [from, at("r", 100, 0), at("r2", 60, 50), at("l", -30, 0), at("u", 0, -80), at("d", 5, 90)];
  assert.equal(nearest(from, "ArrowRight", papers).id, "r", "60 ahead and 50 aside scores worse than 100 ahead");
  assert.equal(nearest(from, "ArrowLeft", papers).id, "l");
  assert.equal(nearest(from, "ArrowUp", papers).id, "u", "screen y grows downwards");
  assert.equal(nearest(from, "ArrowDown", papers).id, "d");
  assert.equal(nearest(from, "ArrowLeft", [from, at("far", -10, 40)]), null, "more than 45 degrees aside");
  assert.equal(nearest(from, "ArrowLeft", [from, at("far", -10, 40)], true).id, "far", "along a citation: 90");
  assert.equal(nearest(from, "ArrowRight", [from, at("b", 10, 0), at("a", 10, 0)]).id, "a", "ties: the smaller id");
});

test("keys on the map: arrows move (Shift: along a citation), Enter and Space select, + - 0 zoom", () => {
  assert.deepEqual(mapKeyAction("ArrowUp", { shift: true }), { move: "ArrowUp", along: true });
  assert.deepEqual(mapKeyAction("Enter", {}), { select: true });
  assert.deepEqual(mapKeyAction(" ", {}), { select: true });
  assert.deepEqual(mapKeyAction("=", {}), { press: "button-zoom-in" });
  assert.deepEqual(mapKeyAction("_", {}), { press: "button-zoom-out" });
  assert.deepEqual(mapKeyAction("0", {}), { press: "button-fit" });
  assert.equal(mapKeyAction("ArrowUp", { alt: true }), null);
  assert.equal(mapKeyAction("x", {}), null);
});

test("what the map's focus says of a paper", () => {
  const d = { title: "T", year: 2020, role: "citer", in_cited: 1234, cited_by: 5678, lib: true };
  assert.equal(
    describePaper(d, { selected: true, expanded: true, links: 1, source: "OpenAlex" }),
    "T, 2020, citer, selected, 1,234 citing in this dataset, 5,678 according to OpenAlex, linked to 1 paper in " +
      "view, in your library",
  );
  assert.equal(
    describePaper({ title: "U", year: null, role: "x", in_cited: 0, cited_by: null }, { links: 3 }),
    "U, year unknown, paper, 0 citing in this dataset, linked to 3 papers in view",
  );
});

test("the arrows in the search suggestions and in a radio group", () => {
  assert.equal(suggestionTarget("ArrowDown", -1, 3), 0, "from the box to the first");
  assert.equal(suggestionTarget("ArrowUp", -1, 3), null);
  assert.equal(suggestionTarget("ArrowDown", 2, 3), 2, "the last stays");
  assert.equal(suggestionTarget("ArrowUp", 0, 3), -1, "from the first back to the box");
  assert.equal(suggestionTarget("ArrowUp", 2, 3), 1);
  assert.equal(radioTarget("ArrowRight", 2, 3), 0, "round the end");
  assert.equal(radioTarget("ArrowUp", 0, 3), 2);
  assert.equal(radioTarget("Enter", 0, 3), null);
});
