from primer.inputs.long_context import CHUNK_SHOWN, CHUNK_SHOWN_N
from primer.masks import chunked_mask

mask = chunked_mask(CHUNK_SHOWN_N, CHUNK_SHOWN)  # rows: queries i; columns: keys j; 1: i may read j
print(f"```text\n{mask.astype(int)}\n```")
