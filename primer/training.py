"""Training the three machines in numpy: cross-entropy, the backward pass by hand, Adam, and one loop (train).

The model is primer.transformer.decode's: token embeddings plus the fixed sinusoidal positions,
n_layers pre-norm blocks (self-attention under a mask, feed-forward, residuals), a final norm and
output logits tied to the embedding. The mask is an argument, as it is of the forward pass, in one
of the forms of primer.backprop (bool, additive float, MaskedFill), so a broken mask trains without
raising. params["wpe"] is the sinusoidal table, not a weight: it gets no gradient and Adam leaves it.
Under the full mask, with a loss weight per position (1 where a token was hidden, 0 elsewhere), the
same code trains chapter 6's encoder on the masked-LM loss (primer.mlm).
The same block_forward / block_backward serve the encoder (full mask) and the decoder of an
encoder-decoder (a block with cross-attention weights also reads the encoder's output, which gets
a gradient from every layer). train takes a machine's masks as arguments and nothing else of it:
chapters 6, 7 and 8 each call it once, and those calls differ only in their masks.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import float_array, int_at_least, nonneg_int, positive_int
from primer.backprop import (
    MaskedFill,
    attention_backward,
    attention_forward,
    cross_entropy,
    cross_entropy_backward,
    embedding_backward,
    layer_norm_backward,
    linear_backward,
    merge_heads_backward,
    relu,
    relu_backward,
    split_heads_backward,
    tied_logits_backward,
)
from primer.self_cross_heads import merge_heads, split_heads
from primer.transformer import layer_norm, linear, logits

FIXED = ("wpe",)  # entries of params that are not trained


# ---- checks ----------------------------------------------------------------------------------------


def check_batch(tokens, targets, cfg):  # [b, n] or [n], same -> ([b, n] int, [b, n] int)
    """Return tokens and their next-token targets as [batch, n] int arrays of ids, or raise ValueError."""
    out = []
    for name, value in (("tokens", tokens), ("targets", targets)):
        ids = np.asarray(value)
        if ids.ndim not in (1, 2) or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(
                f"{name} must be a non-empty [batch, n] array of integer ids, got shape {ids.shape}, dtype {ids.dtype}"
            )
        if ids.min() < 0 or ids.max() >= cfg.vocab_size:
            raise ValueError(
                f"{name} must be ids in [0, {cfg.vocab_size}) (the vocabulary), got min {ids.min()}, max {ids.max()}"
            )
        out.append(np.atleast_2d(ids))
    tokens, targets = out
    if targets.shape != tokens.shape:
        raise ValueError(
            f"targets must have the shape of tokens, one target per token, got {targets.shape} and {tokens.shape}"
        )
    if cfg.max_len is not None and tokens.shape[1] > cfg.max_len:
        raise ValueError(f"tokens must be at most max_len={cfg.max_len} long (axis 1), got n={tokens.shape[1]}")
    return tokens, targets


def check_mask(
    mask, n, m=None, name="mask"
):  # [n, m] bool | [n, m] float | MaskedFill -> the same form, [1, 1, n, m] (broadcasts over batch, heads)
    """Return mask in one of the three forms of primer.backprop, shaped for the scores, or raise ValueError.

    m is the number of keys (None: n, a self mask); name is the argument the messages name.
    """
    m = n if m is None else m
    fill = isinstance(mask, MaskedFill)
    label = f"{name}.mask" if fill else name
    arr = np.asarray(mask.mask if fill else mask)
    if fill and arr.dtype != bool:
        raise ValueError(f"{label} must be a bool array (True: query i may read key j), got dtype {arr.dtype}")
    if arr.dtype != bool and not np.issubdtype(arr.dtype, np.floating):
        raise ValueError(
            f"{name} must be a bool array (True: query i may read key j) or a float array added to the scores "
            f"(0 open, -inf closed), got dtype {arr.dtype}"
        )
    if arr.shape != (n, m):
        shape = "[n, n]" if m == n else "[n, m]"
        raise ValueError(
            f"{label} must have shape {shape} = ({n}, {m}), one row per query and a column per key, got {arr.shape}"
        )
    if fill:
        try:
            value = float(mask.value)
        except (TypeError, ValueError):
            value = np.nan
        if np.isnan(value) or value == np.inf:
            raise ValueError(f"{name}.value must be a number or -inf, got {mask.value!r}")
        opened = arr | np.isfinite(value)  # a finite value leaves every key readable
    elif arr.dtype == bool:
        opened = arr
    else:
        if np.isnan(arr).any() or (arr == np.inf).any():
            raise ValueError(f"{name} (a float array added to the scores) must hold numbers or -inf, no NaN or +inf")
        opened = np.isfinite(arr)
    if not opened.any(axis=-1).all():
        raise ValueError(f"{label} leaves a row with no open key; under -inf its softmax is 0/0 (NaN)")
    arr = arr.reshape(1, 1, n, m)
    return MaskedFill(arr, value) if fill else arr


def check_weights(weights, tokens):  # [b, n] or [n] -> [b, n] float
    """Return the per-position loss weights as a [batch, n] float array, or raise ValueError."""
    w = np.atleast_2d(float_array("weights", weights, min_ndim=1))
    if w.shape != tokens.shape:
        raise ValueError(
            f"weights must have the shape of tokens, one weight per token, got {w.shape} and {tokens.shape}"
        )
    if (w < 0).any() or not (w.sum(axis=1) > 0).all():
        raise ValueError(
            "weights must be >= 0 with a positive sum in every row (0: this position's loss is not counted)"
        )
    return w


def check_params(params, cfg, name="params"):  # -> params
    """Return params if they are a decoder's weights of shape cfg (transformer.init_stack), or raise ValueError."""
    wte = np.shape(params["wte"])
    if wte != (cfg.vocab_size, cfg.d_model):
        raise ValueError(
            f"{name}['wte'] must have shape [vocab_size, d_model] = ({cfg.vocab_size}, {cfg.d_model}), got {wte}"
        )
    if any("cross" in p for p in params["blocks"]):
        raise ValueError(
            f"{name} must be a decoder's weights (init_stack without cross=True): training reads no encoder"
        )
    return params


