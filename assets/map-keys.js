/* The map from the keyboard (dashboard/web/layout.py: div-map-region, one tab stop around the Cytoscape canvas).
   While the region has the keyboard's focus, one paper has the map's focus (a blue ring, its hover card, and its
   description in the aria-live region div-map-focus):
   - Arrow keys: the nearest paper in that direction (within 45 degrees either side, straight ahead preferred);
   - Shift+arrow: the nearest paper in that direction that cites it or that it cites (along a citation);
   - Enter or Space: select it exactly as a tap does (a tap on the node: the state callback selects and expands it,
     or collapses it again);
   - + (or =) and -: zoom; 0: fit (the zoom buttons' own actions); Esc clears the selection
     (assets/citemap-08-keys.js).
   Presenting a story, the keys are the story's (assets/citemap-06-story.js). window.citemapMapKeys.focused: the
   paper's id. */
window.citemapMapKeys = (function () {
  var api = {focused: null};
  /* the paper the keyboard is on, while the map has the focus: its label is drawn first
     (assets/citemap-09-labels.js) */
  api.isFocused = function (n) { return api.focused === n.id() && document.activeElement === region(); };
  function relabel(cy) { if (window.citemapLabels) { window.citemapLabels.apply(cy); } }
  /* a dark ring in a blue halo: apart from the amber ring of new papers and from every area colour */
  var RING = {"outline-color": "#111827", "outline-width": 4, "outline-offset": 3, "outline-opacity": 1,
              "overlay-color": "#0b5cad", "overlay-padding": 12, "overlay-opacity": 0.3};
  var RING_KEYS = Object.keys(RING).join(" ");
  var DIRECTION = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
  var WORD = {ArrowRight: "right", ArrowLeft: "left", ArrowUp: "up", ArrowDown: "down"};
  var ROLE = {seed: "seed", reference: "reference", citer: "citer", similar: "similar paper", onpath: "on a path"};
  function reduced() { return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches; }
  function region() { return document.getElementById("div-map-region"); }
  function papers(cy) { return cy.nodes(".paper").filter(function (n) { return !n.hasClass("lib-hidden"); }); }
  function say(text) {
    var live = document.getElementById("div-map-focus");
    if (live) { live.textContent = text; }
  }
  function hoverCard(text) {
    if (window.dash_clientside && window.dash_clientside.set_props) {
      window.dash_clientside.set_props("div-hover", {children: text});
    }
  }
  function describe(n) {
    var d = n.data(), role = ROLE[d.role] || "paper";
    var counts = Number(d.in_cited || 0).toLocaleString("en") + " citing in this dataset" +
      (d.cited_by === null || d.cited_by === undefined ? "" : ", " + Number(d.cited_by).toLocaleString("en") +
        " according to " + citemapFigureSource(d.id));
    var state = n.hasClass("selected") ? ", selected" : (n.hasClass("expanded") ? ", expanded" : "");
    var links = n.neighborhood("node.paper").length;
    return d.title + ", " + (d.year === null || d.year === undefined ? "year unknown" : d.year) + ", " + role +
      state + ", " + counts + ", linked to " + links + " paper" + (links === 1 ? "" : "s") + " in view" +
      (d.lib ? ", in your library" : "");
  }
  function unmark(cy) {
    var old = api.focused && cy.getElementById(api.focused);
    if (old && old.nonempty()) { old.removeStyle(RING_KEYS); }
  }
  function inView(cy, n) {
    var ext = cy.extent(), p = n.position(), mx = ext.w * 0.05, my = ext.h * 0.05;
    return p.x > ext.x1 + mx && p.x < ext.x2 - mx && p.y > ext.y1 + my && p.y < ext.y2 - my;
  }
  function focusPaper(cy, n, prefix) {
    unmark(cy);
    api.focused = n.id();
    n.style(RING);
    if (!inView(cy, n)) {
      if (reduced()) { cy.center(n); } else { cy.animate({center: {eles: n}}, {duration: 200}); }
    }
    relabel(cy);
    say((prefix || "") + describe(n));
    if (window.dash_clientside && window.dash_clientside.citemap) {
      hoverCard(window.dash_clientside.citemap.hoverCard(n.data(), null, null));
    }
  }
  /* where the focus starts: the paper it was on, else the selected paper, the first seed, the paper nearest the
     centre of the view */
  function start(cy) {
    var all = papers(cy), n = api.focused ? cy.getElementById(api.focused) : null;
    if (n && n.nonempty() && !n.hasClass("lib-hidden")) { return n; }
    n = all.filter(".selected");
    if (n.nonempty()) { return n[0]; }
    n = all.filter(".seed");
    if (n.nonempty()) { return n[0]; }
    var ext = cy.extent(), cx = ext.x1 + ext.w / 2, cy0 = ext.y1 + ext.h / 2, best = null, bd = Infinity;
    all.forEach(function (m) {
      var p = m.position(), d = (p.x - cx) * (p.x - cx) + (p.y - cy0) * (p.y - cy0);
      if (d < bd) { bd = d; best = m; }
    });
    return best;
  }
  /* the nearest paper of ``among`` from ``from`` in direction key (45 degrees either side; ``wide``: 90) */
  function nearest(from, key, among, wide) {
    var v = DIRECTION[key], p = from.position(), best = null, bestScore = Infinity;
    among.forEach(function (n) {
      if (n.same(from)) { return; }
      var q = n.position(), dx = q.x - p.x, dy = q.y - p.y;
      var along = dx * v[0] + dy * v[1], across = Math.abs(dx * v[1] - dy * v[0]);
      if (along <= 0 || (!wide && across > along)) { return; }
      var score = along + 2 * across;
      if (score < bestScore || (score === bestScore && n.id() < best.id())) { bestScore = score; best = n; }
    });
    return best;
  }
  function move(cy, key, alongCitations) {
    var from = start(cy);
    if (!from) { say("The map has no paper."); return; }
    if (!api.focused || from.id() !== api.focused) { focusPaper(cy, from); return; }
    var among = alongCitations ? from.neighborhood("node.paper").not(".lib-hidden") : papers(cy);
    var to = nearest(from, key, among, alongCitations);
    if (!to) {
      say("No " + (alongCitations ? "linked " : "") + "paper further " + WORD[key] + ". " + describe(from));
      return;
    }
    var how = alongCitations ? (from.edgesTo(to).nonempty() ? "Cited by it: " : "Citing it: ") : "";
    focusPaper(cy, to, how);
  }
  var ZOOM = {"+": "button-zoom-in", "=": "button-zoom-in", "-": "button-zoom-out", "_": "button-zoom-out",
              "0": "button-fit"};
  document.addEventListener("keydown", function (event) {
    var cy = window.cy, r = region();
    if (!cy || !r || event.target !== r || window.__citemapStory || event.ctrlKey || event.metaKey) { return; }
    var k = event.key;
    if (DIRECTION[k] && !event.altKey) {
      event.preventDefault();
      move(cy, k, event.shiftKey);
    } else if ((k === "Enter" || k === " ") && !event.altKey) {
      event.preventDefault();
      var n = start(cy);
      if (!n) { return; }
      if (n.id() !== api.focused) { focusPaper(cy, n); }
      say("Selecting " + n.data("title") + "…");
      n.emit("tap");  /* as a click does: dash-cytoscape's tapNodeData -> the state callback */
    } else if (ZOOM[k] && !event.altKey) {
      event.preventDefault();
      var b = document.getElementById(ZOOM[k]);
      if (b) { b.click(); }
    }
  });
  document.addEventListener("focusin", function (event) {
    var cy = window.cy, r = region();
    if (!cy || !r || event.target !== r || window.__citemapStory) { return; }
    if (!r.matches(":focus-visible")) { return; }  /* a click on the map: the mouse's, not the keyboard's */
    var n = start(cy);
    if (n) { focusPaper(cy, n); }
  });
  document.addEventListener("focusout", function (event) {
    var cy = window.cy;
    if (!cy || event.target !== region()) { return; }
    unmark(cy);
    hoverCard("");
    relabel(cy);
  });
  /* a paper tapped with the mouse is where the keyboard goes on from; the ring comes back after a redraw */
  var timer = setInterval(function () {
    var cy = window.cy;
    if (!cy || cy.__citemapKeys) { return; }
    cy.__citemapKeys = true;
    cy.on("tap", "node.paper", function (e) {
      if (api.focused && api.focused !== e.target.id()) { unmark(cy); }
      api.focused = e.target.id();
      if (document.activeElement === region()) { e.target.style(RING); }
    });
    cy.on("add", "node.paper", function (e) {
      if (e.target.id() === api.focused && document.activeElement === region()) { e.target.style(RING); }
    });
  }, 200);
  window.addEventListener("beforeunload", function () { clearInterval(timer); });
  return api;
})();
