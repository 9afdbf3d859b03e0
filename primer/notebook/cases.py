"""Each chapter's exercise inputs: random and edge cases, drawn from one seed so every run checks the same ones."""

import numpy as np

from primer import machines, masks
from primer.published import MODELS
from primer.softmax import masked_softmax


def _rng():
    return np.random.default_rng(20240601)  # the same inputs on every run


def sizes(*extra):
    """Return sizes n from 1 to 8 (and any extra), one case each."""
    return [dict(n=n) for n in (1, 2, 3, 5, 8, *extra)]


def windows():
    """Return the inputs of window_mask, fix_window."""
    return [dict(n=n, window=w) for n, w in ((1, 1), (4, 1), (5, 2), (6, 3), (4, 4), (3, 7), (8, 5))]


def softmax_rows():
    """Return the inputs of softmax."""
    r = _rng()
    return [
        dict(x=np.array([0.0])),
        dict(x=np.array([1000.0, 1001.0, 1002.0])),
        dict(x=np.array([-1000.0, -1000.5])),
        dict(x=r.normal(size=(3, 5))),
        dict(x=r.normal(size=(2, 3, 4)) * 30),
    ]


def masked_scores():
    """Return the inputs of masked_softmax."""
    r, out = _rng(), []
    for n_q, n_k in ((1, 1), (3, 3), (4, 6), (5, 5)):
        s = r.normal(size=(n_q, n_k)) * 3
        out.append(dict(scores=s, mask=masks.causal_mask(n_q, n_k)))
    out.append(
        dict(scores=np.array([[50.0, 0.0, -50.0]] * 2), mask=np.array([[True, False, False], [False, True, True]]))
    )
    return out


def softmax_grads():
    """Return the inputs of masked_softmax_backward."""
    r, out = _rng(), []
    for shape in ((1, 1), (3, 3), (5, 5), (2, 4, 4)):
        w = masked_softmax(r.normal(size=shape) * 2, masks.causal_mask(shape[-1]))  # closed weights are exactly 0
        out.append(dict(dw=r.normal(size=shape), w=w))
    out.append(
        dict(dw=np.array([[1.0, 5.0, -2.0]]), w=np.array([[0.5, 0.0, 0.5]]))
    )  # a closed key's upstream gradient is ignored
    return out


def qkv_mask():
    """Return the inputs of masked_attention."""
    r, out = _rng(), []
    for n_q, n_k, d in ((1, 1, 2), (3, 3, 4), (4, 6, 3)):
        out.append(
            dict(
                q=r.normal(size=(n_q, d)),
                k=r.normal(size=(n_k, d)),
                v=r.normal(size=(n_k, 2)),
                mask=masks.causal_mask(n_q, n_k),
            )
        )
    out.append(dict(q=r.normal(size=(5, 4)), k=r.normal(size=(5, 4)), v=r.normal(size=(5, 3)), mask=masks.full_mask(5)))
    return out


def qk():
    """Return the inputs of scaled_dot_score."""
    r = _rng()
    return [
        dict(q=r.normal(size=(n_q, d)), k=r.normal(size=(n_k, d)))
        for n_q, n_k, d in ((1, 1, 1), (3, 4, 16), (5, 2, 64))
    ]


def additive():
    """Return the inputs of additive_score."""
    r, out = _rng(), []
    for n_q, n_k, d_q, d_k, a in ((1, 1, 1, 1, 1), (3, 4, 2, 5, 3), (2, 6, 4, 4, 8)):
        out.append(
            dict(
                q=r.normal(size=(n_q, d_q)),
                k=r.normal(size=(n_k, d_k)),
                w_q=r.normal(size=(d_q, a)),
                w_k=r.normal(size=(d_k, a)),
                v=r.normal(size=a),
            )
        )
    return out


def bahdanau():
    """Return the inputs of alignment_weights."""
    return [dict(s=c["q"], h=c["k"], w_s=c["w_q"], w_h=c["w_k"], v=c["v"]) for c in additive()]


