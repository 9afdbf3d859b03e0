"""Every snippet in docs/snippets runs on its own, in a fresh interpreter, with only the project installed."""

import subprocess
import sys

import numpy as np
import pytest

from conftest import DOCS

SNIPPETS = sorted(p.relative_to(DOCS / "snippets").as_posix() for p in (DOCS / "snippets").rglob("*.py"))


@pytest.mark.parametrize("name", SNIPPETS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_snippet_runs_standalone(tmp_path, name, lang):
    proc = subprocess.run([sys.executable, str(DOCS / "snippets" / name)], cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "PRIMER_LANG": lang}, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip(), "a snippet must print what the page shows"


def load(name):
    namespace = {"print": lambda *a, **k: None}
    exec(compile((DOCS / "snippets" / name).read_text(), name, "exec"), namespace)
    return namespace


def test_core_numpy_equals_primer_on_random_inputs():
    import primer

    core = load("05-mask/core_numpy.py")
    rng = np.random.default_rng(7)
    for n in range(1, 9):
        assert np.array_equal(core["causal_mask"](n), primer.causal_mask(n))
        scores = rng.normal(scale=3, size=(n, n))
        assert np.allclose(core["masked_softmax"](scores, core["causal_mask"](n)),
                           primer.masked_softmax(scores, primer.causal_mask(n)), atol=1e-15)
        q, k, v = rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), rng.normal(size=(n, 3))
        assert np.allclose(core["attention"](q, k, v, core["causal_mask"](n)),
                           primer.attention(q, k, v, primer.causal_mask(n))[0], atol=1e-12)
