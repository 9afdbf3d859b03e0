"""The one door to other packages' objects: each touch that no documented option or API covers, one small function.

Every other hook uses other packages through their documented options and public APIs only;
tests/test_plugin_touches.py reads the hooks with `ast` and fails if one reaches a plugin's object,
calls a plugin's event or subclasses another package's class anywhere but here. Each function below
names what it touches, why no documented way exists, and the version it was read from (the locked
versions in requirements.lock, Python 3.11): mkdocs 1.6.1, mkdocs-static-i18n 1.3.1, mkdocs-jupyter
0.26.3, mkdocs-htmlproofer-plugin 1.6.0, markdown-exec 1.12.6, mkdocs-material 9.8.2. Each fails
loudly (PluginError) when what it touches is gone, and tests/test_plugin_touches.py runs each one
against the installed packages (`make matrix` runs them against the newest ones too).

Material's templates cannot be overridden in part, so overrides/ holds copies of three pieces of
them, each changed in a line or two; TEMPLATE_COPIES lists them, what each leaves out and adds, and
tests/test_plugin_touches.py compares them with the installed Material's templates, line by line.
"""

from collections import namedtuple
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files


def _plugin(config, name, required=False):
    """Return the configured plugin called name (MkDocs' documented config.plugins), or None if absent."""
    plugin = config.plugins.get(name)
    if plugin is None and required:
        raise PluginError(f"hooks need the {name} plugin in mkdocs.yml")
    return plugin


# ---- mkdocs-static-i18n 1.3.1


def set_i18n_alternate(file, lang, twin):
    """Record twin as file's page in language lang: the language switcher and i18n's sitemap.xml read it.

    Touches: the `alternates` dict that i18n (1.3.1, reconfigure.py) keeps on each File and fills in its
    on_files; overrides/partials/alternate.html and i18n's sitemap.xml template read it. A notebook is a
    plain file when i18n fills it, so its entry points at the .ipynb, not at the page mkdocs-jupyter
    makes of it; i18n documents no way to name a page's twin.
    """
    alternates = file.alternates  # AttributeError if i18n stops keeping it
    if not isinstance(alternates, dict):
        raise PluginError(f"mkdocs-static-i18n's File.alternates is a {type(alternates).__name__}, not a dict")
    alternates[lang] = twin


def set_i18n_sitemap_pages(config, lang, pages):
    """Make i18n's sitemap.xml list pages as the pages of language lang (the notebook pages included).

    Touches: i18n's `i18n_files_per_language` (1.3.1, plugin.py), which its on_files (-100) sets from
    the documentation pages it saw, before the notebooks were pages, and its sitemap.xml template reads
    (documented only as the `i18n_alternates` template variable, not as something a hook may change).
    """
    i18n = _plugin(config, "i18n")
    if i18n is None:
        return
    per_language = i18n.i18n_files_per_language  # AttributeError if i18n renames it
    if lang not in per_language:
        raise PluginError(f"mkdocs-static-i18n's i18n_files_per_language has no {lang!r} after its on_files")
    per_language[lang] = pages


# ---- mkdocs-jupyter 0.26.3


def set_jupyter_cache_dir(config, directory):
    """Point mkdocs-jupyter's page cache at directory for this build pass.

    Touches: the validated `cache_dir` option of mkdocs-jupyter (0.26.3, plugin.py), set after
    validation. Its cache keys a page by the notebook's bytes, and its on_post_build evicts every
    entry the pass did not use, so one folder for both language passes evicts the other language's
    pages each build; the option is documented only in mkdocs.yml, where it cannot vary by language.
    """
    plugin = _plugin(config, "mkdocs-jupyter")
    if plugin is None:
        return
    if "cache_dir" not in plugin.config:
        raise PluginError("mkdocs-jupyter has no cache_dir option any more")
    plugin.config["cache_dir"] = str(directory)


def jupyter_pages(config, notebooks):
    """Return mkdocs-jupyter's page for each notebook File in notebooks (its on_files, called again).

    Touches: the on_files event of mkdocs-jupyter (0.26.3, plugin.py), which wraps each .ipynb in a
    NotebookFile that MkDocs treats as a page. It ran at priority 0, before i18n's on_files (-100)
    remade every file as a plain File; neither plugin documents a way to order them the other way.
    """
    plugin = _plugin(config, "mkdocs-jupyter", required=True)
    pages = list(plugin.on_files(Files(list(notebooks)), config))
    if len(pages) != len(notebooks) or not all(isinstance(p, File) and p.is_documentation_page() for p in pages):
        raise PluginError("mkdocs-jupyter's on_files no longer makes each notebook a page")
    return pages


