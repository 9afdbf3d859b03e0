"""The chapters "The generation loop and the KV cache" and "What the cache costs in memory", as built."""

import html as htmllib
import re

import pytest

from conftest import LANGS, tables

KV, MEM = "10-kv-cache.md", "11-kv-memory.md"


def table_with(page, header_cell):
    found = [t for t in tables(page) if t and header_cell in t[0]]
    assert found, f"no table with a {header_cell!r} column"
    return found[0]


@pytest.mark.parametrize("lang", LANGS)
def test_figures_have_fixed_div_ids(read_page, lang):
    for name, divs in ((KV, ("fig-loop-steps", "fig-work-curves")), (MEM, ("fig-fill-chart",))):
        page = read_page(lang, name)
        for div in divs:
            assert f'id="{div}"' in page


# ---- chapter 10

@pytest.mark.parametrize("lang", LANGS)
def test_667x_at_1000_steps(read_page, lang):
    page = read_page(lang, KV)
    assert "<strong>667×</strong>" in page
    header = {"zh": "分数之比 (2N+1)/3", "en": "score ratio (2N+1)/3"}[lang]
    row = [r for r in table_with(page, header) if r[0] == "1,000"][0]
    assert row[1:] == ["333,833,500", "500,500", "667×", "334×", "500.5×"]   # full tables, lower triangle, projections/FFN
    figure = re.search(r'id="fig-work-curves".*?</script>', page, re.S).group(0).replace("\\u00d7", "×")  # plotly escapes ×
    assert "667×" in figure                                                  # the slider's default state, N = 1,000


@pytest.mark.parametrize("lang", LANGS)
def test_cached_decoding_equals_full_recompute_on_the_page(read_page, lang):
    page = read_page(lang, KV)
    header = {"zh": "缓存解码与全部重算的最大差", "en": "largest difference, cached vs full recompute"}[lang]
    rows = table_with(page, header)[1:]
    assert len(rows) >= 3
    assert len({r[0] for r in rows}) > 1 and len({r[1] for r in rows}) > 1 and len({r[2] for r in rows}) > 1
    assert all(r[3] == "< 1e-12" for r in rows)          # rounding, whose digits depend on the CPU


@pytest.mark.parametrize("lang", LANGS)
def test_the_causal_mask_keeps_old_positions_still_and_the_full_mask_does_not(read_page, lang):
    page = read_page(lang, KV)
    header = {"zh": "因果掩码", "en": "causal mask"}[lang]
    rows = table_with(page, header)[1:]
    assert all(r[1] == "< 1e-12" for r in rows)          # causal: nothing old moves beyond rounding
    assert rows[0][2] == rows[1][2] == "< 1e-12"         # full: layer 1's K and V read no other position
    assert float(rows[-1][2]) > 1e-3                     # bidirectional: the old outputs move


@pytest.mark.parametrize("lang", LANGS)
def test_old_queries_do_not_matter(read_page, lang):
    page = read_page(lang, KV)
    header = {"zh": "把旧的哪一行换成噪声", "en": "old rows replaced by noise"}[lang]
    q, k, v = table_with(page, header)[1:]
    assert q[1] == "< 1e-12" and float(k[1]) > 1e-3 and float(v[1]) > 1e-3


@pytest.mark.parametrize("lang", LANGS)
def test_counted_work_matches_the_cost_model(read_page, lang):
    page = read_page(lang, KV)
    rows = table_with(page, {"zh": "计数器", "en": "counter"}[lang])[1:]
    assert {r[1] for r in rows} == {"scores", "kv_rows"} and len(rows) >= 6
    for r in rows:
        assert r[2] == r[3] and r[4] == r[5] and r[6] == "✓"


@pytest.mark.parametrize("lang", LANGS)
def test_the_dozen_lines_print_their_check(read_page, lang):
    assert "cached rows: 5   last row equal to full recompute within 1e-12: True" in htmllib.unescape(read_page(lang, KV))


# ---- chapter 11

@pytest.mark.parametrize("lang", LANGS)
def test_512_kib_per_token(read_page, lang):
    page = read_page(lang, MEM)
    assert "<strong>512 KiB</strong> (524,288 B)" in page


@pytest.mark.parametrize("lang", LANGS)
def test_2_gib_at_4096_tokens(read_page, lang):
    page = read_page(lang, MEM)
    rows = table_with(page, {"zh": "上下文 token 数", "en": "context tokens"}[lang])
    assert ["4,096", "2 GiB"] in rows
    assert "<strong>2 GiB</strong>" in page
    assert "2 GiB" in re.search(r'id="fig-fill-chart".*?</script>', page, re.S).group(0)   # the figure's default state


@pytest.mark.parametrize("lang", LANGS)
def test_published_shapes_and_savings(read_page, lang):
    page = read_page(lang, MEM)
    rows = {r[0].split(" ")[0].split("（")[0]: r for r in table_with(page, {"zh": "查询头数", "en": "query heads"}[lang])[1:]}
    assert rows["Llama-2-70B"][1:6] == ["80", "64", "8", "128", "320 KiB"]
    assert rows["GPT-2"][1:6] == ["12", "12", "12", "64", "36 KiB"]
    saved = table_with(page, {"zh": "缩小为", "en": "shrinks to"}[lang])[1:]
    assert saved[0][1:] == ["10 GiB", "1.25 GiB", "1/8"]       # Llama-2-70B: 64 KV heads -> 8
    assert saved[2][1:] == saved[3][1:] == ["2 GiB", "1 GiB", "1/2"]   # Llama-2-7B: FP8; two layers sharing one K/V
    assert saved[-1][1:] == ["4 GiB", "512 MiB", "1/8"]        # a 4,096 window at 32,768 tokens


@pytest.mark.parametrize("lang", LANGS)
def test_every_factor_names_a_method_and_its_source(read_page, lang):
    page = read_page(lang, MEM)
    rows = table_with(page, {"zh": "办法", "en": "method"}[lang])[1:]
    assert len(rows) == 6                                       # KV heads, their width, layers, bytes, tokens, batch
    for method in ("GQA", "MLA", "CLA", "FP8", "INT8"):
        assert any(method in r[1] for r in rows), method
    for key in ("shazeer2019", "ainslie2023", "deepseek2024", "brandon2024", "vllm-fp8", "trtllm-int8"):
        assert f'id="fn:{key}"' in page, key


@pytest.mark.parametrize("lang", LANGS)
def test_formula_matches_the_nbytes_of_primers_cache(read_page, lang):
    page = read_page(lang, MEM)
    rows = table_with(page, {"zh": "缓存的 dtype", "en": "cache dtype"}[lang])[1:]
    assert {r[0] for r in rows} == {"float64", "float16"}
    assert all(r[2] == r[3] and r[4] == "✓" for r in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_the_memory_dozen_lines_print_their_check(read_page, lang):
    page = htmllib.unescape(read_page(lang, MEM))
    assert "formula: 2560 bytes; numpy nbytes: 2560 bytes" in page
    assert "Llama-2-7B, one token: 512 KiB" in page
