import numpy as np

from primer.figures import rnn as figures
from primer.gradcheck import numerical_jacobian
from primer.rnn import rnn_backward, rnn_forward

rng = np.random.default_rng(3)
T, d, d_in = 8, 5, 3
x, w, u = (
    0.5 * rng.normal(size=(T, d_in)),
    rng.normal(size=(d, d)) / np.sqrt(d),
    rng.normal(size=(d, d_in)) / np.sqrt(d_in),
)
b, h0, c = 0.1 * rng.normal(size=d), 0.5 * rng.normal(size=d), rng.normal(size=d)


def loss(x=x, w=w, u=u, b=b, h0=h0):  # L = c . h_T
    return c @ rnn_forward(x, w, u, b, h0)[-1]


h = rnn_forward(x, w, u, b, h0)
dh_out = np.zeros_like(h)
dh_out[-1] = c
grads = rnn_backward(x, h, w, u, b, dh_out, h0)
h1 = h[0]  # restart the recurrence from h_1 to perturb it: L as a function of h_1
rows = [
    ("∂L/∂h₁", grads.h[0], numerical_jacobian(lambda v: c @ rnn_forward(x[1:], w, u, b, v)[-1], h1)),
    ("∂L/∂W", grads.w, numerical_jacobian(lambda v: loss(w=v), w)),
    ("∂L/∂U", grads.u, numerical_jacobian(lambda v: loss(u=v), u)),
    ("∂L/∂b", grads.b, numerical_jacobian(lambda v: loss(b=v), b)),
    ("∂L/∂h₀", grads.h0, numerical_jacobian(lambda v: loss(h0=v), h0)),
    ("∂L/∂x", grads.x, numerical_jacobian(lambda v: loss(x=v), x)),
]
print(figures.gradcheck_table(rows))
