from primer.figures import decoder as figures
from primer.inputs.decoder import SAME_SIZE
from primer.published import same_size

rows = same_size(SAME_SIZE)  # published shapes; weights counted by primer.counts
print(figures.same_size_table(rows))
