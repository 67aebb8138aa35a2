/* Choices (dashboard/web/components.py). Radio groups (radio_group): a role="radiogroup" whose Dash property
   "data-value" is its value, and role="radio" buttons. A click, Space or Enter chooses an option; the arrow keys move
   to the next or previous option and choose it (one tab stop per group: the checked option's, as the WAI-ARIA radio
   group pattern has it). aria-checked and the tab stop follow "data-value" whoever sets it (a click here, or a
   callback: the URL changed). Checkbox menus (checkbox_menu): a role="group" whose Dash property "data-values" is
   the JSON list of the chosen options' values; a click, Space or Enter on a role="checkbox" button toggles it;
   aria-checked and the menu's summary ("All areas", or the names chosen) follow "data-values". */

import { radioTarget } from "./logic/keyboard.js";
import { setProps } from "./page.js";

function options(group) {
  return Array.from(group.querySelectorAll('[role="radio"]'));
}
function sync(group) {
  const value = group.getAttribute("data-value");
  options(group).forEach((b) => {
    const on = b.getAttribute("data-value") === value;
    b.setAttribute("aria-checked", on ? "true" : "false");
    b.tabIndex = on ? 0 : -1;
  });
}
function choose(group, option) {
  const value = option.getAttribute("data-value");
  if (group.getAttribute("data-value") === value) {
    return;
  }
  options(group).forEach((b) => {
    /* at once, before the round trip */
    b.setAttribute("aria-checked", b === option ? "true" : "false");
    b.tabIndex = b === option ? 0 : -1;
  });
  setProps(group.id, { "data-value": value });
}
function chosen(group) {
  try {
    const v = JSON.parse(group.getAttribute("data-values") || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
function boxes(group) {
  return Array.from(group.querySelectorAll('[role="checkbox"]'));
}
function show(group, values) {
  const on = new Set(values),
    names = [];
  boxes(group).forEach((b) => {
    const v = b.getAttribute("data-value");
    b.setAttribute("aria-checked", on.has(v) ? "true" : "false");
    if (on.has(v)) {
      names.push(b.getAttribute("data-name") || v);
    }
  });
  const summary = group.id && document.getElementById(group.id + "-summary");
  if (summary) {
    summary.textContent = names.length ? names.join(", ") : group.getAttribute("data-placeholder");
    summary.title = summary.textContent; /* the whole choice, where the summary is cut */
  }
}

export function installChoices() {
  document.addEventListener("click", (event) => {
    const option = event.target && event.target.closest && event.target.closest('[role="radio"]');
    const group = option && option.closest('[role="radiogroup"]');
    if (group && group.id) {
      choose(group, option);
    }
  });
  document.addEventListener("keydown", (event) => {
    const option = event.target && event.target.closest && event.target.closest('[role="radio"]');
    const group = option && option.closest('[role="radiogroup"]');
    if (!group || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const all = options(group),
      to = radioTarget(event.key, all.indexOf(option), all.length);
    if (to === null) {
      return;
    }
    event.preventDefault();
    all[to].focus();
    choose(group, all[to]);
  });
  document.addEventListener("click", (event) => {
    const box = event.target && event.target.closest && event.target.closest('[role="checkbox"]');
    const group = box && box.closest("[data-values]");
    if (!group || !group.id) {
      return;
    }
    const values = boxes(group)
      .filter((b) => {
        /* in the menu's order */
        const was = b.getAttribute("aria-checked") === "true";
        return b === box ? !was : was;
      })
      .map((b) => b.getAttribute("data-value"));
    show(group, values);
    setProps(group.id, { "data-values": JSON.stringify(values) });
  });
  new MutationObserver((records) => {
    records.forEach((r) => {
      const t = r.target;
      if (!t.getAttribute) {
        return;
      }
      if (r.attributeName === "data-value" && t.getAttribute("role") === "radiogroup") {
        sync(t);
      }
      if (r.attributeName === "data-values") {
        show(t, chosen(t));
      }
    });
  }).observe(document.documentElement, {
    attributes: true,
    subtree: true,
    attributeFilter: ["data-value", "data-values"],
  });
}
