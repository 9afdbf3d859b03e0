"""The kit's PyTorch twin (docs/snippets/14-mask-bugs/kit_pytorch.py) and PyTorch's own attention through both kits.

Correct, all passing in both kits: SDPA with is_causal=True and with a bool attn_mask (True: may attend, ours),
nn.MultiheadAttention with its own convention (bool attn_mask and key_padding_mask True: may NOT attend), and a
KV-cache decoder step. Planted: the same convention spelled the naive way, is_causal on a single cached query. The
twin and the numpy kit give the same verdicts (the same sentences) on every case, numpy's planted bugs included.
"""

import ast
import sys

import numpy as np
import pytest
from mask_cases import (
    CAUSAL_BUGS,
    CFG,
    DECODER_PADDING,
    MASKS,
    PADDING_BUGS,
    cache_step,
    cache_window,
    masked_attention,
    one_more_key,
    positioned,
)
from site_reader import DOCS, load_snippet

from primer import mask_checks

torch = pytest.importorskip("torch")
F = torch.nn.functional

TWIN = load_snippet("14-mask-bugs/kit_pytorch.py")
D, HEADS = 8, 2


def projections(seed=2):  # -> w_q, w_k, w_v, each [D, D] float64, at an initial scale
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(D, D, generator=gen, dtype=torch.float64) / D**0.5 for _ in range(3)]


W_Q, W_K, W_V = projections()


def sdpa(x, **options):  # [n, D] -> [n, D]
    return F.scaled_dot_product_attention(x @ W_Q, x @ W_K, x @ W_V, **options)


def mha():
    torch.manual_seed(3)
    return torch.nn.MultiheadAttention(D, HEADS, batch_first=True, dtype=torch.float64).eval()


MHA = mha()


def causal(n):  # [n, n] bool, True: query i may read key j (ours)
    return torch.ones(n, n, dtype=torch.bool).tril()


def mha_causal(x, attn_mask):  # [n, D] -> [n, D]
    return MHA(x[None], x[None], x[None], attn_mask=attn_mask, need_weights=False)[0][0]


def mha_padded(x, valid, key_padding_mask):  # [n, D], [n] -> [n, D]
    return MHA(x[None], x[None], x[None], key_padding_mask=key_padding_mask[None], need_weights=False)[0][0]


TORCH_CAUSAL = {  # name -> (f, the kinds found: empty for a correct one)
    "sdpa_is_causal": (lambda x: sdpa(x, is_causal=True), set()),
    "sdpa_bool_mask": (lambda x: sdpa(x, attn_mask=causal(len(x))), set()),
    "mha_inverted_mask": (lambda x: mha_causal(x, ~causal(len(x))), set()),  # MHA's True: may NOT attend
    "mha_is_causal_with_its_mask": (
        lambda x: MHA(x[None], x[None], x[None], attn_mask=~causal(len(x)), is_causal=True, need_weights=False)[0][0],
        set(),
    ),
    # The naive spellings: each row reads the future, and row n-1 reads nothing, which SDPA (and MHA without
    # weights, which calls it) returns as 0 in torch 2.13, not NaN: that row shows as blind.
    "mha_our_mask": (lambda x: mha_causal(x, causal(len(x))), {"suspect", "future", "blind"}),
    "sdpa_inverted_mask": (lambda x: sdpa(x, attn_mask=~causal(len(x))), {"suspect", "future", "blind"}),
    "sdpa_no_mask": (lambda x: sdpa(x), {"suspect", "future"}),
}
TORCH_PADDING = {
    "sdpa_key_mask": (lambda x, valid: sdpa(x, attn_mask=valid[None, :].expand(len(x), -1)), set()),
    "mha_key_padding_mask": (lambda x, valid: mha_padded(x, valid, ~valid), set()),  # MHA's True: padding
    "mha_our_valid": (lambda x, valid: mha_padded(x, valid, valid), {"padding", "more_padding", "alone"}),
    "sdpa_query_axis": (
        lambda x, valid: sdpa(x, attn_mask=valid[:, None].expand(-1, len(x))),
        {"padding", "more_padding", "alone"},  # the padded rows read nothing: 0 from SDPA, not NaN as in numpy's
    ),
    "sdpa_causal_query_axis": (  # a decoder's: is_causal's triangle AND the padding on the query axis
        lambda x, valid: sdpa(x, attn_mask=causal(len(x)) & valid[:, None]),
        {"padding", "more_padding", "alone"},  # with the padding on the left only
    ),
    "sdpa_causal_mask_dropped": (
        lambda x, valid: sdpa(x, is_causal=True),
        {"padding", "more_padding", "alone"},  # the same
    ),
    "sdpa_causal_key_mask": (
        lambda x, valid: sdpa(x, attn_mask=causal(len(x)) & valid[None, :] | ~valid[:, None]),
        set(),
    ),
}


