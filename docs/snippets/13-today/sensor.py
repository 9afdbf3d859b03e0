from primer.figures import today as figures
from primer.figures import to_html
from primer.pages.today import CAPTION, IMAGE_SIDE, PATCH_SIDE
from primer.pipeline import prefix_dependence, toy_image

image = toy_image()                                   # seeded random pixels, 4 x 4
dep = prefix_dependence(image, CAPTION)               # perturb one input, see which outputs move
fig = figures.prefix_figure(image, dep, (IMAGE_SIDE // PATCH_SIDE) ** 2, CAPTION)
print(to_html(fig, div_id="fig-sensor"))
