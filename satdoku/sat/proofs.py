"""Certificates for the UNSAT calls behind ``unsolvable`` and ``unique``.

A claim is refuted as a formula anyone can check without satdoku: the puzzle's whole formula
with its clues as unit clauses (never as assumptions, which a proof does not record) and its
rules, plus, for ``unique``, the clause that rules out the solution found over the cells not
given. :func:`certify` writes that CNF, solves it afresh with a python-sat solver that logs a
DRAT proof (python-sat's ``with_proof``; :data:`~satdoku.sat.catalogue.SAT_SOLVERS` says
which can), writes the proof, and has it checked by

- satdoku's own DRAT checker (:mod:`satdoku.cnf.checker`, which shares no code with any
  solver), always; and
- ``drat-trim`` and ``lrat-check`` (Marijn Heule's checkers; scripts/build_drat_trim.sh builds
  them), when they are on PATH or named by ``SATDOKU_DRAT_TRIM`` and ``SATDOKU_LRAT_CHECK``:
  drat-trim checks the DRAT proof and writes an LRAT proof, which ``lrat-check`` and satdoku's
  LRAT checker check again.

A formula the proof run finds satisfiable means the claim was wrong: :class:`Certificate`
says so and the caller turns the answer into an error. Big grids get the full encoding for the
proof (the reduced one folds the clues away by satdoku's own propagation, which a proof of it
would have to trust).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time

from ..budget import DEFAULT_MAX_CLAUSES
from ..children import parent_death_preexec
from ..cnf.checker import ProofCheck, check_drat, check_lrat, parse_drat
from ..cnf.encodings import DEFAULT_ENCODING, check_encoding
from ..cnf.export import write_dimacs
from ..cnf.formula import Formula, encode
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import ModelError, OptionError, SatdokuError
from ..io.dimacs import UnsatisfiableError
from ..io.files import Exists, Output
from ..model.grid import Grid
from ..records import field, record
from .binding import new_solver
from .catalogue import DEFAULT_SAT_SOLVER, check_sat_solver
from .clock import Clock

__all__ = ["Certificate", "Check", "certify", "refutation", "proof_solver", "external_checkers",
           "check_files", "CLAIMS", "PROOF_FILES", "proof_files_in", "backed"]

#: The claims a proof backs, and what the CNF written for each says.
CLAIMS = {"unsolvable": "the puzzle's formula (clues as unit clauses) is unsatisfiable",
          "unique": "the puzzle's formula with its solution ruled out (the last clause) is "
                    "unsatisfiable: no other solution"}

#: The files a proof writes for one claim (stem + extension).
PROOF_FILES = (".cnf", ".drat", ".lrat")

#: Environment variables that name the external checkers (else PATH is searched).
CHECKER_VARIABLES = {"drat-trim": "SATDOKU_DRAT_TRIM", "lrat-check": "SATDOKU_LRAT_CHECK"}


@record
class Check:
    """One checker's verdict on one proof."""

    checker: str
    ok: bool
    detail: str


@record
class Certificate:
    """The files that back one claim and what the checkers said of them."""

    claim: str
    cnf: str
    proof: str | None
    solver: str
    lrat: str | None = None
    refuted: bool = True  # False: the proof run found the formula satisfiable
    lemmas: int = 0
    checks: list[Check] = field(default_factory=list)
    proof_ms: float = 0.0
    check_ms: float = 0.0

    @property
    def ok(self) -> bool:
        """Refuted, and every checker that ran accepted the proof."""
        return self.refuted and bool(self.checks) and all(c.ok for c in self.checks)

    def record(self) -> dict:
        """What a report says of this certificate (plain values: JSON and pickle alike)."""
        return {"claim": self.claim, "ok": self.ok, "cnf": self.cnf, "drat": self.proof,
                "lrat": self.lrat, "solver": self.solver, "lemmas": self.lemmas,
                "checked_by": [c.checker for c in self.checks if c.ok],
                "rejected_by": [c.checker for c in self.checks if not c.ok],
                "proof_ms": round(self.proof_ms, 3), "check_ms": round(self.check_ms, 3),
                "summary": self.summary()}

    def summary(self) -> str:
        """One line for a report: where the proof is and who checked it."""
        if not self.refuted:
            return (f"the claim '{self.claim}' is wrong: {self.solver} found {self.cnf} "
                    "satisfiable")
        failed = [c for c in self.checks if not c.ok]
        if failed:
            return (f"proof {self.proof} of {self.cnf} REJECTED by "
                    + "; ".join(f"{c.checker}: {c.detail}" for c in failed))
        names = ", ".join(c.checker for c in self.checks)
        lrat = f" (LRAT {self.lrat})" if self.lrat else ""
        return f"'{self.claim}' proved: {self.proof}{lrat} refutes {self.cnf}, checked by {names}"


