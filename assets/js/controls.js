/* Controls of the page done in the browser: zoom and fit buttons, notices dismissed, the year chart's double-click,
   a paper chosen in a list brought into view, a list of the panel shown whole, the hover card, the citations of the
   paper under the pointer, narrow screens' tabs. */

import { viewMeta } from "./draw.js";
import { linkCard, paperCard } from "./logic/hover-card.js";
import { figureSource, onEachCy, reducedMotion, setProps } from "./page.js";
import { fit } from "./viewport.js";

/* "Show all" under a list of the paper panel: from then on the panel lists every entry (store-lists-full). */
export function listsFull(clicks) {
  return (clicks || []).some((n) => n > 0) ? true : window.dash_clientside.no_update;
}

/* The hover card: the paper under the pointer (``data``), or the similarity link hovered (``edge``) or tapped
   (``tapped``), whichever ``prop`` (the callback's trigger) says changed. */
export function hoverCard(prop, data, edge, tapped) {
  if (prop.slice(-8) === "EdgeData") {
    return linkCard(prop === "graph-citations.tapEdgeData" ? tapped : edge);
  }
  return paperCard(data, data && data.title ? figureSource(data.id) : "", (viewMeta().palette || {}).area_names);
}

function zoomBy(cy, factor) {
  const zoom = { level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } };
  if (reducedMotion()) {
    cy.zoom(zoom);
  } else {
    cy.animate({ zoom: zoom }, { duration: 150 });
  }
}
function centre(cy, id) {
  const n = cy.getElementById(id);
  if (n.empty() || !n.visible()) {
    return;
  }
  const ext = cy.extent(),
    p = n.position();
  const inside =
    p.x > ext.x1 + ext.w * 0.1 &&
    p.x < ext.x2 - ext.w * 0.1 &&
    p.y > ext.y1 + ext.h * 0.1 &&
    p.y < ext.y2 - ext.h * 0.1;
  if (inside) {
    return;
  }
  if (reducedMotion()) {
    cy.center(n);
  } else {
    cy.animate({ center: { eles: n } }, { duration: 250 });
  }
}

/* Narrow screens: the tabs under the map choose what covers the page (the filters, the map, the paper panel); the
   map itself stays laid out underneath, so that Cytoscape keeps its size and the view. */
function showTab(name) {
  const app = document.querySelector(".app");
  if (!app) {
    return;
  }
  app.setAttribute("data-tab", name);
  document.querySelectorAll(".tab[data-tab]").forEach((t) => {
    t.setAttribute("aria-selected", t.getAttribute("data-tab") === name ? "true" : "false");
  });
}

export function installControls() {
  let centreOn = null; /* a paper chosen in a list, brought into view once the map of its state is drawn */
  document.addEventListener("click", (event) => {
    const t = event.target,
      cy = window.cy;
    if (!t || !t.closest) {
      return;
    }
    if (t.closest(".notice-close")) {
      t.closest(".notice").classList.add("dismissed");
      return;
    }
    if (cy && t.closest("#button-zoom-in")) {
      zoomBy(cy, 1.3);
      return;
    }
    if (cy && t.closest("#button-zoom-out")) {
      zoomBy(cy, 1 / 1.3);
      return;
    }
    if (cy && t.closest("#button-fit")) {
      fit(cy, true);
      return;
    }
    const link = t.closest(".list .link, .seed-item .link, .search-select");
    if (link) {
      const id = link.id && link.id.charAt(0) === "{" ? JSON.parse(link.id).index : null;
      centreOn = id;
      if (cy && id && cy.getElementById(id).nonempty()) {
        centre(cy, id);
      }
    }
  });
  function attach(cy) {
    cy.on("add", "node.paper", () => {
      /* the map of the new state is drawn: bring the chosen paper into view */
      if (!centreOn) {
        return;
      }
      const id = centreOn;
      setTimeout(() => {
        centreOn = null;
        centre(cy, id);
      }, 120);
    });
    cy.on("mouseout", "node.paper, edge.similar", () => {
      /* the hover card goes with the pointer */
      setProps("div-hover", { children: "" });
    });
    /* Citations are drawn faint (dashboard/web/layout.py), but those of the paper under the pointer stand out, as the
       selected paper's do: a reader follows one paper's links, not the whole web. */
    cy.on("mouseover", "node.paper", (e) => e.target.connectedEdges().addClass("near"));
    cy.on("mouseout", "node.paper", (e) => e.target.connectedEdges().removeClass("near"));
    const box = cy.container(); /* a pointer that leaves the map in one move gives no mouseout of the paper */
    if (box) {
      box.addEventListener("mouseleave", () => cy.edges(".near").removeClass("near"));
    }
  }
  /* A double-click on the citations-by-year chart clears its year selection: in select mode a double-click is a
     "deselect"; in zoom mode a "doubleclick". */
  const clearChartYears = () => setProps("store-chart-clear", { data: Date.now() });
  let chartAttached = null;
  function attachChart() {
    const chart = document.querySelector("#graph-by-year .js-plotly-plot");
    if (chart && chart !== chartAttached && chart.on) {
      chartAttached = chart;
      chart.on("plotly_doubleclick", clearChartYears);
      chart.on("plotly_deselect", clearChartYears);
    }
  }
  /* The chart's listeners are added as soon as Plotly has drawn it (a timer alone lost a double-click made just after
     the first paint: the selection was cleared but the years stayed). */
  new MutationObserver(() => {
    if (!chartAttached || !chartAttached.isConnected) {
      attachChart();
    }
  }).observe(document.body, { childList: true, subtree: true });
  onEachCy(attach, 250);
  const timer = setInterval(attachChart, 250);
  window.addEventListener("beforeunload", () => clearInterval(timer));

  document.addEventListener("click", (event) => {
    if (!event.target.closest) {
      return;
    }
    const tab = event.target.closest(".tab[data-tab]");
    if (tab) {
      showTab(tab.getAttribute("data-tab"));
      return;
    }
    /* a paper chosen in a list, on a narrow screen: show it on the map (where it is brought into view) */
    const tabs = document.querySelector(".tabs");
    if (tabs && tabs.offsetParent !== null && event.target.closest(".panel .link, .seeds .link")) {
      showTab("map");
    }
  });
}
