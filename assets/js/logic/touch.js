/* Which paper a tap on a touch screen means. Pure.

   At a map's fit zoom on a phone, papers are a few pixels wide and a finger is far wider: a tap picks the paper
   whose body is nearest the point the finger touched, within a finger's reach, rather than whichever paper
   Cytoscape's touch tolerance finds first in its drawing order. */

/* A finger's reach, px on screen: a fingertip covers about 44 px (the size Apple's and WCAG's guides give a target). */
export const FINGER = 22;

/* The index in ``papers`` ([{x, y, r, cites}]: a body's centre and radius, one unit for all) of the paper a tap at
   (x, y) picks: the one whose body's edge is nearest the point (0 inside it), if within ``reach``; of two as near,
   the one whose centre is nearer, then the more cited. -1 if none is within reach. */
export function nearestPaper(papers, x, y, reach) {
  let best = -1,
    bestEdge = Infinity,
    bestCentre = Infinity;
  for (let i = 0; i < papers.length; i++) {
    const p = papers[i],
      centre = Math.hypot(p.x - x, p.y - y),
      edge = Math.max(0, centre - p.r);
    if (edge > reach) {
      continue;
    }
    const better =
      edge < bestEdge ||
      (edge === bestEdge &&
        (centre < bestCentre || (centre === bestCentre && (p.cites || 0) > (papers[best].cites || 0))));
    if (better) {
      best = i;
      bestEdge = edge;
      bestCentre = centre;
    }
  }
  return best;
}
