"""Where a build's time goes: the build thread's CPU seconds by phase, for a cold build and for a `mkdocs serve` rebuild.

    python bench/build_profile.py        # about a minute; part of `make bench`

CPU time of the build's own thread (time.thread_time), so the figures hold on a loaded machine too;
the notebooks run in other processes (kernels, the HTML renderer) and are reported as their CPU.
Phases: each plugin and hook event (the second language's pass, which i18n runs inside the first
one's post-build event, is split into its parts, not counted as one), the executed blocks, the Markdown
and theme rendering around them.
"""

import collections
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import serve  # noqa: E402

clock = time.thread_time


def instrument(acc):
    """Count the build thread's CPU per event callable, per executed block, per page render; return an undo."""
    import markdown_exec._internal.formatters.python as mx_python
    import mkdocs.commands.build as build
    import mkdocs.plugins as plugins

    saved = (plugins.PluginCollection.run_event, build._populate_page, build._build_page)

    def run_event(self, name, item=None, **kwargs):
        for method in self.events[name]:
            owner = getattr(method, "__self__", None)
            who = type(owner).__name__ if owner is not None else Path(method.__module__).stem   # a hook: its file
            nested = name == "post_build" and who == "I18n"   # the other language's whole pass: its parts count
            start = clock()
            result = method(**kwargs) if item is None else method(item, **kwargs)
            if not nested:
                acc[f"{name}: {who}"] += clock() - start
            item = result if result is not None else item
        return item

    def timed(fn, label):
        def wrapper(*args, **kwargs):
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                acc[label] += clock() - start
        wrapper.__dict__.update(fn.__dict__)   # the exec cache hangs on markdown-exec's runner (hooks/primer_build.py)
        return wrapper

    plugins.PluginCollection.run_event = run_event
    build._populate_page = timed(build._populate_page, "pages: Markdown, with the blocks and page events in it")
    build._build_page = timed(build._build_page, "pages: theme, with the page events in it")
    run = mx_python._run_python
    mx_python._run_python = timed(run, "executed blocks: running the code")

    def undo():
        plugins.PluginCollection.run_event, build._populate_page, build._build_page = saved
        mx_python._run_python = run
    return undo


def one_build(command, site_dir, first):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config("mkdocs.yml", site_dir=str(site_dir))
    if first:
        config.plugins.on_startup(command=command, dirty=False)
    acc = collections.Counter()
    undo = instrument(acc)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    start_wall, start = time.perf_counter(), clock()
    try:
        build(config, serve_url="http://127.0.0.1:8000/" if command == "serve" else None)
    finally:
        undo()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    acc["(build thread, all)"] = clock() - start
    acc["(other processes: kernels, HTML renderer)"] = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    acc["(wall clock)"] = time.perf_counter() - start_wall
    return acc


def report(title, acc):
    lines = [f"{title}:", "", "| CPU s | phase |", "| ---: | --- |"]
    for name, seconds in sorted(acc.items(), key=lambda kv: (not kv[0].startswith("("), -kv[1])):
        if seconds >= 0.05:
            lines.append(f"| {seconds:.1f} | {name} |")
    return "\n".join(lines)


def measure():
    """Return the reports of a cold `mkdocs build` and of a warm `mkdocs serve` rebuild, both in a copy of the tree."""
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    cwd, env = os.getcwd(), dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="primer-bench-profile-") as tmp:
        root = Path(tmp) / "repo"
        serve.copy_tree(ROOT, root)
        os.chdir(root)
        os.environ["TMPDIR"] = tmp   # jieba keeps its dictionary cache there: a cold build has none
        tempfile.tempdir = None
        try:
            cold = one_build("build", Path(tmp) / "cold", first=True)
            one_build("serve", Path(tmp) / "serve", first=True)   # fills the exec cache
            rebuild = one_build("serve", Path(tmp) / "serve", first=False)
        finally:
            os.chdir(cwd)
            os.environ.clear()
            os.environ.update(env)
            tempfile.tempdir = None
    return (report("Cold strict build (no caches)", cold) + "\n\n" +
            report("`mkdocs serve` rebuild after a prose edit (caches warm)", rebuild))


if __name__ == "__main__":
    print(measure())
