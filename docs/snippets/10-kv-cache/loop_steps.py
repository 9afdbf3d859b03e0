from primer.decoding import generate
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import kv_cache as figures
from primer.figures import to_html
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.kv_cache import LOOP_PROMPT, STEPS
from primer.softmax import softmax
from primer.vocab import to_ids

# Chapter 7's decoder, trained under the causal mask on the grammar's sentences
data, cfg, decoder = trained_decoder(**EXPERIMENT)
steps = []
prompt = to_ids(LOOP_PROMPT.split(), data.vocab)
generate(prompt, decoder.params, cfg, STEPS, record=steps)  # predict, append, run the whole prefix again
probs = [softmax(step["logits"]) for step in steps]  # what the bars show
fig = figures.loop_steps(steps, probs, data.vocab)
print(to_html(fig, div_id="fig-loop-steps"))
