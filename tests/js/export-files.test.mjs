import assert from "node:assert/strict";
import test from "node:test";

import {
  drawOrder,
  hash,
  imageFileName,
  imageLayout,
  imageSvg,
  rgbOf,
  stepImageName,
  storyFileName,
  storyStem,
  titleLines,
} from "../../assets/js/logic/export-files.js";

test("file names: the image's from GET /image-title, a story's from its name or title", () => {
  assert.equal(imageFileName({ file: "citemap-2006.04862-31-graph" }, "png"), "citemap-2006.04862-31-graph.png");
  assert.equal(imageFileName({}, "svg"), "citemap-graph.svg");
  const stem = storyStem({ name: "", title: "  Attention, then Graphs! " });
  assert.equal(stem, "attention-then-graphs");
  assert.equal(storyStem({ name: "seeds", title: "x" }), "seeds");
  assert.equal(storyStem({}), "story");
  assert.equal(stepImageName(stem, 0), "attention-then-graphs-step-01.png");
  assert.equal(stepImageName(stem, 11), "attention-then-graphs-step-12.png");
  assert.equal(storyFileName("seeds", "zip"), "seeds-steps.zip");
  assert.equal(storyFileName("seeds", "pdf"), "seeds-handout.pdf");
});

test("the title's parts go on as few lines as fit, a long part cut between words", () => {
  const measure = (t) => t.length * 7;
  const lines = titleLines(
    measure,
    "mlsanity · seeds: A Very Long Title Of A Seed Paper Indeed · force · 31 papers",
    140,
  );
  lines.forEach((line) => assert.ok(measure(line) <= 140, line));
  assert.equal(
    lines.join(" ").replace(/ · /g, " "),
    "mlsanity seeds: A Very Long Title Of A Seed Paper Indeed force 31 papers",
  );
  assert.deepEqual(titleLines(measure, "a · b", 1000), ["a · b"]);
});

test("an image's layout: the title above the map, the legend's rows below, 22 px a row", () => {
  const legend = [
    { item: { label: "seed" }, x: 16, row: 0 },
    { item: { label: "x" }, x: 16, row: 1 },
  ];
  const layout = imageLayout(800, 500, ["t1", "t2"], legend);
  assert.equal(layout.head, 12 + 36);
  assert.equal(layout.total, 48 + 500 + 12 + 44);
  assert.deepEqual(
    layout.items.map((p) => p.y),
    [48 + 500 + 20, 48 + 500 + 42],
  );
  assert.equal(imageLayout(800, 500, ["t"], []).total, 30 + 500 + 12);
});

test("the SVG image is the same text for the same map, its words escaped", () => {
  const legend = [
    { item: { label: "seed", shape: "star" }, x: 16, row: 0 },
    { item: { label: "builds on", shape: "square" }, x: 100, row: 0 },
    { item: { label: "R&D <x>", color: "#ff0000" }, x: 200, row: 0 },
  ];
  const layout = imageLayout(640, 400, ["A & B"], legend);
  const inner = '<?xml version="1.0"?>\n<svg><g/></svg>';
  const one = imageSvg(640, layout, ["A & B"], inner);
  assert.equal(imageSvg(640, layout, ["A & B"], inner), one);
  assert.ok(one.startsWith('<svg xmlns="http://www.w3.org/2000/svg"') && one.endsWith("</g></svg>"));
  assert.ok(one.includes('width="640" height="' + layout.total + '"'));
  assert.ok(
    !one.includes("<?xml") && one.includes('<g transform="translate(0,' + layout.head + ')"><svg><g/></svg></g>'),
  );
  assert.ok(one.includes(">A &amp; B</text>") && one.includes(">R&amp;D &lt;x&gt;</text>"));
  assert.equal((one.match(/<polygon /g) || []).length, 1);
  assert.equal((one.match(/<rect x=/g) || []).length, 1);
  assert.equal((one.match(/<circle /g) || []).length, 1);
});

test("elements of one rank are drawn in the order of their ids, whatever order they came in", () => {
  const eles = [
    { id: "b", key: [1, 0, "b"] },
    { id: "e1", key: [0, 0, "e1"] },
    { id: "a", key: [1, 0, "a"] },
    { id: "top", key: [1, 10, "top"] },
    { id: "e0", key: [0, 0, "e0"] },
  ];
  const order = (list) => drawOrder(list, (e) => e.key).map((e) => e.id);
  const want = ["e0", "e1", "a", "b", "top"];
  assert.deepEqual(order(eles), want);
  assert.deepEqual(order(eles.slice().reverse()), want);
  assert.deepEqual(
    eles.map((e) => e.id),
    ["b", "e1", "a", "top", "e0"],
    "the list given is left as it was",
  );
});

test("a story's PDF id: 32 hex digits, the same for the same story, another for another", () => {
  const a = hash(JSON.stringify(["Seeds", [{ view: "?seeds=1" }]]));
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.equal(hash(JSON.stringify(["Seeds", [{ view: "?seeds=1" }]])), a);
  assert.notEqual(hash(JSON.stringify(["Seeds", [{ view: "?seeds=2" }]])), a);
  assert.notEqual(a.slice(0, 8), a.slice(8, 16), "four hashes seeded apart");
});

test("a colour as a canvas writes it, as numbers", () => {
  assert.deepEqual(rgbOf("#0072b2"), [0, 114, 178]);
  assert.deepEqual(rgbOf("rgba(10, 20, 30, 0.5)"), [10, 20, 30]);
});
