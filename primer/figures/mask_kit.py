"""The check kit's verdicts (primer.mask_checks) on real implementations, as a Markdown table."""

from primer.figures.tables import md_table
from primer.language import labels


def kit_verdicts(rows, lang=None):  # [(implementation key, check name, problems)] -> Markdown
    """Return a table of each implementation, the check it went through and how many problems the kit found."""
    text = labels("mask_kit", lang)
    body = [
        (text[name], f"`{check}`", text["some"].format(n=len(problems)) if problems else text["none"])
        for name, check, problems in rows
    ]
    return md_table([text["implementation"], text["check"], text["found"]], body)
