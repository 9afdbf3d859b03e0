"""Two builds of one commit give the same site, byte for byte (the hook dates both by the commit)."""

import pytest

from conftest import build_site


@pytest.fixture(scope="module")
def second_site(tmp_path_factory):
    """Build the site a second time, the way the session's `site` fixture does."""
    return build_site(tmp_path_factory.mktemp("site-again"))


def tree(site):
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def test_two_builds_write_the_same_files(site, second_site):
    assert tree(site) == tree(second_site)


def test_two_builds_are_byte_identical(site, second_site):
    differ = [name for name in tree(site)
              if (site / name).read_bytes() != (second_site / name).read_bytes()]
    assert differ == []

