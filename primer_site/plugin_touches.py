"""The one door to other packages' objects and markup: each touch no documented option or API covers, listed here.

Every hook uses other packages through their documented options and public APIs only;
tests/test_plugin_touches.py reads the hooks and primer_site with `ast` and fails if one reaches a plugin's object,
calls a plugin's event or subclasses another package's class anywhere but here. Each function below
names what it touches, why no documented way exists, and the version it was read from (the locked
versions in requirements.lock, Python 3.11): mkdocs 1.6.1, mkdocs-static-i18n 1.3.1, mkdocs-jupyter
0.26.3, mkdocs-htmlproofer-plugin 1.6.0, markdown-exec 1.12.6, mkdocs-material 9.8.2. Each fails
loudly (PluginError) when what it touches is gone, and tests/test_plugin_touches.py runs each one
against the installed packages (`make matrix` runs them against the newest ones too).

MARKUP_TOUCHES lists each regex a hook applies to HTML another package wrote (Pygments, markdown-exec,
arithmatex, mkdocs-jupyter, KaTeX): tests/test_markup_touches.py runs each on that package's real output.

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


# ---- other packages' HTML, read with regexes by the hooks

# Each regex a hook applies to markup another package wrote, by (hook, constant): what writes it and what the hook
# does with it. tests/test_markup_touches.py renders each package's markup for real and runs the hook's constant on
# it, and fails if a hook holds such a regex this table does not list.
MarkupTouch = namedtuple("MarkupTouch", "hook constant writer markup use")
MARKUP_TOUCHES = (
    MarkupTouch(
        "search_prose",
        "BLOCK",
        "pymdownx.highlight with Pygments (pymdown-extensions 13.1.2, Pygments 2.21.0)",
        '<div class="[classes ]highlight"><pre>...</code></pre></div>: a highlighted code block, a fence\'s own '
        "classes first",
        "leaves each block out of the copy of the page Material's search reads",
    ),
    MarkupTouch(
        "search_prose",
        "FLAT",
        "Python-Markdown 3.11.3 (paragraphs; its tables extension) and KaTeX 0.19.1's MathML (hooks/mathml.py)",
        "<p>...</p>, <table>...</table>, <math>...</math>: elements that never hold a heading",
        "flattens each to its text and the tags Material's search keeps, in the copy search reads",
    ),
    MarkupTouch(
        "runner",
        "CODE_DIV",
        'markdown-exec 1.12.6 (source="above" result="text") through pymdownx.highlight and Pygments 2.21.0',
        '<div class="highlight"><pre><span></span><code>...</code></pre></div>: the source, then the printed text',
        "finds a runnable block's source and output, to put the runner's mark after them",
    ),
    MarkupTouch(
        "runner",
        "NOTEBOOK_CELL",
        "mkdocs-jupyter 0.26.3 (nbconvert 7.17.2, its lab template)",
        'id="cell-id=<id>" ... <div class="highlight-ipynb ..."><pre>...</pre></div>: a code cell, then its source',
        "puts the runner's mark after the source of each notebook cell the page runs",
    ),
    MarkupTouch(
        "notebooks",
        "SOLUTION",
        "mkdocs-jupyter 0.26.3 (nbconvert 7.17.2, its lab template)",
        '<div class="... celltag_exercise-solution ...">: a cell tagged exercise-solution',
        "folds each solution cell into a closed <details>",
    ),
    MarkupTouch(
        "notebooks",
        "DIV",
        "mkdocs-jupyter 0.26.3 (nbconvert 7.17.2, its lab template)",
        "<div ...> and </div>: where a solution cell ends",
        "finds the end of the cell SOLUTION opens",
    ),
    MarkupTouch(
        "notebooks",
        "STYLE",
        "mkdocs-jupyter 0.26.3 (nbconvert 7.17.2, its lab template)",
        "<style ...>...</style>: JupyterLab's CSS, inlined in every notebook page",
        "moves it into one shared stylesheet",
    ),
    MarkupTouch(
        "mathml",
        "MATH",
        "pymdownx.arithmatex, generic: true (pymdown-extensions 13.1.2)",
        '<span class="arithmatex">\\(...\\)</span>, <div class="arithmatex">\\[...\\]</div>: a formula as TeX',
        "replaces each formula's TeX with KaTeX's MathML",
    ),
    MarkupTouch(
        "mathml",
        "KATEX_WRAPPER",
        "KaTeX 0.19.1, vendored in hooks/katex (renderToString, output: mathml)",
        '<span class="katex"><math ...><semantics>...<annotation ...>TeX</annotation></semantics></math></span>',
        "keeps the MathML, drops the wrapper, the xmlns and the TeX annotation",
    ),
    MarkupTouch(
        "mathml",
        "NORM_BAR",
        "KaTeX 0.19.1, vendored in hooks/katex",
        '<mo stretchy="false">∥</mo>: \\lVert and \\lvert as relations',
        "sets them as fences, as KaTeX's own HTML does",
    ),
)


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
