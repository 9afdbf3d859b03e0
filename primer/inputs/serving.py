"""Inputs of chapter 17 (serving): the prompt prefilled in chunks, the draft trees, the sequences of a paged cache."""

# ---- queries != keys: a random prompt of N_PROMPT rows of D numbers (q, k and v drawn with SEED), prefilled in
# chunks of each size; a chunk of N_PROMPT is one-shot prefill, where the two alignments agree.
SEED, N_PROMPT, D = 0, 12, 8
CHUNKS = (1, 2, 3, 4, 6, 12)
FIGURE_N, FIGURE_CHUNK = 8, 3  # the figure: an 8-token prompt in chunks of 3

# ---- tree masks: chapter 7's trained decoder verifies draft trees from a bigram table of its training text
TREE_PROMPT = ". the cat"  # the prompt whose draft trees are drawn and checked node by node
TREE_BRANCHING = (2, 2)  # two guesses for the next token, two for the one after each
FIGURE_BRANCHINGS = ((1, 1, 1), (2, 1), (2, 2), (3, 1))  # children per node at each depth
PROMPTS = (". the cat", ". a dog", ". the bird sat")  # each continued by N_NEW tokens, greedily
N_NEW = 16
BRANCHINGS = ((1,), (1, 1), (1, 1, 1), (2,), (2, 2), (3, 2, 1))

# ---- paged attention: three sequences stored in one pool, a position of each in turn
N_PAGES, PAGE_SIZE = 8, 4
SEQ_LENGTHS = (6, 11, 3)
PAGED_SEED = 1  # draws their keys, values and one query each

# ---- what a contiguous cache reserves: a batch of requests, each reserving MAX_LEN rows, against pages
BATCH_LENGTHS = (37, 5, 120, 64, 9, 250, 18, 90)
MAX_LEN = 256
PAGE_SIZES = (1, 2, 4, 8, 16, 32, 64)

# The leak test (chapter 7's trained decoder on its first held-out row) and the check kit (one seeded attention head
# of width KIT_D) on the chapter's masks: a draft tree after KIT_PREFIX tokens, and a prompt of KIT_N tokens prefilled
# in chunks of KIT_CHUNK; used in chapter 17
KIT_SEED, KIT_D, KIT_PREFIX, KIT_PARENTS, KIT_N, KIT_CHUNK = 0, 8, 3, (-1, 0, 0, 1, 1, 2), 12, 4
