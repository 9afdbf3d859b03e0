"""Run pasted programs as `python pasted.py` would, each in a process forked from this one, which has imported
numpy and plotly.

tests/test_copy_paste.py starts it with the environment a reader's program gets (PATH only) and sends one
directory a line on stdin; the directory holds pasted.py. The child works there as a fresh interpreter
would: that directory as its working directory and sys.path[0], sys.argv ["pasted.py"], run as __main__,
stdin empty; it writes its output to stdout.txt and stderr.txt there, and the server answers the exit
code on stdout. Importing numpy (and starting its BLAS threads) and plotly, and plotly's loading of the
validators of each kind of object a figure is made of, were most of what a fresh interpreter spent on a
pasted block: here they are done once. Only these two third-party packages are loaded ahead, and only
their caches are filled: a program reaches them only by importing them, so it sees what a fresh
interpreter would give it, and anything it uses it must import. primer is never imported ahead: a
program that used a primer module it never imported would pass here and fail for a reader.
tests/test_copy_paste.py compares a probe run both ways.
"""

import os
import sys

import numpy  # noqa: F401  imported once, before any fork
import plotly.graph_objects as go
import plotly.io  # noqa: F401

# One small figure of every trace, control and template part the pages use, drawn to JSON, loads their validators.
go.Figure(data=[go.Heatmap(z=[[1]]), go.Scatter(y=[1]), go.Bar(y=[1])],
          layout=go.Layout(template=go.layout.Template(layout={"font": {"size": 12}}), shapes=[{"type": "rect"}],
                           annotations=[{"text": "a"}], sliders=[{"steps": [{"label": "a"}]}],
                           updatemenus=[{"buttons": [{"label": "a"}]}])).to_json()
del go


def run(directory):
    """Run directory/pasted.py in a forked child; return its exit code as a fresh interpreter's would be."""
    pid = os.fork()
    if pid:
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    code = 1
    try:
        import traceback
        import types

        os.chdir(directory)
        for fd, name, flags in ((0, os.devnull, os.O_RDONLY), (1, "stdout.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, "stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(name, flags, 0o644)
            os.dup2(opened, fd)
            os.close(opened)
        sys.argv, sys.path[0] = ["pasted.py"], directory
        path = os.path.join(directory, "pasted.py")
        main = types.ModuleType("__main__")   # a fresh __main__, as the interpreter makes for a script
        main.__dict__.update(__file__=path, __cached__=None, __builtins__=__builtins__)
        sys.modules["__main__"] = main
        try:
            with open(path, "rb") as source:   # bytes: compile() reads the encoding as the interpreter does
                exec(compile(source.read(), path, "exec"), main.__dict__)
            code = 0
        except SystemExit as stop:   # as the interpreter reads sys.exit's argument
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                print(stop.code, file=sys.stderr)
        except BaseException:  # noqa: BLE001 - reported as the interpreter reports it, exit code 1
            traceback.print_exc()
        import atexit

        atexit._run_exitfuncs()   # the program's own atexit functions, as at interpreter exit
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def main():
    for line in sys.stdin:
        print(run(line.rstrip("\n")), flush=True)


if __name__ == "__main__":
    main()
