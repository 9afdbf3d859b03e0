import numpy as np

from primer.backprop_stack import decoder_forward
from primer.conventions import weights_from_labels
from primer.experiments.trained_decoder import trained_decoder
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.packing import HELD_OUT_ROW, PROMPT_LEN
from primer.masks import causal_mask
from primer.training import loss, loss_and_grads

data, cfg, run = trained_decoder(**EXPERIMENT)
tokens, targets = data.heldout_tokens[HELD_OUT_ROW][None], data.heldout_targets[HELD_OUT_ROW][None]
labels = targets.copy()
labels[:, : PROMPT_LEN - 1] = -100  # no loss on the prompt's targets: only the answer's count
_, weights = weights_from_labels(labels)  # -100 -> weight 0
causal = causal_mask(tokens.shape[1])
print(f"loss, every target:     {loss(run.params, cfg, tokens, targets, causal):.3f}")
print(f"loss, -100 on prompt:   {loss(run.params, cfg, tokens, targets, causal, weights):.3f}")
g_all = loss_and_grads(run.params, cfg, tokens, targets, causal)[1]["wte"]
g_answer = loss_and_grads(run.params, cfg, tokens, targets, causal, weights)[1]["wte"]
print(f"what is learned: largest |gradient change| (token embeddings): {np.abs(g_all - g_answer).max():.3f}")
closed = causal.copy()
closed[PROMPT_LEN:, : PROMPT_LEN - 1] = False  # what an attention mask on the prompt would do instead
logits = {
    name: decoder_forward(run.params, tokens, m[None, None], cfg.n_heads)[0]
    for name, m in (("causal", causal), ("prompt closed", closed))
}
moved = np.abs(logits["causal"] - logits["prompt closed"])[0, PROMPT_LEN:].max()
print(f"closing the prompt in the attention mask instead moves the answer's logits by up to {moved:.3f}")
