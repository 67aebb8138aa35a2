/* Keys of the page (the map's own: map-keys.js; a story's: story.js): Esc closes menus or clears the selection;
   arrows move through the search suggestions (keyboard.js suggestionTarget); "Did you mean" puts its words in the
   search box. */

import { suggestionTarget } from "./logic/keyboard.js";
import { setProps } from "./page.js";

export function installPageKeys() {
  /* Esc closes an open menu (Export, "?", the areas) and gives the focus back to its button; else it closes the
     search suggestions and clears the selection. */
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") {
      return;
    }
    const menus = document.querySelectorAll("details.export[open], details.help[open], details.checkbox-menu[open]");
    if (menus.length) {
      menus.forEach((d) => {
        const inside = d.contains(document.activeElement);
        d.removeAttribute("open");
        if (inside) {
          d.querySelector("summary").focus();
        }
      });
      return;
    }
    const results = document.getElementById("div-search-results");
    if (results) {
      results.classList.add("closed");
    }
    setProps("store-escape", { data: Date.now() });
  });

  /* The search suggestions from the keyboard: Down from the search box to the first, Up and Down between them, Up
     from the first back to the box. */
  document.addEventListener("keydown", (event) => {
    const t = event.target,
      k = event.key;
    if (!t || (k !== "ArrowDown" && k !== "ArrowUp") || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const box = document.getElementById("input-search");
    const items = Array.from(document.querySelectorAll("#div-search-results:not(.closed) .search-select"));
    if (!box || !items.length) {
      return;
    }
    const i = t === box ? -1 : items.indexOf(t);
    if (i < 0 && t !== box) {
      return;
    }
    const to = suggestionTarget(k, i, items.length);
    if (to === null) {
      return;
    }
    event.preventDefault();
    (to === -1 ? box : items[to]).focus();
  });

  /* "Did you mean ...?" above the search suggestions: a click puts the corrected words in the search box (which
     searches them) and gives it the focus. */
  document.addEventListener("click", (event) => {
    const fix = event.target && event.target.closest ? event.target.closest(".search-fix") : null;
    if (!fix) {
      return;
    }
    setProps("input-search", { value: fix.getAttribute("data-text") });
    const box = document.getElementById("input-search");
    if (box) {
      box.focus();
    }
  });

  document.addEventListener("input", (event) => {
    if (event.target && event.target.id === "input-search") {
      const results = document.getElementById("div-search-results");
      if (results) {
        results.classList.remove("closed");
      }
    }
  });
}
