import torch


def temperature_softmax(z, t):  # [vocab], float -> [vocab]
    if not t > 0:
        raise ValueError(f"temperature must be > 0, got {t}")
    return (z / t).softmax(dim=-1)


def top_k_top_p(probs, k=None, p=None):  # [vocab] -> [vocab]: the k most likely, then the fewest whose mass reaches p
    ranked, order = probs.sort(descending=True, stable=True)  # ties: lower id first
    if k is not None:
        ranked[k:] = 0
    if p is not None:
        before = (ranked / ranked.sum()).cumsum(0).roll(1)  # the mass ranked above each id
        before[0] = 0
        ranked[before >= p] = 0
    return torch.zeros_like(probs).scatter(0, order, ranked / ranked.sum())


def sample(z, t, generator, n=1, top_k=None, top_p=None):  # [vocab], float, Generator -> [n] ids
    probs = top_k_top_p(temperature_softmax(z, t), top_k, top_p)
    # torch.multinomial draws without replacement unless told: n draws from one distribution need replacement=True.
    return torch.multinomial(probs, n, replacement=True, generator=generator)


z = torch.tensor([2.0, 1.0, 0.5, -0.5, -1.5], dtype=torch.float64)
g = torch.Generator().manual_seed(0)  # seeded: same draws every run (not numpy's draws)
print(sample(z, 1.0, g, n=12).tolist(), "greedy:", int(z.argmax()))
