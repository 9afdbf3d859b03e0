"""Chapter 14's nine mask bugs in PyTorch, each buggy function beside its fix: float64 tensors in and out.

The signatures are the check kit's (kit_pytorch.py): a causal layer maps x [n, d] to y [n, d], a padded one
(x [n, d], valid [n] bool) to y [n, d]; a cached decoder is a factory whose decoder takes one row x_t [d] at a time.
q = k = v = x and no weights: only the mask can go wrong. The page shows the lines from the imports to causal()
with each bug's own lines, a program that runs pasted alone.
"""

import math

import torch
import torch.nn.functional as F


def scores(x):  # [n, d] -> [n, n]
    return x @ x.T / math.sqrt(x.shape[-1])


def causal(n):  # [n, n] bool, True: query i may read key j
    return torch.ones(n, n, dtype=torch.bool).tril()


# ---- 1. masked_bias: GPT-2's -1e4 in place of a closed score; shift moves every score, as training may


def masked_bias_bug(x, shift=0.0):  # [n, d] -> [n, d]
    z = torch.where(causal(len(x)), scores(x) + shift, torch.tensor(-1e4, dtype=x.dtype))
    return z.softmax(dim=-1) @ x


def masked_bias_fix(x, shift=0.0):  # [n, d] -> [n, d]
    z = torch.where(causal(len(x)), scores(x) + shift, torch.finfo(x.dtype).min)  # the dtype's most negative number
    return z.softmax(dim=-1) @ x


# ---- 2. fp16_min: FP16's minimum plus a score below -16 is -inf; padding on the left, two FP16 layers


def fp16_layers(x, valid, shift, fixed):  # [n, d], [n] bool -> [n, d] in float64, computed in float16
    order = torch.sort(valid.to(torch.int8), stable=True).indices  # padded rows first, as batched generation pads
    x, valid, n = x[order], valid[order], len(x)
    mask = causal(n) & valid[None, :]
    if fixed:
        mask |= torch.eye(n, dtype=torch.bool) & ~valid[:, None]  # a padded query reads itself
    low = torch.finfo(torch.float16).min  # -65504
    h = x.half()
    for _ in range(2):
        s = scores(h) + shift
        if fixed:
            z = s.masked_fill(~mask, low)  # in place of a closed score: no sum, no overflow
        else:
            z = s + torch.zeros_like(s).masked_fill(~mask, low)  # added to it: the sum rounds to -inf
        h = z.softmax(dim=-1) @ h  # a row of -inf is NaN, and 0 x NaN spreads it to every row
    y = torch.empty_like(h)
    y[order] = h
    return y.double()


def fp16_min_bug(x, valid, shift=0.0):  # [n, d], [n] -> [n, d]
    return fp16_layers(x, valid, shift, fixed=False)


def fp16_min_fix(x, valid, shift=0.0):  # [n, d], [n] -> [n, d]
    return fp16_layers(x, valid, shift, fixed=True)


# ---- 3. transposed: PyTorch 1.3's generate_square_subsequent_mask, -inf below the diagonal instead of above


def transposed_bug(x):  # [n, d] -> [n, d]
    closed = torch.full((len(x), len(x)), -math.inf, dtype=x.dtype).tril(diagonal=-1)  # query i reads i .. n-1
    return (scores(x) + closed).softmax(dim=-1) @ x


def transposed_fix(x):  # [n, d] -> [n, d]
    # -inf above the diagonal: what nn.Transformer.generate_square_subsequent_mask(n) returns today
    closed = torch.full((len(x), len(x)), -math.inf, dtype=x.dtype).triu(diagonal=1)  # query i reads 0 .. i
    return (scores(x) + closed).softmax(dim=-1) @ x


# ---- 4. not_inverted: a "True = closed" mask given to SDPA, whose True means may read


def not_inverted_bug(x):  # [n, d] -> [n, d]
    future = torch.ones(len(x), len(x), dtype=torch.bool).triu(diagonal=1)
    return F.scaled_dot_product_attention(x, x, x, attn_mask=future)


