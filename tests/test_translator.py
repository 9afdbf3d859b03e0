"""experiments.translator and the encoder-decoder path of primer.training: the encoder-decoder's and the decoder-only
prompt's losses and gradients, against primer's own forward, finite differences and PyTorch autograd (float64);
training.

Bounds as tests/test_training.py's: against finite differences, per tensor,
max |analytic - numeric| <= 1e-6 * max |analytic| + 1e-8; against torch, 1e-12 * max |torch| + 1e-15.
"""

import numpy as np
import pytest
from trees import get, leaves

from primer.backprop_stack import cross_backward, cross_forward
from primer.config import Config
from primer.experiments.translator import (
    encdec_forward,
    encdec_rows,
    masks,
    prompt_loss_and_grads,
    prompt_rows,
    target_loss,
)
from primer.gradcheck import numerical_jacobian
from primer.masks import causal_mask, full_mask
from primer.optim import trained, tree_map
from primer.training import Rows, machine_loss_and_grads, train
from primer.transformer import decode, encode, init_stack

TINY = Config(vocab_size=7, d_model=4, n_heads=2, d_ff=8, n_layers=2, max_len=8)
M, N = 5, 3  # source and target lengths differ, so a transposed cross mask or enc_out would not fit
_rng = np.random.default_rng(31)
SRC = _rng.integers(1, TINY.vocab_size, (2, M))
TGT = _rng.integers(1, TINY.vocab_size, (2, N))
del _rng
BOS = 0


def replaced(tree, path, value):
    """Return a copy of tree with the array at path replaced (the rest shared)."""
    if not path:
        return value
    copy = list(tree) if isinstance(tree, list) else dict(tree)
    copy[path[0]] = replaced(tree[path[0]], path[1:], value)
    return copy


def close(analytic, numeric):
    return np.abs(analytic - numeric).max() <= 1e-6 * np.abs(analytic).max() + 1e-8


def models(seed=4):
    return init_stack(seed, TINY), init_stack(seed + 1, TINY, cross=True)


def encdec_loss_and_grads(enc, dec, src, tgt_in, tgt_out, n_heads):  # -> (float, g_enc, g_dec)
    """Return what training's one step computes for an encoder-decoder batch, under the machine's three masks."""
    (source_mask, _), (self_mask, cross_mask) = (
        masks("encoder", src.shape[1]),
        masks("encoder-decoder", tgt_in.shape[1], src.shape[1]),
    )
    value, (g_enc, g_dec) = machine_loss_and_grads(
        (enc, dec), Rows(tgt_in, tgt_out, source=src), (self_mask, source_mask, cross_mask), n_heads
    )
    return value, g_enc, g_dec


# ---- the forward is primer.transformer's: the same block code


def test_the_encoder_decoder_forward_is_primers_encode_and_decode():
    enc, dec = models()
    src, tgt_in, _ = encdec_rows(SRC, TGT, BOS)
    z, _ = encdec_forward(enc, dec, src, tgt_in, TINY.n_heads)
    for row in range(len(src)):
        ref = decode(tgt_in[row], dec, TINY, enc_out=encode(src[row], enc, TINY))
        assert np.abs(z[row] - ref).max() < 1e-12


# ---- cross-attention's backward, alone, against finite differences


def test_cross_attention_backward_agrees_with_finite_differences():
    rng = np.random.default_rng(8)
    p = init_stack(2, TINY, cross=True)["blocks"][0]
    x, enc_out = rng.normal(size=(2, N, TINY.d_model)), rng.normal(size=(2, M, TINY.d_model))
    r = rng.normal(size=(2, N, TINY.d_model))  # a random direction: loss = sum(r * y)
    cross_mask = full_mask(N, M)[None, None]

    def f(x, enc_out, p):
        return float((r * cross_forward(x, enc_out, p, TINY.n_heads, cross_mask)[0]).sum())

    _, cache = cross_forward(x, enc_out, p, TINY.n_heads, cross_mask)
    dx, g, denc_out = cross_backward(r, p, TINY.n_heads, cross_mask, cache)
    assert close(dx, numerical_jacobian(lambda v: f(v, enc_out, p), x))
    assert close(denc_out, numerical_jacobian(lambda v: f(x, v, p), enc_out))
    assert sorted(g) == ["cross", "ln2"]
    for path, analytic in leaves(g):
        numeric = numerical_jacobian(lambda w, path=path: f(x, enc_out, replaced(p, path, w)), get(p, path))
        assert close(analytic, numeric), path


