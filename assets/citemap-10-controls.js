/* Controls of the page done in the browser: zoom and fit buttons, notices dismissed, the year chart's double-click,
   a paper chosen in a list brought into view, a list of the panel shown whole (listsFull), the hover card (clientside
   hoverCard), narrow screens' tabs. */

window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: Object.assign({}, (window.dash_clientside || {}).citemap, {
    /* "Show all" under a list of the paper panel: from then on the panel lists every entry (store-lists-full) */
    listsFull: function (clicks) {
      return (clicks || []).some(function (n) { return n > 0; }) ? true : window.dash_clientside.no_update;
    },
    hoverCard: function (data, edge, tapped) {
      var trig = (window.dash_clientside.callback_context || {}).triggered || [];
      var prop = trig.length ? trig[0].prop_id : "";
      if (prop.slice(-8) === "EdgeData") {
        var e = prop === "graph-citations.tapEdgeData" ? tapped : edge;
        return e && e.why ? e.why + "\n" + (e.ends || "") : "";
      }
      if (!data || !data.title) { return ""; }
      var year = data.year === null || data.year === undefined ? "?" : data.year;
      var areas = (data.areas || []).map(citemapAreaLabel).join(", ");
      var authors = (data.authors || []).join(", ");
      var counts = Number(data.in_cited || 0).toLocaleString("en") + " citing in dataset" +
        (data.cited_by === null || data.cited_by === undefined ? "" :
          " · " + Number(data.cited_by).toLocaleString("en") + " per " + citemapFigureSource(data.id));
      return data.title + (authors ? "\n" + authors : "") + "\n" + year + " · " + counts + " · " + areas +
        (data.lib ? "\nin your library" : "");
    }
  })
});

/* Controls done in the browser: zoom and fit buttons, dismissing a notice, a double-click on the citations-by-year
   chart clearing its year selection, and a paper chosen in a list brought into view once the map is drawn. */
(function () {
  var centreOn = null;
  function zoomBy(cy, factor) {
    var zoom = {level: cy.zoom() * factor, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}};
    if (citemapReducedMotion()) { cy.zoom(zoom); } else { cy.animate({zoom: zoom}, {duration: 150}); }
  }
  document.addEventListener("click", function (event) {
    var t = event.target, cy = window.cy;
    if (!t || !t.closest) { return; }
    if (t.closest(".notice-close")) { t.closest(".notice").classList.add("dismissed"); return; }
    if (cy && t.closest("#button-zoom-in")) { zoomBy(cy, 1.3); return; }
    if (cy && t.closest("#button-zoom-out")) { zoomBy(cy, 1 / 1.3); return; }
    if (cy && t.closest("#button-fit")) { citemapFit(cy, true); return; }
    var link = t.closest(".list .link, .seed-item .link, .search-select");
    if (link) {
      var id = link.id && link.id.charAt(0) === "{" ? JSON.parse(link.id).index : null;
      centreOn = id;
      if (cy && id && cy.getElementById(id).nonempty()) { centre(cy, id); }
    }
  });
  function centre(cy, id) {
    var n = cy.getElementById(id);
    if (n.empty() || !n.visible()) { return; }
    var ext = cy.extent(), p = n.position();
    var inside = p.x > ext.x1 + ext.w * 0.1 && p.x < ext.x2 - ext.w * 0.1 && p.y > ext.y1 + ext.h * 0.1 &&
      p.y < ext.y2 - ext.h * 0.1;
    if (inside) { return; }
    if (citemapReducedMotion()) { cy.center(n); } else { cy.animate({center: {eles: n}}, {duration: 250}); }
  }
  function attach(cy) {
    if (cy.__citemapControls) { return; }
    cy.__citemapControls = true;
    cy.on("add", "node.paper", function () {  /* the map of the new state is drawn: bring the chosen paper into view */
      if (!centreOn) { return; }
      var id = centreOn;
      setTimeout(function () { centreOn = null; centre(cy, id); }, 120);
    });
    cy.on("mouseout", "node.paper, edge.similar", function () {  /* the hover card goes with the pointer */
      if (window.dash_clientside && window.dash_clientside.set_props) {
        window.dash_clientside.set_props("div-hover", {children: ""});
      }
    });
    /* Citations are drawn faint (dashboard/web/layout.py), but those of the paper under the pointer stand out, as
       the selected paper's do: a reader follows one paper's links, not the whole web. */
    cy.on("mouseover", "node.paper", function (e) { e.target.connectedEdges().addClass("near"); });
    cy.on("mouseout", "node.paper", function (e) { e.target.connectedEdges().removeClass("near"); });
    var box = cy.container();  /* a pointer that leaves the map in one move gives no mouseout of the paper */
    if (box) { box.addEventListener("mouseleave", function () { cy.edges(".near").removeClass("near"); }); }
  }
  function clearChartYears() {
    if (window.dash_clientside && window.dash_clientside.set_props) {
      window.dash_clientside.set_props("store-chart-clear", {data: Date.now()});
    }
  }
  var chartAttached = null;
  function attachChart() {  /* in select mode a double-click is a "deselect"; in zoom mode a "doubleclick" */
    var chart = document.querySelector("#graph-by-year .js-plotly-plot");
    if (chart && chart !== chartAttached && chart.on) {
      chartAttached = chart;
      chart.on("plotly_doubleclick", clearChartYears);
      chart.on("plotly_deselect", clearChartYears);
    }
  }
  /* The chart's listeners are added as soon as Plotly has drawn it (the 250 ms timer alone lost a double-click made
     just after the first paint: the selection was cleared but the years stayed). */
  new MutationObserver(function () { if (!chartAttached || !chartAttached.isConnected) { attachChart(); } })
    .observe(document.body, {childList: true, subtree: true});
  var timer = setInterval(function () {
    if (window.cy) { attach(window.cy); }
    attachChart();
  }, 250);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
})();

/* Narrow screens: the tabs under the map choose what covers the page (the filters, the map, the paper panel); the
   map itself stays laid out underneath, so that Cytoscape keeps its size and the view. */
function citemapTab(name) {
  var app = document.querySelector(".app");
  if (!app) { return; }
  app.setAttribute("data-tab", name);
  document.querySelectorAll(".tab[data-tab]").forEach(function (t) {
    t.setAttribute("aria-selected", t.getAttribute("data-tab") === name ? "true" : "false");
  });
}
document.addEventListener("click", function (event) {
  if (!event.target.closest) { return; }
  var tab = event.target.closest(".tab[data-tab]");
  if (tab) { citemapTab(tab.getAttribute("data-tab")); return; }
  /* a paper chosen in a list, on a narrow screen: show it on the map (where it is brought into view) */
  var tabs = document.querySelector(".tabs");
  if (tabs && tabs.offsetParent !== null && event.target.closest(".panel .link, .seeds .link")) { citemapTab("map"); }
});
