"""The notebooks' exercises, by name: run the reader's function against primer's on each exercise's inputs.

`grade(name, fn)` prints, in the notebook's language (primer.language.page_lang, set by `use_language`), that fn
passed, or the first input where it differs and how; a stub (raising NotImplementedError or
returning None) gets "not yet". Each exercise's reference is primer's own function.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from primer import counts, machines, masks
from primer.attention import attention
from primer.backprop import cross_entropy, softmax_backward
from primer.config import Config
from primer.decoding import temperature_softmax, top_k_filter, top_p_filter
from primer.encoder_decoder import two_stack_layout
from primer.kv_cache import RingCache, decode_step
from primer.machines import machine_for
from primer.notebook import cases
from primer.notebook.compare import message, same_array, same_mask, same_number, same_parts, same_value, same_weights
from primer.position import sinusoidal_encoding
from primer.published import MODELS
from primer.rnn import rnn_forward
from primer.scores import additive_score, scaled_dot_score
from primer.self_cross_heads import merge_heads, split_heads
from primer.seq2seq import bahdanau_attention
from primer.sinks import sink_softmax
from primer.softmax import masked_softmax, softmax
from primer.speculative import tree_pass_mask
from primer.targets import next_token_pairs
from primer.wild_bugs import FP16_MIN, masked_bias_fix, safe_softmax


@dataclass(frozen=True)
class Exercise:
    """One exercise: primer's answer, the inputs it is checked on, and how two answers are compared."""

    reference: Callable
    cases: Callable  # () -> list of keyword-argument dicts, random and edge cases
    compare: Callable = same_array
    weights_of: str | None = None  # compare with same_weights, reading the mask from this argument


def _kv_bytes(n_layers, n_kv_heads, d_head, n_tokens, batch, bytes_per_value):
    cfg = Config(d_model=n_kv_heads * d_head, n_heads=n_kv_heads, n_layers=n_layers)
    return counts.kv_cache_bytes(cfg, n_tokens, batch=batch, bytes_per_value=bytes_per_value)


