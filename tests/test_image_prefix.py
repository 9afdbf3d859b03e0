"""The image prefix of chapter 13: a sensor's patches before the text under one causal mask, and the block kinds."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import causal_mask
from primer.image_prefix import block_kinds, patchify, prefix_dependence, prefix_forward, toy_image
from primer.inputs.sampling_pipeline import SEED
from primer.inputs.today import CAPTION, IMAGE_SEED, IMAGE_SIDE, PATCH_SIDE
from primer.sampling_pipeline import CFG, shared_weights

PARAMS = shared_weights(SEED)


def page_dependence():
    """Return the page's dependence grid: its image, caption, weights and patch size."""
    return prefix_dependence(toy_image(IMAGE_SEED, IMAGE_SIDE), CAPTION, PARAMS, IMAGE_SEED, PATCH_SIDE)


def test_patchify():
    image = np.arange(16.0).reshape(4, 4)
    assert patchify(image, 2).tolist() == [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]
    assert patchify(image, 4).shape == (1, 16)
    assert np.array_equal(patchify(image, 1).ravel(), image.ravel())


def test_image_page_dependence():
    dep = page_dependence()
    p, n = 4, len(CAPTION)
    assert dep.shape == (p + n, p + n)
    assert dep[:, :p].all()  # the sensor saw the whole image: every row reads every patch
    assert not dep[:p, p:].any()  # the prefix never reads the text after it
    assert np.array_equal(dep[p:, p:], causal_mask(n))
    assert prefix_forward(toy_image(IMAGE_SEED, IMAGE_SIDE), CAPTION, PARAMS, IMAGE_SEED, PATCH_SIDE).shape == (
        p + n,
        CFG.vocab_size,
    )


def test_block_kinds():
    kinds = block_kinds(SEED)
    assert kinds == {
        "decoder-only": [(("self", "ff1"), 2224, 2)],
        "encoder-decoder": [(("self", "ff1"), 2224, 2), (("self", "cross", "ff1"), 3344, 2)],
    }
    d = CFG.d_model
    attn = 4 * (d * d + d)
    ff = d * CFG.d_ff + CFG.d_ff + CFG.d_ff * d + d
    assert 2224 == attn + ff + 4 * d and 3344 == 2 * attn + ff + 6 * d


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 6))
def test_chapter_13_numpy_core_reads_like_primers_image_prefix(seed, p, t):
    core = load_snippet("13-today/core_numpy.py")
    rng = np.random.default_rng(seed)
    reads = core["image_prefix_reads"](rng.normal(size=(p, 8)), rng.normal(size=(t, 8)), rng.normal(size=(8, 8)) / 3)
    expected = np.zeros((p + t, p + t), bool)
    expected[:, :p] = True  # every output reads every patch
    expected[p:, p:] = causal_mask(t)  # text reads text no later than itself
    assert np.array_equal(reads, expected)
    pd = page_dependence()  # primer's image prefix on the page: the same pattern
    n_patches = pd.shape[0] - len(CAPTION)
    assert pd[:, :n_patches].all() and not pd[:n_patches, n_patches:].any()
    assert np.array_equal(pd[n_patches:, n_patches:], causal_mask(len(CAPTION)))
