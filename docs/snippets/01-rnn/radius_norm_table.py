from primer.figures import rnn as figures
from primer.inputs.rnn import EXPERIMENT, RADII
from primer.rnn import recurrent_matrix, spectral_norm, spectral_radius

ws = [recurrent_matrix(EXPERIMENT["d"], r, seed=EXPERIMENT["seed"]) for r in RADII]  # the W of each curve above
print(figures.radius_norm_table(RADII, [spectral_radius(w) for w in ws], [spectral_norm(w) for w in ws]))
