from primer.figures import seq2seq as figures
from primer.seq2seq import DEFAULT_EXAMPLE, alignment

source, target, weights = alignment(DEFAULT_EXAMPLE)  # rows: decoding steps; columns: encoder states
print(figures.alignment_table(source, target, weights))
