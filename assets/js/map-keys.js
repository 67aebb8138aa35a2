/* The map from the keyboard (dashboard/web/layout.py: div-map-region, one tab stop around the Cytoscape canvas).
   While the region has the keyboard's focus, one paper has the map's focus (a blue ring, its hover card, and its
   description in the aria-live region div-map-focus):
   - Arrow keys: the nearest paper in that direction (within 45 degrees either side, straight ahead preferred);
   - Shift+arrow: the nearest paper in that direction that cites it or that it cites (along a citation);
   - Enter or Space: select it exactly as a tap does (a tap on the node: the state callback selects and expands it,
     or collapses it again);
   - + (or =) and -: zoom; 0: fit (the zoom buttons' own actions); Esc clears the selection (page-keys.js).
   Presenting a story, the keys are the story's (story.js). keyboard.js decides; this file listens and draws. */

import { viewMeta } from "./draw.js";
import { paperCard } from "./logic/hover-card.js";
import { WORD, describePaper, mapKeyAction, nearest } from "./logic/keyboard.js";
import { placeNow } from "./labels.js";
import { focusedPaper, hasMapFocus, mapRegion, setFocusedPaper } from "./map-focus.js";
import { figureSource, onEachCy, reducedMotion, setProps } from "./page.js";
import { presentedStep } from "./story.js";

/* a solid dark ring in a blue halo: apart from the dotted ring of new papers and from every area colour */
const RING = {
  "outline-color": "#111827",
  "outline-width": 4,
  "outline-offset": 3,
  "outline-opacity": 1,
  "overlay-color": "#0b5cad",
  "overlay-padding": 12,
  "overlay-opacity": 0.3,
};
const RING_KEYS = Object.keys(RING).join(" ");

function papers(cy) {
  return cy.nodes(".paper").filter((n) => !n.hasClass("lib-hidden"));
}
function say(text) {
  const live = document.getElementById("div-map-focus");
  if (live) {
    live.textContent = text;
  }
}
function describe(n) {
  const d = n.data();
  return describePaper(d, {
    selected: n.hasClass("selected"),
    expanded: n.hasClass("expanded"),
    links: n.neighborhood("node.paper").length,
    source: d.cited_by === null || d.cited_by === undefined ? "" : figureSource(d.id),
  });
}
function point(n) {
  const p = n.position();
  return { id: n.id(), x: p.x, y: p.y, node: n };
}
function unmark(cy) {
  const id = focusedPaper(),
    old = id && cy.getElementById(id);
  if (old && old.nonempty()) {
    old.removeStyle(RING_KEYS);
  }
}
function inView(cy, n) {
  const ext = cy.extent(),
    p = n.position(),
    mx = ext.w * 0.05,
    my = ext.h * 0.05;
  return p.x > ext.x1 + mx && p.x < ext.x2 - mx && p.y > ext.y1 + my && p.y < ext.y2 - my;
}
function focusPaper(cy, n, prefix) {
  unmark(cy);
  setFocusedPaper(n.id());
  n.style(RING);
  if (!inView(cy, n)) {
    if (reducedMotion()) {
      cy.center(n);
    } else {
      cy.animate({ center: { eles: n } }, { duration: 200 });
    }
  }
  placeNow(cy);
  say((prefix || "") + describe(n));
  setProps("div-hover", { children: paperCard(n.data(), figureSource(n.id()), (viewMeta().palette || {}).area_names) });
}
/* where the focus starts: the paper it was on, else the selected paper, the first seed, the paper nearest the centre
   of the view */
function start(cy) {
  const all = papers(cy),
    id = focusedPaper();
  let n = id ? cy.getElementById(id) : null;
  if (n && n.nonempty() && !n.hasClass("lib-hidden")) {
    return n;
  }
  n = all.filter(".selected");
  if (n.nonempty()) {
    return n[0];
  }
  n = all.filter(".seed");
  if (n.nonempty()) {
    return n[0];
  }
  const ext = cy.extent(),
    cx = ext.x1 + ext.w / 2,
    cy0 = ext.y1 + ext.h / 2;
  let best = null,
    bd = Infinity;
  all.forEach((m) => {
    const p = m.position(),
      d = (p.x - cx) * (p.x - cx) + (p.y - cy0) * (p.y - cy0);
    if (d < bd) {
      bd = d;
      best = m;
    }
  });
  return best;
}
function move(cy, key, alongCitations) {
  const from = start(cy);
  if (!from) {
    say("The map has no paper.");
    return;
  }
  if (!focusedPaper() || from.id() !== focusedPaper()) {
    focusPaper(cy, from);
    return;
  }
  const among = alongCitations ? from.neighborhood("node.paper").not(".lib-hidden") : papers(cy);
  const to = nearest(point(from), key, among.map(point), alongCitations);
  if (!to) {
    say("No " + (alongCitations ? "linked " : "") + "paper further " + WORD[key] + ". " + describe(from));
    return;
  }
  const how = alongCitations ? (from.edgesTo(to.node).nonempty() ? "Cited by it: " : "Citing it: ") : "";
  focusPaper(cy, to.node, how);
}

export function installMapKeys() {
  document.addEventListener("keydown", (event) => {
    const cy = window.cy,
      r = mapRegion();
    if (!cy || !r || event.target !== r || presentedStep() || event.ctrlKey || event.metaKey) {
      return;
    }
    const action = mapKeyAction(event.key, { shift: event.shiftKey, alt: event.altKey });
    if (!action) {
      return;
    }
    event.preventDefault();
    if (action.move) {
      move(cy, action.move, action.along);
    } else if (action.select) {
      const n = start(cy);
      if (!n) {
        return;
      }
      if (n.id() !== focusedPaper()) {
        focusPaper(cy, n);
      }
      say("Selecting " + n.data("title") + "…");
      n.emit("tap"); /* as a click does: dash-cytoscape's tapNodeData -> the state callback */
    } else {
      const b = document.getElementById(action.press);
      if (b) {
        b.click();
      }
    }
  });
  document.addEventListener("focusin", (event) => {
    const cy = window.cy,
      r = mapRegion();
    if (!cy || !r || event.target !== r || presentedStep()) {
      return;
    }
    if (!r.matches(":focus-visible")) {
      return; /* a click on the map: the mouse's, not the keyboard's */
    }
    const n = start(cy);
    if (n) {
      focusPaper(cy, n);
    }
  });
  document.addEventListener("focusout", (event) => {
    const cy = window.cy;
    if (!cy || event.target !== mapRegion()) {
      return;
    }
    unmark(cy);
    setProps("div-hover", { children: "" });
    placeNow(cy);
  });
  /* a paper tapped with the mouse is where the keyboard goes on from; the ring comes back after a redraw */
  onEachCy((cy) => {
    cy.on("tap", "node.paper", (e) => {
      if (focusedPaper() && focusedPaper() !== e.target.id()) {
        unmark(cy);
      }
      setFocusedPaper(e.target.id());
      if (document.activeElement === mapRegion()) {
        e.target.style(RING);
      }
    });
    cy.on("add", "node.paper", (e) => {
      if (hasMapFocus(e.target.id())) {
        e.target.style(RING);
      }
    });
  }, 200);
}