def check_lr(lr):  # -> float
    """Return lr as a float, or raise unless it is a finite number > 0."""
    value = float(float_array("lr", lr, min_ndim=0))
    if value <= 0:
        raise ValueError(f"lr must be a finite number > 0, got {value}")
    return value


# ---- the decoder, forward and backward ---------------------------------------------------------------


def cross_forward(x, memory, p, n_heads, cross_mask):  # [b, n, d], [b, m, d], [.., n, m] -> ([b, n, d], cache)
    """Run a block's cross-attention sub-layer as primer.transformer.block does: x's queries read the memory's K/V."""
    h2 = layer_norm(x, p["ln2"])
    q = split_heads(linear(h2, p["cross"]["q"]), n_heads)  # [b, h, n, d_head]
    k, v = (split_heads(linear(memory, p["cross"][name]), n_heads) for name in ("k", "v"))  # [b, h, m, d_head]
    out, w = attention_forward(q, k, v, cross_mask)
    m = merge_heads(out)
    return x + linear(m, p["cross"]["o"]), {"x": x, "memory": memory, "h2": h2, "q": q, "k": k, "v": v, "w": w, "m": m}


def cross_backward(dy, p, n_heads, cross_mask, c):  # [b, n, d], weights, h, mask, cache -> (d x, grads, d memory)
    """Return d x, the gradients of ln2 and cross (as {"ln2": ..., "cross": ...}) and d memory of cross_forward."""
    g = {"cross": {}}
    dm, g["cross"]["o"] = linear_backward(dy, c["m"], p["cross"]["o"])
    dq, dk, dv = attention_backward(merge_heads_backward(dm, n_heads), c["q"], c["k"], c["v"], c["w"], cross_mask)
    dh2, g["cross"]["q"] = linear_backward(split_heads_backward(dq), c["h2"], p["cross"]["q"])
    dmemory = 0.0
    for name, d in (("k", dk), ("v", dv)):  # the memory feeds the keys and the values: their gradients add
        dmem, g["cross"][name] = linear_backward(split_heads_backward(d), c["memory"], p["cross"][name])
        dmemory = dmemory + dmem
    dnorm, g["ln2"] = layer_norm_backward(dh2, c["x"], p["ln2"])
    return dy + dnorm, g, dmemory


