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
