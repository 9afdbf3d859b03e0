"""A whole stack's forward and backward pass by hand, beside primer.backprop's pieces: what training differentiates.

The model is primer.transformer.decode's: token embeddings plus the fixed sinusoidal positions,
n_layers pre-norm blocks (self-attention under a mask, feed-forward, residuals), a final norm and
output logits tied to the embedding. The mask is an argument, as it is of the forward pass, in one
of the forms of primer.backprop (bool, additive float, MaskedFill), so a broken mask trains without
raising. The same block_forward / block_backward serve the encoder (full mask) and the decoder of an
encoder-decoder (a block with cross-attention weights also reads the encoder's output, which gets
a gradient from every layer).
"""

from primer.backprop import (
    attention_backward,
    attention_forward,
    embedding_backward,
    layer_norm_backward,
    linear_backward,
    merge_heads_backward,
    relu,
    relu_backward,
    split_heads_backward,
    tied_logits_backward,
)
from primer.optim import tree_map
from primer.self_cross_heads import merge_heads, split_heads
from primer.transformer import layer_norm, linear, logits


def cross_forward(x, enc_out, p, n_heads, cross_mask):  # [b, n, d], [b, m, d], [.., n, m] -> ([b, n, d], cache)
    """Run a block's cross-attention sub-layer as primer.transformer.block does: x's queries read enc_out's K/V."""
    h2 = layer_norm(x, p["ln2"])
    q = split_heads(linear(h2, p["cross"]["q"]), n_heads)  # [b, h, n, d_head]
    k, v = (split_heads(linear(enc_out, p["cross"][name]), n_heads) for name in ("k", "v"))  # [b, h, m, d_head]
    out, w = attention_forward(q, k, v, cross_mask)
    m = merge_heads(out)
    return x + linear(m, p["cross"]["o"]), {
        "x": x,
        "enc_out": enc_out,
        "h2": h2,
        "q": q,
        "k": k,
        "v": v,
        "w": w,
        "m": m,
    }


def cross_backward(dy, p, n_heads, cross_mask, c):  # [b, n, d], weights, h, mask, cache -> (d x, grads, d enc_out)
    """Return d x, the gradients of ln2 and cross (as {"ln2": ..., "cross": ...}) and d enc_out of cross_forward."""
    g = {"cross": {}}
    dm, g["cross"]["o"] = linear_backward(dy, c["m"], p["cross"]["o"])
    dq, dk, dv = attention_backward(merge_heads_backward(dm, n_heads), c["q"], c["k"], c["v"], c["w"], cross_mask)
    dh2, g["cross"]["q"] = linear_backward(split_heads_backward(dq), c["h2"], p["cross"]["q"])
    denc_out = 0.0
    for name, d in (("k", dk), ("v", dv)):  # the enc_out feeds the keys and the values: their gradients add
        denc, g["cross"][name] = linear_backward(split_heads_backward(d), c["enc_out"], p["cross"][name])
        denc_out = denc_out + denc
    dnorm, g["ln2"] = layer_norm_backward(dh2, c["x"], p["ln2"])
    return dy + dnorm, g, denc_out


def block_forward(x, p, n_heads, mask, enc_out=None, cross_mask=None):  # [b, n, d], [b, m, d] -> ([b, n, d], cache)
    """Run one block as primer.transformer.block does, keeping what block_backward needs.

    A block with cross-attention weights (init_block(cross=True)) also reads enc_out, the encoder's
    output, under cross_mask, between its self-attention and its feed-forward layer.
    """
    h1 = layer_norm(x, p["ln1"])
    q, k, v = (split_heads(linear(h1, p["self"][name]), n_heads) for name in ("q", "k", "v"))  # [b, h, n, d_head]
    out, w = attention_forward(q, k, v, mask)
    m = merge_heads(out)  # [b, n, d]
    x2 = x + linear(m, p["self"]["o"])
    cross = None
    if "cross" in p:
        x2, cross = cross_forward(x2, enc_out, p, n_heads, cross_mask)
    h3 = layer_norm(x2, p["ln3"])
    u = linear(h3, p["ff1"])  # [b, n, d_ff]
    y = x2 + linear(relu(u), p["ff2"])
    return y, {"x": x, "h1": h1, "q": q, "k": k, "v": v, "w": w, "m": m, "x2": x2, "h3": h3, "u": u, "cross": cross}


