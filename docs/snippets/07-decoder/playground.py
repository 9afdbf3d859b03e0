import numpy as np

from primer.backprop import MaskedFill  # noqa: F401 (for the masks to try, below)
from primer.config import Config
from primer.experiments import language_model
from primer.inputs.decoder import EXPERIMENT
from primer.masks import causal_mask, full_mask  # noqa: F401 (full_mask: a mask to try)
from primer.optim import adam_init, adam_step
from primer.training import loss, loss_and_grads
from primer.transformer import init_stack

# The page's causal run (seed 0): the same text, initial weights and batches. Only the mask line is yours.
seed, training = EXPERIMENT["seed"], EXPERIMENT["training"]
steps, lr, batch_size, every = training["steps"], training["lr"], training["batch_size"], training["every"]
data = language_model.make_data(EXPERIMENT["grammar"], **EXPERIMENT["corpus_args"], seed=seed)
n = data.tokens.shape[1]  # tokens per row
cfg = Config(vocab_size=len(data.vocab), **EXPERIMENT["model"])
*_, init_seed, batch_seed = language_model.seeds(seed)
causal = causal_mask(n)  # [n, n] True: query i may read key j

mask = causal  # the mask training uses: change this line, for instance to one of these
# mask = full_mask(n)                              # no mask at all
# mask = ~np.triu(np.ones((n, n), bool), k=2)      # triu(..., diagonal=2): the next token stays open
# mask = MaskedFill(causal, 0.0)                   # masked_fill(..., 0) instead of -inf
# mask = np.where(causal, -1e9, 0.0)               # the inverted boolean: True read as "closed"

params = init_stack(init_seed, cfg)
state, rng = adam_init(params), np.random.default_rng(batch_seed)
print(f"floor: training rows {data.train_floor:.2f}, held-out rows {data.floor:.2f}; chance {data.chance:.2f}")
print("step  train  held-out")  # train: the mean of the training losses since the last line
since = []  # this stretch's training losses, one a step
for step in range(1, steps + 1):
    rows = rng.permutation(len(data.tokens))[:batch_size]  # the batch the page's runs drew at this step
    train_loss, grads = loss_and_grads(params, cfg, data.tokens[rows], data.targets[rows], mask)
    params, state = adam_step(params, grads, state, lr)
    since.append(train_loss)
    if step % every == 0:  # the honest loss: held-out rows under the causal mask, whatever mask trains
        held_out = loss(params, cfg, data.heldout_tokens, data.heldout_targets, causal)
        print(f"{step:4d}  {np.mean(since):.2f}  {held_out:.2f}")
        since = []
