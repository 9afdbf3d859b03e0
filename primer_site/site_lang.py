"""The site's languages, and the language a build pass writes, from settings that mkdocs.yml and its plugins document.

mkdocs-static-i18n builds the default language (zh, at the site's root) and then each other one, in
passes over one config; with `reconfigure_material: true` it sets Material's documented `theme.language`
to the language of the pass ("Automatic language setup", in its documentation on setting up Material).
`docs_structure: folder` and `fallback_to_default: false` make every page of a pass a page of that
language. The languages and the default are the project's own (primer.language.LANGS);
tests/test_plugin_touches.py checks that mkdocs.yml's i18n entries say the same.
"""

from mkdocs.exceptions import PluginError

from primer.language import LANGS

DEFAULT = LANGS[0]  # zh: i18n's `default: true`, built first, at the site's root


def build_language(config):
    """Return the language this build pass writes (Material's theme.language, set by i18n for each pass)."""
    lang = config.theme["language"]
    if lang not in LANGS:
        raise PluginError(f"theme.language is {lang!r}, not one of {LANGS}: did mkdocs-static-i18n stop setting it?")
    return lang


def is_first_pass(config):
    """Return whether this is the first pass of a build, the default language's (once per build, not per language)."""
    return build_language(config) == DEFAULT
