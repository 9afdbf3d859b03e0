"""Inputs of chapter 3 (attention): the score-function vectors, the d_k values, the gradient-check draws, cost sizes."""

import numpy as np

# The score table: one query, four keys, the same vectors under every score function. Hand-picked
# so the four functions disagree visibly; the learned matrices are seeded draws.
SCORE_Q = np.array([[1.0, 0.5, -0.5, 1.0]])
SCORE_K = np.array(
    [
        [1.0, 0.5, -0.5, 1.0],  # the query's own direction
        [2.0, 1.0, -1.0, 2.0],  # same direction, twice as long
        [0.0, 1.0, 1.0, 0.0],  # orthogonal to the query
        [-1.0, 0.0, 0.5, -1.0],
    ]
)  # pointing away
_rng = np.random.default_rng(3)
SCORE_W_BILINEAR = _rng.normal(scale=0.5, size=(4, 4))  # [d_q, d_k]
SCORE_W_Q = _rng.normal(scale=0.5, size=(4, 8))  # [d_q, d_a]
SCORE_W_K = _rng.normal(scale=0.5, size=(4, 8))  # [d_k, d_a]
SCORE_V = _rng.normal(size=8)  # [d_a]

VARIANCE_DKS = (4, 16, 64, 256, 1024)  # the d_k of the variance table and chart; used in chapter 3

# The gradient check: six positions, width four, seeded draws.
_rng = np.random.default_rng(11)
GRAD_X = _rng.normal(size=(6, 4))
GRAD_W_Q, GRAD_W_K, GRAD_W_V = (_rng.normal(scale=0.7, size=(4, 4)) for _ in range(3))
del _rng

# The cost table and chart: the original Transformer's d_model, and the lengths.
COST_D = 512
COST_NS = (100, 256, 512, 1000, 4096)
