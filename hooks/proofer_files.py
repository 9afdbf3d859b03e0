"""MkDocs hook: show htmlproofer the files as mkdocs-static-i18n laid them out (it saw them before i18n did)."""

from mkdocs.plugins import event_priority

from primer_site.plugin_touches import show_htmlproofer_files


@event_priority(-200)  # after i18n's on_files (-100) and hooks/notebooks.py's (-150)
def on_files(files, config):
    """Show htmlproofer the files as i18n laid them out: it saw them before, at priority 0."""
    show_htmlproofer_files(files, config)
    return files
