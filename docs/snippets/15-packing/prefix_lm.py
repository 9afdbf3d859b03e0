import numpy as np

from primer.experiments.trained_decoder import trained_decoder
from primer.figures.tables import fmt_change
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.packing import HELD_OUT_ROW, N_NEW, PREFIX, PROMPT_LEN
from primer.kv_cache import generate_prefix_lm
from primer.masks import prefix_lm_mask
from primer.probe import movement, nudge
from primer.rounding import is_rounding
from primer.transformer import embed, logits, stack

data, cfg, run = trained_decoder(**EXPERIMENT)
prompt = data.heldout_tokens[HELD_OUT_ROW][:PROMPT_LEN]
mask = prefix_lm_mask(PROMPT_LEN, PREFIX)  # the first PREFIX tokens read each other both ways, the rest causal


def read(tokens):  # [n] -> [n, vocab], under the prefix-LM mask
    return logits(stack(embed(tokens, run.params, cfg), run.params, cfg, mask)[0], run.params)


print("prompt:", " ".join(data.vocab[t] for t in prompt), f"(prefix: the first {PREFIX} tokens)")
for j in (PREFIX - 1, PREFIX + 1):  # one token inside the prefix, one after it
    moved = movement(read, prompt, [nudge(prompt, j, cfg.vocab_size)])[:, 0]
    print(f"change token {j}: outputs that move:", [i for i, m in enumerate(moved) if not is_rounding(m)])
cached, z_cached = generate_prefix_lm(prompt, PREFIX, N_NEW, run.params, cfg, cached=True)
again, z_again = generate_prefix_lm(prompt, PREFIX, N_NEW, run.params, cfg, cached=False)
print("written from the cache:  ", " ".join(data.vocab[t] for t in cached))
print("written rerunning the row:", " ".join(data.vocab[t] for t in again))
print("largest |logit gap|, cache vs rerun:", fmt_change(np.abs(z_cached - z_again).max()))
