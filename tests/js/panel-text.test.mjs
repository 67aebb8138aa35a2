import assert from "node:assert/strict";
import test from "node:test";

import { linkCard, paperCard } from "../../assets/js/logic/hover-card.js";
import { MAX_BYTES, libraryStatus, skipLog, tooBig } from "../../assets/js/logic/library-status.js";

test("the hover card: title, authors, year, counts, areas, the library; a similarity link's reason", () => {
  const data = {
    title: "T",
    authors: ["A", "B"],
    year: 2020,
    in_cited: 1500,
    cited_by: 20000,
    areas: ["cs.LG", "unknown"],
    lib: true,
  };
  assert.equal(
    paperCard(data, "OpenAlex", { "cs.LG": "Machine learning (cs.LG)", unknown: "no area given" }),
    "T\nA, B\n2020 · 1,500 citing in dataset · 20,000 according to OpenAlex · Machine learning (cs.LG), no area " +
      "given\nin your library",
  );
  assert.ok(paperCard(data, "OpenAlex").endsWith(" · cs.LG, no area given\nin your library")); /* no names: codes */
  assert.equal(
    paperCard({ title: "U", year: null, in_cited: 0, cited_by: null }, "x"),
    "U\n? · 0 citing in dataset · ",
  );
  assert.equal(paperCard(null, "x"), "");
  assert.equal(linkCard({ why: "shared references", ends: "A · B" }), "shared references\nA · B");
  assert.equal(linkCard({ source: "a" }), "");
});

test("the library: too big a file is refused before it is sent, named", () => {
  assert.equal(tooBig(100, "lib.bib"), null);
  assert.match(tooBig((MAX_BYTES / 3) * 4 + 8, "lib.bib"), /^lib\.bib is too big: .* 2,097,152 bytes/);
  assert.match(tooBig((MAX_BYTES / 3) * 4 + 8, ""), /^the file is too big/);
});

test("what the page says of a library: the server's sentence, format, the skipped ones (open when few)", () => {
  const library = {
    name: "lib.bib",
    summary: "lib.bib: 1 of 1,200 entries are papers of this dataset.",
    ids: ["a"],
    matched: 1,
    entries: 1200,
    format: "BibTeX",
    encoding: "utf-8",
    skipped: 7,
    log: [{ line: 3, entry: "k1", reason: "no title" }, { reason: "broken" }],
  };
  const [lines, cls, style] = libraryStatus(library, "");
  assert.equal(cls, "library-status");
  assert.deepEqual(style, { display: "flex" });
  assert.equal(lines[0].props.children, "lib.bib: 1 of 1,200 entries are papers of this dataset.");
  assert.equal(libraryStatus({ name: "x.bib", ids: [] }, "")[0][0].props.children, "x.bib", "no sentence: the name");
  assert.equal(lines[1].props.children, "Read as BibTeX in utf-8.");
  const log = lines[2];
  assert.equal(log.props.open, false, "seven entries: opens on a click");
  assert.equal(log.props.children[0].props.children, "7 entries could not be read and were skipped");
  assert.deepEqual(
    log.props.children[1].props.children.map((li) => li.props.children),
    ["line 3 (k1): no title", "broken", "and 5 more"],
  );
  assert.equal(
    skipLog(1, [{ reason: "x" }]).props.children[0].props.children,
    "1 entry could not be read and was skipped",
  );
  const [errLines, errCls, errStyle] = libraryStatus(null, "Could not read the library");
  assert.equal(errLines.length, 1);
  assert.equal(errCls, "library-status error");
  assert.deepEqual(errStyle, { display: "none" });
});
