from primer.counts import count_params, format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.inputs.kv_memory import PER_TOKEN_MODEL
from primer.published import model

llama = model(PER_TOKEN_MODEL)  # Llama-2-7B
n_params = sum(count_params(llama.config, llama.machine).values())  # counted from the published shape
n = llama.config.max_len  # its published context
print(
    figures.weights_table(
        llama.name,
        n_params,
        n,
        2 * n_params,  # FP16: 2 bytes a parameter
        kv_cache_bytes(llama.config, n),
        format_bytes,
    )
)
