"""Inputs of chapter 7 (decoder): the word the leak test changes in mlm.SENTENCE, and the two same-size models."""

CHANGED_POSITION, CHANGED_WORD = 5, "rug"  # "the cat sat on the rug"; used in chapter 7
SAME_SIZE = ("BERT-base", "GPT-1")  # one encoder and one decoder of the same shape; used in chapter 7

# ---- training under broken masks (chapter 7; its causal model also in chapters 10 and 12)

# The corpus: sentences drawn from this grammar. A symbol maps to its alternatives, each equally likely;
# anything that is not a symbol is a word. "." ends a sentence and starts every row and prompt.
GRAMMAR = {
    "S": (("SUBJECT", "VERB_PHRASE", "."),),
    "SUBJECT": (("the", "ANIMAL"), ("a", "ANIMAL")),
    "ANIMAL": (("cat",), ("dog",), ("bird",), ("fox",)),
    "VERB_PHRASE": (("sat", "on", "PLACE"), ("slept", "on", "PLACE"), ("sang", "in", "TREE"), ("ate", "FOOD")),
    "PLACE": (("the", "mat"), ("the", "rug"), ("a", "mat"), ("a", "rug"), ("the", "bed")),
    "TREE": (("the", "tree"), ("a", "tree")),
    "FOOD": (("the", "fish"), ("a", "fish"), ("the", "egg"), ("an", "egg")),
}
CORPUS = dict(
    heldout_share=0.25,  # a quarter of the grammar's sentences never appear in the training text
    n_sentences=400,
    n_heldout_sentences=200,
    n=16,
    n_rows=96,
    n_heldout_rows=48,
)  # rows of 16 tokens, each with 16 targets
MODEL = dict(d_model=16, n_heads=2, d_ff=32, n_layers=2, max_len=32)
TRAINING = dict(steps=200, lr=0.02, batch_size=16, every=20)  # the same for every run; every: honest loss measured
SEEDS = (0, 1, 2, 3, 4)  # each fixes the split, the texts, the rows, the initial weights and the batches
EXPERIMENT = dict(grammar=GRAMMAR, model=MODEL, corpus_args=CORPUS, training=TRAINING, seed=SEEDS[0])  # the one shown
PROMPTS = (". the cat", ". a dog", ". the bird sat")  # every model continues these
N_NEW = 12  # words written after each prompt
N_SAMPLES = 4  # sampled continuations per prompt (the first is shown), besides the greedy one
SAMPLE_SEED = 7  # the sampled continuations of prompt k use seeds SAMPLE_SEED + N_SAMPLES * k + 0, 1, ...
SCORE_N = 3  # the text is judged by its word trigrams
WRITING = dict(prompts=PROMPTS, n_new=N_NEW, n_samples=N_SAMPLES, sample_seed=SAMPLE_SEED, score_n=SCORE_N)
