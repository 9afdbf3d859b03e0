"""Inputs of chapter 4 (self-cross-heads): the multi-head example sentence and the cross-attention pair."""

import numpy as np

# ---- 「苹果很甜，我昨天买了三斤」: hand-set heads, not trained; used in chapter 4
APPLE_TOKENS = ("苹果", "很", "甜", "，", "我", "昨天", "买", "了", "三", "斤")
# Each token is one-hot on a word-class feature; the features are the embedding's dimensions.
APPLE_FEATURES = ("noun", "adverb", "adjective", "punct", "pronoun", "time", "verb", "particle", "number", "measure")
APPLE_X = np.eye(len(APPLE_TOKENS))
APPLE_HEADS = ("sweet", "bought", "amount")  # what is sweet, who bought what, how much
APPLE_D_HEAD = 4
APPLE_STRENGTH = 3.0  # each matching (query, key) pair scores STRENGTH^2 / sqrt(D_HEAD)
# (head, query class, key class): in that head, a token of the query class looks for the key class.
APPLE_RELATIONS = (
    ("sweet", "adjective", "noun"),
    ("sweet", "noun", "adjective"),  # 甜 -> 苹果, 苹果 -> 甜
    ("bought", "verb", "noun"),
    ("bought", "verb", "pronoun"),  # 买 -> 苹果 (across the comma), 买 -> 我
    ("bought", "noun", "verb"),
    ("bought", "pronoun", "verb"),  # 苹果 -> 买, 我 -> 买
    ("amount", "measure", "noun"),
    ("amount", "number", "noun"),  # 斤 -> 苹果, 三 -> 苹果
    ("amount", "noun", "measure"),  # 苹果 -> 斤
)

# ---- cross-attention: a target sentence reads a source sentence; used in chapter 4
CROSS_SOURCE = ("我", "昨天", "买", "了", "苹果")  # keys and values: the encoder side
CROSS_TARGET = ("I", "bought", "apples")  # queries: the decoder side
# Hand-set 3-d vectors on the axes (person, buying, fruit); 昨天 and 了 carry none of them.
CROSS_SOURCE_X = np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
CROSS_TARGET_X = np.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]])

CONFIG_MODEL = "Transformer-base"  # the published shape the config table prints; used in chapter 4
