"""primer's forward pass of the real model against another implementation: Hugging Face transformers, which loads the
same GGUF file offline (HF_HUB_OFFLINE) into its own LlamaForCausalLM, in PyTorch.

What the two share: the file, and the gguf package's dequantisation (transformers calls it too). What they do not: the
rest. transformers undoes llama.cpp's reordering of the query and key rows and turns Hugging Face's pairs (i, i + d/2)
with its own rotary code, where primer turns neighbours (2i, 2i+1) on the rows as stored; it has its own RMSNorm,
key/value repetition, SiLU gate, softmax and tokenizer (converted from the same file by its own code). Masks go in as
a 4-D additive float mask (0 where query i may read key j, -inf elsewhere), which transformers passes to its eager
attention as is; positions as position_ids.
"""

import os

import numpy as np
import pytest

from primer import pretrained
from primer.masks import causal_mask, window_mask

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("accelerate")  # transformers needs it for a GGUF file

pytestmark = pytest.mark.slow  # transformers reads and dequantises the file again: about 30 s on 2 cores

RELATIVE = 1e-4  # bound on max |primer - transformers| / max |transformers| over all logits; about 3e-6 measured
TEXT = "The capital of Germany is Berlin, and the capital of France is Paris. Masks decide what each token reads."


@pytest.fixture(scope="module")
def models():
    os.environ["HF_HUB_OFFLINE"] = "1"  # the file is local: no request may leave the machine
    ours = pretrained.load()
    folder, name = ours.path.parent, ours.path.name
    theirs = transformers.AutoModelForCausalLM.from_pretrained(
        folder, gguf_file=name, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name)
    return ours, theirs, tokenizer


def reference_logits(theirs, ids, mask=None, positions=None):  # [n], [n, n] bool, [n] -> [n, vocab]
    """Return transformers' logits, the mask made additive (0: may read, -inf: may not) and 4-D."""
    kwargs = {}
    if mask is not None:
        additive = torch.zeros(mask.shape).masked_fill(~torch.from_numpy(mask), float("-inf"))
        kwargs["attention_mask"] = additive[None, None]  # [1, 1, n, n]
    if positions is not None:
        kwargs["position_ids"] = torch.as_tensor(positions)[None]
    with torch.no_grad():
        return theirs(torch.tensor([ids]), **kwargs).logits[0].numpy()


def relative_gap(a, b):
    return float(np.abs(a - b).max() / np.abs(b).max())


def test_the_two_tokenizers_agree(models):
    ours, _, tokenizer = models
    for text in (TEXT, "In 2024, 3 of 17 heads read token 0.", "  spaces,\ttabs\nand lines"):
        assert ours.encode(text) == tokenizer(text, add_special_tokens=False)["input_ids"]


def test_the_logits_agree_under_the_causal_mask(models):
    ours, theirs, _ = models
    ids = ours.encode(TEXT)
    assert relative_gap(ours.logits(ids), reference_logits(theirs, ids)) < RELATIVE


def documents_mask(lengths):  # -> [n, n]: causal within each packed document, nothing across
    """Return the packing mask of documents of these lengths laid end to end in one row."""
    doc = np.repeat(np.arange(len(lengths)), lengths)
    return causal_mask(len(doc)) & (doc[:, None] == doc[None, :])


@pytest.mark.parametrize("kind", ["window", "documents", "padding", "full"])
def test_the_logits_agree_under_other_masks_and_positions(models, kind):
    ours, theirs, _ = models
    ids = ours.encode(TEXT)
    n, positions = len(ids), None
    if kind == "window":
        mask = window_mask(n, 4)
    elif kind == "documents":
        mask = documents_mask([n // 2, n - n // 2])
        positions = np.concatenate([np.arange(n // 2), np.arange(n - n // 2)])  # each document starts at 0
    elif kind == "padding":
        ids = [2, 2, 2] + ids[:-3]
        mask = causal_mask(n)
        mask[:, :3] = np.eye(n, 3, dtype=bool)  # the pads read only themselves; the text never reads a pad
        positions = np.maximum(np.arange(n) - 3, 0)
    else:
        mask = np.ones((n, n), dtype=bool)  # the causal model read bidirectionally
    gap = relative_gap(ours.logits(ids, mask, positions), reference_logits(theirs, ids, mask, positions))
    assert gap < RELATIVE
    if kind != "full":
        assert relative_gap(ours.logits(ids), reference_logits(theirs, ids, mask, positions)) > 100 * RELATIVE
