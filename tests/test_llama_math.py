"""The Llama-style block's math (primer.rms_norm, rotary, grouped_query, swiglu, llama) on small random inputs."""

import numpy as np
import pytest

from primer import llama_decoder
from primer.attention import attention
from primer.config import Config
from primer.grouped_query import grouped_query_attention, repeat_kv
from primer.masks import causal_mask, window_mask
from primer.rms_norm import rms_norm
from primer.rotary import rotary_angles, rotate
from primer.swiglu import silu, swiglu

RNG = np.random.default_rng(0)
TOY = Config(vocab_size=50, d_model=16, n_heads=4, n_kv_heads=2, d_ff=24, n_layers=2, max_len=None, gated_ff=True)
THETA, EPS = 10_000.0, 1e-5


def test_rms_norm_gives_rows_of_unit_root_mean_square_times_g():
    x = RNG.standard_normal((5, 8)) * 3
    out = rms_norm(x, np.ones(8), eps=0.0 + 1e-12)
    assert np.abs(np.sqrt((out**2).mean(axis=-1)) - 1).max() < 1e-9
    g = RNG.standard_normal(8)
    assert np.abs(rms_norm(x, g) - rms_norm(x, np.ones(8)) * g).max() < 1e-12
    assert rms_norm(x.astype(np.float32), g.astype(np.float32)).dtype == np.float32


def test_rotation_keeps_lengths_and_leaves_position_zero_alone():
    x = RNG.standard_normal((3, 6, 8))
    turned = rotate(x, np.arange(6))
    assert np.abs(np.linalg.norm(turned, axis=-1) - np.linalg.norm(x, axis=-1)).max() < 1e-12
    assert np.abs(turned[:, 0] - x[:, 0]).max() == 0.0  # angle 0: cos 1, sin 0 exactly


def test_rotated_scores_depend_on_the_offset_only():
    q, k = RNG.standard_normal(8), RNG.standard_normal(8)

    def score(m, n):
        return rotate(q[None], [m])[0] @ rotate(k[None], [n])[0]

    assert abs(score(5, 2) - score(103, 100)) < 1e-9
    assert abs(score(5, 2) - score(2, 5)) > 1e-3  # the order matters: +3 and -3 are different offsets


def test_rotary_pairs_are_neighbours_and_the_slowest_pair_is_last():
    angles = rotary_angles([1], 8, theta=100.0)[0]
    assert np.allclose(angles, 100.0 ** (-np.arange(0, 8, 2) / 8))
    x = np.zeros((1, 8))
    x[0, 0] = 1.0  # the first pair (0, 1) turns by 1 radian at position 1
    assert np.allclose(rotate(x, [1], 100.0)[0, :2], [np.cos(1), np.sin(1)])


def test_repeat_kv_gives_query_head_i_the_kv_head_i_over_the_group_size():
    kv = np.arange(3)[:, None, None] * np.ones((3, 2, 4))
    assert repeat_kv(kv, 9)[:, 0, 0].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_grouped_query_attention_is_primers_attention_per_head_on_its_groups_kv():
    q, k, v = RNG.standard_normal((4, 5, 8)), RNG.standard_normal((2, 5, 8)), RNG.standard_normal((2, 5, 8))
    mask = causal_mask(5)
    out, weights = grouped_query_attention(q, k, v, mask)
    for head in range(4):
        o, w = attention(q[head], k[head // 2], v[head // 2], mask)
        assert np.abs(out[head] - o).max() < 1e-12 and np.abs(weights[head] - w).max() < 1e-12
    assert (weights[:, ~mask] == 0).all()  # exp(-inf) == 0: closed keys get weight 0 exactly


def test_swiglu_is_the_gated_formula_and_silu_never_overflows():
    x, wg, wu, wd = (RNG.standard_normal(s) for s in ((3, 4), (4, 6), (4, 6), (6, 4)))
    want = ((x @ wg) / (1 + np.exp(-(x @ wg))) * (x @ wu)) @ wd
    assert np.abs(swiglu(x, wg, wu, wd) - want).max() < 1e-12
    with np.errstate(over="raise"):
        assert silu(np.array([-1000.0, 0.0, 1000.0], dtype=np.float32)).tolist() == [0.0, 0.0, 1000.0]


def test_the_toy_model_reads_no_future_token_under_the_causal_mask():
    params = llama_decoder.init_params(0, TOY)
    ids = [3, 1, 4, 1, 5, 9]
    base = llama_decoder.forward(ids, params, TOY, theta=THETA, eps=EPS)[0]
    changed = llama_decoder.forward(ids[:4] + [7, 7], params, TOY, theta=THETA, eps=EPS)[0]
    scale = np.abs(base).max()
    assert np.abs(base[:4] - changed[:4]).max() < 1e-6 * scale  # a closed key's weight is 0: at most rounding moves
    assert np.abs(base[4:] - changed[4:]).max() > 1e-3 * scale


def test_the_cache_gives_the_full_pass_token_by_token():
    params = llama_decoder.init_params(1, TOY)
    ids = [3, 1, 4, 1, 5, 9, 2]
    full = llama_decoder.forward(ids, params, TOY, theta=THETA, eps=EPS)[0]
    logits, past = llama_decoder.forward(ids[:3], params, TOY, theta=THETA, eps=EPS)[::2]
    rows = [logits]
    for token in ids[3:]:
        step, _, past = llama_decoder.forward([token], params, TOY, theta=THETA, eps=EPS, past=past)
        rows.append(step)
    assert np.abs(np.concatenate(rows) - full).max() < 1e-4 * np.abs(full).max()  # float32 matmuls of other shapes


def test_a_window_mask_changes_only_rows_past_the_window_and_attention_comes_back_per_layer_and_head():
    params = llama_decoder.init_params(2, TOY)
    ids = list(range(8))
    causal, attn, _ = llama_decoder.forward(ids, params, TOY, theta=THETA, eps=EPS, keep_attn=True)
    windowed = llama_decoder.forward(ids, params, TOY, window_mask(8, 3), theta=THETA, eps=EPS)[0]
    assert attn.shape == (TOY.n_layers, TOY.n_heads, 8, 8)
    assert np.abs(attn.sum(axis=-1) - 1).max() < 1e-12
    scale = np.abs(causal).max()
    assert np.abs(causal[:3] - windowed[:3]).max() < 1e-6 * scale  # the first 3 rows read the same keys either way
    assert np.abs(causal[3:] - windowed[3:]).max() > 1e-3 * scale


def test_shifting_every_position_by_the_same_amount_changes_nothing_but_rounding():
    params = llama_decoder.init_params(3, TOY)
    ids = [5, 6, 7, 8]
    base = llama_decoder.forward(ids, params, TOY, theta=THETA, eps=EPS)[0]
    shifted = llama_decoder.forward(ids, params, TOY, positions=np.arange(4) + 40, theta=THETA, eps=EPS)[0]
    assert np.abs(base - shifted).max() < 1e-4 * np.abs(base).max()


@pytest.mark.parametrize("bad", ["w_q", "final_norm"])
def test_validate_params_names_a_bad_weight(bad):
    params = llama_decoder.init_params(0, TOY)
    if bad == "w_q":
        params["layers"][1]["w_q"] = params["layers"][1]["w_q"][:, :-1]
    else:
        params["final_norm"] = np.full(TOY.d_model, np.nan, dtype=np.float32)
    with pytest.raises(ValueError, match=rf"params \S*{bad}"):
        llama_decoder.validate_params(params, TOY)
