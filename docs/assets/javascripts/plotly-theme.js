// Figures follow Material's light/dark palette without a reload, and every heatmap has its numbers as a table.
//
// Colours: the figures are written for the light scheme. On the dark one (slate) every colour a figure
// carries (heatmap scales, the grey of closed cells, lines, bars, annotations, shapes; the control
// steps' copies too) has its lightness mirrored, L -> 1 - L, hue and saturation kept: dark ink turns
// light, a pale scale end turns dark, and colours that differ in light still differ in dark. Text and
// grid lines take Material's own colours (--md-default-fg-color...). Switching back restores every
// colour exactly (each mirrored colour remembers its original).
(function () {
  const COLOR_KEYS = new Set(["color", "arrowcolor", "bgcolor", "bordercolor", "fillcolor", "tickcolor",
                              "activecolor", "outlinecolor"]);
  const GRID_KEYS = { gridcolor: "--md-default-fg-color--lightest", zerolinecolor: "--md-default-fg-color--lighter",
                      linecolor: "--md-default-fg-color--lighter" };
  const original = new Map();   // mirrored colour -> the colour it came from
  const configs = new WeakMap();   // a figure's div -> the config its newPlot was given (a redraw keeps it)
  const probe = document.createElement("canvas").getContext("2d");

  function cssVar(name, fallback) {
    return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
  }

  function rgba(color) {
    probe.fillStyle = "#000";
    probe.fillStyle = color;   // the canvas normalises any CSS colour to #rrggbb or rgba(...)
    const c = probe.fillStyle;
    if (c[0] === "#") return [1, 3, 5].map(i => parseInt(c.slice(i, i + 2), 16)).concat([1]);
    const m = c.match(/rgba?\(([^)]+)\)/);
    return m ? m[1].split(",").map(Number).concat([1]).slice(0, 4) : null;
  }

  function mirror(color) {
    if (typeof color !== "string") return color;
    const c = rgba(color);
    if (!c || c[3] === 0) return color;                 // transparent stays transparent
    const [r, g, b] = c.slice(0, 3).map(v => v / 255);
    const max = Math.max(r, g, b), min = Math.min(r, g, b), l = (max + min) / 2, d = max - min;
    let h = 0, s = 0;
    if (d) {
      s = d / (1 - Math.abs(2 * l - 1));
      h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    }
    const l2 = 1 - l, c2 = (1 - Math.abs(2 * l2 - 1)) * s, x = c2 * (1 - Math.abs(h % 2 - 1)), m = l2 - c2 / 2;
    const rgb = [[c2, x, 0], [x, c2, 0], [0, c2, x], [0, x, c2], [x, 0, c2], [c2, 0, x]][Math.floor(h) % 6]
      .map(v => Math.round((v + m) * 255));
    const out = c[3] === 1 ? "rgb(" + rgb.join(", ") + ")" : "rgba(" + rgb.join(", ") + ", " + c[3] + ")";
    original.set(out, color);
    return out;
  }

  function luminance(c) {
    const lin = c.slice(0, 3).map(v => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  }

  // Text on the dark page: mirrored, unless the colour as written already reads better there (a light grey).
  function mirrorText(color) {
    const bg = rgba(getComputedStyle(document.body).backgroundColor), c = rgba(color);
    if (!bg || !c) return mirror(color);
    const ratio = x => { const a = luminance(x) + 0.05, b = luminance(bg) + 0.05; return Math.max(a, b) / Math.min(a, b); };
    const m = mirror(color);
    return ratio(rgba(m)) >= ratio(c) ? m : color;
  }

  function unmirror(color) {
    return typeof color === "string" && original.has(color) ? original.get(color) : color;
  }

  // Return a copy of obj with each colour passed through f; grid and text colours from Material.
  function recolor(obj, f, key) {
    if (Array.isArray(obj)) {
      if (key === "colorscale") return obj.map(stop => [stop[0], f(stop[1])]);
      return obj.map(v => recolor(v, f, key));
    }
    if (f === mirror && /font$|^[xy]axis\d*$/.test(key || "")) f = mirrorText;   // text, and an axis's tick labels
    if (obj && typeof obj === "object") {
      const out = {};
      for (const [k, v] of Object.entries(obj)) {
        if (k in GRID_KEYS && typeof v === "string") out[k] = cssVar(GRID_KEYS[k], v);
        else if (COLOR_KEYS.has(k) && typeof v === "string") out[k] = f(v);
        else if (COLOR_KEYS.has(k) && Array.isArray(v)) out[k] = v.map(f);   // a colour per bar or point
        else if (k === "template") out[k] = v;                                // the figure's own colours win
        else out[k] = recolor(v, f, k);
      }
      return out;
    }
    return obj;
  }

  // The axes its layout names and those its traces use (plotly adds these when it first draws).
  function axesOf(layout, data) {
    const axes = new Set(Object.keys(layout).filter(k => /^[xy]axis\d*$/.test(k)));
    for (const t of data || []) {
      if (!t || t.type === "pie") continue;
      axes.add("xaxis" + (t.xaxis || "x").slice(1));
      axes.add("yaxis" + (t.yaxis || "y").slice(1));
    }
    return [...axes];
  }

  function isDark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  // Return [data, layout] in the page's scheme: colours mirrored on dark, text and grid in Material's.
  function themed(data, layout, dark) {
    const f = dark ? mirror : unmirror;
    data = data.map(t => recolor(t, f));
    layout = recolor(layout || {}, f);
    layout.font = Object.assign({}, layout.font, { color: cssVar("--md-default-fg-color", "#444") });
    for (const axis of axesOf(layout, data)) {
      layout[axis] = Object.assign({}, layout[axis], {
        gridcolor: cssVar(GRID_KEYS.gridcolor, "#eee"),
        zerolinecolor: cssVar(GRID_KEYS.zerolinecolor, "#ccc"),
        linecolor: cssVar(GRID_KEYS.linecolor, "#ccc") });
    }
    return [data, layout];
  }

  function mark(el, dark) {
    el.dataset.scheme = dark ? "slate" : "default";
    el.dataset.themed = "1";
  }

  // A drawn figure, redrawn when the reader switches the scheme.
  function theme(el) {
    const dark = isDark();
    if ((el.dataset.scheme || "default") === (dark ? "slate" : "default") && el.dataset.themed) return;
    // every colour scale comes spelt out as stops (primer.figures.html.lean names none), so it can be mirrored
    const [d, layout] = themed(el.data, el.layout, dark);
    mark(el, dark);
    return Plotly.react(el, d, layout, configs.get(el));   // the figure's own config, kept at its newPlot
  }

  // Loaded in <head> after plotly.js: each figure's first draw is in the page's scheme, not redrawn.
  if (window.Plotly) {
    const newPlot = Plotly.newPlot;
    Plotly.newPlot = function (gd, data, layout, config) {
      const el = typeof gd === "string" ? document.getElementById(gd) : gd;
      if (el) configs.set(el, config);
      if (el && document.body && Array.isArray(data)) {
        const dark = isDark();
        [data, layout] = themed(data, layout, dark);
        mark(el, dark);
      }
      return newPlot.call(this, gd, data, layout, config);
    };
  }

  // ---- "show as table": the numbers of the heatmaps shown now, one table per panel

  function fmt(v) {
    return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
  }

  function heatmapTables(el) {
    const panels = new Map();
    el.data.forEach((t, i) => {
      if (t.type !== "heatmap" || t.visible === false || !Array.isArray(t.z)) return;
      const key = (t.xaxis || "x") + (t.yaxis || "y");
      if (!panels.has(key)) panels.set(key, []);
      panels.get(key).push(i);
    });
    const out = [];
    let n = 0;
    for (const [key, traces] of panels) {
      const first = el.data[traces[0]];
      const table = document.createElement("table");
      table.dataset.traces = traces.join(",");
      if (panels.size > 1) table.createCaption().textContent = String(++n);
      const head = table.createTHead().insertRow();
      head.appendChild(document.createElement("td"));
      for (const x of first.x || first.z[0].map((_, j) => j)) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = x;
        head.appendChild(th);
      }
      const body = table.createTBody();
      first.z.forEach((_, r) => {
        const row = body.insertRow();
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = (first.y || [])[r] !== undefined ? first.y[r] : r;
        row.appendChild(th);
        first.z[r].forEach((_, c) => {
          let text = "";
          for (const i of traces) {   // the first trace that draws this cell: its label, else its number
            const t = el.data[i], v = t.z[r] && t.z[r][c];
            if (v === null || v === undefined || Number.isNaN(v)) continue;
            const label = Array.isArray(t.text) && t.text[r] ? t.text[r][c] : "";
            text = label || fmt(v);
            break;
          }
          row.insertCell().textContent = text;
        });
      });
      out.push(table);
    }
    return out;
  }

  function fillTable(details) {
    const el = document.getElementById(details.dataset.figure);
    const body = details.querySelector(".primer-figure-table__body");
    if (!el || !el.data || !body || !details.open) return;
    body.replaceChildren(...heatmapTables(el));
  }

  // ---- keyboard twins: plotly draws sliders and buttons in SVG, which takes no focus. Under each figure with
  // controls, a native range input per slider and a native button per menu entry, doing what plotly's own does (the
  // step's method and args, then the control's active index); hidden from sight until one has the keyboard's focus.

  function execute(el, step) {
    if (!step || step.method === "skip" || typeof Plotly[step.method] !== "function") return Promise.resolve();
    return Promise.resolve(Plotly[step.method].apply(null, [el].concat(step.args || [])));
  }

  function plain(html) {
    const div = document.createElement("div");
    div.innerHTML = String(html || "").replace(/<br\s*\/?>/gi, " ");
    return div.textContent.trim();
  }

  function keyboardTwins(el) {
    const layout = el.layout || {}, sliders = layout.sliders || [], menus = layout.updatemenus || [];
    if (!sliders.length && !menus.length) return;
    const box = document.createElement("div");
    box.className = "primer-figure-keys";
    const syncs = [], syncAll = () => syncs.forEach(f => f());
    sliders.forEach((s, i) => {
      if (!Array.isArray(s.steps) || !s.steps.length) return;
      const label = document.createElement("label"), input = document.createElement("input");
      input.type = "range";
      input.min = "0";
      input.max = String(s.steps.length - 1);
      input.step = "1";
      const sync = () => {
        const k = Number(((el.layout.sliders || [])[i] || {}).active || 0);
        input.value = String(k);
        input.setAttribute("aria-valuetext", plain(s.steps[k] && s.steps[k].label));
      };
      input.addEventListener("input", () => {
        const k = Number(input.value);
        input.setAttribute("aria-valuetext", plain(s.steps[k].label));
        execute(el, s.steps[k]).then(() => Plotly.relayout(el, { ["sliders[" + i + "].active"]: k })).then(syncAll);
      });
      label.append(plain((s.currentvalue || {}).prefix) || String(i + 1), " ", input);
      box.appendChild(label);
      syncs.push(sync);
      sync();
    });
    menus.forEach((m, i) => {
      if (!Array.isArray(m.buttons) || !m.buttons.length) return;
      const group = document.createElement("div");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", m.buttons.map(b => plain(b.label)).join(" / "));
      const buttons = m.buttons.map((b, k) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = plain(b.label);
        button.addEventListener("click", () => {
          execute(el, b).then(() => Plotly.relayout(el, { ["updatemenus[" + i + "].active"]: k })).then(syncAll);
        });
        group.appendChild(button);
        return button;
      });
      const sync = () => {
        const active = Number(((el.layout.updatemenus || [])[i] || {}).active || 0);
        buttons.forEach((b, k) => b.setAttribute("aria-pressed", String(k === active)));
      };
      box.appendChild(group);
      syncs.push(sync);
      sync();
    });
    el.insertAdjacentElement("afterend", box);
    el.on("plotly_afterplot", syncAll);   // the mouse moved plotly's own control
  }

  function setup(el) {
    keyboardTwins(el);
    // Reduced motion: plotly eases a slider's grip over 150 ms (its transition), which CSS cannot switch off.
    if (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches && (el.layout.sliders || []).length) {
      Plotly.relayout(el, Object.fromEntries(el.layout.sliders.map((_, i) => ["sliders[" + i + "].transition.duration", 0])));
    }
    const details = document.querySelector('details.primer-figure-table[data-figure="' + el.id + '"]');
    if (details) {
      details.addEventListener("toggle", () => fillTable(details));
      el.on("plotly_afterplot", () => fillTable(details));   // a control switched what is shown
    }
    theme(el);
  }

  function each(f) {
    for (const el of document.querySelectorAll(".js-plotly-plot")) f(el);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.Plotly) return;
    each(setup);
    new MutationObserver(() => each(theme))
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  });
})();
