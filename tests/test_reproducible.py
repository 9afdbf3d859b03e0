"""Two builds of one commit give the same site, byte for byte (hooks/repository.py dates both by the commit).

Both are the session's builds (tests/conftest.py): `site`, and `second_site` made the same way after it."""


def tree(site):
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def test_two_builds_write_the_same_files(site, second_site):
    assert tree(site) == tree(second_site)


def test_two_builds_are_byte_identical(site, second_site):
    differ = [name for name in tree(site) if (site / name).read_bytes() != (second_site / name).read_bytes()]
    assert differ == []
