/* The visitor's library in the page: a file chosen is sent to POST /library (nothing is kept on the server), what the
   page says of it (library-status.js). */

import { tooBig } from "./logic/library-status.js";
import { prefix } from "./page.js";

/* A library file chosen in the page (a data URL) -> POST /library -> [{name, format, encoding, entries, matched, ids,
   skipped, log}, why it could not be used]. A file that cannot be used changes nothing and says why. */
export async function loadLibrary(contents, filename) {
  const nu = window.dash_clientside.no_update;
  if (typeof contents !== "string" || contents.indexOf(",") < 0) {
    return [nu, nu];
  }
  const b64 = contents.slice(contents.indexOf(",") + 1);
  const big = tooBig(b64.length, filename);
  if (big) {
    return [nu, big];
  }
  const bin = atob(b64),
    bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) {
    bytes[i] = bin.charCodeAt(i);
  }
  const response = await fetch(prefix() + "library?name=" + encodeURIComponent(filename || "library"), {
    method: "POST",
    body: bytes,
    headers: { "Content-Type": "application/octet-stream" },
  });
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (!response.ok || !answer || !Array.isArray(answer.ids)) {
    const why = answer && answer.error ? answer.error : "HTTP " + response.status;
    return [nu, "Could not read the library: " + why + ". Nothing was changed."];
  }
  return [answer, ""];
}
