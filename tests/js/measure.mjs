/* A stand-in for the page's canvas in the unit tests: a text's width at 100 px is 55 px a character (60 in bold), so
   that widths are known without a browser. */
import { makeTextWidth, makeWrap } from "../../assets/js/logic/text-boxes.js";

export const CHAR = 55;
export const BOLD_CHAR = 60;
export function measure(font, text) {
  return text.length * (font.startsWith("bold") ? BOLD_CHAR : CHAR);
}
export const textWidth = makeTextWidth(measure);
export const wrap = makeWrap(textWidth);
