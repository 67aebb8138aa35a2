import assert from "node:assert/strict";
import test from "node:test";

import { RETRY_MS, RETRY_WITHIN_MS, fetchRetried } from "../../assets/js/logic/graph-fetch.js";

/* a fetch that answers from a list (a status, or an Error thrown), and a clock moved by hand */
function world(answers, late) {
  const asked = [],
    waited = [];
  let t = 0;
  return {
    asked: asked,
    waited: waited,
    deps: {
      now: () => t,
      sleep: (ms) => {
        waited.push(ms);
        return Promise.resolve();
      },
      fetch: (url) => {
        asked.push(url);
        const a = answers.shift();
        t += late || 0;
        return a instanceof Error ? Promise.reject(a) : Promise.resolve({ status: a });
      },
    },
  };
}

test("a quick 502 or 503 is asked once more, a moment later; what the second try gets is the answer", async () => {
  for (const status of [502, 503]) {
    const w = world([status, 200]);
    assert.equal((await fetchRetried("/graph?q", {}, w.deps)).status, 200);
    assert.deepEqual(w.asked, ["/graph?q", "/graph?q"]);
    assert.deepEqual(w.waited, [RETRY_MS]);
  }
  const twice = world([502, 502, 200]);
  assert.equal((await fetchRetried("/graph?q", {}, twice.deps)).status, 502);
});

test("a network error is asked once more; a second one is the answer", async () => {
  const w = world([new Error("reset"), 200]);
  assert.equal((await fetchRetried("/g", {}, w.deps)).status, 200);
  const again = world([new Error("reset"), new Error("down")]);
  await assert.rejects(fetchRetried("/g", {}, again.deps), /down/);
});

test("a timeout, a slow failure or an answer is not asked again", async () => {
  for (const [answers, late] of [
    [[504], 0],
    [[200], 0],
    [[404], 0],
    [[502], RETRY_WITHIN_MS],
  ]) {
    const w = world(answers.slice(), late);
    assert.equal((await fetchRetried("/g", {}, w.deps)).status, answers[0]);
    assert.equal(w.asked.length, 1);
  }
  const slow = world([new Error("reset")], RETRY_WITHIN_MS + 1);
  await assert.rejects(fetchRetried("/g", {}, slow.deps), /reset/);
});
