from primer.figures import rnn as figures
from primer.inputs.rnn import EXPERIMENT, RADII, STEPS
from primer.rnn import ACTIVATIONS, gradient_norms

T = max(STEPS)
first = {
    act: [gradient_norms(T, r, activation=act, **EXPERIMENT)[0] for r in RADII] for act in ACTIVATIONS
}  # ||dL/dh_1||
print(figures.gradient_table(RADII, first, T))
