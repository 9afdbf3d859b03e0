"""The trained machines of chapters 6-8 side by side: the one call that trains each, and what each learned.

All three are trained by one call of primer.training.train, whose loop runs the same block_forward,
block_backward and adam_step. Those three calls are read here from the chapters' code itself, so a
page showing them, or the arguments in which they differ, cannot drift from what ran.
"""

import ast
import inspect

from primer.counts import count_weights
from primer.experiments import broken_masks, trained_encoder, translator
from primer.training import trained

MACHINES = ("encoder", "decoder", "encoder-decoder")

# Where each machine is trained: the function of its chapter's module that calls train.
SITES = {
    "encoder": (trained_encoder, "_run"),
    "decoder": (broken_masks, "_experiment"),
    "encoder-decoder": (translator, "_experiment"),
}


def train_statement(module, function):  # -> ast statement
    """Return the one statement of module's function that calls train, or raise ValueError."""
    tree = ast.parse(inspect.getsource(module))
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function]
    if not found:
        raise ValueError(f"function must be defined in {module.__name__}, got {function!r}")
    calls = [
        n
        for n in ast.walk(found[0])
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Call)
        and isinstance(n.value.func, ast.Name)
        and n.value.func.id == "train"
    ]
    if len(calls) != 1:
        raise ValueError(f"function {module.__name__}.{function} must assign one call of train, found {len(calls)}")
    return calls[0]


def training_calls():  # -> {machine: (where, line)}
    """Return, per machine, where its chapter calls train and that statement, unparsed onto one line."""
    return {
        machine: (f"{module.__name__}.{function}", ast.unparse(train_statement(module, function)))
        for machine, (module, function) in SITES.items()
    }


def arguments(call):  # ast.Call -> {argument: source}
    """Return a call's arguments as source text, keyed by keyword, by position ("#0", ...) or as "**name"."""
    out = {f"#{i}": ast.unparse(a) for i, a in enumerate(call.args)}
    for k in call.keywords:
        out[k.arg if k.arg else "**" + ast.unparse(k.value)] = ast.unparse(k.value)
    return out


def differences(lines):  # [str] statements -> ([arguments that differ], [arguments the same in all])
    """Return the arguments whose source differs between the calls (or is missing from some), and the rest."""
    given = [arguments(ast.parse(line).body[0].value) for line in lines]
    names = list(dict.fromkeys(name for args in given for name in args))
    differ = [name for name in names if len({args.get(name) for args in given}) > 1]

    def label(name):  # a positional argument is shown as its source where all agree, else by its place
        if not name.startswith("#"):
            return name
        return given[0][name] if name not in differ else f"argument {int(name[1:]) + 1}"

    return [label(n) for n in differ], [label(n) for n in names if n not in differ]


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
