"""Inputs of chapter 10 (kv-cache): the generation loop's prompt, and the toy vocabulary, prompt and seed of the
untrained decoder the drift check runs."""

# A toy vocabulary of 32 words, one per token id of the default Config (vocab_size = 32); used in chapter 10.
VOCAB = (
    "BOS",
    "the",
    "a",
    "cat",
    "dog",
    "bird",
    "mat",
    "tree",
    "sat",
    "ran",
    "flew",
    "saw",
    "on",
    "under",
    "near",
    "and",
    "then",
    "it",
    "she",
    "he",
    "big",
    "small",
    "red",
    "old",
    "fast",
    "slowly",
    "today",
    "again",
    "home",
    "away",
    "here",
    ".",
)
SEED = 190  # the seed of the tiny decoder's weights; used in chapter 10
STEPS = 8  # how many tokens the loop generates in the figure; used in chapter 10
LOOP_PROMPT = ". the cat"  # what the trained decoder of chapter 7 continues in the loop; used in chapter 10
PROMPT = (1, 3, 8)  # "the cat sat", for the untrained decoder; used in chapter 10
APPENDED = 14  # "near", the token appended in the drift check; used in chapter 10

# The trained decoder of chapter 7 (primer.experiments.broken_masks, causal run) writes with and without the cache.
TRAINED_PROMPTS = (". the dog", ". a bird sang")  # used in chapter 10
TRAINED_N_NEW = 12  # words written after each prompt; used in chapter 10
