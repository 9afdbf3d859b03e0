from primer import softmax
from primer.figures import attention as figures
from primer.inputs.attention import SCORE_K, SCORE_Q, SCORE_V, SCORE_W_BILINEAR, SCORE_W_K, SCORE_W_Q
from primer.scores import additive_score, bilinear_score, dot_score, scaled_dot_score

# One query, four keys; every score function sees exactly the same vectors.
scores = {
    "additive": additive_score(SCORE_Q, SCORE_K, SCORE_W_Q, SCORE_W_K, SCORE_V)[0],
    "dot": dot_score(SCORE_Q, SCORE_K)[0],
    "bilinear": bilinear_score(SCORE_Q, SCORE_K, SCORE_W_BILINEAR)[0],
    "scaled": scaled_dot_score(SCORE_Q, SCORE_K)[0],
}
weights = {name: softmax(s) for name, s in scores.items()}
print(figures.scores_table(scores, weights))
