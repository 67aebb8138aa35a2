/* The paper the keyboard is on (map-keys.js moves it; labels.js names it first): its id while the map region has the
   keyboard's focus. */

let focused = null;

/* The id of the paper the keyboard is on (or was on last), or null. */
export function focusedPaper() {
  return focused;
}
export function setFocusedPaper(id) {
  focused = id;
}
export function mapRegion() {
  return document.getElementById("div-map-region");
}
/* Whether paper ``id`` has the map's focus now (the region has the keyboard's focus). */
export function hasMapFocus(id) {
  return focused === id && document.activeElement === mapRegion();
}
