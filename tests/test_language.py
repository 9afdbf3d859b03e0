"""The one language function: an explicit lang wins over $PRIMER_LANG, which wins over 'en'; and the string tables."""

import pytest

from primer.language import LANGS, labels, page_lang


def test_page_language(monkeypatch):
    monkeypatch.delenv("PRIMER_LANG", raising=False)
    assert page_lang() == "en"
    monkeypatch.setenv("PRIMER_LANG", "zh")
    assert page_lang() == "zh" and page_lang("en") == "en"


def test_an_unknown_language_is_refused_from_either_source(monkeypatch):
    monkeypatch.setenv("PRIMER_LANG", "fr")
    with pytest.raises(ValueError, match="lang must be one of"):
        page_lang()
    with pytest.raises(ValueError, match="lang must be one of"):
        page_lang("de")


@pytest.mark.parametrize("lang", LANGS)
def test_one_table_holds_figures_exercises_and_notebook_strings(lang):
    for section in ("figure_html", "exercises", "notebook", "notebook_box"):
        assert labels(section, lang)
    assert labels("notebook_box", lang)["solution"] == {"zh": "答案", "en": "Solution"}[lang]
