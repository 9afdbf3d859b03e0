"""The runner's vendored Python (tools/vendor_pyodide.py): every file matches SHA256SUMS, the trimmed lock vouches for
the numpy wheel, and a tampered file is reported."""

import hashlib
import json
import shutil

import vendor_editor  # tools/ is on pytest's pythonpath (pyproject.toml)
import vendor_pyodide

DEST = vendor_pyodide.DEST


def test_the_tool_finds_no_problem():
    assert vendor_pyodide.check() == []


def test_every_vendored_file_matches_sha256sums():
    sums = vendor_pyodide.read_sums()
    assert set(sums) == {p.name for p in DEST.iterdir()} - {"SHA256SUMS"}
    for name, digest in sums.items():
        assert hashlib.sha256((DEST / name).read_bytes()).hexdigest() == digest, name


# Each core file's sha256 as it stands in the official npm tarball pyodide@0.27.7 (dist.integrity is the tool's
# NPM_INTEGRITY), computed from `npm pack pyodide@0.27.7` on 2026-12-03: the committed files are those, not only what
# SHA256SUMS (written by the same tool) says.
OFFICIAL_NPM = {
    "pyodide.asm.wasm": "a50dd1843f805a0b7c45b61037ee0d7b26dfe85efe0e18ef95a34ad24e401f5f",
    "python_stdlib.zip": "16611534726e5d8ac2bd8f926410b2dcb8d6f49aa24913463533b457a2115c16",
    "pyodide.js": "b4cb23a53aba19c221659b9fb40a2f18281d685691dc06647fb0afd0681baf98",
    "pyodide.asm.js": "6b4c90de5b7172873f04f21884d0e9d2274e305fe32116558fe3e4fbe3618d51",
}


def test_the_core_files_are_the_official_npm_packages():
    assert vendor_pyodide.VERSION == "0.27.7"
    for name, digest in OFFICIAL_NPM.items():
        assert hashlib.sha256((DEST / name).read_bytes()).hexdigest() == digest, name


def test_the_lock_lists_numpy_alone_and_its_sha256_is_the_wheels():
    lock = json.loads((DEST / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock["info"]["version"] == vendor_pyodide.VERSION
    assert list(lock["packages"]) == ["numpy"]
    numpy = lock["packages"]["numpy"]
    wheel = (DEST / numpy["file_name"]).read_bytes()
    assert hashlib.sha256(wheel).hexdigest() == numpy["sha256"]
    # The official lock of pyodide@0.27.7 records this sha256 for numpy 2.0.2 (see the tool's docstring).
    assert numpy["sha256"] == "ebb61241d962b98b21597d7ce43b67668a6d5bab3acec4fbe958657320d7cd08"


def test_the_licences_are_beside_the_files():
    assert "Mozilla Public License" in (DEST / "LICENSE.pyodide.txt").read_text(encoding="utf-8")
    numpy = (DEST / "LICENSE.numpy.txt").read_text(encoding="utf-8")
    assert "Redistribution and use in source and binary forms" in numpy  # BSD-3-Clause


def test_a_tampered_or_stray_file_is_reported(monkeypatch, tmp_path):
    copy = tmp_path / "pyodide"
    shutil.copytree(DEST, copy)
    monkeypatch.setattr(vendor_pyodide, "DEST", copy)
    (copy / "pyodide.js").write_bytes((copy / "pyodide.js").read_bytes() + b"\n")
    (copy / "extra.js").write_text("1")
    problems = vendor_pyodide.check()
    assert "pyodide.js: sha256 differs from SHA256SUMS" in problems
    assert any(p.startswith("extra.js") for p in problems)


def test_the_editor_bundle_matches_its_pin():
    assert vendor_editor.check() == []
