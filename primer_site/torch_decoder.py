"""primer's decoder written again in PyTorch, for the tests and bench/ only: torch is no dependency of primer.

The one twin tests/test_training_torch.py checks against primer and bench/bench_training.py times.
"""

import math

import torch
import torch.nn.functional as F

from primer.backprop import MaskedFill


def scores_masked(scores, mask):
    """Apply each of primer's mask forms (bool, additive, MaskedFill) as a torch user writes it."""
    if isinstance(mask, MaskedFill):
        return scores.masked_fill(~torch.from_numpy(mask.mask), mask.value)
    if mask.dtype == bool:
        return scores.masked_fill(~torch.from_numpy(mask), float("-inf"))
    return scores + torch.from_numpy(mask)


def decoder_loss(
    tp, tokens, targets, mask, cfg, loss_weights=None
):  # torch trees, [b, n] ids, a primer mask [n, n] -> scalar
    """Return primer's training loss in torch: pre-norm blocks, final norm, output tied to the embedding.

    loss_weights ([b, n], optional) weigh each position's loss, as primer.training's masked-LM loss does.
    """
    b, n = tokens.shape
    d, h = cfg.d_model, cfg.n_heads
    x = tp["wte"][tokens] + tp["wpe"][:n]

    def heads(y):  # [b, n, d] -> [b, h, n, d / h]
        return y.view(b, n, h, d // h).transpose(1, 2)

    for p in tp["blocks"]:
        a = F.layer_norm(x, (d,), p["ln1"]["g"], p["ln1"]["b"], eps=1e-5)
        q, k, v = (heads(a @ p["self"][m]["w"] + p["self"][m]["b"]) for m in ("q", "k", "v"))
        w = torch.softmax(scores_masked(q @ k.transpose(-1, -2) / math.sqrt(d // h), mask), dim=-1)
        merged = (w @ v).transpose(1, 2).reshape(b, n, d)
        x = x + merged @ p["self"]["o"]["w"] + p["self"]["o"]["b"]
        a = F.layer_norm(x, (d,), p["ln3"]["g"], p["ln3"]["b"], eps=1e-5)
        x = x + torch.relu(a @ p["ff1"]["w"] + p["ff1"]["b"]) @ p["ff2"]["w"] + p["ff2"]["b"]
    x = F.layer_norm(x, (d,), tp["ln_f"]["g"], tp["ln_f"]["b"], eps=1e-5)
    if loss_weights is None:
        return F.cross_entropy((x @ tp["wte"].T).reshape(b * n, -1), targets.reshape(-1))
    each = F.cross_entropy((x @ tp["wte"].T).reshape(b * n, -1), targets.reshape(-1), reduction="none")
    return (each * loss_weights.reshape(-1)).sum() / loss_weights.sum()


def stack_hidden(tp, tokens, mask, cfg, enc_out=None):  # torch tree, [b, n] ids, primer masks -> [b, n, d]
    """Return primer.backprop_stack.stack_forward's final-normed states in torch; with enc_out, each block's cross
    sub-layer reads it (under the full rectangle: every query reads every source position)."""
    b, n = tokens.shape
    d, h = cfg.d_model, cfg.n_heads
    x = tp["wte"][tokens] + tp["wpe"][:n]

    def heads(y):  # [b, L, d] -> [b, h, L, d / h]
        return y.view(b, y.shape[1], h, d // h).transpose(1, 2)

    def attend(a, kv_in, p, m):  # queries from a, keys and values from kv_in, mask m (None: all open)
        q, k, v = heads(a @ p["q"]["w"] + p["q"]["b"]), *(heads(kv_in @ p[s]["w"] + p[s]["b"]) for s in ("k", "v"))
        s = q @ k.transpose(-1, -2) / math.sqrt(d // h)
        w = torch.softmax(s if m is None else scores_masked(s, m), dim=-1)
        return (w @ v).transpose(1, 2).reshape(b, a.shape[1], d) @ p["o"]["w"] + p["o"]["b"]

    for p in tp["blocks"]:
        a = F.layer_norm(x, (d,), p["ln1"]["g"], p["ln1"]["b"], eps=1e-5)
        x = x + attend(a, a, p["self"], mask)
        if "cross" in p:
            a = F.layer_norm(x, (d,), p["ln2"]["g"], p["ln2"]["b"], eps=1e-5)
            x = x + attend(a, enc_out, p["cross"], None)
        a = F.layer_norm(x, (d,), p["ln3"]["g"], p["ln3"]["b"], eps=1e-5)
        x = x + torch.relu(a @ p["ff1"]["w"] + p["ff1"]["b"]) @ p["ff2"]["w"] + p["ff2"]["b"]
    return F.layer_norm(x, (d,), tp["ln_f"]["g"], tp["ln_f"]["b"], eps=1e-5)


def encdec_loss(t_enc, t_dec, src, tgt_in, tgt_out, enc_mask, dec_mask, cfg):  # torch trees, [b, m], [b, n] ids
    """Return experiments.translator's encoder-decoder loss in torch: every decoder layer reads the encoder's output."""
    enc_out = stack_hidden(t_enc, src, enc_mask, cfg)
    h = stack_hidden(t_dec, tgt_in, dec_mask, cfg, enc_out)
    return F.cross_entropy((h @ t_dec["wte"].T).reshape(-1, cfg.vocab_size), tgt_out.reshape(-1))