def rnn():
    """Return the inputs of rnn_forward."""
    r, out = _rng(), []
    for t, d, d_in in ((1, 1, 1), (4, 3, 2), (10, 8, 3)):
        out.append(
            dict(
                x=r.normal(size=(t, d_in)),
                w=r.normal(size=(d, d)) * 0.5,
                u=r.normal(size=(d, d_in)),
                b=r.normal(size=d),
            )
        )
    out.append(dict(x=np.zeros((3, 2)), w=np.eye(2), u=np.ones((2, 2)), b=np.zeros(2)))
    return out


def logits_and_targets():
    """Return the inputs of cross_entropy_error."""
    r = _rng()
    return [
        dict(z=np.array([[0.0]]), y=np.array([0])),
        dict(z=r.normal(size=(4, 5)), y=np.array([0, 4, 2, 2])),
        dict(z=np.array([[1000.0, 0.0, -1000.0]]), y=np.array([2])),
    ]


def split():
    """Return the inputs of split_heads."""
    r = _rng()
    return [dict(x=r.normal(size=(n, h * d)), h=h) for n, h, d in ((1, 1, 1), (3, 2, 4), (5, 4, 2), (2, 3, 1))]


def merge():
    """Return the inputs of merge_heads."""
    r = _rng()
    return [dict(x=r.normal(size=(h, n, d))) for n, h, d in ((1, 1, 1), (3, 2, 4), (5, 4, 2), (2, 3, 1))]


def sinusoid():
    """Return the inputs of sinusoidal_encoding."""
    return [dict(n=n, d=d) for n, d in ((1, 2), (4, 8), (50, 16), (3, 64))]


def tokens():
    """Return the inputs of next_token_pairs."""
    return [
        dict(tokens=t, bos=b) for t in (["a", "b"], "the cat sat on the mat".split(), [7, 7, 3]) for b in (None, "<s>")
    ]


def reads_future():
    """Return the inputs of reads_future."""
    r = _rng()
    return [
        dict(mask=m)
        for m in (
            masks.causal_mask(1),
            masks.full_mask(1),
            masks.causal_mask(4),
            masks.full_mask(3),
            masks.window_mask(5, 2),
            r.random((5, 5)) < 0.5,
            np.eye(4, dtype=bool),
            np.eye(4, k=1, dtype=bool) | np.eye(4, dtype=bool),
        )
    ]


def rectangles():
    """Return the inputs of cross_mask."""
    return [dict(n=n, m=m) for n, m in ((1, 1), (3, 5), (4, 2), (6, 6))]


def two_stacks():
    """Return the inputs of two_stack_mask."""
    return [dict(n_source=m, n_target=n) for m, n in ((1, 1), (3, 2), (2, 4), (5, 5))]


def machine_shapes():
    """Return the inputs of masks_for."""
    return [dict(machine=k, n=n, m=m) for k in machines.MACHINES for n, m in ((1, 1), (3, 4), (5, 2))]


def choices():
    """Return the inputs of machine_for."""
    return [dict(writes_tokens=a, reads_separate_input=b) for a in (True, False) for b in (True, False)]


def decode_steps():
    """Return the inputs of decode_step."""
    r, out = _rng(), []
    for t, d, d_k, d_v in ((0, 2, 1, 1), (1, 4, 2, 3), (5, 8, 4, 4)):
        out.append(
            dict(
                x_new=r.normal(size=d),
                k_cache=r.normal(size=(t, d_k)),
                v_cache=r.normal(size=(t, d_v)),
                w_q=r.normal(size=(d, d_k)),
                w_k=r.normal(size=(d, d_k)),
                w_v=r.normal(size=(d, d_v)),
            )
        )
    return out


def cached_sizes():
    """Return the inputs of cached_causal_mask."""
    return [dict(n_q=n_q, n_k=n_k) for n_q, n_k in ((1, 1), (1, 5), (2, 5), (3, 3), (4, 9))]


def kv_shapes():
    """Return the inputs of kv_cache_bytes."""
    return [
        dict(n_layers=n_l, n_kv_heads=h, d_head=d, n_tokens=t, batch=b, bytes_per_value=p)
        for n_l, h, d, t, b, p in (
            (1, 1, 1, 0, 1, 1),
            (4, 2, 8, 10, 1, 2),
            (32, 32, 128, 4096, 1, 2),
            (80, 8, 128, 4096, 8, 2),
            (12, 12, 64, 1024, 4, 4),
        )
    ]


