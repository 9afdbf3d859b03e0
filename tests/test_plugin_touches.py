"""The one door: only primer_site/plugin_touches.py touches other packages' objects, and each touch still works."""

import ast
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from hook_loader import HOOKS, MODULES, SITE
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from site_reader import ROOT

from primer_site import plugin_touches as touches
from primer_site import site_lang

DOOR = "plugin_touches"

# ---- the rule, read from the hooks' source with ast

# Packages whose objects only the door may reach: the plugins and the theme; also Python-Markdown's own extensions
# (markdown.extensions.*; its Extension base class is the documented API) and markdown-exec's internals.
FOREIGN = {"mkdocs_static_i18n", "mkdocs_jupyter", "htmlproofer", "material", "pymdownx"}
# Attributes other packages keep on objects a hook holds (MkDocs' File, a Markdown processor), read by name or getattr.
THEIR_ATTRIBUTES = {
    "alternates",  # mkdocs-static-i18n, on each File
    "locale",  # mkdocs-static-i18n, on each File
    "locale_alternate_of",  # mkdocs-static-i18n, on each File
    "i18n_files_per_language",  # mkdocs-static-i18n's plugin
    "current_language",  # mkdocs-static-i18n's plugin
    "all_languages",  # mkdocs-static-i18n's plugin
    "default_language",  # mkdocs-static-i18n's plugin
    "abbrs",  # Python-Markdown's abbr processors
    "iter_element",  # Python-Markdown's abbr tree processor
}
# Base classes a hook may subclass: Python-Markdown's documented extension API, logging's, and io's text stream (the
# runner's worker side, primer_site/runner_worker.py, streams a program's printed text through one).
BASES = {
    ("io", "TextIOBase"),
    ("markdown.extensions", "Extension"),
    ("markdown.treeprocessors", "Treeprocessor"),
    ("markdown.preprocessors", "Preprocessor"),
    ("logging", "Handler"),
}


def imported(tree):
    """Return {local name: (module, name)} for every `from m import n` and `import m` in tree."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.update({a.asname or a.name: (node.module or "", a.name) for a in node.names})
        elif isinstance(node, ast.Import):
            names.update({a.asname or a.name.split(".")[0]: (a.name, "") for a in node.names})
    return names


def door_breaches(source):
    """Return each place source reaches another package's objects: a plugin, a foreign import, an event, a base."""
    tree, found = ast.parse(source), []
    names = imported(tree)
    for module, name in names.values():
        if (
            module.split(".")[0] in FOREIGN
            or module.startswith(("markdown.extensions.", "markdown_exec."))
            or (module == "markdown.extensions" and name != "Extension")
        ):
            found.append(f"import of {module}.{name}" if name else f"import of {module}")
    local = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "plugins":
            found.append(f"line {node.lineno}: .plugins (a plugin's object)")
        if isinstance(node, ast.Attribute) and node.attr in THEIR_ATTRIBUTES:
            found.append(f"line {node.lineno}: .{node.attr} (another package's attribute)")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "hasattr", "setattr"}
            and any(isinstance(a, ast.Constant) and a.value in THEIR_ATTRIBUTES for a in node.args)
        ):
            found.append(f"line {node.lineno}: {node.func.id}() of another package's attribute")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("on_"):
            found.append(f"line {node.lineno}: calls an event, .{node.func.attr}()")
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if isinstance(base, ast.Name):
                    ok = base.id in local or names.get(base.id) in BASES
                else:
                    ok = isinstance(base, ast.Attribute) and (ast.unparse(base.value), base.attr) in BASES
                if not ok:
                    found.append(f"line {node.lineno}: class {node.name} subclasses {ast.unparse(base)}")
    return found


SOURCES = [HOOKS / f"{m}.py" for m in MODULES] + [p for p in sorted(SITE.glob("*.py")) if p.stem != DOOR]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_hook_nor_shared_module_but_the_door_touches_another_packages_objects(path):
    found = door_breaches(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: move these into primer_site/{DOOR}.py: {found}"


def test_the_door_check_can_fail():
    planted = """
from mkdocs_static_i18n.plugin import I18n
from markdown.extensions.abbr import AbbrTreeprocessor
from markdown_exec._internal import x
import htmlproofer.plugin
class Mine(AbbrTreeprocessor): pass
class Other(htmlproofer.plugin.HtmlProoferPlugin): pass
lang = config.plugins["i18n"].current_language
proofer = config.plugins.get("htmlproofer")
plugin.on_files(files, config)
lang = getattr(page.file, "locale", None) or "zh"
page.file.alternates["en"] = twin
"""
    found = door_breaches(planted)
    assert len(found) == 12, found  # .plugins and .current_language on one line count twice
    allowed = """
import logging
import markdown_exec
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
class A(Extension): pass
class B(Treeprocessor): pass
class C(logging.Handler): pass
class D(A): pass
html = markdown_exec.formatter(source, language, css_class, options, md)
"""
    assert door_breaches(allowed) == []


def locked_versions():
    """Return {package: version} from requirements.lock, for the Python the tests run on (3.11)."""
    versions = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)(?:\s*;\s*(.*))?$", line.strip())
        if m and (not m.group(3) or eval_marker(m.group(3))):
            versions[m.group(1).lower()] = m.group(2)
    return versions


