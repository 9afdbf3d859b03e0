"""No test file over 400 lines, the one table of bad input excepted: a reader finds a test by its file."""

from site_reader import ROOT

LIMIT = 400
ONE_TABLE = {"tests/test_bad_input.py"}  # every bad input and its ValueError, one table (CONTRIBUTING.md)


def long_files(paths, limit=LIMIT):
    """Return {path: lines} for each file in paths longer than limit lines."""
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in paths}
    return {path: n for path, n in sizes.items() if n > limit}


def test_no_test_file_is_over_400_lines():
    assert not {p: n for p, n in long_files((ROOT / "tests").rglob("*.py")).items() if p not in ONE_TABLE}


def test_the_size_check_can_fail():
    assert long_files([ROOT / "tests" / "test_bad_input.py"]) != {}
