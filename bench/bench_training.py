"""Training speed: the build's training (chapters 6, 7, 8 and 15) in CPU seconds, primer.training's steps per second,
PyTorch's on the same.

Each chapter's training is measured in a fresh Python of its own (python bench/bench_training.py --chapter N), as
the build does it: every seed its pages print and every measurement they make of the trained models, with the clock
(time.process_time: every thread of the process, BLAS's included) started after the imports. PyTorch trains
chapter 7's decoder (primer_site/torch_decoder.py: written again with torch ops, checked by
tests/test_training_torch.py), from the same initial weights, on the same rows at each step, with torch.optim.Adam,
in float64 like primer. Both run on the CPU in this one process; the ratio is torch's steps per second over primer's.
Without torch installed the PyTorch half is left out.
"""

import json
import os
import subprocess
import sys
import time

import numpy as np

STEPS = 200  # chapter 7's number of steps
BUDGET = 60  # CPU-s, every chapter's training at build (issue 32)


def chapter_6():  # -> [(phase, callable)]
    """Return chapter 6's work as its blocks do it: every seed trained and judged, then the [MASK] walk's guesses."""
    from primer import mlm
    from primer.experiments import trained_encoder
    from primer.inputs.encoder import EXPERIMENT, GRAMMAR, SEEDS

    def guesses():
        run = trained_encoder.trained_encoder(**EXPERIMENT)
        words, position = [".", *mlm.SENTENCE, "."], mlm.MASKED_POSITION + 1
        trained_encoder.walk(run, words, position)
        for sides in ("left", "both"):
            trained_encoder.grammar_fill(GRAMMAR, run.vocab, words, position, sides)

    return [("training and judging", lambda: trained_encoder.over_seeds(EXPERIMENT, SEEDS)), ("guesses", guesses)]


def chapter_7():  # -> [(phase, callable)]
    """Return chapter 7's work: every seed's runs (and their honest measurements), then the texts they write."""
    from primer.experiments import broken_masks
    from primer.inputs.decoder import EXPERIMENT, SEEDS, WRITING

    return [
        ("training and measuring", lambda: broken_masks.over_seeds(EXPERIMENT, SEEDS)),
        ("writing and scoring text", lambda: broken_masks.measures(EXPERIMENT, SEEDS, **WRITING)),
    ]


def chapter_8():  # -> [(phase, callable)]
    """Return chapter 8's work: both models trained and scored on every seed, then the cross-attention's alignment."""
    from primer.experiments import translator
    from primer.inputs import encoder_decoder as page
    from primer.inputs.decoder import GRAMMAR

    def runs():
        return [translator.translators(GRAMMAR, **page.TRANSLATION, seed=s) for s in page.TRANSLATION_SEEDS]

    def alignment():
        for r in runs():
            translator.alignment_agreement(r.enc, r.dec, r.pairs, r.cfg.n_heads)
            translator.alignment_agreement(*r.start, r.pairs, r.cfg.n_heads)
        r = runs()[0]
        source, target = max(r.pairs.heldout, key=lambda pair: len(pair[0]))
        for enc, dec in ((r.enc, r.dec), r.start):
            translator.cross_weights(enc, dec, source, target, r.pairs.vocab, r.cfg.n_heads)

    return [("training and scoring", runs), ("cross-attention", alignment)]


def chapter_15():  # -> [(phase, callable)]
    """Return chapter 15's work beyond chapter 7's: the runs under the document mask and the held-out losses.

    Its causal runs are chapter 7's, which a build computes once for both pages: they are computed here first,
    untimed, so that the total does not count them twice.
    """
    from primer.experiments import packed_training, trained_decoder
    from primer.inputs.decoder import CORPUS, EXPERIMENT, GRAMMAR, MODEL, SEEDS, TRAINING
    from primer.inputs.packing import FIRST

    trained_decoder.over_seeds(EXPERIMENT, SEEDS)
    kw = dict(model=MODEL, corpus_args=CORPUS, training=TRAINING, seeds=SEEDS, first=FIRST)
    return [("document-mask runs and held-out losses", lambda: packed_training.packed_runs(GRAMMAR, **kw))]


