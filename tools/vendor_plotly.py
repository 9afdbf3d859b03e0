"""Build the site's plotly.js from npm's plotly.js, the same version as the plotly Python package's own plotly.js.

    python tools/vendor_plotly.py            # build the pinned version, check it, write docs/assets/vendor/plotly/
    python tools/vendor_plotly.py --check    # only check the committed files against the pin and the Python package
    python tools/vendor_plotly.py --update   # after upgrading plotly: pin the version it bundles, then build

The figures draw three trace types (scatter, bar, heatmap), so the site ships plotly.js with only those
(tools/plotly_bundle/entry.js), not the official cartesian bundle, which adds eight more: 407 KB with gzip -9
instead of 496, and less than half the CPU to start on every page load. tools/plotly_bundle/ pins plotly.js and esbuild
exactly; `npm ci` checks every package against the sha512 in its package-lock.json, and the build is
deterministic, so the bundle's sha256 is pinned in PIN and any change to it is caught.
"""

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

from npm_bundle import npm_build  # tools/ is sys.path[0] as a script and in pytest

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "docs" / "assets" / "vendor" / "plotly"
BUNDLE = "plotly-primer.min.js"
SOURCE = ROOT / "tools" / "plotly_bundle"  # package.json, package-lock.json, entry.js, build.mjs
PIN = (
    DEST / "PIN.json"
)  # {"package", "version", "integrity" (npm sha512 of its tarball), "esbuild", "sha256" of BUNDLE}
VERSION = re.compile(r"plotly\.js(?: \([a-z -]+\))? v(\d+\.\d+\.\d+)")
TRACE = re.compile(r'moduleType:"trace",name:"(\w+)"')


def header_version(path):
    """Return the plotly.js version named in a bundle's licence header."""
    with open(path, encoding="utf-8") as f:
        m = VERSION.search(f.read(400))
    if not m:
        raise ValueError(f"{path}: no 'plotly.js ... vX.Y.Z' in its header")
    return m.group(1)


def python_plotly_js():
    """Return the full plotly.min.js the installed plotly Python package ships."""
    import plotly

    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def trace_types(path=DEST / BUNDLE):
    """Return the trace types a bundle registers (heatmap, bar, scatter, ...)."""
    return set(TRACE.findall(Path(path).read_text(encoding="utf-8")))


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def locked(lock, name):
    """Return (version, integrity) of package `name` in a package-lock.json."""
    entry = lock["packages"][f"node_modules/{name}"]
    return entry["version"], entry["integrity"]


def source_pin():
    """Return the pin that tools/plotly_bundle's lock file implies (no sha256: that comes from a build)."""
    lock = json.loads((SOURCE / "package-lock.json").read_text(encoding="utf-8"))
    version, integrity = locked(lock, "plotly.js")
    return {"package": "plotly.js", "version": version, "integrity": integrity, "esbuild": locked(lock, "esbuild")[0]}


def build(lock_only=False):
    """Install tools/plotly_bundle's locked packages in a scratch copy and build; return (bundle bytes, licence bytes).

    lock_only: refresh the lock from package.json first (npm install), and copy it back.
    """
    return npm_build(SOURCE, BUNDLE, "plotly.js/LICENSE", relock=lock_only)


def fetch(pin):
    """Build the pinned bundle, check its sha256, write it and plotly.js's licence."""
    if source_pin() != {k: v for k, v in pin.items() if k != "sha256"}:
        sys.exit(f"{PIN.name} does not match tools/plotly_bundle/package-lock.json: run with --update")
    bundle, licence = build()
    if hashlib.sha256(bundle).hexdigest() != pin["sha256"]:
        sys.exit(f"{BUNDLE}: sha256 {hashlib.sha256(bundle).hexdigest()} != pinned {pin['sha256']}")
    write(bundle, licence)


def write(bundle, licence):
    DEST.mkdir(parents=True, exist_ok=True)
    (DEST / BUNDLE).write_bytes(bundle)
    (DEST / "LICENSE").write_bytes(licence)


def update():
    """Pin the plotly.js version the installed plotly package ships: refresh the lock, build, record the sha256."""
    version = header_version(python_plotly_js())
    package = json.loads((SOURCE / "package.json").read_text(encoding="utf-8"))
    package["devDependencies"]["plotly.js"] = version
    (SOURCE / "package.json").write_text(json.dumps(package, indent=2) + "\n", encoding="utf-8")
    bundle, licence = build(lock_only=True)
    write(bundle, licence)
    pin = dict(source_pin(), sha256=hashlib.sha256(bundle).hexdigest())
    PIN.write_text(json.dumps(pin, indent=2) + "\n")
    return pin


def check(pin):
    """Return the problems of the committed bundle: checksum, pin against the lock, version drift from the Python
    package."""
    problems = []
    if not (DEST / BUNDLE).exists():
        return [f"{DEST / BUNDLE} is missing: run python tools/vendor_plotly.py"]
    if sha256(DEST / BUNDLE) != pin["sha256"]:
        problems.append(f"{BUNDLE}: sha256 differs from {PIN.name}")
    if source_pin() != {k: v for k, v in pin.items() if k != "sha256"}:
        problems.append(f"{PIN.name} does not name the versions tools/plotly_bundle/package-lock.json locks")
    vendored, python = header_version(DEST / BUNDLE), header_version(python_plotly_js())
    if vendored != pin["version"]:
        problems.append(f"{BUNDLE} is plotly.js {vendored}, {PIN.name} pins {pin['version']}")
    if vendored != python:
        problems.append(
            f"{BUNDLE} is plotly.js {vendored}, the plotly package ships {python}: "
            "run python tools/vendor_plotly.py --update"
        )
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the committed files")
    parser.add_argument("--update", action="store_true", help="pin the version the plotly package bundles, then build")
    args = parser.parse_args()
    if args.update:
        pin = update()
    else:
        pin = json.loads(PIN.read_text())
        if not args.check:
            fetch(pin)
    problems = check(pin)
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(
            f"{BUNDLE}: plotly.js {pin['version']}, sha256 {pin['sha256'][:12]}..., traces: "
            + ", ".join(sorted(trace_types()))
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
