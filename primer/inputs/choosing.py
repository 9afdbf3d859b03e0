"""Inputs of chapter 9 (choosing): which published models the parameter tables and the model picker show."""

ONE_OF_EACH = ("BERT-base", "GPT-1", "T5-base")  # one encoder, one decoder, one encoder-decoder; used in chapter 9

# The perturbation experiment: primer's tiny default Config, seeded weights, two token sequences.
TARGET = (3, 14, 15, 9, 26)  # the sequence each machine reads (and, for a decoder, writes); used in chapter 9
SOURCE = (27, 18, 28, 1)  # the encoder-decoder's input, read through cross-attention; used in chapter 9
SEEDS = (2017, 2018)  # the encoder's and the decoder's weights; used in chapter 9
