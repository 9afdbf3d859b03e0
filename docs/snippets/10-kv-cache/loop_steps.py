from primer.figures import generation, to_html
from primer.generate import TOY_PROMPT, TOY_SEED, TOY_STEPS, TOY_VOCAB, generate_steps
from primer.transformer import Config, init_stack

cfg = Config()                      # primer's tiny decoder: 2 layers, 4 heads, d = 16, 32 toy words
params = init_stack(TOY_SEED, cfg)  # random weights fixed by a seed: not trained, so the words are noise
steps = generate_steps(TOY_PROMPT, params, cfg, TOY_STEPS)  # predict, append, run the whole prefix again
fig = generation.loop_steps(steps, TOY_VOCAB)
print(to_html(fig, div_id="fig-loop-steps"))
