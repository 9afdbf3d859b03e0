"""Verifying a tree of draft tokens in one pass: each node reads the prefix and its own ancestors (tree_mask).

A draft proposes several continuations as a tree; node i sits at position n_prefix + depth(i), so two
siblings share a position. One pass under the tree's mask gives every node the logits it would get if its
branch alone followed the prefix, so a greedy verifier can accept the longest branch the model agrees with.
"""

import numpy as np

from primer._checks import positive_int
from primer.masks import causal_mask, tree_mask
from primer.transformer import decode, logits, stack, validate_tokens


def tree_depths(parents):  # [m] -> [m]
    """Return each node's depth: 0 for a root, its parent's depth + 1 otherwise."""
    tree = tree_mask(parents)  # validates parents; row i holds i and its ancestors
    return tree.sum(axis=1) - 1


def branch(parents, node):  # -> list of node indices, root first
    """Return the nodes from node's root down to node."""
    tree = tree_mask(parents)
    if not (isinstance(node, (int, np.integer)) and not isinstance(node, bool) and 0 <= node < len(tree)):
        raise ValueError(f"node must be an index into parents (0 .. {len(tree) - 1}), got {node!r}")
    return np.flatnonzero(tree[node]).tolist()  # ancestors come before their descendants


def tree_pass_mask(n_prefix, parents):  # -> [n_prefix + m, n_prefix + m]
    """Return the mask of one verification pass: the prefix causal, each node reading the prefix and its ancestors."""
    p = positive_int("n_prefix", n_prefix)
    tree = tree_mask(parents)
    m = tree.shape[0]
    mask = np.zeros((p + m, p + m), dtype=bool)
    mask[:p, :p] = causal_mask(p)
    mask[p:, :p] = True
    mask[p:, p:] = tree
    return mask


def verify_tree(prefix, draft, parents, params, cfg):  # [p], [m], [m] -> [p + m, vocab]
    """Return the logits of the prefix and of every draft node from one pass under tree_pass_mask."""
    prefix, draft = validate_tokens(prefix, cfg), validate_tokens(draft, cfg)
    depths = tree_depths(parents)
    if depths.size != draft.size:
        raise ValueError(f"draft and parents must have one entry per node, got {draft.size} and {depths.size}")
    positions = np.concatenate([np.arange(prefix.size), prefix.size + depths])
    if positions.max() >= cfg.max_len:
        raise ValueError(f"prefix plus the deepest branch must fit max_len={cfg.max_len}, got {positions.max() + 1}")
    tokens = np.concatenate([prefix, draft])
    x = params["wte"][tokens] + params["wpe"][positions]  # siblings share a position
    h, _ = stack(x, params, cfg, tree_pass_mask(prefix.size, parents))
    return logits(h, params)


def branch_logits(prefix, draft, parents, node, params, cfg):  # -> [vocab]
    """Return node's logits from a plain causal pass over the prefix followed by node's branch alone."""
    path = branch(parents, node)
    tokens = np.concatenate([validate_tokens(prefix, cfg), validate_tokens(draft, cfg)[path]])
    return decode(tokens, params, cfg)[-1]


def accepted_branch(pass_logits, draft, parents):  # [p + m, vocab], [m], [m] -> list of nodes
    """Return the longest branch a greedy verifier accepts: each node's token is the argmax after its parent.

    A root is checked against the prefix's last row. The verifier then adds one token of its own, from the
    last accepted node's row (or the prefix's), so one pass yields len(branch) + 1 tokens.
    """
    draft = np.asarray(draft)
    depths = tree_depths(parents)
    parents = np.asarray(parents)
    pass_logits = np.asarray(pass_logits, dtype=float)
    m = depths.size
    if draft.shape != (m,) or pass_logits.ndim != 2 or pass_logits.shape[0] <= m:
        raise ValueError(
            f"pass_logits must be [p + m, vocab] with p >= 1 and draft [m] for m={m} nodes, "
            f"got {pass_logits.shape} and {draft.shape}"
        )
    p = pass_logits.shape[0] - m
    choice = pass_logits.argmax(axis=1)  # the model's greedy token after each row
    ok = np.zeros(m, dtype=bool)
    for i in range(m):  # parents come first, so ok[parent] is known
        after = p - 1 if parents[i] == -1 else p + parents[i]
        ok[i] = choice[after] == draft[i] and (parents[i] == -1 or ok[parents[i]])
    if not ok.any():
        return []
    best = int(np.argmax(np.where(ok, depths, -1)))  # the deepest accepted node, the first one on a tie
    return branch(parents.tolist(), best)


