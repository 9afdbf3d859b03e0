// The runner's Web Worker: loads the vendored Pyodide and numpy (../vendor/pyodide/, hash-checked by
// tools/vendor_pyodide.py) and primer.zip (packed by hooks/runner.py: the modules the runnable blocks import, and
// runner_worker.py, the Python that runs a block), then runs each block it is sent. Also loaded by
// tests/js/run_blocks.cjs under Node (module.exports below), so the tests run exactly this code.
//
// The page talks to it over a MessagePort it hands over in its first message, and listens on nothing else: a reader's
// program can post to the worker's global scope (js.postMessage), which the page ignores, but never reach the port.
// Before the first block runs, every way out of the worker (fetch, XHR, WebSocket, importScripts, package loads ...)
// is replaced by a refusal.
"use strict";

// The worker's ways to the network, refused once the runtime has loaded (a reader's program gets the message).
var NETWORK = ["fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "EventSource", "WebTransport",
  "importScripts", "Worker", "SharedWorker", "caches"];

async function boot(loadPyodide, indexURL, primerZip) {
  var pyodide = await loadPyodide({ indexURL: indexURL });
  var problems = [];
  await pyodide.loadPackage("numpy", {
    messageCallback: function () {},
    errorCallback: function (m) { problems.push(String(m)); },
  });
  if (!pyodide.loadedPackages.numpy) { // loadPackage resolves even when the wheel failed: that is a failed load
    throw new Error("numpy did not load" + (problems.length ? ": " + problems.join(" ") : ""));
  }
  pyodide.unpackArchive(primerZip, "zip", { extractDir: "/lib/primer_site" });
  pyodide.runPython("import sys; sys.path.insert(0, '/lib/primer_site')");
  return pyodide;
}

// Replace each way out in scope (and on its prototypes, where an interface keeps it) with a function that throws
// message.replace("{name}", name); the same for the runtime's package loads.
function seal(scope, pyodide, message) {
  function refusal(name) {
    return function () { throw new Error(message.replace("{name}", name)); };
  }
  NETWORK.forEach(function (name) {
    for (var o = scope; o; o = Object.getPrototypeOf(o)) {
      if (Object.prototype.hasOwnProperty.call(o, name)) {
        Object.defineProperty(o, name, { value: refusal(name), writable: false, configurable: false });
      }
    }
  });
  ["loadPackage", "loadPackagesFromImports"].forEach(function (name) {
    Object.defineProperty(pyodide, name, { value: refusal("pyodide." + name), writable: false, configurable: false });
  });
}

// Run code; hand its printed text to onText(text, cut) in chunks as it prints (cut: the chunk's start was dropped); return {error, memory} (memory: it ran out
// of memory, so the page starts a fresh interpreter next time). session: "" for a fresh namespace, else the name of
// the namespace a notebook page's cells share.
function run(pyodide, code, onText, noInput, session) {
  var harness = pyodide.pyimport("runner_worker");
  var res = harness.run(code, onText, noInput || "input() is not supported here", session || "");
  var out = res.toJs();
  res.destroy();
  harness.destroy();
  return { error: out[0], memory: out[1] };
}

if (typeof module === "object" && module.exports) {
  module.exports = { boot: boot, run: run, seal: seal, NETWORK: NETWORK };
} else {
  self.onmessage = function (first) { // {words}, with the page's port: the only message taken from the global scope
    self.onmessage = null;
    var port = first.ports[0], words = first.data.words, here = self.location.href;
    var ready = (async function () {
      importScripts(new URL("../vendor/pyodide/pyodide.js", here).href);
      var response = await fetch(new URL("primer.zip", here).href);
      if (!response.ok) throw new Error("primer.zip: HTTP " + response.status);
      var zip = await response.arrayBuffer();
      var pyodide = await boot(self.loadPyodide, new URL("../vendor/pyodide/", here).href, zip);
      seal(self, pyodide, words.no_network);
      return pyodide;
    })();
    ready.then(
      function () { port.postMessage({ type: "ready" }); },
      function (err) { port.postMessage({ type: "failed", error: String((err && err.message) || err) }); }
    );
    port.onmessage = async function (e) {
      var id = e.data.id, pyodide = await ready, r;
      port.postMessage({ type: "started", id: id });
      try {
        r = run(pyodide, e.data.code, function (text, cut) {
          port.postMessage({ type: "text", id: id, text: text, cut: !!cut });
        }, words.no_input, e.data.session);
      } catch (err) { // the interpreter itself failed (os._exit, a fatal error): only a fresh one runs again
        r = { error: String((err && err.message) || err), memory: false, fatal: true };
      }
      port.postMessage({ type: "result", id: id, error: r.error, fatal: !!(r.fatal || r.memory) });
    };
  };
}
