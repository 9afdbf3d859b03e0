"""Measure page weight, build and edit-loop times, the decoder's speed and the in-page runner. Never run by tests.

    python bench/run.py                      # everything (`make bench`), about 6 minutes on 2 cores
    python bench/run.py --skip decoding      # leave out a part: pages, build, edit-loop, decoding, training, runner

Prints Markdown: the summary table (issue 22's targets), then the details of each part.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import bench_decoding as decoding  # bench/ is sys.path[0]: this file runs as a script
import bench_pages as pages
import bench_runner as runner
import bench_serve as serve
import bench_training as training

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

PARTS = ("pages", "build", "edit-loop", "decoding", "training", "runner")


def strict_build(root, out, env):
    """Build the site in root with --strict into out; return its seconds (`mkdocs build` never uses the exec cache)."""
    start = time.perf_counter()
    # no -q: it hides warnings from --strict's count
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=root,
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def cold_and_warm_builds(out):
    """Build a copy of the tree twice: cold (no notebook pages cached, no jieba dictionary cache), then warm.

    Returns (cold seconds, warm seconds); the site of the cold build is left in out.
    """
    with tempfile.TemporaryDirectory(prefix="primer-bench-build-") as tmp:
        root, scratch = Path(tmp) / "repo", Path(tmp) / "tmp"
        serve.copy_tree(ROOT, root)  # a clone's files: none of this tree's .cache
        scratch.mkdir()
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1", TMPDIR=str(scratch))  # jieba keeps its cache in TMPDIR
        cold = strict_build(root, out, env)
        warm = strict_build(root, Path(tmp) / "again", env)
    return cold, warm


def machine():
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
        f"{date.today().isoformat()}, load average {load:.1f} at the start"
    )


def kb(n):
    return f"{n / 1000:.0f} KB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", default="", help=f"comma-separated parts to leave out: {', '.join(PARTS)}")
    args = parser.parse_args()
    skip = {s for s in args.skip.split(",") if s}
    if skip - set(PARTS):
        parser.error(f"--skip takes {', '.join(PARTS)}; got {', '.join(sorted(skip - set(PARTS)))}")
    rows, details = [], []
    print(f"Machine: {machine()}\n", flush=True)

    with tempfile.TemporaryDirectory(prefix="primer-bench-site-") as tmp:
        if {"build", "pages", "runner"} - skip:
            build_s, warm_s = cold_and_warm_builds(Path(tmp) / "site")
        if "pages" not in skip:
            r = pages.measure(Path(tmp) / "site")
            after, after_bytes = r["after_heaviest"]
            rows.append(
                (
                    f"first visit to the heaviest chapter ({r['heaviest']}), all it loads, gzipped",
                    kb(r["first"][r["heaviest"]]),
                    "≤ 600 KB",
                )
            )
            rows.append(
                (
                    f"another chapter after that, shared assets cached, gzipped (worst: {after})",
                    kb(after_bytes),
                    "≤ 50 KB",
                )
            )
            details += [
                "## Page weight (Chromium, local server gzipping at level 6, `Cache-Control: max-age=600`)",
                "",
                pages.search_index_note(r),
                "",
                pages.report(r),
                "",
            ]
        if "runner" not in skip:
            r = runner.measure(Path(tmp) / "site")
            rows.append(
                (
                    "in-page runner, first Run: Pyodide + numpy + primer fetched and started",
                    f"{r['cold_s']:.1f} s, {r['cold_bytes'] / 1e6:.1f} MB",
                    "report",
                )
            )
            rows.append(
                (
                    "in-page runner, a second Run (warm), median of 5",
                    f"{sorted(r['warm_s'])[2] * 1000:.0f} ms",
                    "report",
                )
            )
            details += ["## The in-page runner (Chromium, same local server)", "", runner.report(r), ""]
    if "edit-loop" not in skip:
        r = serve.edit_loop(ROOT)
        spread = lambda t: f"{statistics.median(t):.1f} s (range {t[0]:.1f}–{t[-1]:.1f} s)"  # noqa: E731
        rows.append(
            (
                f"`make serve`: edit one chapter's Markdown → page rebuilt, median of {len(r['markdown_s'])}",
                spread(r["markdown_s"]),
                "≤ 4 s",
            )
        )
        rows.append(
            (
                f"`make serve`: edit a primer module ({serve.PRIMER_EDIT[0]}) → page rebuilt, median of "
                f"{len(r['primer_s'])}",
                spread(r["primer_s"]),
                "≤ 8 s",
            )
        )
        details += [
            f"## Edit loop (`mkdocs serve` in a copy of the tree, page polled every {serve.POLL_S} s)",
            "",
            f"first build until the page answers: {r['first_build_s']:.1f} s; Markdown edits: "
            f"{', '.join(f'{t:.1f}' for t in r['markdown_s'])} s; primer edits: "
            f"{', '.join(f'{t:.1f}' for t in r['primer_s'])} s",
            "",
        ]
    if "build" not in skip:
        rows.append(
            (
                "cold `make build` (strict), venv ready",
                f"{build_s:.1f} s (again, caches warm: {warm_s:.1f} s)",
                "≤ 90 s",
            )
        )
    if "decoding" not in skip:
        r = decoding.measure()
        rows.append(
            (
                f"decoder, N = {r['n']:,} tokens: KV-cache speed-up, measured (cost model)",
                f"{r['speedup']:.0f}x ({r['scores_ratio']:.0f}x)",
                "report",
            )
        )
        details += ["## The taught algorithm's speed", "", decoding.report(r), ""]
    if "training" not in skip:
        r = training.measure()
        rows.append(
            (
                "training at build, chapters 6, 7, 8 and 15, each in a fresh process, CPU seconds",
                f"{r['total_cpu_s']:.1f} CPU-s ("
                + " + ".join(f"{sum(p.values()):.1f}" for p in r["chapters"].values())
                + f"), load average {r['load']:.1f} at the start",
                f"≤ {training.BUDGET} CPU-s",
            )
        )
        rows.append(
            (
                "primer.training steps per second (PyTorch CPU / primer)",
                f"{r['steps'] / r['numpy_s']:.0f}"
                + (f" ({r['numpy_s'] / r['torch_s']:.2f}x)" if "torch_s" in r else ""),
                "report",
            )
        )
        details += ["## Training (chapters 6, 7, 8 and 15)", "", training.report(r), ""]

    print("| measure | value | target |\n| --- | --- | --- |")
    for name, value, target in rows:
        print(f"| {name} | {value} | {target} |")
    print("\n" + "\n".join(details))


if __name__ == "__main__":
    main()