def torch_step(is_causal):
    """A factory of cached SDPA decoders: K/V rows kept, the new row's query reads them all (or, naive, is_causal)."""

    def fresh():
        k_rows, v_rows = [], []

        def step(x_t):  # [D] -> [D]
            k_rows.append(x_t @ W_K)
            v_rows.append(x_t @ W_V)
            q = (x_t @ W_Q)[None]  # [1, D]: one query against every cached key
            return F.scaled_dot_product_attention(q, torch.stack(k_rows), torch.stack(v_rows), is_causal=is_causal)[0]

        return step

    return fresh


def as_numpy(f):  # a torch function checked by the numpy kit
    return lambda *a: f(*map(torch.from_numpy, a)).detach().numpy()


def as_torch(f):  # a numpy function checked by the twin
    return lambda *a: torch.from_numpy(np.asarray(f(*(t.numpy() for t in a))))


def verdicts(problems):
    return [(str(p), p.kind, p.positions) for p in problems]


@pytest.mark.parametrize("name", TORCH_CAUSAL)
def test_torch_attention_through_both_kits(name):
    f, kinds = TORCH_CAUSAL[name]
    found = TWIN["check_causal"](f, d=D)
    assert {p.kind for p in found} == kinds, found
    assert verdicts(found) == verdicts(mask_checks.check_causal(as_numpy(f), d=D))


@pytest.mark.parametrize("name", TORCH_PADDING)
def test_torch_padding_through_both_kits(name):
    f, kinds = TORCH_PADDING[name]
    found = TWIN["check_padding"](f, d=D)
    assert {p.kind for p in found} == kinds, found
    assert verdicts(found) == verdicts(mask_checks.check_padding(as_numpy(f), d=D))


@pytest.mark.parametrize("is_causal, kinds", [(False, set()), (True, {"cache"})])
def test_a_torch_cache_step_through_both_kits(is_causal, kinds):
    full = lambda x: sdpa(x, is_causal=True)  # noqa: E731
    found = TWIN["check_cache"](torch_step(is_causal), full, d=D)
    assert {p.kind for p in found} == kinds, found
    numpy_step = lambda: as_numpy(torch_step(is_causal)())  # noqa: E731
    assert verdicts(found) == verdicts(mask_checks.check_cache(numpy_step, as_numpy(full), d=D))


@pytest.mark.parametrize("name", CAUSAL_BUGS)
def test_the_twin_gives_numpys_verdict_on_each_planted_causal_bug(name):
    f, kinds = CAUSAL_BUGS[name]
    assert verdicts(TWIN["check_causal"](as_torch(f))) == verdicts(mask_checks.check_causal(f))


@pytest.mark.parametrize("name", PADDING_BUGS)
def test_the_twin_gives_numpys_verdict_on_each_planted_padding_bug(name):
    f, kinds = PADDING_BUGS[name]
    assert verdicts(TWIN["check_padding"](as_torch(f))) == verdicts(mask_checks.check_padding(f))


@pytest.mark.parametrize("bug", [None, "position_0", "top_left", "no_append"])
def test_the_twin_gives_numpys_verdict_on_each_planted_cache_bug(bug):
    twin = TWIN["check_cache"](lambda: as_torch(cache_step(bug)()), as_torch(positioned))
    assert verdicts(twin) == verdicts(mask_checks.check_cache(cache_step(bug), positioned))


@pytest.mark.parametrize("name", DECODER_PADDING)
def test_the_twin_gives_numpys_verdict_on_a_decoder_padded_on_the_left(name):
    f, kinds = DECODER_PADDING[name]
    twin = TWIN["check_padding"](as_torch(f), d=CFG.d_model)
    assert {p.kind for p in twin} == kinds and all("on the left" in p for p in twin)
    assert verdicts(twin) == verdicts(mask_checks.check_padding(f, d=CFG.d_model))


