"""Inputs of chapter 9 (choosing): which published models the parameter tables and the model picker show."""

MODELS = ("BERT-base", "GPT-1", "T5-base")   # one encoder, one decoder, one encoder-decoder; used in chapter 9
