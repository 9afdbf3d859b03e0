from primer.figures import seq2seq as figures
from primer.inputs.seq2seq import DEFAULT_EXAMPLE, EXAMPLES
from primer.seq2seq import alignment

source, target, weights = alignment(*EXAMPLES[DEFAULT_EXAMPLE])  # rows: decoding steps; columns: encoder states
print(figures.alignment_table(source, target, weights))
