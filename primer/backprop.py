"""Backward passes by hand: each op of the decoder, its forward beside its backward, in plain numpy.

A backward takes d loss / d (the op's output) and returns d loss / d (each input), plus the
gradients of the op's weights as a dict shaped like the weights. It recomputes what it needs from
the forward's inputs (or takes the forward's cache), so the forwards stay primer's own:
primer.transformer.layer_norm and linear, primer.self_cross_heads.split_heads and merge_heads.

A mask reaches the scores in one of three forms (mask[i, j] True: query i may read key j):
  bool array           closed scores become -inf, as primer.attention does;
  float array          added to the scores: 0 / -inf is correct, all zeros is chapter 5's bug;
  MaskedFill(mask, v)  closed scores are replaced by v, as scores.masked_fill(~mask, v) does.
"""

from dataclasses import dataclass

import numpy as np

from primer.self_cross_heads import merge_heads, split_heads


@dataclass(frozen=True, eq=False)
class MaskedFill:
    """A mask applied by replacement: closed scores are set to value (0 leaks; -inf is the causal mask)."""

    mask: np.ndarray  # [n, n] or [b, n, n] bool, True: query i may read key j
    value: float = -np.inf  # what a closed score becomes


# ---- layers: linear, ReLU, layer norm ------------------------------------------------------------


def linear_backward(dy, x, p):  # [..., d_out], [..., d_in] -> ([..., d_in], {"w": [d_in, d_out], "b": [d_out]})
    """Return d x and the weights' gradients of y = x @ w + b (primer.transformer.linear)."""
    x2, dy2 = x.reshape(-1, x.shape[-1]), dy.reshape(-1, dy.shape[-1])  # every leading axis is a row
    return dy @ p["w"].T, {"w": x2.T @ dy2, "b": dy2.sum(axis=0)}


def relu(x):  # [...] -> [...]
    """Return max(0, x), the feed-forward layer's nonlinearity."""
    return np.maximum(0.0, x)


def relu_backward(dy, x):  # [...], [...] -> [...]
    """Return d x of relu(x): the gradient passes where x > 0."""
    return dy * (x > 0)


def layer_norm_backward(dy, x, p, eps=1e-5):  # [..., d], [..., d] -> ([..., d], {"g": [d], "b": [d]})
    """Return d x and the gradients of g and b of primer.transformer.layer_norm(x, p, eps)."""
    mu = x.mean(axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    xhat = (x - mu) * inv  # the normalised rows
    dxhat = dy * p["g"]
    # through mean and variance: subtract what moves every entry of the row, and what moves its spread
    dx = inv * (dxhat - dxhat.mean(axis=-1, keepdims=True) - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))
    lead = tuple(range(dy.ndim - 1))  # g and b are shared by every row
    return dx, {"g": (dy * xhat).sum(axis=lead), "b": dy.sum(axis=lead)}


# ---- attention: scores, mask, softmax, weighted sum, heads ---------------------------------------


def mask_scores(scores, mask):  # [..., n_q, n_k], a mask form that broadcasts -> [..., n_q, n_k]
    """Return the scores the softmax sees under one of the three mask forms."""
    if isinstance(mask, MaskedFill):
        return np.where(mask.mask, scores, mask.value)
    if mask.dtype == bool:
        return np.where(mask, scores, -np.inf)  # = scores + additive_mask(mask)
    return scores + mask


def mask_scores_backward(dz, mask):  # [..., n_q, n_k] -> [..., n_q, n_k]
    """Return d scores: a closed score that was replaced by a constant gets no gradient; an added mask passes it on."""
    if isinstance(mask, MaskedFill):
        return np.where(mask.mask, dz, 0.0)
    if mask.dtype == bool:
        return np.where(mask, dz, 0.0)
    return dz


def softmax_rows(z):  # [..., n] -> [..., n]
    """Return the softmax over the last axis; -inf entries get weight exactly 0 (as primer.softmax.masked_softmax)."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_backward(dw, w):  # [..., n], [..., n] -> [..., n]
    """Return d z of w = softmax(z): w * (dw - sum(dw * w))."""
    return w * (dw - (dw * w).sum(axis=-1, keepdims=True))


def attention_forward(
    q, k, v, mask
):  # [..., n_q, d_k], [..., n_k, d_k], [..., n_k, d_v] -> ([..., n_q, d_v], [..., n_q, n_k])
    """Return (output, weights) of softmax(mask(q k^T / sqrt(d_k))) v, computed as primer.attention computes it."""
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    w = softmax_rows(mask_scores(scores, mask))
    return w @ v, w


def attention_backward(dout, q, k, v, w, mask):  # [..., n_q, d_v], forward's q, k, v, weights -> (dq, dk, dv)
    """Return the gradients of q, k and v of attention_forward, given its weights w."""
    dv = np.swapaxes(w, -1, -2) @ dout
    dw = dout @ np.swapaxes(v, -1, -2)
    ds = mask_scores_backward(softmax_backward(dw, w), mask) / np.sqrt(q.shape[-1])
    return ds @ k, np.swapaxes(ds, -1, -2) @ q, dv


def split_heads_backward(dy):  # [..., h, n, d_h] -> [..., n, h * d_h]
    """Return d x of split_heads: put the heads' gradients side by side again."""
    return merge_heads(dy)


def merge_heads_backward(dy, n_heads):  # [..., n, h * d_h] -> [..., h, n, d_h]
    """Return d x of merge_heads: cut the gradient into the heads again."""
    return split_heads(dy, n_heads)


# ---- ends of the model: embedding, tied output, cross-entropy ------------------------------------


def embedding_backward(dx, tokens, vocab_size):  # [b, n, d], [b, n] -> [vocab, d]
    """Return d wte of wte[tokens]: each row adds up the gradients of every place its token was read."""
    dwte = np.zeros((vocab_size, dx.shape[-1]))
    np.add.at(dwte, tokens.ravel(), dx.reshape(-1, dx.shape[-1]))
    return dwte


def tied_logits_backward(dlogits, h, wte):  # [..., vocab], [..., d], [vocab, d] -> ([..., d], [vocab, d])
    """Return d h and d wte of logits = h @ wte.T (primer.transformer.logits: the output reuses the embedding)."""
    return dlogits @ wte, dlogits.reshape(-1, wte.shape[0]).T @ h.reshape(-1, h.shape[-1])


def cross_entropy(logits, targets, loss_weights=None):  # [..., vocab], [...] int, [...] or None -> float
    """Return the mean of -log softmax(logits)[target] over every position, or its mean weighted by loss_weights."""
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)
    if loss_weights is None:
        return float(-picked.mean())
    return float(-(loss_weights * picked[..., 0]).sum() / loss_weights.sum())  # masked LM: 1 where a token was picked


def cross_entropy_backward(logits, targets, loss_weights=None):  # [..., vocab], [...] int, [...] or None -> [.., vocab]
    """Return d logits of cross_entropy: (softmax(logits) - one_hot(target)) / positions, or * weight / sum(weights)."""
    g = softmax_rows(logits)
    np.put_along_axis(g, targets[..., None], np.take_along_axis(g, targets[..., None], axis=-1) - 1.0, axis=-1)
    if loss_weights is None:
        return g / targets.size
    return g * (loss_weights / loss_weights.sum())[..., None]  # a position of weight 0 sends no gradient