# ---- mkdocs-htmlproofer-plugin 1.6.0


def show_htmlproofer_files(files, config):
    """Show htmlproofer the files as i18n laid them out, so it resolves links to the built pages.

    Touches: htmlproofer's `enabled` option and its on_files event (1.6.0, plugin.py), called again:
    it stores the files at priority 0, before i18n's on_files (-100) gives them their language's
    URLs, and documents no way to run later.
    """
    proofer = _plugin(config, "htmlproofer")
    if proofer is not None and proofer.config["enabled"]:
        proofer.on_files(files, config)


# ---- markdown-exec 1.12.6


def replace_exec_formatter(config, formatter):
    """Put formatter in place of markdown_exec.formatter on every fence markdown-exec's plugin registered.

    Touches: the custom fences markdown-exec's plugin (1.12.6) adds to pymdownx.superfences in
    config.mdx_configs during its on_config. `markdown_exec.formatter` is the documented value of
    such a fence's format, but markdown-exec documents no way to wrap it while its plugin registers it.
    """
    import markdown_exec

    fences = config.mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", [])
    replaced = 0
    for fence in fences:
        if fence.get("format") is markdown_exec.formatter:
            fence["format"] = formatter
            replaced += 1
    if not replaced and _plugin(config, "markdown-exec") is not None:
        raise PluginError("markdown-exec's plugin registered no fence with markdown_exec.formatter")
    return replaced


# ---- mkdocs-material 9.8.2: the template pieces overrides/ copies

MATERIAL_VERSION = "9.8.2"  # the Material whose templates the copies below were read from
TemplateCopy = namedtuple("TemplateCopy", "ours material block left_out added why")
TEMPLATE_COPIES = (
    TemplateCopy(
        "overrides/main.html",
        "base.html",
        "site_meta",
        left_out=(
            "{% if config.extra.alternate is iterable %}",
            "{% for alt in config.extra.alternate %}",
            '<link rel="alternate" href="{{ alt.link | url }}" hreflang="{{ alt.lang | d(lang.t(\'language\')) }}">',
            "{% endfor %}",
            "{% endif %}",
            '{% if "rss" in config.plugins %}',
            '<link rel="alternate" type="application/rss+xml" title="{{ lang.t(\'rss.created\') }}" '
            "href=\"{{ 'feed_rss_created.xml' | url }}\">",
            '<link rel="alternate" type="application/rss+xml" title="{{ lang.t(\'rss.updated\') }}" '
            "href=\"{{ 'feed_rss_updated.xml' | url }}\">",
            "{% endif %}",
            '<meta name="generator" content="mkdocs-{{ mkdocs_version }}, mkdocs-material-9.8.2">',
        ),
        added=(),
        why="no hreflang <link rel=alternate>: Material's JavaScript fetches <alternate>/sitemap.xml for each, a 404",
    ),
    TemplateCopy(
        "overrides/partials/alternate.html",
        "partials/alternate.html",
        None,
        left_out=('<a href="{{ alt.link | url }}" hreflang="{{ alt.lang }}" class="md-select__link">',),
        added=(
            "{% set twin = (page.file.alternates or {}).get(alt.lang) if page and page.file else none %}",
            '<a href="{{ (twin.url if twin else alt.link) | url }}" hreflang="{{ alt.lang }}" class="md-select__link">',
        ),
        why="the switcher links each page's twin relatively (i18n's File.alternates, as set_i18n_alternate writes)",
    ),
    TemplateCopy(
        "overrides/partials/source.html",
        "partials/source.html",
        None,
        left_out=(
            '<a href="{{ config.repo_url }}" title="{{ lang.t(\'source\') }}" class="md-source" '
            'data-md-component="source">',
        ),
        added=('<a href="{{ config.repo_url }}" title="{{ lang.t(\'source\') }}" class="md-source">',),
        why="no data-md-component=source: it makes Material's JavaScript ask api.github.com on every page",
    ),
)


def material_template(name):
    """Return the text of the installed Material's template name (under material/templates/)."""
    import material

    path = Path(material.__file__).parent / "templates" / name
    if not path.is_file():
        raise PluginError(f"mkdocs-material has no template {name} any more")
    return path.read_text(encoding="utf-8")
