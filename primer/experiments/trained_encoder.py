"""Train a tiny encoder with BERT's masked-LM objective, then judge it on held-out text, both sides against left only.

The model is chapter 7's: the same block, the same training code (primer.training), only the mask
is full and the loss counts the hidden tokens alone (primer.mlm.mask_rows). It is judged by hiding
one word of the held-out rows at a time: how often its top guess is the hidden word when it reads
both sides (the full mask it was trained under), and when the same weights run under the causal
mask (left only). The grammar gives the references exactly: the best accuracy any guesser reading
the left alone can reach, and any guesser reading both sides.
"""

import functools
from dataclasses import dataclass

import numpy as np

from primer import mlm
from primer.config import Config
from primer.experiments import grammar as grammars
from primer.experiments import language_model
from primer.masks import causal_mask, full_mask
from primer.training import Rows, loss, train
from primer.transformer import init_stack
from primer.vocab import MASK


@dataclass(frozen=True, eq=False)
class EncoderRun:
    """One encoder trained with masked-LM, and how well it and the grammar guess hidden held-out words."""

    data: language_model.Data
    cfg: Config
    vocab: tuple  # data.vocab + (MASK,)
    params: dict
    history: np.ndarray  # [steps] the masked-LM loss of each step's batch
    heldout_loss: float  # masked-LM loss on held-out rows masked by BERT's rule
    hidden: np.ndarray  # [m] ids: held-out words, each hidden alone in its row
    decided: np.ndarray  # [m] bool: where both sides fix the word and the left alone does not (the grammar says)
    right: dict  # "both", "left" -> [m] bool: where the encoder's top guess is the hidden word (full, causal mask)
    best: dict  # "both", "left" -> [m]: chance that the grammar's best guess from those sides is right (ties split)

    def accuracy(self, who, sides, where=None):  # -> float
        """Return the share of hidden words guessed right by who ('encoder' or 'grammar') reading sides."""
        hits = {"encoder": self.right, "grammar": self.best}[who][sides]
        return float(hits.mean() if where is None else hits[where].mean())


def best_guess(grammar, vocab, tokens, rows, positions, *, both, boundary="."):  # -> ([m] chance right, [m] p max)
    """Return, per hidden word, the chance the grammar's best guess is right (ties split) and that guess's probability.

    The guess reads the hidden word's sentence: its words on the left and, if both, on the right up
    to the sentence's end or the row's.
    """
    cache, right, top = {}, [], []
    for r, t in zip(rows, positions):
        words = [vocab[i] for i in tokens[r]]
        if boundary not in words[:t]:
            raise ValueError("tokens must have a boundary before every hidden word: its sentence must start in the row")
        start = max(j for j in range(t) if words[j] == boundary) + 1
        end = next((j + 1 for j in range(t + 1, len(words)) if words[j] == boundary), len(words))
        key = (tuple(words[start:t]), tuple(words[t + 1 : end]) if both else ())
        if key not in cache:
            probs = grammars.hidden_word_probs(grammar, *key)
            p_max = max(probs.values())
            cache[key] = ({w for w, p in probs.items() if p > p_max - 1e-12}, p_max)
        best, p_max = cache[key]
        right.append((words[t] in best) / len(best))
        top.append(p_max)
    return np.array(right), np.array(top)


@functools.lru_cache(maxsize=8)
def encoder_run(grammar, model, corpus_args, training, masking, seed):  # -> EncoderRun
    """Return the encoder trained with masked-LM and judged; trained_encoder's arguments, frozen (computed once)."""
    grammar, training, masking = dict(grammar), dict(training), dict(masking)
    data = language_model.make_data(grammar, **dict(corpus_args), seed=seed)
    vocab = data.vocab + (MASK,)
    cfg = Config(vocab_size=len(vocab), **dict(model))
    *_, init_seed, batch_seed = language_model.seeds(seed)
    mask_seed, held_mask_seed = (int(s) for s in np.random.SeedSequence((seed, 1)).generate_state(2))
    inputs, loss_weights = mlm.mask_rows(data.tokens, vocab, masking["rate"], mask_seed, draws=masking["draws"])
    targets = np.repeat(data.tokens, masking["draws"], axis=0)  # the masked-LM target is the word itself
    n = data.tokens.shape[1]
    start, task = init_stack(init_seed, cfg), [Rows(inputs, targets, loss_weights)]  # the loss counts the hidden words
    machine = train(start, cfg, task, self_mask=full_mask, seed=batch_seed, **training)
    params, history = machine.params, machine.losses
    held_in, held_w = mlm.mask_rows(data.heldout_tokens, vocab, masking["rate"], held_mask_seed)
    heldout_loss = loss(params, cfg, held_in, data.heldout_tokens, full_mask(n), loss_weights=held_w)
    cloze, rows, positions = mlm.cloze(data.heldout_tokens, vocab)
    hidden = data.heldout_tokens[rows, positions]
    right, best, top = {}, {}, {}
    for sides, mask in (("both", full_mask(n)), ("left", causal_mask(n))):
        right[sides] = mlm.hidden_probs(params, cfg, cloze, positions, mask).argmax(axis=-1) == hidden
        best[sides], top[sides] = best_guess(grammar, vocab, data.heldout_tokens, rows, positions, both=sides == "both")
    decided = (top["both"] > 1 - 1e-9) & (top["left"] < 1 - 1e-9)
    return EncoderRun(data, cfg, vocab, params, history, heldout_loss, hidden, decided, right, best)


