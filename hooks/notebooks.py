"""MkDocs hook: each chapter's notebook (docs/<lang>/notebooks/*.ipynb) as a page of its language, with its .ipynb.

mkdocs-jupyter renders the notebooks as written (`execute: false`: the tests run them), through its
documented options. mkdocs-static-i18n remakes every file as a plain File in its on_files (-100),
which is no page for a .ipynb; so after it, on_files here has mkdocs-jupyter make each notebook a
page again and gives the page i18n's URL and twin. mkdocs-jupyter's cache keys a page by the
notebook's bytes only: on_config gives each language its own folder, so one language's pass does not
evict the other's pages. What this touches of the two plugins goes through primer_site/plugin_touches.py, which also
lists the regexes here that read mkdocs-jupyter's markup (MARKUP_TOUCHES).
"""

import hashlib
import html
import re
from pathlib import Path, PurePosixPath

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from primer.language import labels
from primer_site.notebook_cells import exercises, progress_line
from primer_site.plugin_touches import jupyter_pages, set_i18n_alternate, set_i18n_sitemap_pages, set_jupyter_cache_dir
from primer_site.site_lang import DEFAULT, LANGS, build_language

SOLUTION = re.compile(r'<div[^>]*class="[^"]*\bcelltag_exercise-solution\b[^"]*"[^>]*>')
DIV = re.compile(r"<(/?)div\b[^>]*>")
STYLE = ("<style", "</style>")  # the start and end of an inlined <style> element (found with str.find)
SHARED_CSS = {}  # file name under assets/stylesheets/ -> the notebooks' JupyterLab styles, written after the build


def download_url(page_url):
    return page_url.rstrip("/") + ".ipynb"  # notebooks/05-mask/ -> notebooks/05-mask.ipynb


@event_priority(-110)  # after i18n's on_config (-100), which sets the language of this pass
def on_config(config):
    """Give mkdocs-jupyter's cache a folder per language: each language pass evicts what it did not use."""
    base = Path(config.config_file_path).parent
    set_jupyter_cache_dir(config, base / ".cache" / "mkdocs-jupyter" / build_language(config))
    return config


@event_priority(-150)  # after i18n's on_files (-100)
def on_files(files, config):
    """Make each notebook a page again (mkdocs-jupyter's on_files), at i18n's URL, with its twin; add its .ipynb."""
    lang = build_language(config)
    notebooks = [f for f in files if f.src_uri.endswith(".ipynb")]
    for plain, file in zip(notebooks, jupyter_pages(config, notebooks)):  # files stays i18n's own Files
        files.remove(plain)
        files.append(file)
        stem = PurePosixPath(file.src_uri).stem
        # i18n's URL: mkdocs-jupyter's NotebookFile made it from the path in docs/, language folder included
        file.dest_uri, file.url, file.abs_dest_path = plain.dest_uri, plain.url, plain.abs_dest_path
        rest = PurePosixPath(file.src_uri).parent.parts[1:]  # docs/<lang>/notebooks/x.ipynb -> ("notebooks",)
        for other in LANGS:  # the language switcher's target (overrides/partials/alternate.html)
            twin_src = PurePosixPath(other, *rest, PurePosixPath(file.src_uri).name).as_posix()
            if other != lang and (Path(config.docs_dir) / twin_src).exists():
                twin = PurePosixPath(*([] if other == DEFAULT else [other]), *rest, stem, "index.html").as_posix()
                twin_file = File(twin_src, config.docs_dir, config.site_dir, config.use_directory_urls, dest_uri=twin)
                set_i18n_alternate(file, other, twin_file)
        download = File(
            file.src_uri.replace(".ipynb", ".download.ipynb"),
            config.docs_dir,
            config.site_dir,
            False,
            dest_uri=download_url(file.url),
        )
        download.abs_src_path = file.abs_src_path  # readers download the notebook as written
        files.append(download)
    # i18n's sitemap.xml lists the pages it counted in its on_files, before these were pages again
    set_i18n_sitemap_pages(config, lang, files.documentation_pages())
    return files


