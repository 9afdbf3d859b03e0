// Render the math that pymdownx.arithmatex (generic mode) leaves in the page, with the vendored KaTeX.
document.addEventListener("DOMContentLoaded", function () {
  for (const el of document.querySelectorAll(".arithmatex")) {
    const tex = el.textContent.trim();
    const display = tex.startsWith("\\[");
    katex.render(tex.replace(/^\\[\[(]|\\[\])]$/g, ""), el, { displayMode: display, throwOnError: false });
  }
});
