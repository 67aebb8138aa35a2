/* Choices (dashboard/web/components.py). Radio groups (radio_group): a role="radiogroup" whose Dash property "data-value" is its value,
   and role="radio" buttons. A click, Space or Enter chooses an option; the arrow keys move to the next or previous
   option and choose it (one tab stop per group: the checked option's, as the WAI-ARIA radio group pattern has it).
   aria-checked and the tab stop follow "data-value" whoever sets it (a click here, or a callback: the URL changed).
   Checkbox menus (checkbox_menu): a role="group" whose Dash property "data-values" is the JSON list of the chosen
   options' values; a click, Space or Enter on a role="checkbox" button toggles it; aria-checked and the menu's summary
   ("All areas", or the names chosen) follow "data-values". */
(function () {
  function options(group) { return Array.prototype.slice.call(group.querySelectorAll('[role="radio"]')); }
  function sync(group) {
    var value = group.getAttribute("data-value");
    options(group).forEach(function (b) {
      var on = b.getAttribute("data-value") === value;
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
    });
  }
  function choose(group, option) {
    var value = option.getAttribute("data-value");
    if (group.getAttribute("data-value") === value) { return; }
    options(group).forEach(function (b) {  /* at once, before the round trip */
      b.setAttribute("aria-checked", b === option ? "true" : "false");
      b.tabIndex = b === option ? 0 : -1;
    });
    if (window.dash_clientside && window.dash_clientside.set_props) {
      window.dash_clientside.set_props(group.id, {"data-value": value});
    }
  }
  document.addEventListener("click", function (event) {
    var option = event.target && event.target.closest && event.target.closest('[role="radio"]');
    var group = option && option.closest('[role="radiogroup"]');
    if (group && group.id) { choose(group, option); }
  });
  var STEP = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};
  document.addEventListener("keydown", function (event) {
    var option = event.target && event.target.closest && event.target.closest('[role="radio"]');
    var group = option && option.closest('[role="radiogroup"]');
    var step = STEP[event.key];
    if (!group || !step || event.altKey || event.ctrlKey || event.metaKey) { return; }
    event.preventDefault();
    var all = options(group), next = all[(all.indexOf(option) + step + all.length) % all.length];
    next.focus();
    choose(group, next);
  });
  function chosen(group) {
    try { var v = JSON.parse(group.getAttribute("data-values") || "[]"); return Array.isArray(v) ? v : []; }
    catch { return []; }
  }
  function boxes(group) { return Array.prototype.slice.call(group.querySelectorAll('[role="checkbox"]')); }
  function show(group, values) {
    var on = new Set(values), names = [];
    boxes(group).forEach(function (b) {
      var v = b.getAttribute("data-value");
      b.setAttribute("aria-checked", on.has(v) ? "true" : "false");
      if (on.has(v)) { names.push(v); }
    });
    var summary = group.id && document.getElementById(group.id + "-summary");
    if (summary) { summary.textContent = names.length ? names.join(", ") : group.getAttribute("data-placeholder"); }
  }
  document.addEventListener("click", function (event) {
    var box = event.target && event.target.closest && event.target.closest('[role="checkbox"]');
    var group = box && box.closest("[data-values]");
    if (!group || !group.id) { return; }
    var values = boxes(group).filter(function (b) {  /* in the menu's order */
      var was = b.getAttribute("aria-checked") === "true";
      return b === box ? !was : was;
    }).map(function (b) { return b.getAttribute("data-value"); });
    show(group, values);
    if (window.dash_clientside && window.dash_clientside.set_props) {
      window.dash_clientside.set_props(group.id, {"data-values": JSON.stringify(values)});
    }
  });
  new MutationObserver(function (records) {
    records.forEach(function (r) {
      var t = r.target;
      if (!t.getAttribute) { return; }
      if (r.attributeName === "data-value" && t.getAttribute("role") === "radiogroup") { sync(t); }
      if (r.attributeName === "data-values") { show(t, chosen(t)); }
    });
  }).observe(document.documentElement, {attributes: true, subtree: true, attributeFilter: ["data-value", "data-values"]});
})();
