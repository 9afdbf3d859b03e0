"""primer.trained_machines: the mask-passing lines read from chapters 6-8's training code, and their scores."""

import ast
from types import SimpleNamespace

import numpy as np

from primer import broken_masks, trained_machines, translator
from primer.config import Config
from primer.counts import count_params, count_weights
from primer.masks import causal_mask, full_mask
from primer.training import trained
from primer.transformer import init_stack


def calls():
    return {
        m: [line for _, _, lines in sites for line in lines] for m, sites in trained_machines.training_calls().items()
    }


def train_call(line):  # "params, history = train(...)" -> the ast.Call
    return ast.parse(line).body[0].value


def test_the_encoder_and_the_decoder_call_one_train_and_differ_in_what_the_page_lists():
    enc, dec = (train_call(calls()[m][-1]) for m in ("encoder", "decoder"))
    assert ast.unparse(enc.func) == ast.unparse(dec.func) == "train"
    # positional: params, cfg, tokens, targets, mask; the 5th is the mask
    assert ast.unparse(enc.args[1]) == ast.unparse(dec.args[1]) == "cfg"
    assert ast.unparse(enc.args[4]) == "full_mask(n)" and ast.unparse(dec.args[4]) == "masks[name]"
    enc_kw, dec_kw = ({k.arg or "**" for k in call.keywords} for call in (enc, dec))  # "**": **training
    assert enc_kw - dec_kw == {"weights", "**"}  # weights: the masked-LM loss counts the hidden positions only
    assert dec_kw - enc_kw - {"steps", "lr", "batch_size"} == {"callback"}  # the encoder passes those in **training
    assert "causal = causal_mask(n)" in calls()["decoder"]
    assert np.array_equal(broken_masks.training_masks(6)["causal"], causal_mask(6))  # masks[name], name "causal"


def test_the_encoder_decoder_passes_its_three_masks_to_the_shared_stack_code():
    lines = calls()["encoder-decoder"]
    assert lines[0].startswith("enc, dec, l_encdec = train_encdec(")
    assert "enc_mask, _ = masks('encoder', src.shape[1])" in lines
    assert "memory, enc_cache = stack_forward(enc, src, enc_mask, n_heads)" in lines
    assert "z, dec_cache = decoder_forward(dec, tgt_in, dec_mask, n_heads, memory, cross_mask)" in lines
    self_mask, cross_mask = translator.masks("encoder-decoder", 4, 3)
    assert np.array_equal(self_mask[0, 0], causal_mask(4)) and cross_mask.all() and cross_mask.shape[-2:] == (4, 3)
    assert np.array_equal(translator.masks("encoder", 3)[0][0, 0], full_mask(3))


def test_one_count_for_every_machine_agrees_with_the_shape():
    cfg = Config(vocab_size=21, d_model=16, n_heads=2, d_ff=32, n_layers=2, max_len=32)
    assert count_weights(trained(init_stack(0, cfg))) == sum(count_params(cfg, "decoder").values())
    two = count_weights(trained(init_stack(0, cfg))) + count_weights(trained(init_stack(1, cfg, cross=True)))
    # each of primer's two stacks has its own embedding matrix; count_params shares one, as T5 does
    assert two == sum(count_params(cfg, "encoder-decoder").values()) + cfg.vocab_size * cfg.d_model


def test_side_by_side_reads_each_chapters_measures():
    cfg = Config(vocab_size=8, d_model=8, n_heads=2, d_ff=8, n_layers=1, max_len=8)
    params, cross = init_stack(0, cfg), init_stack(1, cfg, cross=True)
    enc = SimpleNamespace(params=params, accuracy=lambda who, sides: {"encoder": 0.5, "grammar": 0.6}[who])
    data = SimpleNamespace(grammar_heldout_loss=0.7)
    dec = (data, cfg, {"causal": SimpleNamespace(params=params, heldout_loss=0.9)})
    tr = SimpleNamespace(enc=params, dec=cross, exact={"encoder-decoder": 0.95}, per_token={"encoder-decoder": 0.99})
    out = trained_machines.side_by_side([enc], [dec], [tr, tr])
    assert list(out) == list(trained_machines.MACHINES)
    assert out["encoder"] == {"weights": [count_weights(trained(params))], "score": [0.5], "reference": [0.6]}
    assert out["decoder"]["score"] == [0.9] and out["decoder"]["reference"] == [0.7]
    assert out["encoder-decoder"]["score"] == [0.95, 0.95]
    assert out["encoder-decoder"]["weights"][0] == count_weights(trained(params)) + count_weights(trained(cross))


def test_a_tuple_target_reads_the_same_on_every_python():
    assert trained_machines.one_line(ast.parse("(params, history) = train(x)").body[0]) == "params, history = train(x)"
    assert trained_machines.one_line(ast.parse("y = f(a, b)").body[0]) == "y = f(a, b)"
