"""Run pasted programs as `python pasted.py` would, each in a process forked from this one, which has imported numpy.

tests/test_copy_paste.py starts it with the environment a reader's program gets (PATH only) and sends one
directory a line on stdin; the directory holds pasted.py. The child works there as a fresh interpreter
would: that directory as its working directory and sys.path[0], sys.argv ["pasted.py"], run as __main__,
stdin empty; it writes its output to stdout.txt and stderr.txt there, and the server answers the exit
code on stdout. Importing numpy (and starting its BLAS threads) was most of what a fresh interpreter
spent on a pasted block: here it is done once. Only numpy is imported ahead, as `import numpy` imports
it, so a program sees what a fresh interpreter would give it: anything else it uses, it must import.
tests/test_copy_paste.py compares a probe run both ways.
"""

import os
import sys

import numpy  # noqa: F401  imported once, before any fork


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
