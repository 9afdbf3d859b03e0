from primer.figures import today as figures
from primer.pages.today import CAPTION, IMAGE_SIDE, PATCH_SIDE
from primer.pipeline import prefix_dependence

dep = prefix_dependence(text=CAPTION)
print(figures.prefix_table(dep, (IMAGE_SIDE // PATCH_SIDE) ** 2, CAPTION))
