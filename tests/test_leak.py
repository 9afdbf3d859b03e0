import numpy as np
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