def kv_models():
    """Return the inputs of model_kv_bytes."""
    return [dict(cfg=m.config, n_tokens=t) for m in MODELS.values() for t in (0, 1, 4096, 32_768)]


def vocab_probs():
    """Return a few probability rows over a small vocabulary, the sampling exercises' inputs."""
    r = _rng()
    p = r.random(8)
    return [np.array([1.0]), np.array([0.5, 0.5]), np.array([0.1, 0.2, 0.3, 0.4]), p / p.sum(), np.array([0.25] * 4)]


def temperatures():
    """Return the inputs of temperature_softmax."""
    r = _rng()
    return [
        dict(logits=z, temperature=t)
        for z in (np.array([0.0]), r.normal(size=6), np.array([500.0, 0.0, -500.0]))
        for t in (0.1, 1.0, 5.0)
    ]


def top_p():
    """Return the inputs of top_p_filter."""
    return [dict(probs=p, p=q) for p in vocab_probs() for q in (0.05, 0.3, 0.5, 0.9, 1.0)]


def top_k():
    """Return the inputs of top_k_filter."""
    return [dict(probs=p, k=k) for p in vocab_probs() for k in range(1, p.size + 1)]


def prefix_reads(n_patches, n_text):
    """Return the image-prefix mask: the patches read each other, the text reads the patches and its past."""
    n = n_patches + n_text
    return (
        masks.causal_mask(n) | (np.arange(n) < n_patches)[None, :]
    )  # every row reads every patch, through the encoder


def prefix():
    """Return the inputs of image_prefix_reads."""
    return [dict(n_patches=p, n_text=t) for p, t in ((1, 1), (4, 5), (2, 1), (3, 6))]


def cross_maps():
    """Return the inputs of top_source_share."""
    r = _rng()
    cases = []
    for layers, heads, n, m in ((1, 1, 1, 1), (2, 2, 6, 6), (2, 2, 7, 7), (1, 3, 4, 5)):
        w = r.random((layers, heads, n, m))
        cases.append(dict(weights=w / w.sum(axis=-1, keepdims=True), gold=r.integers(0, m, n)))
    return cases


def masked_lm():
    """Return the inputs of masked_lm_loss."""
    r = _rng()
    cases = []
    for b, n, vocab, scale in ((1, 1, 3, 1), (2, 5, 7, 1), (3, 8, 11, 3), (2, 4, 5, 400)):  # 400: exp overflows
        loss_weights = (r.random((b, n)) < 0.3).astype(float)
        loss_weights[0, 0] = 1.0  # at least one hidden word
        cases.append(
            dict(
                logits=scale * r.normal(size=(b, n, vocab)),
                targets=r.integers(0, vocab, (b, n)),
                loss_weights=loss_weights,
            )
        )
    return cases


def self_attention_x():
    """Return the inputs of self_attention."""
    r = _rng()
    return [
        dict(x=r.normal(size=(n, d)), mask=m)
        for n, d, m in ((1, 2, masks.full_mask(1)), (4, 3, masks.causal_mask(4)), (6, 8, prefix_reads(2, 4)))
    ]


def bug_rows():
    """Return the inputs of fix_masked_bias."""
    r = _rng()
    return [dict(x=r.normal(size=(n, 4)), shift=s) for n in (1, 3, 6) for s in (0.0, -15000.0)]


def bug_sizes():
    """Return the inputs of fix_transposed, fix_not_inverted."""
    return [dict(n=n) for n in (1, 2, 4, 7)]


def bug_valid():
    """Return the inputs of fix_query_axis."""
    return [dict(valid=v) for v in (np.array([True]), np.array([True, True, False]), np.arange(6) < 4)]


def bug_pad_scores():
    """Return the inputs of fix_not_in_place."""
    r = _rng()
    return [dict(scores=r.normal(size=(len(c["valid"]),) * 2), **c) for c in bug_valid()]