def on_page_markdown(markdown_text, page, config, files):
    """Link a chapter page to its notebook; leave notebook pages out of the search index (Material's page meta)."""
    lang, name = build_language(config), PurePosixPath(page.file.src_uri).stem
    if page.file.src_uri.endswith(".ipynb"):  # ~250 KB of JupyterLab markup each, ~2/3 of the indexing time;
        page.meta["search"] = {"exclude": True}  # their code is on the chapter pages, which are indexed
    if (
        page.file.src_uri.endswith(".ipynb")
        or not (Path(config.docs_dir) / lang / "notebooks" / f"{name}.ipynb").exists()
    ):
        return markdown_text
    w = labels("notebook_box", lang)
    download = get_relative_url(download_url(f"{'en/' if lang == 'en' else ''}notebooks/{name}/"), page.url)
    notebook = Path(config.docs_dir) / lang / "notebooks" / f"{name}.ipynb"
    progress = progress_line(name, exercises(notebook), lang, tag="span")  # inline: the box's Markdown keeps it
    return (
        markdown_text.rstrip("\n") + f'\n\n!!! tip "{w["title"]}"\n    {w["body"]}\n\n'
        f"    [{w['read']}](notebooks/{name}.ipynb) · "
        f'<a href="{download}" download class="primer-notebook-download">{w["download"]}</a> {progress}\n'
    )


def wrap_solutions(content, summary):
    """Put each solution cell (tagged exercise-solution) in a closed <details>."""
    out, pos = [], 0
    for start in SOLUTION.finditer(content):
        if start.start() < pos:
            continue
        depth = 0
        for tag in DIV.finditer(content, start.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                out += [
                    content[pos : start.start()],
                    f'<details class="note"><summary>{summary}</summary>',
                    content[start.start() : tag.end()],
                    "</details>",
                ]
                pos = tag.end()
                break
    return "".join(out) + content[pos:]


def split_styles(content):  # -> [CSS of each <style> element], content without them
    """Take the <style> elements out of content (str.find: a lazy regex over 600 KB cost ~0.3 s a language pass)."""
    css, rest, pos = [], [], 0
    opening, closing = STYLE
    while (start := content.find(opening, pos)) != -1:
        body = content.index(">", start) + 1
        end = content.index(closing, body)
        rest.append(content[pos:start])
        css.append(content[body:end])
        pos = end + len(closing) + content.startswith("\n", end + len(closing))
    return css, "".join(rest) + content[pos:]


def share_styles(content, page):
    """Move the ~600 KB of JupyterLab CSS mkdocs-jupyter inlines in every notebook page into one shared stylesheet."""
    styles, rest = split_styles(content)
    if not styles:
        return content
    css = "\n".join(styles)
    name = f"jupyter.{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    SHARED_CSS[name] = css
    href = get_relative_url(f"assets/stylesheets/{name}", page.file.url)
    return f'<link rel="stylesheet" href="{html.escape(href)}">\n' + rest


def on_page_content(content, page, config, files):
    """On a notebook page: share its styles, close its solutions, offer the .ipynb and say how to run it."""
    if not page.file.src_uri.endswith(".ipynb"):
        return content
    w = labels("notebook_box", build_language(config))
    download = get_relative_url(download_url(page.file.url), page.file.url)
    primer_zip = get_relative_url("assets/runner/primer.zip", page.file.url)  # hooks/runner.py writes it
    where = w["in_jupyter"].format(zip=html.escape(primer_zip))
    if config.get("repo_url"):  # a link only when the build knows the repository (mkdocs.yml repo_url)
        where += " " + w["repository"].format(url=html.escape(config["repo_url"]))
    top = (
        f'<p class="primer-notebook-download"><a href="{html.escape(download)}" download>{w["download"]}</a></p>\n'
        f'<div class="admonition info"><p>{w["how_to_run"]}</p><p>{where}</p></div>\n'
    )
    return top + wrap_solutions(share_styles(content, page), w["solution"])


def on_post_build(config):
    """Write the notebooks' shared stylesheet into this language pass's site folder."""
    for name, css in SHARED_CSS.items():
        path = Path(config.site_dir) / "assets" / "stylesheets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(css, encoding="utf-8")
