import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import causal_mask, full_mask
from primer.decoding import greedy
from primer.image_prefix import prefix_dependence, toy_image
from primer.inputs import sampling_pipeline as page
from primer.inputs.sampling_pipeline import PROMPT, SOURCE
from primer.inputs.today import CAPTION, IMAGE_SEED, IMAGE_SIDE, PATCH_SIDE
from primer.machines import MACHINES, machine_masks, reach
from primer.sampling_pipeline import (
    CFG,
    STAGES,
    VOCAB,
    blocks,
    dependence,
    detokenize,
    forward,
    shared_weights,
    source_enc_out,
    tokenize,
)
from primer.sampling_pipeline import run as run_pipeline
from primer.transformer import decode, embed, encode, init_stack, stack

PARAMS = shared_weights(page.SEED)


def run(n_new=page.N_NEW, temperature=page.TEMPERATURE, seed=page.SAMPLE_SEED, greedy=False):
    """Run the pipeline on the page's prompt and weights."""
    return run_pipeline(PROMPT, PARAMS, n_new=n_new, temperature=temperature, seed=seed, greedy=greedy)


def page_memory():
    """Return the encoder's output for the page's source."""
    return source_enc_out(SOURCE, page.ENCODER_SEED)


texts = st.text(alphabet=VOCAB, min_size=1, max_size=20)


@given(texts)
def test_tokenize_round_trips(text):
    ids = tokenize(text)
    assert ids.shape == (len(text),) and ids.min() >= 0 and ids.max() < CFG.vocab_size
    assert detokenize(ids) == text


def test_vocabulary_fits_the_config():
    assert len(VOCAB) == len(set(VOCAB)) == CFG.vocab_size
    assert tokenize(PROMPT).tolist() == [20, 8, 5, 0, 3, 1, 20]


@settings(max_examples=15, deadline=None)
@given(texts, st.sampled_from(MACHINES))
def test_stages_2_to_4_equal_the_transformer_stack(text, machine):
    ids = tokenize(text)
    enc_out = page_memory() if machine == "encoder-decoder" else None
    self_mask, cross_mask = machine_masks(machine, ids.size, None if enc_out is None else len(enc_out))
    out = forward(ids, PARAMS, CFG, machine, enc_out)
    x = embed(ids, PARAMS, CFG)
    assert np.array_equal(out["embed"], x)
    h, _ = stack(x, PARAMS, CFG, self_mask, enc_out=enc_out, cross_mask=cross_mask)
    assert np.allclose(out["final_norm"], h, atol=1e-12)


def test_forward_agrees_with_encode_and_decode():
    ids = tokenize(PROMPT)
    plain = init_stack(0, CFG)
    assert np.allclose(forward(ids, plain, CFG, "encoder")["final_norm"], encode(ids, plain, CFG), atol=1e-12)
    assert np.allclose(forward(ids, plain, CFG, "decoder")["logits"], decode(ids, plain, CFG), atol=1e-12)
    enc_out = page_memory()
    assert np.allclose(
        forward(ids, PARAMS, CFG, "encoder-decoder", enc_out)["logits"],
        decode(ids, PARAMS, CFG, enc_out=enc_out),
        atol=1e-12,
    )


def test_source_enc_out_is_a_separate_encoders_output():
    assert np.allclose(page_memory(), encode(tokenize(SOURCE), init_stack(1, CFG), CFG))


def test_run_records_seven_stages_with_their_shapes():
    stages, text = run()
    assert tuple(s.name for s in stages) == STAGES
    shapes = [s.array.shape for s in stages]
    assert shapes == [(7,), (7, 16), (7, 16), (7, 16), (7, 32), (1,), (9, 15)]
    assert text == "the catjjjjjjjj"  # pinned on both pages
    assert int(stages[5].array[0]) == 10 == VOCAB.index("j")
    glimpse = [", ".join(f"{v:.2f}" for v in s.array[0][:4]) for s in stages[1:5]]
    assert glimpse == [
        "0.35, 0.44, -1.10, 1.30",
        "0.03, 0.06, -2.58, -0.68",
        "-0.21, -0.19, -1.76, -0.63",
        "-3.21, -1.46, 4.41, 4.78",
    ]


