import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer.gradcheck import numerical_jacobian
from primer.inputs.rnn import BA_HEAD, BA_SENTENCE, BA_TAIL, EXPERIMENT, HEAD, RADII, SENTENCE, STEPS, TAIL
from primer.rnn import (
    ACTIVATIONS,
    LOSSES,
    char_position,
    dependency_distance,
    gradient_norms,
    readout,
    recurrent_matrix,
    rnn_backward,
    rnn_forward,
    spectral_norm,
    spectral_radius,
)


def random_rnn(seed, T=6, d=4, d_in=3, scale=0.7):
    rng = np.random.default_rng(seed)
    return dict(
        x=scale * rng.normal(size=(T, d_in)),
        w=rng.normal(size=(d, d)) / np.sqrt(d),
        u=rng.normal(size=(d, d_in)) / np.sqrt(d_in),
        b=0.1 * rng.normal(size=d),
        h0=0.5 * rng.normal(size=d),
    )


# ---- Chapter 1's sentence, counted


def test_positions_and_distance():
    assert dependency_distance(SENTENCE, HEAD, TAIL) == (1, 16, 15)
    assert dependency_distance(BA_SENTENCE, BA_HEAD, BA_TAIL) == (2, 14, 12)  # 把 ... 还, 1-based
    assert char_position(SENTENCE, "虽") == 1 and char_position(SENTENCE, "行") == len(SENTENCE) == 23


@given(st.text(alphabet="abcdefgh", min_size=0, max_size=8), st.text(alphabet="ijklmnop", min_size=0, max_size=8))
def test_distance_counts_the_characters_between(left, middle):
    text = left + "X" + middle + "Y"
    assert dependency_distance(text, "X", "Y") == (len(left) + 1, len(left) + len(middle) + 2, len(middle) + 1)


# ---- the recurrence


def test_forward_is_the_recurrence():
    p = random_rnn(0)
    h = rnn_forward(**p)
    prev = p["h0"]
    for t in range(len(p["x"])):
        prev = np.tanh(p["w"] @ prev + p["u"] @ p["x"][t] + p["b"])
        assert np.allclose(h[t], prev)
    lin = rnn_forward(**p, activation="linear")
    assert np.allclose(lin[0], p["w"] @ p["h0"] + p["u"] @ p["x"][0] + p["b"])


def test_h0_defaults_to_zero_and_state_carries_over():
    p = random_rnn(1)
    p.pop("h0")
    h = rnn_forward(**p)
    assert np.allclose(h, rnn_forward(**p, h0=np.zeros(4)))
    # restarting the recurrence from h_k reproduces the rest of the sequence
    assert np.allclose(rnn_forward(p["x"][3:], p["w"], p["u"], p["b"], h0=h[2]), h[3:])


# ---- backpropagation through time, checked against finite differences


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 7), st.sampled_from(ACTIVATIONS))
def test_backward_matches_finite_differences(seed, T, activation):
    p = random_rnn(seed, T=T)
    target = np.random.default_rng(seed + 1).normal(size=(T, 4))  # a loss at every step

    def loss(**kw):
        q = dict(p, **kw)
        return 0.5 * np.sum((rnn_forward(**q, activation=activation) - target) ** 2)

    h = rnn_forward(**p, activation=activation)
    g = rnn_backward(p["x"], h, p["w"], p["u"], p["b"], h - target, p["h0"], activation=activation)
    for name in ("w", "u", "b", "h0", "x"):
        fd = numerical_jacobian(lambda v, name=name: loss(**{name: v}), p[name])
        assert np.allclose(getattr(g, name), fd, rtol=1e-5, atol=1e-7), name
    for k in range(T):  # dL/dh_k: perturb h_k and rerun the rest of the sequence from it

        def from_k(v, k=k):
            rest = (
                rnn_forward(p["x"][k + 1 :], p["w"], p["u"], p["b"], h0=v, activation=activation)
                if k + 1 < T
                else np.zeros((0, 4))
            )
            return (
                0.5 * np.sum((h[:k] - target[:k]) ** 2)
                + 0.5 * np.sum((v - target[k]) ** 2)
                + 0.5 * np.sum((rest - target[k + 1 :]) ** 2)
            )

        assert np.allclose(g.h[k], numerical_jacobian(from_k, h[k]), rtol=1e-5, atol=1e-7)


def test_linear_rnn_gradient_is_a_matrix_power():
    w = recurrent_matrix(5, 1.3, seed=2)
    x = np.random.default_rng(3).normal(size=(9, 2))
    u, b = np.ones((5, 2)), np.zeros(5)
    h = rnn_forward(x, w, u, b, activation="linear")
    c = np.arange(5.0)
    dh_out = np.zeros_like(h)
    dh_out[-1] = c
    g = rnn_backward(x, h, w, u, b, dh_out, activation="linear")
    for k in range(9):
        assert np.allclose(g.h[k], np.linalg.matrix_power(w.T, 8 - k) @ c)


# ---- The measured norms vanish below 1 and explode above 1


def test_recurrent_matrix_has_the_requested_spectral_radius():
    for r in RADII:
        assert spectral_radius(recurrent_matrix(EXPERIMENT["d"], r, seed=EXPERIMENT["seed"])) == pytest.approx(r)


def test_gradient_at_the_loss_has_norm_one():
    for r in RADII:
        assert gradient_norms(10, r, **EXPERIMENT)[-1] == pytest.approx(1.0)


