"""Every script under scripts/ runs: its --help, in one child process (so that no script's set-up
leaks into the tests), through runpy as ``python SCRIPT --help`` would (its folder first on the
path). A module the scripts share (no ``__main__`` block) is imported by them, not run."""

import subprocess
import sys

from conftest import ROOT

SCRIPTS = sorted(p for p in (ROOT / "scripts").rglob("*.py")
                 if '__name__ == "__main__"' in p.read_text())

DRIVER = """
import runpy, sys
failed = []
for path in sys.argv[1:]:
    sys.argv = [path, "--help"]
    sys.path.insert(0, path.rsplit("/", 1)[0])
    try:
        runpy.run_path(path, run_name="__main__")
        failed.append(f"{path}: --help did not exit")
    except SystemExit as stop:
        if stop.code not in (0, None):
            failed.append(f"{path}: exit {stop.code}")
    except Exception as error:
        failed.append(f"{path}: {type(error).__name__}: {error}")
    finally:
        del sys.path[0]
print("\\n".join(failed))
"""


def test_every_script_answers_help():
    assert SCRIPTS
    done = subprocess.run([sys.executable, "-c", DRIVER, *map(str, SCRIPTS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    failed = [line for line in done.stdout.splitlines() if ": " in line and line.startswith("/")]
    assert not failed, "\n".join(failed)
