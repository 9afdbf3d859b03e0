from primer.chunked_prefill import aligned_causal_mask
from primer.figures import serving as figures
from primer.figures.html import to_html
from primer.inputs.serving import FIGURE_CHUNK, FIGURE_N

# Each chunk's queries are the last rows of the keys the cache holds once the chunk's own keys are appended
masks = []
for start in range(0, FIGURE_N, FIGURE_CHUNK):
    end = min(start + FIGURE_CHUNK, FIGURE_N)
    c = end - start
    masks.append((start, aligned_causal_mask(c, end, "bottom_right"), aligned_causal_mask(c, end, "top_left")))
print(to_html(figures.chunk_masks(masks, FIGURE_N), div_id="fig-chunk-masks"))
