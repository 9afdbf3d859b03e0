"""Train the toy translation (experiments.translation) two ways with one block's code; score both on held-out pairs.

encoder-decoder: an encoder stack under the full mask reads the source; a decoder stack under the
causal mask writes the target from BOS, and every one of its layers reads the encoder's output
through cross-attention. decoder-only: one stack under the causal mask reads "source BOS target"
as one sequence (BOS is the separator). Both are trained with primer.training's forward and
backward passes and Adam, the same steps, batch size and learning rate, on the loss of the target
words only. Sentences of one length are batched together (the pairs keep their length: word for
word), so no padding is needed. Both are scored by greedy decoding of the held-out pairs.
"""

import functools
from dataclasses import dataclass

import numpy as np

from primer._checks import int_at_least, nonneg_int, positive_int
from primer.backprop import cross_entropy, cross_entropy_backward, tied_logits_backward
from primer.backprop_stack import decoder_forward, encoder_decoder_forward, stack_backward, stack_forward
from primer.config import Config
from primer.counts import count_values
from primer.experiments import grammar as grammars
from primer.experiments.translation import make_pairs
from primer.machines import machine_masks
from primer.masks import causal_mask, full_mask
from primer.optim import adam_init, adam_step, trained
from primer.training import Rows, draw_batches, train
from primer.transformer import init_stack
from primer.validate import validate_lr
from primer.vocab import BOS, to_ids

TRANSLATORS = ("encoder-decoder", "decoder-only")


def seeds(seed):  # -> 5 ints
    """Return the seeds one experiment seed fixes: the split, the two models' weights, their batches."""
    return tuple(int(s) for s in np.random.SeedSequence(nonneg_int("seed", seed)).generate_state(5))


def masks(machine, n, m=None):  # -> (self mask, cross mask or None), each [1, 1, rows, cols] (broadcast over b, h)
    """Return primer.machines' masks of a machine, shaped for the training path's batched scores."""
    self_mask, cross_mask = machine_masks(machine, n, m)
    return self_mask[None, None], None if cross_mask is None else cross_mask[None, None]


# ---- rows: the pairs as ids, grouped by length ------------------------------------------------------


def validate_pairs(pairs, vocab):  # -> {length: ([r, n] source ids, [r, n] target ids)}
    """Return the pairs as ids grouped by length, or raise unless each source and its target have one length."""
    if not pairs:
        raise ValueError("pairs must hold at least one (source, target) pair")
    groups = {}
    for source, target in pairs:
        if len(source) != len(target) or not source:
            raise ValueError(
                f"pairs must be word-for-word: a non-empty source and a target of its length, got {source}"
            )
        groups.setdefault(len(source), []).append((to_ids(source, vocab, "source"), to_ids(target, vocab, "target")))
    return {n: tuple(np.array(side) for side in zip(*rows)) for n, rows in sorted(groups.items())}


def encdec_rows(src, tgt, bos):  # [r, n], [r, n] -> (source, decoder input, targets), each [r, n]
    """Return the encoder-decoder's rows: the decoder reads BOS + the target shifted right and predicts the target."""
    return src, np.concatenate([np.full((len(tgt), 1), bos), tgt[:, :-1]], axis=1), tgt


def prompt_rows(src, tgt, bos):  # [r, n], [r, n] -> ([r, 2n], [r, 2n])
    """Return the decoder-only rows: "source BOS target" as next-token tokens and targets (loss from position n on)."""
    seq = np.concatenate([src, np.full((len(src), 1), bos), tgt], axis=1)
    return seq[:, :-1], seq[:, 1:]


# ---- loss and gradients -----------------------------------------------------------------------------


def target_loss(z, targets, first):  # [b, L, vocab], [b, L] -> (float, [b, L, vocab])
    """Return the mean cross-entropy over positions first.. (the target words) and its d logits (0 elsewhere)."""
    dz = np.zeros_like(z)
    dz[:, first:] = cross_entropy_backward(z[:, first:], targets[:, first:])
    return cross_entropy(z[:, first:], targets[:, first:]), dz


def encdec_forward(enc, dec, src, tgt_in, n_heads):  # [b, m], [b, n] -> ([b, n, vocab], cache)
    """Return the decoder's logits: the encoder reads the source (full mask), the decoder reads its output (cross)."""
    source_mask, _ = masks("encoder", src.shape[1])
    self_mask, cross_mask = masks("encoder-decoder", tgt_in.shape[1], src.shape[1])
    return encoder_decoder_forward(enc, dec, src, tgt_in, n_heads, (self_mask, source_mask, cross_mask))


