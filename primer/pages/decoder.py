"""Inputs of chapter 7 (decoder): the word the leak test changes in mlm.SENTENCE."""

CHANGED_POSITION, CHANGED_WORD = 5, "rug"   # "the cat sat on the rug"; used in chapter 7
