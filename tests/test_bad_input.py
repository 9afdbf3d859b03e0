"""One table of bad input over primer's public functions: each case raises ValueError or TypeError naming the argument.

The kinds of bad input: a non-positive or non-integer size, a window below 1, mismatched shapes,
NaN or infinite scores, a fully masked row, a temperature T <= 0, an unknown name. A row is
(call, the argument its message must name); the message must contain that name as a word.
"""

import re

import numpy as np
import plotly.graph_objects as go
import pytest

from primer import architectures, counts, decoding, encdec, gradcheck, heads, kvcache, leak, machines, mlm, models, targets
from primer import pipeline, position, probe, rnn, rounding, scores, seq2seq, transformer, vocab
from primer._checks import bool_mask, float_array, int_at_least
from primer.attention import attention
from primer.config import Config
from primer.figures import _style as figure_style
from primer.figures import glossary
from primer.masks import additive_mask, causal_mask, full_mask, window_mask
from primer.softmax import masked_softmax, softmax

CFG = Config()
PARAMS = transformer.init_stack(0, CFG)
NAN = np.array([[0.0, np.nan], [1.0, 2.0]])
INF = np.array([[0.0, np.inf], [1.0, 2.0]])
ONES = np.ones((2, 4))
NO_KEY = np.array([[False, False], [True, True]])        # row 0 reads nothing
RNN = dict(x=np.ones((3, 2)), w=np.eye(4), u=np.ones((4, 2)), b=np.zeros(4))
EXPERIMENT = dict(d=4, d_in=2, input_scale=0.01, seed=0)
S2S = (np.ones((2, 3)), np.ones((4, 5)), np.ones((3, 6)), np.ones((5, 6)), np.ones(6))   # s, h, w_s, w_h, v


def case(call, arg, id_):
    return pytest.param(call, arg, id=id_)


