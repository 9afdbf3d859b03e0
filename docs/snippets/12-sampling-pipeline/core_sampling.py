import numpy as np


def temperature_softmax(z, t):  # [vocab], float -> [vocab]
    if not t > 0:
        raise ValueError(f"temperature must be > 0, got {t}")
    z = np.asarray(z, dtype=float) / t
    e = np.exp(z - z.max())  # shift by the max: no overflow
    return e / e.sum()


def sample(z, t, rng):  # [vocab], float, Generator -> int
    cdf = np.cumsum(temperature_softmax(z, t))
    u = rng.random() * cdf[-1]  # one uniform number per draw
    i = np.searchsorted(cdf, u, side="right")
    return int(min(i, len(cdf) - 1))


z = np.array([2.0, 1.0, 0.5, -0.5, -1.5])
rng = np.random.default_rng(0)  # seeded: same draws every run
print([sample(z, 1.0, rng) for _ in range(12)], "greedy:", int(np.argmax(z)))
