"""Build the site for a test session in the background: python site_build.py OUT LOG RC [AFTER_RC].

Run detached by tests/conftest.py. Waits for AFTER_RC (the build it follows) if given, runs the strict
build into OUT with its output in LOG, then writes the exit code to RC (atomically: RC's existence says
the build is over).
"""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(out, log, rc, after=None):
    if after:
        while not os.path.exists(after):
            time.sleep(0.5)
    with open(log, "w", encoding="utf-8") as f:
        code = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", out],
                              cwd=ROOT, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT).returncode
    with open(rc + ".tmp", "w") as f:
        f.write(str(code))
    os.replace(rc + ".tmp", rc)


if __name__ == "__main__":
    main(*sys.argv[1:])
