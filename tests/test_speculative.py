import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from primer.config import Config
from primer.masks import causal_mask
from primer.rounding import is_rounding
from primer.speculative import (
    accepted_branch,
    bigram_table,
    bigram_tree,
    branch,
    branch_logits,
    speculative_greedy,
    tree_depths,
    tree_pass_mask,
    verify_tree,
)
from primer.transformer import decode, init_stack

CFG = Config(d_model=16, n_heads=2, n_layers=2, max_len=32)


@st.composite
def trees(draw, max_nodes=10):
    m = draw(st.integers(1, max_nodes))
    return [-1] + [draw(st.integers(-1, i - 1)) for i in range(1, m)]


@settings(max_examples=30, deadline=None)
@given(trees(), st.integers(1, 8), st.integers(0, 2**16))
def test_one_pass_over_the_tree_equals_each_branch_alone(parents, p, seed):
    rng = np.random.default_rng(seed)
    params = init_stack(seed % 500, CFG)
    prefix, draft = rng.integers(0, CFG.vocab_size, p), rng.integers(0, CFG.vocab_size, len(parents))
    one_pass = verify_tree(prefix, draft, parents, params, CFG)
    assert is_rounding(one_pass[:p] - decode(prefix, params, CFG))
    for node in range(len(parents)):
        assert is_rounding(one_pass[p + node] - branch_logits(prefix, draft, parents, node, params, CFG))


def test_a_chain_is_plain_causal_decoding():
    parents = [-1, 0, 1, 2]
    assert np.array_equal(tree_pass_mask(3, parents), causal_mask(7))
    assert tree_depths(parents).tolist() == [0, 1, 2, 3]


def test_a_node_never_reads_its_sibling():
    params = init_stack(0, CFG)
    prefix, parents = np.array([1, 2, 3]), [-1, -1]  # two alternatives for the next token
    a = verify_tree(prefix, np.array([4, 5]), parents, params, CFG)
    b = verify_tree(prefix, np.array([4, 6]), parents, params, CFG)
    assert is_rounding(a[3] - b[3])  # node 0 never reads its sibling


def test_branch_and_depths():
    parents = [-1, 0, 0, 1, -1]
    assert branch(parents, 3) == [0, 1, 3] and branch(parents, 4) == [4]
    assert tree_depths(parents).tolist() == [0, 1, 1, 2, 0]


def test_greedy_acceptance_takes_the_deepest_branch_the_model_agrees_with():
    vocab, p = 5, 2
    parents = [-1, 0, 0, 1]
    draft = np.array([3, 1, 2, 4])
    logits = np.zeros((p + 4, vocab))
    logits[p - 1, 3] = 1  # after the prefix the model picks 3: node 0 accepted
    logits[p + 0, 1] = 1  # after node 0 it picks 1: node 1 accepted, node 2 (token 2) refused
    logits[p + 1, 4] = 1  # after node 1 it picks 4: node 3 accepted
    assert accepted_branch(logits, draft, parents) == [0, 1, 3]
    logits[p - 1] = 0
    logits[p - 1, 0] = 1  # the model wants 0 first: nothing accepted
    assert accepted_branch(logits, draft, parents) == []


def test_bigram_tree_shape():
    table = np.array([[0, 3, 1], [2, 0, 5], [1, 1, 0]], dtype=float)
    draft, parents = bigram_tree(table, 0, (2, 1))
    assert draft.tolist() == [1, 2, 2, 0] and parents == [-1, -1, 0, 1]  # after 0: 1 then 2; after 1: 2; after 2: 0


def plain_greedy(prompt, n_new, params, cfg):
    tokens = np.asarray(prompt)
    for _ in range(n_new):
        tokens = np.append(tokens, int(decode(tokens, params, cfg)[-1].argmax()))
    return tokens[len(prompt) :]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 6), st.integers(1, 10), st.sampled_from([(1,), (2,), (2, 2), (3, 1, 1)]), st.integers(0, 2**16))
def test_speculative_greedy_writes_what_plain_greedy_writes(p, n_new, branching, seed):
    rng = np.random.default_rng(seed)
    params = init_stack(seed % 300, CFG)
    prompt = rng.integers(0, CFG.vocab_size, p)
    table = rng.normal(size=(CFG.vocab_size, CFG.vocab_size))
    tokens, passes = speculative_greedy(prompt, n_new, table, branching, params, CFG)
    assert tokens.tolist() == plain_greedy(prompt, n_new, params, CFG).tolist()
    assert -(-n_new // (len(branching) + 1)) <= passes <= n_new


def test_a_draft_that_guesses_right_writes_depth_plus_one_tokens_in_one_pass():
    params = init_stack(3, CFG)
    prompt = np.array([5])
    g = plain_greedy(prompt, 3, params, CFG)
    chain = [5, *g.tolist()]
    pairs = set(zip(chain[:-1], chain[1:]))
    assert len({a for a, _ in pairs}) == len(pairs)  # each token has one successor here, so a bigram can say it
    table = np.zeros((CFG.vocab_size, CFG.vocab_size))
    for a, b in zip(chain[:-1], chain[1:]):
        table[a, b] = 1.0  # the draft proposes exactly the model's greedy continuation
    tokens, passes = speculative_greedy(prompt, 3, table, (1, 1), params, CFG)
    assert tokens.tolist() == g.tolist() and passes == 1  # two drafted tokens accepted, plus the model's own


def test_near_max_len_the_tree_is_cut_to_what_fits():
    params = init_stack(4, CFG)
    prompt = np.arange(CFG.max_len - 2) % CFG.vocab_size
    table = np.random.default_rng(4).normal(size=(CFG.vocab_size, CFG.vocab_size))
    tokens, _ = speculative_greedy(prompt, 2, table, (2, 2, 2), params, CFG)
    assert tokens.tolist() == plain_greedy(prompt, 2, params, CFG).tolist()


def test_bigram_table_counts_each_pair_of_neighbours():
    table = bigram_table(np.array([0, 1, 0, 1, 2]), 3)
    assert table.tolist() == [[0, 2, 0], [1, 0, 1], [0, 0, 0]]  # 0->1 twice, 1->0 and 1->2 once
    assert table.sum() == 4  # n - 1 pairs