def bug_fp16():
    """Return the inputs of fix_fp16_scores."""
    r = _rng()
    out = []
    for n, shift in ((2, -30.0), (4, 0.0), (5, -20.0)):
        valid = np.arange(n) >= 1  # one pad on the left
        out.append(dict(scores=r.normal(size=(n, n)) + shift, mask=masks.causal_mask(n) & valid[None, :]))
    return out


def bug_empty_rows():
    """Return the inputs of fix_empty_rows."""
    r = _rng()
    rows = [np.array([[True, False], [False, False]]), np.eye(3, dtype=bool), np.zeros((2, 4), dtype=bool)]
    return [dict(scores=r.normal(size=m.shape), mask=m) for m in rows]


def bug_cached():
    """Return the inputs of fix_top_left."""
    return [dict(t=t) for t in (1, 2, 5)]


def packed_rows():
    """Return the inputs of document_mask, cu_seqlens: documents packed into one row, as contiguous runs."""
    rows = ([0], [0, 0, 0], [0, 1], [0, 0, 1, 1, 1], [0, 0, 0, 1, 2, 2, 2, 2], [0, 1, 1, 2, 2, 2, 3])
    return [dict(doc_ids=np.array(r)) for r in rows]


def prefixes():
    """Return the inputs of prefix_lm_mask."""
    return [dict(n=n, prefix=p) for n, p in ((1, 0), (1, 1), (4, 0), (4, 2), (5, 5), (7, 3))]


def chunks():
    """Return the inputs of chunk_mask: a chunk's queries and the keys cached once its own are appended."""
    return [dict(n_q=q, n_k=k) for q, k in ((1, 1), (1, 5), (2, 5), (3, 3), (3, 9), (4, 6))]


def draft_trees():
    """Return the inputs of tree_pass: a prefix length and a draft tree's parents (a chain, siblings, a forest)."""
    return [
        dict(n_prefix=p, parents=parents)
        for p, parents in ((1, [-1]), (3, [-1, 0, 1]), (2, [-1, -1, 0, 0, 1]), (4, [-1, 0, 0, 1, -1, 4]))
    ]


def page_pools():
    """Return the inputs of paged_gather: a pool of pages and block tables that are not in order."""
    r = _rng()
    pool = r.normal(size=(6, 4, 3))  # 6 pages of 4 rows, d = 3
    tables = (([2], 3), ([5, 0], 7), ([1, 4, 3], 12), ([3, 2], 5))
    return [dict(pool=pool, block_table=np.array(t), length=n) for t, n in tables]


def chunk_sizes():
    """Return the inputs of chunked_mask."""
    return [dict(n=n, chunk=c) for n, c in ((1, 1), (4, 1), (5, 2), (8, 4), (6, 6), (3, 7), (9, 4))]


def sink_scores():
    """Return the inputs of sink_softmax: random rows, a causal, a window and an all-closed row."""
    r = _rng()
    cases = []
    for n, logit, mask in (
        (1, 0.0, masks.causal_mask(1)),
        (5, 1.5, masks.causal_mask(5)),
        (6, -2.0, masks.window_mask(6, 2)),
    ):
        cases.append(dict(scores=r.normal(size=(n, n)), sink_logit=logit, mask=mask))
    closed = np.zeros((3, 4), dtype=bool)
    closed[0, 1] = True
    cases.append(dict(scores=r.normal(size=(3, 4)), sink_logit=0.5, mask=closed))  # rows with no open key: zeros
    return cases


def ring_slots():
    """Return the inputs of ring_slot."""
    return [
        dict(t=t, window=w, sinks=s) for t, w, s in ((0, 1, 0), (5, 4, 0), (1, 4, 2), (2, 4, 2), (9, 4, 2), (7, 3, 1))
    ]


def sink_windows():
    """Return the inputs of window_with_sinks."""
    return [dict(n=n, window=w, sinks=s) for n, w, s in ((1, 1, 0), (6, 2, 1), (8, 3, 4), (8, 8, 2), (5, 1, 2))]


def left_pads():
    """Return the inputs of left_padding_mask."""
    return [dict(n_real=r, n_pad=p) for r, p in ((1, 0), (1, 2), (3, 2), (5, 3))]
