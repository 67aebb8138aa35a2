/* The hover card's text: a paper's title, authors, year, counts and areas; a similarity link's reason. Pure. */

import { areaLabel } from "./colour-key.js";

/* A paper's card (``data``: its node data; ``source``: whose figure its own citation count is; ``names``: the
   areas' names, areaLabel); "" for no paper. */
export function paperCard(data, source, names) {
  if (!data || !data.title) {
    return "";
  }
  const year = data.year === null || data.year === undefined ? "?" : data.year;
  const areas = (data.areas || []).map((a) => areaLabel(a, names)).join(", ");
  const authors = (data.authors || []).join(", ");
  const counts =
    Number(data.in_cited || 0).toLocaleString("en") +
    " citing in dataset" +
    (data.cited_by === null || data.cited_by === undefined
      ? ""
      : " · " + Number(data.cited_by).toLocaleString("en") + " according to " + source);
  return (
    data.title +
    (authors ? "\n" + authors : "") +
    "\n" +
    year +
    " · " +
    counts +
    " · " +
    areas +
    (data.lib ? "\nin your library" : "")
  );
}

/* A similarity link's card: why the two papers are similar, and which they are; "" for a citation. */
export function linkCard(edge) {
  return edge && edge.why ? edge.why + "\n" + (edge.ends || "") : "";
}
