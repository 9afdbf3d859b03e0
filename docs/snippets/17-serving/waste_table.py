import numpy as np

from primer.figures import serving as figures
from primer.inputs.serving import BATCH_LENGTHS, MAX_LEN, PAGE_SIZES
from primer.paged_cache import wasted_slots

lengths = np.array(BATCH_LENGTHS)
rows = []
for p in PAGE_SIZES:
    w = wasted_slots(lengths, MAX_LEN, p)  # {"contiguous": rows, "paged": rows}, summed over the batch
    rows.append((p, w["contiguous"], w["paged"]))
print(figures.waste_table(rows, int(lengths.sum())))  # the rows the batch fills