@pytest.mark.parametrize("name", MASKS)
def test_the_twin_gives_numpys_verdict_on_each_mask(name):
    mask = MASKS[name]
    for layer_mask in (mask, one_more_key(mask), MASKS["causal"]):
        f = lambda x, m=layer_mask: masked_attention(x, m)  # noqa: E731
        twin = TWIN["check_mask"](as_torch(f), torch.from_numpy(mask))
        assert verdicts(twin) == verdicts(mask_checks.check_mask(f, mask))
    sdpa_mask = lambda x: sdpa(x, attn_mask=torch.from_numpy(mask))  # noqa: E731
    assert TWIN["check_mask"](sdpa_mask, torch.from_numpy(mask), d=D) == []


def test_the_twin_judges_the_full_pass_of_a_windowed_cache_as_numpy_does():
    mask = MASKS["causal"] & ~np.tri(8, k=-2, dtype=bool)  # a window of 2
    for window in (2, 3):
        full = lambda x, w=window: masked_attention(x, np.tri(len(x), dtype=bool) & ~np.tri(len(x), k=-w, dtype=bool))  # noqa: E731
        numpy_verdict = mask_checks.check_cache(lambda: cache_window(2), full, mask=mask)
        twin = TWIN["check_cache"](lambda: as_torch(cache_window(2)), as_torch(full), mask=torch.from_numpy(mask))
        assert verdicts(twin) == verdicts(numpy_verdict) and bool(twin) == (window == 3)


