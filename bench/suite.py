"""Time `make test` as a new contributor runs it: HEAD cloned into a temporary folder, with its own venv.

The install (venv, lock, PyTorch) is timed apart from the tests: `make install` and PyTorch's step run
first, so `make test` then runs only pytest. CPU seconds are the machine's (/proc/stat), all processes:
the browsers and the background builds too; run it with nothing else on the machine.
"""

import re
import subprocess
import tempfile
import time
from pathlib import Path

SUMMARY = re.compile(r"=+ (?P<counts>.*?) in (?P<seconds>[\d.]+)s")


def busy_seconds():
    """Return the CPU seconds all cores have spent busy since boot (Linux), or None elsewhere."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in fields[1:8])
    return (user + nice + system + irq + softirq) / 100   # USER_HZ is 100 on Linux


def measure(source, python="python3"):
    """Return {install_s, pytest_s, cpu_s, counts} of `make test` on a fresh clone of source's HEAD."""
    with tempfile.TemporaryDirectory(prefix="primer-bench-suite-") as tmp:
        root = Path(tmp) / "repo"
        make = ["make", "--no-print-directory", f"PYTHON={python}"]
        start = time.perf_counter()
        subprocess.run(["git", "clone", "--quiet", str(source), str(root)], check=True)
        subprocess.run(make + ["install", ".venv/.torch", "system-deps"], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
        install_s = time.perf_counter() - start
        cpu = busy_seconds()
        proc = subprocess.run(make + ["test"], cwd=root, capture_output=True, text=True)
        cpu = None if cpu is None else busy_seconds() - cpu
        found = SUMMARY.search(proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "")
        if proc.returncode != 0 or not found:
            raise RuntimeError(f"make test failed on a fresh clone:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    return {"install_s": install_s, "pytest_s": float(found["seconds"]), "cpu_s": cpu, "counts": found["counts"]}
