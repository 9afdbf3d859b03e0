"""The trained machines of chapters 6-8 side by side: the one call that trains each, and what each learned.

All three are trained by one call of primer.training.train, whose loop runs the same block_forward,
block_backward and adam_step. Those three calls are read here from the functions that make them
(inspect.getsource on the function itself), so a page showing them, or the arguments in which they
differ, cannot drift from what ran.
"""

import ast
import inspect
import textwrap

from primer.counts import count_values
from primer.experiments import trained_decoder, trained_encoder, translator
from primer.optim import trained

# The function that trains each machine (each calls train once), by machine
SITES = {
    "encoder": trained_encoder.encoder_run,
    "decoder": trained_decoder.decoder_run,
    "encoder-decoder": translator.translator_run,
}


def train_statement(function):  # -> ast statement
    """Return the one statement of function that assigns a call of train, or raise ValueError."""
    if not inspect.isfunction(inspect.unwrap(function)):
        raise ValueError(f"function must be a Python function (its source is read), got {function!r}")
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Call)
        and isinstance(n.value.func, ast.Name)
        and n.value.func.id == "train"
    ]
    if len(calls) != 1:
        raise ValueError(f"function {where(function)} must assign one call of train, found {len(calls)}")
    return calls[0]


def where(function):  # -> "primer.experiments.trained_encoder.encoder_run"
    """Return a function's dotted name, as a reader would import it."""
    return f"{function.__module__}.{function.__qualname__}"


def training_calls():  # -> {machine: (where, line)}
    """Return, per machine, where its chapter calls train and that statement, unparsed onto one line."""
    return {machine: (where(function), ast.unparse(train_statement(function))) for machine, function in SITES.items()}


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

    encoder_runs: trained_encoder.over_seeds's; decoder_runs: trained_decoder.over_seeds's;
    translator_runs: translator.translators's, one per seed.
    """
    for name, runs in (
        ("encoder_runs", encoder_runs),
        ("decoder_runs", decoder_runs),
        ("translator_runs", translator_runs),
    ):
        if not len(runs):
            raise ValueError(f"{name} must hold at least one seed's run")
    causal = [(data, run) for data, _, run in decoder_runs]
    return {
        "encoder": {
            "params": [count_values(trained(r.params)) for r in encoder_runs],
            "score": [r.accuracy("encoder", "both") for r in encoder_runs],  # a hidden held-out word guessed right
            "reference": [r.accuracy("grammar", "both") for r in encoder_runs],  # the best any guesser can do
        },
        "decoder": {
            "params": [count_values(trained(run.params)) for _, run in causal],
            "score": [run.heldout_loss for _, run in causal],  # next-token loss on held-out text
            "reference": [data.grammar_heldout_loss for data, _ in causal],  # the grammar's own loss there
        },
        "encoder-decoder": {
            "params": [count_values(trained(t.enc)) + count_values(trained(t.dec)) for t in translator_runs],
            "score": [t.exact["encoder-decoder"] for t in translator_runs],  # held-out sentences translated exactly
            "reference": [t.per_token["encoder-decoder"] for t in translator_runs],  # held-out words right
        },
    }