def test_gradient_vanishes_below_one_and_explodes_above_one():
    T = max(STEPS)
    for act in ACTIVATIONS:
        assert gradient_norms(T, 0.5, **EXPERIMENT, activation=act)[0] < 1e-15
        assert gradient_norms(T, 0.8, **EXPERIMENT, activation=act)[0] < 1e-5
        assert 1e-2 < gradient_norms(T, 1.0, **EXPERIMENT, activation=act)[0] < 1
    assert gradient_norms(T, 1.2, **EXPERIMENT, activation="linear")[0] > 1e3
    assert gradient_norms(T, 1.5, **EXPERIMENT, activation="linear")[0] > 1e9
    # tanh saturates at long T: the explosion is capped
    assert gradient_norms(T, 1.2, **EXPERIMENT, activation="tanh")[0] < 1e-2
    assert gradient_norms(T, 1.5, **EXPERIMENT, activation="tanh")[0] < 1
    # ... but at short T the tanh RNN grows too
    assert gradient_norms(10, 1.5, **EXPERIMENT, activation="tanh")[0] > 2
    assert gradient_norms(20, 1.2, **EXPERIMENT, activation="tanh")[0] > 2


def test_tanh_and_linear_agree_while_states_are_small():
    for r in (0.5, 0.8, 1.0):
        assert np.allclose(
            gradient_norms(60, r, **EXPERIMENT), gradient_norms(60, r, **EXPERIMENT, activation="linear"), rtol=0.1
        )


def test_numerical_jacobian_of_a_scalar_is_its_gradient():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x = np.array([0.5, -1.0])
    assert np.allclose(numerical_jacobian(lambda v: 0.5 * v @ a @ v, x), a @ x)


# ---- The readout's error terms: y_hat - y for MSE and for softmax + cross-entropy


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("seed", range(4))
def test_error_term_is_the_gradient_of_the_loss_in_z(loss, seed):
    rng = np.random.default_rng(seed)
    T, k = 5, 3
    z = rng.normal(scale=2, size=(T, k))
    y = rng.normal(size=(T, k)) if loss == "mse" else rng.integers(0, k, size=T)
    eye, zero = np.eye(k), np.zeros(k)
    out = readout(z, eye, zero, y, loss=loss)  # V = I, c = 0: the readout is z itself
    assert np.allclose(out.error, out.y_hat - out.target)
    assert np.allclose(
        out.error, numerical_jacobian(lambda zz: readout(zz, eye, zero, y, loss=loss).loss, z), atol=1e-7
    )


@pytest.mark.parametrize("loss", LOSSES)
def test_bptt_fed_with_the_readout_terms_matches_finite_differences(loss):
    rng = np.random.default_rng(9)
    case = random_rnn(9)
    k = 3
    v, c = rng.normal(size=(k, 4)), rng.normal(size=k)
    y = rng.normal(size=(6, k)) if loss == "mse" else rng.integers(0, k, size=6)
    h = rnn_forward(**case)
    grads = rnn_backward(case["x"], h, case["w"], case["u"], case["b"], readout(h, v, c, y, loss=loss).dh, case["h0"])
    total = lambda w: readout(rnn_forward(case["x"], w, case["u"], case["b"], case["h0"]), v, c, y, loss=loss).loss  # noqa: E731
    assert np.allclose(grads.w, numerical_jacobian(total, case["w"]), atol=1e-7)


def test_cross_entropy_error_sums_to_zero_and_is_negative_only_at_the_label():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, size=7)
    out = readout(rng.normal(size=(7, 4)), np.eye(4), np.zeros(4), y, loss="cross_entropy")
    assert np.allclose(out.error.sum(axis=1), 0.0)
    assert np.all((out.error < 0) == (out.target == 1))


def test_spectral_norm_bounds_the_spectral_radius_and_exceeds_it_for_the_experiments_matrices():
    for r in RADII:
        w = recurrent_matrix(EXPERIMENT["d"], r, seed=EXPERIMENT["seed"])
        assert spectral_norm(w) > spectral_radius(w) + 0.2  # a random W is far from normal: ||W|| > rho(W)
    q = np.linalg.qr(np.random.default_rng(0).normal(size=(5, 5)))[0]
    assert np.isclose(spectral_norm(2 * q), 2.0) and np.isclose(spectral_radius(2 * q), 2.0)  # equal for 2 x orthogonal


def test_chapter_1_core_numpy_equals_primer():
    core = load_snippet("01-rnn/core_numpy.py")  # numpy only: tests/test_copy_paste.py checks its imports
    for seed in range(5):
        case = random_rnn(seed)
        case["h0"] = np.zeros(4)
        h = rnn_forward(**case)
        assert np.allclose(core["rnn_forward"](case["x"], case["w"], case["u"], case["b"]), h, atol=1e-14)
        dh_out = np.random.default_rng(seed).normal(size=h.shape)
        grads = rnn_backward(case["x"], h, case["w"], case["u"], case["b"], dh_out)
        dw, du, db = core["rnn_backward"](case["x"], h, case["w"], case["u"], dh_out)
        assert (
            np.allclose(dw, grads.w, atol=1e-13)
            and np.allclose(du, grads.u, atol=1e-13)
            and np.allclose(db, grads.b, atol=1e-13)
        )
        z, y = np.random.default_rng(seed).normal(size=(6, 3)), np.arange(6) % 3
        assert np.allclose(
            core["cross_entropy_error"](z, y),
            readout(z, np.eye(3), np.zeros(3), y, loss="cross_entropy").error,
            atol=1e-14,
        )
