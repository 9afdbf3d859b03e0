"""Build a vendored JavaScript bundle from a folder of tools/ that locks its npm packages (package-lock.json).

tools/vendor_plotly.py (tools/plotly_bundle/) and tools/vendor_editor.py (tools/runner_editor/) build this way: each
folder holds package.json, package-lock.json, entry.js and build.mjs; esbuild's build is deterministic, so each tool
pins the bundle's sha256.
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_FILES = ("package.json", "package-lock.json", "entry.js", "build.mjs")


def npm_build(source, bundle, licence, relock=False):
    """Install source's locked packages in a scratch copy and run its build.mjs; return (bundle bytes, licence bytes).

    bundle: the file name build.mjs writes; licence: the licence's path under node_modules. relock: `npm install` from
    package.json, copying the new lock back into source, instead of `npm ci` (exactly the lock, each package checked
    against its sha512).
    """
    npm = shutil.which("npm")
    if not npm:
        sys.exit("npm is missing (`sudo apt-get install nodejs npm`)")
    with tempfile.TemporaryDirectory() as tmp:
        for name in SOURCE_FILES:
            if (source / name).exists():
                shutil.copy(source / name, tmp)
        install = "install" if relock else "ci"
        subprocess.run([npm, install, "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], cwd=tmp, check=True)
        if relock:
            shutil.copy(Path(tmp) / "package-lock.json", source / "package-lock.json")
        out = Path(tmp) / bundle
        subprocess.run(["node", "build.mjs", str(out)], cwd=tmp, check=True)
        return out.read_bytes(), (Path(tmp) / "node_modules" / licence).read_bytes()
