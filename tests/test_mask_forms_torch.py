"""The new masks and their library forms run through torch (2.13.0 CPU measured here): SDPA, nn.MultiheadAttention,
flex_attention (eager: without torch.compile it runs unfused on the CPU, and warns so), and a ring-buffer and a paged
cache written in torch, each against primer's numpy in float64 (bounds are a few ulps of O(1) values)."""

import numpy as np
import pytest

from primer import attention
from primer.chunked_prefill import aligned_causal_mask, alignment_error, chunked_prefill
from primer.conventions import (
    block_kinds,
    causal_mod,
    chunked_mod,
    document_mod,
    prefix_lm_mod,
    table_mod,
    to_additive,
    to_key_padding_mask,
    to_mha_attn_mask,
    to_sdpa_bool,
    window_mod,
)
from primer.masks import (
    causal_mask,
    chunked_mask,
    document_mask,
    key_padding_mask,
    prefix_lm_mask,
    tree_mask,
    window_mask,
)
from primer.sinks import sink_attention

torch = pytest.importorskip("torch")
F = torch.nn.functional
flex = pytest.importorskip("torch.nn.attention.flex_attention")
BOUND = 1e-12
N = 12
PARENTS = [-1, 0, 0, 1, 1, 2, -1, 6, 7, 7, 3, 8]  # two roots: a forest, as the draft trees of several prefixes
FLEX_EAGER = pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile")


def qkv(seed, n=N, n_k=None, d=4, d_v=3):
    rng = np.random.default_rng(seed)
    n_k = n if n_k is None else n_k
    return rng.normal(size=(n, d)), rng.normal(size=(n_k, d)), rng.normal(size=(n_k, d_v))


def t4(a):  # [n, d] -> [1, 1, n, d]
    return torch.from_numpy(a)[None, None]


def masks():  # name -> (primer's mask, the FlexAttention mask_mod; tables passed as torch tensors)
    ids = np.array([0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3])
    return {
        "causal": (causal_mask(N), causal_mod),
        "chunked": (chunked_mask(N, 4), chunked_mod(4)),
        "window+sinks": (window_mask(N, 3, sinks=2), window_mod(3, sinks=2)),
        "document": (document_mask(ids), document_mod(torch.from_numpy(ids))),
        "prefix": (prefix_lm_mask(N, 5), prefix_lm_mod(5)),
        "tree": (tree_mask(PARENTS), table_mod(torch.from_numpy(tree_mask(PARENTS)))),
    }


# ---- SDPA and nn.MultiheadAttention read the translated masks as primer means them


@pytest.mark.parametrize("name", list(masks()))
def test_sdpa_bool_and_additive_forms_give_primers_output(name):
    mask = masks()[name][0]
    q, k, v = qkv(1)
    ours = attention(q, k, v, mask)[0]
    for form in (to_sdpa_bool(mask), to_additive(mask)):
        out = F.scaled_dot_product_attention(t4(q), t4(k), t4(v), attn_mask=torch.from_numpy(form))[0, 0]
        assert np.abs(out.numpy() - ours).max() < BOUND
    wrong = F.scaled_dot_product_attention(
        t4(q), t4(k), t4(v), attn_mask=torch.from_numpy(~mask | np.eye(N, dtype=bool))
    )
    assert np.abs(wrong[0, 0].numpy() - ours).max() > 1e-3  # the flipped convention reads other keys


def identity_mha(d):
    """One head whose projections are the identity: its output is attention(x, x, x) itself."""
    layer = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.eye(d).repeat(3, 1))
        layer.out_proj.weight.copy_(torch.eye(d))
    return layer


@pytest.mark.parametrize("name", list(masks()))
def test_mha_attn_mask_and_key_padding_mask_give_primers_output(name):
    mask = masks()[name][0]
    d = 4
    x = np.random.default_rng(2).normal(size=(2, N, d))  # two sentences
    real = key_padding_mask([N, N - 3], N)  # the second ends in 3 pads
    layer = identity_mha(d)
    with torch.no_grad():
        out, _ = layer(
            *(torch.from_numpy(x),) * 3,
            attn_mask=torch.from_numpy(to_mha_attn_mask(mask)),
            key_padding_mask=torch.from_numpy(to_key_padding_mask(real)),
            need_weights=False,
        )
    for b in range(2):
        rows = real[b] & (mask & real[b][None, :]).any(axis=1)  # real queries with a real key to read
        ours = attention(x[b][rows], x[b], x[b], (mask & real[b][None, :])[rows])[0]
        assert np.abs(out[b].numpy()[rows] - ours).max() < BOUND


