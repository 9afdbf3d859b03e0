"""Parameter counts from published shapes: exact per-part sums, pinned totals, and every refusal."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer.architectures import BERT_BASE, GPT_1, PUBLISHED, T5_BASE
from primer.params import PARTS, Shape, attention_sublayers, count_params, norm_count, relative_difference, total_params

# The counts are pinned exactly, and each must lie within TOLERANCE of the rounded published total.
TOLERANCE = 0.02
PINNED = {"BERT-base": 109_482_240, "GPT-1": 116_534_784, "T5-base": 222_903_552}


@pytest.mark.parametrize("shape", [BERT_BASE, GPT_1, T5_BASE], ids=lambda s: s.name)
def test_counts_are_pinned_and_close_to_the_published_totals(shape):
    total = total_params(shape)
    assert total == PINNED[shape.name]
    published, _ = PUBLISHED[shape.name]
    assert abs(relative_difference(total, published)) < TOLERANCE


def test_bert_base_by_hand():
    d, ff, layers = 768, 3072, 12
    embeddings = (30522 + 512 + 2) * d + 2 * d                 # token, position, segment; embedding LayerNorm
    block = 4 * (d * d + d) + 2 * d + (d * ff + ff) + (ff * d + d) + 2 * d
    pooler = d * d + d
    assert total_params(BERT_BASE) == embeddings + layers * block + pooler


def test_gpt_1_by_hand():
    d, ff = 768, 3072
    block = (d * 3 * d + 3 * d) + (d * d + d) + 2 * d + (d * ff + ff) + (ff * d + d) + 2 * d
    assert total_params(GPT_1) == (40478 + 512) * d + 12 * block   # output layer tied: no extra matrix


def test_t5_base_by_hand():
    d, ff, h = 768, 3072, 12
    enc_block = 4 * d * d + d + 2 * d * ff + d                      # no biases; scale-only norms
    dec_block = 2 * 4 * d * d + 2 * d + 2 * d * ff + d
    extras = 2 * 32 * h + 2 * d                                     # relative bias and final norm per stack
    assert total_params(T5_BASE) == 32128 * d + 12 * enc_block + 12 * dec_block + extras


def test_differences_come_from_the_parts_the_models_do_not_share():
    bert, gpt, t5 = count_params(BERT_BASE), count_params(GPT_1), count_params(T5_BASE)
    for part in ("attention", "feed_forward", "biases"):
        assert bert[part] == gpt[part]                  # the same 12 blocks of width 768
    assert gpt["token_embeddings"] > bert["token_embeddings"]
    assert bert["pooler"] > 0 and gpt["pooler"] == 0
    assert t5["attention"] == 3 * bert["attention"]     # encoder self + decoder self + cross
    assert t5["feed_forward"] == 2 * bert["feed_forward"]
    assert t5["biases"] == 0 and t5["output_head"] == 0


def test_untying_the_output_adds_one_embedding_matrix():
    untied = dataclasses.replace(GPT_1, tied_output=False)
    assert total_params(untied) - total_params(GPT_1) == GPT_1.vocab_size * GPT_1.d_model


def test_kind_and_sublayers():
    assert (BERT_BASE.kind, GPT_1.kind, T5_BASE.kind) == ("encoder", "decoder", "encoder-decoder")
    assert attention_sublayers(T5_BASE) == 36 and norm_count(T5_BASE) == 62


shapes = st.builds(
    Shape, name=st.just("m"), encoder_layers=st.integers(0, 6), decoder_layers=st.integers(1, 6),
    d_model=st.sampled_from([8, 16, 64]), n_heads=st.sampled_from([1, 2, 4, 8]), d_ff=st.integers(1, 256),
    vocab_size=st.integers(1, 1000), max_positions=st.integers(1, 64), segment_types=st.integers(0, 3),
    dense_bias=st.booleans(), norm_bias=st.booleans(), pooler=st.booleans(), tied_output=st.booleans())


@given(shapes)
def test_parts_are_nonnegative_ordered_and_sum_to_the_total(shape):
    parts = count_params(shape)
    assert tuple(parts) == PARTS
    assert all(isinstance(v, int) and v >= 0 for v in parts.values())
    assert sum(parts.values()) == total_params(shape)


@given(shapes, st.integers(1, 4))
def test_each_extra_layer_adds_the_same_amount(shape, extra):
    one_more = dataclasses.replace(shape, decoder_layers=shape.decoder_layers + 1)
    more = dataclasses.replace(shape, decoder_layers=shape.decoder_layers + 1 + extra)
    step = total_params(one_more) - total_params(shape)
    assert total_params(more) - total_params(one_more) == extra * step


def test_relative_difference():
    assert relative_difference(110, 100) == pytest.approx(0.1)
    assert relative_difference(0, 5) == -1.0


def base(**changes):
    fields = dict(name="m", encoder_layers=1, decoder_layers=0, d_model=8, n_heads=2, d_ff=16, vocab_size=10,
                  max_positions=4)
    fields.update(changes)
    return fields


@pytest.mark.parametrize("call, words", [
    (lambda: Shape(**base(name="")), "name"),
    (lambda: Shape(**base(encoder_layers=-1)), "encoder_layers"),
    (lambda: Shape(**base(decoder_layers=1.5)), "decoder_layers"),
    (lambda: Shape(**base(encoder_layers=0)), "encoder_layers \\+ decoder_layers"),
    (lambda: Shape(**base(d_model=0)), "d_model"),
    (lambda: Shape(**base(n_heads=3)), "divisible"),
    (lambda: Shape(**base(d_ff=True)), "d_ff"),
    (lambda: Shape(**base(vocab_size=0)), "vocab_size"),
    (lambda: Shape(**base(max_positions=0)), "max_positions or relative_buckets"),
    (lambda: Shape(**base(segment_types=-2)), "segment_types"),
    (lambda: Shape(**base(pooler=1)), "pooler"),
    (lambda: Shape(**base(tied_output="yes")), "tied_output"),
    (lambda: count_params({"d_model": 768}), "shape"),
    (lambda: total_params(None), "shape"),
    (lambda: relative_difference(5, 0), "published"),
    (lambda: relative_difference(-1, 5), "computed"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, words):
    with pytest.raises(ValueError, match=words):
        call()
