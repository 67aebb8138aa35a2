/* Taps on a touch screen: the paper nearest the finger (logic/touch.js) is the one tapped, selected and expanded as a
   click does. A tap right on a paper or on its title picks that paper. */

import { pickOnTouch } from "./cytoscape-private.js";
import { FINGER, nearestPaper } from "./logic/touch.js";
import { onEachCy } from "./page.js";

/* The paper node a touch at model point (x, y) picks, or null. */
function paperNear(cy, x, y) {
  const nodes = cy.nodes(".paper").not(".lib-hidden");
  const papers = nodes.map((n) => {
    const p = n.position();
    return { x: p.x, y: p.y, r: n.outerWidth() / 2, cites: n.data("in_cited") || 0 };
  });
  const k = nearestPaper(papers, x, y, FINGER / (cy.zoom() || 1));
  return k < 0 ? null : nodes[k];
}

export function installTouchTaps() {
  onEachCy((cy) => pickOnTouch(cy, (x, y) => paperNear(cy, x, y)), 200);
}
