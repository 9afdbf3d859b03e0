"""Measure the build and the pages against the targets the README reports. Never run by the tests."""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {"build_s": 120.0, "page_kib": 400.0, "attention_ms": 25.0}


def strict_build(out):
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)], cwd=ROOT, check=True,
                   env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    return time.perf_counter() - start


def best_of(fn, repeat=20):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    from primer import attention, causal_mask

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        build_s = strict_build(out)
        pages = sorted(p for p in out.rglob("index.html") if "search" not in p.parts)
        sizes = {p.relative_to(out).as_posix(): p.stat().st_size / 1024 for p in pages}
        total_mib = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 2**20
        plotly_mib = (out / "assets/vendor/plotly.min.js").stat().st_size / 2**20

    rng = np.random.default_rng(0)
    q, k, v = (rng.normal(size=(8, 256, 64)) for _ in range(3))
    mask = causal_mask(256)
    attention_ms = 1000 * best_of(lambda: attention(q, k, v, mask))

    biggest = max(sizes, key=sizes.get)
    rows = [
        ("strict build, whole site (s)", f"{build_s:.1f}", f"< {TARGETS['build_s']:.0f}", build_s < TARGETS["build_s"]),
        (f"largest page: {biggest} (KiB)", f"{sizes[biggest]:.0f}", f"< {TARGETS['page_kib']:.0f}", sizes[biggest] < TARGETS["page_kib"]),
        ("attention, 8 heads x 256 x 64, causal (ms)", f"{attention_ms:.2f}", f"< {TARGETS['attention_ms']:.0f}", attention_ms < TARGETS["attention_ms"]),
        ("plotly.min.js, loaded once per figure page (MiB)", f"{plotly_mib:.1f}", "vendored", True),
        ("whole site on disk (MiB)", f"{total_mib:.1f}", "-", True),
    ]
    print("| measure | value | target | met |\n| --- | --- | --- | --- |")
    for name, value, target, ok in rows:
        print(f"| {name} | {value} | {target} | {'yes' if ok else 'NO'} |")
    print("\n| page | KiB |\n| --- | --- |")
    for name, kib in sizes.items():
        print(f"| {name} | {kib:.0f} |")


if __name__ == "__main__":
    main()
