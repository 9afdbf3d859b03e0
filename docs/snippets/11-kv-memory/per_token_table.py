from primer.counts import format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.inputs.kv_memory import PER_TOKEN_MODEL
from primer.published import model

llama = model(PER_TOKEN_MODEL).config  # Llama-2-7B: 32 layers, hidden 4096, 32 heads, all of them KV heads
per_token = kv_cache_bytes(llama, 1, bytes_per_value=2)  # fp16: 2 bytes per value
print(figures.per_token_table(llama, 2, per_token, format_bytes))
