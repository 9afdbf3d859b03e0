"""Each chapter's PyTorch tab (docs/snippets/<chapter>/<name>_torch.py) against its numpy tab (<name>.py).

The build only shows a twin; these tests run it. Both programs run as a reader runs them (tests/test_copy_paste.py's
`python pasted.py` in an empty directory, only PATH set) and must print the same thing: the same text, and every
number within the chapter's bound in BOUNDS. Both programs round what they print, so a bound is one unit of the last
printed digit (a value on a rounding edge may round either way); integers and booleans must match exactly.

Where the two RNGs differ (chapter 6's masking rule, chapter 12's draws), the sampled line is compared by its form,
and the distributions are compared in-process instead of the samples (tests/test_torch_conventions.py). Where
PyTorch's convention differs from ours, the twin says so in a comment, and MUTATIONS proves the spelling in the twin
is load-bearing: the program with the naive spelling prints something else, or fails.
"""

import ast
import contextlib
import io
import re
import sys

import numpy as np
import pytest
from pasted import html_blocks, markdown_fences, normalize, run_pasted
from site_reader import DOCS, LANGS, html_path, load_snippet

torch = pytest.importorskip("torch")

SNIPPETS = DOCS / "snippets"
CHAPTERS = sorted(p.stem for p in (DOCS / "zh").glob("[0-9][0-9]-*.md"))
TWINS = {p.parent.name: p for p in sorted(SNIPPETS.glob("*/*_torch.py"))}

# (absolute, relative) bound on each printed number: |torch - numpy| <= abs + rel * |numpy|.
BOUNDS = {
    "01-rnn": (0.0, 1e-2),  # two norms printed with 3 significant digits (.2e)
    "02-seq2seq": (1e-3, 0.0),  # weights printed with 3 decimals
    "03-attention": (1e-2, 0.0),  # variances printed with 1 and 2 decimals
    "04-self-cross-heads": (1e-2, 0.0),  # max |difference| printed with 2 decimals
    "05-mask": (1e-3, 0.0),  # weights printed with 3 decimals
    "06-encoder": (0.0, 0.0),  # words and a boolean
    "07-decoder": (0.0, 0.0),  # words and booleans
    "08-encoder-decoder": (0.0, 0.0),  # a count and a boolean
    "09-choosing": (0.0, 0.0),  # booleans
    "10-kv-cache": (0.0, 0.0),  # a count, a boolean and token ids
    "11-kv-memory": (0.0, 0.0),  # byte counts
    "12-sampling-pipeline": (0.0, 0.0),  # ids
    "13-today": (0.0, 0.0),  # a 0/1 matrix
    "14-mask-bugs": (0.0, 0.0),  # pairs of indices and a count
    "15-packing": (0.0, 0.0),  # offsets, a boolean and index lists
    "17-serving": (0.1, 0.0),  # booleans, and an error printed with 1 decimal
    "16-long-context": (0.0, 0.0),  # slot counts and booleans
    "18-real-model": (0.0, 0.0),  # a boolean and a 0/1 matrix
}
# Lines drawn by another generator than numpy's: compared by their form; the distributions are tested below.
SAMPLED = {
    "06-encoder": (0, lambda line: len(line.split())),  # the sentence, some words replaced
    "12-sampling-pipeline": (0, lambda line: re.sub(r"\[[\d, ]+\]", lambda m: str(m[0].count(",") + 1), line)),
}
RENAMED = {"11-kv-memory": [("torch nbytes", "numpy nbytes")]}  # the twin names its own library
# (what the twin writes, the naive spelling, why the naive one is wrong). Chapter 3's var(correction=0) is not here:
# over 20 000 samples n - 1 and n differ below the printed digits; test_ch3_... checks it on 5 values.
MUTATIONS = {
    "05-mask": [("masked_fill(~mask,", "masked_fill(mask,", "masked_fill fills where True: the closed keys are ~mask")],
    "06-encoder": [("attn_mask=mask)", "attn_mask=~mask)", "SDPA's True means may attend")],
    "07-decoder": [("attn_mask=mask)", "attn_mask=~mask)", "SDPA's True means may attend (MHA's would be ~mask)")],
    "09-choosing": [("attn_mask=mask)", "attn_mask=~mask)", "SDPA's True means may attend (MHA's would be ~mask)")],
    "10-kv-cache": [
        (
            "F.scaled_dot_product_attention(q, k_cache, v_cache)",
            "F.scaled_dot_product_attention(q, k_cache, v_cache, is_causal=True)",
            "is_causal aligns top-left: one query against t keys reads key 0 only, so the logits change",
        )
    ],
    "12-sampling-pipeline": [
        (
            "multinomial(probs, n, replacement=True,",
            "multinomial(probs, n,",
            "torch.multinomial draws without replacement by default",
        )
    ],
    "14-mask-bugs": [
        (
            "attn_mask=mask)",
            "attn_mask=~mask)",
            "SDPA's True means may read: ~mask opens the future and leaves the last row empty",
        )
    ],
    "15-packing": [
        (
            "attn_mask=mask)",
            "attn_mask=~mask)",
            "SDPA's True means may read: ~mask reads only other documents and the future, and leaves row 0 empty",
        )
    ],
    "16-long-context": [
        (
            "attn_mask=window_mask(40, 8, sinks))",
            "attn_mask=~window_mask(40, 8, sinks))",
            "SDPA's True means may attend: ~mask reads only what the window closes",
        )
    ],
    "13-today": [
        (
            "return attention(seq, is_causal=True)",
            "return attention(seq, is_causal=False)",
            "the decoder needs the causal mask",
        )
    ],
    "17-serving": [
        (
            "outs.append(F.scaled_dot_product_attention(qc, kc, vc, attn_mask=mask))",
            "outs.append(F.scaled_dot_product_attention(qc, kc, vc, is_causal=True))",
            "is_causal aligns top-left: a later chunk's queries lose the keys before the chunk",
        )
    ],
}
NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
ALLOWED = {"torch", "numpy"} | set(sys.stdlib_module_names)