CHAPTERS = {6: chapter_6, 7: chapter_7, 8: chapter_8, 15: chapter_15}


def chapter_cpu_s(chapter):  # -> {phase: CPU-s}
    """Return the CPU seconds of each phase of one chapter's training, measured here (call it in a fresh process)."""
    phases = CHAPTERS[chapter]()
    out = {}
    for name, work in phases:
        start = time.process_time()
        work()
        out[name] = time.process_time() - start
    return out


def experiment_cpu_s():  # -> {chapter: {phase: CPU-s}}
    """Return each chapter's training CPU seconds, each measured in a fresh Python, one after the other."""
    out = {}
    for chapter in CHAPTERS:
        done = subprocess.run(
            [sys.executable, __file__, "--chapter", str(chapter)], capture_output=True, text=True, check=True
        )
        out[chapter] = json.loads(done.stdout.splitlines()[-1])
    return out


def setup():
    """Return the chapter's causal run: cfg, initial params, training rows and the rows each step reads."""
    from primer.config import Config
    from primer.experiments import language_model
    from primer.inputs.decoder import EXPERIMENT
    from primer.transformer import init_stack

    data = language_model.make_data(EXPERIMENT["grammar"], **EXPERIMENT["corpus_args"], seed=EXPERIMENT["seed"])
    cfg = Config(vocab_size=len(data.vocab), **EXPERIMENT["model"])
    *_, init_seed, batch_seed = language_model.seeds(EXPERIMENT["seed"])
    rng = np.random.default_rng(batch_seed)  # the rows primer.training.train draws, in its order
    batch_size = EXPERIMENT["training"]["batch_size"]
    batches = [rng.permutation(len(data.tokens))[:batch_size] for _ in range(STEPS)]
    return cfg, init_stack(init_seed, cfg), data, batches, batch_seed


def numpy_run(cfg, params, data, batch_seed):
    """Return (wall seconds, final loss) of primer.training.train for STEPS steps under the causal mask."""
    from primer.inputs.decoder import EXPERIMENT
    from primer.masks import causal_mask
    from primer.training import Rows, train

    start = time.perf_counter()
    history = train(
        params,
        cfg,
        [Rows(data.tokens, data.targets)],
        self_mask=causal_mask,
        steps=STEPS,
        lr=EXPERIMENT["training"]["lr"],
        seed=batch_seed,
        batch_size=EXPERIMENT["training"]["batch_size"],
    ).losses
    return time.perf_counter() - start, float(history[-1])


def torch_run(cfg, params, data, batches):
    """Return (wall seconds, final loss, torch version, threads) of the same training in PyTorch (float64, 1 thread)."""
    import torch

    from primer.inputs.decoder import EXPERIMENT
    from primer.masks import causal_mask
    from primer.optim import trained, tree_map
    from primer_site.torch_decoder import decoder_loss  # the twin tests/test_training_torch.py checks against primer

    torch.set_num_threads(1)  # the matrices are 16 wide: threads only add their hand-over (and fight a shared machine)
    tp = tree_map(lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True), trained(params))
    wpe = torch.from_numpy(params["wpe"])
    flat = []
    tree_map(lambda t: flat.append(t), tp)
    opt = torch.optim.Adam(flat, lr=EXPERIMENT["training"]["lr"])
    tokens, targets = torch.from_numpy(data.tokens), torch.from_numpy(data.targets)
    causal = causal_mask(data.tokens.shape[1])

    def loss(x_ids, y_ids):
        return decoder_loss({**tp, "wpe": wpe}, x_ids, y_ids, causal, cfg)

    start = time.perf_counter()
    for rows in batches:
        rows = torch.from_numpy(rows)
        opt.zero_grad()
        value = loss(tokens[rows], targets[rows])
        value.backward()
        opt.step()
    return time.perf_counter() - start, float(value.item()), torch.__version__, torch.get_num_threads()


