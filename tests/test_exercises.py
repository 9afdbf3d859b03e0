"""primer.notebook: primer's answers pass, stubs get "not yet", a wrong answer is named by its first difference."""

import numpy as np
import pytest

from primer import published
from primer.masks import window_mask
from primer.notebook import registry as ex
from primer.notebook.display import use_language
from primer.softmax import masked_softmax


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("PRIMER_LANG", "en")


def raise_not_implemented(**kwargs):
    raise NotImplementedError


@pytest.mark.parametrize("name", sorted(ex.EXERCISES))
def test_primers_own_answer_passes(name):
    assert ex.verdict(name, ex.EXERCISES[name].reference)[0] == "passed"


@pytest.mark.parametrize("name", sorted(ex.EXERCISES))
@pytest.mark.parametrize("stub", [raise_not_implemented, lambda **kwargs: None])
def test_a_stub_is_not_yet(name, stub):
    status, message = ex.verdict(name, stub)
    assert status == "not_yet" and "not yet" in message


def test_the_zero_fill_bug_is_named_as_a_closed_weight_that_is_not_zero():
    status, message = ex.verdict("masked_softmax", lambda scores, mask: masked_softmax(scores, mask, fill=0.0))
    assert status == "failed"
    assert "closed key 1 got weight" in message and "must be exactly 0" in message


def test_an_off_by_one_window_names_the_cell():
    status, message = ex.verdict("window_mask", lambda n, window: window_mask(n, window + 1))
    assert status == "failed"
    assert "window_mask(n=4, window=1)" in message and "query 1 may read key 0" in message


def test_a_full_mask_for_causal_names_the_first_future_key():
    _, message = ex.verdict("causal_mask", lambda n: np.ones((n, n), bool))
    assert "causal_mask(n=2)" in message and "query 0 may read key 1" in message


def test_a_mask_of_ints_is_refused_by_dtype():
    _, message = ex.verdict("causal_mask", lambda n: np.tril(np.ones((n, n), int)))
    assert "must be a bool array" in message


def test_a_wrong_shape_is_named():
    _, message = ex.verdict("cross_mask", lambda n, m: np.ones((m, n), bool))
    assert "wrong shape: got (5, 3), expected (3, 5)" in message


def test_an_overflowing_softmax_is_caught_on_large_scores():
    _, message = ex.verdict("softmax", lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True))
    assert "x=[1000., 1001., 1002.]" in message and "NaN or inf" in message


def test_a_row_that_does_not_sum_to_one_is_named():
    _, message = ex.verdict(
        "temperature_softmax", lambda logits, temperature: np.exp(logits / temperature - np.max(logits / temperature))
    )
    assert "sums to" in message and "not 1" in message


def test_an_exception_in_the_readers_code_is_reported_not_raised():
    status, message = ex.verdict("decode_step", lambda **kwargs: 1 / 0)
    assert status == "failed" and "ZeroDivisionError" in message


def test_a_window_that_is_ignored_fails_on_mistral():
    def no_window(cfg, n_tokens):
        return 2 * cfg.n_layers * cfg.n_kv_heads * cfg.d_head * n_tokens * 2

    _, message = ex.verdict("model_kv_bytes", no_window)
    shown = "published.model('Mistral-7B').config"
    assert shown in message
    # the reader can paste what the message shows, with the notebook's `from primer import published`
    assert eval(shown, {"published": published}) == published.model("Mistral-7B").config


def test_messages_follow_the_notebook_language(monkeypatch):
    monkeypatch.setenv("PRIMER_LANG", "zh")
    assert "还没写好" in ex.verdict("causal_mask", raise_not_implemented)[1]
    assert "通过" in ex.verdict("causal_mask", ex.EXERCISES["causal_mask"].reference)[1]
    assert "应该被遮住" in ex.verdict("causal_mask", lambda n: np.ones((n, n), bool))[1]


def test_an_unknown_exercise_or_language_is_refused():
    with pytest.raises(ValueError, match="name must be one of"):
        ex.verdict("causal", ex.EXERCISES["causal_mask"].reference)
    with pytest.raises(ValueError, match="lang must be one of"):
        use_language("fr")


def test_a_masked_lm_loss_that_counts_every_position_is_named_by_its_value():
    def unweighted(logits, targets, loss_weights):
        z = logits - logits.max(axis=-1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
        return float(-np.take_along_axis(log_p, targets[..., None], axis=-1).mean())

    status, message = ex.verdict("masked_lm_loss", unweighted)
    assert status == "failed" and "got " in message and "expected " in message


def test_a_masked_lm_loss_without_the_max_shift_overflows_on_large_logits():
    def naive(logits, targets, loss_weights):
        p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
        return float(
            -(loss_weights * np.log(np.take_along_axis(p, targets[..., None], axis=-1)[..., 0])).sum()
            / loss_weights.sum()
        )

    with np.errstate(all="ignore"):
        _, message = ex.verdict("masked_lm_loss", naive)
    assert "NaN or inf" in message


def test_a_masked_lm_loss_must_be_one_number():
    _, message = ex.verdict("masked_lm_loss", lambda logits, targets, loss_weights: np.zeros(targets.shape))
    assert "expected float" in message
