// Figures at a phone's width. A title, an annotation or a legend entry wider than the room it has is wrapped onto
// more lines (at spaces; between any two characters of Chinese text), and a row of buttons wider than the figure
// becomes a dropdown. Each text comes back as written when the figure is wide again; figures wider than NARROW px
// (a desktop column) are never touched. Runs after every draw, so a slider step's own texts are fitted too.
(function () {
  const NARROW = 600;                                   // px: below this a figure is a phone's or a small tablet's
  const SAFE = 0.9;                                     // the canvas measures a little narrower than the SVG draws
  const CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef";
  const TOKEN = new RegExp("[" + CJK + "][，。；：、）」]?|[^\\s" + CJK + "]+\\s*|\\s+", "g");
  const BREAK = /<br\s*\/?>/i;
  const probe = document.createElement("canvas").getContext("2d");
  const fitted = new Map();                             // a text as wrapped here -> the text as written
  const dropdowns = new WeakMap();                      // figure -> {menu index: the row as written} made dropdowns

  function textWidth(text, size, family) {
    probe.font = size + "px " + family;
    return Math.max(...text.split(BREAK).map(l => probe.measureText(l.replace(/<[^>]+>/g, "")).width));
  }

  // text with its lines broken so that none is wider than room px (a word longer than room keeps its own line).
  function wrap(text, size, family, room) {
    return text.split(BREAK).map(line => {
      const lines = [];
      let cur = "";
      for (const t of line.match(TOKEN) || [line]) {
        if (cur.trim() && textWidth((cur + t).trimEnd(), size, family) > room) {
          lines.push(cur.trimEnd());
          cur = t.trimStart();
        } else cur += t;
      }
      if (cur.trim()) lines.push(cur.trimEnd());
      return lines.join("<br>");
    }).join("<br>");
  }

  // The text to show: the written one if it fits in room, else the written one wrapped. null: no change.
  function fit(current, size, family, room, narrow) {
    if (typeof current !== "string" || !current) return null;
    const written = fitted.get(current) || current;
    let want = written;
    room *= SAFE;
    if (narrow && room > 40 && textWidth(written, size, family) > room) {
      want = wrap(written, size, family, room);
      fitted.set(want, written);
    }
    return want === current ? null : want;
  }

  function annotationRoom(a, full) {
    const m = full.margin, plot = full.width - m.l - m.r;
    if (a.xref !== "paper") return 0;                   // tied to data: left as it is
    const px = m.l + a.x * plot, anchor = a.xanchor === "auto" ? "center" : a.xanchor;
    if (anchor === "left") return full.width - px - 4;
    if (anchor === "right") return px - 4;
    return 2 * Math.min(px, full.width - px) - 8;
  }

  function update(el) {
    const full = el._fullLayout;
    if (!full || el._primerFitting || !el.offsetWidth) return;
    const narrow = full.width < NARROW, font = full.font, layout = {}, names = {};
    const title = full.title || {};
    const titleSize = (title.font && title.font.size) || font.size * 1.4;
    const titleLeft = title.xref === "paper" ? full.margin.l + title.x * (full.width - full.margin.l - full.margin.r)
                                             : title.x * full.width;
    const t = fit(title.text, titleSize, font.family, full.width - titleLeft - 8, narrow);
    if (t !== null) layout["title.text"] = t;
    (el.layout.annotations || []).forEach((a, i) => {
      const fa = full.annotations[i] || a;
      const size = (fa.font && fa.font.size) || font.size;
      const w = fit(a.text, size, font.family, annotationRoom(fa, full), narrow);
      if (w !== null) layout["annotations[" + i + "].text"] = w;
    });
    const made = dropdowns.get(el) || new Map();
    dropdowns.set(el, made);
    const menus = (el.layout.updatemenus || []).slice();
    let menusChanged = false;
    menus.forEach((menu, i) => {
      const labels = (menu.buttons || []).map(b => b.label || "");
      const row = labels.reduce((s, l) => s + textWidth(l, font.size, font.family) + 24, 0);
      if (narrow && menu.type === "buttons" && menu.direction !== "down" && row > full.width - 8) {
        // a dropdown as wide as its longest label, from the figure's left edge rather than the plot's
        const plot = full.width - full.margin.l - full.margin.r;
        menus[i] = Object.assign({}, menu, {type: "dropdown", x: -(full.margin.l - 4) / plot, xanchor: "left"});
        made.set(i, menu);
        menusChanged = true;
      } else if (!narrow && made.has(i)) {
        menus[i] = Object.assign({}, made.get(i), {active: menu.active});
        made.delete(i);
        menusChanged = true;
      }
    });
    const legendRoom = full.width - 70;
    el.data.forEach((trace, i) => {
      if (trace.showlegend === false || !trace.name) return;
      const size = (full.legend && full.legend.font && full.legend.font.size) || font.size;
      const w = fit(trace.name, size, font.family, legendRoom, narrow);
      if (w !== null) (names[w] = names[w] || []).push(i);
    });
    if (!Object.keys(layout).length && !Object.keys(names).length && !menusChanged) return;
    el._primerFitting = true;
    const done = () => { el._primerFitting = false; };
    // A menu that changes type is drawn anew only from an empty list: plotly redraws a changed one over the old
    let chain = menusChanged ? Plotly.relayout(el, {updatemenus: []}) : Promise.resolve();
    if (menusChanged) layout.updatemenus = menus;
    if (Object.keys(layout).length) chain = chain.then(() => Plotly.relayout(el, layout));
    for (const [name, traces] of Object.entries(names)) chain = chain.then(() => Plotly.restyle(el, {name}, traces));
    chain.then(done, done);
  }

  function setup(el) {
    el.on("plotly_afterplot", () => update(el));
    update(el);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.Plotly) return;
    for (const el of document.querySelectorAll(".js-plotly-plot")) if (el.on) setup(el);
  });
})();
