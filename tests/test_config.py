"""The one model shape: defaults of the tiny model, the derived head width, and every refusal."""

import dataclasses

import pytest

from primer.config import Config


def test_defaults_are_the_tiny_model():
    c = Config()
    assert (c.vocab_size, c.d_model, c.n_heads, c.d_ff, c.n_layers, c.max_len) == (32, 16, 4, 32, 2, 64)
    assert c.d_head * c.n_heads == c.d_model == 16


def test_kv_heads_default_to_the_query_heads_and_may_be_fewer():
    assert Config(n_heads=8, d_model=32).n_kv_heads == 8
    assert Config(n_heads=8, d_model=32, n_kv_heads=2).n_kv_heads == 2


def test_a_config_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().d_model = 8


@pytest.mark.parametrize("kwargs, words", [
    (dict(d_model=10, n_heads=4), "d_model must be divisible by n_heads"),
    (dict(n_kv_heads=3), "n_kv_heads must divide n_heads"),
    (dict(n_layers=0), "n_layers must be an integer >= 1"),
    (dict(max_len=0), "max_len must be an integer >= 1"),
    (dict(window=0), "window must be an integer >= 1"),
    (dict(segment_types=-1), "segment_types must be an integer >= 0"),
    (dict(positions="alibi"), "positions must be one of"),
    (dict(positions="learned", max_len=None), "max_len must be set"),
    (dict(positions="relative"), "relative_buckets must be >= 1"),
    (dict(relative_buckets=4), "relative_buckets must be >= 1"),
    (dict(pooler=1), "pooler must be True or False"),
])
def test_bad_config(kwargs, words):
    with pytest.raises(ValueError, match=words):
        Config(**kwargs)
