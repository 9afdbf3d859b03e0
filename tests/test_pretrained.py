"""The real model, SmolLM2-135M-Instruct, through primer.llama_decoder: its shape read from the file, its predictions,
its cache, its masks and positions, its bad input. `make test` fetches the file first (make model)."""

import numpy as np
import pytest

from primer import counts, llama_decoder, mask_checks, pretrained
from primer.masks import causal_mask
from primer.pretrained import fetch

pytestmark = pytest.mark.slow  # loads a 98 MB model (about 4 s); make check leaves it to make test

PROMPT = "The capital of Germany is"


@pytest.fixture(scope="module")
def model():
    return pretrained.load()


def test_the_shape_comes_from_the_files_metadata(model):
    cfg, meta = model.cfg, model.metadata
    assert (cfg.n_layers, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.d_head) == (30, 576, 9, 3, 64)
    assert (cfg.d_ff, cfg.vocab_size, cfg.max_len) == (1536, 49152, 8192)
    assert model.theta == 100_000.0 and abs(model.eps - 1e-5) < 1e-12
    assert meta["general.license"] == "apache-2.0" and meta["general.organization"] == "HuggingFaceTB"
    assert model.path == fetch.gguf_path().resolve() and fetch.sha256_of(model.path) == fetch.GGUF_SHA256


def test_primers_parameter_count_of_the_shape_is_what_the_file_holds(model):
    held = model.params["embedding"].size + model.params["final_norm"].size
    held += sum(w.size for layer in model.params["layers"] for w in layer.values())
    assert sum(counts.count_params(model.cfg, "decoder").values()) == held == 134_515_008


def test_the_tokenizer_reads_english_and_gives_it_back(model):
    ids = model.encode(PROMPT)
    assert [model.token(i) for i in ids] == ["The", " capital", " of", " Germany", " is"]
    text = "Attention masks, 2024: key j is read by query i (i >= j)."
    assert model.decode(model.encode(text)) == text
    assert len(model.encode("2024")) == 4  # smollm splits every digit


def test_berlin_is_the_top_prediction_after_the_capital_of_germany_is(model):
    logits = model.logits(model.encode(PROMPT))
    assert logits.shape == (5, 49152) and logits.dtype == np.float32
    assert model.token(int(np.argmax(logits[-1]))) == " Berlin"


def test_the_kv_cache_gives_the_full_pass(model):
    ids = model.encode("Masks decide which tokens each query may read, and the cache keeps the keys.")
    full = model.logits(ids)
    logits, _, past = model.forward(ids[:-4])
    rows = [logits]
    for token in ids[-4:]:
        step, _, past = model.forward([token], past=past)
        rows.append(step)
    gap = np.abs(np.concatenate(rows) - full).max()
    assert gap < 1e-3 and np.abs(full).max() > 10  # float32 matmuls of other shapes: about 1e-4 measured


def test_left_padding_with_mask_and_shifted_positions_gives_the_unpadded_logits(model):
    ids, n_pad = model.encode(PROMPT), 3
    padded = [2] * n_pad + ids  # 2: the file's padding token
    mask = causal_mask(len(padded))
    mask[:, :n_pad] = False
    mask[np.arange(n_pad), np.arange(n_pad)] = True  # a pad row reads itself, so no row is empty
    positions = np.maximum(np.arange(len(padded)) - n_pad, 0)
    base = model.logits(ids)
    right = model.logits(padded, mask, positions)[n_pad:]
    no_mask = model.logits(padded, positions=positions)[n_pad:]
    unshifted = model.logits(padded, mask)[n_pad:]
    scale = np.abs(base).max()
    assert np.abs(right - base).max() < 1e-3 * scale
    assert np.abs(no_mask - base).max() > 0.1 * scale  # the pads are read: the logits move
    # Rotary positions enter the scores through offsets only: with the pads masked, positions not shifted move the
    # logits by rounding alone (about 5e-5 measured), unlike a model with absolute positions.
    assert np.abs(unshifted - base).max() < 1e-3 * scale


def test_attention_weights_per_layer_and_head_and_the_first_token_sink(model):
    ids = model.encode("The quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat.")
    _, attn, _ = model.forward(ids, keep_attn=True)
    n = len(ids)
    assert attn.shape == (30, 9, n, n) and np.abs(attn.sum(axis=-1) - 1).max() < 1e-9
    assert (attn[..., ~causal_mask(n)] == 0).all()  # exp(-inf) == 0 exactly: no weight on a future key
    sink = attn[:, :, 1:, 0].mean(axis=(1, 2))  # [layers]: share of attention on token 0, rows 1..n-1
    assert sink[:3].max() < 0.5 < np.median(sink[3:])


@pytest.mark.parametrize(
    "call, arg",
    [
        (lambda m: m.logits([]), "ids"),
        (lambda m: m.logits([1, 49152]), "ids"),
        (lambda m: m.logits([1, -1]), "ids"),
        (lambda m: m.logits([1.0, 2.0]), "ids"),
        (lambda m: m.logits([1, 2, 3], causal_mask(2)), "mask"),
        (lambda m: m.logits([1, 2], np.ones((2, 2))), "mask"),
        (lambda m: m.logits([1, 2], np.array([[False, False], [True, True]])), "mask"),
        (lambda m: m.logits([1, 2], positions=[0]), "positions"),
        (lambda m: m.logits([1, 2], positions=[0.5, 1.5]), "positions"),
        (lambda m: m.encode(""), "text"),
    ],
)
def test_bad_input_to_the_model_names_the_argument(model, call, arg):
    with pytest.raises(ValueError, match=rf"\b{arg}\b"):
        call(model)


def test_a_missing_or_corrupted_file_says_how_to_fetch_it(tmp_path):
    with pytest.raises(ValueError, match="make model"):
        pretrained.load(tmp_path / "absent.gguf")
    corrupted = tmp_path / "model.gguf"
    corrupted.write_bytes(fetch.gguf_path().read_bytes()[: 1 << 20])  # the first MB of the real file
    with pytest.raises(ValueError, match="sha256 differs"):
        pretrained.load(corrupted)
    with pytest.raises(ValueError, match="not a readable GGUF file"):
        pretrained.load(corrupted, verify=False)


def test_the_check_kit_passes_a_real_attention_layer_and_catches_it_under_the_full_mask(model):
    layer, cfg = model.params["layers"][5], model.cfg

    def attend(x, mask):  # x [n, 576] float64: the float32 weights meet float64 rows, so the layer runs in float64
        return llama_decoder.self_attention(x, layer, cfg, mask, np.arange(len(x)), model.theta)[0]

    def step():
        past = []

        def one(x_t):  # [576] -> [576]: one new row, the keys and values of the earlier ones from the cache
            n_past = past[0][0].shape[1] if past else 0
            y, _, kv = llama_decoder.self_attention(
                x_t[None], layer, cfg, causal_mask(1, n_past + 1), [n_past], model.theta, past[0] if past else None
            )
            past[:] = [kv]
            return y[0]

        return one

    causal = lambda x: attend(x, causal_mask(len(x)))  # noqa: E731
    assert mask_checks.check_causal(causal, n=8, d=cfg.d_model) == []
    assert mask_checks.check_cache(step, causal, n=8, d=cfg.d_model) == []
    leaks = mask_checks.check_causal(lambda x: attend(x, np.ones((len(x), len(x)), bool)), n=8, d=cfg.d_model)
    assert {p.kind for p in leaks} == {"suspect", "future"} and leaks[0].startswith(
        "every output moves with every input"
    )