def trained_encoder(grammar, *, model, corpus_args, training, masking, seed):  # -> EncoderRun
    """Return the encoder trained with masked-LM on text drawn from the grammar, and its held-out scores.

    model: the Config's shape (vocab_size comes from the corpus); corpus_args: language_model.make_data's;
    training: train's steps, lr and batch_size; masking: rate and draws (mlm.mask_rows). The seed fixes
    everything else. Computed once per process and shared: do not change it in place.
    """
    if set(masking) != {"rate", "draws"}:
        raise ValueError(f"masking must have exactly the keys ['draws', 'rate'], got {sorted(masking)}")
    if set(training) != {"steps", "lr", "batch_size"}:
        raise ValueError(f"training must have exactly the keys ['batch_size', 'lr', 'steps'], got {sorted(training)}")
    grammars.validate_grammar(grammar, "S")
    return encoder_run(
        grammars.frozen(grammar),
        *(tuple(sorted(d.items())) for d in (model, corpus_args, training, masking)),
        seed,
    )


def over_seeds(setup, seeds):  # -> [EncoderRun] one per seed
    """Return trained_encoder(**setup) once for each seed."""
    if not len(seeds):
        raise ValueError("seeds must hold at least one seed")
    return [trained_encoder(**(dict(setup) | {"seed": s})) for s in seeds]


# ---- one hidden word, step by step (chapter 6's [MASK] walk)


def fill(run, words, position, sides):  # [n] words, int, "left" | "both" -> [vocab] probabilities
    """Return the encoder's distribution over the word hidden at position: both sides (full mask) or left (causal)."""
    if sides not in ("left", "both"):
        raise ValueError(f"sides must be 'left' or 'both', got {sides!r}")
    unknown = sorted(set(words) - set(run.vocab))
    if unknown:
        raise ValueError(f"words must all be in the encoder's vocabulary, got unknown {unknown}")
    if not 0 <= position < len(words):
        raise ValueError(f"position must be in [0, {len(words)}), got {position}")
    ids = np.array([[run.vocab.index(w) for w in words]])
    ids[0, position] = run.vocab.index(MASK)
    n = len(words)
    mask = full_mask(n) if sides == "both" else causal_mask(n)
    return mlm.hidden_probs(run.params, run.cfg, ids, np.array([position]), mask)[0]


def grammar_fill(grammar, vocab, words, position, sides, *, boundary="."):  # -> [vocab] probabilities
    """Return the grammar's exact distribution over the word hidden at position, reading its sentence's sides."""
    if sides not in ("left", "both"):
        raise ValueError(f"sides must be 'left' or 'both', got {sides!r}")
    words = list(words)
    start = max((j + 1 for j in range(position) if words[j] == boundary), default=0)
    end = next((j + 1 for j in range(position + 1, len(words)) if words[j] == boundary), len(words))
    right = tuple(words[position + 1 : end]) if sides == "both" else ()
    probs = grammars.hidden_word_probs(grammar, words[start:position], right)
    return np.array([probs.get(w, 0.0) for w in vocab])


def walk(run, words, position):  # -> [3] dicts
    """Return the [MASK] walk: step 0 reads the left (causal mask), 1 both sides (full mask), 2 writes the top guess."""
    left, both = fill(run, words, position, "left"), fill(run, words, position, "both")
    reads_left = list(range(position))
    reads_both = [j for j in range(len(words)) if j != position]
    answer = run.vocab[int(np.argmax(both))]
    return [
        {"step": 0, "reads": reads_left, "probs": left, "left_probs": None, "filled": None},
        {"step": 1, "reads": reads_both, "probs": both, "left_probs": left, "filled": None},
        {"step": 2, "reads": reads_both, "probs": both, "left_probs": left, "filled": answer},
    ]
