"""Inputs of chapter 13 (today): the toy image that a vision "sensor" splices into a decoder's prefix."""

IMAGE_SIDE, PATCH_SIDE = 4, 2  # a 4 x 4 image cut into four 2 x 2 patches; used in chapter 13
IMAGE_SEED = 2  # the image's pixels and the vision encoder's weights; used in chapter 13
CAPTION = "a cat"  # the text that follows the image prefix; used in chapter 13