def eval_marker(marker):
    from packaging.markers import Marker

    return Marker(marker).evaluate({"python_full_version": "3.11.7", "python_version": "3.11"})


PACKAGE_OF = {  # the name each docstring gives -> its name in requirements.lock
    "mkdocs": "mkdocs",
    "mkdocs-static-i18n": "mkdocs-static-i18n",
    "mkdocs-jupyter": "mkdocs-jupyter",
    "mkdocs-htmlproofer-plugin": "mkdocs-htmlproofer-plugin",
    "markdown-exec": "markdown-exec",
    "mkdocs-material": "mkdocs-material",
}


def test_the_door_names_the_locked_version_of_each_package_it_touches():
    tree = ast.parse((SITE / f"{DOOR}.py").read_text(encoding="utf-8"))
    doc, locked = ast.get_docstring(tree), locked_versions()
    named = dict(re.findall(r"(mkdocs(?:-[a-z0-9]+)*|markdown-exec)\s+(\d+\.\d+\.\d+)", doc))
    assert set(named) == set(PACKAGE_OF), named
    for package, version in named.items():
        assert locked[PACKAGE_OF[package]] == version, f"{package}: the door was read from {version}"
    assert touches.MATERIAL_VERSION == locked["mkdocs-material"]
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    for fn in functions:
        text = ast.get_docstring(fn)
        if "Touches:" in text:
            version = re.search(r"\((\d+\.\d+\.\d+)[,)]", text)
            assert version and version.group(1) in named.values(), f"{fn.name}: name the version read from"
    assert sum("Touches:" in ast.get_docstring(fn) for fn in functions) == 5


# ---- each touch, against the installed packages: the site's real config through i18n's and the hooks' on_files


