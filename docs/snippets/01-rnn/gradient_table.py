from primer.figures import rnn as figures
from primer.rnn import ACTIVATIONS, RADII, STEPS, gradient_norms

T = max(STEPS)
first = {act: [gradient_norms(T, r, activation=act)[0] for r in RADII] for act in ACTIVATIONS}  # ||dL/dh_1||
print(figures.first_step_table(RADII, first, T))
