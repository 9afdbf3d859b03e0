import numpy as np

from primer.attention import attention
from primer.config import Config
from primer.figures import mask_kit as figures
from primer.kv_cache import KVCache, decode_step
from primer.machines import machine_masks
from primer.mask_checks import check_cache, check_causal, check_mask, check_padding
from primer.masks import batch_mask, causal_mask, document_mask, window_mask
from primer.transformer import init_stack, stack

cfg = Config()  # the tiny decoder: d_model 16, 4 heads, 2 blocks
params = init_stack(0, cfg)
d = cfg.d_model
rng = np.random.default_rng(0)
w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))  # one head at an initial scale


def attend(x, mask):  # [n, d], [n, n] -> [n, d]
    return attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]


def decoder(x):  # [n, d] -> [n, d]: rows already embedded
    return stack(x, params, cfg, causal_mask(len(x)))[0]


def padded_decoder(x, valid):  # [n, d], [n] -> [n, d]: padded on the right or, as generation pads, on the left
    side = "right" if valid[0] else "left"
    return stack(x, params, cfg, batch_mask([valid.sum()], len(x), causal=True, side=side)[0])[0]


def cached_decoder():  # a fresh decoder: x_t [d] -> y_t [d], each step reading the cache
    cache = KVCache(cfg)
    return lambda x_t: stack(x_t[None], params, cfg, machine_masks("decoder", 1, past=cache.length)[0], cache=cache)[0][
        0
    ]


def cached_head():  # a fresh single head: x_t [d] -> y_t [d]
    kv = [np.zeros((0, d)), np.zeros((0, d))]

    def step(x_t):
        y_t, kv[0], kv[1] = decode_step(x_t, kv[0], kv[1], w_q, w_k, w_v)
        return y_t

    return step


window = window_mask(8, 3, sinks=1)  # each query reads its 3 most recent keys and key 0
documents = document_mask([0, 0, 0, 1, 1, 2, 2, 2])  # three documents packed in one row of 8
rows = [
    ("attention", "check_causal", check_causal(lambda x: attend(x, causal_mask(len(x))), d=d)),
    ("attention_padding", "check_padding", check_padding(lambda x, valid: attend(x, np.tile(valid, (len(x), 1))), d=d)),
    ("attention_window", "check_mask", check_mask(lambda x: attend(x, window), window, d=d)),
    ("attention_document", "check_mask", check_mask(lambda x: attend(x, documents), documents, d=d)),
    ("decoder", "check_causal", check_causal(decoder, d=d)),
    ("decoder_padding", "check_padding", check_padding(padded_decoder, d=d)),
    ("kv_cache", "check_cache", check_cache(cached_decoder, decoder, d=d)),
    ("decode_step", "check_cache", check_cache(cached_head, lambda x: attend(x, causal_mask(len(x))), d=d)),
]
print(figures.kit_verdicts(rows))
