"""Run the unit tests under several numeric setups, and check that no page's text changes between them.

    python .ci/matrix.py            # every setup (`make matrix`)
    python .ci/matrix.py newest     # only the setups whose name contains "newest"

Setups: the locked venv with OpenBLAS forced to an old generic x86 kernel on one thread; the oldest
Python, numpy and plotly that pyproject.toml allows; the newest Python with the newest version of every
dependency pyproject.toml allows, docs plugins included (mkdocs-material, markdown-exec,
mkdocs-static-i18n, mkdocs-jupyter, htmlproofer, plotly...): the proof that the hooks rely on
documented APIs only. Each setup gets its own venv
under .matrix/, runs `pytest -m unit`, then builds the site; the text of every chapter (figure data
and page chrome left out) must equal the baseline build's, word for word. `make matrix` runs this.
"""

import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".matrix"
BASE_PY = ROOT / ".venv" / "bin" / "python"
SETUPS = {  # name -> (python version or None for the locked venv, pip pins, extra environment)
    "locked, generic BLAS kernel, 1 thread": (None, [], {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"}),
    "oldest: Python 3.10, numpy 1.26.0, plotly 5.20.0": ("3.10", ["numpy==1.26.0", "plotly==5.20.0"], {}),
    "newest: Python 3.13, newest of every dependency (docs plugins too)": ("3.13", [], {}),
}
ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)


def find_python(version):
    """Return a python executable of this minor version that runs: on PATH, else from pyenv."""
    candidates = [shutil.which(f"python{version}")]
    try:
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
        candidates += sorted(Path(root).glob(f"versions/{version}.*/bin/python{version}"), reverse=True)
    except (OSError, subprocess.CalledProcessError):
        pass
    for candidate in filter(None, candidates):  # a pyenv shim on PATH fails when the version is not selected
        if subprocess.run([str(candidate), "-c", "import sys"], capture_output=True).returncode == 0:
            return str(candidate)
    sys.exit(f"python{version} not found on PATH or in pyenv; install it or set PATH")


def venv_for(name, version, pins):
    """Create (once) a venv of the given Python with the project's docs and test extras, numpy and plotly pinned."""
    if version is None:
        return BASE_PY
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
    venv = OUT / slug
    py = venv / "bin" / "python"
    stamp = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + repr(pins).encode()).hexdigest()
    if (
        not (venv / ".installed").exists() or (venv / ".installed").read_text() != stamp
    ):  # reinstall when the extras change
        subprocess.run([find_python(version), "-m", "venv", "--clear", str(venv)], check=True)
        constraints = venv / "constraints.txt"
        constraints.write_text("".join(p + "\n" for p in pins))
        upgrade = [] if pins else ["--upgrade", "--upgrade-strategy", "eager"]
        subprocess.run(
            [
                str(py),
                "-m",
                "pip",
                "install",
                "-q",
                *upgrade,
                "-c",
                str(constraints),
                "-e",
                f"{ROOT}[docs,test]",
                "threadpoolctl",
            ],
            check=True,
        )
        (venv / ".installed").write_text(stamp)
    return py


DOCS_PACKAGES = (
    "mkdocs",
    "mkdocs-material",
    "markdown-exec",
    "mkdocs-static-i18n",
    "mkdocs-jupyter",
    "mkdocs-htmlproofer-plugin",
    "pymdown-extensions",
    "nbconvert",
)


def docs_versions(py):
    """Return 'name version' of each docs package a venv holds."""
    code = f"import importlib.metadata as m; print(', '.join(n + ' ' + m.version(n) for n in {DOCS_PACKAGES!r}))"
    return subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def describe(py, env):
    """Return the Python, numpy, plotly versions and the BLAS kernel a venv runs with."""
    code = (
        "import sys, numpy, plotly, threadpoolctl; "
        "b = [i for i in threadpoolctl.threadpool_info() if i['internal_api'] == 'openblas']; "
        "print(sys.version.split()[0], numpy.__version__, plotly.__version__, "
        "b[0]['architecture'] if b else '?', b[0]['num_threads'] if b else '?')"
    )
    out = subprocess.run([str(py), "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    return dict(zip(("python", "numpy", "plotly", "blas kernel", "threads"), out))


def page_texts(site):
    """Return {page: visible text of its article}, scripts and tags removed, whitespace folded."""
    texts = {}
    for page in sorted(site.rglob("*.html")):
        if "notebooks" in page.relative_to(site).parts:
            continue  # nbconvert's markup differs by version; the notebooks' checks run in the unit tests
        found = ARTICLE.search(page.read_text(encoding="utf-8"))
        if not found:
            continue
        body = re.sub(r"<(script|style)\b.*?</\1>", " ", found.group(1), flags=re.S)
        body = html.unescape(re.sub(r"<[^>]+>", " ", body))
        texts[page.relative_to(site).as_posix()] = " ".join(body.split())
    return texts


def build(py, env, dest):
    env = dict(env, NO_MKDOCS_2_WARNING="1")
    subprocess.run([str(py), "-m", "mkdocs", "build", "--strict", "-q", "-d", str(dest)], cwd=ROOT, env=env, check=True)
    return page_texts(dest)


def main():
    OUT.mkdir(exist_ok=True)
    if not BASE_PY.exists():
        sys.exit("run `make install` first")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")}
    baseline = build(BASE_PY, clean, OUT / "site-baseline")
    report, failed = [("baseline (locked venv)", describe(BASE_PY, clean), "-", "-")], False
    only = sys.argv[1:]
    for name, (version, pins, extra) in SETUPS.items():
        if only and not any(word in name for word in only):
            continue
        py, env = venv_for(name, version, pins), dict(clean, **extra)
        tests = subprocess.run(
            [str(py), "-m", "pytest", "-m", "unit", "-q", "-p", "no:cacheprovider", "--basetemp", str(OUT / "pytest")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        summary = (tests.stdout.strip().splitlines() or ["(no output)"])[-1]
        (OUT / "docs-versions").mkdir(exist_ok=True)
        (OUT / "docs-versions" / name).write_text(docs_versions(py))
        texts = build(py, env, OUT / "site")  # strict: a warning of any newer plugin fails it
        differ = sorted(p for p in baseline.keys() | texts.keys() if baseline.get(p) != texts.get(p))
        failed |= tests.returncode != 0 or bool(differ)
        if tests.returncode:
            print(tests.stdout[-3000:], file=sys.stderr)
        for page in differ[:5]:
            a, b = baseline.get(page, "").split(), texts.get(page, "").split()
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(
                f"{name}: {page} differs near: {' '.join(a[at : at + 12])!r} vs {' '.join(b[at : at + 12])!r}",
                file=sys.stderr,
            )
        report.append((name, describe(py, env), summary, "same text" if not differ else f"{len(differ)} pages differ"))
    print("| setup | Python | numpy | plotly | BLAS kernel, threads | unit tests | pages vs baseline |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, d, summary, pages in report:
        print(
            f"| {name} | {d['python']} | {d['numpy']} | {d['plotly']} | {d['blas kernel']}, {d['threads']} "
            f"| {summary} | {pages} |"
        )
    for name in SETUPS:
        if (OUT / "docs-versions" / name).exists():
            print(f"\n{name}: {(OUT / 'docs-versions' / name).read_text()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
