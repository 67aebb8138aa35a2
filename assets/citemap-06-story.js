/* Stories: writing one (a step's camera and text), presenting one (the frame, the projector theme, the steps' keys
   and buttons, the next step's map fetched ahead). */

window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: Object.assign({}, (window.dash_clientside || {}).citemap, {
    /* "Add this view as a step": the click's number and the camera (null at the fit: the step fits its map too). */
    storyCamera: function (n) {
      if (!n) { return window.dash_clientside.no_update; }
      return {n: n, camera: citemapCameraNow(window.cy)};
    },
    /* A step's title or caption typed in its box: into the draft here, at once (no server round trip that would
       draw the boxes again), and noted as what the list shows (store-story-shown: the list is not drawn again). */
    storyText: function (titles, captions, draft) {
      var nu = window.dash_clientside.no_update, ctx = window.dash_clientside.callback_context || {};
      if (!draft || !Array.isArray(draft.steps)) { return [nu, nu]; }
      var steps = draft.steps.slice(), changed = false;
      (ctx.inputs_list || []).forEach(function (boxes, k) {
        var field = k === 0 ? "title" : "caption";
        (boxes || []).forEach(function (box) {
          var i = box.id && box.id.index, s = steps[i];
          if (!s || typeof box.value !== "string" || (s[field] || "") === box.value) { return; }
          steps[i] = Object.assign({}, s);
          steps[i][field] = box.value;
          changed = true;
        });
      });
      if (!changed) { return [nu, nu]; }
      var next = Object.assign({}, draft, {steps: steps});
      return [next, next];
    },
    /* Present the story written in this page (or loaded from a file): from its first step. */
    presentDraft: function (n, draft) {
      var nu = window.dash_clientside.no_update;
      if (!n || !draft || !Array.isArray(draft.steps) || !draft.steps.length) { return [nu, nu]; }
      return [Object.assign({source: "file", name: "", step: 1}, draft), draft.steps[0].view];
    },
    /* Presenting (a story in store-story): the page's frame (class "presenting": the map takes the window), the
       step's title, its caption (Markdown, rendered by dcc.Markdown: no HTML) and its number. */
    presentOverlay: function (story, query) {
      var step = citemapStoryStep(story, query);
      window.__citemapStory = step ? {story: story, index: step.index} : null;
      var was = document.documentElement.classList.contains("presenting");
      document.documentElement.classList.toggle("presenting", !!step);
      citemapWatchCaption();
      if (window.cy && was !== !!step) {
        citemapProjectorTheme(window.cy, !!step);
        /* the ticks' size changed, and so the room they need: fit again once Dash has drawn the frame */
        requestAnimationFrame(function () { if (window.cy) { citemapRefit(window.cy); } });
      }
      if (window.citemapLabels && window.cy) { window.citemapLabels.apply(window.cy); }
      if (!step) { return ["app", {display: "none"}, "", "", ""]; }
      return ["app presenting", {display: "flex"}, step.step.title, citemapCaption(step.step.caption),
              (step.index + 1) + " / " + story.steps.length];
    }
  })
});

/* A step's caption as a dcc.Markdown component (Markdown, no HTML; links open a new tab), made only while a story
   is presented, so that its renderer is fetched then and not with every page; "" when the step has none. */
function citemapCaption(text) {
  if (!text) { return ""; }
  return {type: "Markdown", namespace: "dash_core_components",
          props: {children: text, link_target: "_blank"}};
}

/* On a projector faint lines vanish: while presenting, citations are darker and every paper has a dark outline. */
function citemapProjectorTheme(cy, on) {
  if (on) {
    cy.__citemapBaseStyle = cy.__citemapBaseStyle || cy.style().json();
    cy.style().selector("edge").style({"line-color": "#6b7280", "target-arrow-color": "#6b7280", "opacity": 0.85})
      .selector("node.paper").style({"border-color": "#1d2430", "border-width": 1.5}).update();
  } else if (cy.__citemapBaseStyle) {
    cy.style().fromJson(cy.__citemapBaseStyle).update();
  }
}

/* The step of a story shown now ({step, index}), or null: a dataset's story by the link (``step=N``), a file's by
   the step the page moved to. */
