"""The UI string tables (figures, exercises, notebooks): one per language, the same keys and placeholders, all used."""

import json
import re
import shutil
import string
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from primer.language import LABELS, labels

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "primer" / "figures"
TABLES = {lang: json.loads((LABELS / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("zh", "en")}
# Who reads a section: the figure modules, the exercises, the notebook writer and specs, the site's hooks.
SOURCES = {
    str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
    for p in [
        *FIGURES.glob("*.py"),
        *(ROOT / "primer" / "notebook").glob("*.py"),
        ROOT / "tools" / "notebooks.py",
        *ROOT.glob("notebooks/*.yml"),
        *ROOT.glob("hooks/*.py"),
    ]
}
# Some keys are picked by data, not written in the builder: t[action] with action in ("mask", "random", "keep")
# from primer.mlm. Such a key counts as used if primer or a snippet the build runs spells it as a string (the PyTorch
# twins, *_torch.py, are shown, never run, and read no labels).
DATA = "\n".join(
    p.read_text(encoding="utf-8")
    for p in [*ROOT.glob("primer/**/*.py"), *ROOT.glob("docs/snippets/**/*.py")]
    if FIGURES not in p.parents and not p.name.endswith("_torch.py")
)


def placeholders(text):
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def differences(zh, en, path=""):
    """Return where the two tables differ in shape: a key in one only, a list of another length, other placeholders."""
    if isinstance(zh, dict) and isinstance(en, dict):
        out = [f"{path}/{k}: only in {'zh' if k in zh else 'en'}" for k in sorted(set(zh) ^ set(en))]
        return out + [d for k in sorted(set(zh) & set(en)) for d in differences(zh[k], en[k], f"{path}/{k}")]
    if isinstance(zh, list) and isinstance(en, list):
        if len(zh) != len(en):
            return [f"{path}: {len(zh)} items in zh, {len(en)} in en"]
        return [d for i, (a, b) in enumerate(zip(zh, en)) for d in differences(a, b, f"{path}[{i}]")]
    if isinstance(zh, str) and isinstance(en, str):
        return (
            []
            if placeholders(zh) == placeholders(en)
            else [f"{path}: placeholders {placeholders(zh)} vs {placeholders(en)}"]
        )
    return [f"{path}: {type(zh).__name__} in zh, {type(en).__name__} in en"]


def test_both_languages_have_the_same_keys_lists_and_placeholders():
    assert differences(TABLES["zh"], TABLES["en"]) == []


def test_the_check_catches_a_key_missing_in_one_language():
    en = json.loads(json.dumps(TABLES["en"]))
    del en["mask"]["row"]
    assert differences(TABLES["zh"], en) == ["/mask/row: only in zh"]
    assert differences({"a": "{n} 步"}, {"a": "step"}) == ["/a: placeholders ['n'] vs []"]


@pytest.mark.parametrize("section", sorted(TABLES["en"]))
def test_every_section_and_top_level_key_is_used(section):
    users = [src for src in SOURCES.values() if f'labels("{section}"' in src]
    assert users, f"no module reads the section {section!r}"
    quoted = lambda key, src: re.search(rf"[\"']{re.escape(key)}[\"']", src)  # noqa: E731
    unused = [
        key for key in TABLES["en"][section] if not any(quoted(key, src) for src in users) and not quoted(key, DATA)
    ]
    assert unused == []


def test_each_language_reads_its_own_table():
    for lang, table in TABLES.items():
        for section in table:
            assert labels(section, lang) == table[section], (lang, section)
    assert labels("mask", "zh") != labels("mask", "en")


@pytest.mark.slow  # builds primer's wheel with pip (setuptools from pip's cache or PyPI)
def test_the_tables_ship_in_the_wheel(tmp_path):
    """What `pip install primer` gets holds every label table: the figures cannot speak without them."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, project)
    shutil.copytree(ROOT / "primer", project / "primer", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "dist"), str(project)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("primer-*.whl")
    with zipfile.ZipFile(wheel) as z:
        shipped = {name for name in z.namelist() if name.startswith("primer/labels/")}
        assert shipped == {f"primer/labels/{p.name}" for p in LABELS.glob("*.json")}
        assert json.loads(z.read("primer/labels/en.json")) == TABLES["en"]
