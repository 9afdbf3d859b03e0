"""Inputs of chapter 7 (decoder): the word the leak test changes in mlm.SENTENCE, and the two same-size models."""

CHANGED_POSITION, CHANGED_WORD = 5, "rug"   # "the cat sat on the rug"; used in chapter 7
SAME_SIZE = ("BERT-base", "GPT-1")          # one encoder and one decoder of the same shape; used in chapter 7