EXERCISES = {
    "rnn_forward": Exercise(lambda x, w, u, b: rnn_forward(x, w, u, b), cases.rnn),
    "cross_entropy_error": Exercise(lambda z, y: softmax(z) - np.eye(z.shape[1])[y], cases.logits_and_targets),
    "additive_score": Exercise(additive_score, cases.additive),
    "alignment_weights": Exercise(
        lambda s, h, w_s, w_h, v: bahdanau_attention(s, h, w_s, w_h, v)[1], cases.bahdanau, same_weights
    ),
    "scaled_dot_score": Exercise(scaled_dot_score, cases.qk),
    "softmax": Exercise(softmax, cases.softmax_rows, same_weights),
    "split_heads": Exercise(lambda x, h: split_heads(x, h), cases.split),
    "merge_heads": Exercise(merge_heads, cases.merge),
    "sinusoidal_encoding": Exercise(sinusoidal_encoding, cases.sinusoid),
    "causal_mask": Exercise(lambda n: masks.causal_mask(n), cases.sizes, same_mask),
    "masked_softmax": Exercise(
        lambda scores, mask: masked_softmax(scores, mask), cases.masked_scores, weights_of="mask"
    ),
    "window_mask": Exercise(masks.window_mask, cases.windows, same_mask),
    "full_mask": Exercise(lambda n: masks.full_mask(n), cases.sizes, same_mask),
    "masked_softmax_backward": Exercise(softmax_backward, cases.softmax_grads),
    "masked_lm_loss": Exercise(cross_entropy, cases.masked_lm, same_number),
    "masked_attention": Exercise(lambda q, k, v, mask: attention(q, k, v, mask)[0], cases.qkv_mask),
    "next_token_pairs": Exercise(
        lambda tokens, bos: next_token_pairs(tokens, bos), cases.tokens, same_parts(same_value)
    ),
    "reads_future": Exercise(lambda mask: bool(np.triu(mask, 1).any()), cases.reads_future, same_value),
    "cross_mask": Exercise(lambda n, m: masks.full_mask(n, m), cases.rectangles, same_mask),
    "two_stack_mask": Exercise(
        lambda n_source, n_target: two_stack_layout(n_source, n_target)[0], cases.two_stacks, same_mask
    ),
    "masks_for": Exercise(
        lambda machine, n, m: machines.machine_masks(machine, n, m), cases.machine_shapes, same_parts(same_mask)
    ),
    "machine_for": Exercise(machine_for, cases.choices, same_value),
    "decode_step": Exercise(decode_step, cases.decode_steps, same_parts(same_array)),
    "cached_causal_mask": Exercise(masks.causal_mask, cases.cached_sizes, same_mask),
    "kv_cache_bytes": Exercise(_kv_bytes, cases.kv_shapes, same_value),
    "model_kv_bytes": Exercise(lambda cfg, n_tokens: counts.kv_cache_bytes(cfg, n_tokens), cases.kv_models, same_value),
    "temperature_softmax": Exercise(temperature_softmax, cases.temperatures, same_weights),
    "top_p_filter": Exercise(top_p_filter, cases.top_p, same_weights),
    "top_k_filter": Exercise(top_k_filter, cases.top_k, same_weights),
    "image_prefix_reads": Exercise(cases.prefix_reads, cases.prefix, same_mask),
    "top_source_share": Exercise(
        lambda weights, gold: (weights.argmax(axis=-1) == gold).mean(axis=-1), cases.cross_maps
    ),
    "self_attention": Exercise(lambda x, mask: attention(x, x, x, mask)[0], cases.self_attention_x),
    "fix_masked_bias": Exercise(masked_bias_fix, cases.bug_rows),
    "fix_fp16_scores": Exercise(
        lambda scores, mask: np.where(mask, scores.astype(np.float16), np.float16(FP16_MIN)).astype(float),
        cases.bug_fp16,
    ),
    "fix_transposed": Exercise(lambda n: masks.causal_mask(n), cases.bug_sizes, same_mask),
    "fix_not_inverted": Exercise(lambda n: masks.causal_mask(n), cases.bug_sizes, same_mask),
    "fix_not_in_place": Exercise(lambda scores, valid: np.where(valid[None, :], scores, -1e9), cases.bug_pad_scores),
    "fix_query_axis": Exercise(
        lambda valid: np.broadcast_to(valid[None, :], (len(valid),) * 2), cases.bug_valid, same_mask
    ),
    "fix_empty_rows": Exercise(safe_softmax, cases.bug_empty_rows),
    "fix_top_left": Exercise(lambda t: masks.causal_mask(1, t), cases.bug_cached, same_mask),
    "fix_window": Exercise(masks.window_mask, cases.windows, same_mask),
    "document_mask": Exercise(masks.document_mask, cases.packed_rows, same_mask),
    "cu_seqlens": Exercise(masks.cu_seqlens, cases.packed_rows),
    "prefix_lm_mask": Exercise(masks.prefix_lm_mask, cases.prefixes, same_mask),
    "chunk_mask": Exercise(masks.causal_mask, cases.chunks, same_mask),
    "tree_pass": Exercise(tree_pass_mask, cases.draft_trees, same_mask),
    "paged_gather": Exercise(
        lambda pool, block_table, length: pool[block_table].reshape(-1, pool.shape[2])[:length], cases.page_pools
    ),
    "chunked_mask": Exercise(masks.chunked_mask, cases.chunk_sizes, same_mask),
    "sink_softmax": Exercise(sink_softmax, cases.sink_scores),
    "ring_slot": Exercise(
        lambda t, window, sinks: RingCache(window, 1, 1, sinks=sinks).slot(t), cases.ring_slots, same_value
    ),
    "window_with_sinks": Exercise(
        lambda n, window, sinks: masks.window_mask(n, window, sinks=sinks), cases.sink_windows, same_mask
    ),
    "left_padding_mask": Exercise(
        lambda n_real, n_pad: masks.batch_mask([n_real], n_pad + n_real, causal=True, side="left")[0],
        cases.left_pads,
        same_mask,
    ),
}


def _show(value):
    if isinstance(value, np.ndarray):
        if value.size <= 12:
            text = np.array2string(value.astype(int) if value.dtype == bool else value, precision=3, separator=", ")
            return " ".join(text.split())
        return f"<array {value.shape}>"
    if isinstance(value, Config):
        name = next((m.name for m in MODELS.values() if m.config == value), None)
        return f"published.model({name!r}).config" if name else repr(value)  # as the notebook imports it
    return repr(value)


def verdict(name, fn):  # -> (status, message); status is 'passed', 'not_yet' or 'failed'
    """Run fn on every input of exercise `name` and compare with primer's answer; never raises on fn's account."""
    if name not in EXERCISES:
        raise ValueError(f"name must be one of {tuple(EXERCISES)}, got {name!r}")
    ex = EXERCISES[name]
    cases = ex.cases()
    for case in cases:
        call = f"{name}({', '.join(f'{k}={_show(v)}' for k, v in case.items())})"
        want = ex.reference(**case)
        try:
            got = fn(**{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in case.items()})
        except NotImplementedError:
            return "not_yet", message("not_yet", name=name)
        except Exception as error:  # the reader's code: report it, do not stop the notebook
            return "failed", message(
                "failed", name=name, call=call, why=message("raised", error=f"{type(error).__name__}: {error}")
            )
        if got is None:
            return "not_yet", message("not_yet", name=name)
        why = same_weights(got, want, case[ex.weights_of]) if ex.weights_of else ex.compare(got, want)
        if why is not None:
            return "failed", message("failed", name=name, call=call, why=why)
    return "passed", message("passed", name=name, n=len(cases))


def grade(name, fn):
    """Print whether the reader's fn answers exercise `name` as primer does, in the notebook's language."""
    print(verdict(name, fn)[1])
