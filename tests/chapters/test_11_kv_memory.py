"""Chapter 11 (what the cache costs in memory) over the built site: the numbers primer printed."""

import html as htmllib
import re

import pytest
from page_tables import table_with
from site_reader import LANGS

from primer.figures.tables import integer
from primer.language import labels

PAGE = "11-kv-memory.md"


@pytest.mark.parametrize("lang", LANGS)
def test_512_kib_per_token(read_page, lang):
    page = read_page(lang, PAGE)
    assert f"<strong>512 KiB</strong> ({integer(524288, lang)} B)" in page


@pytest.mark.parametrize("lang", LANGS)
def test_2_gib_at_4096_tokens(read_page, lang):
    page = read_page(lang, PAGE)
    rows = table_with(page, labels("kv_memory_tables", lang)["tokens"])
    assert [integer(4096, lang), "2 GiB"] in rows
    assert "<strong>2 GiB</strong>" in page
    assert "2 GiB" in re.search(r'id="fig-fill-chart".*?</script>', page, re.S).group(0)  # the figure's default state


@pytest.mark.parametrize("lang", LANGS)
def test_published_shapes_and_savings(read_page, lang):
    page = read_page(lang, PAGE)
    rows = {
        r[0].split(" ")[0].split("（")[0]: r for r in table_with(page, labels("kv_memory_tables", lang)["q_heads"])[1:]
    }
    assert rows["Llama-2-70B"][1:6] == ["80", "64", "8", "128", "320 KiB"]
    assert rows["GPT-2"][1:6] == ["12", "12", "12", "64", "36 KiB"]
    saved = table_with(page, labels("kv_memory_tables", lang)["saved"])[1:]
    assert saved[0][1:] == ["10 GiB", "1.25 GiB", "1/8"]  # Llama-2-70B: 64 KV heads -> 8
    assert saved[2][1:] == saved[3][1:] == ["2 GiB", "1 GiB", "1/2"]  # Llama-2-7B: FP8; two layers sharing one K/V
    assert saved[-1][1:] == ["4 GiB", "512 MiB", "1/8"]  # a 4,096 window at 32,768 tokens


@pytest.mark.parametrize("lang", LANGS)
def test_every_factor_names_a_method_and_its_source(read_page, lang):
    page = read_page(lang, PAGE)
    rows = table_with(page, {"zh": "办法", "en": "method"}[lang])[1:]  # a table typed in the prose
    assert len(rows) == 6  # KV heads, their width, layers, bytes, tokens, batch
    for method in ("GQA", "MLA", "CLA", "FP8", "INT8"):
        assert any(method in r[1] for r in rows), method
    for key in ("shazeer2019", "ainslie2023", "deepseek2024", "brandon2024", "vllm-fp8", "trtllm-int8"):
        assert f'id="fn:{key}"' in page, key


@pytest.mark.parametrize("lang", LANGS)
def test_formula_matches_the_nbytes_of_primers_cache(read_page, lang):
    page = read_page(lang, PAGE)
    rows = table_with(page, labels("kv_memory_tables", lang)["dtype"])[1:]
    assert {r[0] for r in rows} == {"float64", "float16"}
    assert all(r[2] == r[3] and r[4] == "✓" for r in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_the_memory_dozen_lines_print_their_check(read_page, lang):
    page = htmllib.unescape(read_page(lang, PAGE))
    assert "formula: 2560 bytes; numpy nbytes: 2560 bytes" in page
    assert "Llama-2-7B, one token: 512 KiB" in page


@pytest.mark.parametrize("lang", LANGS)
def test_the_cache_is_measured_against_the_models_own_weights(read_page, lang):
    import markdown
    from site_reader import tables

    from primer.counts import count_params, format_bytes, kv_cache_bytes
    from primer.figures import kv_memory as figures
    from primer.published import model

    llama = model("Llama-2-7B")
    n_params = sum(count_params(llama.config, llama.machine).values())
    weights, cache = 2 * n_params, kv_cache_bytes(llama.config, llama.config.max_len)
    assert cache < weights < 8 * cache  # a full-context cache is a sizeable fraction of the FP16 weights
    expected = tables(
        markdown.markdown(
            figures.weights_table(llama.name, n_params, llama.config.max_len, weights, cache, format_bytes, lang=lang),
            extensions=["tables"],
        )
    )[0]
    assert table_with(read_page(lang, PAGE), expected[0][0]) == expected
