"""Build the in-page runner's editor (CodeMirror 6 with Python) from npm into docs/assets/runner/editor.min.js.

    python tools/vendor_editor.py            # build the locked versions, check the pinned sha256, write the bundle
    python tools/vendor_editor.py --check    # offline: the committed bundle against the pin
    python tools/vendor_editor.py --pin      # after changing entry.js or build.mjs: build the locked versions, pin
    python tools/vendor_editor.py --update   # after changing tools/runner_editor/package.json: relock, build, pin

tools/runner_editor/ pins every package exactly; `npm ci` checks each against the sha512 in its package-lock.json and
esbuild's build is deterministic, so the bundle's sha256 is pinned in tools/runner_editor/PIN.json. The runner loads
the bundle on a reader's first Edit only.
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

from npm_bundle import npm_build  # tools/ is sys.path[0] as a script and in pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tools" / "runner_editor"
DEST = ROOT / "docs" / "assets" / "runner"
BUNDLE = "editor.min.js"
LICENCE = "LICENSE.codemirror.txt"
PIN = SOURCE / "PIN.json"  # {"sha256": of BUNDLE, "lock": sha256 of package-lock.json}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def build(relock=False):
    """Install the locked packages in a scratch copy and build; return (bundle bytes, licence bytes)."""
    return npm_build(SOURCE, BUNDLE, "@codemirror/view/LICENSE", relock=relock)


def check():
    """Return the problems of the committed bundle against the pin."""
    pin = json.loads(PIN.read_text(encoding="utf-8"))
    if not (DEST / BUNDLE).exists():
        return [f"{DEST / BUNDLE} is missing: run python tools/vendor_editor.py"]
    problems = []
    if sha256((DEST / BUNDLE).read_bytes()) != pin["sha256"]:
        problems.append(f"{BUNDLE}: sha256 differs from {PIN.name}")
    if sha256((SOURCE / "package-lock.json").read_bytes()) != pin["lock"]:
        problems.append(f"{PIN.name} was not made from tools/runner_editor/package-lock.json: run with --update")
    if not (DEST / LICENCE).exists():
        problems.append(f"{LICENCE} is missing")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the committed bundle")
    parser.add_argument("--pin", action="store_true", help="build the locked versions and pin the bundle")
    parser.add_argument("--update", action="store_true", help="relock from package.json, build, pin")
    args = parser.parse_args()
    if not args.check:
        bundle, licence = build(relock=args.update)
        if args.update or args.pin:
            pin = {"sha256": sha256(bundle), "lock": sha256((SOURCE / "package-lock.json").read_bytes())}
            PIN.write_text(json.dumps(pin, indent=2) + "\n", encoding="utf-8")
        elif sha256(bundle) != json.loads(PIN.read_text(encoding="utf-8"))["sha256"]:
            sys.exit(f"{BUNDLE}: the build's sha256 {sha256(bundle)} differs from {PIN.name}")
        (DEST / BUNDLE).write_bytes(bundle)
        (DEST / LICENCE).write_bytes(licence)
    problems = check()
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{BUNDLE}: {(DEST / BUNDLE).stat().st_size:,} bytes, sha256 matches {PIN.name}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
