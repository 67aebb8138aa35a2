import assert from "node:assert/strict";
import test from "node:test";

import {
  ASK_AGAIN_MAX_S,
  ASK_AGAIN_TIMES,
  RETRY_MS,
  RETRY_WITHIN_MS,
  askAgainIn,
  fetchAgainWhenTold,
  fetchRetried,
} from "../../assets/js/logic/graph-fetch.js";

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
        if (a instanceof Error) {
          return Promise.reject(a);
        }
        /* a status, or [status, Retry-After] */
        const [status, retryAfter] = Array.isArray(a) ? a : [a, null];
        return Promise.resolve({
          status: status,
          headers: new Headers(retryAfter === null ? {} : { "Retry-After": retryAfter }),
        });
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

test("a refusal that says when is asked again after that long, as often as it says, up to a bound", async () => {
  const w = world([[429, "1"], [503, "2"], 200]);
  assert.equal((await fetchRetried("/g", {}, w.deps)).status, 200);
  assert.deepEqual(w.waited, [1000, 2000]);
  const stubborn = world(Array(ASK_AGAIN_TIMES + 1).fill([429, "1"]));
  const last = await fetchRetried("/g", {}, stubborn.deps);
  assert.equal(last.status, 429); /* the answer: not asked once more as a dying replica's 503 would be */
  assert.equal(stubborn.asked.length, ASK_AGAIN_TIMES + 1);
  const reloading = world(Array(ASK_AGAIN_TIMES + 1).fill([503, "1"]));
  assert.equal((await fetchRetried("/g", {}, reloading.deps)).status, 503);
  assert.equal(reloading.asked.length, ASK_AGAIN_TIMES + 1);
});

test("a refusal that says no time, or too long, is the answer; other statuses are not refusals", () => {
  const said = (status, retryAfter) =>
    askAgainIn({ status: status, headers: new Headers(retryAfter === null ? {} : { "Retry-After": retryAfter }) });
  assert.equal(said(429, "3"), 3);
  assert.equal(said(503, "0"), 0);
  assert.equal(said(429, null), null);
  assert.equal(said(429, ""), null);
  assert.equal(said(429, "soon"), null);
  assert.equal(said(429, String(ASK_AGAIN_MAX_S + 1)), null);
  assert.equal(said(500, "1"), null);
  assert.equal(said(200, "1"), null);
});

test("any request may be asked again when told: a callback's", async () => {
  const statuses = [[429, "1"], 200];
  const waited = [];
  const ask = () => {
    const [status, retryAfter] = Array.isArray(statuses[0]) ? statuses.shift() : [statuses.shift(), null];
    return Promise.resolve({ status: status, headers: new Headers(retryAfter ? { "Retry-After": retryAfter } : {}) });
  };
  const sleep = (ms) => {
    waited.push(ms);
    return Promise.resolve();
  };
  assert.equal((await fetchAgainWhenTold(ask, { sleep: sleep })).status, 200);
  assert.deepEqual(waited, [1000]);
});
