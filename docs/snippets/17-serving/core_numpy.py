import numpy as np


def attention(q, k, v, mask):  # [n_q, d], [n_k, d], [n_k, d], [n_q, n_k] bool -> [n_q, d]
    s = np.where(mask, q @ k.T / np.sqrt(q.shape[1]), -np.inf)  # closed keys get −∞
    w = np.exp(s - s.max(axis=1, keepdims=True))
    return w / w.sum(axis=1, keepdims=True) @ v


def prefill(q, k, v, chunk, bottom_right):  # [n, d] each -> [n, d]: the prompt in chunks, each reading every key so far
    outs = []
    for s in range(0, len(q), chunk):
        qc, kc, vc = q[s : s + chunk], k[: s + chunk], v[: s + chunk]
        shift = len(kc) - len(qc) if bottom_right else 0  # bottom-right: the chunk's last query reads the last key
        mask = np.arange(len(kc))[None, :] <= np.arange(len(qc))[:, None] + shift
        outs.append(attention(qc, kc, vc, mask))
    return np.concatenate(outs)


q, k, v = np.random.default_rng(0).standard_normal((3, 12, 8))
one_shot = prefill(q, k, v, 12, True)  # one chunk: the whole prompt, n_q == n_k
for chunk in (1, 4, 12):
    right = np.abs(prefill(q, k, v, chunk, True) - one_shot).max()
    left = np.abs(prefill(q, k, v, chunk, False) - one_shot).max()
    print(f"chunk {chunk}: bottom-right equals one-shot: {right < 1e-12}, top-left max error {left:.1f}")
