// "Run it here": Run, Edit, Reset and Stop under each block hooks/runner.py marked (data-runnable). Nothing of the
// runtime loads until the reader presses Run: then one Web Worker per page (worker.js) loads the vendored Pyodide and
// numpy, and primer.zip. Labels come from the block's data-runner-labels (primer/labels/<lang>.json, "runner").
// A playground's mark also names a figure of the page (data-playground): its Train button runs the program with every
// printed line sent at once, and each "step train held-out" line becomes a point of the reader's two traces there.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL(".", script.src).href; // .../assets/runner/, whatever sub-path the site lives under
  // search-on-demand.js wraps window.Worker even where there is none: test the prototype, which it copies.
  var supported = typeof WebAssembly === "object" && typeof Worker === "function" && !!Worker.prototype
    && typeof Worker.prototype.postMessage === "function";
  var worker = null, pending = null, seq = 0;

  var css = ".primer-runner{margin:-.6em 0 1em;display:flex;flex-wrap:wrap;gap:.4em;align-items:center}"
    + ".primer-runner button{font:inherit;font-size:.7rem;padding:.25em .9em;border-radius:.2em;cursor:pointer;"
    + "border:1px solid var(--md-primary-fg-color);background:var(--md-default-bg-color);color:var(--md-typeset-color)}"
    + ".primer-runner button:disabled{opacity:.55;cursor:not-allowed}"
    + ".primer-runner button:focus-visible{outline:2px solid var(--md-accent-fg-color);outline-offset:1px}"
    + ".primer-runner [role=status]{font-size:.65rem;color:var(--md-default-fg-color--light)}"
    + ".primer-runner-edit{display:block;width:100%;box-sizing:border-box;min-height:12em;margin:0 0 .6em;"
    + "font-family:var(--md-code-font-family);font-size:.75rem;line-height:1.4;tab-size:4;white-space:pre;"
    + "padding:.8em 1.2em;background:var(--md-code-bg-color);color:var(--md-code-fg-color);"
    + "border:1px solid var(--md-default-fg-color--lightest);border-radius:.1rem}"
    + ".primer-runner-editor{margin:0 0 .6em;border:1px solid var(--md-default-fg-color--lightest);border-radius:.1rem}"
    + ".primer-runner-editor .primer-runner-edit{margin:0;border:0}"
    + ".primer-runner-out{flex-basis:100%}"
    + ".primer-runner-out pre{margin:0;padding:.6em 1.2em;font-size:.75rem;overflow:auto;"
    + "background:var(--md-code-bg-color);color:var(--md-code-fg-color);border-left:3px solid var(--md-accent-fg-color)}"
    + ".primer-runner-out.error pre{border-left-color:var(--md-typeset-del-color,#d33)}"
    + "@media print{.primer-runner,.primer-runner-editor{display:none!important}"
    + ".primer-runner-src[hidden]{display:block!important}}";
  var style = document.createElement("style");
  style.textContent = css;
  document.head.appendChild(style);

  var editorLoad = null;
  function loadEditor() { // CodeMirror (editor.min.js), fetched on the first Edit; resolves false if it cannot load
    if (!editorLoad) {
      editorLoad = new Promise(function (resolve) {
        var tag = document.createElement("script");
        tag.src = base + "editor.min.js";
        tag.onload = function () { resolve(!!window.PrimerEditor); };
        tag.onerror = function () { resolve(false); };
        document.head.appendChild(tag);
      });
    }
    return editorLoad;
  }

  function startWorker() {
    worker = new Worker(base + "worker.js");
    worker.onmessage = function (e) {
      if (pending) pending.onMessage(e.data);
    };
    worker.onerror = function (e) { // the runtime failed to load: report it, and start afresh on the next Run
      stopWorker();
      if (pending) pending.onMessage({ type: "result", output: "", error: String(e.message || e) });
    };
  }

  function stopWorker() {
    if (worker) worker.terminate();
    worker = null;
  }

  var LOSS_LINE = /^\s*(\d+)\s+(\S+)\s+(\S+)\s*$/; // "step  train  held-out", as the playground prints it

  function readerTraces(gd) { // the figure's two empty traces for the reader's run (primer/figures/decoder.py)
    return ["reader-train", "reader-heldout"].map(function (uid) {
      return gd.data.findIndex(function (t) { return t.uid === uid; });
    });
  }

  function plotLoss(figureId, line) {
    var gd = document.getElementById(figureId), m = LOSS_LINE.exec(line);
    if (!m || !window.Plotly || !gd || !gd.data) return;
    var step = Number(m[1]), train = Number(m[2]), held = Number(m[3]);
    if (!(train > 0 && held > 0 && isFinite(train) && isFinite(held))) return; // the axis is logarithmic
    Plotly.extendTraces(gd, { x: [[step], [step]], y: [[train], [held]] }, readerTraces(gd));
  }

  function clearLosses(figureId) {
    var gd = document.getElementById(figureId);
    if (window.Plotly && gd && gd.data) Plotly.restyle(gd, { x: [[], []], y: [[], []] }, readerTraces(gd));
  }

  function setup(mark) { // the mark follows the block's source and the output the build printed
    var text = JSON.parse(mark.getAttribute("data-runner-labels"));
    var limit = Number(mark.getAttribute("data-time-limit")) * 1000;
    var figureId = mark.getAttribute("data-playground"); // null: an ordinary block
    var runLabel = figureId ? text.train : text.run, rerunLabel = figureId ? text.retrain : text.rerun;
    var anchor = mark.previousElementSibling, block = anchor.previousElementSibling;
    block.classList.add("primer-runner-src");
    anchor.classList.add("primer-runner-static");
    var original = block.querySelector("code").textContent.replace(/\n+$/, "") + "\n";
    var bar = document.createElement("div");
    bar.className = "primer-runner";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", text.toolbar);
    function button(label) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      bar.appendChild(b);
      return b;
    }
    var run = button(runLabel), edit = button(text.edit), reset = button(text.reset), stop = button(text.stop);
    reset.disabled = stop.disabled = true;
    var status = document.createElement("span");
    status.setAttribute("role", "status");
    bar.appendChild(status);
    var out = document.createElement("div");
    out.className = "primer-runner-out";
    out.setAttribute("role", "region");
    out.setAttribute("aria-label", text.output);
    out.hidden = true;
    var pre = document.createElement("pre");
    pre.tabIndex = 0;
    out.appendChild(pre);
    bar.appendChild(out);
    mark.insertAdjacentElement("afterend", bar);
    var editor = null;

    if (!supported) {
      run.disabled = edit.disabled = true;
      status.textContent = text.unsupported;
      return;
    }

    function code() {
      return editor ? editor.value() : original;
    }

    // A plain textarea (Tab indents; Escape then Tab leaves), if the editor bundle cannot load.
    function textarea(parent) {
      var area = document.createElement("textarea");
      area.className = "primer-runner-edit";
      area.value = original;
      area.spellcheck = false;
      area.setAttribute("aria-label", text.editor);
      var escaped = false;
      area.addEventListener("keydown", function (e) {
        if (e.key === "Escape") { escaped = true; return; }
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); start(); return; }
        if (e.key === "Tab" && !escaped && !e.shiftKey) {
          e.preventDefault();
          area.setRangeText("    ", area.selectionStart, area.selectionEnd, "end");
        }
        escaped = false;
      });
      parent.appendChild(area);
      return {
        value: function () { return area.value; },
        setValue: function (v) { area.value = v; },
        focus: function () { area.focus(); },
        destroy: function () { area.remove(); },
      };
    }

    function openEditor() {
      if (editor) { editor.focus(); return; }
      edit.disabled = true;
      loadEditor().then(function (ok) {
        var holder = document.createElement("div");
        holder.className = "primer-runner-editor";
        block.insertAdjacentElement("beforebegin", holder);
        editor = ok ? window.PrimerEditor.create(holder, original, text.editor, start) : textarea(holder);
        editor.holder = holder;
        block.hidden = true; // the page's code stays in the DOM: print shows it, Reset brings it back
        reset.disabled = false;
        editor.focus();
      });
    }

    function finish(message, output, isError) {
      clearTimeout(pending && pending.timer);
      pending = null;
      run.disabled = false;
      stop.disabled = true;
      run.textContent = rerunLabel;
      status.textContent = message;
      if (output !== null) {
        pre.textContent = output;
        out.hidden = false;
        out.classList.toggle("error", !!isError);
      }
    }

    function start() {
      if (pending) return; // one run at a time on a page
      if (!worker) { startWorker(); status.textContent = text.loading; }
      else status.textContent = text.running;
      run.disabled = true;
      stop.disabled = false;
      var id = ++seq, began = 0;
      pending = {
        stop: function (message) { stopWorker(); finish(message, null); },
        onMessage: function (m) {
          if (m.id !== undefined && m.id !== id) return;
          if (m.type === "started") {
            began = performance.now();
            status.textContent = text.running;
            if (figureId) clearLosses(figureId);
            pending.timer = setTimeout(function () {
              if (pending) pending.stop(text.timeout.replace("{seconds}", String(limit / 1000)));
            }, limit);
          } else if (m.type === "line") {
            plotLoss(figureId, m.line);
          } else if (m.type === "result") {
            if (m.fatal) stopWorker(); // the runtime did not load: the next Run tries again
            var seconds = ((performance.now() - began) / 1000).toFixed(1);
            var shown = m.error ? (m.output ? m.output + "\n" : "") + text.error + "\n" + m.error : m.output;
            finish(text.done.replace("{seconds}", seconds), shown, !!m.error);
          }
        },
      };
      worker.postMessage({ id: id, code: code(), stream: !!figureId });
    }

    run.addEventListener("click", function () { start(); });
    edit.addEventListener("click", openEditor);
    stop.addEventListener("click", function () { if (pending) pending.stop(text.stopped); });
    reset.addEventListener("click", function () {
      if (editor) { editor.destroy(); editor.holder.remove(); editor = null; }
      block.hidden = false;
      edit.disabled = false;
      reset.disabled = true;
      out.hidden = true;
      pre.textContent = "";
      if (figureId) clearLosses(figureId);
      edit.focus();
    });
  }

  document.querySelectorAll("div.primer-runner-mark[data-runnable]").forEach(setup);
})();