def block_forward(x, p, n_heads, mask, memory=None, cross_mask=None):  # [b, n, d], [b, m, d] -> ([b, n, d], cache)
    """Run one block as primer.transformer.block does, keeping what block_backward needs.

    A block with cross-attention weights (init_block(cross=True)) also reads memory, the encoder's
    output, under cross_mask, between its self-attention and its feed-forward layer.
    """
    h1 = layer_norm(x, p["ln1"])
    q, k, v = (split_heads(linear(h1, p["self"][name]), n_heads) for name in ("q", "k", "v"))  # [b, h, n, d_head]
    out, w = attention_forward(q, k, v, mask)
    m = merge_heads(out)  # [b, n, d]
    x2 = x + linear(m, p["self"]["o"])
    cross = None
    if "cross" in p:
        x2, cross = cross_forward(x2, memory, p, n_heads, cross_mask)
    h3 = layer_norm(x2, p["ln3"])
    u = linear(h3, p["ff1"])  # [b, n, d_ff]
    y = x2 + linear(relu(u), p["ff2"])
    return y, {"x": x, "h1": h1, "q": q, "k": k, "v": v, "w": w, "m": m, "x2": x2, "h3": h3, "u": u, "cross": cross}


def block_backward(
    dy, p, n_heads, mask, c, cross_mask=None
):  # [b, n, d], weights, h, mask, block_forward's cache -> ([b, n, d], grads, [b, m, d] or None)
    """Return d x, the gradients of one block's weights, shaped like p, and d memory (None without cross-attention)."""
    g = {"self": {}}
    dr, g["ff2"] = linear_backward(dy, relu(c["u"]), p["ff2"])
    dh3, g["ff1"] = linear_backward(relu_backward(dr, c["u"]), c["h3"], p["ff1"])
    dnorm, g["ln3"] = layer_norm_backward(dh3, c["x2"], p["ln3"])
    dx2 = dy + dnorm  # the residual passes dy straight through
    dmemory = None
    if c["cross"] is not None:
        dx2, g_cross, dmemory = cross_backward(dx2, p, n_heads, cross_mask, c["cross"])
        g |= g_cross
    dm, g["self"]["o"] = linear_backward(dx2, c["m"], p["self"]["o"])
    dq, dk, dv = attention_backward(merge_heads_backward(dm, n_heads), c["q"], c["k"], c["v"], c["w"], mask)
    dh1 = 0.0
    for name, d in (("q", dq), ("k", dk), ("v", dv)):  # h1 feeds three projections: their gradients add
        dh, g["self"][name] = linear_backward(split_heads_backward(d), c["h1"], p["self"][name])
        dh1 = dh1 + dh
    dnorm, g["ln1"] = layer_norm_backward(dh1, c["x"], p["ln1"])
    return dx2 + dnorm, tree_map(lambda w, dw: dw, p, g), dmemory  # in the order of p's entries


def stack_forward(
    params, tokens, mask, n_heads, memory=None, cross_mask=None
):  # [b, n], [b, m, d] -> ([b, n, d], cache)
    """Return the final-normed hidden states of primer.transformer.stack on the embedded tokens, and the cache.

    An encoder passes the full mask; a decoder the causal one, and with cross-attention weights it
    reads memory (the encoder's output) under cross_mask in every layer.
    """
    x = params["wte"][tokens] + params["wpe"][: tokens.shape[1]]  # as primer.transformer.embed
    caches = []
    for p in params["blocks"]:
        x, c = block_forward(x, p, n_heads, mask, memory, cross_mask)
        caches.append(c)
    h = layer_norm(x, params["ln_f"])
    return h, {"x": x, "h": h, "blocks": caches}


def stack_backward(
    dh, params, tokens, mask, n_heads, cache, cross_mask=None, dwte=0.0
):  # [b, n, d] -> (grads shaped like params (no wpe), [b, m, d] or None)
    """Return the gradient of every trained weight of stack_forward and d memory, given d loss / d hidden states.

    dwte is what the embedding matrix already received elsewhere (the tied output layer).
    """
    dx, g_ln_f = layer_norm_backward(dh, cache["x"], params["ln_f"])
    blocks, dmemory = [], None
    for p, c in zip(params["blocks"][::-1], cache["blocks"][::-1]):
        dx, g, dm = block_backward(dx, p, n_heads, mask, c, cross_mask)
        blocks.append(g)
        if dm is not None:  # every layer reads the same memory: its gradients add
            dmemory = dm if dmemory is None else dmemory + dm
    dwte = dwte + embedding_backward(dx, tokens, params["wte"].shape[0])  # tied: read twice, the gradients add
    return {"wte": dwte, "blocks": blocks[::-1], "ln_f": g_ln_f}, dmemory


