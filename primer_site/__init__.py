"""The site's own code around primer: what the MkDocs hooks, the tests and bench/ share (not primer's math).

Installed with primer (`make install`, editable), so the hooks in hooks/, the tests and bench/ import it the
ordinary way: `from primer_site.site_lang import build_language`.
"""
