"""Inputs of chapter 2 (seq2seq): made-up translation pairs whose alignment Bahdanau attention finds."""

# Each word carries a concept tag; words that translate each other share a tag. "bought" is mainly
# the verb (买, strength 1) and partly the past tense (了, strength BOUGHT_PAST), so 买 should lead
# its row and 了 take a smaller share. Nothing here is learned. (source, target) per example; used in chapter 2.
BOUGHT_PAST = 0.6
EXAMPLES = {
    "zh-en": (
        (("我", "I"), ("昨天", "yesterday"), ("买", "buy"), ("了", "past"), ("苹果", "apple"), ("<eos>", "eos")),
        (
            ("I", "I"),
            ("bought", {"buy": 1.0, "past": BOUGHT_PAST}),
            ("apples", "apple"),
            ("yesterday", "yesterday"),
            ("<eos>", "eos"),
        ),
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
DEFAULT_EXAMPLE = "zh-en"  # the one the table shows and the figure opens on; used in chapter 2
