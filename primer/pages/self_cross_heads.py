"""Inputs of chapter 4 (self-cross-heads): the multi-head example sentence and the cross-attention pair."""

import numpy as np

# ---- 「小王把那本旧书送给了她」: hand-set heads, not trained; used in chapter 4
GIVE_TOKENS = ("小王", "把", "那", "本", "旧", "书", "送", "给", "了", "她")
# Each token is one-hot on a word-class feature; the features are the embedding's dimensions.
GIVE_FEATURES = ("name", "ba", "demonstrative", "measure", "adjective", "noun", "verb", "preposition", "particle",
                 "pronoun")
GIVE_X = np.eye(len(GIVE_TOKENS))
GIVE_HEADS = ("agent", "theme", "recipient")   # who gives, what is given, to whom
GIVE_D_HEAD = 4
GIVE_STRENGTH = 3.0  # each matching (query, key) pair scores STRENGTH^2 / sqrt(D_HEAD)
# (head, query class, key class): in that head, a token of the query class looks for the key class.
GIVE_RELATIONS = (
    ("agent", "verb", "name"), ("agent", "name", "verb"),                      # 送 -> 小王, 小王 -> 送
    ("theme", "verb", "noun"), ("theme", "noun", "verb"),                      # 送 -> 书, 书 -> 送
    ("theme", "adjective", "noun"), ("theme", "measure", "noun"),              # 旧 -> 书, 本 -> 书
    ("recipient", "verb", "pronoun"), ("recipient", "pronoun", "verb"),        # 送 -> 她, 她 -> 送
)

# ---- cross-attention: a target sentence reads a source sentence; used in chapter 4
CROSS_SOURCE = ("我", "昨天", "买", "了", "苹果")        # keys and values: the encoder side
CROSS_TARGET = ("I", "bought", "apples")              # queries: the decoder side
# Hand-set 3-d vectors on the axes (person, buying, fruit); 昨天 and 了 carry none of them.
CROSS_SOURCE_X = np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
CROSS_TARGET_X = np.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]])

CONFIG_MODEL = "Transformer-base"   # the published shape the config table prints; used in chapter 4
