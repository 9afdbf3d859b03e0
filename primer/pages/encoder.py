"""Inputs of chapter 6 (encoder), shared with chapter 7 (decoder): the tiny seeded stack both run."""

from primer.config import Config
from primer.vocab import CAT_VOCAB

CFG = Config(vocab_size=len(CAT_VOCAB))   # primer's tiny stack over the chapters 6-7 vocabulary; used in chapters 6 and 7
SEED = 0                              # its weights' seed; used in chapters 6 and 7