# ---- FlexAttention: each mask_mod gives primer's mask, and flex_attention primer's output


@pytest.mark.parametrize("name", list(masks()))
def test_flex_mask_mod_is_primers_mask(name):
    mask, mod = masks()[name]
    dense = flex.create_mask(mod, 1, 1, N, N, device="cpu")[0, 0]
    assert np.array_equal(dense.numpy(), mask)


@FLEX_EAGER
@pytest.mark.parametrize("name", list(masks()))
def test_flex_attention_under_each_mask_mod_gives_primers_output(name):
    mask, mod = masks()[name]
    q, k, v = qkv(3)
    block_mask = flex.create_block_mask(mod, None, None, N, N, device="cpu")
    out = flex.flex_attention(t4(q), t4(k), t4(v), block_mask=block_mask)[0, 0]
    assert np.abs(out.numpy() - attention(q, k, v, mask)[0]).max() < BOUND


@pytest.mark.parametrize("mod, mask", [(causal_mod, causal_mask(300)), (chunked_mod(100), chunked_mask(300, 100))])
def test_block_mask_sorts_the_tiles_as_block_kinds_does(mod, mask):
    block_mask = flex.create_block_mask(mod, None, None, 300, 300, device="cpu", BLOCK_SIZE=128)
    kinds = block_kinds(mask, 128)
    assert block_mask.kv_num_blocks[0, 0].tolist() == (kinds == 1).sum(axis=1).tolist()  # partial tiles
    assert block_mask.full_kv_num_blocks[0, 0].tolist() == (kinds == 2).sum(axis=1).tolist()  # full tiles


# ---- queries != keys: SDPA's is_causal aligns top-left; chunked prefill needs bottom-right


def test_sdpa_is_causal_is_the_top_left_mask():
    q, k, v = qkv(4, n=3, n_k=7)
    out = F.scaled_dot_product_attention(t4(q), t4(k), t4(v), is_causal=True)[0, 0]
    assert np.abs(out.numpy() - attention(q, k, v, aligned_causal_mask(3, 7, "top_left"))[0]).max() < BOUND


def torch_chunked_prefill(q, k, v, chunk, *, is_causal):
    """Chunked prefill in torch: a bottom-right bool mask (primer's), or SDPA's is_causal switch."""
    outs = []
    for start in range(0, len(q), chunk):
        end = min(start + chunk, len(q))
        kw = {"is_causal": True} if is_causal else {"attn_mask": torch.from_numpy(causal_mask(end - start, end))}
        outs.append(F.scaled_dot_product_attention(t4(q[start:end]), t4(k[:end]), t4(v[:end]), **kw)[0, 0])
    return torch.cat(outs).numpy()


@pytest.mark.parametrize("chunk", [1, 3, 5, N])
def test_chunked_prefill_in_torch(chunk):
    q, k, v = qkv(5)
    one_shot = attention(q, k, v, causal_mask(N))[0]
    assert np.abs(torch_chunked_prefill(q, k, v, chunk, is_causal=False) - one_shot).max() < BOUND
    assert np.abs(chunked_prefill(q, k, v, chunk) - one_shot).max() < BOUND
    error = np.abs(torch_chunked_prefill(q, k, v, chunk, is_causal=True) - one_shot).max()
    assert abs(error - alignment_error(q, k, v, chunk)) < BOUND  # is_causal makes primer's top-left error
    assert (error > 1e-3) == (chunk < N)


# ---- a ring-buffer and a paged cache in torch, against the full pass


def torch_ring_decode(q, k, v, window):
    """Decode through w slots, position t in slot t mod w, each step attending to the slots held."""
    k_buf, v_buf = (
        torch.zeros(window, k.shape[1], dtype=torch.float64),
        torch.zeros(window, v.shape[1], dtype=torch.float64),
    )
    outs = []
    for t in range(len(q)):
        k_buf[t % window], v_buf[t % window] = torch.from_numpy(k[t]), torch.from_numpy(v[t])
        held = min(t + 1, window)  # slots 0 .. held - 1 are filled; the order does not matter
        outs.append(
            F.scaled_dot_product_attention(t4(q[t : t + 1]), k_buf[None, None, :held], v_buf[None, None, :held])
        )
    return torch.cat([o[0, 0] for o in outs]).numpy()