def decoder_forward(params, tokens, mask, n_heads, memory=None, cross_mask=None):  # [b, n] -> ([b, n, vocab], cache)
    """Return the logits of primer.transformer.decode under the given mask, and the cache decoder_backward needs."""
    h, cache = stack_forward(params, tokens, mask, n_heads, memory, cross_mask)
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
    memory, enc_cache = stack_forward(enc, source, source_mask, n_heads)  # the encoder's output, [b, m, d]
    z, dec_cache = decoder_forward(dec, tokens, self_mask, n_heads, memory, cross_mask)
    return z, {"enc": enc_cache, "dec": dec_cache}


def _loss_and_grads(params, tokens, targets, mask, n_heads, weights=None):
    out, cache = decoder_forward(params, tokens, mask, n_heads)
    grads = decoder_backward(cross_entropy_backward(out, targets, weights), params, tokens, mask, n_heads, cache)
    return cross_entropy(out, targets, weights), grads


def loss(params, cfg, tokens, targets, mask, weights=None):  # [b, n], [b, n], [n, n], [b, n] or None -> float
    """Return the mean cross-entropy of the model under mask (weighted by weights, if given)."""
    tokens, targets = check_batch(tokens, targets, cfg)
    mask = check_mask(mask, tokens.shape[1])
    weights = None if weights is None else check_weights(weights, tokens)
    return cross_entropy(decoder_forward(check_params(params, cfg), tokens, mask, cfg.n_heads)[0], targets, weights)


def target_probs(params, cfg, tokens, targets, mask):  # [b, n], [b, n], [n, n] -> [b, n]
    """Return the probability the decoder, under mask, gives each target token."""
    tokens, targets = check_batch(tokens, targets, cfg)
    mask = check_mask(mask, tokens.shape[1])
    z = decoder_forward(check_params(params, cfg), tokens, mask, cfg.n_heads)[0]
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return np.exp(np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0])


def loss_and_grads(params, cfg, tokens, targets, mask, weights=None):  # [b, n], [b, n], [n, n] -> (float, grads)
    """Return the loss and the gradient of every trained weight (params without wpe, same nesting)."""
    tokens, targets = check_batch(tokens, targets, cfg)
    weights = None if weights is None else check_weights(weights, tokens)
    mask = check_mask(mask, tokens.shape[1])
    return _loss_and_grads(check_params(params, cfg), tokens, targets, mask, cfg.n_heads, weights)


# ---- Adam --------------------------------------------------------------------------------------------


def tree_map(f, *trees):  # nested dicts and lists of arrays -> the same nesting
    """Apply f leaf by leaf to trees of the same nesting as the first one (extra keys in the others are ignored)."""
    first = trees[0]
    if isinstance(first, dict):
        return {key: tree_map(f, *(t[key] for t in trees)) for key in first}
    if isinstance(first, list):
        return [tree_map(f, *leaves) for leaves in zip(*trees)]
    return f(*trees)


def trained(params):  # -> params without the fixed entries
    """Return the part of params that training changes (everything but the sinusoidal positions)."""
    return {key: value for key, value in params.items() if key not in FIXED}


def adam_init(params):  # -> state
    """Return Adam's state before its first step: zero moments, step 0."""
    zeros = tree_map(np.zeros_like, trained(params))
    return {"step": 0, "m": zeros, "v": tree_map(np.zeros_like, zeros)}


def adam_step(params, grads, state, lr, *, betas=(0.9, 0.999), eps=1e-8):  # -> (params, state)
    """Return new params and state after one Adam step, as torch.optim.Adam takes it (no weight decay)."""
    lr = check_lr(lr)
    b1, b2 = (float(b) for b in betas)
    if not (0 <= b1 < 1 and 0 <= b2 < 1):
        raise ValueError(f"betas must be two numbers in [0, 1), got {betas}")
    if not (np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a finite number > 0, got {eps}")
    t = state["step"] + 1
    m = tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)  # mean of the gradients
    v = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)  # mean of their squares
    step_size, root = lr / (1 - b1**t), np.sqrt(1 - b2**t)  # both moments start at 0: unbias them
    new = tree_map(lambda p, m, v: p - step_size * m / (np.sqrt(v) / root + eps), trained(params), m, v)
    return params | new, {"step": t, "m": m, "v": v}


