/* citemap: clientside functions (namespace "citemap") and keyboard shortcuts. */
window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: {
    hoverCard: function (data) {
      if (!data || !data.title) { return ""; }
      var year = data.year === null || data.year === undefined ? "?" : data.year;
      var areas = (data.areas || []).join(", ");
      return data.title + "\n" + year + " · cited by " + Number(data.citations || 0).toLocaleString("en") +
        " · " + areas;
    }
  }
});

document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") { return; }
  var results = document.getElementById("div-search-results");
  if (results) { results.classList.add("closed"); }
  if (window.dash_clientside && window.dash_clientside.set_props) {
    window.dash_clientside.set_props("store-escape", {data: Date.now()});
  }
});

document.addEventListener("click", function (event) {
  var item = event.target && event.target.closest && event.target.closest(".export-menu button");
  if (item) { item.closest("details").removeAttribute("open"); }
});

document.addEventListener("input", function (event) {
  if (event.target && event.target.id === "input-search") {
    var results = document.getElementById("div-search-results");
    if (results) { results.classList.remove("closed"); }
  }
});

/* Labels of the papers that always carry one (seeds, selected, expanded, most cited) keep a readable
   size on screen at any zoom; the others appear when zoomed in (min-zoomed-font-size). */
(function () {
  var pending = false;
  function resize(cy) {
    pending = false;
    var z = cy.zoom() || 1;
    var screenPx = 12;
    cy.batch(function () {
      cy.nodes(".labelled").style({"font-size": Math.min(80, Math.max(11, screenPx / z))});
      cy.nodes(".labelled").not(".tl").style({
        "text-max-width": Math.max(150, 170 / z) + "px",
        "text-margin-y": Math.max(4, 4 / z)
      });
      cy.nodes(".axis").style({"font-size": Math.min(90, Math.max(14, 15 / z))});
    });
  }
  function attach(cy) {
    if (cy.__citemapLabels) { return; }
    cy.__citemapLabels = true;
    var schedule = function () {
      if (!pending) { pending = true; window.requestAnimationFrame(function () { resize(cy); }); }
    };
    cy.on("zoom add layoutstop", schedule);
    schedule();
  }
  var timer = setInterval(function () {
    if (window.cy) { attach(window.cy); }
  }, 200);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
})();
