/* GET /graph?<query> asked once more after a quick failure. Pure: fetch, the clock and the wait are given. */

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
  const again = () => deps.sleep(RETRY_MS).then(() => deps.fetch(url, options));
  return deps.fetch(url, options).then(
    (response) => ((response.status === 502 || response.status === 503) && quick() ? again() : response),
    (error) => {
      if (quick()) {
        return again();
      }
      throw error;
    },
  );
}
