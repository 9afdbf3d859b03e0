import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import leak, mlm
from primer.config import Config
from primer.inputs.decoder import CHANGED_POSITION, CHANGED_WORD
from primer.inputs.encoder import SEED
from primer.rounding import is_rounding
from primer.transformer import init_stack
from primer.vocab import CAT_VOCAB

CFG = Config(vocab_size=len(CAT_VOCAB))


def test_page_experiment_both_outcomes():
    words, changed, r = leak.word_leak_test(mlm.SENTENCE, CHANGED_POSITION, CHANGED_WORD, CAT_VOCAB, CFG, SEED)
    assert words == ["the", "cat", "sat", "on", "the", "mat"] and changed[-1] == "rug"
    assert is_rounding(r.earlier_masked)  # unmoved with the mask
    assert is_rounding(r.delta_masked[:5])
    assert r.earlier_unmasked > 0.5  # moves without it
    assert np.all(r.delta_unmasked[:5] > 0)
    assert r.delta_masked[5] > 0  # the changed position itself moves either way
    assert round(r.earlier_unmasked, 4) == 2.7798
    assert round(float(r.delta_masked[5]), 4) == 6.6464


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, len(CAT_VOCAB) - 1), min_size=2, max_size=10), st.data(), st.integers(0, 50))
def test_leak_property_any_sentence_any_seed(toks, data, seed):
    toks = np.array(toks)
    pos = data.draw(st.integers(1, len(toks) - 1))
    new = (toks[pos] + data.draw(st.integers(1, len(CAT_VOCAB) - 1))) % len(CAT_VOCAB)
    r = leak.leak_test(toks, pos, new, init_stack(seed, CFG), CFG)
    assert is_rounding(r.earlier_masked)
    assert np.all(r.delta_unmasked[:pos] > 0)


def test_changing_the_first_token_has_no_earlier_position():
    r = leak.leak_test(np.array([1, 2, 3]), 0, 4, init_stack(0, CFG), CFG)
    assert r.earlier_masked == r.earlier_unmasked == 0.0
    assert np.all(r.delta_masked > 0)  # everything after position 0 reads it


def test_leak_probes_read_a_mask_as_the_decoder_the_layers_and_one_head_do():
    from primer.attention import attention
    from primer.layer_patterns import reachable
    from primer.masks import causal_mask, full_mask
    from primer.transformer import logits, run_machine

    params, tokens, causal = init_stack(3, CFG), np.array([1, 2, 3, 4, 0]), causal_mask(5)
    probe = leak.LeakProbes(params, CFG, d=4, seed=7)
    for machine, mask in (("decoder", causal), ("encoder", full_mask(5))):
        want = logits(run_machine(machine, tokens, params, CFG), params)
        assert np.allclose(probe.read(mask)(tokens), want, rtol=0, atol=1e-12)
    assert np.array_equal(probe.reach(causal), reachable([causal] * CFG.n_layers))
    x = np.random.default_rng(0).standard_normal((5, 4))
    again = leak.LeakProbes(params, CFG, d=4, seed=7)  # the same seed draws the same head
    want = attention(x @ again.w_q, x @ again.w_k, x @ again.w_v, causal)[0]
    assert np.allclose(probe.head(causal)(x), want, rtol=0, atol=1e-12)
    assert not np.array_equal(probe.w_q, leak.LeakProbes(params, CFG, d=4, seed=8).w_q)


def test_leak_probes_refuse_a_head_without_width():
    for d in (0, -1, 2.5):
        with pytest.raises(ValueError, match=r"^d must be an integer >= 1"):
            leak.LeakProbes(init_stack(0, CFG), CFG, d=d, seed=0)


def test_a_leak_probes_row_is_the_decoders_reads_the_layers_reach_and_the_heads_problems():
    from primer.mask_checks import check_mask
    from primer.masks import causal_mask, full_mask

    params, tokens = init_stack(3, CFG), np.array([1, 2, 3, 4, 0])
    probe = leak.LeakProbes(params, CFG, d=4, seed=7)
    case, reads, reach, problems = probe.row("full_as_causal", tokens, full_mask(5), causal_mask(5))
    assert case == "full_as_causal" and np.array_equal(
        reads, leak.token_reads(probe.read(causal_mask(5)), tokens, CFG.vocab_size)
    )
    assert reach.all() and problems == check_mask(probe.head(causal_mask(5)), full_mask(5), d=4) and problems
