import numpy as np


def window_mask(n, w, sinks=0):  # -> [n, n] bool; True: query i may read key j
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return (j <= i) & ((i - j < w) | (j < sinks))  # the last w keys, and the first sinks keys for good


def attend(q, k, v, mask):  # [n_q, d], [n_k, d], [n_k, d], [n_q, n_k] -> [n_q, d]
    s = np.where(mask, q @ k.T / np.sqrt(q.shape[1]), -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True) @ v


def ring_decode(q, k, v, w, sinks=0):  # one position at a time through sinks + w slots -> [n, d]
    slots_k, slots_v = np.zeros((sinks + w, k.shape[1])), np.zeros((sinks + w, v.shape[1]))
    held, out = np.zeros(sinks + w, dtype=bool), []
    for t in range(len(q)):
        s = t if t < sinks else sinks + t % w  # position t overwrites t - w, which just left the window
        slots_k[s], slots_v[s], held[s] = k[t], v[t], True
        out.append(attend(q[t : t + 1], slots_k[held], slots_v[held], np.ones((1, held.sum()), dtype=bool))[0])
    return np.array(out)


rng = np.random.default_rng(0)
q, k, v = rng.normal(size=(3, 40, 8))
for sinks in (0, 2):
    gap = np.abs(ring_decode(q, k, v, 8, sinks) - attend(q, k, v, window_mask(40, 8, sinks))).max()
    print(f"sinks={sinks}: 40 positions through {sinks + 8} slots, ring == recompute: {gap < 1e-12}")
