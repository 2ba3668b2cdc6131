"""Records what real PyTorch prints for every program of the corpus.

Run from the repository root with the project's venv:

    .venv/bin/python tests/corpus/record.py            # every program
    .venv/bin/python tests/corpus/record.py hooks.py   # some programs

For each `NAME.py` it writes `NAME.out`: the program's stdout, and if the
program raised, a last section

    === raised TypeName ===
    str(exception)

Each program runs in a fresh interpreter as `__main__`, with two threads.
`recorded_with.txt` names the torch and Python versions used.
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

RUNNER = r"""
import sys, io, runpy, traceback
import torch
torch.set_num_threads(2)
path = sys.argv[1]
try:
    runpy.run_path(path, run_name="__main__")
except SystemExit:
    raise
except BaseException as e:
    sys.stdout.flush()
    sys.stdout.write("=== raised " + type(e).__name__ + " ===\n" + str(e) + "\n")
"""


def record(program: pathlib.Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(program)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=HERE,
    )
    if done.returncode != 0:
        raise SystemExit(f"{program.name} failed to run:\n{done.stderr}")
    program.with_suffix(".out").write_text(done.stdout)
    print(f"recorded {program.name}")


def main() -> None:
    import torch

    names = sys.argv[1:]
    programs = (
        [HERE / n for n in names] if names else sorted(HERE.glob("*.py"))
    )
    for program in programs:
        if program.name == pathlib.Path(__file__).name:
            continue
        record(program)
    (HERE / "recorded_with.txt").write_text(
        f"torch {torch.__version__}, Python {sys.version.split()[0]}\n"
    )


if __name__ == "__main__":
    main()
