from primer.figures import pipeline as figs, to_html
from primer.pipeline import CAPTION, IMAGE_SIDE, PATCH_SIDE, prefix_dependence, toy_image

image = toy_image()                                   # seeded random pixels, 4 x 4
dep = prefix_dependence(image, CAPTION)               # perturb one input, see which outputs move
fig = figs.prefix_figure(image, dep, (IMAGE_SIDE // PATCH_SIDE) ** 2, CAPTION)
print(to_html(fig, div_id="fig-sensor"))
