import numpy as np

from primer.transformer import Config, decode, encode, init_stack

cfg = Config()                                   # a tiny seeded model: the point is the masks, not the weights
src, tgt = np.array([27, 18, 28, 1]), np.array([3, 14, 15, 9, 26])

h = encode(src, init_stack(2017, cfg), cfg)                          # knob at "no mask"
y = decode(tgt, init_stack(2018, cfg), cfg)                          # knob at "causal"
z = decode(tgt, init_stack(2018, cfg, cross=True), cfg, memory=h)    # knob at "causal + cross"
print("encoder:", h.shape, " decoder:", y.shape, " encoder-decoder:", z.shape)
