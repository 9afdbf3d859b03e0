from primer import full_mask
from primer.figures import encoder as figures
from primer.figures import to_html

ns = list(range(2, 13))
fig = figures.full_masks(ns, [full_mask(n) for n in ns])
print(to_html(fig, div_id="fig-full-masks"))
