import assert from "node:assert/strict";
import test from "node:test";

import { yearsRange } from "../../assets/js/logic/years-range.js";

test("the years slider's range in words: its first position reaches back to the oldest paper", () => {
  assert.equal(yearsRange([2018, 2021], 2010, 1971), "2018–2021");
  assert.equal(yearsRange([2021, 2018], 2010, 1971), "2018–2021");
  assert.equal(yearsRange([2010, 2025], 2010, 1971), "≤2010–2025");
  assert.equal(yearsRange([2010, 2025], 2010, 2010), "2010–2025"); /* no paper before the first position */
  assert.equal(yearsRange([2020, 2020], 2010, 1971), "2020");
  assert.equal(yearsRange([2010, 2010], 2010, 1971), "≤2010");
  assert.equal(yearsRange(null, 2010, 1971), "");
  assert.equal(yearsRange([2018, "x"], 2010, 1971), "");
});
