import assert from "node:assert/strict";
import test from "node:test";

import { overlaps } from "../../assets/js/logic/text-boxes.js";
import {
  MAX_TRIED,
  NOTABLE,
  SIDES,
  TL_SIDES,
  box,
  crosses,
  forms,
  placeTitles,
} from "../../assets/js/logic/title-placement.js";
import { wrap } from "./measure.mjs";

function paper(id, x, y, extra) {
  return Object.assign(
    { id: id, x: x, y: y, r: 8, rank: 4, cites: 0, label: "Paper " + id, bold: false, tl: false },
    extra,
  );
}
const EXT = { x1: -400, x2: 400, y1: -300, y2: 300 };
function view(z, extra) {
  return Object.assign({ z: z, ext: EXT, px: 13, lines: 2, obstacles: [] }, extra);
}
/* a little random map: n papers in the viewport, the same for the same seed */
function randomPapers(n, seed) {
  let s = seed;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(
      paper("p" + i, -380 + 760 * next(), -280 + 560 * next(), {
        r: 5 + 10 * next(),
        rank: i < 3 ? 1 : 4,
        cites: Math.floor(100 * next()),
        label: "A title of paper " + i + " about graphs and attention",
        bold: i < 3,
      }),
    );
  }
  return out;
}
function bodyBox(g, margin) {
  const r = g.r + (margin || 0);
  return { x1: g.x - r, x2: g.x + r, y1: g.y - r, y2: g.y + r };
}

test("a title's box is its text's box on screen with 5 px of room at the sides and 4 px above and below", () => {
  const g = paper("a", 10, 20);
  for (const z of [0.5, 1, 2.5]) {
    for (const f of forms(g, 13, 2, wrap)) {
      for (const side of SIDES) {
        const b = box(g, z, side, f);
        assert.ok(Math.abs((b.x2 - b.x1) * z - (f.w + 10)) < 1e-9, `${side} at ${z}: width`);
        assert.ok(Math.abs((b.y2 - b.y1) * z - (f.px * (0.15 + f.lines) + 8)) < 1e-9, `${side} at ${z}: height`);
        assert.equal(b.f, f.px / z);
        assert.equal(b.text, f.text);
      }
    }
  }
});

test("a title's box is on the side it is drawn, clear of its paper's body at the sides", () => {
  const g = paper("a", 0, 0, { r: 12 });
  const f = forms(g, 13, 2, wrap)[0];
  const b = Object.fromEntries(SIDES.map((side) => [side, box(g, 1, side, f)]));
  assert.ok(b.right.x1 > g.x + g.r && b.left.x2 < g.x - g.r);
  assert.ok(b.bottom.y1 > b.top.y2 && b.bottom.y2 > g.y + g.r && b.top.y1 < g.y - g.r);
  assert.ok(Math.abs((b.bottom.x1 + b.bottom.x2) / 2 - g.x) < 1e-9, "centred under it");
  assert.ok(
    b["top-right"].x1 > g.x && b["top-right"].y2 < g.y && b["bottom-left"].x2 < g.x && b["bottom-left"].y1 > g.y,
  );
});

test("a title's forms: as many lines as asked, narrower, one line, and a short line for the papers that matter", () => {
  const plain = paper("a", 0, 0, { label: "A long title of a paper that will not fit on one line of the map" });
  const fs = forms(plain, 13, 2, wrap);
  assert.equal(fs.length, 3);
  assert.deepEqual(
    fs.map((f) => f.lines),
    [2, 2, 1],
  );
  assert.ok(fs[1].w <= fs[0].w && fs.every((f) => f.px === 13 && !f.bold));
  const seed = Object.assign({}, plain, { rank: 1, bold: true });
  const sf = forms(seed, 13, 3, wrap);
  assert.equal(sf.length, 4);
  assert.ok(sf[0].lines <= 3 && sf.every((f) => f.px === 14 && f.bold), "seeds in bold, a pixel larger");
  assert.ok(sf[3].lines === 1 && sf[3].w <= sf[2].w / 2 + 1e-9);
  assert.equal(forms(Object.assign({}, plain, { tl: true }), 13, 2, wrap)[0].lines, 2);
});

test("no title overlaps another, a paper's body or an obstacle, and all are inside the map", () => {
  for (const seed of [1, 7, 42]) {
    for (const z of [0.6, 1, 1.8]) {
      const papers = randomPapers(60, seed);
      const obstacle = { x1: 300, x2: 400, y1: -300, y2: -200 };
      const got = placeTitles(papers, view(z, { obstacles: [obstacle] }), wrap);
      const titles = got.chosen.concat(got.callouts);
      assert.ok(titles.length > 5, "a map of 60 papers names some");
      titles.forEach(([g, b], i) => {
        assert.ok(b.x1 >= EXT.x1 && b.x2 <= EXT.x2 && b.y1 >= EXT.y1 && b.y2 <= EXT.y2, "inside the map");
        assert.ok(!overlaps(b, obstacle), "not under the zoom buttons");
        titles.slice(i + 1).forEach(([h, c]) => assert.ok(!overlaps(b, c), `${g.id} and ${h.id}`));
        papers.forEach((q) => {
          if (q === g && got.chosen.some((c) => c[0] === q)) {
            return; /* a title beside its own paper may touch it */
          }
          assert.ok(!overlaps(b, bodyBox(q)), `${g.id}'s title over ${q.id}`);
        });
      });
    }
  }
});

