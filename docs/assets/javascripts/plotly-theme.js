// Figures have transparent backgrounds; give their text the colour of the page's light or dark scheme.
(function () {
  function recolor() {
    if (!window.Plotly) return;
    const color = getComputedStyle(document.body).getPropertyValue("--md-default-fg-color").trim() || "#444";
    for (const el of document.querySelectorAll(".js-plotly-plot")) {
      Plotly.relayout(el, { "font.color": color });
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    recolor();
    new MutationObserver(recolor).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  });
})();
