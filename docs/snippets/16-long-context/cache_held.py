from primer.figures import long_context as figures
from primer.figures import to_html
from primer.inputs.long_context import HELD_N, HELD_SIZES
from primer.masks import causal_mask, chunked_mask, window_mask

held = {
    size: {  # row t's open keys: what query t reads, so what the cache must hold when t is decoded
        "global": causal_mask(HELD_N).sum(axis=1),
        "window": window_mask(HELD_N, size).sum(axis=1),
        "chunked": chunked_mask(HELD_N, size).sum(axis=1),
    }
    for size in HELD_SIZES
}
print(to_html(figures.cache_held(held), div_id="fig-cache-held"))
