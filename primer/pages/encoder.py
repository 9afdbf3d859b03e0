"""Inputs of chapter 6 (encoder), shared with chapter 7 (decoder): the seed of the tiny stack both run."""

SEED = 0  # the weights' seed of primer's tiny stack over primer.vocab.CAT_VOCAB; used in chapters 6 and 7