def block_backward(
    dy, p, n_heads, mask, c, cross_mask=None
):  # [b, n, d], weights, h, mask, block_forward's cache -> ([b, n, d], grads, [b, m, d] or None)
    """Return d x, the gradients of one block's weights, shaped like p, and d enc_out (None without cross-attention)."""
    g = {"self": {}}
    dr, g["ff2"] = linear_backward(dy, relu(c["u"]), p["ff2"])
    dh3, g["ff1"] = linear_backward(relu_backward(dr, c["u"]), c["h3"], p["ff1"])
    dnorm, g["ln3"] = layer_norm_backward(dh3, c["x2"], p["ln3"])
    dx2 = dy + dnorm  # the residual passes dy straight through
    denc_out = None
    if c["cross"] is not None:
        dx2, g_cross, denc_out = cross_backward(dx2, p, n_heads, cross_mask, c["cross"])
        g |= g_cross
    dm, g["self"]["o"] = linear_backward(dx2, c["m"], p["self"]["o"])
    dq, dk, dv = attention_backward(merge_heads_backward(dm, n_heads), c["q"], c["k"], c["v"], c["w"], mask)
    dh1 = 0.0
    for name, d in (("q", dq), ("k", dk), ("v", dv)):  # h1 feeds three projections: their gradients add
        dh, g["self"][name] = linear_backward(split_heads_backward(d), c["h1"], p["self"][name])
        dh1 = dh1 + dh
    dnorm, g["ln1"] = layer_norm_backward(dh1, c["x"], p["ln1"])
    return dx2 + dnorm, tree_map(lambda w, dw: dw, p, g), denc_out  # in the order of p's entries


def stack_forward(
    params, tokens, mask, n_heads, enc_out=None, cross_mask=None
):  # [b, n], [b, m, d] -> ([b, n, d], cache)
    """Return the final-normed hidden states of primer.transformer.stack on the embedded tokens, and the cache.

    An encoder passes the full mask; a decoder the causal one, and with cross-attention weights it
    reads enc_out (the encoder's output) under cross_mask in every layer.
    """
    x = params["wte"][tokens] + params["wpe"][: tokens.shape[1]]  # as primer.transformer.embed
    caches = []
    for p in params["blocks"]:
        x, c = block_forward(x, p, n_heads, mask, enc_out, cross_mask)
        caches.append(c)
    h = layer_norm(x, params["ln_f"])
    return h, {"x": x, "h": h, "blocks": caches}


def stack_backward(
    dh, params, tokens, mask, n_heads, cache, cross_mask=None, dwte=0.0
):  # [b, n, d] -> (grads shaped like params (no wpe), [b, m, d] or None)
    """Return the gradient of every trained weight of stack_forward and d enc_out, given d loss / d hidden states.

    dwte is what the embedding matrix already received elsewhere (the tied output layer).
    """
    dx, g_ln_f = layer_norm_backward(dh, cache["x"], params["ln_f"])
    blocks, denc_out = [], None
    for p, c in zip(params["blocks"][::-1], cache["blocks"][::-1]):
        dx, g, dm = block_backward(dx, p, n_heads, mask, c, cross_mask)
        blocks.append(g)
        if dm is not None:  # every layer reads the same enc_out: its gradients add
            denc_out = dm if denc_out is None else denc_out + dm
    dwte = dwte + embedding_backward(dx, tokens, params["wte"].shape[0])  # tied: read twice, the gradients add
    return {"wte": dwte, "blocks": blocks[::-1], "ln_f": g_ln_f}, denc_out


def decoder_forward(params, tokens, mask, n_heads, enc_out=None, cross_mask=None):  # [b, n] -> ([b, n, vocab], cache)
    """Return the logits of primer.transformer.decode under the given mask, and the cache decoder_backward needs."""
    h, cache = stack_forward(params, tokens, mask, n_heads, enc_out, cross_mask)
    return logits(h, params), cache


def decoder_backward(
    dlogits, params, tokens, mask, n_heads, cache
):  # [b, n, vocab] -> grads shaped like params (no wpe)
    """Return the gradient of every trained weight, given d loss / d logits."""
    dh, dwte = tied_logits_backward(dlogits, cache["h"], params["wte"])
    return stack_backward(dh, params, tokens, mask, n_heads, cache, dwte=dwte)[0]


def encoder_decoder_forward(
    enc, dec, source, tokens, n_heads, masks
):  # [b, m], [b, n], (self, source, cross) -> ([b, n, vocab], cache)
    """Return the decoder's logits: the encoder reads the source, the decoder the tokens and the encoder's output."""
    self_mask, source_mask, cross_mask = masks
    enc_out, enc_cache = stack_forward(enc, source, source_mask, n_heads)  # the encoder's output, [b, m, d]
    z, dec_cache = decoder_forward(dec, tokens, self_mask, n_heads, enc_out, cross_mask)
    return z, {"enc": enc_cache, "dec": dec_cache}
