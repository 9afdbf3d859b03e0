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
