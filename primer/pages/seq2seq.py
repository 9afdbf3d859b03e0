"""Inputs of chapter 2 (seq2seq): made-up translation pairs whose alignment Bahdanau attention finds."""

# Each word carries a concept tag (or a tuple of tags: "bought" is both 买 and 了); words that
# translate each other share a tag. Nothing here is learned. (source, target) per example; used in chapter 2.
EXAMPLES = {
    "zh-en": (
        (("我", "I"), ("昨天", "yesterday"), ("买", "buy"), ("了", "past"), ("苹果", "apple"), ("<eos>", "eos")),
        (("I", "I"), ("bought", ("buy", "past")), ("apples", "apple"), ("yesterday", "yesterday"), ("<eos>", "eos")),
    ),
    "en-fr": (
        (("the", "the"), ("black", "black"), ("cat", "cat"), ("sleeps", "sleep"), ("<eos>", "eos")),
        (("le", "the"), ("chat", "cat"), ("noir", "black"), ("dort", "sleep"), ("<eos>", "eos")),
    ),
    "en-fr-2": (
        (("I", "I"), ("love", "love"), ("you", "you"), ("<eos>", "eos")),
        (("je", "I"), ("t'", "you"), ("aime", "love"), ("<eos>", "eos")),
    ),
}
DEFAULT_EXAMPLE = "zh-en"   # the one the table shows and the figure opens on; used in chapter 2
