"""Inputs of chapter 8 (encoder-decoder): the sentence pair, its toy vocabulary, the model's size and seeds."""

SOURCE = ("le", "chat", "était", "assis", "sur", "le", "tapis")  # French; used in chapter 8
TARGET = ("the", "cat", "sat", "on", "the", "mat")  # English; used in chapter 8
SOURCE_TAG, TARGET_TAG = "French", "English"  # the one-prompt layout's tags; used in chapter 8
VOCAB = (
    "<bos>",
    SOURCE_TAG,
    TARGET_TAG,
    ":",
    "le",
    "chat",
    "était",
    "assis",
    "sur",
    "tapis",
    "the",
    "cat",
    "sat",
    "on",
    "mat",
)  # used in chapter 8; first primer.vocab.BOS, what the decoder starts from

# The original Transformer stacked 6 encoder and 6 decoder layers; the toy does the same, narrow.
CONFIG = dict(vocab_size=len(VOCAB), n_layers=6)  # primer.config.Config's fields; used in chapter 8
ENC_SEED, DEC_SEED = 1, 2  # the two stacks' weights; used in chapter 8
STEPS = 6  # greedy steps in the page's generation run; used in chapter 8
LAYER = 0  # the decoder layer whose two sub-layers the page shows side by side; used in chapter 8

# ---- a toy translation, learned (chapter 8; chapter 9 shows the trained machines side by side)

# The second language: one invented word for each word of chapter 7's grammar (primer.inputs.decoder.GRAMMAR) ...
LEXICON = {
    "the": "lo",
    "a": "mi",
    "an": "mu",
    "cat": "miro",
    "dog": "vasu",
    "bird": "tipi",
    "fox": "rako",
    "sat": "sudo",
    "slept": "lomi",
    "sang": "kawe",
    "ate": "pako",
    "on": "pe",
    "in": "ka",
    "mat": "tapa",
    "rug": "fura",
    "bed": "beko",
    "tree": "zuki",
    "fish": "saro",
    "egg": "oru",
    ".": ".",
}  # used in chapter 8
# ... and one rule: inside each of these phrases the parts come in reverse order (the sentence itself keeps its order),
# so "the cat sat on the mat ." becomes "cat the mat the on sat ." in the second language's words.
HEAD_FINAL = ("SUBJECT", "VERB_PHRASE", "PLACE", "TREE", "FOOD")  # used in chapter 8
HELDOUT_SHARE = 0.25  # a quarter of the grammar's sentences are held out, never trained on; used in chapter 8
TRANSLATION_MODEL = dict(d_model=16, n_heads=2, d_ff=32, n_layers=2, max_len=16)  # each stack; used in chapter 8
PROMPT_LAYERS = 5  # the decoder-only model's blocks: its parameter count is near the two stacks'; used in chapter 8
TRANSLATION_TRAINING = dict(steps=200, lr=0.01, batch_size=16)  # the same for both models; used in chapter 8
TRANSLATION_SEEDS = (0, 1, 2)  # each fixes the split, the initial weights and the batches; used in chapter 8
TRANSLATION = dict(
    lexicon=LEXICON,
    head_final=HEAD_FINAL,
    heldout_share=HELDOUT_SHARE,
    model=TRANSLATION_MODEL,
    prompt_layers=PROMPT_LAYERS,
    training=TRANSLATION_TRAINING,
)  # primer.experiments.translator.translators's arguments besides the grammar and the seed; used in chapter 8
