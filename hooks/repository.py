"""MkDocs hook: what the build takes from the repository: the last commit's date, and edit links only with a URL.

A sitemap needs the site's address: a build without site_url (PRIMER_SITE_URL) writes none, where MkDocs and i18n
would write `<loc>None01-rnn/</loc>`. Two builds of one commit are byte-identical: MkDocs dates pages and
sitemap.xml.gz by SOURCE_DATE_EPOCH, which on_config sets from the last commit unless it is set already.
"""

import os
import subprocess
from pathlib import Path


def on_config(config):
    """Drop edit links without a repository; date the build by its last commit so two builds are byte-identical."""
    if not config.get("repo_url"):
        config["edit_uri"] = None  # edit_uri alone is a warning on every page
    if "SOURCE_DATE_EPOCH" not in os.environ:  # MkDocs dates pages and sitemap.xml.gz by it
        try:
            proc = subprocess.run(
                ["git", "log", "-1", "--format=%ct"],
                capture_output=True,
                text=True,
                cwd=os.path.dirname(config.config_file_path),
            )
        except OSError:  # no git: dated by the clock, as MkDocs does
            return config
        if proc.returncode == 0 and proc.stdout.strip():
            os.environ["SOURCE_DATE_EPOCH"] = proc.stdout.strip()
    return config


def on_post_build(config):
    """Remove the sitemaps of a build without a site URL: their addresses would start with "None"."""
    if not config.get("site_url"):
        for path in Path(config["site_dir"]).rglob("sitemap.xml*"):
            path.unlink()
