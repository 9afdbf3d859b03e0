import numpy as np

from primer import mlm
from primer.experiments import trained_encoder
from primer.figures import encoder as figures
from primer.inputs.encoder import EXPERIMENT, GRAMMAR
from primer.language import labels

run = trained_encoder.trained_encoder(**EXPERIMENT)  # trained once per build; chapter 9 reuses it
words = [".", *mlm.SENTENCE, "."]  # . the cat [MASK] on the mat .
position = mlm.MASKED_POSITION + 1
probs = {
    "grammar_left": trained_encoder.grammar_fill(GRAMMAR, run.vocab, words, position, "left"),
    "encoder_left": trained_encoder.fill(run, words, position, "left"),  # the same weights under the causal mask
    "grammar_both": trained_encoder.grammar_fill(GRAMMAR, run.vocab, words, position, "both"),
    "encoder_both": trained_encoder.fill(run, words, position, "both"),  # the full mask it was trained under
}


def top(p, k=3):  # the k likeliest words, and any more tied with the first (a tie is shown whole)
    order = [i for i in np.argsort(-p, kind="stable") if p[i] > 0]
    return [(run.vocab[i], p[i]) for rank, i in enumerate(order) if rank < k or p[i] > p[order[0]] - 1e-12]


guesses = {who: top(p) for who, p in probs.items()}
print(figures.mlm_guesses_table(guesses))
text = labels("encoder_tables")
print(text["seen_yes" if tuple(words[1:]) in run.data.train_part else "seen_no"].format(s=" ".join(words[1:])))
