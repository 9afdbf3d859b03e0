from primer.figures import today as figures
from primer.image_prefix import prefix_dependence, toy_image
from primer.inputs.sampling_pipeline import SEED
from primer.inputs.today import CAPTION, IMAGE_SEED, IMAGE_SIDE, PATCH_SIDE
from primer.sampling_pipeline import shared_weights

dep = prefix_dependence(toy_image(IMAGE_SEED, IMAGE_SIDE), CAPTION, shared_weights(SEED), IMAGE_SEED, PATCH_SIDE)
print(figures.image_prefix_table(dep, (IMAGE_SIDE // PATCH_SIDE) ** 2, CAPTION))
