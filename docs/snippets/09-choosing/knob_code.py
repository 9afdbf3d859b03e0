import numpy as np

from primer.config import Config
from primer.transformer import decode, encode, init_stack

cfg = Config()  # tiny and seeded: the point is the masks, not the weights
src = np.array([27, 18, 28, 1])
tgt = np.array([3, 14, 15, 9, 26])

h = encode(src, init_stack(2017, cfg), cfg)  # no mask
y = decode(tgt, init_stack(2018, cfg), cfg)  # causal
z = decode(
    tgt,
    init_stack(2018, cfg, cross=True),
    cfg,  # causal + cross
    enc_out=h,
)
print("encoder:", h.shape, " decoder:", y.shape, " encoder-decoder:", z.shape)
