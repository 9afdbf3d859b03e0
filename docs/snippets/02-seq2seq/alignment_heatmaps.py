from primer.figures import seq2seq as figures
from primer.figures import to_html
from primer.inputs.seq2seq import DEFAULT_EXAMPLE, EXAMPLES
from primer.seq2seq import alignment

# Made-up vectors, no training: see primer/seq2seq.py for how each state is built.
labels = {"zh-en": "中 → EN", "en-fr": "EN → FR (black cat)", "en-fr-2": "EN → FR (je t'aime)"}
examples = [(labels[name], *alignment(*EXAMPLES[name])) for name in EXAMPLES]
fig = figures.alignment_heatmaps(examples, active=list(EXAMPLES).index(DEFAULT_EXAMPLE))
print(to_html(fig, div_id="fig-alignment-heatmaps"))
