from primer import mlm
from primer.figures import decoder as figures
from primer.targets import next_token_pairs

words = list(mlm.SENTENCE)  # the cat sat on the mat
inputs, targets = next_token_pairs(words)  # no start symbol: the first word is never predicted
print(figures.next_token_pairs_table(inputs, targets, len(words)))
print()
inputs, targets = next_token_pairs(words, bos="<bos>")
print(figures.next_token_pairs_table(inputs, targets, len(words), bos="<bos>"))