def numpy_twin(chapter):
    return TWINS[chapter].with_name(TWINS[chapter].name.replace("_torch.py", ".py"))


def outputs_differ(chapter, got, want):
    """Return why the twin's output got differs from the numpy output want (None if it does not)."""
    for old, new in RENAMED.get(chapter, []):
        got = got.replace(old, new)
    got_lines, want_lines = got.strip("\n").split("\n"), want.strip("\n").split("\n")
    if len(got_lines) != len(want_lines):
        return f"{len(got_lines)} lines printed, numpy prints {len(want_lines)}"
    sampled, form = SAMPLED.get(chapter, (None, None))
    if sampled is not None:
        if form(got_lines[sampled]) != form(want_lines[sampled]):
            return f"sampled line of another form: {got_lines[sampled]!r} vs {want_lines[sampled]!r}"
        got_lines[sampled] = want_lines[sampled] = ""
    got, want = "\n".join(got_lines), "\n".join(want_lines)
    if NUMBER.sub("#", got) != NUMBER.sub("#", want):
        return f"text differs:\n{got}\n--- numpy ---\n{want}"
    absolute, relative = BOUNDS[chapter]
    for a, b in zip(map(float, NUMBER.findall(got)), map(float, NUMBER.findall(want))):
        if not abs(a - b) <= absolute + relative * abs(b) + 1e-12:  # 1e-12: 0.832 - 0.831 is not 1e-3 in binary
            return f"{a} vs numpy's {b}: beyond the bound ({absolute}, {relative})"
    return None


def run(code, where):
    where.mkdir()
    result = run_pasted(code, where)
    assert result.returncode == 0, f"exited {result.returncode}:\n{result.stderr[-2500:]}"
    return result.stdout


@pytest.fixture(scope="module")
def numpy_outputs(tmp_path_factory):
    base = tmp_path_factory.mktemp("numpy")
    return {c: run(numpy_twin(c).read_text(encoding="utf-8"), base / c) for c in TWINS}


