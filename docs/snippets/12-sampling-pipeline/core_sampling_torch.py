import torch


def temperature_softmax(z, t):  # [vocab], float -> [vocab]
    if not t > 0:
        raise ValueError(f"temperature must be > 0, got {t}")
    return (z / t).softmax(dim=-1)       # softmax shifts by the max itself: no overflow


def top_k_filter(probs, k):  # [vocab] -> [vocab]: keep the k most likely ids (ties: lower id first), renormalise
    order = probs.argsort(descending=True, stable=True)
    out = torch.zeros_like(probs)
    out[order[:k]] = probs[order[:k]]
    return out / out.sum()


def top_p_filter(probs, p):  # [vocab] -> [vocab]: keep the fewest most likely ids whose mass reaches p, renormalise
    order = probs.argsort(descending=True, stable=True)
    ranked = probs[order]
    before = torch.cat([ranked.new_zeros(1), ranked.cumsum(0)[:-1]])   # mass ranked above each id
    out = torch.zeros_like(probs)
    out[order[before < p]] = ranked[before < p]
    return out / out.sum()


def sample(z, t, generator, n=1, top_k=None, top_p=None):  # [vocab], float, Generator -> [n] ids
    probs = temperature_softmax(z, t)
    probs = probs if top_k is None else top_k_filter(probs, top_k)
    probs = probs if top_p is None else top_p_filter(probs, top_p)
    # torch.multinomial draws without replacement unless told: n > 1 draws from one distribution need replacement=True.
    return torch.multinomial(probs, n, replacement=True, generator=generator)


z = torch.tensor([2.0, 1.0, 0.5, -0.5, -1.5], dtype=torch.float64)
g = torch.Generator().manual_seed(0)     # seeded: same draws every run (not numpy's draws: another generator)
print(sample(z, 1.0, g, n=12).tolist(), "greedy:", int(z.argmax()))
