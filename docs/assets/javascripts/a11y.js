// What the theme leaves out for screen-reader and keyboard users (found by axe-core in the browser tests).
function primerA11y() {
  // The search dialog gets a name: the search box's own label.
  const search = document.querySelector('.md-search[role="dialog"]');
  const input = document.querySelector(".md-search__input");
  if (search && !search.getAttribute("aria-label") && input) {
    search.setAttribute("aria-label", input.getAttribute("aria-label") || input.getAttribute("placeholder") || "Search");
  }
  // A table, a displayed formula or a notebook's code or output may scroll sideways (on a phone, or in a tab not
  // shown yet, where it cannot be measured): let the keyboard reach its scroll box.
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap, .primer-figure-table__body, div.arithmatex, "
                                               + ".highlight-ipynb, .jp-OutputArea-output pre, .jp-Notebook .highlight pre")) {
    if (!wrap.hasAttribute("tabindex")) wrap.setAttribute("tabindex", "0");
  }
  // Material gives every code block a <nav> for its copy button: landmarks need distinct names.
  const word = document.documentElement.lang === "zh" ? "代码块 " : "Code block ";
  document.querySelectorAll("nav.md-code__nav").forEach(function (nav, i) {
    if (!nav.hasAttribute("aria-label")) nav.setAttribute("aria-label", word + (i + 1));
  });
}
// Material's documented hook for extra JavaScript (document$), which fires once its components are mounted.
if (typeof document$ !== "undefined") document$.subscribe(primerA11y);
else document.addEventListener("DOMContentLoaded", primerA11y);