def bigram_table(ids, vocab_size):  # [n] ids -> [vocab, vocab]
    """Return how often each token b follows each token a in ids: a draft model that is one table of counts."""
    vocab_size = positive_int("vocab_size", vocab_size)
    raw = np.asarray(ids)
    if raw.ndim != 1 or raw.size < 2 or raw.dtype.kind not in "iu" or (raw < 0).any() or (raw >= vocab_size).any():
        raise ValueError(f"ids must be a 1-D array of at least 2 token ids in [0, {vocab_size}), got {raw.tolist()}")
    table = np.zeros((vocab_size, vocab_size))
    np.add.at(table, (raw[:-1], raw[1:]), 1.0)
    return table


def bigram_tree(table, last, branching):  # [vocab, vocab], int, (w_1, ..., w_d) -> ([m], [m])
    """Return a draft tree from a bigram table: each node's children are the w best next tokens after its token.

    table[a, b] scores token b after token a; branching[d] children per node at depth d (the roots follow last).
    Returns (draft tokens, parents), parents before children.
    """
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] != table.shape[1] or table.size == 0 or not np.isfinite(table).all():
        raise ValueError(f"table must be a finite square [vocab, vocab] array, got shape {table.shape}")
    vocab = table.shape[0]
    if isinstance(last, bool) or not isinstance(last, (int, np.integer)) or not 0 <= last < vocab:
        raise ValueError(f"last must be a token id in [0, {vocab}), got {last!r}")
    widths = [positive_int("branching", w) for w in branching]
    if not widths or max(widths) > vocab:
        raise ValueError(f"branching must list 1 .. {vocab} children per depth, at least one depth, got {branching!r}")
    draft, parents = [], []
    level = [(-1, int(last))]  # (node, its token) whose children come next
    for w in widths:
        nxt = []
        for node, token in level:
            for child in np.argsort(-table[token], kind="stable")[:w]:  # best first, ties by id
                draft.append(int(child))
                parents.append(node)
                nxt.append((len(draft) - 1, int(child)))
        level = nxt
    return np.array(draft), parents


def speculative_greedy(prompt, n_new, table, branching, params, cfg):  # [p] -> ([n_new], passes)
    """Greedy decoding that drafts a bigram tree and verifies it in one pass per step; return tokens and passes.

    Each pass keeps the accepted branch and adds the model's own next token, so it writes 1 .. depth + 1 tokens
    and the result equals plain greedy decoding.
    """
    tokens = validate_tokens(prompt, cfg)
    n_new = positive_int("n_new", n_new)
    if tokens.size + n_new > cfg.max_len:
        raise ValueError(f"len(prompt) + n_new must be <= max_len={cfg.max_len}, got {tokens.size + n_new}")
    start, passes = tokens.size, 0
    while tokens.size < start + n_new:
        draft, parents = bigram_tree(table, int(tokens[-1]), branching)
        room = cfg.max_len - tokens.size  # the deepest branch must still fit
        if tree_depths(parents).max() + 1 > room:
            keep = tree_depths(parents) < room
            draft, parents = draft[keep], [p for p, k in zip(parents, keep) if k]  # drop nodes too deep to place
        pass_logits = verify_tree(tokens, draft, parents, params, cfg)
        path = accepted_branch(pass_logits, draft, parents)
        last_row = pass_logits[tokens.size - 1] if not path else pass_logits[tokens.size + path[-1]]
        tokens = np.concatenate([tokens, draft[path], [int(last_row.argmax())]])
        passes += 1
    return tokens[start : start + n_new], passes
