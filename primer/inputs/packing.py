"""Inputs of chapter 15 (packing): the packed row the leak test changes, and the packed-training experiment's knobs."""

# The leak test runs chapter 7's trained decoder (primer.inputs.decoder.EXPERIMENT) on one of its held-out rows,
# ". a fox sat on the mat . a dog slept on the bed . a": three documents, each starting at ".".
HELD_OUT_ROW = 0
CHANGED_POSITION, CHANGED_WORD = 2, "cat"  # "fox" in the first document becomes "cat"

# The packed-training experiment: chapter 7's setup and seeds, trained once more under the document mask.
FIRST = 2  # the first-token loss takes each document's first FIRST targets (the article, then the animal)

# The varlen comparison: random q, k, v for the same packed row.
VARLEN_SEED, D_HEAD = 0, 4

# The prefix-LM: the first PROMPT_LEN tokens of the same row, the first PREFIX read both ways; N_NEW tokens written.
PROMPT_LEN, PREFIX, N_NEW = 7, 4, 6

# One mask in every library's spelling: a small packed row of two documents, and the query whose row is shown.
FORMS_DOC_IDS, FORMS_QUERY = (0, 0, 1, 1, 1), 3

# The leak test and the check kit on each of the chapter's masks: the same held-out row, and one attention head
# with seeded weights at an initial scale (KIT_SEED, width KIT_D).
KIT_SEED, KIT_D = 0, 8
