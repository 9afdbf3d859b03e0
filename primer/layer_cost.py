"""Per-layer cost of self-attention (n^2 d) and of an RNN (n d^2), and how many steps must run one after another."""

from primer._checks import positive_int

KINDS = ("self-attention", "rnn")


def attention_cost(n, d):  # -> int
    """Return the leading multiply-adds of one self-attention layer: n^2 d (every pair, width d)."""
    return positive_int("n", n) ** 2 * positive_int("d", d)


def rnn_cost(n, d):  # -> int
    """Return the leading multiply-adds of one RNN layer: n d^2 (one d x d matrix per step)."""
    return positive_int("n", n) * positive_int("d", d) ** 2


def cost_ratio(n, d):  # -> float
    """Return self-attention cost / RNN cost = n^2 d / (n d^2) = n / d."""
    return attention_cost(n, d) / rnn_cost(n, d)


def serial_steps(n, kind):  # -> int
    """Return how many steps must run one after another over n positions: RNN n, self-attention 1."""
    n = positive_int("n", n)
    if kind == "rnn":
        return n
    if kind == "self-attention":
        return 1
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def cost_row(n, d):  # -> dict
    """Return one row of the cost table: both costs, their ratio and both serial step counts."""
    return {"n": positive_int("n", n), "d": positive_int("d", d),
            "attention": attention_cost(n, d), "rnn": rnn_cost(n, d), "ratio": cost_ratio(n, d),
            "attention_steps": serial_steps(n, "self-attention"), "rnn_steps": serial_steps(n, "rnn")}


# The width of chapter 3's cost table and chart (the original Transformer's d_model) and its lengths.
COST_D = 512
COST_NS = (100, 256, 512, 1000, 4096)