def proof_solver(name: str | None) -> str:
    """The python-sat solver that writes the proof: ``name`` when it logs proofs, else the
    default (:data:`~satdoku.sat.catalogue.DEFAULT_SAT_SOLVER`)."""
    if name and not name.startswith("exec:"):
        info = check_sat_solver(name)
        if info.proof:
            return info.name
    return DEFAULT_SAT_SOLVER


def refutation(grid: Grid, claim: str, solution: Grid | None = None, *,
               encoding: str | None = None, amo: str | None = None, constraints: tuple = (),
               max_clauses: int | None = DEFAULT_MAX_CLAUSES,
               deadline: Deadline = NO_DEADLINE) -> Formula:
    """The formula whose unsatisfiability is ``claim`` (a key of :data:`CLAIMS`): ``grid``'s
    full formula with the clues as units, and for ``unique`` the clause ruling out
    ``solution``. A reduced ``encoding`` becomes the default full one.

    >>> from satdoku.model.geometry import geometry
    >>> g = Grid(geometry(2, 2), (1, 1) + (0,) * 14)
    >>> len(refutation(g, "unsolvable").clauses)
    450
    """
    if claim not in CLAIMS:
        raise OptionError(f"no proof of {claim!r}; proofs back {', '.join(CLAIMS)}")
    if encoding is None or check_encoding(encoding).reduced:
        encoding = DEFAULT_ENCODING
    formula = encode(grid, encoding, amo, "units",
                     max_clauses=max_clauses, deadline=deadline, constraints=constraints)
    assert isinstance(formula, Formula)
    if claim == "unique":
        if solution is None:
            raise OptionError("a uniqueness proof needs the solution")
        formula.clauses.append(formula.varmap.blocking(solution, grid))
    return formula


def certify(grid: Grid, claim: str, stem: str, *, solution: Grid | None = None,
            encoding: str | None = None, amo: str | None = None, constraints: tuple = (),
            sat_solver: str | None = None, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
            deadline: Deadline = NO_DEADLINE, puzzle_text: str | None = None) -> Certificate:
    """Write ``stem.cnf`` (the :func:`refutation` of ``claim``) and its DRAT proof
    ``stem.drat`` (and ``stem.lrat`` when drat-trim is at hand), and check them.

    No file is overwritten: when a file of ``stem`` exists the next free name is taken
    (``stem-2``, ``stem-3``...; the certificate names the files), and a run that ends early
    (the time limit) leaves none. Raises TimeUp, TooBigError, SatdokuError (a file that
    cannot be written).
    """
    formula = refutation(grid, claim, solution, encoding=encoding, amo=amo,
                         constraints=constraints, max_clauses=max_clauses, deadline=deadline)
    extra = [f"claim: {claim}: {CLAIMS[claim]}"]
    stem = _claim_stem(stem, lambda out: write_dimacs(formula, out, puzzle_text=puzzle_text,
                                                      grid=grid, extra=extra))
    made = [stem + ".cnf"]
    try:
        return _proved(formula, claim, stem, proof_solver(sat_solver), deadline, made)
    except BaseException:  # the time limit, Ctrl-C: no CNF is left without its proof
        for path in made:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise


