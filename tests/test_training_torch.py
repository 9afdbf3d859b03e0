"""primer.training against PyTorch (CPU, float64): same decoder, weights and batch, same loss and gradients; Adam alike.

Bounds: the loss to 1e-12 absolute; each parameter tensor's gradient to
max |ours - torch| <= 1e-12 * max |torch| + 1e-15 (float64 sums in another order; measured 3e-15);
Adam's weights to 1e-12 relative after each of three steps.
"""

import numpy as np
import pytest
from trees import get, leaves

from primer.config import Config
from primer.experiments.broken_masks import training_masks
from primer.optim import adam_init, adam_step, trained, tree_map
from primer.training import loss_and_grads
from primer.transformer import init_stack

torch = pytest.importorskip("torch")
from primer_site.torch_decoder import decoder_loss  # noqa: E402  (after the skip: it imports torch)

pytestmark = pytest.mark.unit

CFG = Config(vocab_size=11, d_model=8, n_heads=2, d_ff=16, n_layers=2, max_len=8)
N = 6
_rng = np.random.default_rng(7)
TOKENS = _rng.integers(0, CFG.vocab_size, (3, N))
TARGETS = _rng.integers(0, CFG.vocab_size, (3, N))
del _rng

MASKS = training_masks(N)  # the causal mask and the broken ones chapter 7 trains under


@pytest.mark.parametrize("name", MASKS)
def test_every_gradient_agrees_with_torch_autograd(name):
    params, mask = init_stack(5, CFG), MASKS[name]
    ours, grads = loss_and_grads(params, CFG, TOKENS, TARGETS, mask)
    tp = tree_map(lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True), params)
    theirs = decoder_loss(tp, torch.from_numpy(TOKENS), torch.from_numpy(TARGETS), mask, CFG)
    theirs.backward()
    assert abs(ours - theirs.item()) < 1e-12
    assert [p for p, _ in leaves(grads)] == [
        p for p, _ in leaves(trained(params))
    ]  # every trained tensor has a gradient
    for path, g in leaves(grads):
        ref = get(tp, path).grad.numpy()
        assert np.abs(g - ref).max() <= 1e-12 * np.abs(ref).max() + 1e-15, path


def test_adam_matches_torch_optim_adam():
    params = init_stack(6, CFG)
    tp = tree_map(lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True), trained(params))
    flat = [t for _, t in leaves(tp)]
    opt = torch.optim.Adam(flat, lr=0.01, betas=(0.9, 0.999), eps=1e-8)
    state = adam_init(params)
    rng = np.random.default_rng(0)
    for _ in range(3):  # the bias correction changes with the step
        grads = tree_map(lambda a: rng.normal(size=a.shape), trained(params))
        for (_, t), (_, g) in zip(leaves(tp), leaves(grads)):
            t.grad = torch.from_numpy(g.copy())
        opt.step()
        params, state = adam_step(params, grads, state, 0.01)
        for path, t in leaves(tp):
            ref = t.detach().numpy()
            assert np.abs(get(params, path) - ref).max() <= 1e-12 * np.abs(ref).max() + 1e-15, path


# ---- the masked-LM loss: cross-entropy on the hidden positions only, under the full mask (chapter 6)

_rng = np.random.default_rng(8)
HIDDEN = (_rng.random((3, N)) < 0.3).astype(float)
HIDDEN[:, 0] = 1.0  # every row hides at least one token
del _rng


def test_the_masked_lm_loss_is_torchs_cross_entropy_with_ignore_index():
    """Weight 1 on the hidden positions, 0 elsewhere: torch's ignore_index (-100, as Hugging Face labels) does it."""
    from primer.backprop import cross_entropy, cross_entropy_backward

    z = np.random.default_rng(9).normal(size=(3, N, CFG.vocab_size))
    labels = np.where(HIDDEN > 0, TARGETS, -100)
    tz = torch.tensor(z, requires_grad=True)
    theirs = torch.nn.functional.cross_entropy(tz.reshape(-1, CFG.vocab_size), torch.from_numpy(labels).reshape(-1))
    theirs.backward()
    assert abs(cross_entropy(z, TARGETS, HIDDEN) - theirs.item()) < 1e-12
    dz = cross_entropy_backward(z, TARGETS, HIDDEN)
    assert np.abs(dz - tz.grad.numpy()).max() <= 1e-12 * np.abs(dz).max()
    assert not dz[HIDDEN == 0].any()  # a position not hidden sends no gradient


def test_an_encoder_step_agrees_with_torch_autograd():
    from primer.masks import full_mask

    params = init_stack(5, CFG)
    ours, grads = loss_and_grads(params, CFG, TOKENS, TARGETS, full_mask(N), loss_weights=HIDDEN)
    tp = tree_map(lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True), params)
    theirs = decoder_loss(
        tp, torch.from_numpy(TOKENS), torch.from_numpy(TARGETS), full_mask(N), CFG, torch.tensor(HIDDEN)
    )
    theirs.backward()
    assert abs(ours - theirs.item()) < 1e-12
    for path, g in leaves(grads):
        ref = get(tp, path).grad.numpy()
        assert np.abs(g - ref).max() <= 1e-12 * np.abs(ref).max() + 1e-15, path