test("the papers that matter are named first, a title set apart where there is no room beside them", () => {
  /* a seed in a crowd: papers all round it leave no side free */
  const papers = [paper("seed", 0, 0, { rank: 1, bold: true, r: 14, label: "The seed paper" })];
  for (let a = 0; a < 16; a++) {
    const t = (a * Math.PI) / 8;
    papers.push(paper("n" + a, 30 * Math.cos(t), 30 * Math.sin(t), { r: 9, cites: 100 - a }));
  }
  const got = placeTitles(papers, view(1), wrap);
  const named = got.callouts.map((c) => c[0].id);
  assert.equal(named[0], "seed", "the seed's title is set apart first");
  assert.ok(!got.chosen.some((c) => c[0].id === "seed"));
  /* the callout is near its paper: within the rings round it, not in a band along the map's edge */
  const b = got.callouts[0][1];
  assert.ok(Math.hypot((b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2) < 150, "a short line to its paper");
});

test("the most cited papers in a crowd are named too, their titles set apart, before any less cited one", () => {
  /* a grid of papers too dense for a title beside any of them, the most cited in its middle; room round it */
  const papers = [];
  for (let i = 0; i < 15; i++) {
    for (let j = 0; j < 15; j++) {
      const k = i * 15 + j;
      papers.push(
        paper("p" + k, -140 + 20 * i, -140 + 20 * j, {
          r: 4,
          cites: 1000 - Math.round(Math.hypot(i - 7, j - 7) * 50) - k / 1000,
          label: "Paper " + k,
        }),
      );
    }
  }
  const got = placeTitles(papers, view(1), wrap);
  const named = new Set(got.chosen.concat(got.callouts).map((c) => c[0].id));
  const byCites = [...papers].sort((a, b) => b.cites - a.cites);
  byCites.slice(0, NOTABLE).forEach((g) => assert.ok(named.has(g.id), `${g.id} (${g.cites}) is named`));
  assert.ok(got.callouts.length >= NOTABLE - 2, "most of them set apart: no room beside them");
});

test("the seeds among the most cited count among the NOTABLE whose titles are set apart", () => {
  /* the same crowd, its two most cited papers seeds: only the next NOTABLE - 2 by citers are set apart */
  const papers = [];
  for (let i = 0; i < 15; i++) {
    for (let j = 0; j < 15; j++) {
      const k = i * 15 + j;
      papers.push(
        paper("p" + k, -140 + 20 * i, -140 + 20 * j, {
          r: 4,
          cites: 1000 - Math.round(Math.hypot(i - 7, j - 7) * 50) - k / 1000,
          label: "Paper " + k,
        }),
      );
    }
  }
  const byCites = [...papers].sort((a, b) => b.cites - a.cites);
  byCites.slice(0, 2).forEach((g) => Object.assign(g, { rank: 1, bold: true }));
  const got = placeTitles(papers, view(1), wrap);
  const apart = new Set(got.callouts.map((c) => c[0].id));
  byCites.slice(0, NOTABLE).forEach((g) => assert.ok(apart.has(g.id), `${g.id} (${g.cites}) is set apart`));
  assert.equal(apart.size, NOTABLE, "no title set apart for a paper beyond the most cited");
});

/* Whether the title of ``g`` has no free place beside it once the titles of the papers more important than it are
   placed: each of its forms on each side overlaps one of those titles, another paper's body, or leaves the map. */
function blocked(g, papers, titles, z) {
  const before = (a, b) => a.rank - b.rank || b.cites - a.cites || (a.id < b.id ? -1 : 1);
  const ahead = titles.filter(([h]) => before(h, g) < 0).map(([, b]) => b);
  return forms(g, 13, 2, wrap).every((f) =>
    SIDES.every((side) => {
      const b = box(g, z, side, f);
      const out = b.x1 < EXT.x1 || b.x2 > EXT.x2 || b.y1 < EXT.y1 || b.y2 > EXT.y2;
      return (
        out ||
        ahead.some((o) => overlaps(o, b)) ||
        papers.some((q) => q !== g && overlaps(bodyBox(q, 1 + 1 / z), b)) /* a body as the placing keeps off it */
      );
    }),
  );
}

test("a paper goes unnamed only where the more important papers' titles and the bodies leave its title no room", () => {
  for (const seed of [3, 11, 29]) {
    for (const z of [0.7, 1.4]) {
      const papers = randomPapers(70, seed);
      const got = placeTitles(papers, view(z), wrap);
      const titles = got.chosen.concat(got.callouts);
      const named = new Set(titles.map((t) => t[0].id));
      const unnamed = papers.filter((g) => !named.has(g.id));
      assert.ok(unnamed.length > 0 && named.size > 5);
      unnamed.forEach((g) => assert.ok(blocked(g, papers, titles, z), `${g.id} (${g.cites} citers) had room`));
    }
  }
});

test("a paper's title is drawn on its first free side; on a timeline the sides come in their own order", () => {
  const alone = placeTitles([paper("a", 0, 0)], view(1), wrap);
  assert.equal(alone.chosen[0][1].side, "bottom");
  const tl = placeTitles([paper("a", 0, 0, { tl: true })], view(1), wrap);
  assert.equal(tl.chosen[0][1].side, TL_SIDES[0]);
  /* a paper just below takes the bottom side's room: the title goes on top */
  const below = placeTitles([paper("a", 0, 0, { cites: 5 }), paper("b", 0, 22, { label: "" })], view(1), wrap);
  assert.equal(below.chosen.find((c) => c[0].id === "a")[1].side, "top");
});

test("titles go to the more cited first; papers outside the viewport or untitled get none", () => {
  /* two papers whose titles can only take the same room: the more cited one is named */
  const a = paper("a", -4, 0, { cites: 1 }),
    b = paper("b", 4, 0, { cites: 9 });
  const got = placeTitles([a, b, paper("far", 900, 0), paper("blank", 200, 200, { label: "" })], view(1), wrap);
  const ids = got.chosen.map((c) => c[0].id);
  assert.equal(ids[0], "b");
  assert.ok(!ids.includes("far") && !ids.includes("blank"));
});

test("a placing measures the titles of at most MAX_TRIED papers after the notable ones, most cited first", () => {
  const papers = [];
  for (let i = 0; i < MAX_TRIED + 200; i++) {
    papers.push(
      paper("p" + i, -390 + (i % 40) * 20, -290 + Math.floor(i / 40) * 40, { r: 1, label: "T" + i, cites: i }),
    );
  }
  const measured = new Set();
  const counting = (...args) => {
    measured.add(args[0]);
    return wrap(...args);
  };
  placeTitles(papers, view(4), counting);
  assert.equal(measured.size, NOTABLE + MAX_TRIED);
  assert.ok(measured.has("T" + (MAX_TRIED + 199)) && !measured.has("T0"));
});

test("a title keeps off the ring drawn round another paper, not only off its body", () => {
  /* a paper with room for its title only below it, where a ringed paper's ring (not its body) reaches */
  const a = paper("a", 0, 0, { cites: 9, label: "Ab" }),
    ringed = paper("b", 0, 40, { r: 4, label: "" });
  const plain = placeTitles([a, ringed], view(1), wrap).chosen[0][1];
  assert.equal(plain.side, "bottom", "the bare body leaves it room below");
  const got = placeTitles([a, Object.assign({}, ringed, { ring: 6 })], view(1), wrap).chosen[0][1];
  assert.notEqual(got.side, "bottom");
  assert.ok(!overlaps(got, bodyBox(ringed, 6)), "clear of the ring");
});

test("a line to a title set apart near its paper crosses no other such line; one in a band is on its paper's side unless that band is full", () => {
  /* a dense disc of papers in a tall map, as on a phone: the most cited, and three seeds, set apart round it */
  const papers = [];
  let s = 5;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 300; i++) {
    const t = 2 * Math.PI * next(),
      d = 150 * Math.sqrt(next());
    papers.push(
      paper("p" + i, d * Math.cos(t), d * Math.sin(t), {
        r: i < 3 ? 7 : 3,
        rank: i < 3 ? 1 : 2,
        bold: i < 3,
        cites: Math.floor(1000 * next()),
        label: "A long enough title of paper " + i,
      }),
    );
  }
  const tall = { x1: -200, x2: 200, y1: -420, y2: 420 };
  const got = placeTitles(papers, view(1, { ext: tall }), wrap);
  const lines = got.callouts.map(([g, b]) => [g, b]);
  const far = ([, b]) => b.band;
  assert.ok(lines.length >= 8 && lines.some(far) && !lines.every(far), "titles set apart, near and in the bands");
  lines.forEach(([g, b], i) => {
    /* a line crosses one drawn before it only to a band, where there was no other room */
    lines
      .slice(0, i)
      .forEach(([h, c]) => assert.ok(far([g, b]) || !crosses(g, b, h, c), `${g.id}'s line and ${h.id}'s`));
    if (far([g, b]) && Math.sign(b.y) !== Math.sign(g.y)) {
      /* across the map only once its own side's band holds a row of titles or more */
      const ownBand = lines.filter(([h, c]) => far([h, c]) && Math.sign(c.y) === Math.sign(g.y) && h !== g);
      assert.ok(ownBand.length >= 3, `${g.id}'s title across the map with ${ownBand.length} in its own band`);
    }
  });
  const across = lines.filter(([g, b]) => far([g, b]) && Math.sign(b.y) !== Math.sign(g.y));
  assert.ok(across.length < lines.filter(far).length / 2, "most titles in a band are on their paper's side");
});