# ---- the loop: one for the three machines -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Rows:
    """Rows of one length that a machine trains on (a task is a sequence of these; their lengths may differ)."""

    tokens: np.ndarray  # [r, n] ids the stack (an encoder-decoder's decoder) reads
    targets: np.ndarray  # [r, n] the id each position should output
    weights: np.ndarray | None = None  # [r, n] how much each position's loss counts (None: all alike)
    source: np.ndarray | None = None  # [r, m] ids an encoder-decoder's encoder reads (None for one stack)


@dataclass(frozen=True, eq=False)
class Trained:
    """What train returns: the trained weights, each step's loss, and the weights kept along the way."""

    weights: object  # params for one stack, (encoder, decoder) for two
    losses: np.ndarray  # [steps] the loss of each step's batch
    kept: dict  # step -> weights after it, every `every` steps (empty without `every`)


def check_task(task, cfg, two_stacks):  # -> [Rows] with checked arrays
    """Return the task's rows with their arrays checked, or raise ValueError."""
    if isinstance(task, Rows) or not len(task) or not all(isinstance(r, Rows) for r in task):
        raise ValueError(f"task must be a non-empty sequence of primer.training.Rows, got {type(task).__name__}")
    out = []
    for r in task:
        tokens, targets = check_batch(r.tokens, r.targets, cfg)
        weights = None if r.weights is None else check_weights(r.weights, tokens)
        source = None
        if (r.source is not None) != two_stacks:
            raise ValueError(
                "task's rows must have a source exactly when source_mask and cross_mask are given (an encoder-decoder)"
            )
        if two_stacks:
            source = np.asarray(r.source)
            if (
                source.ndim != 2
                or source.size == 0
                or not np.issubdtype(source.dtype, np.integer)
                or source.min() < 0
                or source.max() >= cfg.vocab_size
                or (cfg.max_len is not None and source.shape[1] > cfg.max_len)
            ):
                raise ValueError(
                    f"source must be a non-empty [r, m] array of ids in [0, {cfg.vocab_size}), m at most max_len="
                    f"{cfg.max_len}, got shape {source.shape}, dtype {source.dtype}"
                )
            if len(source) != len(tokens):
                raise ValueError(f"source must have one row per row of tokens, got {len(source)} and {len(tokens)}")
        out.append(Rows(tokens, targets, weights, source))
    return out


def check_stacks(start, cfg, two_stacks):  # -> params or (encoder, decoder)
    """Return start if it is one stack's weights, or an (encoder, decoder) pair for two stacks, or raise ValueError."""
    if not two_stacks:
        if not isinstance(start, dict):
            raise ValueError(
                f"start must be one stack's weights (a dict) without source_mask, got {type(start).__name__}"
            )
        return check_params(start, cfg, "start")
    if not (isinstance(start, tuple) and len(start) == 2):
        raise ValueError("start must be the (encoder, decoder) weights when source_mask and cross_mask are given")
    enc, dec = start
    check_params(enc, cfg, "start[0]")  # the encoder: no cross-attention
    if not all("cross" in p for p in dec["blocks"]):
        raise ValueError("start[1] must have cross-attention weights in every block (init_stack(cross=True))")
    check_params({"wte": dec["wte"], "blocks": []}, cfg, "start[1]")  # the decoder's shape
    return start


def mask_function(name, f):  # -> f
    """Return f, or raise unless it is a function of lengths that returns a mask (primer.masks.causal_mask is one)."""
    if not callable(f):
        raise ValueError(
            f"{name} must be a function of the lengths that returns a mask (e.g. primer.masks.causal_mask), "
            f"got {type(f).__name__}"
        )
    return f


