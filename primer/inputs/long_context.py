"""Inputs of chapter 16 (long context): the stacks, the released shapes, the scores and sizes the page uses."""

# The reachable set: a short text, a small window, up to six layers; used in chapter 16
N_REACH, WINDOW_REACH, MAX_LAYERS = 24, 4, 6
# Local layers per global one (interleaved_kinds): None is window-only, 1 is Gemma 2's and gpt-oss's alternation,
# 5 is Gemma 3's 5:1; used in chapter 16
PATTERNS = {"window_only": None, "one_to_one": 1, "five_to_one": 5}

# Released shapes: layers, KV heads, head dimension, window, local layers per global one, and where each was read.
# Only what the KV cache depends on is kept (primer.layer_patterns.cache_shape). Used in chapter 16.
RELEASED = {
    "Gemma 2 9B": (42, 8, 256, 4096, 1, "gemma2"),
    "Gemma 3 4B": (34, 4, 256, 1024, 5, "gemma3"),
    "gpt-oss": (36, 8, 64, 128, 1, "gptoss"),
}
# Released shapes whose local layers are chunked (chunked_mask): layers, KV heads, head dimension, chunk, chunked
# layers per global one, and where each was read. Llama 4 Scout: transformers' Llama4TextConfig defaults (every fourth
# layer NoPE) and Meta's reference model.py (a NoPE layer reads under the global mask, the others chunked). Chapter 16.
RELEASED_CHUNKED = {
    "Llama 4 Scout": (48, 8, 128, 8192, 3, "llama4"),
}
CONTEXT = 32768  # tokens in the KV cache table; used in chapter 16
BYTES_PER_VALUE = 2  # BF16; used in chapter 16

# Llama 4's chunk size (configuration_llama4.py's attention_chunk_size); used in chapter 16
LLAMA4_CHUNK = 8192

# One row of scores for the sinks section: key 0 scores high, as a sink does; used in chapter 16
SINK_SEED, SINK_KEYS, SINK_BOOST, SINK_WINDOW, SINK_LOGIT = 16, 10, 3.0, 4, 1.0

# The chunked mask printed whole, and the sizes of the cache figure; used in chapter 16
CHUNK_SHOWN_N, CHUNK_SHOWN = 8, 4
HELD_N, HELD_SIZES = 48, (4, 8, 16)

# The ring-buffer decode: seeded q, k, v; used in chapter 16
RING_SEED, RING_N, RING_D, RING_WINDOWS, RING_SINKS = 16, 40, 8, (4, 8, 16), 2

# The leak test (chapter 7's trained decoder on its first held-out row, cut to KIT_N tokens) and the check kit (one
# seeded attention head of width KIT_D) on the chapter's masks: a window with sinks and chunks; used in chapter 16
KIT_SEED, KIT_D, KIT_N, KIT_WINDOW, KIT_SINKS, KIT_CHUNK = 0, 8, 12, 3, 1, 4
