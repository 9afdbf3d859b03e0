"""Inputs of chapter 7 (decoder): the word the leak test changes in mlm.SENTENCE, and the two same-size models."""

CHANGED_POSITION, CHANGED_WORD = 5, "rug"  # "the cat sat on the rug"; used in chapter 7
SAME_SIZE = ("BERT-base", "GPT-1")  # one encoder and one decoder of the same shape; used in chapter 7

# ---- training under broken masks (chapter 7; its causal model also in chapters 10 and 12)

# The corpus: sentences drawn from this grammar. A symbol maps to its alternatives, each equally likely;
# anything that is not a symbol is a word. "." ends a sentence and starts every row and prompt.
GRAMMAR = {
    "S": (("SUBJECT", "VERB_PHRASE", "."),),
    "SUBJECT": (("the", "ANIMAL"), ("a", "ANIMAL")),
    "ANIMAL": (("cat",), ("dog",), ("bird",)),
    "VERB_PHRASE": (("sat", "on", "PLACE"), ("slept", "on", "PLACE"), ("sang", "in", "the", "tree"), ("ate", "FOOD")),
    "PLACE": (("the", "mat"), ("the", "rug"), ("a", "mat")),
    "FOOD": (("the", "fish"), ("a", "fish")),
}
CORPUS = dict(
    n_sentences=400,
    n_heldout_sentences=200,
    seed=1,
    heldout_seed=2,  # held out: another seed's sentences
    n=16,
    n_rows=96,
    n_heldout_rows=48,
)  # rows of 16 tokens, each with 16 targets
MODEL = dict(d_model=16, n_heads=2, d_ff=32, n_layers=2, max_len=32)
TRAINING = dict(init_seed=0, steps=200, lr=0.02, batch_size=16, batch_seed=0)  # the same for every run
PROMPTS = (". the cat", ". a dog", ". the bird sat")  # every model continues these
N_NEW = 12  # words written after each prompt
SAMPLE_SEED = 7  # the sampled continuation of prompt k uses seed SAMPLE_SEED + k
SCORE_N = 3  # the text is judged by its word trigrams
