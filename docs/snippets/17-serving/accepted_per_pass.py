from primer.decoding import generate
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import serving as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.serving import BRANCHINGS, N_NEW, PROMPTS
from primer.speculative import bigram_table, bigram_tree, speculative_greedy
from primer.vocab import to_ids

data, cfg, decoder = trained_decoder(**EXPERIMENT)
table = bigram_table(to_ids(data.words, data.vocab), len(data.vocab))
prompts = [to_ids(p.split(), data.vocab) for p in PROMPTS]
greedy = [generate(p, decoder.params, cfg, N_NEW)[len(p) :] for p in prompts]  # one pass per token
rows = []
for branching in BRANCHINGS:
    passes, same = 0, True
    for prompt, plain in zip(prompts, greedy):
        tokens, n = speculative_greedy(prompt, N_NEW, table, branching, decoder.params, cfg)
        passes, same = passes + n, same and tokens.tolist() == plain.tolist()
    nodes = len(bigram_tree(table, 0, branching)[0])
    rows.append((branching, nodes, passes, same))
print(figures.acceptance_table(rows, N_NEW * len(PROMPTS)))