def test_run_loop_grid_grows_one_id_per_step_and_repeats():
    stages, text = run()
    grid = stages[-1].array
    final = tokenize(text)
    for k, row in enumerate(grid):
        written = row[row >= 0]
        assert written.size == len(PROMPT) + k
        assert np.array_equal(written, final[: written.size])
    again, text_again = run()
    assert text_again == text
    assert all(np.array_equal(a.array, b.array) for a, b in zip(stages, again))


def test_run_greedy_appends_the_argmax_each_step():
    stages, text = run(n_new=5, greedy=True, temperature=0)
    ids = tokenize(text)
    for n in range(len(PROMPT), ids.size):
        assert ids[n] == greedy(forward(ids[:n], PARAMS, CFG, "decoder")["logits"][-1])


def test_run_with_other_seeds_is_still_seeded():
    assert run(seed=1)[1] == run(seed=1)[1]
    assert run(n_new=0)[1] == PROMPT


def test_dependence_equals_stage_3_masks():
    n, m = len(PROMPT), len(SOURCE)
    for machine in MACHINES:
        assert np.array_equal(dependence(PROMPT, machine, SOURCE, PARAMS, page.ENCODER_SEED), reach(machine, n, m)), (
            machine
        )
    assert reach("encoder", n, m)[:, :n].all() and not reach("encoder", n, m)[:, n:].any()
    assert np.array_equal(reach("decoder", n, m)[:, :n], causal_mask(n))
    assert reach("encoder-decoder", n, m)[:, n:].all()


def test_blocks_with_memory_defaults_to_a_full_cross_mask():
    x = embed(tokenize(PROMPT), PARAMS, CFG)
    mem = page_memory()
    assert np.array_equal(
        blocks(x, PARAMS, CFG, causal_mask(7), mem), blocks(x, PARAMS, CFG, causal_mask(7), mem, full_mask(7, len(mem)))
    )


STAGE_NAMES = {
    "zh": ["① 分词", "② 嵌入", "③ N 个带掩码的块", "④ 最终归一化", "⑤ logits", "⑥ 采样", "⑦ 循环"],
    "en": ["① tokenize", "② embed", "③ N masked blocks", "④ final norm", "⑤ logits", "⑥ sample", "⑦ loop"],
}
MACHINE_BUTTONS = {
    "zh": ["编码器（全开）", "解码器（因果）", "编码器-解码器（因果 + 交叉）"],
    "en": ["encoder (full)", "decoder (causal)", "encoder-decoder (causal + cross)"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pipeline_figures_have_working_controls(lang):
    from primer.decoding import temperature_softmax
    from primer.figures import sampling_pipeline as figs
    from primer.figures import today

    stages, _ = run()
    fig = figs.pipeline_stages(stages, temperature_softmax(stages[4].array[-1], 1.0), VOCAB, temperature=1.0, lang=lang)
    steps = fig.layout.sliders[0].steps
    assert len(steps) == 7 and len(fig.data) == 14
    for k, s in enumerate(steps):
        assert [i for i, v in enumerate(s.args[0]["visible"]) if v] == [2 * k, 2 * k + 1]
        assert s.args[1]["title.text"].startswith(STAGE_NAMES[lang][k])
    n, m = len(PROMPT), len(SOURCE)
    masks = {name: reach(name, n, m) for name in MACHINES}
    swap = figs.mask_swap(masks, masks, PROMPT, SOURCE, lang=lang)
    buttons = swap.layout.updatemenus[0].buttons
    assert list(MACHINES) == ["encoder", "decoder", "encoder-decoder"]
    assert [b.label for b in buttons] == MACHINE_BUTTONS[lang]
    assert len(swap.data) == 12 and all(sum(b.args[0]["visible"]) == 4 for b in buttons)
    image = toy_image(IMAGE_SEED, IMAGE_SIDE)
    dep = prefix_dependence(image, CAPTION, PARAMS, IMAGE_SEED, PATCH_SIDE)
    assert len(today.image_prefix(image, dep, 4, CAPTION, lang=lang).data) == 3
    assert figs.reads([True, True, False, True, False, True, True], 4, lang=lang).startswith("0–1, 3 + ")
