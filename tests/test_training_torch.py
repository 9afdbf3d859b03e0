"""primer.training against PyTorch (CPU, float64): the same decoder, weights and batch give the same loss and gradients; Adam steps alike.

Bounds: the loss to 1e-12 absolute; each parameter tensor's gradient to
max |ours - torch| <= 1e-12 * max |torch| + 1e-15 (float64 sums in another order; measured 3e-15);
Adam's weights to 1e-12 relative after each of three steps.
"""

import math

import numpy as np
import pytest

from primer.backprop import MaskedFill
from primer.config import Config
from primer.masks import additive_mask, causal_mask
from primer.training import adam_init, adam_step, loss_and_grads, trained, tree_map
from primer.transformer import init_stack

torch = pytest.importorskip("torch")
F = torch.nn.functional

pytestmark = pytest.mark.unit

CFG = Config(vocab_size=11, d_model=8, n_heads=2, d_ff=16, n_layers=2, max_len=8)
N = 6
_rng = np.random.default_rng(7)
TOKENS = _rng.integers(0, CFG.vocab_size, (3, N))
TARGETS = _rng.integers(0, CFG.vocab_size, (3, N))
del _rng

MASKS = {
    "causal": causal_mask(N),
    "added 0 instead of -inf": additive_mask(causal_mask(N), 0.0),
    "triu(diagonal=2)": ~np.triu(np.ones((N, N), bool), k=2),
    "masked_fill(scores, 0)": MaskedFill(causal_mask(N), 0.0),
}


def torch_scores_masked(scores, mask):
    """The three mask forms, as a torch user writes them."""
    if isinstance(mask, MaskedFill):
        return scores.masked_fill(~torch.from_numpy(mask.mask), mask.value)
    if mask.dtype == bool:
        return scores.masked_fill(~torch.from_numpy(mask), float("-inf"))
    return scores + torch.from_numpy(mask)


def torch_loss(tp, tokens, targets, mask, cfg):
    """primer's decoder written again in torch: pre-norm blocks, final norm, output tied to the embedding."""
    b, n = tokens.shape
    d, h = cfg.d_model, cfg.n_heads
    x = tp["wte"][tokens] + tp["wpe"][:n]

    def heads(y):  # [b, n, d] -> [b, h, n, d / h]
        return y.view(b, n, h, d // h).transpose(1, 2)

    for p in tp["blocks"]:
        a = F.layer_norm(x, (d,), p["ln1"]["g"], p["ln1"]["b"], eps=1e-5)
        q, k, v = (heads(a @ p["self"][m]["w"] + p["self"][m]["b"]) for m in ("q", "k", "v"))
        w = torch.softmax(torch_scores_masked(q @ k.transpose(-1, -2) / math.sqrt(d // h), mask), dim=-1)
        merged = (w @ v).transpose(1, 2).reshape(b, n, d)
        x = x + merged @ p["self"]["o"]["w"] + p["self"]["o"]["b"]
        a = F.layer_norm(x, (d,), p["ln3"]["g"], p["ln3"]["b"], eps=1e-5)
        x = x + torch.relu(a @ p["ff1"]["w"] + p["ff1"]["b"]) @ p["ff2"]["w"] + p["ff2"]["b"]
    x = F.layer_norm(x, (d,), tp["ln_f"]["g"], tp["ln_f"]["b"], eps=1e-5)
    return F.cross_entropy((x @ tp["wte"].T).reshape(b * n, -1), targets.reshape(-1))


def leaves(tree, path=()):
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from leaves(value, path + (key,))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from leaves(value, path + (i,))
    else:
        yield path, tree


def get(tree, path):
    for key in path:
        tree = tree[key]
    return tree


@pytest.mark.parametrize("name", MASKS)
def test_every_gradient_agrees_with_torch_autograd(name):
    params, mask = init_stack(5, CFG), MASKS[name]
    ours, grads = loss_and_grads(params, CFG, TOKENS, TARGETS, mask)
    tp = tree_map(lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True), params)
    theirs = torch_loss(tp, torch.from_numpy(TOKENS), torch.from_numpy(TARGETS), mask, CFG)
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
