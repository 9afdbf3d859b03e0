from primer import attention, full_mask
from primer.figures import self_cross_heads as figures
from primer.inputs.self_cross_heads import CROSS_SOURCE, CROSS_SOURCE_X, CROSS_TARGET, CROSS_TARGET_X

# Queries from the target sentence, keys and values from the source: a 3 x 5 rectangle, all open.
n_q, n_k = len(CROSS_TARGET), len(CROSS_SOURCE)
out, weights = attention(CROSS_TARGET_X, CROSS_SOURCE_X, CROSS_SOURCE_X, full_mask(n_q, n_k))
print(f"weights.shape = {weights.shape}, out.shape = {out.shape}\n")
print(figures.cross_table(CROSS_SOURCE, CROSS_TARGET, weights))
