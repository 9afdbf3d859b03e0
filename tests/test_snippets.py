"""The pages' numpy cores compute what primer computes.

That every snippet runs on its own, in a fresh interpreter, is checked once, by tests/test_copy_paste.py,
on the code the built pages show (which is the snippets' code).
"""

import numpy as np
from site_reader import load_snippet


def test_core_numpy_equals_primer_on_random_inputs():
    import primer

    core = load_snippet("05-mask/core_numpy.py")
    rng = np.random.default_rng(7)
    for n in range(1, 9):
        assert np.array_equal(core["causal_mask"](n), primer.causal_mask(n))
        scores = rng.normal(scale=3, size=(n, n))
        assert np.allclose(
            core["masked_softmax"](scores, core["causal_mask"](n)),
            primer.masked_softmax(scores, primer.causal_mask(n)),
            atol=1e-15,
        )
        q, k, v = rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), rng.normal(size=(n, 3))
        assert np.allclose(
            core["attention"](q, k, v, core["causal_mask"](n)),
            primer.attention(q, k, v, primer.causal_mask(n))[0],
            atol=1e-12,
        )
