from primer.architectures import same_size
from primer.figures import decoder as figures

rows = same_size(("BERT-base", "GPT-1"))   # published shapes; weights counted by primer.counts
print(figures.same_size_table(rows))
