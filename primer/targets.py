"""Next-token targets: the one-place shift that pairs each position of a sequence with the token after it."""


def next_token_pairs(tokens, bos=None):  # [n] -> ([m], [m]); m = n - 1, or n with a bos
    """Return (inputs, targets) for next-token training: targets[i] is the token after inputs[i].

    Without bos a sequence of n tokens gives n - 1 pairs (the last token has no successor to
    predict, the first is never a target); with a bos token put in front it gives n, the first
    token included.
    """
    tokens = list(tokens)
    if len(tokens) < (1 if bos is not None else 2):
        raise ValueError(
            f"tokens must hold at least {1 if bos is not None else 2} token(s) "
            f"{'with' if bos is not None else 'without'} a bos, got {len(tokens)}"
        )
    inputs = ([bos] + tokens[:-1]) if bos is not None else tokens[:-1]
    targets = tokens if bos is not None else tokens[1:]
    return inputs, targets
