"""One table of bad input over primer's public functions: each case raises ValueError naming the argument.

The kinds of bad input: a size that is not a positive integer (zero, negative, a float, a bool), a
window below 1, shapes that do not fit together (too few axes, a wrong width, a mask of the wrong
shape or dtype), NaN or infinite numbers, a fully masked row, a temperature T <= 0 or not a finite
number, a probability outside its range (top_p, probs that do not sum to 1), an id outside the
vocabulary, a length past max_len, an unknown name (machine, kind, section, language), a missing
or unwanted companion argument (enc_out, source, rng), and a callable that is not one or returns
the wrong shape. A row is (call, the argument its message must name, optionally a regex the message
must also match); the name must appear in the message as a word. The regex pins the wording a
reader sees, e.g. "T -> 0 is greedy decoding".
"""

import re

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from primer import (
    chunked_prefill,
    conventions,
    corpus,
    counts,
    decoding,
    encoder_decoder,
    gradcheck,
    image_prefix,
    kv_cache,
    language,
    layer_patterns,
    leak,
    llama_decoder,
    machines,
    mask_checks,
    mlm,
    optim,
    packing,
    paged_cache,
    position,
    pretrained,
    probe,
    published,
    rnn,
    rounding,
    scores,
    seq2seq,
    sinks,
    speculative,
    targets,
    training,
    transformer,
    vocab,
    wild_bugs,
    writing,
)
from primer import sampling_pipeline as pipeline
from primer import self_cross_heads as heads
from primer._checks import bool_mask, float_array, int_at_least
from primer.attention import attention
from primer.backprop import MaskedFill
from primer.config import Config
from primer.experiments import (
    broken_masks,
    grammar,
    language_model,
    packed_training,
    trained_decoder,
    trained_encoder,
    trained_machines,
    translation,
    translator,
)
from primer.figures import decoder as decoder_figures
from primer.figures import glossary, look
from primer.figures import real_model as real_model_figures
from primer.figures.controls import add_control
from primer.figures.look import note
from primer.figures.tables import integer
from primer.grouped_query import grouped_query_attention, repeat_kv
from primer.inputs import decoder as dec_page
from primer.inputs import encoder as enc_page
from primer.inputs import encoder_decoder as ed_page
from primer.inputs.sampling_pipeline import NEXT_LOGITS, PROMPT
from primer.masks import (
    additive_mask,
    batch_mask,
    causal_mask,
    chunked_mask,
    cu_seqlens,
    document_mask,
    empty_rows,
    full_mask,
    key_padding_mask,
    prefix_lm_mask,
    tree_mask,
    window_mask,
)
from primer.notebook.experiments import six_masks_verdict
from primer.pretrained import measure
from primer.rms_norm import rms_norm
from primer.rotary import rotary_angles, rotate
from primer.softmax import masked_softmax, softmax
from primer.swiglu import swiglu

CFG = Config()
PARAMS = transformer.init_stack(0, CFG)
NAN = np.array([[0.0, np.nan], [1.0, 2.0]])
INF = np.array([[0.0, np.inf], [1.0, 2.0]])
ONES = np.ones((2, 4))
NO_KEY = np.array([[False, False], [True, True]])  # row 0 reads nothing
RNN = dict(x=np.ones((3, 2)), w=np.eye(4), u=np.ones((4, 2)), b=np.zeros(4))
EXPERIMENT = dict(d=4, d_in=2, input_scale=0.01, seed=0)
S2S = (np.ones((2, 3)), np.ones((4, 5)), np.ones((3, 6)), np.ones((5, 6)), np.ones(6))  # s, h, w_s, w_h, v
W3 = np.ones((3, 2))  # a [d=3, d_k=2] projection for decode_step
ED_IDS = vocab.to_ids(ed_page.SOURCE, ed_page.VOCAB)
PIPE = pipeline.shared_weights(0)
ED_CFG = Config(**ed_page.CONFIG)
ED_MODEL = encoder_decoder.model(ED_CFG, ed_page.ENC_SEED, ed_page.DEC_SEED)


TRAIN_CFG = Config(vocab_size=7, d_model=4, n_heads=2, d_ff=8, n_layers=2, max_len=6)
TRAIN_N = 5
TRAIN_TOKENS = np.arange(10).reshape(2, TRAIN_N) % 7
TRAIN_TARGETS = (TRAIN_TOKENS + 1) % 7


def bad_train(**bad):
    """Train the tiny model one step with one argument made bad (mask: the array its self_mask returns)."""
    args = (
        dict(
            start=transformer.init_stack(0, TRAIN_CFG),
            cfg=TRAIN_CFG,
            tokens=TRAIN_TOKENS,
            targets=TRAIN_TARGETS,
            mask=causal_mask(TRAIN_N),
            steps=1,
            lr=0.01,
        )
        | bad
    )
    mask, task = (
        args.pop("mask"),
        [training.Rows(args.pop("tokens"), args.pop("targets"), args.pop("loss_weights", None))],
    )
    self_mask = args.pop("self_mask", lambda n: mask)
    return training.train(args.pop("start"), args.pop("cfg"), task, self_mask=self_mask, **args)


def bad_encdec(**bad):
    """Train a tiny encoder-decoder one step with one argument made bad."""
    args = (
        dict(
            start=(transformer.init_stack(0, TRAIN_CFG), transformer.init_stack(1, TRAIN_CFG, cross=True)),
            task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS, source=TRAIN_TOKENS[:, :3])],
            self_mask=causal_mask,
            source_mask=full_mask,
            cross_mask=full_mask,
            steps=1,
            lr=0.01,
        )
        | bad
    )
    return training.train(args.pop("start"), TRAIN_CFG, args.pop("task"), **args)


def rng():
    return np.random.default_rng(0)


def decode_past_max_len():
    """Fill a max_len=4 cache with 3 tokens, then ask for 2 more."""
    cfg = Config(max_len=4)
    params, cache = transformer.init_stack(0, cfg), kv_cache.KVCache(cfg)
    kv_cache.decode_cached(np.array([1, 2, 3]), params, cfg, cache)
    kv_cache.decode_cached(np.array([1, 2]), params, cfg, cache)


def stack_with_memory(cross_mask):
    x = transformer.embed(np.arange(4), PARAMS, CFG)
    dec = transformer.init_stack(1, CFG, cross=True)
    transformer.stack(x, dec, CFG, causal_mask(4), enc_out=np.zeros((6, CFG.d_model)), cross_mask=cross_mask)


def readout(**bad):
    a = dict(h=np.zeros((2, 4)), v=np.zeros((3, 4)), c=np.zeros(3), y=np.zeros((2, 3)), loss="mse") | bad
    return rnn.readout(a.pop("h"), a.pop("v"), a.pop("c"), a.pop("y"), **a)


def strength(s):
    return lambda: seq2seq.alignment([("了", "past")], [("bought", {"buy": 1.0, "past": s})])


def paged_full_pool():
    cache = paged_cache.PagedCache(1, 1, 1, 1)
    cache.append(0, [1.0], [1.0])
    cache.append(0, [2.0], [2.0])  # a second page, from a pool of one


def prefilled_cache():
    cache = kv_cache.KVCache(CFG)
    kv_cache.prefill_prefix_lm([1, 2], 1, PARAMS, CFG, cache)
    return cache


LLAMA_CFG = Config(vocab_size=11, d_model=8, n_heads=4, n_kv_heads=2, d_ff=12, n_layers=1, max_len=None, gated_ff=True)
LLAMA_PARAMS = llama_decoder.init_params(0, LLAMA_CFG)


def toy_llama(ids=(1, 2, 3), mask=None, positions=None):
    """Run the toy Llama-style model of primer.llama_decoder on bad input."""
    return llama_decoder.forward(ids, LLAMA_PARAMS, LLAMA_CFG, mask, positions, theta=10_000.0, eps=1e-5)


def case(call, arg, id_, match=None):
    return pytest.param(call, arg, match, id=id_)


