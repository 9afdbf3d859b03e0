"""Chapter 14's tables: what each reproduced bug does, and what the mask checks say of it and of its fix."""

from primer.figures.tables import fmt_change, md_table, pct
from primer.language import labels


def measure_cell(measure, value):
    """Format one measured symptom: a share as a percentage, a count as an integer, a gap as a magnitude."""
    if measure == "nan_rows":
        return str(int(value))
    if measure == "cache_gap":
        return fmt_change(value)
    return pct(value)


def verdict_cell(problems, lang=None):
    """Say what a check found: 'none found', or how many problems, their kinds, and the kit's own most telling sentence.

    The sentence is the kit's suspect when it names one, else its verdict on the full pass, else its first problem;
    it stays in the kit's English, as code, in both languages.
    """
    text = labels("mask_bugs", lang)
    if not problems:
        return text["clean"]
    found = [p for p in problems if p.kind != "suspect"]
    kinds = []
    for p in found:
        if p.kind not in kinds:
            kinds.append(p.kind)
    told = next((p for p in problems if p.kind == "suspect"), None) or next(
        (p for p in problems if p.kind == "full"), found[0]
    )
    flagged = text["flagged"].format(n=len(found), kinds=text["sep"].join(text["kinds"][k] for k in kinds))
    return flagged + text["says"].format(sentence=f"`{told}`")


def bug_table(measure, measured, verdicts, lang=None):
    """Return a Markdown table: the buggy and the fixed version, its measured symptom and the check's verdict."""
    text = labels("mask_bugs", lang)
    head = [text["col_version"], text["measures"][measure], text["col_check"]]
    rows = [
        [text[version], measure_cell(measure, value), verdict_cell(problems, lang)]
        for version, value, problems in zip(("buggy", "fixed"), measured, verdicts)
    ]
    return md_table(head, rows)


def shipped_note(nan_rows, pad_share, problems, lang=None):
    """Say what the query-axis mask does with the project's own fill, and what check_padding found (problems)."""
    text = labels("mask_bugs", lang)
    return text["query_axis_shipped"].format(
        nan_rows=measure_cell("nan_rows", nan_rows),
        pad_share=measure_cell("pad_share", pad_share),
        verdict=verdict_cell(problems, lang),
    )


def overview_table(bugs, results, lang=None):
    """Return the chapter's summary: per bug its family, its measure, buggy and fixed, and whether the check agreed."""
    text = labels("mask_bugs", lang)
    head = [text["col_bug"], text["col_family"], text["col_measure"], text["buggy"], text["fixed"], text["col_kit"]]
    rows = []
    for bug in bugs:
        measured, verdicts = results[bug.name]
        ok = bool(verdicts[0]) and not verdicts[1]
        rows.append(
            [
                text["names"][bug.name],
                text["families"][bug.family],
                text["measures"][bug.measure],
                measure_cell(bug.measure, measured[0]),
                measure_cell(bug.measure, measured[1]),
                text["kit_ok"] if ok else text["kit_missed"],
            ]
        )
    return md_table(head, rows)
