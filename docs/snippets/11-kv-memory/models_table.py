from primer.counts import format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.inputs.kv_memory import CACHE_MODELS
from primer.published import model

rows = []
for name in CACHE_MODELS:
    c = model(name).config  # the published shape
    rows.append((name, c, kv_cache_bytes(c, 1), kv_cache_bytes(c, c.max_len)))  # fp16, batch 1
print(figures.models_table(rows, format_bytes))
