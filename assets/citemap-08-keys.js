/* Keys of the page (the map's own: map-keys.js; a story's: citemap-06-story.js): Esc closes menus or clears the
   selection; arrows move through the search suggestions. */

/* Esc closes an open menu (Export, "?", the areas) and gives the focus back to its button; else it closes the search suggestions
   and clears the selection. */
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") { return; }
  var menus = document.querySelectorAll("details.export[open], details.help[open], details.checkbox-menu[open]");
  if (menus.length) {
    menus.forEach(function (d) {
      var inside = d.contains(document.activeElement);
      d.removeAttribute("open");
      if (inside) { d.querySelector("summary").focus(); }
    });
    return;
  }
  var results = document.getElementById("div-search-results");
  if (results) { results.classList.add("closed"); }
  if (window.dash_clientside && window.dash_clientside.set_props) {
    window.dash_clientside.set_props("store-escape", {data: Date.now()});
  }
});

/* The search suggestions from the keyboard: Down from the search box to the first, Up and Down between them, Up from
   the first back to the box. */
document.addEventListener("keydown", function (event) {
  var t = event.target, k = event.key;
  if (!t || (k !== "ArrowDown" && k !== "ArrowUp") || event.altKey || event.ctrlKey || event.metaKey) { return; }
  var box = document.getElementById("input-search");
  var items = Array.prototype.slice.call(document.querySelectorAll("#div-search-results:not(.closed) .search-select"));
  if (!box || !items.length) { return; }
  var i = items.indexOf(t);
  if (t === box && k === "ArrowDown") { event.preventDefault(); items[0].focus(); return; }
  if (i < 0) { return; }
  event.preventDefault();
  if (k === "ArrowDown") { items[Math.min(i + 1, items.length - 1)].focus(); } else if (i === 0) { box.focus(); }
  else { items[i - 1].focus(); }
});

document.addEventListener("input", function (event) {
  if (event.target && event.target.id === "input-search") {
    var results = document.getElementById("div-search-results");
    if (results) { results.classList.remove("closed"); }
  }
});
