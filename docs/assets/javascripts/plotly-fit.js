// Figures at a phone's width. A figure whose layout.meta.narrow holds a relayout (its builder's layout for a narrow
// screen: fewer columns, a taller figure; public layout attributes only, e.g. {"height": 900, "xaxis2.domain": [0, 1]})
// gets it below NARROW px, and its own layout back above; likewise meta.narrow_style, a restyle of every trace.
// Then a title, an annotation, an x axis's title or a legend entry wider than the room it has is wrapped onto more
// lines (at spaces; between any two characters of Chinese text), and a row of buttons wider than the figure becomes a
// dropdown. Each text comes back as written when the figure is wide again; figures wider than NARROW px (a desktop
// column) are never touched. Runs after every draw, so a slider step's own texts are fitted too.
(function () {
  const NARROW = 640;  // px: a phone's, a small tablet's, a desktop zoomed to 200 % (608 px); desktop columns are 686+
  const SAFE = 0.9;                                     // the canvas measures a little narrower than the SVG draws
  const CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef";
  const TOKEN = new RegExp("[" + CJK + "][，。；：、）」]?|[^\\s" + CJK + "]+\\s*|\\s+", "g");
  const BREAK = /<br\s*\/?>/i;
  const TAG = /<\/?(?:b|i|em|sup|sub|span|a|br)\b[^>]*>/gi; // plotly's own tags; any other <...> is drawn as text
  const probe = document.createElement("canvas").getContext("2d");
  const fitted = new Map();                             // a text as wrapped here -> the text as written
  const heights = new WeakMap();                        // figure -> its height and top margin as written
  const dropdowns = new WeakMap();                      // figure -> {menu index: the row as written} made dropdowns
  const titleTops = new WeakMap();                     // figure -> px from its top to its title's middle, as written
  const wideLayouts = new WeakMap();                    // figure -> its own values of the keys meta.narrow sets

  // The value at a dotted path of the layout ("xaxis2.domain"); null where the layout states none.
  function layoutValue(layout, path) {
    let v = layout;
    for (const key of path.replace(/\[(\d+)\]/g, ".$1").split(".")) v = v === null || v === undefined ? v : v[key];
    return v === undefined ? null : v;
  }

  // Apply the builder's narrow layout (meta.narrow) and trace style (meta.narrow_style, set on every trace) below
  // NARROW px, or its own ones above; true when a relayout was started.
  function reflow(el, narrow) {
    const meta = el.layout.meta || {}, want = meta.narrow || {}, style = meta.narrow_style || {};
    if (!Object.keys(want).length && !Object.keys(style).length) return false;
    const wide = wideLayouts.get(el);
    let change = null, restyle = null;
    if (narrow && !wide) {
      const own = {layout: {}, style: {}};
      for (const path of Object.keys(want)) own.layout[path] = JSON.parse(JSON.stringify(layoutValue(el.layout, path)));
      // a responsive resize leaves layout.height unset: the height to come back to is the one drawn
      if ("height" in want && !own.layout.height) own.layout.height = Math.round(el.getBoundingClientRect().height);
      for (const path of Object.keys(style)) own.style[path] = el.data.map(t => layoutValue(t, path));
      wideLayouts.set(el, own);
      change = want;
      restyle = style;
    } else if (!narrow && wide) {
      wideLayouts.delete(el);
      change = wide.layout;
      restyle = wide.style;
    }
    if (!change) return false;
    heights.delete(el);                                 // the height as written is the one of the layout now drawn
    const box = el.parentElement;                       // primer's wrapper holds the figure's height: it follows
    if (box && /px$/.test(box.style.height) && typeof change.height === "number") {
      box.style.height = change.height + "px";
    }
    el._primerFitting = true;
    el.dataset.primerFitting = "1";
    const done = () => {
      el._primerFitting = false;
      delete el.dataset.primerFitting;
      update(el);
    };
    let chain = Plotly.relayout(el, change);
    if (Object.keys(restyle).length) chain = chain.then(() => Plotly.restyle(el, restyle));
    chain.then(done, done);
    return true;
  }

  function textWidth(text, size, family) {
    probe.font = size + "px " + family;
    return Math.max(...text.split(BREAK).map(l => probe.measureText(l.replace(TAG, "").replace(/&lt;/g, "<")
                                                                      .replace(/&gt;/g, ">")).width));
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

  function annotationRoom(a, f, layout) {
    const xref = a.xref || "paper", on = xref.match(/^x(\d*) domain$/);
    if (xref !== "paper" && !on) return 0;              // tied to data: left as it is
    // an annotation placed on one subplot's axis (x2 domain) keeps to the figure, centred where it is on the axis
    const d = on ? (layout["xaxis" + on[1]] || {}).domain || [0, 1] : [0, 1];
    const px = f.margin.l + (d[0] + (a.x === undefined ? 0.5 : a.x) * (d[1] - d[0])) * f.plot;
    const anchor = !a.xanchor || a.xanchor === "auto" ? "center" : a.xanchor;
    if (anchor === "left") return f.width - px - 4;
    if (anchor === "right") return px - 4;
    return 2 * Math.min(px, f.width - px) - 8;
  }

  function update(el) {
    if (!el.layout || el._primerFitting || !el.offsetWidth) return;
    if (reflow(el, el.getBoundingClientRect().width < NARROW)) return;
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
      let room = annotationRoom(a, f, el.layout);
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
    // An x axis's title keeps to its axis (centred on it; as wide as the axis where several share the figure)
    const xaxes = Object.keys(el.layout).filter(k => /^xaxis\d*$/.test(k));
    for (const key of xaxes) {
      const axis = el.layout[key], title = axis && axis.title;
      const written = typeof title === "string" ? title : title && title.text;
      if (!written || axis.visible === false) continue;
      // its centre as drawn (the margins grow for tick labels, beyond what the layout states), else as stated
      const d = axis.domain || [0, 1], drawn = el.querySelector(".g-" + key.replace("axis", "") + "title text");
      const at = drawn && drawn.getBoundingClientRect(), left = el.getBoundingClientRect().left;
      const centre = at && at.width ? (at.left + at.right) / 2 - left : f.margin.l + (d[0] + d[1]) / 2 * f.plot;
      let room = 2 * Math.min(centre, f.width - centre) - 8;
      if (xaxes.length > 1) room = Math.min(room, (d[1] - d[0]) * f.plot + 16);
      const size = (title.font && title.font.size) || Math.round(font.size * 1.2);  // plotly's default for axis titles
      const w = fit(written, size, font.family, room, narrow);
      if (w !== null) layout[key + ".title.text"] = w;
    }
    const made = dropdowns.get(el) || new Map();
    dropdowns.set(el, made);
    const menus = (el.layout.updatemenus || []).slice();
    let menusChanged = false;
    menus.forEach((menu, i) => {
      const labels = (menu.buttons || []).map(b => b.label || "");
      const size = (menu.font && menu.font.size) || font.size;
      const row = labels.reduce((s, l) => s + textWidth(l, size, font.family) / SAFE + 24, 0);
      // the row starts where the menu is placed (x on the plot's width, left-anchored), not at the figure's edge
      const x = menu.x === undefined ? -0.05 : menu.x;
      const start = (menu.xanchor || "left") === "left" ? Math.max(0, f.margin.l + x * f.plot) : 0;
      if (narrow && menu.type === "buttons" && menu.direction !== "down" && row > f.width - start - 8) {
        // a dropdown as wide as its longest label, from the figure's left edge rather than the plot's
        const plot = f.width - f.margin.l - f.margin.r;
        menus[i] = Object.assign({}, menu, {type: "dropdown", x: -(f.margin.l - 4) / plot, xanchor: "left"});
        made.set(i, menu);
        menusChanged = true;
      } else if (!narrow && made.has(i)) {
        menus[i] = Object.assign({}, made.get(i), {active: menu.active, y: menu.y});  // y: meta.narrow may move it
        made.delete(i);
        menusChanged = true;
      }
    });
    // A legend below the plot grows taller as its entries wrap: the figure grows with it, the plot keeps its height
    const legend = el.layout.legend || {}, box = el.querySelector(".legend");
    // A responsive resize leaves layout.height unset: the drawn height is the figure's then
    const current = el.layout.height || el.getBoundingClientRect().height;
    if (!heights.has(el)) heights.set(el, {height: current, top: f.margin.t});
    if (!titleTops.has(el) && typeof title.y === "number") titleTops.set(el, (1 - title.y) * current);
    const written = heights.get(el);
    let extra = 0;
    if (narrow && legend.orientation === "h" && (legend.y === undefined || legend.y < 0) && box) {
      extra = Math.max(0, Math.round(box.getBoundingClientRect().height - (f.margin.b - 60)));
      if (extra <= 8) extra = 0;
    }
    // A legend above the plot, standing on it, that takes more rows than its one: the top margin grows by them
    if (narrow && legend.orientation === "h" && legend.yanchor === "bottom" && legend.y >= 1 && box) {
      const rows = [...box.querySelectorAll(".traces")].map(g => Math.round(g.getBoundingClientRect().top));
      const rowTops = [...new Set(rows)].sort((a, b) => a - b);
      if (rowTops.length > 1) grow += Math.ceil(rowTops[rowTops.length - 1] - rowTops[0]);
    }
    // A title in the top margin that wrapped onto more lines: the margin grows by them, the title's top stays put
    const shownTitle = t === null ? title.text : t;
    let titleGrow = 0;
    const titleTop = titleTops.get(el);
    if (typeof shownTitle === "string" && titleTop !== undefined && title.yanchor === "middle"
        && (title.yref || "container") === "container") {
      const added = shownTitle.split(BREAK).length - (fitted.get(shownTitle) || shownTitle).split(BREAK).length;
      const lines = Math.ceil(added * titleSize * 1.3);
      titleGrow = lines ? lines + 8 : 0;                // and a little more: the plot's top tick labels stand out
      const middle = titleTop + lines / 2;
      const y = 1 - middle / (written.height + extra + grow + titleGrow);
      if (Math.abs(y - title.y) > 1e-3) layout["title.y"] = y;
    }
    grow += titleGrow;
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

  // plotly's responsive resize passes over a figure whose layout states both its width and its height, as it does
  // once a fit here set the height: such a figure is given its new width here (a phone turned, a window widened).
  let resizing = null;
  function resize() {
    for (const el of document.querySelectorAll(".js-plotly-plot")) {
      const lay = el.layout || {}, width = Math.round(el.getBoundingClientRect().width);
      if (el.offsetWidth && lay.width && lay.height && Math.abs(lay.width - width) >= 2) Plotly.relayout(el, {width});
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.Plotly) return;
    for (const el of document.querySelectorAll(".js-plotly-plot")) if (el.on) setup(el);
    window.addEventListener("resize", () => {
      clearTimeout(resizing);
      resizing = setTimeout(resize, 150);
    });
  });
})();
