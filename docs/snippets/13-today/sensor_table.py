from primer.figures import pipeline as figs
from primer.pipeline import CAPTION, IMAGE_SIDE, PATCH_SIDE, prefix_dependence

dep = prefix_dependence(text=CAPTION)
print(figs.prefix_table(dep, (IMAGE_SIDE // PATCH_SIDE) ** 2, CAPTION))