def _proved(formula: Formula, claim: str, stem: str, name: str, deadline: Deadline,
            made: list[str]) -> Certificate:
    """The proof and its checks, for :func:`certify` (``stem.cnf`` is written; each file
    written is added to ``made``)."""
    begun = time.perf_counter()
    proof = _prove(name, formula.clauses, deadline)
    cert = Certificate(claim, stem + ".cnf", None, name,
                       proof_ms=(time.perf_counter() - begun) * 1000)
    if proof is None:
        cert.refuted = False
        return cert
    cert.proof = stem + ".drat"
    _write(cert.proof, lambda out: out.write("".join(line + "\n" for line in proof)))
    made.append(cert.proof)
    begun = time.perf_counter()
    lrat = Output(stem + ".lrat", exclusive=True) if "drat-trim" in external_checkers() \
        else None
    try:
        cert.checks, written, cert.lemmas = check_files(
            formula.clauses, cert.cnf, cert.proof, lrat.tmp if lrat else None,
            deadline=deadline)
        if lrat is not None and written:
            lrat.commit()
            cert.lrat = stem + ".lrat"
            made.append(cert.lrat)
    finally:
        if lrat is not None:
            lrat.discard()
    cert.check_ms = (time.perf_counter() - begun) * 1000
    return cert


def _claim_stem(stem: str, fill, tries: int = 1000) -> str:
    """The first of ``stem``, ``stem-2``, ... none of whose files exist, its ``.cnf``
    written by ``fill`` (the name is taken by linking the finished file into place, so two
    processes never share one)."""
    for n in range(1, tries + 1):
        name = stem if n == 1 else f"{stem}-{n}"
        if any(os.path.lexists(name + ext) for ext in PROOF_FILES):
            continue
        try:
            _write(name + ".cnf", fill)
        except Exists:
            continue
        return name
    raise SatdokuError(f"{stem}.cnf: {tries} files of that name exist already")


def check_files(clauses: list[list[int]], cnf: str, proof: str, lrat: str | None = None, *,
                deadline: Deadline = NO_DEADLINE) -> tuple[list[Check], str | None, int]:
    """Check the DRAT ``proof`` file of ``clauses`` (written as ``cnf``) with satdoku's
    checker and the external ones at hand; (checks, the LRAT file written or None, lemmas).
    ``lrat``: where drat-trim may write an LRAT proof (None: it writes none)."""
    with open(proof, "rb") as fp:
        data = fp.read()
    ours = check_drat(clauses, parse_drat(data), deadline=deadline)
    checks = [Check("satdoku-drat", ours.ok, ours.message)]
    tools = external_checkers()
    written = None
    if "drat-trim" in tools:
        args = [cnf, proof] + (["-L", lrat] if lrat else [])
        ok, detail = _run_checker(tools["drat-trim"], args, deadline)
        checks.append(Check("drat-trim", ok, detail))
        if ok and lrat and os.path.exists(lrat):
            written = lrat
            with open(lrat, encoding="ascii", errors="replace") as fp:
                mine: ProofCheck = check_lrat(clauses, fp.read(), deadline=deadline)
            checks.append(Check("satdoku-lrat", mine.ok, mine.message))
            if "lrat-check" in tools:
                ok, detail = _run_checker(tools["lrat-check"], [cnf, lrat], deadline)
                checks.append(Check("lrat-check", ok, detail))
    return checks, written, ours.lemmas


