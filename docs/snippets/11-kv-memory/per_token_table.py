from primer.figures import memory as figs
from primer.memory import SHAPES, format_bytes, shape_bytes

llama = SHAPES["Llama-2-7B"]                        # 32 layers, hidden 4096, 32 heads, all of them KV heads
per_token = shape_bytes(llama, n_tokens=1, bytes_per_value=2)   # fp16: 2 bytes per value
print(figs.per_token_table(llama, 2, per_token, format_bytes))