def prompt_loss_and_grads(params, tokens, targets, first, n_heads):  # [b, L], [b, L] -> (float, grads)
    """Return the decoder-only model's loss on the target words (positions first..) and its gradients."""
    mask, _ = masks("decoder", tokens.shape[1])
    h, cache = stack_forward(params, tokens, mask, n_heads)
    z = h @ params["wte"].T  # tied output, as primer.transformer.logits
    value, dz = target_loss(z, targets, first)
    dh, dwte = tied_logits_backward(dz, h, params["wte"])
    return value, stack_backward(dh, params, tokens, mask, n_heads, cache, dwte=dwte)[0]


# ---- greedy decoding and scores ---------------------------------------------------------------------


def greedy_encdec(enc, dec, src, bos, n_heads):  # [b, m] -> [b, m] ids
    """Return the encoder-decoder's greedy translation of each source, as many words as the source has."""
    out = np.full((len(src), 1), bos)
    for _ in range(src.shape[1]):
        z, _ = encdec_forward(enc, dec, src, out, n_heads)
        out = np.concatenate([out, z[:, -1].argmax(axis=-1)[:, None]], axis=1)
    return out[:, 1:]


def greedy_prompt(params, src, bos, n_heads):  # [b, m] -> [b, m] ids
    """Return the decoder-only model's greedy continuation of "source BOS", as many words as the source has."""
    seq = np.concatenate([src, np.full((len(src), 1), bos)], axis=1)
    for _ in range(src.shape[1]):
        mask, _ = masks("decoder", seq.shape[1])
        z, _ = decoder_forward(params, seq, mask, n_heads)
        seq = np.concatenate([seq, z[:, -1].argmax(axis=-1)[:, None]], axis=1)
    return seq[:, src.shape[1] + 1 :]


def scores(predicted, gold):  # [{n: [r, n]}], same -> (exact, per token)
    """Return the share of sentences translated exactly and the share of target words right, position by position."""
    exact = sum(int((predicted[n] == gold[n]).all(axis=1).sum()) for n in gold)
    words = sum(int((predicted[n] == gold[n]).sum()) for n in gold)
    return exact / sum(len(g) for g in gold.values()), words / sum(g.size for g in gold.values())


# ---- the experiment ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Translators:
    """Both models trained on one seed's pairs, and their held-out scores."""

    pairs: object  # primer.experiments.translation.Pairs
    cfg: Config  # each stack of the encoder-decoder
    prompt_cfg: Config  # the decoder-only stack
    enc: dict
    dec: dict
    start: tuple  # (encoder, decoder) weights before training: the control of the cross-attention maps
    prompt: dict
    losses: dict  # model -> [steps] training loss
    params_count: dict  # model -> weights trained
    exact: dict  # model -> share of held-out sentences translated exactly (greedy)
    per_token: dict  # model -> share of held-out target words right
    train_exact: dict  # model -> the same on the training pairs


def train_prompt(params, groups, bos, n_heads, *, steps, lr, batch_size, seed):  # -> (params, [steps])
    """Return the decoder-only stack after `steps` Adam steps on the loss of the target words, and each step's loss."""
    lr, steps = validate_lr(lr), positive_int("steps", steps)
    batch_size, lengths = int_at_least("batch_size", batch_size, 1), list(groups)
    state, losses = adam_init(params), np.empty(steps)
    batches = draw_batches([len(groups[n][0]) for n in lengths], steps, batch_size, seed)  # as train draws them
    for t, (g, rows) in enumerate(batches):
        n = lengths[g]
        tokens, targets = prompt_rows(groups[n][0][rows], groups[n][1][rows], bos)
        losses[t], grads = prompt_loss_and_grads(params, tokens, targets, n, n_heads)
        params, state = adam_step(params, grads, state, lr)
    return params, losses