def backed(error: UnsatisfiableError, grid: Grid, proof: str, *, encoding: str | None = None,
           amo: str | None = None, constraints: tuple = (),
           deadline: Deadline = NO_DEADLINE) -> UnsatisfiableError:
    """``error`` (an external solver's UNSAT answer for ``grid``) with ``error.proof`` set
    once the DRAT ``proof`` file the solver wrote is checked against the formula ``satdoku
    encode`` writes for ``grid`` with these options (its givens as units: rebuilt here, so a
    proof of another formula cannot pass), by satdoku's checker and drat-trim/lrat-check when
    at hand (on a copy of the formula in a temporary folder). ModelError when a checker
    rejects it; SatdokuError when it cannot be read."""
    import tempfile
    formula = encode(grid, encoding or _solving_encoding(grid), amo, "units",
                     constraints=constraints, max_clauses=None, deadline=deadline)
    if not isinstance(formula, Formula):
        raise OptionError("a proof is checked against a full encoding; the reduced one is "
                          "satdoku's own folding: name the one the solver was given")
    with tempfile.TemporaryDirectory(prefix="satdoku-proof-") as folder:
        cnf = os.path.join(folder, "formula.cnf")
        _write(cnf, lambda out: write_dimacs(formula, out, grid=grid))
        try:
            checks, _, lemmas = check_files(formula.clauses, cnf, proof,
                                            os.path.join(folder, "proof.lrat"),
                                            deadline=deadline)
        except OSError as problem:
            raise SatdokuError(f"cannot read: {problem.strerror or problem}",
                               source=proof) from None
    cert = Certificate("unsolvable", "the formula 'satdoku encode' writes for the puzzle",
                       proof, "the external solver", checks=checks, lemmas=lemmas)
    if not cert.ok:
        raise ModelError(cert.summary(), source=error.source, line=error.line)
    error.proof = {**cert.record(), "cnf": None, "lrat": None}
    return error


def _solving_encoding(grid: Grid) -> str:
    from ..cnf.policy import choose_encoding
    return choose_encoding(grid.size)


def proof_files_in(folder: str, limit: int = 3) -> list[str]:
    """Up to ``limit`` names of files in ``folder`` a proof run could write (none when the
    folder does not exist)."""
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    return [n for n in names if n.endswith(PROOF_FILES)][:limit]


def external_checkers() -> dict[str, str]:
    """The external checkers at hand: name -> program (the variable of
    :data:`CHECKER_VARIABLES`, else PATH)."""
    found = {}
    for name, variable in CHECKER_VARIABLES.items():
        path = os.environ.get(variable) or shutil.which(name)
        if path and os.access(path, os.X_OK):
            found[name] = path
    return found


def _write(path: str, fill) -> None:
    out = Output(path, exclusive=True)
    try:
        fill(out)
    except BaseException:
        out.discard()
        raise
    out.commit()


def _prove(name: str, clauses: list[list[int]], deadline: Deadline) -> list[str] | None:
    """The DRAT proof (lines) that ``clauses`` are unsatisfiable, or None when they are not.
    Raises TimeUp."""
    solver = new_solver(name, with_proof=True)
    try:
        for i in range(0, len(clauses), 20_000):
            solver.append_formula(clauses[i:i + 20_000])
            deadline.check()
        answer = Clock(check_sat_solver(name)).solve(solver, [], deadline, small=False)
        if answer is None:
            raise TimeUp
        return None if answer else solver.get_proof()
    finally:
        solver.delete()


_VERDICT = re.compile(r"^[sc] (NOT VERIFIED|VERIFIED)\s*$", re.M)


def _run_checker(program: str, args: list[str], deadline: Deadline) -> tuple[bool, str]:
    """Run an external checker; (accepted, its verdict line or why it failed)."""
    timeout = None if deadline.unlimited else max(deadline.remaining(), 0.001)
    try:
        done = subprocess.run([program, *args], capture_output=True, text=True,
                              timeout=timeout, preexec_fn=parent_death_preexec())
    except subprocess.TimeoutExpired:
        raise TimeUp from None
    except OSError as error:
        return False, f"cannot run {program}: {error.strerror or error}"
    verdicts = _VERDICT.findall(done.stdout)
    ok = done.returncode == 0 and verdicts == ["VERIFIED"]
    if ok:
        return True, "VERIFIED"
    lines = [line for line in (done.stdout + done.stderr).splitlines() if "FAIL" in line
             or "NOT VERIFIED" in line or "ERROR" in line.upper()]
    return False, (lines[0] if lines else f"exit code {done.returncode}")[:200]
