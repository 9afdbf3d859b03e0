"""Render executed notebooks to mkdocs-jupyter's HTML in a process of its own, beside the build (hooks/notebooks.py starts it).

nbconvert takes about half a second a notebook, in pure Python: done in the build's own process it
would hold the build's thread for some 10 s, while here it runs on the other core as each notebook
finishes. It writes what mkdocs-jupyter writes on a cache miss, to the same file, so mkdocs-jupyter
then reads it as a cache hit (tests/test_site_notebooks.py checks the two render alike).

Protocol: one JSON object a line on stdin, {"src": executed .ipynb, "out": cache file, "options":
mkdocs-jupyter's config}; one line back on stdout per request: "ok" or "error: <message>".
"""

import json
import os
import sys
import traceback
from pathlib import Path


class _TemplateMemory:
    """A jinja bytecode cache in memory: nbconvert builds a new template environment for every notebook, and compiling
    its templates again each time was half the rendering time. Jinja keys entries by each template's source."""

    def __init__(self):
        import jinja2

        class Memory(jinja2.BytecodeCache):
            store = {}

            def load_bytecode(self, bucket):
                if bucket.key in self.store:
                    bucket.bytecode_from_string(self.store[bucket.key])

            def dump_bytecode(self, bucket):
                self.store[bucket.key] = bucket.bytecode_to_string()

        self.cache = Memory()


def share_compiled_templates():
    """Give every template environment nbconvert creates in this process one bytecode cache."""
    from nbconvert.exporters.templateexporter import TemplateExporter

    create = TemplateExporter._create_environment
    memory = _TemplateMemory().cache

    def create_with_memory(self):
        env = create(self)
        env.bytecode_cache = memory
        return env

    TemplateExporter._create_environment = create_with_memory


def render(src, options):
    """Return what mkdocs-jupyter caches for a notebook: its HTML, its table-of-contents tokens and its title."""
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens   # private: the version is pinned in requirements.lock

    body = convert.nb2html(
        src, execute=False, kernel_name=options["kernel_name"], theme=options["theme"],
        allow_errors=options["allow_errors"], show_input=options["show_input"], no_input=options["no_input"],
        no_prompt=options["no_prompt"], remove_tag_config=options["remove_tag_config"],
        highlight_extra_classes=options["highlight_extra_classes"], include_requirejs=options["include_requirejs"],
        custom_mathjax_url=options["custom_mathjax_url"])
    toc_tokens, title = _get_nb_toc_tokens(src, options["toc_depth"])
    return {"content": body, "toc_tokens": toc_tokens, "title": title}


def main():
    share_compiled_templates()
    for line in sys.stdin:
        request = json.loads(line)
        try:
            out = Path(request["out"])
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(render(request["src"], request["options"])), encoding="utf-8")
            os.replace(tmp, out)   # atomic: a build reading the cache sees the whole entry or none
            print("ok", flush=True)
        except Exception:  # noqa: BLE001 - reported to the build, which fails the page
            print("error: " + json.dumps(traceback.format_exc()), flush=True)


if __name__ == "__main__":
    main()
