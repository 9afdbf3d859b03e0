import numpy as np

from primer.experiments.trained_decoder import trained_decoder
from primer.figures import serving as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.serving import TREE_BRANCHING, TREE_PROMPT
from primer.speculative import bigram_table, bigram_tree, branch, branch_logits, verify_tree
from primer.vocab import to_ids

data, cfg, decoder = trained_decoder(**EXPERIMENT)
table = bigram_table(to_ids(data.words, data.vocab), len(data.vocab))
prefix = to_ids(TREE_PROMPT.split(), data.vocab)
draft, parents = bigram_tree(table, int(prefix[-1]), TREE_BRANCHING)
one_pass = verify_tree(prefix, draft, parents, decoder.params, cfg)  # [p + m, vocab]: every node at once
rows = []
for node in range(len(draft)):
    alone = branch_logits(prefix, draft, parents, node, decoder.params, cfg)  # prefix + this branch, causal
    words = [data.vocab[draft[i]] for i in branch(parents, node)]
    diff = np.abs(one_pass[len(prefix) + node] - alone).max()
    rows.append((node, parents[node], data.vocab[draft[node]], words, diff))
print(figures.tree_check_table(rows))
