// Build entry.js into one file: node build.mjs OUT (tools/vendor_plotly.py runs it in a scratch copy of this folder,
// after `npm ci`). The settings follow plotly.js's own esbuild-config.js (an IIFE that defines the global Plotly, `global` as window, ES2016), minified with the
// licences of the bundled packages kept at the end, as its dist bundles are.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

const version = JSON.parse(readFileSync('node_modules/plotly.js/package.json', 'utf8')).version;
const copyright = readFileSync('node_modules/plotly.js/LICENSE', 'utf8').match(/^Copyright .*$/m)[0];
const banner = `/**
* plotly.js (primer - minified) v${version}
* traces: scatter, bar, heatmap
* ${copyright}
* Licensed under the MIT license
*/`;

await esbuild.build({
    entryPoints: ['entry.js'],
    outfile: process.argv[2],
    format: 'iife',
    globalName: 'Plotly',
    bundle: true,
    minify: true,
    legalComments: 'eof',
    banner: { js: banner },
    alias: { stream: 'stream-browserify' },
    define: { global: 'window', 'define.amd': 'false', 'process.env.NODE_DEBUG': 'false' },
    loader: { '.css': 'empty' },   // maplibre's stylesheet, for map traces only
    target: 'es2016',
    logLevel: 'warning',
});
