"""The check kit's verdicts (primer.mask_checks) on real implementations, as a Markdown table."""

from primer.figures.mask_bugs import verdict_cell
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


def mask_leak_table(rows, lang=None):  # [(case key, reads [n, n] bool, expected mask [n, n], problems)] -> Markdown
    """Return a table per mask: where the leak test moved an output the mask closes, or none it opens; the kit."""
    text = labels("mask_kit", lang)
    body = [
        (
            text["cases"][case],
            str(int((reads & ~mask).sum())),
            str(int((~reads & mask).sum())),
            verdict_cell(found, lang),
        )
        for case, reads, mask, found in rows
    ]
    return md_table([text["col_case"], text["col_leaks"], text["col_blind"], text["col_kit"]], body)
