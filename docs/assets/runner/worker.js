// The runner's Web Worker: loads the vendored Pyodide and numpy (../vendor/pyodide/, hash-checked by
// tools/vendor_pyodide.py) and primer's core (primer.zip, packed by hooks/runner.py), then runs each block it is sent
// in a fresh namespace. Also loaded by tests/js/run_blocks.cjs under Node (module.exports below), so the tests run
// exactly this code.
"use strict";

// Run src as __main__ in a fresh namespace; return (printed text, the last lines of a traceback or ""). With post, also
// hand each printed line to post(line) as it is printed: chapter 7's playground draws its losses while it trains.
var RUN_PY = [
  "import io, sys, traceback",
  "class _PrimerLines(io.StringIO):",
  "    def __init__(self, post):",
  "        super().__init__()",
  "        self.post, self.part = post, ''",
  "    def write(self, s):",
  "        *lines, self.part = (self.part + s).split('\\n')",
  "        for line in lines:",
  "            self.post(line)",
  "        return super().write(s)",
  "def _primer_run(src, post=None):",
  "    buf = io.StringIO() if post is None else _PrimerLines(post)",
  "    out, err = sys.stdout, sys.stderr",
  "    sys.stdout = sys.stderr = buf",
  "    try:",
  "        exec(compile(src, '<block>', 'exec'), {'__name__': '__main__'})",
  "        error = ''",
  "    except BaseException as e:",
  "        lines = ''.join(traceback.format_exception(type(e), e, e.__traceback__.tb_next)).rstrip().splitlines()",
  "        error = '\\n'.join(lines[-6:])  # the last frames and the message",
  "    finally:",
  "        sys.stdout, sys.stderr = out, err",
  "    return buf.getvalue(), error",
].join("\n");

async function boot(loadPyodide, indexURL, primerZip) {
  var pyodide = await loadPyodide({ indexURL: indexURL });
  await pyodide.loadPackage("numpy", { messageCallback: function () {} });
  pyodide.unpackArchive(primerZip, "zip", { extractDir: "/lib/primer_site" });
  pyodide.runPython("import sys; sys.path.insert(0, '/lib/primer_site')\n" + RUN_PY);
  return pyodide;
}

function run(pyodide, code, onLine) {
  var res = onLine ? pyodide.globals.get("_primer_run")(code, onLine) : pyodide.globals.get("_primer_run")(code);
  var out = res.toJs();
  res.destroy();
  return { output: out[0], error: out[1] };
}

if (typeof module === "object" && module.exports) {
  module.exports = { boot: boot, run: run };
} else {
  var here = self.location.href;
  var ready = (async function () {
    importScripts(new URL("../vendor/pyodide/pyodide.js", here).href);
    var zip = await (await fetch(new URL("primer.zip", here).href)).arrayBuffer();
    return boot(self.loadPyodide, new URL("../vendor/pyodide/", here).href, zip);
  })();
  self.onmessage = async function (e) {
    var id = e.data.id, pyodide;
    try {
      pyodide = await ready;
    } catch (err) {
      self.postMessage({ type: "result", id: id, output: "", error: String(err && err.message || err), fatal: true });
      return;
    }
    self.postMessage({ type: "started", id: id });
    var post = e.data.stream ? function (line) { self.postMessage({ type: "line", id: id, line: line }); } : null;
    var r = run(pyodide, e.data.code, post);
    self.postMessage({ type: "result", id: id, output: r.output, error: r.error });
  };
}
