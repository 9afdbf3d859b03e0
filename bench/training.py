"""Training speed: chapter 7's experiment in CPU seconds, primer.training's steps per second, PyTorch's on the same.

PyTorch trains the same decoder (tests/torch_decoder.py: written again with torch ops, checked by
tests/test_training_torch.py), from the same initial weights, on the same rows at each step, with torch.optim.Adam, in
float64 like primer. Both run on the CPU in this one process; the ratio is torch's steps per second
over primer's. Without torch installed the PyTorch half is left out.
"""

import sys
import time
from pathlib import Path

import numpy as np

STEPS = 200  # the chapter's number of steps


def experiment_cpu_s():
    """Return the CPU seconds (every thread) of chapter 7's training over its seeds, and of the texts its models write.

    Done once as the build does it: every seed's runs (and their honest measurements), then the summary's texts.
    """
    from primer import broken_masks
    from primer.pages.decoder import EXPERIMENT, SEEDS, WRITING

    start = time.process_time()
    broken_masks.over_seeds(EXPERIMENT, SEEDS)
    trained = time.process_time()
    broken_masks.summary(EXPERIMENT, SEEDS, **WRITING)
    return trained - start, time.process_time() - trained


def setup():
    """Return the chapter's causal run: cfg, initial params, training rows and the rows each step reads."""
    from primer import language_model
    from primer.config import Config
    from primer.pages.decoder import EXPERIMENT
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
    from primer.masks import causal_mask
    from primer.pages.decoder import EXPERIMENT
    from primer.training import train

    start = time.perf_counter()
    _, history = train(
        params,
        cfg,
        data.tokens,
        data.targets,
        causal_mask(data.tokens.shape[1]),
        steps=STEPS,
        lr=EXPERIMENT["training"]["lr"],
        seed=batch_seed,
        batch_size=EXPERIMENT["training"]["batch_size"],
    )
    return time.perf_counter() - start, float(history[-1])


def torch_run(cfg, params, data, batches):
    """Return (wall seconds, final loss, torch version, threads) of the same training in PyTorch (float64, 1 thread)."""
    import torch

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from torch_decoder import decoder_loss  # the twin tests/test_training_torch.py checks against primer

    from primer.masks import causal_mask
    from primer.pages.decoder import EXPERIMENT
    from primer.training import trained, tree_map

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
    """Return chapter 7's training CPU seconds, and steps per second of primer and (if installed) PyTorch."""
    training_s, writing_s = experiment_cpu_s()
    out = {"experiment_cpu_s": training_s + writing_s, "training_cpu_s": training_s, "writing_cpu_s": writing_s}
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


def report(r):
    """Return Markdown: what chapter 7's training costs, and primer's speed next to PyTorch's."""
    cfg = r["cfg"]
    from primer.broken_masks import RUNS
    from primer.pages.decoder import SEEDS

    lines = [
        f"Chapter 7 trains {len(RUNS)} runs of {r['steps']} Adam steps on each of {len(SEEDS)} seeds: "
        f"{r['experiment_cpu_s']:.1f} CPU-s in all (target ≤ 60), {r['training_cpu_s']:.1f} of them training and "
        f"measuring, {r['writing_cpu_s']:.1f} writing and scoring text. Model: {cfg.n_layers} layers, "
        f"d_model {cfg.d_model}, {cfg.n_heads} heads, d_ff {cfg.d_ff}, vocab {cfg.vocab_size}; batch "
        f"{r['batch'][0]} rows × {r['batch'][1]} tokens; the causal run, best of 3.",
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
