import assert from "node:assert/strict";
import test from "node:test";

import { BIG_VIEW, elementsFrom, keepPlaces, label, nodeSize } from "../../assets/js/logic/map-elements.js";

/* a payload as GET /graph sends it (dashboard/view/payload.py): a seed, its reference and its citer */
function payload(extra) {
  return Object.assign(
    {
      query: "?seeds=a",
      layout: "force",
      color: "area",
      palette: { unknown: "#999", area: { "cs.LG": "#0072B2" }, year0: 2020, year: ["#1", "#2"] },
      fields: ["id", "title", "year", "areas", "in_cited", "cited_by", "authors"],
      nodes: [
        ["a", "  The   seed\npaper ", 2020, ["cs.LG"], 120, 300, ["A. Author"]],
        ["b", "A reference", 2019, ["math.CO"], 0, null, []],
        ["c", "A citer", 2021, ["cs.LG"], 9, 10, []],
      ],
      x: [0, 100, -100],
      y: [0, 50, -50],
      role: "src",
      seeds: [0],
      expanded: [],
      truncated: [1],
      dimmed: [],
      top: [2],
      selected: "c",
      axis: [],
      edges: { source: [0, 2], target: [1, 0] },
    },
    extra,
  );
}
const byId = (els) => Object.fromEntries(els.map((e) => [e.data.id, e]));

test("papers become nodes: label on one line, size by citers (seeds at least 28), colour, classes", () => {
  const got = elementsFrom(payload(), { library: null, libraryFilter: "all", before: null });
  const e = byId(got.elements);
  assert.equal(e.a.data.label, "The seed paper");
  assert.equal(e.a.data.size, 28);
  assert.equal(e.c.data.size, nodeSize(9, false));
  assert.ok(nodeSize(1000, false) > nodeSize(9, false) && nodeSize(0, false) === 9);
  assert.equal(e.a.data.color, "#0072B2");
  assert.equal(e.b.data.color, "#999");
  assert.equal(e.a.classes, "paper seed labelled");
  assert.equal(e.b.classes, "paper reference truncated");
  assert.equal(e.c.classes, "paper citer selected labelled");
  assert.deepEqual(e.b.position, { x: 100, y: 50 });
  assert.deepEqual(e["a>b"].data, { id: "a>b", source: "a", target: "b" });
  assert.equal(e["a>b"].classes, "cites");
  assert.equal(e["c>a"].classes, "cites touching", "a citation of the selected paper");
  assert.equal(got.query, "?seeds=a");
  assert.equal(got.count, "");
  assert.deepEqual([...got.shown], ["a", "b", "c"]);
  assert.equal(label(" a \n b "), "a b");
});

test("papers new to the map are marked until the next action; the library's filter hides papers but seeds", () => {
  const got = elementsFrom(payload(), {
    library: { ids: ["b", "a"] },
    libraryFilter: "in",
    before: new Set(["a", "b"]),
  });
  const e = byId(got.elements);
  assert.equal(e.a.classes, "paper seed labelled lib");
  assert.equal(e.b.classes, "paper reference truncated lib");
  assert.ok(e.c.classes.includes(" new") && !e.c.classes.includes("lib-hidden"), "the selected paper shows");
  assert.equal(got.count, "in your library: 2 of 3 papers in view");
  const out = byId(
    elementsFrom(payload({ selected: null }), { library: { ids: ["b"] }, libraryFilter: "out" }).elements,
  );
  assert.ok(out.b.classes.includes("lib-hidden") && !out.a.classes.includes("lib-hidden"));
});

test("a paper already drawn stays where it is; a new one moves as the drawn paper it links to moved", () => {
  const p = payload();
  const drawn = { a: { x: 10, y: 20 } };
  const [xs, ys] = keepPlaces(
    p,
    elementsFrom(p, {})
      .elements.slice(0, 3)
      .map((e) => e.data),
    new Set(["a"]),
    "force",
    (id) => drawn[id] || null,
  );
  assert.deepEqual([xs[0], ys[0]], [10, 20]);
  assert.deepEqual([xs[1], ys[1]], [110, 70], "b, cited by a: moved by a's (10, 20)");
  assert.deepEqual([xs[2], ys[2]], [-90, -30]);
  const timeline = keepPlaces(
    payload({ layout: "timeline" }),
    [{ id: "a" }, { id: "b" }, { id: "c" }],
    new Set(["a"]),
    "timeline",
    () => ({ x: 5, y: 5 }),
  );
  assert.deepEqual(
    timeline,
    [
      [0, 100, -100],
      [0, 50, -50],
    ],
    "a timeline's places are the server's",
  );
  assert.deepEqual(
    keepPlaces(p, [{ id: "a" }, { id: "b" }, { id: "c" }], new Set(["a"]), "concentric", () => ({ x: 5, y: 5 }))[0],
    [0, 100, -100],
  );
});

test("a timeline's ticks are nodes; a big view's citations are drawn plain; similarity links carry why", () => {
  const axis = [
    { id: "y2020", label: "2020", x: 0, y: 80 },
    { id: "c10", label: "10", x: -150, y: -30 },
  ];
  const t = byId(elementsFrom(payload({ layout: "timeline", axis: axis }), { mapBox: null }).elements);
  assert.equal(t["axis-y2020"].classes, "axis");
  assert.equal(t["axis-c10"].classes, "axis axis-c");
  assert.ok(t.a.classes.endsWith(" tl"));
  const similar = elementsFrom(
    payload({ edges: { source: [0], target: [2], kind: "similar", weight: [0.5], why: ["shared references"] } }),
    {},
  ).elements.find((e) => e.data.source);
  assert.equal(similar.data.id, "a~c");
  assert.equal(similar.data.width, 1 + 7 * 1);
  assert.equal(similar.data.why, "shared references");
  assert.equal(similar.classes, "similar touching");
  const n = BIG_VIEW;
  const big = payload({
    nodes: Array.from({ length: n }, (_, i) => ["p" + i, "T", 2020, [], 0, null, []]),
    x: new Array(n).fill(0),
    y: new Array(n).fill(0),
    role: "c".repeat(n),
    seeds: [],
    truncated: [],
    top: [],
    selected: null,
    edges: { source: [0], target: [1], kind: "path" },
  });
  assert.equal(elementsFrom(big, {}).elements.find((e) => e.data.source).classes, "cites big onpath");
});
