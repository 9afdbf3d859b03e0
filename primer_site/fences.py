"""The one reader of a page's exec fences, for the hooks: which python blocks markdown-exec runs, their ids, snippets.

hooks/parity.py compares the ids of zh and en; hooks/runner.py picks the runnable blocks by their snippet. Whether a
fence runs is markdown-exec's own decision: its documented `validator` (the one a custom fence names) reads the options.
"""

import re
from collections import namedtuple

import markdown_exec

# The opening line of a fenced python block, indented or not (admonitions, tabs); group 2: "{" for the brace form;
# group 4: the snippet a `--8<-- "NN-slug/x.py"` on the next line pastes in, if the block starts with one.
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*(\{\s*\.?)?python\b([^\n]*)$(?:\n[ \t]*--8<-- \"([^\"\n]+)\")?", re.M)
OPTION = re.compile(r'(\w+)="([^"]*)"')
ExecFence = namedtuple("ExecFence", "id options snippet")  # id: "" when none; snippet: None when the block has none


def runs(options):
    """Return whether markdown-exec runs a python fence with these options (its validator's reading of exec=)."""
    return markdown_exec.validator("python", dict(options), {}, {}, None)


def exec_fences(markdown):
    """Return each python fence markdown-exec runs in a page's Markdown, in order."""
    fences = []
    for m in FENCE.finditer(markdown):
        options = dict(OPTION.findall(m.group(3)))
        if runs(options):
            # the brace form ({.python exec="1" id="x"}) gives markdown-exec no id
            fences.append(ExecFence("" if m.group(2) else options.get("id", ""), options, m.group(4)))
    return fences
