/* citemap: clientside functions (namespace "citemap") and keyboard shortcuts. */
window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: {
    /* The columnar graph payload (dashboard/graph/view.py) -> Cytoscape elements, and the query drawn. */
    elementsFromPayload: function (text) {
      if (!text) { return [[], ""]; }
      var p = JSON.parse(text), n = p.nodes, out = [], i;
      for (i = 0; i < n.id.length; i++) {
        out.push({
          data: {id: n.id[i], label: n.label[i], title: n.title[i], year: n.year[i], areas: n.areas[i],
                 citations: n.citations[i], in_cited: n.in_cited[i], color: n.color[i], size: n.size[i],
                 role: n.role[i]},
          position: {x: n.x[i], y: n.y[i]},
          classes: n.classes[i]
        });
      }
      for (i = 0; i < p.axis.length; i++) {
        var a = p.axis[i];
        out.push({data: {id: "axis-" + a.year, label: String(a.year)}, position: {x: a.x, y: a.y},
                  classes: "axis", selectable: false, grabbable: false});
      }
      var src = p.edges.source, dst = p.edges.target, sel = p.selected;
      for (i = 0; i < src.length; i++) {
        var s = n.id[src[i]], t = n.id[dst[i]];
        out.push({data: {id: s + ">" + t, source: s, target: t},
                  classes: (s === sel || t === sel) ? "cites touching" : "cites"});
      }
      return [out, p.query];
    },
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