@pytest.mark.parametrize("window", [1, 3, 5, 40])
def test_torch_ring_buffer_equals_the_full_pass_under_the_window_mask(window):
    q, k, v = qkv(6, n=20)
    full = F.scaled_dot_product_attention(t4(q), t4(k), t4(v), attn_mask=torch.from_numpy(window_mask(20, window)))
    assert np.abs(torch_ring_decode(q, k, v, window) - full[0, 0].numpy()).max() < BOUND


def test_torch_paged_cache_equals_the_contiguous_cache():
    page, n = 4, 11
    q, k, v = qkv(7, n=n)
    k_pool, v_pool = torch.zeros(6, page, 4, dtype=torch.float64), torch.zeros(6, page, 3, dtype=torch.float64)
    block_table = torch.tensor([4, 1, 5])  # pages handed out in any order
    for t in range(n):
        k_pool[block_table[t // page], t % page] = torch.from_numpy(k[t])
        v_pool[block_table[t // page], t % page] = torch.from_numpy(v[t])
    k_paged, v_paged = k_pool[block_table].reshape(-1, 4)[:n], v_pool[block_table].reshape(-1, 3)[:n]
    assert torch.equal(k_paged, torch.from_numpy(k)) and torch.equal(v_paged, torch.from_numpy(v))  # copies: exact
    mask = torch.from_numpy(causal_mask(n))
    paged = F.scaled_dot_product_attention(t4(q), k_paged[None, None], v_paged[None, None], attn_mask=mask)
    contiguous = F.scaled_dot_product_attention(t4(q), t4(k), t4(v), attn_mask=mask)
    assert (paged - contiguous).abs().max().item() < BOUND


# ---- gpt-oss's sink logit, written as its reference code does (concatenate a column, softmax, drop it)


def test_sink_logit_as_gpt_oss_writes_it():
    rng = np.random.default_rng(8)
    q, k, v = rng.normal(size=(2, 6, 4)), rng.normal(size=(2, 6, 4)), rng.normal(size=(2, 6, 3))
    sinks = np.array([0.5, -1.0])  # one per head
    mask = window_mask(6, 3)
    scores = torch.from_numpy(q @ k.transpose(0, 2, 1) / 2.0).masked_fill(~torch.from_numpy(mask), -float("inf"))
    s = torch.from_numpy(sinks).reshape(2, 1, 1).expand(-1, 6, -1)
    w = torch.softmax(torch.cat([scores, s], dim=-1), dim=-1)[..., :-1]
    out, weights = sink_attention(q, k, v, sinks, mask)
    assert np.abs(w.numpy() - weights).max() < BOUND
    assert np.abs((w @ torch.from_numpy(v)).numpy() - out).max() < BOUND


def test_weights_from_labels_is_torch_cross_entropys_ignore_index():
    from primer.backprop import cross_entropy
    from primer.conventions import weights_from_labels

    rng = np.random.default_rng(9)
    logits, labels = rng.normal(size=(6, 5)), np.array([-100, 2, -100, 4, 0, 1])
    ours = cross_entropy(logits, *weights_from_labels(labels))
    theirs = F.cross_entropy(torch.from_numpy(logits), torch.from_numpy(labels)).item()  # ignore_index=-100 by default
    assert abs(ours - theirs) < BOUND


def test_varlen_in_torch_document_by_document_equals_sdpa_under_the_document_mask():
    from primer.conventions import to_flash_varlen

    ids = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 3, 3])
    cu, _ = to_flash_varlen(ids)
    q, k, v = qkv(10)
    one_pass = F.scaled_dot_product_attention(t4(q), t4(k), t4(v), attn_mask=torch.from_numpy(document_mask(ids)))
    pieces = [
        F.scaled_dot_product_attention(t4(q[a:b]), t4(k[a:b]), t4(v[a:b]), is_causal=True)[0, 0]  # n_q == n_k here
        for a, b in zip(cu[:-1].tolist(), cu[1:].tolist())
    ]
    assert (torch.cat(pieces) - one_pass[0, 0]).abs().max().item() < BOUND
