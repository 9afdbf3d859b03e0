import torch


def kv_cache_bytes(n_layers, n_kv_heads, d_head, n_tokens, batch=1, bytes_per_value=2):
    # K and V (the 2), for every layer, KV head, head dimension, token and sequence in the batch
    return 2 * n_layers * n_kv_heads * d_head * n_tokens * batch * bytes_per_value


# A real cache of a small shape, in fp16: one K and one V tensor per layer, [kv_heads, tokens, d_head].
n_layers, n_kv_heads, d_head, n_tokens = 4, 2, 8, 10
cache = [torch.zeros(n_kv_heads, n_tokens, d_head, dtype=torch.float16) for _ in range(2 * n_layers)]
print(
    "formula:",
    kv_cache_bytes(n_layers, n_kv_heads, d_head, n_tokens),
    "bytes;",
    "torch nbytes:",
    sum(t.nbytes for t in cache),
    "bytes",
)
print("Llama-2-7B, one token:", kv_cache_bytes(32, 32, 4096 // 32, 1) // 1024, "KiB")