def not_inverted_fix(x):  # [n, d] -> [n, d]
    future = torch.ones(len(x), len(x), dtype=torch.bool).triu(diagonal=1)
    return F.scaled_dot_product_attention(x, x, x, attn_mask=~future)


# ---- 5. not_in_place: masked_fill returns a new tensor; without the underscore the scores stay unmasked


def not_in_place_bug(x, valid):  # [n, d], [n] -> [n, d]
    score = scores(x)
    score.masked_fill(~valid[None, :], -1e9)  # the result is thrown away
    return score.softmax(dim=-1) @ x


def not_in_place_fix(x, valid):  # [n, d], [n] -> [n, d]
    score = scores(x)
    score.masked_fill_(~valid[None, :], -1e9)  # in place
    return score.softmax(dim=-1) @ x


# ---- 6. query_axis: the padding mask shaped [n, 1], ANDed with causal: padded rows empty, NaN under -inf


def query_axis_bug(x, valid, fill=-math.inf):  # [n, d], [n] -> [n, d]; the project's fill was -10000.0
    return scores(x).masked_fill(~(valid[:, None] & causal(len(x))), fill).softmax(dim=-1) @ x


def query_axis_fix(x, valid, fill=-math.inf):  # [n, d], [n] -> [n, d]
    return scores(x).masked_fill(~(valid[None, :] & causal(len(x))), fill).softmax(dim=-1) @ x


# ---- 7. nan_rows: a padded query with no open key; SDPA gave NaN before 2.5, a plain softmax still does


def nan_rows_bug(x, valid):  # [n, d], [n] -> [n, d]
    mask = valid[:, None] & valid[None, :]  # a padded query's row is all False
    h = x
    for _ in range(2):
        h = scores(h).masked_fill(~mask, -math.inf).softmax(dim=-1) @ h  # that row: 0 / 0 = NaN, then everywhere
    return h


def nan_rows_fix(x, valid):  # [n, d], [n] -> [n, d]
    mask = valid[:, None] & valid[None, :]
    h = x
    for _ in range(2):
        h = F.scaled_dot_product_attention(h, h, h, attn_mask=mask)  # since 2.5: a row with no key gives zeros
    return h


# ---- 8. top_left: is_causal on a cached step aligns top-left, so the one query reads key 0 only


def cached_decoder(is_causal):  # -> a fresh decoder: x_t [d] -> y_t [d]
    cache = []

    def decoder(x_t):
        cache.append(x_t)
        k = torch.stack(cache)  # [t, d]: every row so far
        return F.scaled_dot_product_attention(x_t[None], k, k, is_causal=is_causal)[0]

    return decoder


def top_left_bug():  # -> a fresh decoder
    return cached_decoder(is_causal=True)


def top_left_fix():  # -> a fresh decoder
    return cached_decoder(is_causal=False)  # the newest query may read every cached key


def causal_full(x):  # [n, d] -> [n, d]: the full pass both decoders must match
    return F.scaled_dot_product_attention(x, x, x, is_causal=True)  # n queries, n keys: no alignment question


# ---- 9. window: flash-attn counts window_size=(w, w) inclusively, so the full pass reads w + 1 keys


def window_decoder(window):  # -> a fresh decoder whose cache keeps the window most recent rows
    cache = []

    def decoder(x_t):
        cache.append(x_t)
        del cache[:-window]
        k = torch.stack(cache)
        return F.scaled_dot_product_attention(x_t[None], k, k)[0]

    return decoder


def window_full_bug(x, window):  # [n, d] -> [n, d]
    i, j = torch.arange(len(x))[:, None], torch.arange(len(x))[None, :]
    return F.scaled_dot_product_attention(x, x, x, attn_mask=(j <= i) & (i - j <= window))  # window + 1 keys


def window_full_fix(x, window):  # [n, d] -> [n, d]
    i, j = torch.arange(len(x))[:, None], torch.arange(len(x))[None, :]
    return F.scaled_dot_product_attention(x, x, x, attn_mask=(j <= i) & (i - j < window))  # window keys, itself too
