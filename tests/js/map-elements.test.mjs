import assert from "node:assert/strict";
import test from "node:test";

import {
  BIG_VIEW,
  BODY_GAP,
  drawnSizes,
  elementsFrom,
  keepPlaces,
  label,
  nodeSize,
  wantedSize,
} from "../../assets/js/logic/map-elements.js";

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
  assert.equal(e.c.data.size, wantedSize(9, false), "room enough: the size its citers give it");
  assert.ok(nodeSize(1000, false) > nodeSize(9, false) && nodeSize(0, false) === 9);
  assert.equal(e.a.data.color, "#0072B2");
  assert.equal(e.b.data.color, "#999");
  assert.equal(e.a.classes, "paper seed");
  assert.equal(e.b.classes, "paper reference truncated");
  assert.equal(e.c.classes, "paper citer selected");
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
  assert.equal(e.a.classes, "paper seed lib");
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

test("sizes tell citers apart: 4,000 citers more than twice the size of 200, seeds at least 28", () => {
  assert.ok(wantedSize(4000, false) > 2 * wantedSize(200, false));
  const order = [0, 1, 10, 100, 200, 1000, 4000].map((c) => wantedSize(c, false));
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    "more citers, never smaller",
  );
  assert.ok(new Set(order).size === order.length, "each step of citers a step of size");
  assert.equal(wantedSize(0, true), 28);
  assert.ok(wantedSize(4000, true) > 28);
});

/* every pair of papers whose drawn bodies (with BODY_GAP between) would overlap */
function touching(xs, ys, sizes) {
  const out = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      if (Math.hypot(xs[i] - xs[j], ys[i] - ys[j]) < (sizes[i] + sizes[j]) / 2 + BODY_GAP - 1e-9) {
        out.push([i, j]);
      }
    }
  }
  return out;
}

test("a much cited paper is drawn as large as its citers say where there is room, never over a neighbour", () => {
  /* alone: its wanted size */
  assert.deepEqual(drawnSizes([0, 500], [0, 0], [4000, 200], [false, false]), [
    wantedSize(4000, false),
    wantedSize(200, false),
  ]);
  /* a crowd laid out for nodeSize (as the server's layouts space them): bodies apart at every size drawn */
  let s = 7;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let round = 0; round < 5; round++) {
    const xs = [],
      ys = [],
      cites = [],
      seeds = [];
    while (xs.length < 300) {
      const c = Math.floor(Math.pow(10, 4 * next())),
        seed = xs.length < 2,
        x = 1200 * next(),
        y = 1200 * next();
      /* as far from every other as their nodeSize bodies and the gap need: the layouts' promise */
      const clear = xs.every(
        (xo, k) => Math.hypot(x - xo, y - ys[k]) >= (nodeSize(c, seed) + nodeSize(cites[k], seeds[k])) / 2 + BODY_GAP,
      );
      if (clear) {
        xs.push(x);
        ys.push(y);
        cites.push(c);
        seeds.push(seed);
      }
    }
    const sizes = drawnSizes(xs, ys, cites, seeds);
    assert.deepEqual(touching(xs, ys, sizes), [], `round ${round}`);
    sizes.forEach((d, i) => {
      assert.ok(d >= Math.min(nodeSize(cites[i], seeds[i]), wantedSize(cites[i], seeds[i])) - 1e-9);
      assert.ok(d <= Math.max(nodeSize(cites[i], seeds[i]), wantedSize(cites[i], seeds[i])) + 1e-9);
    });
    assert.ok(
      sizes.some((d, i) => d > nodeSize(cites[i], seeds[i])),
      "some much cited papers are drawn larger than the layouts' size",
    );
  }
  /* two much cited papers just apart enough for their layout sizes: they share the room between them */
  const near = nodeSize(4000, false) + BODY_GAP + 4;
  const both = drawnSizes([0, near], [0, 0], [4000, 4000], [false, false]);
  assert.deepEqual(touching([0, near], [0, 0], both), []);
  assert.ok(both[0] > nodeSize(4000, false) && both[0] === both[1]);
});
