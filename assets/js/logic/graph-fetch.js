/* GET /graph?<query> asked once more after a quick failure, and again when a refusal says when. Pure: fetch, the
   clock and the wait are given. */

/* A refusal for now says when to ask again: 429 (this address asked the server for much work: its budget,
   dashboard/web/budget.py) or 503 (a replica being reloaded onto the build this browser has seen,
   dashboard/web/reloads.py), with Retry-After in seconds. The page waits that long and asks again, up to
   ASK_AGAIN_TIMES times; a wait over ASK_AGAIN_MAX_S, or none said, is not waited for. */
export const ASK_AGAIN_TIMES = 6;
export const ASK_AGAIN_MAX_S = 30;

/* The seconds a response says to wait before asking again, or null. */
export function askAgainIn(response) {
  if (response.status !== 429 && response.status !== 503) {
    return null;
  }
  const said = response.headers ? response.headers.get("Retry-After") : null;
  const seconds = Number(said);
  return said !== null && said.trim() !== "" && Number.isFinite(seconds) && seconds >= 0 && seconds <= ASK_AGAIN_MAX_S
    ? seconds
    : null;
}

/* ask(), asked again while the answer says when (askAgainIn), at most ASK_AGAIN_TIMES times; what the last try
   gets is the answer. ``given.sleep``: the wait (milliseconds). */
export function fetchAgainWhenTold(ask, given, times = ASK_AGAIN_TIMES) {
  const sleep = (given && given.sleep) || defaults.sleep;
  return ask().then((response) => {
    const wait = askAgainIn(response);
    if (wait === null || times <= 0) {
      return response;
    }
    return sleep(wait * 1000).then(() => fetchAgainWhenTold(ask, given, times - 1));
  });
}

/* A replica that dies under the request shows as a network error, or as 502 or 503 from nginx in front; the request
   is idempotent, so it is asked once more, RETRY_MS later (nginx then picks a live replica, or a restarted one). Only
   a failure that came within RETRY_WITHIN_MS is asked again: a view that ran until a timeout (504, or a 502 after
   gunicorn killed the worker) would only take a worker of the other replica the same way. What the second try gets
   is the answer: its response, or its rejection. */
export const RETRY_MS = 500;
export const RETRY_WITHIN_MS = 10000;

const defaults = {
  fetch: (url, options) => fetch(url, options),
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export function fetchRetried(url, options, given) {
  const deps = Object.assign({}, defaults, given);
  const started = deps.now();
  const quick = () => deps.now() - started < RETRY_WITHIN_MS;
  const ask = () => fetchAgainWhenTold(() => deps.fetch(url, options), deps);
  const again = () => deps.sleep(RETRY_MS).then(ask);
  /* a refusal that said when to ask again was asked again as often as it may be: not once more here */
  const dying = (response) => (response.status === 502 || response.status === 503) && askAgainIn(response) === null;
  return ask().then(
    (response) => (dying(response) && quick() ? again() : response),
    (error) => {
      if (quick()) {
        return again();
      }
      throw error;
    },
  );
}
