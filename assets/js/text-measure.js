/* The page's text widths and wrapped titles (text-boxes.js), measured on a canvas as Cytoscape measures its labels. */

import { makeTextWidth, makeWrap } from "./logic/text-boxes.js";

let ctx = null,
  font = null;
function measure(want, text) {
  if (!ctx) {
    ctx = document.createElement("canvas").getContext("2d");
  }
  if (font !== want) {
    /* setting a font parses it: only when it changes */
    ctx.font = want;
    font = want;
  }
  return ctx.measureText(text).width;
}

export const textWidth = makeTextWidth(measure);
export const wrap = makeWrap(textWidth);
