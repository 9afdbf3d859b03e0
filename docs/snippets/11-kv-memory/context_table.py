from primer.counts import format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.inputs.kv_memory import CONTEXT_LENGTHS, PER_TOKEN_MODEL
from primer.published import model

llama = model(PER_TOKEN_MODEL).config  # Llama-2-7B
rows = [(n, kv_cache_bytes(llama, n)) for n in CONTEXT_LENGTHS]  # grows linearly with the context
print(figures.context_table(rows, format_bytes, bold=llama.max_len))
