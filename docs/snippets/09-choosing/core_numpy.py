import numpy as np


def masks_for(machine, n, m=None):  # -> ([n, n] self mask, [n, m] cross mask or None)
    if machine == "encoder":
        return np.ones((n, n), dtype=bool), None  # no mask
    causal = np.tril(np.ones((n, n), dtype=bool))
    if machine == "decoder":
        return causal, None  # causal
    if machine == "encoder-decoder":
        return causal, np.ones((n, m), dtype=bool)  # causal + a full cross rectangle
    raise ValueError(f"machine must be encoder, decoder or encoder-decoder, got {machine!r}")


def reads(f, x):  # f: [n, d] -> [n, d_out]; -> [n, n] bool: does output i move when input j changes?
    base, moved = f(x), np.zeros((len(x), len(x)), dtype=bool)
    for j in range(len(x)):
        y = x.copy()
        y[j] += 1.0  # nudge one input row
        moved[:, j] = np.abs(f(y) - base).max(axis=1) > 1e-12
    return moved


def attention_layer(mask, w_q, w_k, w_v):  # -> f: [n, d] -> [n, d_v]
    def f(x):
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        s = np.where(mask, q @ k.T / np.sqrt(k.shape[-1]), -np.inf)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        return w / w.sum(axis=-1, keepdims=True) @ v

    return f


rng = np.random.default_rng(0)
n, d = 5, 8
x, w = rng.normal(size=(n, d)), [rng.normal(size=(d, 4)) for _ in range(3)]
for machine in ("encoder", "decoder"):
    self_mask, _ = masks_for(machine, n)
    print(
        machine, "- measured reads equal the mask:", np.array_equal(reads(attention_layer(self_mask, *w), x), self_mask)
    )
