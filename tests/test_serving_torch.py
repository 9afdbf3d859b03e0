"""Chapter 17's mechanisms in torch (CPU): a verification pass's tree mask as a FlexAttention mask_mod computed from
each node's path (no dense table), and the page's interleaved paged cache, each against primer's numpy in float64."""

import numpy as np
import pytest

from primer import attention
from primer.inputs import serving as inputs
from primer.masks import tree_mask
from primer.paged_cache import PagedCache
from primer.speculative import tree_depths, tree_pass_mask

torch = pytest.importorskip("torch")
flex = pytest.importorskip("torch.nn.attention.flex_attention")
BOUND = 1e-12
TREES = [(1, [-1]), (3, [-1, 0, 1]), (2, [-1, -1, 0, 0, 1, 3]), (4, [-1, 0, 0, 1, -1, 4, 4, 6])]


def t4(a):  # [n, d] -> [1, 1, n, d]
    return torch.from_numpy(a)[None, None]


def tree_pass_mod(n_prefix, parents):  # -> mask_mod over the prefix and the m draft nodes
    """Return a mask_mod: causal over the prefix; node i reads the prefix and kv if kv lies on its own path."""
    depth = torch.from_numpy(tree_depths(parents))  # [m]
    m, p = len(parents), n_prefix
    path = torch.full((m, int(depth.max()) + 1), -1)  # path[i, d]: node i's ancestor at depth d (itself at its own)
    for i, parent in enumerate(parents):
        if parent != -1:
            path[i] = path[parent]
        path[i, depth[i]] = i

    def mod(b, h, q_idx, kv_idx):
        q_node, kv_node = (q_idx - p).clamp(min=0), (kv_idx - p).clamp(min=0)
        on_path = path[q_node, depth[kv_node]] == kv_node
        prefix = (kv_idx < p) & ((q_idx >= p) | (kv_idx <= q_idx))
        return prefix | ((q_idx >= p) & (kv_idx >= p) & on_path)

    return mod


@pytest.mark.parametrize("n_prefix, parents", TREES)
def test_the_path_mask_mod_is_primers_tree_pass_mask(n_prefix, parents):
    n = n_prefix + len(parents)
    dense = flex.create_mask(tree_pass_mod(n_prefix, parents), 1, 1, n, n, device="cpu")[0, 0]
    assert np.array_equal(dense.numpy(), tree_pass_mask(n_prefix, parents))
    assert np.array_equal(tree_pass_mask(n_prefix, parents)[n_prefix:, n_prefix:], tree_mask(parents))


@pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile")
@pytest.mark.parametrize("n_prefix, parents", TREES)
def test_flex_attention_under_the_path_mask_mod_gives_primers_output(n_prefix, parents):
    n = n_prefix + len(parents)
    q, k, v = np.random.default_rng(n).normal(size=(3, n, 4))
    block_mask = flex.create_block_mask(tree_pass_mod(n_prefix, parents), None, None, n, n, device="cpu")
    out = flex.flex_attention(t4(q), t4(k), t4(v), block_mask=block_mask)[0, 0].numpy()
    assert np.abs(out - attention(q, k, v, tree_pass_mask(n_prefix, parents))[0]).max() < BOUND
    siblings = tree_pass_mask(n_prefix, [-1] * len(parents))  # every node a root: the wrong tree for a deeper one
    if not np.array_equal(siblings, tree_pass_mask(n_prefix, parents)):
        assert np.abs(out - attention(q, k, v, siblings)[0]).max() > 1e-3


def test_a_torch_paged_cache_replays_the_pages_interleaving():
    rng = np.random.default_rng(inputs.PAGED_SEED)
    d, size = 4, inputs.PAGE_SIZE
    keys = [rng.standard_normal((n, d)) for n in inputs.SEQ_LENGTHS]
    ours = PagedCache(inputs.N_PAGES, size, d, d)
    pool = torch.zeros(inputs.N_PAGES, size, d, dtype=torch.float64)
    free, tables = list(range(inputs.N_PAGES)), {s: [] for s in range(len(keys))}
    for t in range(max(inputs.SEQ_LENGTHS)):
        for s, n in enumerate(inputs.SEQ_LENGTHS):
            if t < n:
                ours.append(s, keys[s][t], keys[s][t])
                if t % size == 0:
                    tables[s].append(free.pop(0))  # a new page only when the last one is full
                pool[tables[s][t // size], t % size] = torch.from_numpy(keys[s][t])
    for s, n in enumerate(inputs.SEQ_LENGTHS):
        assert tables[s] == ours.block_tables[s]
        gathered = pool[torch.tensor(tables[s])].reshape(-1, d)[:n]
        assert torch.equal(gathered, torch.from_numpy(keys[s]))  # copies: exact
        assert np.array_equal(gathered.numpy(), ours.gather(s)[0])
        q = rng.standard_normal((2, d))
        mask = torch.ones(2, n, dtype=torch.bool).tril(diagonal=n - 2)  # the last two positions' queries
        paged = torch.nn.functional.scaled_dot_product_attention(
            t4(q), gathered[None, None], gathered[None, None], attn_mask=mask
        )
        contiguous = attention(q, keys[s], keys[s], mask.numpy())[0]
        assert np.abs(paged[0, 0].numpy() - contiguous).max() < BOUND