def test_every_chapter_has_a_twin_beside_its_numpy_tab():
    assert sorted(TWINS) == CHAPTERS
    assert all(numpy_twin(c).exists() for c in TWINS)
    assert set(BOUNDS) == set(TWINS)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_twin_needs_only_torch_and_numpy(chapter):
    tree = ast.parse(TWINS[chapter].read_text(encoding="utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {(n.module or ".").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "torch" in modules and modules <= ALLOWED, f"imports {sorted(modules)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_page_shows_the_twin_in_a_pytorch_tab_and_the_build_never_runs_torch(lang, chapter):
    markdown = (DOCS / lang / f"{chapter}.md").read_text(encoding="utf-8")
    rel = TWINS[chapter].relative_to(SNIPPETS).as_posix()
    assert re.search(rf'^=== "PyTorch"\n\n    ```python\n    --8<-- "{re.escape(rel)}"\n    ```$', markdown, re.M)
    executed = [f for f in markdown_fences(markdown) if f.executed]
    assert executed and not [f.line for f in executed if re.search(r"^\s*(import|from) torch\b", f.shown, re.M)]


@pytest.mark.slow  # a fresh Python per program, torch imported in each
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_twin_prints_what_the_numpy_tab_prints(chapter, numpy_outputs, tmp_path):
    got = run(TWINS[chapter].read_text(encoding="utf-8"), tmp_path / "torch")
    assert outputs_differ(chapter, got, numpy_outputs[chapter]) is None, outputs_differ(
        chapter, got, numpy_outputs[chapter]
    )


@pytest.mark.slow
@pytest.mark.parametrize("chapter, old, new, why", [(c, *m) for c, ms in MUTATIONS.items() for m in ms])
def test_the_naive_spelling_of_a_convention_gives_another_output(chapter, old, new, why, numpy_outputs):
    source = TWINS[chapter].read_text(encoding="utf-8")
    assert source.count(old) == 1, f"the twin no longer writes {old!r}"
    printed = io.StringIO()
    try:  # in this process (torch is imported once): that the unchanged twin runs pasted alone is tested above
        with contextlib.redirect_stdout(printed):
            exec(compile(source.replace(old, new), f"naive {TWINS[chapter].name}", "exec"), {"__name__": "__main__"})
    except RuntimeError:  # e.g. multinomial: "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        return
    assert outputs_differ(chapter, printed.getvalue(), numpy_outputs[chapter]), (
        f"{new!r} prints what numpy prints, so the test cannot tell it from {old!r} ({why})"
    )


def test_the_comparison_fails_beyond_the_bound():
    assert outputs_differ("05-mask", "[[1.    0.   ]\n [0.832 0.168]]", "[[1.    0.   ]\n [0.831 0.169]]") is None
    assert outputs_differ("05-mask", "[[1.    0.   ]\n [0.834 0.166]]", "[[1.    0.   ]\n [0.832 0.168]]")
    assert outputs_differ("10-kv-cache", "rows: 5 equal: False", "rows: 5 equal: True")
    assert outputs_differ("11-kv-memory", "torch nbytes: 2560", "numpy nbytes: 2562")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_twin_is_shown_whole_in_the_pytorch_tab(site, lang, chapter):
    page = html_path(site, lang, f"{chapter}.md").read_text(encoding="utf-8")
    assert normalize(TWINS[chapter].read_text(encoding="utf-8")) in [normalize(b.text) for b in html_blocks(page)]
    assert re.search(r"<label[^>]*>PyTorch</label>", page), "no PyTorch tab"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_chapters_notebook_shows_the_twin_and_names_its_file(lang, chapter):
    import nbformat

    nb = nbformat.read(DOCS / lang / "notebooks" / f"{chapter}.ipynb", as_version=4)
    source, where = (
        TWINS[chapter].read_text(encoding="utf-8").strip("\n"),
        TWINS[chapter].relative_to(DOCS.parent).as_posix(),
    )
    cells = [c.source for c in nb.cells if c.cell_type == "markdown" and f"```python\n{source}\n```" in c.source]
    assert len(cells) == 1 and f"`{where}`" in cells[0]


def to_torch(a):
    if isinstance(a, np.ndarray):
        return torch.from_numpy(a)
    return type(a)(map(to_torch, a)) if isinstance(a, (list, tuple)) else a


def to_numpy(a):
    if isinstance(a, torch.Tensor):
        return a.detach().numpy()
    return type(a)(map(to_numpy, a)) if isinstance(a, (list, tuple)) else a


def far(got, want):
    """Return the first place got differs from want: booleans and integers exactly, floats beyond 1e-12 (relative)."""
    if isinstance(want, (list, tuple)):
        return next((f for f in map(far, got, want) if f), None) if len(got) == len(want) else "length"
    if want is None or got is None:
        return None if got is want else "None on one side"
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or want.dtype.kind != got.dtype.kind:
        return f"shape/kind {got.shape} {got.dtype} vs {want.shape} {want.dtype}"
    if want.dtype.kind in "biu":
        return None if np.array_equal(got, want) else "values"
    return None if np.abs(got - want).max(initial=0) <= 1e-12 * max(1.0, np.abs(want).max(initial=0)) else "values"


def calls(chapter, rng):
    """(function name, arguments) of the chapter's functions that share their name and signature with numpy's."""
    r = lambda *s: rng.normal(size=s)  # noqa: E731
    causal, odd = np.tril(np.ones((6, 6), bool)), rng.random((6, 6)) < 0.5
    odd[np.arange(6), np.arange(6)] = True
    return {
        "02-seq2seq": [("bahdanau", (r(3, 4), r(5, 6), r(7, 4), r(7, 6), r(7)))],
        "03-attention": [
            ("additive_score", (r(3, 4), r(5, 6), r(4, 7), r(6, 7), r(7))),
            ("dot_score", (r(3, 4), r(5, 4))),
            ("bilinear_score", (r(3, 4), r(5, 6), r(4, 6))),
            ("scaled_dot_score", (r(3, 4), r(5, 4))),
            ("self_attention", (r(5, 8), r(8, 4), r(8, 4), r(8, 3))),
        ],
        "04-self-cross-heads": [
            ("split_heads", (r(5, 8), 2)),
            ("merge_heads", (r(2, 5, 4),)),
            ("sinusoidal_encoding", (7, 10)),
            ("multi_head_attention", (r(3, 8), r(5, 8), r(8, 8), r(8, 8), r(8, 8), r(8, 6), 4)),
        ],
        "06-encoder": [("full_mask", (6,)), ("self_attention", (r(6, 8), r(8, 4), r(8, 4), r(8, 3), odd))],
        "07-decoder": [
            ("causal_mask", (6,)),
            ("self_attention", (r(6, 8), r(8, 4), r(8, 4), r(8, 3), odd)),
            ("leak", (r(6, 8), 2, r(8), [r(8, 4), r(8, 4), r(8, 3)], causal)),
        ],
        "08-encoder-decoder": [
            ("enc_kv", (r(7, 8), [(r(8, 4), r(8, 3)), (r(8, 4), r(8, 3))])),
            ("cross_attention", (r(5, 8), (r(7, 4), r(7, 3)), r(8, 4))),
        ],
        "09-choosing": [("masks_for", (m, 5, 3)) for m in ("encoder", "decoder", "encoder-decoder")]
        + [("reads", (None, r(5, 8)))],
        "11-kv-memory": [("kv_cache_bytes", (32, 8, 128, 4096, 2, 2))],
        "13-today": [("image_prefix_reads", (r(3, 8), r(4, 8), r(8, 8) / np.sqrt(8)))],
        "14-mask-bugs": [("attention", (r(6, 4), np.tril(np.ones((6, 6), dtype=bool))))],
        "18-real-model": [("rotate", (r(6, 8), np.arange(6.0)))],
    }.get(chapter, [])


def test_far_finds_a_difference():
    assert far(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-9])) and far(np.eye(2, dtype=bool), np.ones((2, 2), bool))
    assert far((np.eye(2), None), (np.eye(2), np.eye(2))) and far(np.eye(2, dtype=int), np.eye(2))
    assert far((np.eye(2), None), (np.eye(2) + 1e-13, None)) is None


@pytest.mark.parametrize("chapter", [c for c in CHAPTERS if calls(c, np.random.default_rng(0))])
def test_the_twins_functions_equal_numpys_on_random_inputs(chapter):
    """Chapters 1, 5, 10 and 12 are compared by the convention tests above."""
    ns, core = (
        load_snippet(TWINS[chapter].relative_to(SNIPPETS).as_posix()),
        load_snippet(numpy_twin(chapter).relative_to(SNIPPETS).as_posix()),
    )
    rng = np.random.default_rng(int(chapter[:2]))
    for _ in range(3):
        for name, args in calls(chapter, rng):
            if name == "reads":  # a layer under the decoder's mask, each side its own
                w = [rng.normal(size=(8, 4)) for _ in range(3)]
                mask = np.tril(np.ones((5, 5), bool))
                got = ns["reads"](ns["attention_layer"](to_torch(mask), *to_torch(w)), to_torch(args[1]))
                want = core["reads"](core["attention_layer"](mask, *w), args[1])
            else:
                got, want = ns[name](*to_torch(args)), core[name](*args)
            assert far(to_numpy(got), want) is None, f"{name}: {far(to_numpy(got), want)}"
