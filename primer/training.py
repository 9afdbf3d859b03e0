"""Training the three machines in numpy: the cross-entropy of a model, and one loop (train) with Adam.

The forward and backward pass by hand are primer.backprop_stack's, Adam is primer.optim's and the arguments'
checks primer.validate's. Under the full mask, with a loss weight per position (1 where a token was hidden,
0 elsewhere), the same code trains chapter 6's encoder on the masked-LM loss (primer.mlm). train takes a
machine's masks as arguments and nothing else of it: chapters 6, 7 and 8 each call it once, and those calls
differ only in their masks.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import int_at_least, nonneg_int, positive_int
from primer.backprop import cross_entropy, cross_entropy_backward, tied_logits_backward
from primer.backprop_stack import decoder_backward, decoder_forward, encoder_decoder_forward, stack_backward
from primer.optim import adam_init, adam_step
from primer.validate import validate_batch, validate_loss_weights, validate_lr, validate_mask, validate_params


def _loss_and_grads(params, tokens, targets, mask, n_heads, loss_weights=None):
    out, cache = decoder_forward(params, tokens, mask, n_heads)
    grads = decoder_backward(cross_entropy_backward(out, targets, loss_weights), params, tokens, mask, n_heads, cache)
    return cross_entropy(out, targets, loss_weights), grads


def loss(params, cfg, tokens, targets, mask, loss_weights=None):  # [b, n], [b, n], [n, n], [b, n] or None -> float
    """Return the mean cross-entropy of the model under mask (weighted by loss_weights, if given)."""
    tokens, targets = validate_batch(tokens, targets, cfg)
    mask = validate_mask(mask, tokens.shape[1])
    loss_weights = None if loss_weights is None else validate_loss_weights(loss_weights, tokens)
    return cross_entropy(
        decoder_forward(validate_params(params, cfg), tokens, mask, cfg.n_heads)[0], targets, loss_weights
    )


def target_probs(params, cfg, tokens, targets, mask):  # [b, n], [b, n], [n, n] -> [b, n]
    """Return the probability the decoder, under mask, gives each target token."""
    tokens, targets = validate_batch(tokens, targets, cfg)
    mask = validate_mask(mask, tokens.shape[1])
    z = decoder_forward(validate_params(params, cfg), tokens, mask, cfg.n_heads)[0]
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return np.exp(np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0])


def loss_and_grads(params, cfg, tokens, targets, mask, loss_weights=None):  # [b, n], [b, n], [n, n] -> (float, grads)
    """Return the loss and the gradient of every trained weight (params without wpe, same nesting)."""
    tokens, targets = validate_batch(tokens, targets, cfg)
    loss_weights = None if loss_weights is None else validate_loss_weights(loss_weights, tokens)
    mask = validate_mask(mask, tokens.shape[1])
    return _loss_and_grads(validate_params(params, cfg), tokens, targets, mask, cfg.n_heads, loss_weights)


# ---- the loop: one for the three machines -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Rows:
    """Rows of one length that a machine trains on (a task is a sequence of these; their lengths may differ)."""

    tokens: np.ndarray  # [r, n] ids the stack (an encoder-decoder's decoder) reads
    targets: np.ndarray  # [r, n] the id each position should output
    loss_weights: np.ndarray | None = None  # [r, n] how much each position's loss counts (None: all alike)
    source: np.ndarray | None = None  # [r, m] ids an encoder-decoder's encoder reads (None for one stack)
    doc_ids: np.ndarray | None = None  # [r, n] each token's document in a packed row: it reads only its own (None: one)


@dataclass(frozen=True, eq=False)
class Trained:
    """What train returns: the trained params, each step's loss, and the params kept along the way."""

    params: object  # one stack's params, or (encoder, decoder) for two
    losses: np.ndarray  # [steps] the loss of each step's batch
    kept: dict  # step -> params after it, every `every` steps (empty without `every`)


def validate_task(task, cfg, two_stacks):  # -> [Rows] with checked arrays
    """Return the task's rows with their arrays checked, or raise ValueError."""
    if isinstance(task, Rows) or not len(task) or not all(isinstance(r, Rows) for r in task):
        raise ValueError(f"task must be a non-empty sequence of primer.training.Rows, got {type(task).__name__}")
    out = []
    for r in task:
        tokens, targets = validate_batch(r.tokens, r.targets, cfg)
        loss_weights = None if r.loss_weights is None else validate_loss_weights(r.loss_weights, tokens)
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
        out.append(Rows(tokens, targets, loss_weights, source, validate_doc_ids(r.doc_ids, tokens)))
    return out


def validate_doc_ids(doc_ids, tokens):  # [r, n] -> [r, n] int, or None
    """Return the rows' document ids as an int array shaped like tokens (None stays None), or raise ValueError."""
    if doc_ids is None:
        return None
    ids = np.asarray(doc_ids)
    if ids.shape != tokens.shape or ids.dtype == bool or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(
            f"doc_ids must be an int array shaped like tokens {tokens.shape}, one document id per token, "
            f"got shape {ids.shape}, dtype {ids.dtype}"
        )
    return ids


def row_masks(mask, doc_ids):  # [1, 1, n, n] bool, [b, n] -> [b, 1, n, n]
    """Return mask closed, in each row, wherever query and key belong to different documents (the document mask)."""
    if not (isinstance(mask, np.ndarray) and mask.dtype == bool):
        raise ValueError("self_mask must return a bool mask when the rows carry doc_ids (True: query i may read key j)")
    return mask & (doc_ids[:, None, :, None] == doc_ids[:, None, None, :])