TABLE = [
    # ---- _checks: the shared rules
    case(lambda: int_at_least("n", 0, 1), "n", "int_at_least-below"),
    case(lambda: int_at_least("n", 2.5, 1), "n", "int_at_least-float"),
    case(lambda: int_at_least("n", True, 1), "n", "int_at_least-bool"),
    case(lambda: float_array("x", [[1.0, np.nan]]), "x", "float_array-nan"),
    case(lambda: float_array("x", "abc"), "x", "float_array-text"),
    case(lambda: bool_mask("mask", np.ones((2, 2)), (2, 2)), "mask", "bool_mask-dtype"),
    case(lambda: bool_mask("mask", np.ones((3, 3), bool), (2, 2)), "mask", "bool_mask-shape"),

    # ---- masks, softmax, attention (chapters 3 and 5)
    case(lambda: full_mask(0), "n_q", "full_mask-size"),
    case(lambda: full_mask(2, -1), "n_k", "full_mask-n_k"),
    case(lambda: causal_mask(1.5), "n_q", "causal_mask-float"),
    case(lambda: causal_mask(3, 2), "n_k", "causal_mask-short"),
    case(lambda: window_mask(4, 0), "window", "window_mask-below-1"),
    case(lambda: window_mask(0, 2), "n", "window_mask-size"),
    case(lambda: additive_mask(np.ones((2, 2))), "mask", "additive_mask-dtype"),
    case(lambda: additive_mask(full_mask(2), fill=1.0), "fill", "additive_mask-fill"),
    case(lambda: softmax(NAN), "x", "softmax-nan"),
    case(lambda: softmax(INF), "x", "softmax-inf"),
    case(lambda: masked_softmax(NAN, full_mask(2)), "scores", "masked_softmax-nan"),
    case(lambda: masked_softmax(INF, full_mask(2)), "scores", "masked_softmax-inf"),
    case(lambda: masked_softmax(ONES[:, :2], NO_KEY), "mask", "masked_softmax-fully-masked-row"),
    case(lambda: masked_softmax(ONES, full_mask(2)), "mask", "masked_softmax-shape"),
    case(lambda: attention(ONES, np.ones((3, 5)), np.ones((3, 4))), "k", "attention-d_k"),
    case(lambda: attention(ONES, np.ones((3, 4)), np.ones((2, 4))), "v", "attention-n_k"),
    case(lambda: attention(ONES[:, :2], ONES[:, :2], ONES[:, :2], NO_KEY), "mask", "attention-fully-masked-row"),
    case(lambda: attention(INF, INF, INF), "q", "attention-inf"),

    # ---- rnn (chapter 1)
    case(lambda: rnn.char_position("", "a"), "text", "char_position-empty"),
    case(lambda: rnn.char_position("abc", "ab"), "char", "char_position-two-chars"),
    case(lambda: rnn.dependency_distance("abc", "c", "a"), "tail", "dependency_distance-order"),
    case(lambda: rnn.rnn_forward(**{**RNN, "u": np.ones((4, 3))}), "u", "rnn_forward-shape"),
    case(lambda: rnn.rnn_forward(**{**RNN, "x": np.full((3, 2), np.nan)}), "x", "rnn_forward-nan"),
    case(lambda: rnn.rnn_forward(**RNN, activation="relu"), "activation", "rnn_forward-activation"),
    case(lambda: rnn.char_position("abcb", "b"), "char", "char_position-twice"),
    case(lambda: rnn.rnn_forward(**{**RNN, "x": np.ones(3)}), "x", "rnn_forward-flat"),
    case(lambda: rnn.rnn_forward(**{**RNN, "w": np.ones((3, 4))}), "w", "rnn_forward-not-square"),
    case(lambda: rnn.rnn_forward(**{**RNN, "b": np.zeros(2)}), "b", "rnn_forward-b-shape"),
    case(lambda: rnn.rnn_forward(**RNN, h0=np.ones(3)), "h0", "rnn_forward-h0-shape"),
    case(lambda: rnn.rnn_backward(**RNN, h=np.ones((3, 4)), dh_out=np.ones((3, 2))), "dh_out", "rnn_backward-dh_out-shape"),
    case(lambda: rnn.recurrent_matrix(4, 0.0, seed=0), "radius", "recurrent_matrix-radius-0"),
    case(lambda: rnn.rnn_backward(**RNN, h=np.ones((2, 4)), dh_out=np.ones((3, 4))), "h", "rnn_backward-shape"),
    case(lambda: rnn.spectral_radius(np.ones((2, 3))), "w", "spectral_radius-square"),
    case(lambda: rnn.recurrent_matrix(0, 1.0, seed=0), "d", "recurrent_matrix-size"),
    case(lambda: rnn.recurrent_matrix(4, np.inf, seed=0), "radius", "recurrent_matrix-inf"),
    case(lambda: rnn.gradient_norms(0, 1.0, **EXPERIMENT), "steps", "gradient_norms-T-0"),
    case(lambda: rnn.gradient_norms(5, 1.0, **{**EXPERIMENT, "input_scale": -1}), "input_scale", "gradient_norms-scale"),

    # ---- seq2seq (chapter 2), scores and gradcheck (chapter 3)
    case(lambda: seq2seq.bahdanau_attention(S2S[0][0], *S2S[1:]), "s", "bahdanau_attention-flat"),
    case(lambda: seq2seq.bahdanau_attention(*S2S[:2], np.ones((4, 6)), *S2S[3:]), "w_q", "bahdanau_attention-shape"),
    case(lambda: seq2seq.bahdanau_attention(S2S[0], S2S[1] * np.inf, *S2S[2:]), "h", "bahdanau_attention-inf"),
    case(lambda: seq2seq.concept_states(np.ones(3)), "tags", "concept_states-flat"),
    case(lambda: seq2seq.concept_states(np.eye(2), carry=np.nan), "carry", "concept_states-nan"),
    case(lambda: seq2seq.concept_scorer(0), "n_concepts", "concept_scorer-size"),
    case(lambda: seq2seq.concept_scorer(2, gain=0), "gain", "concept_scorer-gain"),
    case(lambda: seq2seq.concept_scorer(2, sharpness=-1), "sharpness", "concept_scorer-sharpness"),
    case(lambda: seq2seq.bahdanau_attention(S2S[0], S2S[1][None], *S2S[2:]), "h", "bahdanau_attention-h-shape"),
    case(lambda: seq2seq.bahdanau_attention(*S2S[:3], np.ones((3, 6)), S2S[4]), "w_k", "bahdanau_attention-w_k-shape"),
    case(lambda: seq2seq.alignment((), (("a", "x"),)), "source", "alignment-empty"),
    case(lambda: scores.additive_score(ONES, ONES, np.ones((3, 5)), np.ones((4, 5)), np.ones(5)), "w_q", "additive_score-shape"),
    case(lambda: scores.additive_score(ONES, ONES, np.ones((4, 5)), np.ones((4, 5)), np.ones(4)), "v", "additive_score-width"),
    case(lambda: scores.dot_score(ONES, np.ones((2, 3))), "q", "dot_score-shape"),
    case(lambda: scores.dot_score(INF, INF), "q", "dot_score-inf"),
    case(lambda: scores.bilinear_score(ONES, ONES, np.ones((3, 4))), "w", "bilinear_score-shape"),
    case(lambda: scores.scaled_dot_score(NAN, NAN), "q", "scaled_dot_score-nan"),
    case(lambda: scores.scaled_dot_score(ONES, np.ones((2, 3))), "k", "scaled_dot_score-shape"),
    case(lambda: scores.dot_score(ONES, [[np.nan, 1, 1, 1]]), "k", "dot_score-k-nan"),
    case(lambda: scores.additive_score(ONES, ONES, np.ones((4, 5)), np.ones((3, 5)), np.ones(5)), "w_k", "additive_score-w_k-shape"),
    case(lambda: scores.score_variance(4.5), "d_k", "score_variance-float"),
    case(lambda: scores.softmax_saturation(4, n_trials=0), "n_trials", "softmax_saturation-size"),
    case(lambda: scores.score_variance(0), "d_k", "score_variance-size"),
    case(lambda: scores.score_variance(4, n_samples=1), "n_samples", "score_variance-samples"),
    case(lambda: scores.softmax_saturation(4, n_keys=1), "n_keys", "softmax_saturation-keys"),
    case(lambda: gradcheck.numerical_jacobian(3, ONES), "f", "numerical_jacobian-callable"),
    case(lambda: gradcheck.numerical_jacobian(np.sum, ONES, eps=0), "eps", "numerical_jacobian-eps"),
    case(lambda: gradcheck.numerical_jacobian(np.sum, ONES, eps=np.inf), "eps", "numerical_jacobian-eps-inf"),
    case(lambda: gradcheck.numerical_jacobian(np.sum, [[np.nan]]), "x", "numerical_jacobian-nan"),
    case(lambda: gradcheck.self_attention(np.ones(3), *(np.ones((3, 2)),) * 3), "x", "self_attention-flat"),
    case(lambda: gradcheck.self_attention(np.ones((2, 2, 3)), *(np.ones((3, 2)),) * 3), "x", "self_attention-3d"),
    case(lambda: gradcheck.self_attention(np.ones((2, 3)), np.ones((3, 2)), np.ones((3, 3)), np.ones((3, 2))), "w_k", "self_attention-d_k"),
    case(lambda: gradcheck.gradient_reach(np.ones((2, 2, 2, 2, 2))), "jac", "gradient_reach-5d"),
    case(lambda: gradcheck.self_attention(ONES, np.ones((3, 2)), np.ones((4, 2)), np.ones((4, 2))), "w_q", "self_attention-shape"),
    case(lambda: gradcheck.self_attention_jacobian(ONES, *(np.ones((4, 2)),) * 3, mask=NO_KEY), "mask", "self_attention_jacobian-fully-masked-row"),
    case(lambda: gradcheck.gradient_reach(np.ones((2, 2))), "jac", "gradient_reach-shape"),
    case(lambda: gradcheck.max_relative_error(ONES, np.ones(3)), "a", "max_relative_error-shape"),

    # ---- heads and position (chapter 4)
    case(lambda: heads.split_heads(ONES, 0), "n_heads", "split_heads-size"),
    case(lambda: heads.split_heads(ONES, 3), "n_heads", "split_heads-divide"),
    case(lambda: heads.merge_heads(ONES), "x", "merge_heads-shape"),
    case(lambda: heads.split_heads(np.ones(6), 2), "x", "split_heads-flat"),
    case(lambda: heads.multi_head_attention(np.ones((2, 2, 4)), ONES, *(np.ones((4, 4)),) * 3, None, 2), "x_q", "multi_head_attention-3d"),
    case(lambda: heads.multi_head_attention(ONES, ONES, np.ones((5, 4)), *(np.ones((4, 4)),) * 2, None, 2), "w_q", "multi_head_attention-w_q-shape"),
    case(lambda: heads.multi_head_attention(ONES, ONES, np.ones((4, 4)), np.ones((4, 6)), np.ones((4, 4)), None, 2), "w_k", "multi_head_attention-w_k-shape"),
    case(lambda: heads.multi_head_attention(ONES, ONES, *(np.ones((4, 4)),) * 3, np.ones((3, 4)), 2), "w_o", "multi_head_attention-w_o-shape"),
    case(lambda: heads.multi_head_attention(ONES, ONES, *(np.ones((4, 4)),) * 3, None, 3), "n_heads", "multi_head_attention-divide"),
    case(lambda: heads.relation_projections(("a", "b"), ("h",), (("h", "a", "a"), ("h", "a", "b")), 1, 1.0), "d_head", "relation_projections-slots"),
    case(lambda: heads.relation_projections(("a",), ("h",), (), 2, 0.0), "strength", "relation_projections-strength"),
    case(lambda: heads.multi_head_attention(ONES, np.ones((3, 5)), *(np.ones((4, 4)),) * 3, None, 2), "x_q", "multi_head_attention-width"),
    case(lambda: heads.multi_head_attention(ONES, ONES, *(np.ones((4, 4)),) * 3, None, 2, causal_mask(3)), "mask", "multi_head_attention-mask"),
    case(lambda: heads.relation_projections(("a",), ("h",), (("h", "a", "b"),), 2, 1.0), "relations", "relation_projections-name"),
    case(lambda: heads.relation_projections(("a",), ("h",), (), 0, 1.0), "d_head", "relation_projections-size"),
    case(lambda: heads.wide_head_weights(np.ones((2, 3)), np.ones((3, 4)), np.ones((3, 5))), "w_q", "wide_head_weights-shape"),
    case(lambda: heads.total_variation(np.ones((2, 3)), np.ones(4)), "p", "total_variation-shape"),
    case(lambda: position.sinusoidal_encoding(0, 4), "n", "sinusoidal_encoding-size"),
    case(lambda: position.sinusoidal_encoding(4, 3), "d", "sinusoidal_encoding-odd"),
    case(lambda: position.add_positions(np.ones(4)), "x", "add_positions-shape"),
    case(lambda: position.check_permutation([0, 0, 1], 3), "perm", "check_permutation-repeat"),
    case(lambda: position.permutation_gap(3, ONES, [1, 0]), "f", "permutation_gap-callable"),

    # ---- config, transformer, vocabularies, mlm (chapters 6-7)
    case(lambda: Config(n_layers=0), "n_layers", "Config-layers"),
    case(lambda: Config(vocab_size=2.5), "vocab_size", "Config-float"),
    case(lambda: Config(d_model=10, n_heads=4), "d_model", "Config-divide"),
    case(lambda: Config(n_kv_heads=3), "n_kv_heads", "Config-kv-heads"),
    case(lambda: Config(window=-1), "window", "Config-window-below-0"),
    case(lambda: Config(positions="alibi"), "positions", "Config-positions"),
    case(lambda: Config(max_len=0), "max_len", "Config-max_len-size"),
    case(lambda: Config(segment_types=-1), "segment_types", "Config-segment_types-below-0"),
    case(lambda: Config(positions="learned", max_len=None), "max_len", "Config-learned-without-max_len"),
    case(lambda: Config(positions="relative"), "relative_buckets", "Config-relative-without-buckets"),
    case(lambda: Config(relative_buckets=4), "relative_buckets", "Config-buckets-without-relative"),
    case(lambda: Config(pooler=1), "pooler", "Config-bool"),
    case(lambda: transformer.check_tokens(np.array([-1, 2]), CFG), "tokens", "check_tokens-negative"),
    case(lambda: transformer.check_tokens(np.array([[1, 2]]), CFG), "tokens", "check_tokens-2d"),
    case(lambda: transformer.check_tokens(np.array([1.0, 2.0]), CFG), "tokens", "check_tokens-float"),
    case(lambda: transformer.check_tokens(np.array([1, 99]), CFG), "tokens", "check_tokens-range"),
    case(lambda: transformer.embed(np.arange(4), PARAMS, CFG, start=62), "start", "embed-past-max_len"),
    case(lambda: transformer.stack(np.ones((3, 16)), PARAMS, CFG, causal_mask(2)), "self_mask", "stack-shape"),
    case(lambda: transformer.stack(np.full((3, 16), np.nan), PARAMS, CFG, causal_mask(3)), "x", "stack-nan"),
    case(lambda: transformer.decode(np.zeros(65, int), PARAMS, CFG), "tokens", "decode-too-long"),
    case(lambda: transformer.encode(np.array([], int), PARAMS, CFG), "tokens", "encode-empty"),
    case(lambda: vocab.to_ids(["zebra"], vocab.CAT_VOCAB), "words", "to_ids-unknown"),
    case(lambda: vocab.to_words([0, 99], vocab.CAT_VOCAB), "token_ids", "to_words-range"),
    case(lambda: mlm.mask_tokens([]), "tokens", "mask_tokens-empty"),
    case(lambda: mlm.mask_tokens(["a"], rate=0), "rate", "mask_tokens-rate"),
    case(lambda: mlm.mask_tokens(["a"], rate=1.5), "rate", "mask_tokens-rate-above-1"),
    case(lambda: mlm.ContextCounter(corpus=[]), "corpus", "ContextCounter-empty"),
    case(lambda: mlm.ContextCounter().log_scores({7: "the"}), "context", "log_scores-offset"),
    case(lambda: mlm.mask_tokens(["a"], seed=-1), "seed", "mask_tokens-seed"),
    case(lambda: mlm.ContextCounter(left=0, right=0), "left", "ContextCounter-no-context"),
    case(lambda: mlm.ContextCounter(alpha=0), "alpha", "ContextCounter-alpha"),
    case(lambda: mlm.context_of(["a", "b"], 2), "position", "context_of-position"),
    case(lambda: mlm.context_of(["a", "b"], 0, sides="up"), "sides", "context_of-sides"),
    case(lambda: mlm.fill_mask(top=0), "top", "fill_mask-top"),

    # ---- machines, probe, leak, architectures (chapters 7 and 9)
    case(lambda: machines.check_machine("transformer"), "machine", "check_machine-unknown"),
    case(lambda: machines.masks("encoder", 0), "n", "masks-size"),
    case(lambda: machines.masks("decoder", 3, past=-1), "past", "masks-past"),
    case(lambda: machines.stack_masks("decoder", 2, 0), "n_tgt", "stack_masks-size"),
    case(lambda: machines.reach("encoder", 3, 0), "m", "reach-size"),
    case(lambda: machines.run("encoder-decoder", np.array([1]), PARAMS, CFG), "memory", "run-memory"),
    case(lambda: probe.nudge(np.array([1, 2]), 5, 10), "j", "nudge-position"),
    case(lambda: probe.nudge(np.array([1.0, 2.0]), 0, 10), "tokens", "nudge-float"),
    case(lambda: probe.movement(lambda t: t, np.arange(3), []), "variants", "movement-empty"),
    case(lambda: leak.leak_test(np.array([1, 2, 3]), 5, 4, PARAMS, CFG), "position", "leak_test-position"),
    case(lambda: leak.leak_test(np.array([1, 2, 3]), 1, 2, PARAMS, CFG), "new_token", "leak_test-same-token"),
    case(lambda: architectures.run("encoder-decoder", np.array([1, 2])), "source", "architectures.run-source"),
    case(lambda: architectures.machine_for(1, False), "writes_tokens", "machine_for-bool"),
    case(lambda: architectures.architecture_for("poem"), "output", "architecture_for-unknown"),
    case(lambda: architectures.same_size("GPT-1"), "names", "same_size-str"),
    case(lambda: architectures.same_size(("T5-base",)), "names", "same_size-unknown"),
    case(lambda: targets.next_token_pairs([1]), "tokens", "next_token_pairs-size"),
    case(lambda: targets.next_token_pairs([], bos=0), "tokens", "next_token_pairs-bos-size"),

    # ---- encoder-decoder (chapter 8)
    case(lambda: encdec.two_stack_layout(0, 3), "n_source", "two_stack_layout-size"),
    case(lambda: encdec.prompt_layout((), ("a",)), "source", "prompt_layout-empty"),

    # ---- counts and the published models (chapters 3, 9, 10, 11)
    case(lambda: counts.attention_cost(0, 512), "n", "attention_cost-size"),
    case(lambda: counts.rnn_cost(10, -1), "d", "rnn_cost-size"),
    case(lambda: counts.cost_ratio(2.5, 512), "n", "cost_ratio-float"),
    case(lambda: counts.serial_steps(10, "lstm"), "kind", "serial_steps-unknown"),
    case(lambda: counts.cost_row(True, 512), "n", "cost_row-bool"),
    case(lambda: counts.total_scores(-1, True), "n_steps", "total_scores-below-0"),
    case(lambda: counts.total_scores(3, True, n_heads=1.5), "n_heads", "total_scores-float"),
    case(lambda: counts.speedup(0), "n_steps", "speedup-size"),
    case(lambda: counts.predicted_ops(3, {"n_layers": 2}, True), "cfg", "predicted_ops-cfg"),
    case(lambda: counts.measured_ops(65, PARAMS, CFG, True), "n_steps", "measured_ops-past-max_len"),
    case(lambda: counts.count_params(CFG, "transducer"), "machine", "count_params-unknown"),
    case(lambda: counts.count_params(None, "decoder"), "cfg", "count_params-cfg"),
    case(lambda: counts.kv_cache_bytes(CFG, -1), "n_tokens", "kv_cache_bytes-below-0"),
    case(lambda: counts.kv_cache_bytes(CFG, 10.5), "n_tokens", "kv_cache_bytes-float"),
    case(lambda: counts.kv_cache_bytes(CFG, 1, batch=0), "batch", "kv_cache_bytes-batch"),
    case(lambda: counts.kv_cache_bytes(CFG, 1, bytes_per_value=0), "bytes_per_value", "kv_cache_bytes-bytes"),
    case(lambda: counts.format_bytes(-1), "n_bytes", "format_bytes-below-0"),
    case(lambda: models.model("GPT-5"), "name", "model-unknown"),
    case(lambda: models.summary("Llama-2-7B"), "name", "summary-no-published-total"),
    case(lambda: models.Published("m", "decoder", {"d_model": 8}, "x"), "config", "Published-config"),
    case(lambda: models.Published("", "decoder", CFG, "x"), "name", "Published-name"),
    case(lambda: models.Published("m", "transducer", CFG, "x"), "machine", "Published-unknown-machine"),

    # ---- decoding, the KV cache (chapters 10 and 12)
    case(lambda: decoding.temperature_softmax(np.ones(3), 0), "temperature", "temperature_softmax-T-0"),
    case(lambda: decoding.temperature_softmax(np.ones(3), -1.0), "temperature", "temperature_softmax-T-below-0"),
    case(lambda: decoding.temperature_softmax(np.array([0.0, np.nan]), 1.0), "logits", "temperature_softmax-nan"),
    case(lambda: decoding.greedy(np.ones((2, 3))), "logits", "greedy-shape"),
    case(lambda: decoding.sample(np.ones(3), 0.0, rng=np.random.default_rng(0)), "temperature", "sample-T-0"),
    case(lambda: decoding.sample(np.ones(3), 1.0, rng=0), "rng", "sample-rng"),
    case(lambda: decoding.draw(np.array([0.5, 0.6]), np.random.default_rng(0)), "probs", "draw-sum"),
    case(lambda: decoding.frequencies(np.ones(3), 1.0, 0, 0), "n_draws", "frequencies-size"),
    case(lambda: decoding.entropy_bits(np.array([[0.5, 0.5]])), "probs", "entropy_bits-shape"),
    case(lambda: decoding.generate(np.array([1]), PARAMS, CFG, -1), "n_new", "generate-below-0"),
    case(lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2.5), "n_new", "generate-float"),
    case(lambda: decoding.generate(np.array([1]), PARAMS, CFG, 66), "n_new", "generate-past-max_len"),
    case(lambda: decoding.top_k_filter(np.full(4, 0.25), 0), "top_k", "top_k_filter-size"),
    case(lambda: decoding.top_k_filter(np.full(4, 0.25), 2.5), "top_k", "top_k_filter-float"),
    case(lambda: decoding.top_p_filter(np.full(4, 0.25), 1.5), "top_p", "top_p_filter-above-1"),
    case(lambda: decoding.top_p_filter(np.full(4, 0.25), float("nan")), "top_p", "top_p_filter-nan"),
    case(lambda: decoding.sampling_probs(np.ones(3), 1.0, top_k=4), "top_k", "sampling_probs-top_k-past-vocab"),
    case(lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2, greedy=False, top_p=0, rng=np.random.default_rng(0)),
         "top_p", "generate-top_p-0"),
    case(lambda: counts.total_scores(3, False, table="upper"), "table", "total_scores-unknown-table"),
    case(lambda: counts.total_rows(3, True, n_layers=0), "n_layers", "total_rows-size"),
    case(lambda: counts.speedup(3, "flops"), "work", "speedup-unknown-work"),
    case(lambda: kvcache.KVCache(CFG, dtype=np.int32), "dtype", "KVCache-dtype"),
    case(lambda: kvcache.decode_cached(np.array([1]), PARAMS, CFG, kvcache.KVCache(Config(n_layers=1))), "cache", "decode_cached-config"),
    case(lambda: kvcache.decode_step(np.ones(4), np.ones((2, 3)), np.ones((2, 4)), *(np.ones((4, 4)),) * 3), "k_cache", "decode_step-shape"),
    case(lambda: kvcache.old_rows_drift(np.array([1, 2]), 3, PARAMS, CFG, "encoder-decoder"), "machine", "old_rows_drift-machine"),
    case(lambda: kvcache.new_row_dependence(np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 2))), "q", "new_row_dependence-size"),

    # ---- the pipeline (chapters 12 and 13), rounding
    case(lambda: pipeline.tokenize(""), "text", "tokenize-empty"),
    case(lambda: pipeline.tokenize("ÿ"), "text", "tokenize-unknown"),
    case(lambda: pipeline.detokenize(np.array([99])), "ids", "detokenize-range"),
    case(lambda: pipeline.forward(pipeline.tokenize("ab"), pipeline.shared_weights(), pipeline.CFG, "encoder-decoder"), "memory", "forward-memory"),
    case(lambda: pipeline.patchify(np.ones((5, 5)), 2), "patch", "patchify-divide"),
    case(lambda: pipeline.run("the cat", n_new=-1), "n_new", "pipeline.run-below-0"),
    case(lambda: rounding.is_rounding(np.array([np.nan])), "x", "is_rounding-nan"),

    # ---- the figure builders' shared checks
    case(lambda: figure_style.page_lang("fr"), "lang", "page_lang-unknown"),
    case(lambda: figure_style.labels("no_such_section", "en"), "section", "labels-unknown"),
    case(lambda: figure_style.add_control(go.Figure(), [("a", [], None), ("b", [], None)], kind="wheel"), "kind", "add_control-unknown"),
    case(lambda: figure_style.add_control(go.Figure(), []), "steps", "add_control-no-steps"),
    case(lambda: figure_style.add_control(go.Figure(), [("a", [], None), ("b", [], None)], active=2), "active", "add_control-active"),
    case(lambda: glossary.glossary_table([], {}, lang="en"), "terms", "glossary_table-size"),
    case(lambda: glossary.glossary_table([{"key": "k", "zh": "z", "en": "e"}], {"en": {}}, lang="en"), "terms",
         "glossary_table-missing-field"),
]


@pytest.mark.parametrize("call, arg", TABLE)
def test_bad_input_raises_an_error_that_names_the_argument(call, arg):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert re.search(rf"(?<![\w.]){re.escape(arg)}(?!\w)", str(info.value)), f"message does not name {arg!r}: {info.value}"


def test_the_table_covers_every_kind_of_bad_input():
    ids = [p.id for p in TABLE]
    for kind in ("size", "below-0", "shape", "nan", "inf", "fully-masked-row", "T-0", "unknown", "float"):
        assert any(kind in i for i in ids), kind
    assert len(ids) == len(set(ids))
