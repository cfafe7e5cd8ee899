"""Start-up: a classic solve imports only what it uses (docs/performance.md, start-up).

The modules are read from a real ``python -m satdoku solve`` process (its ``sys.modules`` at
exit), so that an eager import anywhere on the way shows here.
"""

import ast
import signal
import subprocess
import sys

from conftest import PUZZLES, ROOT, SAMPLE, SAMPLE_SOLUTION, SEVENTEEN, SEVENTEEN_SOLUTION

_PROBE = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\\n"))
sys.argv = ["satdoku"] + sys.argv[1:]
from satdoku.cli import run
run()
"""

#: What a classic solve must not import: the other commands and their options, pictures,
#: formats it was not asked for, the process pool at -j 1, pysat's cardinality encodings
#: (pairwise at-most-one), "did you mean" suggestions, a command-line framework (click, whose
#: import alone cost more than the issue's whole start-up budget; argparse), native search
#: and the ladder (the passes a few puzzles are settled by are allowed:
#: satdoku.sat.fast.SLICED_MIN_GRIDS), what only an exec: solver (satdoku.sat.commands,
#: shlex) or a file written (glob) needs, python-sat's Python layer (satdoku.sat.binding), and
#: dataclasses (with inspect, 8 ms: satdoku.records makes the records instead), and typing
#: (2.6 ms: the modules on the path import it for type checkers only).
NOT_FOR_A_CLASSIC_SOLVE = (
    "satdoku.cli.asking", "satdoku.cli.tools", "satdoku.cli.convert", "satdoku.cli.counting",
    "satdoku.tasks.other_commands", "satdoku.tasks.explain", "satdoku.tasks.rate",
    "satdoku.tasks.generate", "satdoku.tasks.candidates", "satdoku.tasks.enumerate",
    "satdoku.output.asking", "satdoku.output.svg", "satdoku.run.parallel",
    "satdoku.rules", "satdoku.native.search", "satdoku.native.ladder", "satdoku.native.named",
    "satdoku.native.chains", "satdoku.native.dynamic", "satdoku.native.uniqueness",
    "satdoku.native.baselines", "satdoku.sat.portfolio", "satdoku.sat.proofs",
    "satdoku.sat.commands", "pysat.card", "difflib", "json", "csv", "concurrent.futures",
    "multiprocessing", "shlex", "glob", "click", "argparse", "pysat", "dataclasses", "inspect",
    "typing",
)


def _modules(*args, ignoring_ctrl_c=False):
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, timeout=60,
                          preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
                          if ignoring_ctrl_c else None)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return done.stdout, set(line.split()[1:])


def test_a_classic_solve_imports_only_what_it_uses():
    out, modules = _modules("solve", str(PUZZLES / "9x9.txt"), "--format", "line")
    assert out.splitlines()[0] == ("971468235624153987853927641538291476492876153716534829265"
                                   "349718387612594149785362")
    imported = sorted(name for name in modules
                      if any(name == bad or name.startswith(bad + ".")
                             for bad in NOT_FOR_A_CLASSIC_SOLVE))
    assert imported == []
    # 49 before a few puzzles were settled by the native passes (satdoku.native: reduce,
    # board, propagate, subsets, tables, and model.digits; 1.8 ms to import against the 5 ms
    # the bit-sliced rounds took for one puzzle), cli.signals left cli.session, and the
    # command line's own parser (cli.parsing) replaced click, and sat.binding drives CaDiCaL
    # without python-sat's Python layer, and satdoku.records makes its records without
    # dataclasses
    assert len([m for m in modules if m.startswith("satdoku")]) <= 59


def test_a_puzzle_the_batch_pass_settles_never_loads_python_sat():
    # The pass runs before the first engine is built, even for one puzzle: settled, the
    # answer needs no solver, so python-sat is never imported (verified all the same).
    out, modules = _modules("solve", SEVENTEEN, "--format", "line")
    assert out.split() == [SEVENTEEN_SOLUTION]
    assert sorted(m for m in modules if m.split(".")[0] == "pysat") == []
    # one that propagation leaves open (it takes a naked pair) goes to CaDiCaL, through
    # python-sat's compiled module alone (satdoku.sat.binding): its Python layer, 20 ms to
    # import, stays out (the default 9x9 formula has no auxiliary variable, so no IDPool)
    out, modules = _modules("solve", SAMPLE, "--format", "line")
    assert out.split() == [SAMPLE_SOLUTION]
    assert "pysolvers" in modules
    assert sorted(m for m in modules if m.split(".")[0] == "pysat") == []
    # as a background job too (SIGINT ignored: only python-sat's own solvers need telling)
    out, modules = _modules("solve", SAMPLE, "--format", "line", ignoring_ctrl_c=True)
    assert out.split() == [SAMPLE_SOLUTION]
    assert sorted(m for m in modules if m.split(".")[0] == "pysat") == []


def test_the_command_list_still_names_every_command():
    # the commands' modules are imported when a command is asked for; --help lists them all
    done = subprocess.run([sys.executable, "-m", "satdoku", "--help"], capture_output=True,
                          text=True, timeout=60)
    listed = done.stdout.split("Commands:")[1].split()
    for name in ("solve", "count", "explain", "candidates", "rate", "generate", "encode",
                 "decode", "solvers", "bench", "convert", "rules"):
        assert name in listed


def _type_only_names_used_at_run_time(source: str) -> list[tuple[int, str]]:
    """(line, name) of each name a module imports under ``if TYPE_CHECKING:`` alone and uses
    where Python evaluates it: a NameError waiting for the line to run (annotations are not
    evaluated under ``from __future__ import annotations``; an import inside a function, an
    ``else`` or an ``if not TYPE_CHECKING`` defines the name at run time)."""
    tree = ast.parse(source)
    lazy = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
               any(a.name == "annotations" for a in n.names) for n in tree.body)
    guards = [n for n in tree.body if isinstance(n, ast.If) and
              getattr(n.test, "id", getattr(n.test, "attr", None)) == "TYPE_CHECKING"]
    names = {(a.asname or a.name).split(".")[0] for g in guards for part in g.body
             for n in ast.walk(part) if isinstance(n, (ast.Import, ast.ImportFrom))
             for a in n.names}
    for node in tree.body:
        if isinstance(node, ast.If):
            parts = node.orelse if node in guards else node.body + node.orelse
            for n in (n for part in parts for n in ast.walk(part)):
                if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
                    names.discard(n.name)
                elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    names.discard(n.id)
    skip = {id(g) for g in guards}
    for n in ast.walk(tree):
        if not lazy:
            break
        if isinstance(n, ast.arg) and n.annotation is not None:
            skip.add(id(n.annotation))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns:
            skip.add(id(n.returns))
        elif isinstance(n, ast.AnnAssign):
            skip.add(id(n.annotation))
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, local: frozenset) -> None:
        if id(node) in skip:
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            local = local | {(a.asname or a.name).split(".")[0] for n in ast.walk(node)
                             if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id in names and node.id not in local:
            found.append((node.lineno, node.id))
        for child in ast.iter_child_nodes(node):
            visit(child, local)
    visit(tree, frozenset())
    return found


def test_no_module_uses_a_name_it_imports_for_type_checkers_only():
    # typing stays off the start-up path because its names are imported for mypy alone:
    # one used at run time would be a NameError only when its line runs
    found = {str(path.relative_to(ROOT)): bad for path in sorted((ROOT / "satdoku").rglob("*.py"))
             if (bad := _type_only_names_used_at_run_time(path.read_text()))}
    assert found == {}


def test_the_check_finds_a_type_only_name_used_at_run_time():
    source = ("from __future__ import annotations\nTYPE_CHECKING = False\n"
              "if TYPE_CHECKING:\n    from typing import Any, Callable, cast\n"
              "Alias = Callable[[int], int]\n"
              "def f(x: Any) -> Any:\n    return cast(int, x)\n"
              "def g(x: Any) -> Any:\n    from typing import cast\n    return cast(int, x)\n")
    assert _type_only_names_used_at_run_time(source) == [(5, "Callable"), (7, "cast")]
