"""Chapter 18's inputs: the English texts the real model reads, and the windows, sinks and padding it is run with."""

SENTENCE = "The capital of Germany is Berlin."  # the attention maps' sentence: 7 tokens, to keep the page light
PASSAGE = (  # cut to N_TOKENS tokens: the window, bidirectional, cache and sink measurements read it
    "The cat sat on the warm mat by the window, and the dog slept under the table in the kitchen. Outside, the rain "
    "fell on the garden all afternoon while the children read their books and the old clock ticked in the hall. "
    "When the evening came, their mother lit the lamps, made tea for everyone, and told them a story about the sea."
)
N_TOKENS = 64
SCORED_FROM = 32  # the window measurements score the next-token loss of positions SCORED_FROM .. N_TOKENS - 2
WINDOWS = (4, 8, 16, 32)
SINKS = 4  # StreamingLLM keeps the first four tokens
DOC_A = "Bees live in hives. A queen lays the eggs, and the workers bring home nectar from the flowers in the fields."
DOC_B = "The train to the coast leaves at nine. It stops at every small town, so the trip takes most of the morning."
PAD = 3  # tokens of left padding
PAD_TOKEN = "<|im_end|>"  # the token the file names for padding (tokenizer.ggml.padding_token_id 2)
PADDED = "The capital of Germany is"  # the padded sentence; its next token should be " Berlin"
CACHE_PROMPT = 48  # the cache measurement: a prompt of this many tokens, then the rest of the passage one at a time
KIT_LAYER = 5  # the layer the check kit is run on
KIT_ROWS = 8  # rows of random input the kit feeds it
# check_mask on the same layer under the chapter's masks: a window with a sink, and two documents in 8 rows
KIT_WINDOW, KIT_SINKS, KIT_DOC_IDS = 3, 1, (0, 0, 0, 1, 1, 1, 1, 1)
