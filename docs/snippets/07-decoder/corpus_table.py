from primer import broken_masks, corpus
from primer.figures import decoder as figures
from primer.pages.decoder import CORPUS, GRAMMAR

# The corpus: sentences drawn from a 6-rule grammar, seeded; a second seed draws the held-out text
data = broken_masks.make_data(GRAMMAR, **CORPUS)
distinct = len({tuple(s) for s in corpus.sentences(GRAMMAR, CORPUS["n_sentences"], CORPUS["seed"])})
print(figures.corpus_table(GRAMMAR, data, len(corpus.all_sentences(GRAMMAR)), distinct))
