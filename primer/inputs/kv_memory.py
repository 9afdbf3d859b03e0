"""Inputs of chapter 11 (kv-memory): the published models whose KV cache is measured, and the lengths."""

CACHE_MODELS = ("Llama-2-7B", "Llama-2-13B", "Llama-2-70B", "Mistral-7B", "GPT-2")  # used in chapter 11
PER_TOKEN_MODEL = "Llama-2-7B"  # the model whose one-token cache is taken apart; used in chapter 11
CONTEXT_LENGTHS = (1, 512, 1024, 2048, 4096)  # the context table's rows; used in chapter 11
SLIDER_LENGTHS = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768)  # the fill chart's slider; used in chapter 11