class Float32Layer(torch.nn.Module):
    """A correct causal layer whose parameters are float32, as a model is by default."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(4)
        self.qkv = torch.nn.Linear(D, 3 * D)

    def forward(self, x):  # [n, D] -> [n, D]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def test_a_float32_module_is_fed_float32_and_passes_with_no_false_alarm():
    layer = Float32Layer().eval()
    assert TWIN["check_causal"](layer, d=D) == []  # rows fed in float32: no dtype error, the float32 tolerance

    def step():
        rows = []

        def one(x_t):
            rows.append(x_t)
            return layer(torch.stack(rows))[-1]

        return one

    assert TWIN["check_cache"](step, layer, d=D) == []
    assert TWIN["check_causal"](lambda x: layer(x.float()), d=D, dtype=torch.float32) == []
    with pytest.raises(RuntimeError):  # what the first kit did: float64 rows into float32 weights
        layer(torch.zeros(3, D, dtype=torch.float64))
    assert {p.kind for p in TWIN["check_cache"](step, layer, d=D, tol=1e-9)} == {"cache"}  # rounding, not a bug


def test_the_twin_shares_the_kits_tolerance_and_needs_only_torch():
    for t, n in ((torch.float64, np.float64), (torch.float32, np.float32), (torch.float16, np.float16)):
        assert TWIN["default_tol"](t) == mask_checks.default_tol(n)
    assert TWIN["default_tol"](torch.bfloat16) == 3e-2
    tree = ast.parse((DOCS / "snippets" / "14-mask-bugs" / "kit_pytorch.py").read_text(encoding="utf-8"))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {(n.module or ".").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "torch" in modules and modules <= {"torch"} | set(sys.stdlib_module_names), sorted(modules)


@pytest.mark.parametrize(
    "call, arg",
    [
        (lambda: TWIN["check_causal"]("f"), "f"),
        (lambda: TWIN["check_causal"](lambda x: x[0]), "f"),
        (lambda: TWIN["check_causal"](lambda x: x, n=1), "n"),
        (lambda: TWIN["check_causal"](lambda x: x, d=0), "d"),
        (lambda: TWIN["check_causal"](lambda x: x, seed=-1), "seed"),
        (lambda: TWIN["check_padding"](lambda x, v: x, n_pad=8), "n_pad"),
        (lambda: TWIN["check_padding"](lambda x, v: x[v]), "f"),
        (lambda: TWIN["check_cache"](None, lambda x: x), "step"),
        (lambda: TWIN["check_cache"](lambda: None, lambda x: x), "step"),
        (lambda: TWIN["check_cache"](lambda: lambda x_t: x_t[:1], lambda x: x), "step"),
        (lambda: TWIN["check_cache"](lambda: lambda x_t: x_t, 3), "full"),
        (lambda: TWIN["check_mask"](lambda x: x, torch.ones(3, 3)), "mask"),
        (lambda: TWIN["check_mask"](lambda x: x, torch.ones(3, 2, dtype=torch.bool)), "mask"),
        (lambda: TWIN["check_causal"](lambda x: x, tol=0), "tol"),
        (lambda: TWIN["check_causal"](lambda x: x, dtype=torch.int64), "dtype"),
        (lambda: TWIN["check_padding"](lambda x, v: x, side="top"), "side"),
        (
            lambda: TWIN["check_cache"](lambda: lambda x_t: x_t, lambda x: x, mask=torch.ones(3, 3, dtype=torch.bool)),
            "mask",
        ),
    ],
)
def test_the_twin_refuses_bad_use_naming_the_argument(call, arg):
    with pytest.raises(ValueError, match=rf"(?<![\w.]){arg}(?!\w)"):
        call()


# ---- the page's "check your own layer" block: a wrapper of an nn.Module, and the three calls ----------------------

OWN = DOCS / "snippets" / "14-mask-bugs" / "own_layer_pytorch.py"
SLIPS = {  # a slip planted in the block's layer -> (the line changed, what replaces it, the calls that must flag it)
    "triu": (".tril()  # True", ".triu()  # True", {0, 2}),  # the cache cannot match a wrong full pass: it says so
    "query_axis": ("mask & valid[:, None, :]", "mask & valid[:, :, None]", {1}),
    "cache_top_left": (
        "return F.scaled_dot_product_attention(q, k, v)\n",
        "return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n",
        {2},
    ),
}


def run_own(source):  # -> the three printed lists of problems
    printed = []
    exec(compile(source, str(OWN), "exec"), {"print": printed.append, "__name__": "own"})
    return printed


def test_the_own_layer_block_passes_a_correct_float32_layer():
    assert run_own(OWN.read_text(encoding="utf-8")) == [[], [], []]


@pytest.mark.parametrize("slip", SLIPS)
def test_the_own_layer_block_flags_a_slip_in_the_layer(slip):
    old, new, call = SLIPS[slip]
    source = OWN.read_text(encoding="utf-8")
    assert source.count(old) == 1
    printed = run_own(source.replace(old, new))
    assert [bool(p) for p in printed] == [i in call for i in range(3)], printed
    assert (bool(printed[2]) and printed[2][-1].kind == "full") == (slip == "triu")
    if slip == "query_axis":  # a causal layer never reaches a pad on its right: only the left padding shows it
        assert all(p.startswith("with the padding on the left") for p in printed[1])


def part4_torch_layer(used, w, chunk):  # the numpy layer of tests/part4_masks.py written in torch: x [n, d] -> y
    w_q, w_k, w_v = (torch.from_numpy(m) for m in w)
    if not isinstance(used, tuple):
        return lambda x: sdpa_with(x, w_q, w_k, w_v, attn_mask=torch.from_numpy(used))

    def prefilled(x):  # chunk by chunk: bottom-right by an explicit mask, top-left by is_causal (SDPA's alignment)
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        out = []
        for start in range(0, len(x), chunk):
            end = min(start + chunk, len(x))
            if used[1] == "top_left":
                out.append(F.scaled_dot_product_attention(q[start:end], k[:end], v[:end], is_causal=True))
            else:
                bottom_right = torch.ones(end - start, end, dtype=torch.bool).tril(diagonal=start)
                out.append(F.scaled_dot_product_attention(q[start:end], k[:end], v[:end], attn_mask=bottom_right))
        return torch.cat(out)

    return prefilled


def sdpa_with(x, w_q, w_k, w_v, **options):  # [n, d] -> [n, d]
    return F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, **options)


@pytest.mark.slow
@pytest.mark.parametrize("chapter", [15, 16, 17])
def test_both_kits_agree_on_each_part_iv_mask_and_its_planted_bug(chapter):
    from part4_masks import CLEAN, cases, heads, numpy_layer

    from primer.inputs.serving import KIT_CHUNK

    _, seed, d, found = cases(chapter)
    w = heads(seed, d)
    for case, meant, used in found:
        numpy_verdict = verdicts(mask_checks.check_mask(numpy_layer(used, w), meant, d=d))
        assert (numpy_verdict == []) == (case in CLEAN), case
        twin = TWIN["check_mask"](as_torch(numpy_layer(used, w)), torch.from_numpy(meant), d=d)
        assert verdicts(twin) == numpy_verdict, case  # the twin on primer's layer
        in_torch = TWIN["check_mask"](part4_torch_layer(used, w, KIT_CHUNK), torch.from_numpy(meant), d=d)
        assert {p.kind for p in in_torch} == {kind for _, kind, _ in numpy_verdict}, case  # and on torch's own