@pytest.fixture(scope="module")
def built():
    """Run the site's plugins and hooks through on_config and on_files, as the default language's pass does."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", "1800000000")  # hooks/repository.py: no git call
        mp.delenv("PRIMER_EXEC_CACHE", raising=False)
        saved = os.environ.get("MKDOCS_CONFIG_DIR")
        config = load_config(str(ROOT / "mkdocs.yml"))
        config = config.plugins.on_config(config)
        files = config.plugins.on_files(get_files(config), config=config)
        if saved is None:
            mp.delenv("MKDOCS_CONFIG_DIR", raising=False)
    return SimpleNamespace(config=config, files=files, lang=config.theme["language"])


def notebook_pages(files):
    return [f for f in files if f.src_uri.endswith(".ipynb") and f.is_documentation_page()]


def test_the_pass_language_is_materials_theme_language_set_by_i18n(built):
    assert built.lang == "zh" and site_lang.build_language(built.config) == "zh"


def test_jupyter_makes_each_notebook_a_page_again(built):
    pages = notebook_pages(built.files)
    assert len(pages) == len(list((ROOT / "docs" / "zh" / "notebooks").glob("*.ipynb"))) > 0
    assert all(p.url.startswith("notebooks/") and p.url.endswith("/") for p in pages)


def test_each_notebook_page_has_its_twin(built):
    for page in notebook_pages(built.files):
        stem = Path(page.src_uri).stem
        assert page.alternates["en"].url == f"en/notebooks/{stem}/"


def test_i18n_sitemap_lists_the_notebook_pages(built):
    i18n = built.config.plugins["i18n"]
    listed = {f.src_uri for f in i18n.i18n_files_per_language["zh"]}
    assert {p.src_uri for p in notebook_pages(built.files)} <= listed


def test_jupyter_caches_each_language_apart(built):
    cache = Path(built.config.plugins["mkdocs-jupyter"].config["cache_dir"])
    assert cache == ROOT / ".cache" / "mkdocs-jupyter" / "zh"


def test_htmlproofer_saw_the_files_as_i18n_laid_them_out(built):
    seen = {f.url for f in built.config.plugins["htmlproofer"].files}
    assert {p.url for p in notebook_pages(built.files)} <= seen


def test_the_python_fence_runs_through_the_exec_cache(built):
    fences = built.config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert [f["format"].__name__ for f in fences if f["name"] == "python"] == ["cached_format"]


# ---- each touch fails loudly when what it touches is gone


def fake_config(**plugins):
    return SimpleNamespace(plugins=plugins, mdx_configs={})


def test_the_touches_fail_loudly_without_what_they_touch():
    with pytest.raises(AttributeError):
        touches.set_i18n_alternate(SimpleNamespace(), "en", None)
    with pytest.raises(PluginError):
        touches.set_i18n_alternate(SimpleNamespace(alternates=None), "en", None)
    with pytest.raises(AttributeError):
        touches.set_i18n_sitemap_pages(fake_config(i18n=SimpleNamespace()), "zh", [])
    with pytest.raises(PluginError):
        touches.set_i18n_sitemap_pages(fake_config(i18n=SimpleNamespace(i18n_files_per_language={})), "zh", [])
    with pytest.raises(PluginError):
        touches.set_jupyter_cache_dir(fake_config(**{"mkdocs-jupyter": SimpleNamespace(config={})}), "x")
    with pytest.raises(PluginError):
        touches.jupyter_pages(fake_config(), [])
    plain = SimpleNamespace(on_files=lambda files, config: files)  # leaves a notebook a plain file
    with pytest.raises(PluginError):
        touches.jupyter_pages(fake_config(**{"mkdocs-jupyter": plain}), [File("a.ipynb", "docs", "site", True)])
    with pytest.raises(PluginError):
        touches.material_template("partials/no-such-template.html")


# ---- the pieces of Material's templates that overrides/ copies


def template_lines(text, block=None):
    """Return the stripped, non-empty lines of a template, its comments out; of one {% block %} if named."""
    if block:
        m = re.search(rf"\{{%-?\s*block {block}\s*-?%\}}(.*?)\{{%-?\s*endblock\s*-?%\}}", text, re.S)
        assert m, f"no block {block}"
        text = m.group(1)
    text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    text = re.sub(r"mkdocs-material-\d+(\.\d+)*", "mkdocs-material-VERSION", text)  # the generator tag's stamp
    return [line.strip() for line in text.splitlines() if line.strip()]


def without(lines, dropped):
    """Return lines without dropped, a subsequence of them (in order); None if dropped is not one."""
    out, k = [], 0
    for line in lines:
        if k < len(dropped) and line == dropped[k]:
            k += 1
        else:
            out.append(line)
    return out if k == len(dropped) else None


def copy_matches(copy, theirs_text, ours_text):
    """Return whether ours is Material's piece with copy.left_out taken out and copy.added put in, line for line."""
    theirs = without(template_lines(theirs_text, copy.block), template_lines("\n".join(copy.left_out)))
    ours = without(template_lines(ours_text, copy.block), template_lines("\n".join(copy.added)))
    return theirs is not None and theirs == ours


@pytest.mark.parametrize("copy", touches.TEMPLATE_COPIES, ids=lambda c: c.ours)
def test_overrides_copy_materials_template_but_for_the_lines_said(copy):
    assert copy_matches(
        copy, touches.material_template(copy.material), (ROOT / copy.ours).read_text(encoding="utf-8")
    ), (
        f"{copy.ours} no longer matches Material {touches.MATERIAL_VERSION}'s {copy.material} but for the lines "
        "TEMPLATE_COPIES names: re-read Material's, re-copy it, and update hooks/plugin_touches.py"
    )


@pytest.mark.parametrize("copy", touches.TEMPLATE_COPIES, ids=lambda c: c.ours)
def test_the_template_check_can_fail(copy):
    theirs = touches.material_template(copy.material)
    ours = (ROOT / copy.ours).read_text(encoding="utf-8")
    first, mine = template_lines(theirs, copy.block)[0], template_lines(ours, copy.block)[0]
    assert not copy_matches(copy, theirs.replace(first, first.replace(">", " hidden>", 1), 1), ours)  # theirs changed
    assert not copy_matches(copy, theirs, ours.replace(mine, mine + "\n<p></p>", 1))  # ours gained a line


# ---- the languages the hooks assume are mkdocs.yml's


def test_the_hooks_languages_are_the_i18n_languages_of_mkdocs_yml():
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    Loader.add_constructor("!ENV", lambda loader, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    assert tuple(lang["locale"] for lang in i18n["languages"]) == site_lang.LANGS
    assert [lang["locale"] for lang in i18n["languages"] if lang.get("default")] == [site_lang.DEFAULT]
    assert i18n["reconfigure_material"] is True and i18n["fallback_to_default"] is False
    assert i18n["docs_structure"] == "folder" and config["theme"]["language"] == site_lang.DEFAULT