def measure():
    """Return each chapter's training CPU seconds, and steps per second of primer and (if installed) PyTorch."""
    out = {"load": os.getloadavg()[0], "chapters": experiment_cpu_s()}
    out["total_cpu_s"] = sum(sum(phases.values()) for phases in out["chapters"].values())
    out["steps"] = STEPS
    cfg, params, data, batches, batch_seed = setup()
    out["cfg"], out["batch"] = cfg, (len(batches[0]), data.tokens.shape[1])
    numpy_run(cfg, params, data, batch_seed)  # warm up
    out["numpy_s"], out["numpy_loss"] = min(
        (numpy_run(cfg, params, data, batch_seed) for _ in range(3)), key=lambda r: r[0]
    )
    try:
        import torch  # noqa: F401
    except ImportError:
        return out
    torch_run(cfg, params, data, batches)  # warm up
    runs = [torch_run(cfg, params, data, batches) for _ in range(3)]
    out["torch_s"], out["torch_loss"], out["torch_version"], out["torch_threads"] = min(runs, key=lambda r: r[0])
    return out


def budget_lines(r):  # -> [str] Markdown
    """Return Markdown: each chapter's training CPU seconds at build, by phase, and the total against the budget."""
    lines = ["| chapter | CPU-s | of which |", "| --- | --- | --- |"]
    for chapter, phases in r["chapters"].items():
        parts = ", ".join(f"{name} {s:.1f}" for name, s in phases.items())
        lines.append(f"| {chapter} | {sum(phases.values()):.1f} | {parts} |")
    lines.append(f"| total | **{r['total_cpu_s']:.1f}** | target ≤ {BUDGET} |")
    return lines + [
        "",
        f"Each chapter in a fresh Python, one after the other; load average {r['load']:.1f} at the start; "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')} (the Makefile sets 1).",
    ]


def report(r):
    """Return Markdown: what the build's training costs, and primer's speed next to PyTorch's."""
    cfg = r["cfg"]
    from primer.experiments.broken_masks import RUNS
    from primer.inputs.decoder import SEEDS

    lines = [
        *budget_lines(r),
        "",
        f"Chapter 7 trains {len(RUNS)} runs of {r['steps']} Adam steps on each of {len(SEEDS)} seeds. "
        f"Model: {cfg.n_layers} layers, d_model {cfg.d_model}, {cfg.n_heads} heads, d_ff {cfg.d_ff}, vocab "
        f"{cfg.vocab_size}; batch {r['batch'][0]} rows × {r['batch'][1]} tokens; the causal run, best of 3.",
        "",
        "| trainer | steps per second | final loss |",
        "| --- | --- | --- |",
        f"| primer.training (numpy, float64) | {r['steps'] / r['numpy_s']:.0f} | {r['numpy_loss']:.3f} |",
    ]
    if "torch_s" in r:
        lines.append(
            f"| PyTorch {r['torch_version']} CPU, float64, {r['torch_threads']} thread(s), autograd + torch.optim.Adam "
            f"| {r['steps'] / r['torch_s']:.0f} | {r['torch_loss']:.3f} |"
        )
        gap = abs(r["numpy_loss"] - r["torch_loss"])
        same = f"agree within 1e-6 ({gap:.0e})" if gap < 1e-6 else f"differ by {gap:.1e}"
        lines += [
            "",
            f"PyTorch / primer: {r['numpy_s'] / r['torch_s']:.2f}x the steps per second. The two final losses {same}: "
            f"the same weights, batches and float64 arithmetic in another order.",
        ]
    else:
        lines += ["", "PyTorch is not installed here (`make .venv/.torch`): no ratio."]
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--chapter"]:  # one chapter, in this fresh process: print its phases' CPU-s as JSON
        print(json.dumps(chapter_cpu_s(int(sys.argv[2]))))
    else:  # the build's training alone: python bench/bench_training.py
        r = {"load": os.getloadavg()[0], "chapters": experiment_cpu_s()}
        r["total_cpu_s"] = sum(sum(phases.values()) for phases in r["chapters"].values())
        print("\n".join(budget_lines(r)))
