"""The trained machines of chapters 6-8 side by side: where their training passes the masks, and what they learned.

All three train with primer.training's block_forward / block_backward and adam_step. What their
training code passes besides the masks (the data, which positions the loss counts, one stack or
two) is read here from that code itself, so a page showing it cannot drift from what ran.
"""

import ast
import inspect

from primer import broken_masks, trained_encoder, translator
from primer.counts import count_weights
from primer.training import trained

MACHINES = ("encoder", "decoder", "encoder-decoder")

# Where each machine's training passes its masks: (module, function, the calls whose statements are shown).
SITES = {
    "encoder": ((trained_encoder, "_run", ("train",)),),
    "decoder": ((broken_masks, "training_masks", ("causal_mask",)), (broken_masks, "_experiment", ("train",))),
    "encoder-decoder": (
        (translator, "_experiment", ("train_encdec",)),
        (translator, "encdec_forward", ("masks", "stack_forward", "decoder_forward")),
    ),
}


def one_line(node):  # ast statement -> str
    """Return a statement as source on one line; `a, b = f()` is written out by hand, since Python 3.10's unparse adds
    parentheses around a tuple target and later versions do not, and the page must read the same on every Python."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
        return ", ".join(ast.unparse(e) for e in node.targets[0].elts) + " = " + ast.unparse(node.value)
    return ast.unparse(node)


def statements(module, function, callees):  # -> [str] one line each
    """Return the statements of module's function that call one of callees, each unparsed onto one line."""
    tree = ast.parse(inspect.getsource(module))
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function]
    if not found:
        raise ValueError(f"function must be defined in {module.__name__}, got {function!r}")
    lines = []
    for node in ast.walk(found[0]):
        if isinstance(node, (ast.Assign, ast.Expr, ast.Return)):
            calls = [c for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)]
            if any(c.func.id in callees for c in calls):
                lines.append((node.lineno, one_line(node)))
    return [line for _, line in sorted(lines)]


def training_calls():  # -> {machine: [(module name, function, [lines])]}
    """Return, per machine, the lines of its chapter's training code that pass the masks, read from that code."""
    return {
        machine: [
            (module.__name__, function, statements(module, function, callees)) for module, function, callees in sites
        ]
        for machine, sites in SITES.items()
    }


def side_by_side(encoder_runs, decoder_runs, translator_runs):  # -> {machine: {measure: [one value per seed]}}
    """Return, per trained machine, its weights (counted by one function) and its held-out scores, one per seed.

    encoder_runs: trained_encoder.over_seeds's; decoder_runs: broken_masks.over_seeds's (its causal run);
    translator_runs: translator.experiment's, one per seed.
    """
    for name, runs in (
        ("encoder_runs", encoder_runs),
        ("decoder_runs", decoder_runs),
        ("translator_runs", translator_runs),
    ):
        if not len(runs):
            raise ValueError(f"{name} must hold at least one seed's run")
    causal = [(data, runs["causal"]) for data, _, runs in decoder_runs]
    return {
        "encoder": {
            "weights": [count_weights(trained(r.params)) for r in encoder_runs],
            "score": [r.accuracy("encoder", "both") for r in encoder_runs],  # a hidden held-out word guessed right
            "reference": [r.accuracy("grammar", "both") for r in encoder_runs],  # the best any guesser can do
        },
        "decoder": {
            "weights": [count_weights(trained(run.params)) for _, run in causal],
            "score": [run.heldout_loss for _, run in causal],  # next-token loss on held-out text
            "reference": [data.grammar_heldout_loss for data, _ in causal],  # the grammar's own loss there
        },
        "encoder-decoder": {
            "weights": [count_weights(trained(t.enc)) + count_weights(trained(t.dec)) for t in translator_runs],
            "score": [t.exact["encoder-decoder"] for t in translator_runs],  # held-out sentences translated exactly
            "reference": [t.per_token["encoder-decoder"] for t in translator_runs],  # held-out words right
        },
    }
