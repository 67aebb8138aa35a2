/* The page around the map: the app's URL prefix, reduced motion, presenting, the sizes of titles and ticks on
   screen, the Cytoscape instance once dash-cytoscape has made it, GET /graph, scripts of assets/vendor/ loaded on
   first use. */

import { fetchAgainWhenTold, fetchRetried } from "./logic/graph-fetch.js";
import { prefixFrom } from "./logic/url-state.js";

/* Whether this is the app's page (Dash's config is in it). */
export function isAppPage() {
  return !!document.getElementById("_dash-config");
}

export function prefix() {
  return prefixFrom(document.getElementById("_dash-config").textContent);
}

/* Under prefers-reduced-motion nothing moves by itself: glides, fades, animated zooms and pans take no time. */
export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/* Presenting a story: the map takes the window (class "presenting" on the page, story.js). */
export function presenting() {
  return document.documentElement.classList.contains("presenting");
}

/* Titles on the map, px on screen: 13, 15 on a wide screen, 19 while presenting (readable on a projector). */
export function screenPx() {
  if (presenting()) {
    return 19;
  }
  return window.innerWidth >= 1700 ? 15 : 13;
}
/* A timeline's tick labels, px on screen: 15 (13 on a phone: room for the papers), a projector's size while
   presenting. */
export function tickPx() {
  if (presenting()) {
    return screenPx();
  }
  return window.innerWidth < 600 ? 13 : 15;
}

/* dash-cytoscape always hands Cytoscape a wheelSensitivity (its default prop, 1), and Cytoscape warns whenever one is
   given ("You have set a custom wheel sensitivity ..."), although the page sets none (its wheel zoom is
   viewport.js's). That one message is dropped; every other warning reaches the console. Called before Dash draws
   the map. */
export function dropWheelWarning() {
  const warn = console.warn;
  console.warn = function (first) {
    if (typeof first === "string" && first.indexOf("You have set a custom wheel sensitivity") === 0) {
      return;
    }
    return warn.apply(console, arguments);
  };
}

/* The Cytoscape instance (window.cy, which dash-cytoscape sets and external checks read), once it is made. */
export function whenCy() {
  return new Promise((resolve, reject) => {
    let waited = 0;
    const timer = setInterval(() => {
      if (window.cy) {
        clearInterval(timer);
        resolve(window.cy);
      } else if ((waited += 25) > 30000) {
        clearInterval(timer);
        reject(new Error("the map did not start"));
      }
    }, 25);
    if (window.cy) {
      clearInterval(timer);
      resolve(window.cy);
    }
  });
}

/* Call ``attach(cy)`` once for each Cytoscape instance the page comes to have (looked for every ``ms``). */
export function onEachCy(attach, ms) {
  const seen = new WeakSet();
  const timer = setInterval(() => {
    const cy = window.cy;
    if (!cy || seen.has(cy)) {
      return;
    }
    seen.add(cy);
    attach(cy);
  }, ms);
  window.addEventListener("beforeunload", () => clearInterval(timer));
}

/* Set a Dash component's properties from the browser (as a callback's output would). */
export function setProps(id, props) {
  if (window.dash_clientside && window.dash_clientside.set_props) {
    window.dash_clientside.set_props(id, props);
  }
}

/* Whose figure a paper's own citation count (data cited_by) is, named as the page names sources
   (dashboard/view/naming.py source_name): the dataset's one source of figures (div-figure-sources data-source),
   else the sources of the view's papers that the server sends there ({names, of: {paper id: position}}). */
export function figureSource(id) {
  const el = document.getElementById("div-figure-sources");
  if (!el) {
    return "its source";
  }
  if (el.dataset.source) {
    return el.dataset.source;
  }
  const sent = el.textContent ? JSON.parse(el.textContent) : {}; /* empty until the view's sources are sent */
  return (sent.names || [])[(sent.of || {})[id]] || "its source";
}

/* The Dash renderer's callback requests (POST _dash-update-component) are asked again when a refusal says when
   (logic/graph-fetch.js askAgainIn: the address's budget, a replica reloading): a callback refused for now updates
   its part of the page a moment later instead of leaving it as it was. Every other request is the browser's own
   fetch, untouched. Installed before Dash's renderer starts. */
export function installAskingAgain() {
  const plain = window.fetch;
  window.fetch = function (resource, init) {
    const url = typeof resource === "string" ? resource : "";
    if (!url.includes("_dash-update-component")) {
      return plain.call(this, resource, init);
    }
    return fetchAgainWhenTold(() => plain.call(this, resource, init));
  };
}

/* GET /graph?<query>: a view's payload (dashboard/view/payload.py), asked once more after a quick failure, and again
   when a refusal says when. */
export function fetchGraph(query) {
  return fetchRetried(prefix() + "graph" + query, { headers: { Accept: "application/json" } });
}

/* A published library of assets/vendor/ (``src``), loaded on first use; resolves to the global it sets. */
export function vendorScript(src, global) {
  if (window[global]) {
    return Promise.resolve(window[global]);
  }
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = prefix() + "assets/vendor/" + src;
    s.onload = () => resolve(window[global]);
    s.onerror = () => reject(new Error("could not load " + src));
    document.head.appendChild(s);
  });
}

/* Save ``blob`` as a file named ``name`` (a download). */
export function save(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

/* After the next frame is drawn, and a task later: input and other work run in between. */
export function afterFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
