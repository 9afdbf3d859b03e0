from primer.chunked_prefill import chunked_prefill, prefill_mask
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.serving import KIT_CHUNK, KIT_D, KIT_N, KIT_PARENTS, KIT_PREFIX, KIT_SEED
from primer.leak import LeakProbes, token_reads
from primer.mask_checks import check_mask
from primer.masks import causal_mask
from primer.speculative import tree_pass_mask

data, cfg, run = trained_decoder(**EXPERIMENT)  # chapter 7's decoder and the start of its first held-out row
row = data.heldout_tokens[0]
probe = LeakProbes(run.params, cfg, d=KIT_D, seed=KIT_SEED)  # the decoder under a mask, its layers' reach, one head


def prefilled(alignment):  # the same head, the prompt prefilled in chunks of KIT_CHUNK
    return lambda x: chunked_prefill(x @ probe.w_q, x @ probe.w_k, x @ probe.w_v, KIT_CHUNK, alignment=alignment)


tree = tree_pass_mask(KIT_PREFIX, KIT_PARENTS)  # the prefix causal, each draft node its ancestors
n_tree, causal = len(tree), causal_mask(KIT_N)
rows = [
    probe.row("tree", row[:n_tree], tree, tree),
    probe.row("tree_as_causal", row[:n_tree], tree, causal_mask(n_tree)),
]
for alignment in ("bottom_right", "top_left"):  # what the chunks read, against one causal pass
    reads = token_reads(probe.read(prefill_mask(KIT_N, KIT_CHUNK, alignment)), row[:KIT_N], cfg.vocab_size)
    rows.append((f"prefill_{alignment}", reads, probe.reach(causal), check_mask(prefilled(alignment), causal, d=KIT_D)))
print(figures.mask_leak_table(rows))
