from primer.figures import to_html
from primer.figures import today as figures
from primer.image_prefix import prefix_dependence, toy_image
from primer.inputs.sampling_pipeline import SEED
from primer.inputs.today import CAPTION, IMAGE_SEED, IMAGE_SIDE, PATCH_SIDE
from primer.sampling_pipeline import shared_weights

image = toy_image(IMAGE_SEED, IMAGE_SIDE)  # seeded random pixels, 4 x 4
dep = prefix_dependence(
    image, CAPTION, shared_weights(SEED), IMAGE_SEED, PATCH_SIDE
)  # perturb one input, see which outputs move
fig = figures.image_prefix(image, dep, (IMAGE_SIDE // PATCH_SIDE) ** 2, CAPTION)
print(to_html(fig, div_id="fig-image-prefix"))
