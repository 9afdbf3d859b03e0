from primer.experiments.trained_decoder import trained_decoder
from primer.figures import serving as figures
from primer.figures.html import to_html
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.serving import FIGURE_BRANCHINGS, TREE_PROMPT
from primer.speculative import bigram_table, bigram_tree, tree_pass_mask
from primer.vocab import to_ids

data, cfg, decoder = trained_decoder(**EXPERIMENT)  # chapter 7's decoder; only its vocabulary and text here
table = bigram_table(to_ids(data.words, data.vocab), len(data.vocab))  # the draft: counts of word pairs
prefix = to_ids(TREE_PROMPT.split(), data.vocab)
trees = []
for branching in FIGURE_BRANCHINGS:
    draft, parents = bigram_tree(table, int(prefix[-1]), branching)
    words = [data.vocab[i] for i in [*prefix, *draft]]
    trees.append((branching, words, tree_pass_mask(len(prefix), parents), len(prefix)))
print(to_html(figures.tree_masks(trees), div_id="fig-tree-masks"))
