// "Run it here": Run, Edit, Reset and Stop under each block hooks/runner.py marked (data-runnable). Nothing of the
// runtime loads until the reader presses Run: then one Web Worker per page (worker.js) loads the vendored Pyodide and
// numpy, and primer.zip. Labels come from the mark's data-runner-labels (primer/labels/<lang>.json, "runner").
// A playground's mark also says which figure it draws into and how (data-playground, data-traces, data-point,
// data-mask, data-bounds: hooks/runner.py writes them from one Python constant); this file knows no chapter.
// A notebook page's cells carry data-session: they share one namespace in the page's Python, as in a kernel, and Run
// on a cell first runs the cells above it that have not run in that Python yet (in order; a failure skips the rest).
// A check cell's mark names its exercise (data-exercise) and the line it prints when passed (data-passed): a pass is
// remembered in localStorage, and every progress line of its chapter (p.primer-progress, data-progress) counts it.
// The styles are in assets/stylesheets/primer.css.
//
// What holds whatever a program does: printed text arrives in chunks and is painted at most every TEXT_MS, with a
// cap on the text and on the points a figure keeps; the time limit is a timer and is also checked on every message;
// events of a worker that was stopped are ignored; a program that ran edited code leaves an interpreter the page's own
// code never runs in again (a fresh one is started); loading has a time limit too.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL(".", script.src).href; // .../assets/runner/, whatever sub-path the site lives under
  // search-on-demand.js wraps window.Worker even where there is none: test the prototype, which it copies.
  var supported = typeof WebAssembly === "object" && typeof Worker === "function" && !!Worker.prototype
    && typeof Worker.prototype.postMessage === "function" && typeof MessageChannel === "function";
  var KEEP_TEXT = 100000, CUT_TEXT = 60000; // characters of output a box keeps: past KEEP, the last CUT stay
  var KEEP_POINTS = 5000; // points a reader's trace keeps
  var TEXT_MS = 100; // the output is repainted at most this often while text streams in
  var REDRAW_MS = 200; // a figure is redrawn at most this often while points stream in (a redraw is the costly part)
  var UNREAD = 400000; // characters of printed text a playground reads at its next redraw, at most (the last ones)
  var MARKERS = 300; // past this many points a reader's trace is drawn as a line alone (markers cost a node each)
  var engine = null; // the page's worker: {worker, port, ready, tainted, loadTimer}
  var pending = null, queue = [], seq = 0;
  var sessions = {}; // session name -> its cells' controls, in page order: {cell, ranHere(), busy(), start(chain)}

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

  function seconds(since) {
    return ((performance.now() - since) / 1000).toFixed(1);
  }

  // ---- the worker: one a page; an event of a worker that is no longer the page's is ignored ----

  function spawn(words, loadLimit) {
    var channel = new MessageChannel();
    var e = { worker: new Worker(base + "worker.js"), port: channel.port1, ready: false, tainted: false, ran: {} };
    e.worker.onerror = function (ev) { // worker.js itself did not load or threw: the event has no useful text
      if (ev && ev.preventDefault) ev.preventDefault();
      if (engine === e) fail(e, words.load_failed, ev && ev.message ? String(ev.message) : "worker.js");
    };
    e.port.onmessage = function (ev) { if (engine === e) receive(e, ev.data); };
    e.worker.postMessage({ words: { no_network: words.no_network, no_input: words.no_input } }, [channel.port2]);
    e.loadTimer = setTimeout(function () {
      if (engine === e && !e.ready) fail(e, words.load_timeout.replace("{seconds}", String(loadLimit / 1000)), "");
    }, loadLimit);
    return e;
  }

  function kill() {
    if (!engine) return;
    clearTimeout(engine.loadTimer);
    engine.port.onmessage = null;
    engine.port.close();
    engine.worker.onerror = null;
    engine.worker.terminate();
    engine = null;
  }

  function fail(e, message, detail) { // loading failed: no run happened; the next Run starts a fresh worker
    kill();
    if (pending) pending.end("failed", message, detail);
  }

  function receive(e, m) {
    if (m.type === "ready") {
      e.ready = true;
      clearTimeout(e.loadTimer);
      if (pending) send(pending);
    } else if (m.type === "failed") {
      fail(e, pending ? pending.words.load_failed : "", m.error);
    } else if (pending && m.id === pending.id) {
      pending.onMessage(m);
    }
  }

  function send(r) { // a session's cells are the reader's to edit: they never taint the page's Python
    if (r.original === false && !r.session) engine.tainted = true;
    if (r.session) engine.ran[r.session + "/" + r.cell] = true;
    engine.port.postMessage({ id: r.id, code: r.code, session: r.session || "" });
  }

  function begin(r) { // r: a run; it waits if another is running
    if (pending) {
      queue.push(r);
      r.waiting();
      return;
    }
    pending = r;
    if (engine && engine.tainted && r.original) kill(); // edited code ran here: the page's own code gets a fresh one
    if (!engine) engine = spawn(r.words, r.loadLimit);
    r.began();
    if (engine.ready) send(r);
  }

  function ended(r) {
    if (pending === r) pending = null;
    queue = queue.filter(function (q) { return q !== r; });
    if (!pending && queue.length) begin(queue.shift());
  }

  // ---- a block ----

  function setup(mark, index, marks) { // the mark follows the block's source and the output the build printed
    var words = JSON.parse(mark.getAttribute("data-runner-labels"));
    var limit = Number(mark.getAttribute("data-time-limit")) * 1000;
    var loadLimit = Number(mark.getAttribute("data-load-limit")) * 1000;
    var plot = mark.hasAttribute("data-playground") ? playground(mark, words) : null;
    var runLabel = plot ? words.train : words.run, rerunLabel = plot ? words.retrain : words.rerun;
    var session = mark.getAttribute("data-session"), cell = mark.getAttribute("data-runnable");
    var exercise = mark.getAttribute("data-exercise");
    // A block: its source, then the output the build printed; a notebook cell: its source alone (shown unexecuted).
    var anchor = session ? null : mark.previousElementSibling;
    var block = session ? mark.previousElementSibling : anchor.previousElementSibling;
    block.classList.add("primer-runner-src");
    if (anchor) anchor.classList.add("primer-runner-static");
    var original = (block.querySelector("code") || block.querySelector("pre")).textContent.replace(/\n+$/, "") + "\n";
    var bar = document.createElement("div");
    bar.className = "primer-runner";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", words.toolbar);
    function button(label) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      bar.appendChild(b);
      return b;
    }
    var run = button(runLabel), edit = button(words.edit), reset = button(words.reset), stop = button(words.stop);
    var clear = plot ? button(words.clear_runs) : null;
    reset.disabled = true;
    if (clear) clear.hidden = true;
    var status = document.createElement("span");
    status.setAttribute("role", "status");
    bar.appendChild(status);
    var out = document.createElement("div");
    out.className = "primer-runner-out";
    out.setAttribute("role", "region");
    // each region a name of its own: a notebook page shows many outputs at once
    out.setAttribute("aria-label", marks.length > 1 ? words.output + " " + (index + 1) : words.output);
    out.hidden = true;
    var pre = document.createElement("pre");
    pre.tabIndex = 0;
    out.appendChild(pre);
    bar.appendChild(out);
    mark.insertAdjacentElement("afterend", bar);
    var editor = null, current = null;
    if (exercise && progress.has(session, exercise)) status.textContent = words.passed_before;
    var control = {
      ranHere: function () { return !!(engine && engine.ran[session + "/" + cell]); },
      busy: function () { return !!current; },
      start: function (chain) { start(chain); },
      skip: function () { if (current && pending !== current) current.end("stopped", words.skipped); },
    };
    if (session) (sessions[session] = sessions[session] || []).push(control);

    if (!supported) {
      run.disabled = edit.disabled = stop.disabled = true;
      status.textContent = words.unsupported;
      return;
    }
    // Run and Stop stay focusable while they cannot act (aria-disabled): focus stays on the control pressed.
    function able(b, on) { b.setAttribute("aria-disabled", on ? "false" : "true"); }
    able(stop, false);

    function code() {
      return editor ? editor.value() : original;
    }

    // A plain textarea (Tab indents; Escape then Tab leaves), if the editor bundle cannot load.
    function textarea(parent) {
      var area = document.createElement("textarea");
      area.className = "primer-runner-edit";
      area.value = original;
      area.spellcheck = false;
      area.setAttribute("aria-label", words.editor);
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
        editor = ok ? window.PrimerEditor.create(holder, original, words.editor, start) : textarea(holder);
        editor.holder = holder;
        block.hidden = true; // the page's code stays in the DOM: print shows it, Reset brings it back
        reset.disabled = false;
        editor.focus();
      });
    }

    // The output: what arrives is kept (its last KEEP_TEXT characters) and painted in a frame at most every TEXT_MS.
    var text = "", cut = false, frame = 0, painted = 0;
    function paint() {
      frame = 0;
      painted = performance.now();
      var atEnd = pre.scrollHeight - pre.scrollTop - pre.clientHeight < 4;
      pre.textContent = (cut ? words.cut + "\n" : "") + text;
      if (atEnd) pre.scrollTop = pre.scrollHeight; // follow the output unless the reader scrolled up
      if (plot) plot.paint();
    }
    function schedule() { // at the next frame, or TEXT_MS after the last paint: a long text costs a layout each time
      if (frame) return;
      var wait = TEXT_MS - (performance.now() - painted);
      frame = wait > 0 ? setTimeout(function () { frame = requestAnimationFrame(paint); }, wait)
        : requestAnimationFrame(paint);
    }
    function append(chunk, dropped) {
      if (dropped) cut = true;
      text += chunk;
      if (text.length > KEEP_TEXT) { text = text.slice(text.length - CUT_TEXT); cut = true; }
      out.hidden = false;
      if (plot) plot.take(chunk);
      schedule();
    }

    function start(chain) {
      if (current) return; // this block runs or waits already: one press is one run
      if (session && !Array.isArray(chain)) { // a kernel's order: first the cells above that have not run here
        chain = [];
        var cells = sessions[session];
        for (var k = 0; cells[k] !== control; k++) {
          if (!cells[k].ranHere() && !cells[k].busy()) chain.push(cells[k]);
        }
        chain.push(control);
        chain.slice(0, -1).forEach(function (c) { c.start(chain); });
      }
      var id = ++seq, startedAt = performance.now(), ranAt = 0, timer = 0, source = code();
      var r = current = {
        id: id,
        code: source,
        session: session,
        cell: cell,
        original: source === original,
        words: words,
        loadLimit: loadLimit,
        waiting: function () { status.textContent = words.waiting; },
        began: function () {
          status.textContent = engine && engine.ready ? words.running : words.loading;
        },
        end: function (kind, message, detail) { // kind: done, failed, stopped or timeout
          if (current !== r) return;
          clearTimeout(timer);
          current = null;
          if (kind !== "done" && Array.isArray(chain)) { // the cells after it in its chain need what it did not do
            chain.slice(chain.indexOf(control) + 1).forEach(function (c) { c.skip(); });
          }
          ended(r);
          if (plot) plot.finish(id);
          var shown = kind === "done" || kind === "failed" ? (ranAt ? seconds(ranAt) : seconds(startedAt)) : null;
          status.textContent = kind === "done" ? words.done.replace("{seconds}", shown)
            : kind === "failed" ? (message || words.failed.replace("{seconds}", shown))
            : message;
          if (detail) {
            append((text ? (text.endsWith("\n") ? "" : "\n") : "") + words.error + "\n" + detail);
            out.classList.add("error");
          }
          if (kind === "done" && exercise && new RegExp(mark.getAttribute("data-passed"), "m").test(text)) {
            progress.add(session, exercise);
          }
          paint();
          run.textContent = rerunLabel;
          able(run, true);
          able(stop, false);
        },
        onMessage: function (m) {
          if (ranAt && performance.now() - ranAt > limit) { timeout(); return; } // a flood cannot outrun the limit
          if (m.type === "started") {
            ranAt = performance.now();
            status.textContent = words.running;
            timer = setTimeout(timeout, limit);
          } else if (m.type === "text") {
            append(m.text, m.cut);
          } else if (m.type === "result") {
            if (m.fatal) kill(); // out of memory, or the interpreter ended: the next Run starts a fresh one
            r.end(m.error ? "failed" : "done", "", m.error);
          }
        },
      };
      function timeout() {
        kill();
        r.end("timeout", words.timeout.replace("{seconds}", String(limit / 1000)));
      }
      text = "";
      cut = false;
      pre.textContent = "";
      out.hidden = true;
      out.classList.remove("error");
      if (plot) plot.start(id, source);
      able(run, false);
      able(stop, true);
      begin(r);
    }

    function halt(message) { // stop this block's run (or its wait); a running worker is ended, its output kept
      var r = current;
      if (!r) return;
      if (pending === r) kill();
      r.end("stopped", message);
    }

    run.addEventListener("click", function () {
      if (run.getAttribute("aria-disabled") !== "true") start();
    });
    edit.addEventListener("click", openEditor);
    stop.addEventListener("click", function () {
      if (stop.getAttribute("aria-disabled") !== "true") halt(words.stopped);
    });
    reset.addEventListener("click", function () { // the page's code, no run going, no output: as the page came
      halt("");
      if (editor) { editor.destroy(); editor.holder.remove(); editor = null; }
      block.hidden = false;
      edit.disabled = false;
      reset.disabled = true;
      out.hidden = true;
      text = "";
      pre.textContent = "";
      status.textContent = "";
      run.textContent = runLabel;
      if (plot) plot.clearCurrent();
      edit.focus();
    });
    if (clear) {
      clear.addEventListener("click", function () {
        plot.clearKept();
        run.focus();
      });
      plot.onKept = function (count) { clear.hidden = count === 0; };
    }
  }

  // ---- a playground's figure: the reader's two traces, filled from the printed points; earlier runs kept ----

  function playground(mark, words) {
    var figureId = mark.getAttribute("data-playground");
    var uids = JSON.parse(mark.getAttribute("data-traces")); // [train, held-out]
    var point = new RegExp(mark.getAttribute("data-point"));
    var maskLine = new RegExp(mark.getAttribute("data-mask"), "m");
    var bounds = JSON.parse(mark.getAttribute("data-bounds"));
    var partial = "", xs = [], trains = [], helds = [], runId = 0, runs = 0, mask = "", drawn = 0, lastDraw = 0;
    var later = 0, unread = "";
    var self = { onKept: function () {} };
    var gd0 = document.getElementById(figureId);
    var initialMode = (gd0 && gd0.data && gd0.data.find(function (t) { return t.uid === uids[0]; }) || {}).mode
      || "lines+markers";

    function figure() {
      var gd = document.getElementById(figureId);
      return window.Plotly && gd && gd.data ? gd : null;
    }
    function index(gd, uid) {
      return gd.data.findIndex(function (t) { return t.uid === uid; });
    }
    function within(v, range) {
      return isFinite(v) && v >= range[0] && v <= range[1];
    }
    function kept(gd) {
      return gd.data.map(function (t, i) { return t.uid && t.uid.indexOf(uids[0] + "-kept-") === 0 ? i : -1; })
        .concat(gd.data.map(function (t, i) { return t.uid && t.uid.indexOf(uids[1] + "-kept-") === 0 ? i : -1; }))
        .filter(function (i) { return i >= 0; });
    }

    self.start = function (id, source) { // keep the last run (if it drew anything) as a labelled copy; clear
      self.keep();
      var m = maskLine.exec(source);
      self.clearCurrent();
      runId = id;
      mask = m ? m[1] : "?";
      partial = "";
      unread = "";
    };
    self.take = function (chunk) { // kept as text until the next redraw reads it (a flood costs one read a redraw)
      unread += chunk;
      if (unread.length > UNREAD) unread = unread.slice(unread.length - UNREAD);
    };
    function read() { // the complete printed lines since the last read that are points; the rest is text only
      if (!unread) return;
      var lines = (partial + unread).split("\n");
      unread = "";
      partial = lines.pop();
      if (partial.length > 1000) partial = "";
      if (lines.length > 2 * KEEP_POINTS) lines = lines.slice(lines.length - 2 * KEEP_POINTS); // a trace keeps fewer
      lines.forEach(function (line) {
        var m = point.exec(line);
        if (!m) return;
        var step = Number(m[1]), train = Number(m[2]), held = Number(m[3]);
        if (within(step, bounds.step) && within(train, bounds.loss) && within(held, bounds.loss)) {
          xs.push(step);
          trains.push(train);
          helds.push(held);
        }
      });
    }
    self.paint = function (now) { // one extendTraces for all that arrived since the last redraw, REDRAW_MS apart
      var gd = figure(), wait = REDRAW_MS - (performance.now() - lastDraw);
      if (!gd || (!unread && drawn >= xs.length)) return;
      if (!now && wait > 0) { // too soon: draw when the interval is over, if nothing else does
        if (!later) later = setTimeout(function () { later = 0; self.paint(true); }, wait);
        return;
      }
      read();
      if (drawn >= xs.length) return;
      var from = Math.max(drawn, xs.length - KEEP_POINTS), x = xs.slice(from);
      var traces = [index(gd, uids[0]), index(gd, uids[1])];
      if (drawn <= MARKERS && xs.length > MARKERS) Plotly.restyle(gd, { mode: "lines" }, traces);
      Plotly.extendTraces(gd, { x: [x, x.slice()], y: [trains.slice(from), helds.slice(from)] }, traces, KEEP_POINTS);
      drawn = xs.length;
      if (xs.length > 4 * KEEP_POINTS) { // the arrays behind the figure stay bounded too
        xs = xs.slice(-KEEP_POINTS); trains = trains.slice(-KEEP_POINTS); helds = helds.slice(-KEEP_POINTS);
        drawn = xs.length;
      }
      lastDraw = performance.now();
    };
    self.finish = function (id) {
      if (id !== runId) return;
      self.take("\n"); // the last line, if it did not end with one
      self.paint(true);
    };
    self.keep = function () { // the reader's traces become a kept run, labelled with its mask
      var gd = figure();
      if (!gd || !runId || !xs.length) return;
      runs += 1;
      var name = words.run_label.replace("{n}", String(runs)).replace("{mask}", mask);
      var copies = uids.map(function (uid, k) {
        var t = gd.data[index(gd, uid)];
        return {
          type: "scatter", mode: "lines", x: t.x.slice(), y: t.y.slice(), xaxis: t.xaxis, yaxis: t.yaxis,
          name: name, legendgroup: uid + "-kept-" + runs, showlegend: k === 0, uid: uid + "-kept-" + runs,
          opacity: 0.55, line: { width: 1.5, dash: ["dot", "dash", "dashdot", "longdash"][runs % 4] },
          hovertemplate: t.hovertemplate,
        };
      });
      Plotly.addTraces(gd, copies);
      runId = 0;
      self.onKept(runs);
    };
    self.clearCurrent = function () {
      var gd = figure();
      if (gd) {
        Plotly.restyle(gd, { x: [[], []], y: [[], []], mode: initialMode }, [index(gd, uids[0]), index(gd, uids[1])]);
      }
      xs = [];
      trains = [];
      helds = [];
      drawn = 0;
      runId = 0;
    };
    self.clearKept = function () {
      var gd = figure();
      if (gd) Plotly.deleteTraces(gd, kept(gd));
      runs = 0;
      self.onKept(0);
    };
    return self;
  }

  // ---- progress: the exercises this browser saw passed, per chapter, in localStorage (nothing is sent) ----

  var progress = (function () {
    var PREFIX = "primer-progress:";
    function read(chapter) {
      try { return JSON.parse(window.localStorage.getItem(PREFIX + chapter) || "[]"); } catch (e) { return []; }
    }
    function write(chapter, names) {
      try {
        if (names.length) window.localStorage.setItem(PREFIX + chapter, JSON.stringify(names));
        else window.localStorage.removeItem(PREFIX + chapter);
      } catch (e) { /* storage refused (a private window's quota): the pass is shown, not remembered */ }
    }
    function show(line) { // "k of n passed", and a button to forget them
      var chapter = line.getAttribute("data-progress"), words = JSON.parse(line.getAttribute("data-progress-labels"));
      var names = JSON.parse(line.getAttribute("data-exercises"));
      var passed = read(chapter).filter(function (n) { return names.indexOf(n) >= 0; }).length;
      var label = line.querySelector(".primer-progress-count"), clear = line.querySelector("button");
      if (!label) {
        label = document.createElement("span");
        label.className = "primer-progress-count";
        label.setAttribute("role", "status");
        clear = document.createElement("button");
        clear.type = "button";
        clear.textContent = words.progress_clear;
        clear.addEventListener("click", function () { self.clear(chapter); });
        line.appendChild(label);
        line.appendChild(document.createTextNode(" "));
        line.appendChild(clear);
        line.hidden = false;
      }
      label.textContent = words.progress.replace("{passed}", String(passed)).replace("{total}", String(names.length));
      clear.hidden = passed === 0;
    }
    function refresh(chapter) {
      document.querySelectorAll("[data-progress]").forEach(function (line) {
        if (line.getAttribute("data-progress") === chapter) show(line);
      });
    }
    var self = {
      has: function (chapter, name) { return read(chapter).indexOf(name) >= 0; },
      add: function (chapter, name) {
        var names = read(chapter);
        if (names.indexOf(name) < 0) write(chapter, names.concat([name]));
        refresh(chapter);
      },
      clear: function (chapter) { // forget the chapter's passes; a check's "passed earlier" goes with them
        write(chapter, []);
        refresh(chapter);
        document.querySelectorAll("div.primer-runner-mark[data-session]").forEach(function (mark) {
          var status = mark.nextElementSibling && mark.nextElementSibling.querySelector("[role=status]");
          var words = JSON.parse(mark.getAttribute("data-runner-labels"));
          if (mark.getAttribute("data-session") === chapter && status && status.textContent === words.passed_before) {
            status.textContent = "";
          }
        });
      },
    };
    document.querySelectorAll("[data-progress]").forEach(show);
    return self;
  })();

  document.querySelectorAll("div.primer-runner-mark[data-runnable]").forEach(setup);
})();
