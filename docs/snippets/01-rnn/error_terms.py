import numpy as np

from primer.figures import rnn as figures
from primer.gradcheck import numerical_jacobian
from primer.rnn import readout, rnn_backward, rnn_forward

rng = np.random.default_rng(5)
T, d, d_in, k = 6, 5, 3, 4  # 6 steps, hidden size 5, 4 outputs (or classes)
x, w, u = rng.normal(size=(T, d_in)), rng.normal(size=(d, d)) / np.sqrt(d), rng.normal(size=(d, d_in)) / np.sqrt(d_in)
b, v, c = 0.1 * rng.normal(size=d), rng.normal(size=(k, d)), 0.1 * rng.normal(size=k)
targets = {"mse": rng.normal(size=(T, k)), "cross_entropy": rng.integers(0, k, size=T)}  # numbers, or class ids

rows = []
for loss, y in targets.items():
    h = rnn_forward(x, w, u, b)
    out = readout(h, v, c, y, loss=loss)
    z = h @ v.T + c
    # the error term ŷ − y against finite differences of L in z (readout with V = I, c = 0 reads z itself)
    rows.append(
        (
            loss,
            "dz",
            out.error,
            numerical_jacobian(lambda zz, y=y, loss=loss: readout(zz, np.eye(k), np.zeros(k), y, loss=loss).loss, z),
        )
    )
    # BPTT fed with the direct terms V^T (ŷ_t − y_t), against finite differences of L in W
    grads = rnn_backward(x, h, w, u, b, out.dh)
    rows.append(
        (
            loss,
            "dw",
            grads.w,
            numerical_jacobian(
                lambda ww, y=y, loss=loss: readout(rnn_forward(x, ww, u, b), v, c, y, loss=loss).loss, w
            ),
        )
    )
print(figures.error_check_table(rows))

ce = readout(rnn_forward(x, w, u, b), v, c, targets["cross_entropy"], loss="cross_entropy")
print(figures.error_example_table(ce.y_hat[0], ce.target[0], ce.error[0]))