function citemapStoryStep(story, query) {
  if (!story || !Array.isArray(story.steps) || !story.steps.length) { return null; }
  var n = story.step || 1;
  if (story.source === "dataset") {
    if (typeof query !== "string" || query.indexOf("story=" + story.name) < 0) { return null; }
    var m = /[?&]step=(\d+)/.exec(query);
    n = m ? parseInt(m[1], 10) : 1;
  }
  var index = Math.min(Math.max(n, 1), story.steps.length) - 1;
  return {step: story.steps[index], index: index};
}

/* Presenting: the next step's map is asked for while this one is shown. The browser's cache keeps the answer; on Right
   the browser only revalidates it ("no-cache": the server answers an unchanged map with a bodiless 304 at once), so
   the next step is drawn without waiting for the server to build and send it (a presenter's slides are ready before
   they are shown). Nothing is drawn here; a failure changes nothing. */
function citemapPrefetchNext(story, query) {
  var cur = citemapStoryStep(story, query);
  if (!cur || cur.index + 1 >= story.steps.length) { return; }
  var next = cur.index + 2, q;  /* step numbers count from 1 */
  if (story.source === "dataset") {
    q = /[?&]step=\d+/.test(query) ? query.replace(/([?&]step=)\d+/, "$1" + next) : query + "&step=" + next;
  } else {
    q = story.steps[cur.index + 1].view;
  }
  setTimeout(function () {  /* once presenting has been set up (another callback of the same change) */
    if (!document.documentElement.classList.contains("presenting") || typeof q !== "string") { return; }
    citemapFetchGraph(q).catch(function () {});
  }, 150);
}

/* Presenting: Right, Space, PageDown (what a clicker sends) next; Left, PageUp back; Home, End; Esc leaves. */
function citemapGoToStep(index) {
  var cur = window.__citemapStory, set = window.dash_clientside && window.dash_clientside.set_props;
  if (!cur || !set) { return; }
  var story = cur.story, n = story.steps.length;
  index = Math.min(Math.max(index, 0), n - 1);
  if (index === cur.index) { return; }
  if (story.source === "dataset") {
    set("url", {search: "?story=" + encodeURIComponent(story.name) + (index ? "&step=" + (index + 1) : "")});
  } else {
    set("store-story", {data: Object.assign({}, story, {step: index + 1})});
    set("url", {search: story.steps[index].view});
  }
}
function citemapLeaveStory() {
  var cur = window.__citemapStory, set = window.dash_clientside && window.dash_clientside.set_props;
  if (!cur || !set) { return; }
  if (cur.story.source !== "dataset") { set("store-story", {data: null}); }
  else { set("store-escape", {data: Date.now()}); }  /* the state callback leaves the story at its step's view */
  if (document.fullscreenElement && document.exitFullscreen) { document.exitFullscreen().catch(function () {}); }
}
document.addEventListener("keydown", function (event) {
  var cur = window.__citemapStory;
  if (!cur || event.altKey || event.ctrlKey || event.metaKey) { return; }
  var t = event.target, typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
  if (typing) { return; }
  var k = event.key, i = cur.index;
  var to = {ArrowRight: i + 1, " ": i + 1, PageDown: i + 1, ArrowLeft: i - 1, PageUp: i - 1, Home: 0,
            End: cur.story.steps.length - 1}[k];
  if (to !== undefined) { event.preventDefault(); citemapGoToStep(to); return; }
  if (k === "Escape") { event.preventDefault(); event.stopImmediatePropagation(); citemapLeaveStory(); }
}, true);
document.addEventListener("click", function (event) {
  var b = event.target && event.target.closest && event.target.closest(".present-button");
  if (!b || !window.__citemapStory) { return; }
  var i = window.__citemapStory.index;
  if (b.id === "button-present-next") { citemapGoToStep(i + 1); }
  if (b.id === "button-present-prev") { citemapGoToStep(i - 1); }
  if (b.id === "button-present-exit") { citemapLeaveStory(); }
  if (b.id === "button-present-zip") { citemapExportStory("zip"); }
  if (b.id === "button-present-pdf") { citemapExportStory("pdf"); }
  if (b.id === "button-present-full" && document.documentElement.requestFullscreen) {
    document.documentElement.requestFullscreen().catch(function () {});  /* refused: the page fills the window */
  }
});
