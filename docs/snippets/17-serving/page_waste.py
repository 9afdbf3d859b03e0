import numpy as np

from primer.figures import serving as figures
from primer.figures.html import to_html
from primer.inputs.serving import BATCH_LENGTHS, MAX_LEN, PAGE_SIZES
from primer.paged_cache import wasted_slots

lengths = np.array(BATCH_LENGTHS)
contiguous = [wasted_slots(np.array([n]), MAX_LEN, 1)["contiguous"] for n in lengths]  # max_len - n each
paged = [[wasted_slots(np.array([n]), MAX_LEN, p)["paged"] for n in lengths] for p in PAGE_SIZES]
print(to_html(figures.page_waste(lengths, contiguous, paged, PAGE_SIZES), div_id="fig-page-waste"))
