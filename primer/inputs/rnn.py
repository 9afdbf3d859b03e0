"""Inputs of chapter 1 (rnn): the far-apart sentences and the gradient experiment's sizes."""

# 虽然 ... 但是 is one construction whose two halves sit far apart; used in chapter 1.
SENTENCE = "虽然这场雨从早上一直下到晚上，但是比赛照常进行"
HEAD, TAIL = "虽", "但"
# A second sentence counted the same way: 把 opens a phrase that only 还 closes.
BA_SENTENCE, BA_HEAD, BA_TAIL = "我把昨天在图书馆借的那本书还了", "把", "还"

# The gradient experiment: hidden size d, input size d_in, how small the inputs are, the seed;
# passed to primer.rnn.gradient_norms as keywords.
EXPERIMENT = dict(d=16, d_in=4, input_scale=0.01, seed=0)
RADII = (0.5, 0.8, 1.0, 1.2, 1.5)  # the spectral radii the figure offers; used in chapter 1
STEPS = tuple(range(5, 65, 5))  # the sequence lengths its slider runs through; used in chapter 1
