"""Two builds of one commit give the same site, byte for byte (the hook dates both by the commit)."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def second_site(tmp_path_factory):
    """Build the site a second time, the way the session's `site` fixture does."""
    out = tmp_path_factory.mktemp("site-again")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, "strict build failed:\n" + proc.stderr[-8000:]
    return out


def tree(site):
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def test_two_builds_write_the_same_files(site, second_site):
    assert tree(site) == tree(second_site)


def test_two_builds_are_byte_identical(site, second_site):
    differ = [name for name in tree(site)
              if (site / name).read_bytes() != (second_site / name).read_bytes()]
    assert differ == []

