// What the theme leaves out for screen-reader and keyboard users (found by axe-core in the browser tests).
document.addEventListener("DOMContentLoaded", function () {
  // The search dialog gets a name: the search box's own label.
  const search = document.querySelector('.md-search[role="dialog"]');
  const input = document.querySelector(".md-search__input");
  if (search && !search.getAttribute("aria-label") && input) {
    search.setAttribute("aria-label", input.getAttribute("aria-label") || input.getAttribute("placeholder") || "Search");
  }
  // A table or a displayed formula may scroll sideways (on a phone, or in a tab not shown yet, where it
  // cannot be measured): let the keyboard reach its scroll box.
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap, .primer-figure-table__body, div.arithmatex")) {
    if (!wrap.hasAttribute("tabindex")) wrap.setAttribute("tabindex", "0");
  }
});
