"""Inputs of chapter 6 (encoder), shared with chapter 7 (decoder): the seed of the tiny stack both run, and the
masked-LM experiment of chapter 6."""

SEED = 0  # the weights' seed of primer's tiny stack over primer.vocab.CAT_VOCAB; used in chapters 6 and 7
# The draw of the masking example (mlm.mask_tokens on mlm.LONG_SENTENCE): its three picks show all three cases of
# the 80/10/10 rule, one [MASK], one random word, one kept; used in chapter 6
MASKING_EXAMPLE_SEED = 54

# ---- an encoder trained with the masked-LM objective (chapter 6)

# Chapter 7's grammar with one change: each verb has its own right-hand side, so the words after a hidden verb
# name it ("the cat [MASK] on the mat" can only be "sat"), while the words before it never do.
GRAMMAR = {
    "S": (("SUBJECT", "VERB_PHRASE", "."),),
    "SUBJECT": (("the", "ANIMAL"), ("a", "ANIMAL")),
    "ANIMAL": (("cat",), ("dog",), ("bird",), ("fox",)),
    "VERB_PHRASE": (("sat", "on", "PLACE"), ("sang", "in", "TREE"), ("ate", "FOOD"), ("chased", "SUBJECT")),
    "PLACE": (("the", "mat"), ("the", "rug"), ("a", "mat"), ("a", "rug")),
    "TREE": (("the", "tree"), ("a", "tree")),
    "FOOD": (("the", "fish"), ("a", "fish"), ("the", "egg"), ("an", "egg")),
}
CORPUS = dict(heldout_share=0.25, n_sentences=400, n_heldout_sentences=200, n=8, n_rows=192, n_heldout_rows=96)
MODEL = dict(d_model=16, n_heads=2, d_ff=32, n_layers=2, max_len=32)  # chapter 7's sizes
TRAINING = dict(steps=200, lr=0.02, batch_size=32)  # 200, not 300: the training budget (bench/bench_training.py)
MASKING = dict(rate=0.15, draws=4)  # BERT's rate and its 80/10/10 rule; each training row masked `draws` ways
SEEDS = (0, 1, 2, 3, 4)  # each fixes the split, the texts, the rows, the masking, the initial weights and the batches
EXPERIMENT = dict(grammar=GRAMMAR, model=MODEL, corpus_args=CORPUS, training=TRAINING, masking=MASKING, seed=SEEDS[0])