TRANSLATION = dict(
    grammar=dec_page.GRAMMAR,
    lexicon=ed_page.LEXICON,
    head_final=ed_page.HEAD_FINAL,
    heldout_share=ed_page.HELDOUT_SHARE,
    model=ed_page.TRANSLATION_MODEL,
    prompt_layers=ed_page.PROMPT_LAYERS,
    training=ed_page.TRANSLATION_TRAINING,
    seed=0,
)

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
    case(lambda: causal_mask(0), "n_q", "causal_mask-size"),
    case(lambda: causal_mask(3, 0), "n_k", "causal_mask-n_k-size"),
    case(lambda: causal_mask(1.5), "n_q", "causal_mask-float"),
    case(lambda: causal_mask(True), "n_q", "causal_mask-bool"),
    case(lambda: causal_mask(3, 2), "n_k", "causal_mask-short", "n_k must be >= n_q"),
    case(lambda: window_mask(4, 0), "window", "window_mask-below-1", "window must be >= 1"),
    case(lambda: window_mask(4, -1), "window", "window_mask-below-0", "every row has no key left"),
    case(lambda: window_mask(4, 1.5), "window", "window_mask-float"),
    case(lambda: window_mask(0, 2), "n", "window_mask-size"),
    case(lambda: window_mask(4, 2, sinks=-1), "sinks", "window_mask-sinks-below-0"),
    case(lambda: window_mask(4, 2, sinks=True), "sinks", "window_mask-sinks-bool"),
    case(lambda: window_mask(4, 2, sinks=1.0), "sinks", "window_mask-sinks-float"),
    case(lambda: document_mask([]), "doc_ids", "document_mask-empty", "non-empty"),
    case(lambda: document_mask([[0, 1]]), "doc_ids", "document_mask-2d"),
    case(lambda: document_mask([0.0, 1.0]), "doc_ids", "document_mask-float", "integers"),
    case(lambda: document_mask([0, True]), "doc_ids", "document_mask-bool", "bools are not integers"),
    case(lambda: document_mask([0, 1], causal=1), "causal", "document_mask-causal-bool"),
    case(lambda: cu_seqlens([0, 1, 0]), "doc_ids", "cu_seqlens-not-contiguous", "contiguous runs"),
    case(lambda: cu_seqlens([1, 1, 2]), "doc_ids", "cu_seqlens-not-from-0", "numbered 0, 1, 2"),
    case(lambda: cu_seqlens([0, 2]), "doc_ids", "cu_seqlens-skips-a-number"),
    case(lambda: cu_seqlens([]), "doc_ids", "cu_seqlens-empty"),
    case(lambda: prefix_lm_mask(4, 5), "prefix", "prefix_lm_mask-longer-than-n", "prefix must be <= n"),
    case(lambda: prefix_lm_mask(4, -1), "prefix", "prefix_lm_mask-below-0"),
    case(lambda: prefix_lm_mask(4, True), "prefix", "prefix_lm_mask-bool"),
    case(lambda: prefix_lm_mask(0, 0), "n", "prefix_lm_mask-size"),
    case(lambda: chunked_mask(4, 0), "chunk", "chunked_mask-chunk-size"),
    case(lambda: chunked_mask(4, 2.0), "chunk", "chunked_mask-float"),
    case(lambda: chunked_mask(0, 2), "n", "chunked_mask-n-size"),
    case(lambda: tree_mask([0, 0]), "parents", "tree_mask-0-not-a-root", "node 0 is a root"),
    case(lambda: tree_mask([-1, 1]), "parents", "tree_mask-own-parent", "earlier node"),
    case(lambda: tree_mask([-1, 2, 0]), "parents", "tree_mask-parent-after-child", "earlier node"),
    case(lambda: tree_mask([-1, -2]), "parents", "tree_mask-below-minus-1"),
    case(lambda: tree_mask([]), "parents", "tree_mask-empty"),
    case(lambda: tree_mask([-1, 0.0]), "parents", "tree_mask-float"),
    case(lambda: wild_bugs.layers("no_such_bug"), "name", "wild_bugs-layers-name"),
    case(lambda: wild_bugs.symptom("query_axis", np.ones((3, 2))), "valid", "wild_bugs-symptom-no-valid"),
    case(lambda: wild_bugs.symptom("transposed", np.ones(3)), "x", "wild_bugs-symptom-flat-x"),
    case(lambda: wild_bugs.keys_read("transposed", 4), "name", "wild_bugs-keys-read-not-cache"),
    case(lambda: wild_bugs.window_step(0), "window", "wild_bugs-window-step"),
    case(lambda: additive_mask(np.ones((2, 2))), "mask", "additive_mask-dtype", "bool"),
    case(lambda: additive_mask(full_mask(2), fill=1.0), "fill", "additive_mask-fill"),
    case(lambda: additive_mask(full_mask(2), fill=np.nan), "fill", "additive_mask-fill-nan"),
    case(lambda: key_padding_mask([0, 2], 3), "lengths", "key_padding_mask-size"),
    case(lambda: key_padding_mask([4], 3), "lengths", "key_padding_mask-longer-than-n", "lengths must be <= n"),
    case(lambda: key_padding_mask([[1, 2]], 3), "lengths", "key_padding_mask-2d"),
    case(lambda: key_padding_mask([], 3), "lengths", "key_padding_mask-empty"),
    case(lambda: key_padding_mask([1.5], 3), "lengths", "key_padding_mask-float"),
    case(lambda: key_padding_mask([1], 0), "n", "key_padding_mask-n-size"),
    case(lambda: key_padding_mask([1], 3, side="middle"), "side", "key_padding_mask-unknown-side"),
    case(lambda: batch_mask([1], 3, causal=1), "causal", "batch_mask-bool"),
    case(lambda: batch_mask([1], 3, padded_queries="zeros"), "padded_queries", "batch_mask-unknown-padded_queries"),
    case(lambda: empty_rows(np.ones((2, 2))), "mask", "empty_rows-dtype"),
    case(lambda: empty_rows(np.ones(2, dtype=bool)), "mask", "empty_rows-flat"),
    case(lambda: softmax(NAN), "x", "softmax-nan"),
    case(lambda: softmax(INF), "x", "softmax-inf"),
    case(lambda: softmax(np.zeros(0)), "x", "softmax-empty", "empty"),
    case(lambda: softmax(3.0), "x", "softmax-scalar", "dimension"),
    case(lambda: masked_softmax(NAN, full_mask(2)), "scores", "masked_softmax-nan", "finite"),
    case(lambda: masked_softmax(INF, full_mask(2)), "scores", "masked_softmax-inf", "finite"),
    case(lambda: masked_softmax([["a", "b"]]), "scores", "masked_softmax-text", "numbers"),
    case(lambda: masked_softmax(ONES[:, :2], NO_KEY), "mask", "masked_softmax-fully-masked-row", "no open key"),
    case(lambda: masked_softmax(ONES, full_mask(2)), "mask", "masked_softmax-shape", "does not match"),
    case(lambda: masked_softmax(np.zeros((2, 2)), np.ones((2, 2))), "mask", "masked_softmax-dtype", "bool"),
    case(
        lambda: masked_softmax(ONES, full_mask(2)[:, :1].repeat(4, 1), replace="yes"),
        "replace",
        "masked_softmax-replace",
        "True or False",
    ),
    case(lambda: attention(ONES, np.ones((3, 5)), np.ones((3, 4))), "k", "attention-d_k", "d_k"),
    case(lambda: attention(ONES, np.ones((3, 4)), np.ones((2, 4))), "v", "attention-n_k", "n_k"),
    case(
        lambda: attention(np.ones(4), np.ones((3, 4)), np.ones((3, 2))), "q", "attention-flat", "q must have at least 2"
    ),
    case(
        lambda: attention(np.ones((2, 3, 4)), np.ones((3, 3, 4)), np.ones((3, 3, 2))),
        "q",
        "attention-batch-shape",
        "broadcast",
    ),
    case(lambda: attention(ONES, ONES, ONES, np.ones((3, 2), bool)), "mask", "attention-mask-shape", "does not match"),
    case(
        lambda: attention(ONES[:, :2], ONES[:, :2], ONES[:, :2], NO_KEY),
        "mask",
        "attention-fully-masked-row",
        "no open key",
    ),
    case(
        lambda: attention(
            *(np.ones((1, 3, 2)),) * 3, batch_mask([1], 3, causal=True, side="left", padded_queries="and")
        ),
        "mask",
        "attention-fully-masked-row-of-left-padding",
        "no open key",
    ),
    case(lambda: attention(NAN, ONES[:, :2], ONES[:, :2]), "q", "attention-nan", "q must be finite"),
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
    case(
        lambda: rnn.rnn_backward(**RNN, h=np.ones((3, 4)), dh_out=np.ones((3, 2))),
        "dh_out",
        "rnn_backward-dh_out-shape",
    ),
    case(lambda: rnn.recurrent_matrix(4, 0.0, seed=0), "radius", "recurrent_matrix-radius-0"),
    case(lambda: rnn.rnn_backward(**RNN, h=np.ones((2, 4)), dh_out=np.ones((3, 4))), "h", "rnn_backward-shape"),
    case(lambda: rnn.spectral_radius(np.ones((2, 3))), "w", "spectral_radius-square"),
    case(lambda: rnn.recurrent_matrix(0, 1.0, seed=0), "d", "recurrent_matrix-size"),
    case(lambda: rnn.recurrent_matrix(4, np.inf, seed=0), "radius", "recurrent_matrix-inf"),
    case(lambda: rnn.gradient_norms(0, 1.0, **EXPERIMENT), "steps", "gradient_norms-T-0"),
    case(
        lambda: rnn.gradient_norms(5, 1.0, **{**EXPERIMENT, "input_scale": -1}), "input_scale", "gradient_norms-scale"
    ),
    case(lambda: readout(loss="hinge"), "loss", "readout-unknown-loss", "loss must be one of"),
    case(lambda: readout(loss="cross_entropy", y=np.array([0, 3])), "y", "readout-class-past-k", "class ids in 0..2"),
    case(lambda: readout(loss="cross_entropy", y=np.array([0.0, 1.0])), "y", "readout-float-class", "class ids"),
    case(lambda: readout(loss="mse", y=np.zeros((2, 2))), "y", "readout-y-shape", r"y must be \[T, k\]"),
    case(lambda: readout(loss="mse", c=np.zeros(2)), "c", "readout-c-shape", r"c must be \[k\]"),
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
    case(strength(0), "target", "alignment-strength-0", "tag strength of 'past'"),
    case(strength(-0.5), "target", "alignment-strength-below-0", "tag strength of 'past'"),
    case(strength(1.5), "target", "alignment-strength-above-1", "tag strength of 'past'"),
    case(strength("high"), "target", "alignment-strength-text", "tag strength of 'past'"),
    case(
        lambda: scores.additive_score(ONES, ONES, np.ones((3, 5)), np.ones((4, 5)), np.ones(5)),
        "w_q",
        "additive_score-shape",
    ),
    case(
        lambda: scores.additive_score(ONES, ONES, np.ones((4, 5)), np.ones((4, 5)), np.ones(4)),
        "v",
        "additive_score-width",
    ),
    case(lambda: scores.dot_score(ONES, np.ones((2, 3))), "q", "dot_score-shape"),
    case(lambda: scores.dot_score(INF, INF), "q", "dot_score-inf"),
    case(lambda: scores.bilinear_score(ONES, ONES, np.ones((3, 4))), "w", "bilinear_score-shape"),
    case(lambda: scores.scaled_dot_score(NAN, NAN), "q", "scaled_dot_score-nan"),
    case(lambda: scores.scaled_dot_score(ONES, np.ones((2, 3))), "k", "scaled_dot_score-shape"),
    case(lambda: scores.dot_score(ONES, [[np.nan, 1, 1, 1]]), "k", "dot_score-k-nan"),
    case(
        lambda: scores.additive_score(ONES, ONES, np.ones((4, 5)), np.ones((3, 5)), np.ones(5)),
        "w_k",
        "additive_score-w_k-shape",
    ),
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
    case(
        lambda: gradcheck.self_attention(np.ones((2, 3)), np.ones((3, 2)), np.ones((3, 3)), np.ones((3, 2))),
        "w_k",
        "self_attention-d_k",
    ),
    case(lambda: gradcheck.gradient_reach(np.ones((2, 2, 2, 2, 2))), "jac", "gradient_reach-5d"),
    case(
        lambda: gradcheck.self_attention(ONES, np.ones((3, 2)), np.ones((4, 2)), np.ones((4, 2))),
        "w_q",
        "self_attention-shape",
    ),
    case(
        lambda: gradcheck.self_attention_jacobian(ONES, *(np.ones((4, 2)),) * 3, mask=NO_KEY),
        "mask",
        "self_attention_jacobian-fully-masked-row",
    ),
    case(lambda: gradcheck.gradient_reach(np.ones((2, 2))), "jac", "gradient_reach-shape"),
    case(lambda: gradcheck.max_relative_error(ONES, np.ones(3)), "a", "max_relative_error-shape"),
    # ---- heads and position (chapter 4)
    case(lambda: heads.split_heads(ONES, 0), "n_heads", "split_heads-size"),
    case(lambda: heads.split_heads(ONES, 3), "n_heads", "split_heads-divide"),
    case(lambda: heads.merge_heads(ONES), "x", "merge_heads-shape"),
    case(lambda: heads.split_heads(np.ones(6), 2), "x", "split_heads-flat"),
    case(
        lambda: heads.multi_head_attention(np.ones((2, 2, 4)), ONES, *(np.ones((4, 4)),) * 3, None, 2),
        "x_q",
        "multi_head_attention-3d",
    ),
    case(
        lambda: heads.multi_head_attention(ONES, ONES, np.ones((5, 4)), *(np.ones((4, 4)),) * 2, None, 2),
        "w_q",
        "multi_head_attention-w_q-shape",
    ),
    case(
        lambda: heads.multi_head_attention(ONES, ONES, np.ones((4, 4)), np.ones((4, 6)), np.ones((4, 4)), None, 2),
        "w_k",
        "multi_head_attention-w_k-shape",
    ),
    case(
        lambda: heads.multi_head_attention(ONES, ONES, *(np.ones((4, 4)),) * 3, np.ones((3, 4)), 2),
        "w_o",
        "multi_head_attention-w_o-shape",
    ),
    case(
        lambda: heads.multi_head_attention(ONES, ONES, *(np.ones((4, 4)),) * 3, None, 3),
        "n_heads",
        "multi_head_attention-divide",
    ),
    case(
        lambda: heads.relation_projections(("a", "b"), ("h",), (("h", "a", "a"), ("h", "a", "b")), 1, 1.0),
        "d_head",
        "relation_projections-slots",
    ),
    case(lambda: heads.relation_projections(("a",), ("h",), (), 2, 0.0), "strength", "relation_projections-strength"),
    case(
        lambda: heads.multi_head_attention(ONES, np.ones((3, 5)), *(np.ones((4, 4)),) * 3, None, 2),
        "x_q",
        "multi_head_attention-width",
    ),
    case(
        lambda: heads.multi_head_attention(ONES, ONES, *(np.ones((4, 4)),) * 3, None, 2, causal_mask(3)),
        "mask",
        "multi_head_attention-mask",
    ),
    case(
        lambda: heads.relation_projections(("a",), ("h",), (("h", "a", "b"),), 2, 1.0),
        "relations",
        "relation_projections-name",
    ),
    case(lambda: heads.relation_projections(("a",), ("h",), (), 0, 1.0), "d_head", "relation_projections-size"),
    case(
        lambda: heads.wide_head_weights(np.ones((2, 3)), np.ones((3, 4)), np.ones((3, 5))),
        "w_q",
        "wide_head_weights-shape",
    ),
    case(lambda: heads.total_variation(np.ones((2, 3)), np.ones(4)), "p", "total_variation-shape"),
    case(lambda: position.sinusoidal_encoding(0, 4), "n", "sinusoidal_encoding-size", "n must be"),
    case(lambda: position.sinusoidal_encoding(4, 0), "d", "sinusoidal_encoding-d-size", "d must be"),
    case(lambda: position.sinusoidal_encoding(4, 3), "d", "sinusoidal_encoding-odd", "d must be even"),
    case(lambda: position.sinusoidal_encoding(4, 4, base=1.0), "base", "sinusoidal_encoding-base-1", "base must be"),
    case(
        lambda: position.sinusoidal_encoding(4, 4, base=np.nan), "base", "sinusoidal_encoding-base-nan", "base must be"
    ),
    case(lambda: position.add_positions(np.ones(4)), "x", "add_positions-shape", "x must have at least 2"),
    case(lambda: position.add_positions(np.ones((2, 3, 4))), "x", "add_positions-3d", r"x must have shape \[n, d\]"),
    case(lambda: position.add_positions(np.ones((2, 3))), "d", "add_positions-odd", "d must be even"),
    case(
        lambda: position.validate_permutation([0, 0, 1], 3),
        "perm",
        "validate_permutation-repeat",
        "perm must be a reordering",
    ),
    case(
        lambda: position.validate_permutation([0, 1], 3),
        "perm",
        "validate_permutation-short",
        "perm must be a reordering",
    ),
    case(
        lambda: position.validate_permutation([0.0, 1.0], 2),
        "perm",
        "validate_permutation-float",
        "perm must be a reordering",
    ),
    case(lambda: position.permutation_gap(3, ONES, [1, 0]), "f", "permutation_gap-callable", "f must be callable"),
    case(
        lambda: position.permutation_gap(lambda x: x, np.ones((2, 8)), [1, 2]),
        "perm",
        "permutation_gap-perm",
        "perm must be a reordering",
    ),
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
    case(lambda: transformer.validate_tokens(np.array([-1, 2]), CFG), "tokens", "validate_tokens-negative"),
    case(lambda: transformer.validate_tokens(np.array([[1, 2]]), CFG), "tokens", "validate_tokens-2d"),
    case(lambda: transformer.validate_tokens(np.array([1.0, 2.0]), CFG), "tokens", "validate_tokens-float"),
    case(lambda: transformer.validate_tokens(np.array([1, 99]), CFG), "tokens", "validate_tokens-range"),
    case(lambda: transformer.embed(np.arange(4), PARAMS, CFG, start=62), "start", "embed-past-max_len"),
    case(
        lambda: transformer.stack(np.ones((3, 16)), PARAMS, CFG, causal_mask(2)),
        "self_mask",
        "stack-shape",
        "self_mask has shape",
    ),
    case(lambda: transformer.stack(np.full((3, 16), np.nan), PARAMS, CFG, causal_mask(3)), "x", "stack-nan"),
    case(
        lambda: transformer.stack(np.ones((3, 16)), PARAMS, CFG, causal_mask(3), enc_out=np.full((2, 16), np.nan)),
        "enc_out",
        "stack-enc_out-nan",
        "enc_out must be finite",
    ),
    case(lambda: stack_with_memory(full_mask(4, 5)), "cross_mask", "stack-cross_mask-shape", "cross_mask has shape"),
    case(
        lambda: stack_with_memory(np.ones((4, 6))),
        "cross_mask",
        "stack-cross_mask-dtype",
        "cross_mask must be a bool array",
    ),
    case(lambda: transformer.decode(np.zeros(65, int), PARAMS, CFG), "tokens", "decode-too-long"),
    case(lambda: transformer.encode(np.array([], int), PARAMS, CFG), "tokens", "encode-empty"),
    case(lambda: vocab.to_ids(["the", "zebra"], vocab.CAT_VOCAB), "words", "to_ids-unknown", r"unknown \['zebra'\]"),
    case(
        lambda: vocab.to_words([0, 99], vocab.CAT_VOCAB),
        "token_ids",
        "to_words-range",
        r"ids in \[0, \d+\), got \[99\]",
    ),
    case(lambda: vocab.to_words([[0]], vocab.CAT_VOCAB), "token_ids", "to_words-2d", "1-D"),
    case(lambda: vocab.to_words(np.array([0.5]), vocab.CAT_VOCAB), "token_ids", "to_words-float", "integer ids"),
    case(lambda: mlm.mask_tokens([]), "tokens", "mask_tokens-empty"),
    case(lambda: mlm.mask_tokens(["a"], rate=0), "rate", "mask_tokens-rate"),
    case(lambda: mlm.mask_tokens(["a"], rate=1.5), "rate", "mask_tokens-rate-above-1"),
    case(lambda: mlm.mask_tokens(["a"], seed=-1), "seed", "mask_tokens-seed"),
    # ---- chapter 6's masked-LM encoder (issue 32)
    case(lambda: mlm.mask_rows([[0, 1]], (".", "a"), 0.15, 0), "vocab", "mask_rows-no-mask-id"),
    case(lambda: mlm.mask_rows([[0, 2]], (".", "a", mlm.MASK), 0.15, 0), "tokens", "mask_rows-mask-in-tokens"),
    case(lambda: mlm.mask_rows([[0, 1]], (".", "a", mlm.MASK), 0.15, 0, draws=0), "draws", "mask_rows-draws-0"),
    case(lambda: mlm.mask_rows([[0, 1]], (".", "a", mlm.MASK), 0.15, -1), "seed", "mask_rows-seed"),
    case(lambda: mlm.cloze([[0, 1]], ("a", "b", mlm.MASK)), "vocab", "cloze-no-boundary"),
    case(
        lambda: mlm.hidden_probs(
            transformer.init_stack(0, TRAIN_CFG), TRAIN_CFG, TRAIN_TOKENS, [0], full_mask(TRAIN_N)
        ),
        "positions",
        "hidden_probs-positions-shape",
    ),
    case(
        lambda: mlm.hidden_probs(
            transformer.init_stack(0, TRAIN_CFG), TRAIN_CFG, TRAIN_TOKENS, [0, TRAIN_N], full_mask(TRAIN_N)
        ),
        "positions",
        "hidden_probs-position-past-n",
    ),
    case(lambda: grammar.hidden_word_probs(enc_page.GRAMMAR, ("the", "egg"), ()), "left", "hidden_word_probs-no-fit"),
    case(
        lambda: trained_encoder.best_guess(
            enc_page.GRAMMAR, (".", "the", "cat"), np.array([[1, 2]]), [0], [1], both=True
        ),
        "tokens",
        "best_guess-no-boundary",
    ),
    case(
        lambda: trained_encoder.trained_encoder(**enc_page.EXPERIMENT | {"masking": {"rate": 0.15}}),
        "masking",
        "trained_encoder-masking-keys",
    ),
    case(
        lambda: trained_encoder.trained_encoder(**enc_page.EXPERIMENT | {"training": {"steps": 5}}),
        "training",
        "trained_encoder-training-keys",
    ),
    case(lambda: trained_encoder.over_seeds(enc_page.EXPERIMENT, ()), "seeds", "trained_encoder-no-seeds"),
    case(
        lambda: bad_encdec(
            source_mask=None,
            cross_mask=None,
            start=transformer.init_stack(0, TRAIN_CFG),
            task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS, doc_ids=np.zeros(TRAIN_TOKENS.shape[1], int))],
        ),
        "doc_ids",
        "train-doc-ids-shape",
    ),
    case(
        lambda: bad_encdec(
            source_mask=None,
            cross_mask=None,
            start=transformer.init_stack(0, TRAIN_CFG),
            task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS, doc_ids=np.zeros(TRAIN_TOKENS.shape, bool))],
        ),
        "doc_ids",
        "train-doc-ids-bool",
    ),
    case(
        lambda: bad_encdec(
            source_mask=None,
            cross_mask=None,
            start=transformer.init_stack(0, TRAIN_CFG),
            self_mask=lambda n: additive_mask(causal_mask(n)),
            task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS, doc_ids=np.zeros(TRAIN_TOKENS.shape, int))],
        ),
        "self_mask",
        "train-doc-ids-float-self-mask",
    ),
    case(lambda: packed_training.first_tokens(np.zeros((1, 3), int), 0), "k", "first_tokens-k-0"),
    case(
        lambda: packed_training.packed_runs({}, model={}, corpus_args={}, training={}, seeds=(0,), first=2),
        "training",
        "packed_runs-training-keys",
    ),
    case(lambda: bad_train(loss_weights=-np.ones(TRAIN_TOKENS.shape)), "loss_weights", "train-loss-weights-negative"),
    case(lambda: bad_train(loss_weights=np.zeros(TRAIN_TOKENS.shape)), "loss_weights", "train-loss-weights-row-sum-0"),
    case(lambda: bad_train(loss_weights=np.ones((1, TRAIN_N))), "loss_weights", "train-loss-weights-shape"),
    case(lambda: bad_train(loss_weights=np.full(TRAIN_TOKENS.shape, np.nan)), "loss_weights", "train-loss-weights-nan"),
    # ---- machines, probe, leak, published (chapters 7 and 9)
    case(lambda: machines.validate_machine("transformer"), "machine", "validate_machine-unknown"),
    case(
        lambda: machines.machine_masks("transformer", 3),
        "machine",
        "machine_masks-unknown-machine",
        "machine must be one of",
    ),
    case(lambda: machines.machine_masks("encoder", 0), "n", "machine_masks-size", "n must be"),
    case(
        lambda: machines.machine_masks("encoder-decoder", 3),
        "m",
        "machine_masks-encoder-decoder-without-m",
        r"m \(the number of source positions\)",
    ),
    case(lambda: machines.machine_masks("encoder-decoder", 3, 0), "m", "machine_masks-m-size", "m must be"),
    case(lambda: machines.machine_masks("decoder", 3, past=-1), "past", "machine_masks-past", "past must be"),
    case(
        lambda: machines.machine_masks("encoder", 3, past=2),
        "past",
        "machine_masks-encoder-past",
        "past must be 0 for the encoder",
    ),
    case(lambda: machines.stack_masks("gpt", 2, 2), "machine", "stack_masks-unknown-machine"),
    case(lambda: machines.stack_masks("decoder", 2, 0), "n_tgt", "stack_masks-size"),
    case(lambda: machines.stack_masks("encoder", 0, 2), "n_src", "stack_masks-n_src-size"),
    case(lambda: machines.reach("encoder", 3, 0), "m", "reach-size", "m must be"),
    case(
        lambda: transformer.run_machine("rnn", np.array([1]), PARAMS, CFG),
        "machine",
        "run-unknown-machine",
        "machine must be one of",
    ),
    case(lambda: transformer.run_machine("encoder-decoder", np.array([1]), PARAMS, CFG), "enc_out", "run-enc_out"),
    case(
        lambda: transformer.run_machine("decoder", np.array([1]), PARAMS, CFG, np.zeros((2, 16))),
        "enc_out",
        "run-enc_out-unwanted",
    ),
    case(lambda: transformer.run_machine("encoder", np.array([99]), PARAMS, CFG), "tokens", "run-tokens-range"),
    case(lambda: probe.nudge(np.array([1, 2]), 5, 10), "j", "nudge-position", "j must be a position"),
    case(lambda: probe.nudge(np.array([1, 2]), -1, 5), "j", "nudge-below-0", "j must be"),
    case(lambda: probe.nudge(np.array([1, 2]), 0, 0), "vocab_size", "nudge-vocab_size-size"),
    case(lambda: probe.nudge(np.array([1.0, 2.0]), 0, 10), "tokens", "nudge-float", "integer ids"),
    case(lambda: probe.movement(lambda t: t, np.arange(3), []), "variants", "movement-empty"),
    case(
        lambda: probe.movement(lambda t: np.asarray(t, float), [1.0, 2.0], [[1.0]]),
        "run",
        "movement-rows",
        "keep base's rows",
    ),
    case(lambda: probe.movement(lambda t: 1.0, [1.0], [[2.0]]), "run", "movement-scalar", "first axis"),
    case(lambda: leak.leak_test(np.array([1, 2, 3]), 5, 4, PARAMS, CFG), "position", "leak_test-position"),
    case(lambda: leak.leak_test(np.array([1, 2]), -1, 3, PARAMS, CFG), "position", "leak_test-position-below-0"),
    case(lambda: leak.leak_test(np.array([1.0, 2.0]), 1, 3, PARAMS, CFG), "tokens", "leak_test-float", "integer ids"),
    case(lambda: leak.leak_test(np.array([1, 2, 3]), 1, 2, PARAMS, CFG), "new_token", "leak_test-same-token", "differ"),
    case(lambda: leak.token_reads(len, np.array([], dtype=int), 5), "tokens", "token_reads-empty"),
    case(lambda: leak.token_reads(len, np.array([1.0, 2.0]), 5), "tokens", "token_reads-float", "integer ids"),
    case(lambda: leak.token_reads(len, np.array([1, 2]), 0), "vocab_size", "token_reads-vocab-size"),
    case(lambda: probe.run_seeded("rnn", np.array([1, 2]), CFG, (0, 1)), "machine", "run_seeded-unknown-machine"),
    case(lambda: probe.run_seeded("encoder-decoder", np.array([1, 2]), CFG, (0, 1)), "source", "run_seeded-source"),
    case(lambda: probe.run_seeded("encoder", np.array([99]), CFG, (0, 1)), "tokens", "run_seeded-tokens-range"),
    case(lambda: machines.machine_for(1, False), "writes_tokens", "machine_for-bool"),
    case(lambda: machines.machine_for(True, None), "reads_separate_input", "machine_for-none"),
    case(lambda: machines.architecture_for("poem"), "output", "architecture_for-unknown"),
    case(lambda: published.same_size("GPT-1"), "names", "same_size-str"),
    case(lambda: published.same_size(("T5-base",)), "names", "same_size-unknown"),
    case(lambda: targets.next_token_pairs([1]), "tokens", "next_token_pairs-size"),
    case(lambda: targets.next_token_pairs([], bos=0), "tokens", "next_token_pairs-bos-size"),
    # ---- encoder-decoder (chapter 8)
    case(lambda: encoder_decoder.two_stack_layout(0, 3), "n_source", "two_stack_layout-size"),
    case(lambda: encoder_decoder.two_stack_layout(2, 0), "n_target", "two_stack_layout-n_target-size"),
    case(
        lambda: encoder_decoder.prompt_layout((), ("a",), ("French", "English")),
        "source",
        "prompt_layout-empty",
        "must not be empty",
    ),
    case(
        lambda: encoder_decoder.teacher_forced(("chien",), ed_page.TARGET, ed_page.VOCAB, *ED_MODEL, ED_CFG),
        "source",
        "teacher_forced-unknown",
        r"unknown \['chien'\]",
    ),
    case(lambda: encoder_decoder.generate(ED_IDS, *ED_MODEL, ED_CFG, 0), "steps", "encoder_decoder.generate-size"),
    case(
        lambda: encoder_decoder.generate(ED_IDS, *ED_MODEL, ED_CFG, 65),
        "steps",
        "encoder_decoder.generate-past-max_len",
        "max_len",
    ),
    case(
        lambda: encoder_decoder.projection_counts(ED_IDS, *ED_MODEL, ED_CFG, 0), "max_steps", "projection_counts-size"
    ),
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
    case(lambda: decoding.measured_ops(65, PARAMS, CFG, True), "n_steps", "measured_ops-past-max_len"),
    case(lambda: counts.count_params(CFG, "transducer"), "machine", "count_params-unknown"),
    case(lambda: counts.count_params(None, "decoder"), "cfg", "count_params-cfg"),
    case(lambda: counts.kv_cache_bytes(CFG, -1), "n_tokens", "kv_cache_bytes-below-0"),
    case(lambda: counts.kv_cache_bytes(CFG, 10.5), "n_tokens", "kv_cache_bytes-float"),
    case(lambda: counts.kv_cache_bytes(CFG, 1, batch=0), "batch", "kv_cache_bytes-batch"),
    case(lambda: counts.kv_cache_bytes(CFG, 1, bytes_per_value=0), "bytes_per_value", "kv_cache_bytes-bytes"),
    case(lambda: counts.format_bytes(-1), "n_bytes", "format_bytes-below-0"),
    case(lambda: published.model("GPT-5"), "name", "model-unknown"),
    case(lambda: published.summary("GPT-5"), "name", "summary-unknown"),
    case(lambda: published.Published("m", "decoder", {"d_model": 8}, "x"), "config", "Published-config"),
    case(lambda: published.Published("", "decoder", CFG, "x"), "name", "Published-name"),
    case(lambda: published.Published("m", "transducer", CFG, "x"), "machine", "Published-unknown-machine"),
    # ---- decoding, the KV cache (chapters 10 and 12)
    case(
        lambda: decoding.temperature_softmax(np.ones(3), 0),
        "temperature",
        "temperature_softmax-T-0",
        "T -> 0 is greedy decoding",
    ),
    case(lambda: decoding.temperature_softmax(np.ones(3), -1.0), "temperature", "temperature_softmax-T-below-0", "> 0"),
    case(lambda: decoding.temperature_softmax(np.array([0.0, np.nan]), 1.0), "logits", "temperature_softmax-nan"),
    case(lambda: decoding.greedy(np.ones((2, 3))), "logits", "greedy-shape", "1-D"),
    case(lambda: decoding.greedy([]), "logits", "greedy-empty", "must not be empty"),
    case(lambda: decoding.greedy(["a"]), "logits", "greedy-text", "numbers"),
    case(lambda: decoding.sample(np.ones(3), 0.0, rng=rng()), "temperature", "sample-T-0", "greedy=True"),
    case(lambda: decoding.sample(NEXT_LOGITS, -1.0, rng=rng()), "temperature", "sample-T-below-0", "> 0"),
    case(lambda: decoding.sample(NEXT_LOGITS, -1.0, greedy=True), "temperature", "sample-greedy-T-below-0", ">= 0"),
    case(lambda: decoding.sample(NEXT_LOGITS, float("nan"), rng=rng()), "temperature", "sample-T-nan", "finite"),
    case(lambda: decoding.sample(NEXT_LOGITS, float("inf"), rng=rng()), "temperature", "sample-T-inf", "finite"),
    case(lambda: decoding.sample(NEXT_LOGITS, True, rng=rng()), "temperature", "sample-T-bool", "number"),
    case(lambda: decoding.sample(NEXT_LOGITS, "1", rng=rng()), "temperature", "sample-T-text", "number"),
    case(lambda: decoding.sample(np.ones(3), 1.0, rng=0), "rng", "sample-rng", "Generator"),
    case(lambda: decoding.sample(NEXT_LOGITS, 1.0), "rng", "sample-no-rng", "Generator"),
    case(lambda: decoding.sample([[1.0, 2.0]], 1.0, rng=rng()), "logits", "sample-shape", "1-D"),
    case(lambda: decoding.sample([], 1.0, rng=rng()), "logits", "sample-empty", "empty"),
    case(lambda: decoding.sample([np.nan, 1.0], 1.0, rng=rng()), "logits", "sample-nan", "finite"),
    case(lambda: decoding.sample(NEXT_LOGITS, 1.0, rng=rng(), top_k=0), "top_k", "sample-top_k-size"),
    case(lambda: decoding.sample(NEXT_LOGITS, 0, greedy=True, top_p=-1), "top_p", "sample-greedy-top_p-below-0"),
    case(lambda: decoding.draw(np.array([0.5, 0.6]), rng()), "probs", "draw-sum", "sum to 1"),
    case(lambda: decoding.draw([1.5, -0.5], rng()), "probs", "draw-below-0", "non-negative"),
    case(lambda: decoding.draw([0.5, 0.5], rng(), 0), "n", "draw-size", "n must be"),
    case(lambda: decoding.frequencies(np.ones(3), 1.0, 0, 0), "n_draws", "frequencies-size"),
    case(lambda: decoding.frequencies(NEXT_LOGITS, 1.0, 10, -1), "seed", "frequencies-seed-below-0"),
    case(lambda: decoding.frequencies(NEXT_LOGITS, 0.0, 10, 0), "temperature", "frequencies-T-0", "greedy"),
    case(lambda: decoding.entropy_nats(np.array([[0.5, 0.5]])), "probs", "entropy_nats-shape"),
    case(
        lambda: decoding.generate(np.array([1]), PARAMS, CFG, -1),
        "n_new",
        "generate-below-0",
        "n_new must be an integer >= 0",
    ),
    case(
        lambda: decoding.generate(np.array([1]), PARAMS, CFG, -2, cached=True),
        "n_new",
        "generate-cached-below-0",
        "n_new must be an integer >= 0",
    ),
    case(
        lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2.5),
        "n_new",
        "generate-float",
        "n_new must be an integer >= 0",
    ),
    case(
        lambda: decoding.generate(np.array([1, 2]), PARAMS, CFG, CFG.max_len),
        "n_new",
        "generate-past-max_len",
        r"len\(prompt\) \+ n_new - 1 must be <= max_len",
    ),
    case(
        lambda: decoding.generate(np.array([1, 2]), PARAMS, CFG, CFG.max_len, cached=True),
        "n_new",
        "generate-cached-past-max_len",
        r"len\(prompt\) \+ n_new - 1 must be <= max_len",
    ),
    case(
        lambda: decoding.generate(np.array([]), PARAMS, CFG, 2),
        "tokens",
        "generate-empty",
        "tokens must be a non-empty 1-D array",
    ),
    case(
        lambda: decoding.generate(np.array([99]), PARAMS, CFG, 2),
        "tokens",
        "generate-tokens-range",
        "tokens must be ids in",
    ),
    case(lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2, greedy=False), "rng", "generate-no-rng", "Generator"),
    case(
        lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2, greedy=False, temperature=0, rng=rng()),
        "temperature",
        "generate-T-0",
        "greedy=True",
    ),
    case(
        lambda: decoding.top_k_filter(np.full(4, 0.25), 0),
        "top_k",
        "top_k_filter-size",
        r"top_k must be an integer in 1\.\.4",
    ),
    case(
        lambda: decoding.top_k_filter([0.5, 0.5], 3),
        "top_k",
        "top_k_filter-past-vocab",
        r"top_k must be an integer in 1\.\.2",
    ),
    case(lambda: decoding.top_k_filter(np.full(4, 0.25), 2.5), "top_k", "top_k_filter-float"),
    case(lambda: decoding.top_k_filter([0.5, 0.5], True), "top_k", "top_k_filter-bool"),
    case(
        lambda: decoding.top_p_filter([0.5, 0.5], 0), "top_p", "top_p_filter-0", r"top_p must be a number in \(0, 1\]"
    ),
    case(lambda: decoding.top_p_filter(np.full(4, 0.25), 1.5), "top_p", "top_p_filter-above-1"),
    case(lambda: decoding.top_p_filter(np.full(4, 0.25), float("nan")), "top_p", "top_p_filter-nan"),
    case(lambda: decoding.top_p_filter([0.5, 0.5], "0.9"), "top_p", "top_p_filter-text"),
    case(lambda: decoding.top_p_filter([0.5, 0.6], 0.9), "probs", "top_p_filter-sum", "sum to 1"),
    case(lambda: decoding.sampling_probs(np.ones(3), 1.0, top_k=4), "top_k", "sampling_probs-top_k-past-vocab"),
    case(
        lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2, greedy=False, top_p=0, rng=rng()),
        "top_p",
        "generate-top_p-0",
    ),
    case(
        lambda: decoding.generate(np.array([1]), PARAMS, CFG, 2, greedy=False, top_k=99, rng=rng()),
        "top_k",
        "generate-top_k-past-vocab",
    ),
    case(
        lambda: counts.total_scores(3, False, table="upper"),
        "table",
        "total_scores-unknown-table",
        "table must be one of",
    ),
    case(lambda: counts.total_rows(3, True, n_layers=0), "n_layers", "total_rows-size"),
    case(lambda: counts.total_rows(-1, True), "n_steps", "total_rows-below-0"),
    case(lambda: counts.speedup(3, "flops"), "work", "speedup-unknown-work", "work must be one of"),
    case(
        lambda: kv_cache.KVCache(CFG, dtype=np.int32), "dtype", "KVCache-dtype", "dtype must be a floating-point type"
    ),
    case(
        lambda: kv_cache.decode_cached(np.array([1]), PARAMS, CFG, kv_cache.KVCache(Config(n_layers=1))),
        "cache",
        "decode_cached-config",
        "cache must be made for the same Config",
    ),
    case(decode_past_max_len, "tokens", "decode_cached-past-max_len", r"start \+ len\(tokens\) must be <= max_len=4"),
    case(
        lambda: kv_cache.decode_cached(np.array([40]), PARAMS, CFG, kv_cache.KVCache(CFG)),
        "tokens",
        "decode_cached-tokens-range",
        "tokens must be ids in",
    ),
    case(
        lambda: kv_cache.decode_cached(np.array([0]), ED_MODEL[1], ED_CFG, enc_kv=[]),
        "enc_kv",
        "decode_cached-enc_kv-layers",
        r"one \(K, V\) per layer",
    ),
    case(
        lambda: kv_cache.decode_step(np.ones(4), np.ones((2, 3)), np.ones((2, 4)), *(np.ones((4, 4)),) * 3),
        "k_cache",
        "decode_step-shape",
        r"k_cache must have shape \[t, 4\]",
    ),
    case(
        lambda: kv_cache.decode_step(np.ones(3), np.zeros((2, 2)), np.zeros(4), W3, W3, W3),
        "v_cache",
        "decode_step-v_cache-shape",
        r"v_cache must have shape \[t, 2\]",
    ),
    case(
        lambda: kv_cache.decode_step(np.ones(3), np.zeros((2, 2)), np.zeros((1, 2)), W3, W3, W3),
        "k_cache",
        "decode_step-cache-rows",
        "k_cache and v_cache must hold the same number of rows",
    ),
    case(
        lambda: kv_cache.decode_step(np.ones((2, 3)), np.zeros((0, 2)), np.zeros((0, 2)), W3, W3, W3),
        "x_new",
        "decode_step-x_new-shape",
        "x_new must be one row",
    ),
    case(
        lambda: kv_cache.decode_step(np.array([1.0, np.nan, 0.0]), np.zeros((0, 2)), np.zeros((0, 2)), W3, W3, W3),
        "x_new",
        "decode_step-nan",
        "x_new must be finite",
    ),
    case(
        lambda: kv_cache.decode_step(np.ones(3), np.zeros((0, 2)), np.zeros((0, 2)), np.ones((4, 2)), W3, W3),
        "w_q",
        "decode_step-w-rows",
        "w_q, w_k and w_v must have d = 3 rows",
    ),
    case(
        lambda: kv_cache.decode_step(np.ones(3), np.zeros((0, 2)), np.zeros((0, 2)), np.ones((3, 5)), W3, W3),
        "w_k",
        "decode_step-d_k",
        "w_q and w_k must give the same d_k",
    ),
    case(
        lambda: kv_cache.old_rows_drift(np.array([1, 2]), 3, PARAMS, CFG, "window"),
        "machine",
        "old_rows_drift-unknown-machine",
        "machine must be one of",
    ),
    case(
        lambda: kv_cache.old_rows_drift(np.array([1, 2]), 3, PARAMS, CFG, "encoder-decoder"),
        "machine",
        "old_rows_drift-machine",
        "machine must be 'encoder' or 'decoder'",
    ),
    case(
        lambda: kv_cache.new_row_dependence(np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 2))),
        "q",
        "new_row_dependence-size",
        "same number of rows n >= 2",
    ),
    # ---- the pipeline (chapters 12 and 13), rounding
    case(lambda: pipeline.tokenize(""), "text", "tokenize-empty", "non-empty"),
    case(lambda: pipeline.tokenize(3), "text", "tokenize-not-text", "non-empty string"),
    case(lambda: pipeline.tokenize("ÿ"), "text", "tokenize-unknown", "outside the toy vocabulary"),
    case(lambda: pipeline.detokenize(np.array([99])), "ids", "detokenize-range", r"\[0, 32\)"),
    case(lambda: pipeline.detokenize([[1]]), "ids", "detokenize-2d", "1-D"),
    case(lambda: pipeline.detokenize([1.0]), "ids", "detokenize-float", "integers"),
    case(
        lambda: pipeline.forward(pipeline.tokenize(PROMPT), PIPE, pipeline.CFG, "gpt"),
        "machine",
        "forward-unknown-machine",
        "machine must be one of",
    ),
    case(
        lambda: pipeline.forward(pipeline.tokenize("ab"), PIPE, pipeline.CFG, "encoder-decoder"),
        "enc_out",
        "forward-enc_out",
    ),
    case(
        lambda: pipeline.forward(
            pipeline.tokenize(PROMPT), PIPE, pipeline.CFG, "decoder", pipeline.source_enc_out("le chat", 1)
        ),
        "enc_out",
        "forward-enc_out-unwanted",
        "enc_out is read only",
    ),
    case(
        lambda: pipeline.dependence(PROMPT, "gpt", "le chat", PIPE, 1),
        "machine",
        "dependence-unknown-machine",
        "machine must be one of",
    ),
    case(
        lambda: pipeline.blocks(np.zeros((3, 16)), PIPE, pipeline.CFG, causal_mask(4)),
        "self_mask",
        "blocks-self_mask-shape",
    ),
    case(
        lambda: pipeline.blocks(
            np.zeros((3, 16)), PIPE, pipeline.CFG, causal_mask(3), np.zeros((2, 16)), full_mask(3, 3)
        ),
        "cross_mask",
        "blocks-cross_mask-shape",
    ),
    case(lambda: image_prefix.patchify(np.ones((5, 5)), 2), "patch", "patchify-divide", "divisible"),
    case(lambda: image_prefix.patchify(np.zeros((4, 3)), 2), "image", "patchify-not-square", "square"),
    case(lambda: image_prefix.patchify(np.zeros((4, 4)), 0), "patch", "patchify-size"),
    case(lambda: image_prefix.patchify(np.zeros(4), 2), "image", "patchify-flat", "dimension"),
    case(lambda: pipeline.run("the cat", PIPE, n_new=-1, temperature=1.0, seed=0), "n_new", "pipeline.run-below-0"),
    case(
        lambda: pipeline.run(PROMPT, PIPE, n_new=60, temperature=1.0, seed=0),
        "n_new",
        "pipeline.run-past-max_len",
        "max_len",
    ),
    case(
        lambda: pipeline.run(PROMPT, PIPE, n_new=8, temperature=0, seed=0), "temperature", "pipeline.run-T-0", "greedy"
    ),
    case(lambda: pipeline.run(PROMPT, PIPE, n_new=8, temperature=1.0, seed=-1), "seed", "pipeline.run-seed-below-0"),
    case(lambda: pipeline.shared_weights(-1), "seed", "shared_weights-seed-below-0"),
    case(lambda: rounding.is_rounding(np.array([np.nan])), "x", "is_rounding-nan"),
    # ---- training (issue 23): the mask in any of its forms, targets, lr, steps, the batch
    case(lambda: bad_train(mask=causal_mask(TRAIN_N + 1)), "self_mask", "train-mask-shape"),
    case(
        lambda: bad_train(mask=np.tri(TRAIN_N, dtype=int)), "self_mask", "train-mask-int-dtype"
    ),  # 0/1 ints: which meaning?
    case(lambda: bad_train(mask=MaskedFill(np.tri(TRAIN_N), 0.0)), "self_mask", "train-masked_fill-float-mask"),
    case(lambda: bad_train(mask=MaskedFill(causal_mask(TRAIN_N), np.nan)), "self_mask", "train-masked_fill-nan"),
    case(lambda: bad_train(mask=MaskedFill(causal_mask(TRAIN_N), "zero")), "self_mask", "train-masked_fill-not-number"),
    case(lambda: bad_train(mask=np.full((TRAIN_N, TRAIN_N), np.nan)), "self_mask", "train-mask-nan"),
    case(
        lambda: bad_train(mask=np.triu(np.ones((TRAIN_N, TRAIN_N), bool), k=1)), "self_mask", "train-fully-masked-row"
    ),  # row N-1 reads nothing
    case(
        lambda: bad_train(mask=additive_mask(np.triu(np.ones((TRAIN_N, TRAIN_N), bool), k=1))),
        "self_mask",
        "train-fully-masked-row-added",
    ),  # the same, added
    case(lambda: bad_train(targets=TRAIN_TARGETS + TRAIN_CFG.vocab_size), "targets", "train-targets-past-vocab"),
    case(lambda: bad_train(targets=TRAIN_TARGETS - 10), "targets", "train-targets-below-0"),
    case(lambda: bad_train(targets=TRAIN_TARGETS[:, :-1]), "targets", "train-targets-shape"),
    case(lambda: bad_train(tokens=TRAIN_TOKENS.astype(float)), "tokens", "train-tokens-float"),
    case(lambda: bad_train(tokens=TRAIN_TOKENS + TRAIN_CFG.vocab_size), "tokens", "train-tokens-past-vocab"),
    case(lambda: bad_train(lr=0.0), "lr", "train-lr-0"),
    case(lambda: bad_train(lr=-0.1), "lr", "train-lr-below-0"),
    case(lambda: bad_train(lr=np.nan), "lr", "train-lr-nan"),
    case(lambda: bad_train(lr=np.inf), "lr", "train-lr-inf"),
    case(lambda: bad_train(steps=0), "steps", "train-steps-0"),
    case(lambda: bad_train(steps=2.5), "steps", "train-steps-float"),
    case(
        lambda: bad_train(tokens=np.zeros((2, 7), int), targets=np.zeros((2, 7), int), mask=causal_mask(7)),
        "tokens",
        "train-past-max_len",
    ),  # > max_len
    case(lambda: bad_train(batch_size=3), "batch_size", "train-batch_size-past-rows"),
    case(lambda: bad_train(start=transformer.init_stack(0, TRAIN_CFG, cross=True)), "start", "train-params-cross"),
    case(lambda: bad_train(mask=None, self_mask=causal_mask(TRAIN_N)), "self_mask", "train-self_mask-not-function"),
    case(lambda: bad_train(tokens=[], targets=[]), "tokens", "train-tokens-empty"),
    case(
        lambda: training.train(
            transformer.init_stack(0, TRAIN_CFG), TRAIN_CFG, [], self_mask=causal_mask, steps=1, lr=0.1
        ),
        "task",
        "train-task-empty",
    ),
    case(lambda: bad_train(every=0), "every", "train-every-0"),
    case(lambda: bad_encdec(cross_mask=None), "source_mask", "train-source_mask-alone"),
    case(lambda: bad_encdec(start=transformer.init_stack(0, TRAIN_CFG)), "start", "train-encdec-one-stack"),
    case(
        lambda: bad_encdec(start=(transformer.init_stack(0, TRAIN_CFG),) * 2),
        "start[1]",
        "train-encdec-decoder-no-cross",
    ),
    case(
        lambda: bad_encdec(cross_mask=lambda n, m: full_mask(n)), "cross_mask", "train-cross_mask-shape"
    ),  # not [n, m]
    case(lambda: bad_encdec(task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS)]), "task", "train-encdec-rows-no-source"),
    case(
        lambda: bad_encdec(task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS, source=TRAIN_TOKENS[:1])]),
        "source",
        "train-encdec-source-rows",
    ),
    case(
        lambda: bad_encdec(
            task=[training.Rows(TRAIN_TOKENS, TRAIN_TARGETS, source=TRAIN_TOKENS + TRAIN_CFG.vocab_size)]
        ),
        "source",
        "train-encdec-source-past-vocab",
    ),
    case(
        lambda: optim.adam_step(transformer.init_stack(0, TRAIN_CFG), {}, {}, 0.1, betas=(0.9, 1.0)),
        "betas",
        "adam-betas",
    ),
    case(lambda: optim.adam_step(transformer.init_stack(0, TRAIN_CFG), {}, {}, 0.1, eps=0.0), "eps", "adam-eps"),
    case(lambda: bad_train(seed=-1), "seed", "train-seed-below-0"),
    case(lambda: bad_train(batch_size=0), "batch_size", "train-batch_size-0"),
    # ---- the corpus and chapter 7's experiment (issue 23)
    # ---- chapter 8's toy translation and its two trainers (issue 32)
    case(
        lambda: translation.translate(("the", "cat", "."), dec_page.GRAMMAR, ed_page.LEXICON, ed_page.HEAD_FINAL),
        "sentence",
        "translate-not-a-sentence",
    ),
    case(
        lambda: translation.translate(
            ("the", "cat", "ate", "the", "fish", "."), dec_page.GRAMMAR, {"the": "lo"}, ed_page.HEAD_FINAL
        ),
        "lexicon",
        "translate-lexicon-missing-word",
    ),
    case(
        lambda: translation.make_pairs(dec_page.GRAMMAR, ed_page.LEXICON | {"a": "lo"}, ed_page.HEAD_FINAL, 0.25, 0),
        "lexicon",
        "make_pairs-lexicon-not-one-to-one",
    ),
    case(
        lambda: translation.make_pairs(dec_page.GRAMMAR, ed_page.LEXICON, ed_page.HEAD_FINAL, 1.5, 0),
        "heldout_share",
        "make_pairs-share-1.5",
    ),
    case(lambda: translator.translators(**TRANSLATION | {"training": {"steps": 5}}), "training", "translator-keys"),
    case(lambda: trained_machines.side_by_side([], [], []), "encoder_runs", "side_by_side-no-runs"),
    case(lambda: trained_machines.train_statement("seeds"), "function", "train_statement-not-a-function"),
    case(lambda: trained_machines.train_statement(translator.seeds), "function", "train_statement-no-train-call"),
    case(
        lambda: translator.translators(**TRANSLATION | {"training": ed_page.TRANSLATION_TRAINING | {"steps": 0}}),
        "training['steps']",
        "translator-steps-0",
    ),
    case(lambda: translator.translators(**TRANSLATION | {"prompt_layers": 0}), "prompt_layers", "translator-layers-0"),
    case(lambda: translator.translators(**TRANSLATION | {"seed": -1}), "seed", "translator-seed-below-0"),
    case(
        lambda: translator.translators(**TRANSLATION | {"model": ed_page.TRANSLATION_MODEL | {"max_len": 8}}),
        "model['max_len']",
        "translator-max_len-too-short",
    ),
    case(lambda: translator.validate_pairs((), ed_page.VOCAB), "pairs", "validate_pairs-empty"),
    case(
        lambda: translator.validate_pairs(((("le", "chat"), ("the",)),), ed_page.VOCAB), "pairs", "validate_pairs-shape"
    ),
    case(
        lambda: translator.train_prompt(
            transformer.init_stack(0, TRAIN_CFG), {}, 0, 2, steps=0, lr=0.1, batch_size=1, seed=0
        ),
        "steps",
        "train_prompt-steps-0",
    ),
    case(lambda: grammar.sentences({"S": ()}, 5, 0), "grammar", "sentences-empty-alternatives"),
    case(lambda: grammar.sentences({"S": (("S", "x"),)}, 5, 0), "grammar", "sentences-endless-recursion"),
    case(lambda: grammar.sentences(dec_page.GRAMMAR, 5, 0, start="X"), "start", "sentences-unknown-start"),
    case(lambda: grammar.sentences(dec_page.GRAMMAR, 0, 0), "n_sentences", "sentences-0"),
    case(lambda: grammar.sentences(dec_page.GRAMMAR, 5, -1), "seed", "sentences-seed-below-0"),
    case(lambda: grammar.all_sentences(dec_page.GRAMMAR, limit=10), "limit", "all_sentences-past-limit"),
    case(lambda: corpus.rows([".", "a", "."], (".", "a"), 2, 5, 0, boundary="."), "n_rows", "rows-too-many"),
    case(lambda: corpus.rows([".", "b", "."], (".", "a"), 2, 1, 0, boundary="."), "words", "rows-unknown-word"),
    case(lambda: corpus.ngram_share([["a"]], ["a", "b"], 2), "texts", "ngram_share-no-ngram"),
    case(
        lambda: broken_masks.mask_runs(**dec_page.EXPERIMENT, runs=("leaky",)),
        "runs",
        "experiment-unknown-run",
    ),
    case(
        lambda: broken_masks.mask_runs(**dec_page.EXPERIMENT | {"training": {"steps": 5}}),
        "training",
        "experiment-training-keys",
    ),
    case(
        lambda: broken_masks.mask_runs(**dec_page.EXPERIMENT | {"training": dec_page.TRAINING | {"every": 0}}),
        "every",
        "experiment-every-0",
    ),
    case(lambda: broken_masks.over_seeds(dec_page.EXPERIMENT, ()), "seeds", "over_seeds-none"),
    case(lambda: trained_decoder.over_seeds(dec_page.EXPERIMENT, ()), "seeds", "trained_decoder-over_seeds-none"),
    case(
        lambda: trained_decoder.trained_decoder(**dec_page.EXPERIMENT | {"training": {"steps": 5}}),
        "training",
        "trained_decoder-training-keys",
    ),
    case(lambda: grammar.split(dec_page.GRAMMAR, 1.0, 0), "heldout_share", "split-share-1"),
    case(lambda: grammar.split(dec_page.GRAMMAR, 0.001, 0), "heldout_share", "split-share-leaves-none"),
    case(lambda: grammar.sentences(dec_page.GRAMMAR, 3, 0, among={("x", ".")}), "among", "sentences-among-foreign"),
    case(lambda: grammar.restricted_probs(dec_page.GRAMMAR, [("x", ".")]), "among", "restricted_probs-among-foreign"),
    case(lambda: grammar.conditional_entropy(dec_page.GRAMMAR, 16, boundary="!"), "boundary", "entropy-boundary"),
    case(lambda: grammar.conditional_entropy(dec_page.GRAMMAR, 0), "n", "entropy-n-0"),
    case(lambda: grammar.ngrams(dec_page.GRAMMAR, 0), "n", "ngrams-n-0"),
    case(
        lambda: grammar.row_probs({"S": (("a", "."),)}, (".", "a"), [[1, 0]], [[0, 1]]),
        "tokens",
        "row_probs-no-boundary",
    ),
    case(
        lambda: grammar.row_probs({"S": (("a", "."),)}, (".", "a"), [[0, 1]], [[1]]),
        "targets",
        "row_probs-shapes",
    ),
    case(lambda: language_model.seeds(-1), "seed", "language_model-seeds-below-0"),
    case(lambda: writing.texts(PARAMS, CFG, ("a", "b"), ["a"], 2, 0, n_samples=0), "n_samples", "texts-n_samples-0"),
    case(lambda: writing.write(PARAMS, CFG, ("a", "b"), ["a", "c"], 2), "prompt", "write-unknown-word"),
    case(
        lambda: writing.next_word_probs(PARAMS, CFG, ("a", "b"), ["c"], [(1.0, None, None)]),
        "prompt",
        "next_word_probs-unknown-word",
    ),
    case(
        lambda: writing.sample_scores(PARAMS, CFG, ("a", "b"), ["a"], [(0.0, None, None)], [0], 2, ["a"]),
        "temperature",
        "sample_scores-T-0",
    ),
    # ---- the mask check kit (chapter 14)
    case(lambda: mask_checks.check_causal("f"), "f", "check_causal-callable", "f must be callable"),
    case(lambda: mask_checks.check_causal(lambda x: x[0]), "f", "check_causal-shape", r"shape \[8, d_out\]"),
    case(lambda: mask_checks.check_causal(lambda x: x[:-1]), "f", "check_causal-rows"),
    case(lambda: mask_checks.check_causal(lambda x: x, n=1), "n", "check_causal-size", "n must be an integer >= 2"),
    case(lambda: mask_checks.check_causal(lambda x: x, n=2.0), "n", "check_causal-float"),
    case(lambda: mask_checks.check_causal(lambda x: x, n=True), "n", "check_causal-bool"),
    case(lambda: mask_checks.check_causal(lambda x: x, d=0), "d", "check_causal-d-size"),
    case(lambda: mask_checks.check_causal(lambda x: x, seed=-1), "seed", "check_causal-seed-below-0"),
    case(lambda: mask_checks.check_padding(None), "f", "check_padding-callable"),
    case(lambda: mask_checks.check_padding(lambda x, valid: x[valid]), "f", "check_padding-shape"),
    case(
        lambda: mask_checks.check_padding(lambda x, valid: x if len(x) == 8 else x[:8]),
        "f",
        "check_padding-longer-shape",
        r"shape \[11, 4\]",
    ),
    case(lambda: mask_checks.check_padding(lambda x, valid: x, n_pad=0), "n_pad", "check_padding-n_pad-size"),
    case(lambda: mask_checks.check_padding(lambda x, valid: x, n_pad=8), "n_pad", "check_padding-n_pad-all", "below n"),
    case(lambda: mask_checks.check_cache(3, lambda x: x), "step", "check_cache-step-callable"),
    case(lambda: mask_checks.check_cache(lambda: None, lambda x: x), "step", "check_cache-step-factory", "decoder"),
    case(lambda: mask_checks.check_cache(lambda: lambda x_t: x_t, "full"), "full", "check_cache-full-callable"),
    case(lambda: mask_checks.check_cache(lambda: lambda x_t: x_t[:2], lambda x: x), "step", "check_cache-step-shape"),
    case(
        lambda: mask_checks.check_cache(lambda: lambda x_t: x_t, lambda x: x.ravel()), "full", "check_cache-full-shape"
    ),
    case(lambda: mask_checks.check_cache(lambda: lambda x_t: x_t, lambda x: x, n=0), "n", "check_cache-size"),
    case(lambda: mask_checks.check_mask(lambda x: x, np.ones((3, 3))), "mask", "check_mask-not-bool", "square bool"),
    case(lambda: mask_checks.check_mask(lambda x: x, np.ones((3, 2), bool)), "mask", "check_mask-not-square"),
    case(lambda: mask_checks.check_mask(lambda x: x, np.ones((1, 1), bool)), "mask", "check_mask-one-position"),
    case(lambda: mask_checks.check_mask("f", np.ones((3, 3), bool)), "f", "check_mask-callable"),
    case(lambda: mask_checks.check_causal(lambda x: x, tol=0), "tol", "check_causal-tol-zero", "between 0 and 1"),
    case(lambda: mask_checks.check_causal(lambda x: x, tol=True), "tol", "check_causal-tol-bool"),
    case(lambda: mask_checks.check_padding(lambda x, valid: x, tol=2.0), "tol", "check_padding-tol-above-1"),
    case(lambda: mask_checks.check_padding(lambda x, valid: x, side="top"), "side", "check_padding-side"),
    case(
        lambda: mask_checks.check_cache(lambda: lambda x_t: x_t, lambda x: x, mask=np.ones((3, 3), bool)),
        "mask",
        "check_cache-mask-shape",
        r"shape \(8, 8\)",
    ),
    # ---- the masks of 2026: packing, sinks, layer patterns, chunked prefill, trees, pages, rings, library forms
    case(lambda: packing.varlen_attention(ONES, ONES, ONES, [0, 1]), "cu", "varlen_attention-cu-short"),
    case(lambda: packing.varlen_attention(ONES, ONES, ONES, [0, 2, 2]), "cu", "varlen_attention-cu-empty-document"),
    case(lambda: packing.varlen_attention(ONES, ONES, ONES[:1], [0, 2]), "q", "varlen_attention-shape"),
    case(lambda: packing.varlen_attention(ONES, ONES, ONES, [0, 2], causal=0), "causal", "varlen_attention-bool"),
    case(lambda: packing.document_positions([0, 1, 0]), "doc_ids", "document_positions-not-contiguous"),
    case(lambda: packing.document_leak([1, 2], [0], 0, 3, PARAMS, CFG), "doc_ids", "document_leak-shape"),
    case(lambda: packing.document_leak([1, 2], [0, 1], 2, 3, PARAMS, CFG), "position", "document_leak-position"),
    case(lambda: packing.document_leak([1, 2], [0, 1], 0, 1, PARAMS, CFG), "new_token", "document_leak-same-token"),
    case(lambda: sinks.sink_softmax(ONES, [1.0, 2.0, 3.0]), "sink_logit", "sink_softmax-shape", "per head"),
    case(lambda: sinks.sink_softmax(ONES, np.nan), "sink_logit", "sink_softmax-nan"),
    case(lambda: sinks.sink_softmax(NAN, 0.0), "scores", "sink_softmax-scores-nan"),
    case(lambda: sinks.sink_softmax(ONES, 0.0, np.ones((2, 4))), "mask", "sink_softmax-mask-dtype"),
    case(lambda: sinks.sink_attention(ONES, np.ones((3, 5)), np.ones((3, 2)), 0.0), "q", "sink_attention-d_k"),
    case(lambda: layer_patterns.reachable([]), "masks", "reachable-empty"),
    case(lambda: layer_patterns.reachable([full_mask(2), full_mask(3)]), "masks", "reachable-shape"),
    case(lambda: layer_patterns.reachable([np.ones((2, 2))]), "masks", "reachable-dtype"),
    case(lambda: layer_patterns.interleaved_kinds(0, 1), "n_layers", "interleaved_kinds-size"),
    case(lambda: layer_patterns.interleaved_kinds(4, -1), "local_per_global", "interleaved_kinds-below-0"),
    case(lambda: layer_patterns.interleaved_kinds(4, 1, local="window"), "local", "interleaved_kinds-local-kind"),
    case(lambda: layer_patterns.cached_tokens(["chunked"], 4, 2), "chunk", "cached_tokens-no-chunk"),
    case(lambda: layer_patterns.layer_masks(4, ["chunked"], 2, chunk=0), "chunk", "layer_masks-chunk-size"),
    case(
        lambda: layer_patterns.pattern_cache_bytes(CFG, ["chunked"] * CFG.n_layers, 4),
        "chunk",
        "pattern_cache_bytes-no-chunk",
    ),
    case(lambda: layer_patterns.layer_masks(4, ["sliding"], 2), "kinds", "layer_masks-unknown-kind"),
    case(lambda: layer_patterns.layer_masks(4, [], 2), "kinds", "layer_masks-no-layers"),
    case(lambda: layer_patterns.lookback(NO_KEY), "reach", "lookback-fully-masked-row"),
    case(lambda: layer_patterns.cached_tokens(["local"], 4, 0), "window", "cached_tokens-window-size"),
    case(lambda: layer_patterns.pattern_cache_bytes(None, ["local"], 4), "cfg", "pattern_cache_bytes-cfg"),
    case(lambda: layer_patterns.pattern_cache_bytes(CFG, ["local"], 4), "kinds", "pattern_cache_bytes-kinds-count"),
    case(lambda: layer_patterns.cache_shape(2, 0, 64, 4), "n_kv_heads", "cache_shape-kv-heads-none"),
    case(lambda: layer_patterns.cache_shape(2, 8, True, 4), "head_dim", "cache_shape-head-dim-bool"),
    case(
        lambda: layer_patterns.pattern_cache_bytes(CFG, ["local"] * CFG.n_layers, 4),
        "cfg.window",
        "pattern_cache_bytes-no-window",
    ),
    case(lambda: chunked_prefill.chunked_prefill(ONES, ONES, ONES, 0), "chunk", "chunked_prefill-chunk-size"),
    case(lambda: chunked_prefill.prefill_mask(0, 2, "bottom_right"), "n", "prefill_mask-size"),
    case(lambda: chunked_prefill.prefill_mask(4, 0, "bottom_right"), "chunk", "prefill_mask-chunk-size"),
    case(lambda: chunked_prefill.prefill_mask(4, 2, "sideways"), "alignment", "prefill_mask-alignment"),
    case(
        lambda: chunked_prefill.chunked_prefill(ONES, ONES, ONES, 1, alignment="top"),
        "alignment",
        "chunked_prefill-unknown-alignment",
    ),
    case(lambda: chunked_prefill.chunked_prefill(ONES, ONES[:1], ONES, 1), "q", "chunked_prefill-shape"),
    case(lambda: chunked_prefill.aligned_causal_mask(2, 3, "left"), "alignment", "aligned_causal_mask-unknown"),
    case(lambda: speculative.tree_depths([0]), "parents", "tree_depths-0-not-a-root"),
    case(lambda: speculative.branch([-1, 0], 2), "node", "branch-node-outside"),
    case(lambda: speculative.branch([-1, 0], True), "node", "branch-node-bool"),
    case(lambda: speculative.tree_pass_mask(0, [-1]), "n_prefix", "tree_pass_mask-size"),
    case(lambda: speculative.verify_tree([1], [2, 3], [-1], PARAMS, CFG), "draft", "verify_tree-shape"),
    case(
        lambda: speculative.verify_tree([1] * CFG.max_len, [2], [-1], PARAMS, CFG),
        "max_len",
        "verify_tree-past-max_len",
    ),
    case(lambda: speculative.accepted_branch(np.ones((1, 3)), [1], [-1]), "pass_logits", "accepted_branch-shape"),
    case(lambda: speculative.bigram_tree(np.ones((2, 3)), 0, (1,)), "table", "bigram_tree-shape"),
    case(lambda: speculative.bigram_tree(np.ones((2, 2)), 2, (1,)), "last", "bigram_tree-last-outside"),
    case(lambda: speculative.bigram_tree(np.ones((2, 2)), 0, ()), "branching", "bigram_tree-no-depth"),
    case(lambda: speculative.bigram_tree(np.ones((2, 2)), 0, (3,)), "branching", "bigram_tree-too-wide"),
    case(lambda: speculative.bigram_tree(np.ones((2, 2)), 0, (0,)), "branching", "bigram_tree-width-size"),
    case(lambda: speculative.bigram_table([1, 2], 0), "vocab_size", "bigram_table-vocab"),
    case(lambda: speculative.bigram_table([1], 3), "ids", "bigram_table-one-id"),
    case(lambda: speculative.bigram_table([0, 3], 3), "ids", "bigram_table-outside"),
    case(lambda: speculative.bigram_table([0.0, 1.0], 3), "ids", "bigram_table-floats"),
    case(lambda: speculative.bigram_table([[0, 1]], 3), "ids", "bigram_table-2d"),
    case(
        lambda: speculative.speculative_greedy([1], 0, np.ones((CFG.vocab_size,) * 2), (1,), PARAMS, CFG),
        "n_new",
        "speculative_greedy-n_new-size",
    ),
    case(
        lambda: speculative.speculative_greedy([1] * CFG.max_len, 1, np.ones((CFG.vocab_size,) * 2), (1,), PARAMS, CFG),
        "max_len",
        "speculative_greedy-past-max_len",
    ),
    case(lambda: paged_cache.PagedCache(0, 2, 1, 1), "n_pages", "PagedCache-size"),
    case(lambda: paged_cache.PagedCache(1, 2, 1, 1).append(0, [1.0, 2.0], [1.0]), "k", "PagedCache-append-shape"),
    case(lambda: paged_cache.PagedCache(1, 2, 1, 1).gather("x"), "seq", "PagedCache-gather-unknown"),
    case(lambda: paged_cache.PagedCache(1, 2, 1, 1).release("x"), "seq", "PagedCache-release-unknown"),
    case(lambda: paged_full_pool(), "pool", "PagedCache-no-free-page", "no free page"),
    case(lambda: paged_cache.wasted_slots([0, 2], 4, 2), "lengths", "wasted_slots-below-1"),
    case(lambda: paged_cache.wasted_slots([5], 4, 2), "lengths", "wasted_slots-longer-than-max_len"),
    case(lambda: paged_cache.wasted_slots([2], 4, 0), "page_size", "wasted_slots-page_size-size"),
    case(lambda: kv_cache.RingCache(0, 1, 1), "window", "RingCache-window-size"),
    case(lambda: kv_cache.RingCache(2, 1, 1, sinks=-1), "sinks", "RingCache-sinks-below-0"),
    case(lambda: kv_cache.ring_decode(ONES, ONES[:1], ONES, 2), "q", "ring_decode-shape"),
    case(lambda: kv_cache.generate_prefix_lm([1, 2], 3, 1, PARAMS, CFG), "prefix", "generate_prefix_lm-prefix-long"),
    case(lambda: kv_cache.generate_prefix_lm([1, 2], 1, 0, PARAMS, CFG), "n_new", "generate_prefix_lm-n_new-size"),
    case(
        lambda: kv_cache.generate_prefix_lm([1] * CFG.max_len, 1, 2, PARAMS, CFG),
        "max_len",
        "generate_prefix_lm-past-max_len",
    ),
    case(
        lambda: kv_cache.prefill_prefix_lm([1, 2], 1, PARAMS, CFG, prefilled_cache()),
        "cache",
        "prefill_prefix_lm-cache-not-empty",
    ),
    case(lambda: conventions.to_additive(np.ones((2, 2))), "mask", "to_additive-dtype"),
    case(lambda: conventions.to_additive(full_mask(2), dtype=int), "dtype", "to_additive-int-dtype"),
    case(lambda: conventions.to_sdpa_bool(np.ones(2, bool)), "mask", "to_sdpa_bool-flat"),
    case(lambda: conventions.from_additive(np.zeros((2, 2), int)), "added", "from_additive-dtype"),
    case(lambda: conventions.from_additive(np.array([[0.0, 1.0]])), "added", "from_additive-bias", "bias"),
    case(lambda: conventions.from_mha_attn_mask(np.zeros((2, 2))), "attn_mask", "from_mha_attn_mask-dtype"),
    case(lambda: conventions.to_key_padding_mask([[1, 0]]), "real", "to_key_padding_mask-dtype"),
    case(lambda: conventions.from_key_padding_mask(np.ones(0, bool)), "key_padding_mask", "from_kpm-empty"),
    case(lambda: conventions.from_hf_attention_mask([[1, 2]]), "attention_mask", "from_hf_attention_mask-not-0-1"),
    case(lambda: conventions.from_hf_attention_mask([[1.0, 0.0]]), "attention_mask", "from_hf_attention_mask-float"),
    case(lambda: conventions.to_hf_4d(full_mask(2)), "mask", "to_hf_4d-shape"),
    case(lambda: conventions.hf_padded_mask([[1, 1]], full_mask(3)), "base", "hf_padded_mask-shape"),
    case(lambda: conventions.hf_padded_mask([[1, 1]], np.ones((2, 2))), "base", "hf_padded_mask-dtype"),
    case(lambda: conventions.from_hf_4d(np.zeros((1, 2, 2, 2))), "added", "from_hf_4d-shape"),
    case(lambda: conventions.packed_ids_from_positions([0.0, 1.0]), "position_ids", "packed_ids-float"),
    case(lambda: conventions.to_flash_varlen([1, 1]), "doc_ids", "to_flash_varlen-not-from-0"),
    case(lambda: conventions.weights_from_labels([-100, -100]), "labels", "weights_from_labels-all-ignored", "0/0"),
    case(lambda: conventions.weights_from_labels([1.0, 2.0]), "labels", "weights_from_labels-float"),
    case(lambda: conventions.weights_from_labels([-1, 2]), "labels", "weights_from_labels-below-0"),
    case(
        lambda: conventions.weights_from_labels([1, 2], ignore_index=True), "ignore_index", "weights_from_labels-bool"
    ),
    case(lambda: conventions.to_flash_window(0), "window", "to_flash_window-size"),
    case(lambda: conventions.flash_mask(2, 2, causal="yes"), "causal", "flash_mask-causal-bool"),
    case(lambda: conventions.flash_mask(2, 2, window_size=(-2, 0)), "window_size", "flash_mask-window-below"),
    case(lambda: conventions.flash_mask(2, 2, window_size=3), "window_size", "flash_mask-window-not-pair"),
    case(lambda: conventions.from_flash_window((-1, -1)), "window_size", "from_flash_window-no-window"),
    case(lambda: conventions.from_flash_window((2, 1)), "window_size", "from_flash_window-right"),
    case(lambda: conventions.window_mod(0), "window", "window_mod-size"),
    case(lambda: conventions.chunked_mod(1.5), "chunk", "chunked_mod-float"),
    case(lambda: conventions.prefix_lm_mod(-1), "prefix", "prefix_lm_mod-below-0"),
    case(lambda: conventions.document_mod([0], causal=None), "causal", "document_mod-causal-bool"),
    case(lambda: conventions.mask_from_mod("causal", 2, 2), "mask_mod", "mask_from_mod-callable"),
    case(lambda: conventions.mask_from_mod(lambda b, h, q, k: q - k, 2, 2), "mask_mod", "mask_from_mod-not-bool"),
    case(lambda: conventions.mask_from_mod(conventions.causal_mod, 0, 2), "n_q", "mask_from_mod-size"),
    case(lambda: conventions.block_kinds(full_mask(2), block=0), "block", "block_kinds-size"),
    case(lambda: conventions.block_kinds(np.ones((1, 2, 2), bool)), "mask", "block_kinds-3d"),
    # ---- the Llama-style block and the real model's loader (issue 44)
    case(lambda: rms_norm(ONES, np.ones(3)), "g", "rms_norm-shape"),
    case(lambda: rms_norm(ONES, np.ones(4), eps=0), "eps", "rms_norm-eps-below-0"),
    case(lambda: rms_norm(NAN, np.ones(2)), "x", "rms_norm-nan"),
    case(lambda: rotate(np.ones((3, 5)), [0, 1, 2]), "d_head", "rotate-odd-d_head", "even"),
    case(lambda: rotate(np.ones((3, 4)), [0, 1]), "positions", "rotate-positions-shape"),
    case(lambda: rotate(np.ones((2, 4)), [0, -1]), "positions", "rotate-positions-below-0"),
    case(lambda: rotate(np.ones((2, 4)), [0.0, 1.0]), "positions", "rotate-positions-float"),
    case(lambda: rotary_angles([0, 1], 4, theta=1.0), "theta", "rotary_angles-theta-size"),
    case(lambda: rotate(np.full((2, 4), np.inf), [0, 1]), "x", "rotate-inf"),
    case(lambda: repeat_kv(np.ones((3, 2, 4)), 4), "n_heads", "repeat_kv-n_heads-size", "multiple"),
    case(
        lambda: grouped_query_attention(np.ones((4, 2, 8)), np.ones((2, 2, 8)), np.ones((2, 3, 8))), "k", "gqa-kv-shape"
    ),
    case(
        lambda: grouped_query_attention(np.ones((2, 2, 4)), np.ones((1, 2, 4)), np.ones((1, 2, 4)), NO_KEY),
        "mask",
        "gqa-fully-masked-row",
    ),
    case(lambda: swiglu(ONES, np.ones((4, 6)), np.ones((4, 5)), np.ones((6, 4))), "w_up", "swiglu-shape"),
    case(lambda: swiglu(ONES, np.ones((4, 6)), np.full((4, 6), np.nan), np.ones((6, 4))), "w_up", "swiglu-weight-nan"),
    case(lambda: toy_llama(ids=[]), "ids", "llama-ids-size"),
    case(lambda: toy_llama(ids=[1, 11]), "ids", "llama-ids-outside-vocabulary", "vocabulary"),
    case(lambda: toy_llama(ids=[1.0, 2.0]), "ids", "llama-ids-float"),
    case(lambda: toy_llama(mask=causal_mask(2)), "mask", "llama-mask-shape"),
    case(lambda: toy_llama(mask=np.ones((3, 3))), "mask", "llama-mask-dtype", "bool"),
    case(lambda: toy_llama(positions=[0, 1]), "positions", "llama-positions-shape"),
    case(lambda: llama_decoder.validate_params({"layers": []}, LLAMA_CFG), "params", "llama-params-shape"),
    case(lambda: pretrained.load("/nonexistent/model.gguf"), "path", "pretrained-load-missing", "make model"),
    case(lambda: pretrained.load(__file__), "path", "pretrained-load-corrupted", "sha256"),
    case(lambda: pretrained.load(__file__, verify=False), "path", "pretrained-load-unknown", "not a readable GGUF"),
    case(lambda: measure.left_padding("The capital", 0, "<|im_end|>"), "pad", "real-model-pad-below-1", ">= 1"),
    case(
        lambda: real_model_figures.attention_maps(["a"], np.zeros((1, 4, 1, 1))), "attn", "real-model-maps-heads", "9"
    ),
    case(lambda: decoder_figures.stretch_means(np.ones(40), [0, 20, 60]), "curve_steps", "stretch-means-past-history"),
    case(lambda: decoder_figures.stretch_means(np.ones(40), [0, 20, 20]), "curve_steps", "stretch-means-not-rising"),
    case(lambda: decoder_figures.stretch_means(np.ones(40), [0]), "curve_steps", "stretch-means-no-stretch"),
    # ---- the notebooks' experiment checks
    case(lambda: six_masks_verdict({"no_mask": None}), "runs", "six-masks-no-causal", "'causal'"),
    # ---- the figure builders' shared checks
    case(lambda: look.phone_layout(go.Figure(), []), "panels", "phone_layout-no-panels"),
    case(lambda: look.phone_layout(go.Figure(), [("xaxis", "yaxis", 0, 10)]), "panels", "phone_layout-zero-height"),
    case(lambda: look.phone_layout(go.Figure(), [("xaxis", "yaxis", 100, 0)], below=-1), "below", "phone_layout-below"),
    case(
        lambda: look.pin_titles(make_subplots(rows=1, cols=2, subplot_titles=("a", "b")), [(1, 1)]),
        "cells",
        "pin_titles-one-cell-short",
    ),
    case(lambda: language.page_lang("fr"), "lang", "page_lang-unknown", "lang must be one of"),
    case(lambda: language.labels("no_such_section", "en"), "section", "labels-unknown"),
    case(
        lambda: add_control(go.Figure(), [("a", [], None), ("b", [], None)], kind="wheel"),
        "kind",
        "add_control-unknown",
    ),
    case(lambda: add_control(go.Figure(), []), "steps", "add_control-no-steps"),
    case(lambda: note("a", 0, 0, on="axes"), "on", "note-unknown-place"),
    case(
        lambda: add_control(go.Figure(), [("a", [], None), ("b", [], None)], active=2), "active", "add_control-active"
    ),
    case(lambda: glossary.glossary_table([], {}, lang="en"), "terms", "glossary_table-size"),
    case(
        lambda: glossary.glossary_table([{"key": "k", "zh": "z", "en": "e"}], {"en": {}}, lang="en"),
        "terms",
        "glossary_table-missing-field",
    ),
    case(lambda: integer(1.5, "zh"), "n", "integer-float", "whole number"),
    case(lambda: integer(True, "en"), "n", "integer-bool", "whole number"),
]


@pytest.mark.parametrize("call, arg, match", TABLE)
def test_bad_input_raises_an_error_that_names_the_argument(call, arg, match):
    with pytest.raises(ValueError) as info:
        call()
    assert re.search(rf"(?<![\w.]){re.escape(arg)}(?!\w)", str(info.value)), (
        f"message does not name {arg!r}: {info.value}"
    )
    assert match is None or re.search(match, str(info.value)), f"message does not match {match!r}: {info.value}"


def test_the_table_covers_every_kind_of_bad_input():
    ids = [p.id for p in TABLE]
    for kind in ("size", "below-0", "shape", "nan", "inf", "fully-masked-row", "T-0", "unknown", "float"):
        assert any(kind in i for i in ids), kind
    assert len(ids) == len(set(ids))
