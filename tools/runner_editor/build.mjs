// Build entry.js into one minified file: node build.mjs OUT (tools/vendor_editor.py runs it in a scratch copy of this
// folder, after `npm ci`). The licences of the bundled packages (all MIT) are kept at the end.
import * as esbuild from 'esbuild';

await esbuild.build({
    entryPoints: ['entry.js'],
    outfile: process.argv[2],
    format: 'iife',
    bundle: true,
    minify: true,
    legalComments: 'eof',
    banner: { js: '/* CodeMirror 6 (MIT, https://codemirror.net) for the primer runner: tools/runner_editor */' },
    target: 'es2020',
    logLevel: 'warning',
});
