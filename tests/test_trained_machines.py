"""experiments.trained_machines: the calls that train chapters 6-8's machines, read from their code; their scores."""

import ast
import inspect
import sys
from types import SimpleNamespace

from primer import training
from primer.config import Config
from primer.counts import count_params, count_values
from primer.experiments import broken_masks, trained_decoder, trained_machines
from primer.machines import MACHINES
from primer.masks import causal_mask
from primer.optim import trained
from primer.transformer import init_stack


def test_the_three_calls_that_train_the_machines_differ_only_in_their_masks():
    calls = trained_machines.training_calls()
    assert list(calls) == list(MACHINES)
    differ, same = trained_machines.differences([line for _, line in calls.values()])
    assert differ == ["self_mask", "source_mask", "cross_mask"]
    assert same == ["start", "cfg", "task", "seed", "**training"]
    for function in trained_machines.SITES.values():  # the name train is primer.training's in every chapter
        assert sys.modules[function.__module__].train is training.train
    assert calls["decoder"] == (
        "primer.experiments.trained_decoder.decoder_run",
        "machine = train(start, cfg, task, self_mask=self_mask, seed=batch_seed, **training)",
    )
    # the decoder's self_mask is causal_mask in the run chapter 9 shows, and chapter 7's causal run is that one run
    assert broken_masks.MASKS["causal"] is causal_mask
    assert "decoder_run(*setup, 'causal', causal_mask)" in ast.unparse(ast.parse(inspect.getsource(trained_decoder)))
    assert calls["encoder"][1].endswith("self_mask=full_mask, seed=batch_seed, **training)")
    assert "source_mask=full_mask, cross_mask=full_mask" in calls["encoder-decoder"][1]


def test_differences_names_what_differs_and_what_does_not():
    lines = ["y = f(a, b, k=1, **t)", "y = f(a, c, k=1, **t)", "y = f(a, b, k=1, m=2, **t)"]
    assert trained_machines.differences(lines) == (["argument 2", "m"], ["a", "k", "**t"])
    assert trained_machines.differences(lines[:1] * 3) == ([], ["a", "b", "k", "**t"])


def test_one_count_for_every_machine_agrees_with_the_shape():
    cfg = Config(vocab_size=21, d_model=16, n_heads=2, d_ff=32, n_layers=2, max_len=32)
    assert count_values(trained(init_stack(0, cfg))) == sum(count_params(cfg, "decoder").values())
    two = count_values(trained(init_stack(0, cfg))) + count_values(trained(init_stack(1, cfg, cross=True)))
    # each of primer's two stacks has its own embedding matrix; count_params shares one, as T5 does
    assert two == sum(count_params(cfg, "encoder-decoder").values()) + cfg.vocab_size * cfg.d_model


def test_side_by_side_reads_each_chapters_measures():
    cfg = Config(vocab_size=8, d_model=8, n_heads=2, d_ff=8, n_layers=1, max_len=8)
    params, cross = init_stack(0, cfg), init_stack(1, cfg, cross=True)
    enc = SimpleNamespace(params=params, accuracy=lambda who, sides: {"encoder": 0.5, "grammar": 0.6}[who])
    data = SimpleNamespace(grammar_heldout_loss=0.7)
    dec = (data, cfg, SimpleNamespace(params=params, heldout_loss=0.9))
    tr = SimpleNamespace(enc=params, dec=cross, exact={"encoder-decoder": 0.95}, per_token={"encoder-decoder": 0.99})
    out = trained_machines.side_by_side([enc], [dec], [tr, tr])
    assert list(out) == list(MACHINES)
    assert out["encoder"] == {"params": [count_values(trained(params))], "score": [0.5], "reference": [0.6]}
    assert out["decoder"]["score"] == [0.9] and out["decoder"]["reference"] == [0.7]
    assert out["encoder-decoder"]["score"] == [0.95, 0.95]
    assert out["encoder-decoder"]["params"][0] == count_values(trained(params)) + count_values(trained(cross))