@functools.lru_cache(maxsize=8)
def translator_run(grammar, lexicon, head_final, heldout_share, model, prompt_layers, steps, lr, batch_size, seed):
    """Return both models trained and scored (Translators); translators' arguments, frozen (computed once)."""
    split_seed, enc_seed, dec_seed, prompt_seed, batch_seed = seeds(seed)
    grammar = {symbol: alts for symbol, alts in grammar}
    pairs = make_pairs(grammar, dict(lexicon), head_final, heldout_share, split_seed)
    model = dict(model)
    cfg = Config(vocab_size=len(pairs.vocab), **model)
    prompt_cfg = Config(vocab_size=len(pairs.vocab), **(model | {"n_layers": prompt_layers}))
    if 2 * max(len(s) for s, _ in pairs.train + pairs.heldout) > prompt_cfg.max_len:
        raise ValueError(f"model['max_len'] must hold source + BOS + target, got {prompt_cfg.max_len}")
    bos = pairs.vocab.index(BOS)
    seen, held = validate_pairs(pairs.train, pairs.vocab), validate_pairs(pairs.heldout, pairs.vocab)
    start = (init_stack(enc_seed, cfg), init_stack(dec_seed, cfg, cross=True))
    task = [
        Rows(tgt_in, tgt_out, source=src) for src, tgt_in, tgt_out in (encdec_rows(*st, bos) for st in seen.values())
    ]
    training = dict(steps=steps, lr=lr, batch_size=batch_size)  # the same for both models, and the same batches
    machine = train(
        start,
        cfg,
        task,
        self_mask=causal_mask,
        source_mask=full_mask,
        cross_mask=full_mask,
        seed=batch_seed,
        **training,
    )
    (enc, dec), l_encdec = machine.params, machine.losses
    prompt, l_prompt = train_prompt(
        init_stack(prompt_seed, prompt_cfg), seen, bos, cfg.n_heads, seed=batch_seed, **training
    )

    def greedy(model, groups):
        if model == "encoder-decoder":
            return {n: greedy_encdec(enc, dec, s, bos, cfg.n_heads) for n, (s, _) in groups.items()}
        return {n: greedy_prompt(prompt, s, bos, cfg.n_heads) for n, (s, _) in groups.items()}

    held_scores = {m: scores(greedy(m, held), {n: t for n, (_, t) in held.items()}) for m in TRANSLATORS}
    train_scores = {m: scores(greedy(m, seen), {n: t for n, (_, t) in seen.items()}) for m in TRANSLATORS}
    return Translators(
        pairs,
        cfg,
        prompt_cfg,
        enc,
        dec,
        start,
        prompt,
        {"encoder-decoder": l_encdec, "decoder-only": l_prompt},
        {
            "encoder-decoder": count_values(trained(enc)) + count_values(trained(dec)),
            "decoder-only": count_values(trained(prompt)),
        },
        {m: s[0] for m, s in held_scores.items()},
        {m: s[1] for m, s in held_scores.items()},
        {m: s[0] for m, s in train_scores.items()},
    )


def translators(grammar, *, lexicon, head_final, heldout_share, model, prompt_layers, training, seed):  # -> Translators
    """Return both models trained on one seed's pairs and scored on its held-out pairs (computed once per process).

    model is each stack's Config shape (vocab_size comes from the pairs); prompt_layers the decoder-only
    stack's blocks; training holds steps, lr and batch_size, the same for both. Do not change the result.
    """
    keys = {"steps", "lr", "batch_size"}
    if set(training) != keys:
        raise ValueError(f"training must have exactly the keys {sorted(keys)}, got {sorted(training)}")
    steps = positive_int("training['steps']", training["steps"])
    batch_size = int_at_least("training['batch_size']", training["batch_size"], 1)
    return translator_run(
        grammars.frozen(grammar),
        tuple(sorted(lexicon.items())),
        tuple(head_final),
        float(heldout_share),
        tuple(sorted(model.items())),
        positive_int("prompt_layers", prompt_layers),
        steps,
        validate_lr(training["lr"]),
        batch_size,
        nonneg_int("seed", seed),
    )


def cross_weights(enc, dec, source, target, vocab, n_heads):  # -> [layers, h, n, m]
    """Return each decoder layer's cross-attention weights on one pair, the decoder reading BOS + the target shifted."""
    src = to_ids(source, vocab, "source")[None]
    tgt_in = to_ids([BOS] + list(target[:-1]), vocab, "target")[None]
    _, cache = encdec_forward(enc, dec, src, tgt_in, n_heads)
    return np.stack([c["cross"]["w"][0] for c in cache["dec"]["blocks"]])


def alignment_agreement(enc, dec, pairs, n_heads):  # -> [layers, h]
    """Return, per decoder layer and head, the share of held-out target words whose top cross weight is their source."""
    hits, total = 0, 0
    for source, target in pairs.heldout:
        w = cross_weights(enc, dec, source, target, pairs.vocab, n_heads)  # [L, h, n, m]
        hits = hits + (w.argmax(axis=-1) == pairs.alignments[source]).sum(axis=-1)
        total += len(target)
    return hits / total


def alignment_chance(pairs):  # -> float
    """Return the share alignment_agreement expects by chance: 1 / (source length), averaged over held-out words."""
    return float(np.mean([1.0 / len(s) for s, t in pairs.heldout for _ in t]))
