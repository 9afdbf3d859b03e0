// Run blocks the way the page's runner does, under Node: the site's worker.js (its exported boot and run) with the
// vendored Pyodide and the built primer.zip. Usage: node run_blocks.cjs SITE_DIR BLOCKS.json
// BLOCKS.json: [{"key": ..., "code": ..., "session": optional, the namespace a notebook page's cells share}]; prints {"boot_s": ..., "results": {key: {output, error, seconds}}}.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

(async () => {
  const site = path.resolve(process.argv[2]);
  const blocks = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
  const vendor = path.join(site, "assets", "vendor", "pyodide");
  const { loadPyodide } = require(path.join(vendor, "pyodide.js"));
  const { boot, run } = require(path.join(site, "assets", "runner", "worker.js"));
  const t0 = performance.now();
  const pyodide = await boot(loadPyodide, vendor + path.sep, new Uint8Array(fs.readFileSync(path.join(site, "assets", "runner", "primer.zip"))));
  const results = {};
  const bootS = (performance.now() - t0) / 1000;
  for (const block of blocks) {
    const t = performance.now();
    const parts = [];
    const r = run(pyodide, block.code, (text) => parts.push(text), undefined, block.session);
    results[block.key] = { output: parts.join(""), error: r.error, seconds: (performance.now() - t) / 1000 };
  }
  process.stdout.write(JSON.stringify({ boot_s: bootS, results }));
})().catch((e) => { console.error(e); process.exit(1); });