def machine_loss_and_grads(weights, rows, masks, n_heads):  # Rows of one batch -> (float, grads shaped like weights)
    """Return the loss on rows and the gradient of every trained weight; masks: (self, source, cross), shaped.

    One stack (source None): the stack reads the tokens under the self mask. Two: the encoder reads
    the source under the source mask, the decoder the tokens under the self mask and, in every layer,
    the encoder's output under the cross mask; the encoder learns only through that cross-attention.
    """
    self_mask, source_mask, cross_mask = masks
    if rows.source is None:
        return _loss_and_grads(weights, rows.tokens, rows.targets, self_mask, n_heads, rows.weights)
    enc, dec = weights
    z, cache = encoder_decoder_forward(enc, dec, rows.source, rows.tokens, n_heads, masks)
    dz = cross_entropy_backward(z, rows.targets, rows.weights)
    dh, dwte = tied_logits_backward(dz, cache["dec"]["h"], dec["wte"])
    g_dec, dmemory = stack_backward(dh, dec, rows.tokens, self_mask, n_heads, cache["dec"], cross_mask, dwte)
    g_enc, _ = stack_backward(dmemory, enc, rows.source, source_mask, n_heads, cache["enc"])
    return cross_entropy(z, rows.targets, rows.weights), (g_enc, g_dec)


def draw_batches(sizes, steps, batch_size, seed):  # [k] rows per group -> [(group, rows: slice or [b] ints)] per step
    """Return each step's batch: a group (drawn as often as it has rows, if more than one) and rows of it.

    batch_size None takes every row of the group; a group with fewer rows gives a smaller batch.
    """
    rng = np.random.default_rng(nonneg_int("seed", seed))
    p = np.asarray(sizes) / np.sum(sizes)
    out = []
    for _ in range(steps):
        g = 0 if len(sizes) == 1 else int(rng.choice(len(sizes), p=p))
        out.append((g, slice(None) if batch_size is None else rng.permutation(sizes[g])[:batch_size]))
    return out


def train(
    start, cfg, task, *, self_mask, source_mask=None, cross_mask=None, steps, lr, seed=0, batch_size=None, every=None
):  # -> Trained
    """Return a machine's weights after `steps` Adam steps on the cross-entropy, each step's loss, and kept weights.

    The machine is fixed by its masks, each a function of lengths that returns one: self_mask(n) for
    the stack that writes (in a form of primer.backprop, so a broken mask trains without raising);
    for an encoder-decoder also source_mask(m), the encoder's, and cross_mask(n, m); then start is
    (encoder, decoder) and every Rows of the task has a source. Each step reads batch_size rows of
    one group of the task, drawn by the seed (None: all its rows), so a run is fixed by its
    arguments; the loss of each position is weighted by the rows' weights, if given. Every `every`
    steps the weights are kept, for measurements along the way. start is not changed in place.
    """
    if (source_mask is None) != (cross_mask is None):
        raise ValueError("source_mask and cross_mask must be given together (an encoder-decoder) or not at all")
    two = source_mask is not None
    start = check_stacks(start, cfg, two)
    task = check_task(task, cfg, two)
    steps, lr = positive_int("steps", steps), check_lr(lr)
    sizes = [len(r.tokens) for r in task]
    if batch_size is not None:
        batch_size = int_at_least("batch_size", batch_size, 1)
        if batch_size > max(sizes):
            raise ValueError(
                f"batch_size must be at most the number of rows of tokens ({max(sizes)}), got {batch_size}"
            )
    if every is not None:
        every = positive_int("every", every)
    masks = []
    for r in task:  # each group's masks, once
        n = r.tokens.shape[1]
        own = check_mask(mask_function("self_mask", self_mask)(n), n, name=f"self_mask({n})")
        if not two:
            masks.append((own, None, None))
            continue
        m = r.source.shape[1]
        masks.append(
            (
                own,
                check_mask(mask_function("source_mask", source_mask)(m), m, name=f"source_mask({m})"),
                check_mask(mask_function("cross_mask", cross_mask)(n, m), n, m, name=f"cross_mask({n}, {m})"),
            )
        )
    stacks = list(start) if two else [start]
    states, losses, kept = [adam_init(p) for p in stacks], np.empty(steps), {}

    def weights():  # the stacks as start held them
        return tuple(stacks) if two else stacks[0]

    for t, (g, rows) in enumerate(draw_batches(sizes, steps, batch_size, seed)):
        r = task[g]
        batch = Rows(*(None if a is None else a[rows] for a in (r.tokens, r.targets, r.weights, r.source)))
        losses[t], grads = machine_loss_and_grads(weights(), batch, masks[g], cfg.n_heads)
        for i, d in enumerate(grads if two else (grads,)):  # each stack has its own Adam state
            stacks[i], states[i] = adam_step(stacks[i], d, states[i], lr)
        if every is not None and (t + 1) % every == 0:
            kept[t + 1] = weights()
    return Trained(weights(), losses, kept)
