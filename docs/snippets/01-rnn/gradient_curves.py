from primer.figures import rnn as figures
from primer.figures import to_html
from primer.inputs.rnn import EXPERIMENT, RADII, STEPS
from primer.rnn import ACTIVATIONS, gradient_norms

# One real forward pass and one real backward pass per (activation, radius, T): 2 x 5 x 12 runs.
norms = {
    act: [[gradient_norms(n, r, activation=act, **EXPERIMENT) for n in STEPS] for r in RADII] for act in ACTIVATIONS
}
fig = figures.gradient_curves(norms, STEPS, RADII, active_steps=60, active_radius=1.2)
print(to_html(fig, div_id="fig-gradient-curves"))
