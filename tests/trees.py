"""Walk a weight tree (nested dicts and lists of arrays, as primer.transformer.init_stack makes) by path."""


def leaves(tree, path=()):
    """Yield (path, array) for every array of a nested dict/list, in the tree's order."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from leaves(value, path + (key,))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from leaves(value, path + (i,))
    else:
        yield path, tree


def get(tree, path):
    """Return the leaf of tree at path (a tuple of keys and indices)."""
    for key in path:
        tree = tree[key]
    return tree
