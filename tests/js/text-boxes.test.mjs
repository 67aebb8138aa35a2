import assert from "node:assert/strict";
import test from "node:test";

import { Grid, makeTextWidth, overlaps } from "../../assets/js/logic/text-boxes.js";
import { CHAR, textWidth, wrap } from "./measure.mjs";

const TITLE = "Attention Is All You Need for Graph Transformers at Scale";

test("a text's width is measured once, at 100 px, in the font asked for", () => {
  const fonts = [];
  const width = makeTextWidth((font, text) => {
    fonts.push(font);
    return text.length;
  });
  assert.equal(width("abc", false), 3);
  assert.equal(width("abc", false), 3);
  assert.equal(width("abc", true), 3);
  assert.deepEqual(fonts, ["normal 100px Helvetica, Arial, sans-serif", "bold 100px Helvetica, Arial, sans-serif"]);
});

test("a title that fits is kept whole, on as few lines as it needs", () => {
  const got = wrap("Deep Residual Learning", false, 13, 1000, 2);
  assert.equal(got.text, "Deep Residual Learning");
  assert.equal(got.lines, 1);
  assert.equal(got.w, textWidth("Deep Residual Learning", false) * 0.13);
});

test("a wrapped title's lines fit their width (a word wider than a line has one of its own), the last cut", () => {
  for (const maxW of [60, 90, 150, 230]) {
    for (const lines of [1, 2, 3]) {
      const got = wrap(TITLE, false, 13, maxW, lines);
      const out = got.text.split("\n");
      assert.equal(out.length, got.lines);
      assert.ok(got.lines <= lines);
      out.forEach((line, k) => {
        const fits = textWidth(line, false) * 0.13 <= maxW;
        const lone = k < out.length - 1 && !line.includes(" ");
        assert.ok(fits || lone, `${line} wider than ${maxW}`);
      });
      const kept = out.join(" ");
      if (kept !== TITLE) {
        assert.ok(kept.endsWith("…"), "a title cut ends with an ellipsis");
        assert.ok(TITLE.startsWith(kept.slice(0, -1).replace(/[\s,:;.-]+$/, "")), kept);
      }
      assert.equal(got.w, Math.max(...out.map((line) => textWidth(line, false) * 0.13)));
    }
  }
});

test("a title of one long word is cut to the width, not left out", () => {
  const got = wrap("Supercalifragilisticexpialidocious", false, 10, 100, 2);
  assert.equal(got.lines, 1);
  assert.ok(got.text.endsWith("…") && got.text.length > 1);
  assert.ok(got.text.length * CHAR * 0.1 <= 100);
});

test("boxes overlap only when they share an area", () => {
  const a = { x1: 0, x2: 10, y1: 0, y2: 10 };
  assert.ok(overlaps(a, { x1: 9, x2: 20, y1: 9, y2: 20 }));
  assert.ok(!overlaps(a, { x1: 10, x2: 20, y1: 0, y2: 10 }), "touching edges do not overlap");
  assert.ok(!overlaps(a, { x1: 0, x2: 10, y1: 11, y2: 12 }));
});

test("the grid finds the boxes a box hits in any of its cells, leaving out the one named", () => {
  const grid = new Grid(10);
  grid.add({ x1: -25, x2: -15, y1: 95, y2: 105, id: "a" });
  grid.add({ x1: 200, x2: 260, y1: 0, y2: 5, id: "b" });
  assert.ok(grid.hits({ x1: -18, x2: -5, y1: 100, y2: 101 }));
  assert.ok(!grid.hits({ x1: -18, x2: -5, y1: 100, y2: 101 }, "a"), "its own body aside");
  assert.ok(grid.hits({ x1: 255, x2: 300, y1: 4, y2: 40 }, "a"));
  assert.ok(!grid.hits({ x1: 0, x2: 190, y1: 0, y2: 90 }));
});
