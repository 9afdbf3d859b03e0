"""MkDocs hook: under `mkdocs serve`, keep the theme's compiled templates in .cache/jinja across rebuilds."""

import os


def on_env(env, config, files):
    """Under `mkdocs serve` (the exec cache on), keep the theme's compiled templates in .cache/jinja across rebuilds."""
    import jinja2

    if os.environ.get("PRIMER_EXEC_CACHE", "off") != "off":  # jinja keys each entry by the template's source
        directory = os.path.join(os.path.dirname(config.config_file_path), ".cache", "jinja")
        os.makedirs(directory, exist_ok=True)
        env.bytecode_cache = jinja2.FileSystemBytecodeCache(directory)
    return env
