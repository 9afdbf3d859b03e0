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
  const heights = new WeakMap();                        // figure -> its height and top margin as written
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

  // The figure as its own layout states it (public attributes only), with plotly's defaults where it states none.
  function frame(el) {
    const lay = el.layout, width = el.getBoundingClientRect().width;
    const margin = Object.assign({l: 80, r: 80, t: 100, b: 80}, lay.margin);
    const font = Object.assign({size: 12, family: "sans-serif"}, lay.font);
    return {width, margin, font, plot: width - margin.l - margin.r};
  }

  function annotationRoom(a, f) {
    if ((a.xref || "paper") !== "paper") return 0;     // tied to data: left as it is
    const px = f.margin.l + (a.x === undefined ? 0.5 : a.x) * f.plot;
    const anchor = !a.xanchor || a.xanchor === "auto" ? "center" : a.xanchor;
    if (anchor === "left") return f.width - px - 4;
    if (anchor === "right") return px - 4;
    return 2 * Math.min(px, f.width - px) - 8;
  }

  function update(el) {
    if (!el.layout || el._primerFitting || !el.offsetWidth) return;
    const f = frame(el), font = f.font;
    const narrow = f.width < NARROW, layout = {}, names = {};
    const title = typeof el.layout.title === "string" ? {text: el.layout.title} : el.layout.title || {};
    const titleSize = (title.font && title.font.size) || font.size * 1.4;
    const tx = title.x === undefined ? 0.5 : title.x;
    const titleLeft = title.xref === "paper" ? f.margin.l + tx * f.plot : tx * f.width;
    const t = fit(title.text, titleSize, font.family, f.width - titleLeft - 8, narrow);
    if (t !== null) layout["title.text"] = t;
    const notes = el.layout.annotations || [];
    let grow = 0;                                       // px the top margin needs for wrapped lines above the plot
    notes.forEach((a, i) => {
      const size = (a.font && a.font.size) || font.size;
      let room = annotationRoom(a, f);
      // Centred texts in one row (subplot titles): each keeps to the space between its neighbours' centres
      const centred = b => (b.xref || "paper") === "paper" && (!b.xanchor || b.xanchor === "center"
                                                                 || b.xanchor === "auto");
      if (centred(a)) {
        for (const b of notes) {
          if (b !== a && centred(b) && Math.abs((b.y || 0) - (a.y || 0)) < 0.02 && b.x !== a.x)
            room = Math.min(room, Math.abs(b.x - a.x) * f.plot - 8);
        }
      }
      const w = fit(a.text, size, font.family, room, narrow);
      if (w !== null) layout["annotations[" + i + "].text"] = w;
      const shown = w === null ? a.text : w;   // lines added over the written text, by a text above the plot
      if ((a.yref || "paper") === "paper" && a.y >= 1 && typeof shown === "string") {
        const added = shown.split(BREAK).length - (fitted.get(shown) || shown).split(BREAK).length;
        grow = Math.max(grow, Math.ceil(added * size * 1.3));
      }
    });
    const made = dropdowns.get(el) || new Map();
    dropdowns.set(el, made);
    const menus = (el.layout.updatemenus || []).slice();
    let menusChanged = false;
    menus.forEach((menu, i) => {
      const labels = (menu.buttons || []).map(b => b.label || "");
      const row = labels.reduce((s, l) => s + textWidth(l, font.size, font.family) + 24, 0);
      if (narrow && menu.type === "buttons" && menu.direction !== "down" && row > f.width - 8) {
        // a dropdown as wide as its longest label, from the figure's left edge rather than the plot's
        const plot = f.width - f.margin.l - f.margin.r;
        menus[i] = Object.assign({}, menu, {type: "dropdown", x: -(f.margin.l - 4) / plot, xanchor: "left"});
        made.set(i, menu);
        menusChanged = true;
      } else if (!narrow && made.has(i)) {
        menus[i] = Object.assign({}, made.get(i), {active: menu.active});
        made.delete(i);
        menusChanged = true;
      }
    });
    // A legend below the plot grows taller as its entries wrap: the figure grows with it, the plot keeps its height
    const legend = el.layout.legend || {}, box = el.querySelector(".legend");
    // A responsive resize leaves layout.height unset: the drawn height is the figure's then
    const current = el.layout.height || el.getBoundingClientRect().height;
    if (!heights.has(el)) heights.set(el, {height: current, top: f.margin.t});
    const written = heights.get(el);
    let extra = 0;
    if (narrow && legend.orientation === "h" && (legend.y === undefined || legend.y < 0) && box) {
      extra = Math.max(0, Math.round(box.getBoundingClientRect().height - (f.margin.b - 60)));
      if (extra <= 8) extra = 0;
    }
    if (written.height && written.top !== undefined) {
      const want = written.height + extra + grow, top = written.top + grow;
      if (Math.abs(want - current) > 4) {
        layout.height = want;
        const box = el.parentElement;                   // primer's wrapper holds the figure's height: it grows too
        if (box && /px$/.test(box.style.height)) box.style.height = want + "px";
      }
      if (Math.abs(top - f.margin.t) > 2) layout["margin.t"] = top;
    }
    const legendRoom = f.width - 70;
    el.data.forEach((trace, i) => {
      if (trace.showlegend === false || !trace.name) return;
      const size = (legend.font && legend.font.size) || font.size;
      const w = fit(trace.name, size, font.family, legendRoom, narrow);
      if (w !== null) (names[w] = names[w] || []).push(i);
    });
    if (!Object.keys(layout).length && !Object.keys(names).length && !menusChanged) {
      el._primerRounds = 0;
      return;
    }
    el._primerFitting = true;
    el.dataset.primerFitting = "1";                     // the legibility test waits for this to go
    el._primerRounds = (el._primerRounds || 0) + 1;
    // Draws during the round were not fitted (wrapped names make a taller legend): look again, a few rounds at most
    const done = () => {
      el._primerFitting = false;
      if (el._primerRounds < 4) update(el);
      if (!el._primerFitting) delete el.dataset.primerFitting;
    };
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
