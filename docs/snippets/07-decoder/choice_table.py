from primer.experiments import broken_masks
from primer.figures import decoder as figures
from primer.inputs.decoder import EXPERIMENT, SEEDS, WRITING

# Held-out rows, only where the grammar leaves a real choice: how sure is each model of the word that came?
measured, refs = broken_masks.measures(EXPERIMENT, SEEDS, **WRITING)  # computed once, shared with the table above
probs = {name: (m["p_own"], m["p_causal"]) for name, m in measured.items()}
print(figures.choice_table(probs, refs["grammar_p"]))
