"""Vendor plotly.js's official cartesian bundle, the same version as the plotly Python package's own plotly.js.

    python tools/vendor_plotly.py            # fetch the pinned version, check it, write docs/assets/vendor/plotly/
    python tools/vendor_plotly.py --check    # only check the committed files against the pin and the Python package
    python tools/vendor_plotly.py --update   # after upgrading plotly: pin the version it bundles, then fetch

The figures draw only cartesian traces (heatmap, bar, scatter), so the site ships the cartesian
partial bundle (npm `plotly.js-cartesian-dist-min`, about 0.5 MB gzipped) instead of the full
plotly.min.js (1.4 MB gzipped). `npm pack` fetches the tarball and checks it against the registry's
sha512; this script then checks the tarball against the sha512 pinned in PIN and the extracted
bundle against its pinned sha256, so a changed upstream file never lands unnoticed.
"""

import argparse
import base64
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "docs" / "assets" / "vendor" / "plotly"
BUNDLE = "plotly-cartesian.min.js"
PACKAGE = "plotly.js-cartesian-dist-min"
PIN = DEST / "PIN.json"     # {"package", "version", "integrity" (npm sha512 of the tarball), "sha256" of BUNDLE}
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


def npm_integrity(data):
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch(pin):
    """Download the pinned tarball with npm, check both checksums, write the bundle and its licence."""
    with tempfile.TemporaryDirectory() as tmp:
        spec = f"{pin['package']}@{pin['version']}"
        subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", tmp], check=True,
                       stdout=subprocess.DEVNULL)
        tarball = next(Path(tmp).glob("*.tgz"))
        got = npm_integrity(tarball.read_bytes())
        if got != pin["integrity"]:
            sys.exit(f"{tarball.name}: integrity {got} != pinned {pin['integrity']}")
        with tarfile.open(tarball) as tar:
            files = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
    bundle, licence = files[f"package/{BUNDLE}"], files["package/LICENSE"]
    if hashlib.sha256(bundle).hexdigest() != pin["sha256"]:
        sys.exit(f"{BUNDLE}: sha256 {hashlib.sha256(bundle).hexdigest()} != pinned {pin['sha256']}")
    DEST.mkdir(parents=True, exist_ok=True)
    (DEST / BUNDLE).write_bytes(bundle)
    (DEST / "LICENSE").write_bytes(licence)


def update():
    """Pin the bundle of the plotly.js version the installed plotly package ships (registry integrity, sha256)."""
    version = header_version(python_plotly_js())
    meta = json.loads(subprocess.run(["npm", "view", f"{PACKAGE}@{version}", "dist", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", f"{PACKAGE}@{version}", "--silent", "--pack-destination", tmp], check=True,
                       stdout=subprocess.DEVNULL)
        tarball = next(Path(tmp).glob("*.tgz"))
        if npm_integrity(tarball.read_bytes()) != meta["integrity"]:
            sys.exit(f"{tarball.name}: does not match the registry's integrity {meta['integrity']}")
        with tarfile.open(tarball) as tar:
            bundle = tar.extractfile(f"package/{BUNDLE}").read()
    pin = {"package": PACKAGE, "version": version, "integrity": meta["integrity"],
           "sha256": hashlib.sha256(bundle).hexdigest()}
    DEST.mkdir(parents=True, exist_ok=True)
    PIN.write_text(json.dumps(pin, indent=2) + "\n")
    return pin


def check(pin):
    """Return the problems of the committed bundle: checksum, version drift from the Python package."""
    problems = []
    if not (DEST / BUNDLE).exists():
        return [f"{DEST / BUNDLE} is missing: run python tools/vendor_plotly.py"]
    if sha256(DEST / BUNDLE) != pin["sha256"]:
        problems.append(f"{BUNDLE}: sha256 differs from {PIN.name}")
    vendored, python = header_version(DEST / BUNDLE), header_version(python_plotly_js())
    if vendored != python:
        problems.append(f"{BUNDLE} is plotly.js {vendored}, the plotly package ships {python}: "
                        "run python tools/vendor_plotly.py --update")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the committed files")
    parser.add_argument("--update", action="store_true", help="pin the version the plotly package bundles, then fetch")
    args = parser.parse_args()
    pin = update() if args.update else json.loads(PIN.read_text())
    if not args.check:
        fetch(pin)
    problems = check(pin)
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{BUNDLE}: plotly.js {pin['version']}, sha256 {pin['sha256'][:12]}..., traces: "
              + ", ".join(sorted(trace_types())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
