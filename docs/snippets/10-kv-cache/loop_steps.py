from primer.config import Config
from primer.decoding import generate
from primer.figures import kv_cache as figures
from primer.figures import to_html
from primer.pages.kv_cache import PROMPT, SEED, STEPS, VOCAB
from primer.softmax import softmax
from primer.transformer import init_stack

cfg = Config()  # primer's tiny decoder: 2 layers, 4 heads, d = 16, 32 toy words
params = init_stack(SEED, cfg)  # random weights fixed by a seed: not trained, so the words are noise
steps = []
generate(PROMPT, params, cfg, STEPS, record=steps)  # predict, append, run the whole prefix again
probs = [softmax(step["logits"]) for step in steps]  # what the bars show
fig = figures.loop_steps(steps, probs, VOCAB)
print(to_html(fig, div_id="fig-loop-steps"))
