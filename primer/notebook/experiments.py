"""The notebooks' experiment checks: whether an experiment's numbers, as the reader's run computed them, show what the
chapter says. Each prints its verdict in the notebook's language, as a check of an exercise does.
"""

from primer.notebook.compare import message


def six_masks_verdict(runs):  # {run name: DecoderRun} -> (passed, message)
    """Return whether only the causal run is honest (lowest causal-mask loss, every other better under its own mask)."""
    if not isinstance(runs, dict) or "causal" not in runs or len(runs) < 2:
        raise ValueError(f"runs must be a dict of mask runs holding 'causal' and at least one other, got {runs!r}")
    causal = float(runs["causal"].heldout_loss)
    for name, run in runs.items():
        if name == "causal":
            continue
        honest, own = float(run.heldout_loss), float(run.val_loss)
        if honest <= causal:
            return False, message("six_masks_beaten", name=name, loss=honest, causal=causal)
        if own >= honest:
            return False, message("six_masks_own", name=name, own=own, loss=honest)
    return True, message("six_masks_ok", causal=causal, n=len(runs))


def check_six_masks(runs):
    """Print whether the mask runs show what chapter 7 says: only the causal mask is honest."""
    print(six_masks_verdict(runs)[1])