# ---- a full encoder-decoder step, and the prompt's, against finite differences


def test_every_encoder_decoder_gradient_agrees_with_finite_differences():
    enc, dec = models()
    rows = encdec_rows(SRC, TGT, BOS)
    _, g_enc, g_dec = encdec_loss_and_grads(enc, dec, *rows, TINY.n_heads)

    def value(enc, dec):
        return encdec_loss_and_grads(enc, dec, *rows, TINY.n_heads)[0]

    assert [p for p, _ in leaves(g_enc)] == [p for p, _ in leaves(trained(enc))]
    assert [p for p, _ in leaves(g_dec)] == [p for p, _ in leaves(trained(dec))]
    for path, analytic in leaves(g_enc):  # the encoder learns only through the decoder's cross-attention
        numeric = numerical_jacobian(lambda w, path=path: value(replaced(enc, path, w), dec), get(enc, path))
        assert close(analytic, numeric), ("enc", path)
    for path, analytic in leaves(g_dec):
        numeric = numerical_jacobian(lambda w, path=path: value(enc, replaced(dec, path, w)), get(dec, path))
        assert close(analytic, numeric), ("dec", path)


def test_every_prompt_gradient_agrees_with_finite_differences_and_skips_the_source():
    params = init_stack(6, TINY)
    tokens, targets = prompt_rows(SRC[:, :N], TGT, BOS)  # "source BOS target": 2N tokens, loss from position N on
    value, grads = prompt_loss_and_grads(params, tokens, targets, N, TINY.n_heads)
    for path, analytic in leaves(grads):
        numeric = numerical_jacobian(
            lambda w, path=path: prompt_loss_and_grads(replaced(params, path, w), tokens, targets, N, TINY.n_heads)[0],
            get(params, path),
        )
        assert close(analytic, numeric), path
    z = np.random.default_rng(0).normal(size=(2, 2 * N, TINY.vocab_size))
    loss_all, _ = target_loss(z, targets, 0)
    loss_tgt, dz = target_loss(z, targets, N)
    assert not np.isclose(loss_all, loss_tgt) and (dz[:, :N] == 0).all()  # the source's words are not predicted


# ---- against PyTorch autograd, float64


def test_every_encoder_decoder_gradient_agrees_with_torch_autograd():
    torch = pytest.importorskip("torch")
    from primer_site.torch_decoder import encdec_loss

    enc, dec = models(9)
    src, tgt_in, tgt_out = encdec_rows(SRC, TGT, BOS)
    ours, g_enc, g_dec = encdec_loss_and_grads(enc, dec, src, tgt_in, tgt_out, TINY.n_heads)
    t_enc, t_dec = (tree_map(lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True), p) for p in (enc, dec))
    theirs = encdec_loss(
        t_enc, t_dec, *(torch.from_numpy(a) for a in (src, tgt_in, tgt_out)), full_mask(M), causal_mask(N), TINY
    )
    theirs.backward()
    assert abs(ours - theirs.item()) < 1e-12
    for grads, tp in ((g_enc, t_enc), (g_dec, t_dec)):
        for path, g in leaves(grads):
            ref = get(tp, path).grad.numpy()
            assert np.abs(g - ref).max() <= 1e-12 * np.abs(ref).max() + 1e-15, path


# ---- training


def test_training_the_encoder_decoder_lowers_its_loss():
    enc, dec = models(1)
    tgt_in, tgt_out = encdec_rows(SRC, np.concatenate([TGT, TGT[:, :2]], axis=1), BOS)[1:]
    task = [Rows(tgt_in, tgt_out, source=SRC)]
    run = train(
        (enc, dec),
        TINY,
        task,
        self_mask=causal_mask,
        source_mask=full_mask,
        cross_mask=full_mask,
        steps=40,
        lr=0.03,
        batch_size=2,
    )
    assert np.all(np.isfinite(run.losses)) and run.losses[-5:].mean() < 0.5 * run.losses[:5].mean()
    assert run.params[0] is not enc and np.array_equal(enc["wte"], models(1)[0]["wte"])  # start is not changed