def validate_stacks(start, cfg, two_stacks):  # -> params or (encoder, decoder)
    """Return start if it is one stack's weights, or an (encoder, decoder) pair for two stacks, or raise ValueError."""
    if not two_stacks:
        if not isinstance(start, dict):
            raise ValueError(
                f"start must be one stack's weights (a dict) without source_mask, got {type(start).__name__}"
            )
        return validate_params(start, cfg, "start")
    if not (isinstance(start, tuple) and len(start) == 2):
        raise ValueError("start must be the (encoder, decoder) weights when source_mask and cross_mask are given")
    enc, dec = start
    validate_params(enc, cfg, "start[0]")  # the encoder: no cross-attention
    if not all("cross" in p for p in dec["blocks"]):
        raise ValueError("start[1] must have cross-attention weights in every block (init_stack(cross=True))")
    validate_params({"wte": dec["wte"], "blocks": []}, cfg, "start[1]")  # the decoder's shape
    return start


def mask_function(name, f):  # -> f
    """Return f, or raise unless it is a function of lengths that returns a mask (primer.masks.causal_mask is one)."""
    if not callable(f):
        raise ValueError(
            f"{name} must be a function of the lengths that returns a mask (e.g. primer.masks.causal_mask), "
            f"got {type(f).__name__}"
        )
    return f


def machine_loss_and_grads(params, rows, masks, n_heads):  # Rows of one batch -> (float, grads shaped like params)
    """Return the loss on rows and the gradient of every trained param; masks: (self, source, cross), shaped.

    One stack (source None): the stack reads the tokens under the self mask. Two: the encoder reads
    the source under the source mask, the decoder the tokens under the self mask and, in every layer,
    the encoder's output under the cross mask; the encoder learns only through that cross-attention.
    """
    self_mask, source_mask, cross_mask = masks
    if rows.source is None:
        return _loss_and_grads(params, rows.tokens, rows.targets, self_mask, n_heads, rows.loss_weights)
    enc, dec = params
    z, cache = encoder_decoder_forward(enc, dec, rows.source, rows.tokens, n_heads, masks)
    dz = cross_entropy_backward(z, rows.targets, rows.loss_weights)
    dh, dwte = tied_logits_backward(dz, cache["dec"]["h"], dec["wte"])
    g_dec, denc_out = stack_backward(dh, dec, rows.tokens, self_mask, n_heads, cache["dec"], cross_mask, dwte)
    g_enc, _ = stack_backward(denc_out, enc, rows.source, source_mask, n_heads, cache["enc"])
    return cross_entropy(z, rows.targets, rows.loss_weights), (g_enc, g_dec)


def draw_batches(sizes, steps, batch_size, seed):  # [k] rows per group -> [(group, rows: slice or [b] ints)] per step
    """Return each step's batch: a group (drawn as often as it has rows, if more than one) and rows of it.

    batch_size None takes every row of the group; a group with fewer rows gives a smaller batch.
    """
    rng = np.random.default_rng(nonneg_int("seed", seed))
    p = np.asarray(sizes) / np.sum(sizes)
    out = []
    for _ in range(steps):
        group = 0 if len(sizes) == 1 else int(rng.choice(len(sizes), p=p))
        out.append((group, slice(None) if batch_size is None else rng.permutation(sizes[group])[:batch_size]))
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
    arguments; the loss of each position is weighted by the rows' loss_weights, if given, and rows that carry
    doc_ids (packed documents) read under self_mask(n) closed between documents. Every `every`
    steps the weights are kept, for measurements along the way. start is not changed in place.
    """
    if (source_mask is None) != (cross_mask is None):
        raise ValueError("source_mask and cross_mask must be given together (an encoder-decoder) or not at all")
    two_stacks = source_mask is not None
    start = validate_stacks(start, cfg, two_stacks)
    task = validate_task(task, cfg, two_stacks)
    steps, lr = positive_int("steps", steps), validate_lr(lr)
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
        own = validate_mask(mask_function("self_mask", self_mask)(n), n, name=f"self_mask({n})")
        if r.doc_ids is not None:
            row_masks(own, r.doc_ids[:1])  # raises now, before any step, unless own is a bool mask
        if not two_stacks:
            masks.append((own, None, None))
            continue
        m = r.source.shape[1]
        masks.append(
            (
                own,
                validate_mask(mask_function("source_mask", source_mask)(m), m, name=f"source_mask({m})"),
                validate_mask(mask_function("cross_mask", cross_mask)(n, m), n, m, name=f"cross_mask({n}, {m})"),
            )
        )
    stacks = list(start) if two_stacks else [start]
    states, losses, kept = [adam_init(p) for p in stacks], np.empty(steps), {}

    def current():  # the stacks' params, nested as start
        return tuple(stacks) if two_stacks else stacks[0]

    for t, (group, rows) in enumerate(draw_batches(sizes, steps, batch_size, seed)):
        r = task[group]
        batch = Rows(
            *(None if a is None else a[rows] for a in (r.tokens, r.targets, r.loss_weights, r.source, r.doc_ids))
        )
        shaped = masks[group]
        if batch.doc_ids is not None:  # each row's own mask: the self mask closed between documents
            shaped = (row_masks(shaped[0], batch.doc_ids), *shaped[1:])
        losses[t], grads = machine_loss_and_grads(current(), batch, shaped, cfg.n_heads)
        for i, d in enumerate(grads if two_stacks else (grads,)):  # each stack has its own Adam state
            stacks[i], states[i] = adam_step(stacks[i], d, states[i], lr)
        if every is not None and (t + 1) % every == 0:
            kept[t + 1] = current()
    return Trained(current(), losses, kept)
