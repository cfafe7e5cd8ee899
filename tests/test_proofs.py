"""Proofs of UNSAT claims: satdoku's DRAT and LRAT checkers accept real proofs, reject corrupt ones."""

from satdoku.cnf.checker import check_drat, check_lrat, parse_drat
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.sat.proofs import certify, refutation

NORVIG = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def _grid(text):
    return Grid(geometry(3, 3), tuple(0 if c == "." else int(c) for c in text))


def test_certify_unsolvable_is_checked(tmp_path):
    cert = certify(_grid(NORVIG), "unsolvable", str(tmp_path / "norvig"))
    assert cert.refuted and cert.ok, cert.summary()
    assert (tmp_path / "norvig.cnf").exists() and (tmp_path / "norvig.drat").exists()


def test_corrupt_proof_is_rejected(tmp_path):
    cert = certify(_grid(NORVIG), "unsolvable", str(tmp_path / "norvig"))
    clauses = refutation(_grid(NORVIG), "unsolvable").clauses
    steps = parse_drat((tmp_path / "norvig.drat").read_bytes())
    assert check_drat(clauses, steps).ok
    assert not check_drat(clauses, [s for s in steps if not s[1]][:1]).ok  # only the empty clause


def test_lrat_rejects_wrong_hint():
    clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert check_lrat(clauses, "5 2 0 1 2 0\n6 0 5 3 4 0\n").ok
    assert not check_lrat(clauses, "5 2 0 1 2 0\n6 0 5 3 0\n").ok


# --proof DIR on solve and count: every unsolvable and unique answer backed by a checked proof.

import json  # noqa: E402

import pytest  # noqa: E402

import satdoku  # noqa: E402
from conftest import PUZZLES, SAMPLE, SMALL, UNSOLVABLE_4X4, run_cli  # noqa: E402
from satdoku.errors import OptionError  # noqa: E402
from satdoku.sat import proofs  # noqa: E402
from satdoku.sat.proofs import check_files  # noqa: E402
from satdoku.tasks.commands import CountOptions  # noqa: E402


def _clauses(cnf):
    """The clauses of a DIMACS file (comments and header skipped)."""
    lines = cnf.read_text().splitlines()
    return [[int(t) for t in line.split()[:-1]] for line in lines
            if line and line[0] not in "cp"]


def test_count_proves_a_unique_puzzle(tmp_path):
    result = satdoku.count(SAMPLE, proof=str(tmp_path))
    proof = result.proof
    assert result.status == "unique" and proof["ok"] and proof["claim"] == "unique"
    assert "satdoku-drat" in proof["checked_by"] and not proof["rejected_by"]
    assert proof["cnf"] == str(tmp_path / "arg-1.cnf") and (tmp_path / "arg-1.drat").exists()
    assert "c claim: unique" in (tmp_path / "arg-1.cnf").read_text()


def test_solve_proves_an_unsolvable_puzzle_in_json(tmp_path):
    folder = tmp_path / "proofs"
    out = run_cli("solve", PUZZLES / "unsolvable.txt", "--proof", folder, "--format", "json")
    assert out.exit_code == 1, out.output
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["status"] for r in records] == ["unsolvable", "unsolvable"]
    assert [r["proof"]["drat"] for r in records] == [
        str(folder / "unsolvable-3.drat"), str(folder / "unsolvable-4.drat")]
    assert all(r["proof"]["ok"] for r in records) and records[0]["proof"]["lemmas"] > 0


def _rule_clauses(cnf):
    """The numbers (from 1) of the clauses the CNF's comments give to variant rules."""
    import re
    spans = re.findall(r"^c rule \d+: .*: clauses (\d+)-(\d+)$", cnf.read_text(), re.M)
    return {i for a, b in spans for i in range(int(a), int(b) + 1)}


def test_a_variant_puzzle_is_proved_with_its_rules(tmp_path):
    """The formula a variant's proof refutes is the puzzle's: its rules (without them the
    solution is not the only grid) and the clause ruling the solution out (its last clause;
    without it the formula has exactly that solution). 6x6 Extreme Killer has no given: its
    cages, minimum and maximum alone make it unique."""
    from pysat.solvers import Solver
    from satdoku.cnf.encodings import var
    killer = PUZZLES / "variants" / "6x6-extreme-killer.json"
    result = satdoku.count(str(killer), proof=str(tmp_path))
    assert result.status == "unique" and result.proof["ok"], result.proof
    clauses = _clauses(tmp_path / "6x6-extreme-killer-1.cnf")
    solution = [var(cell, d, 6) for cell, d in enumerate(result.solution.cells)]
    assert sorted(clauses[-1]) == sorted(-v for v in solution)  # no given: every cell
    with Solver(name="minisat22", bootstrap_with=clauses[:-1]) as solver:
        assert solver.solve() and set(solution) <= set(solver.get_model())
        solver.add_clause(clauses[-1])
        assert not solver.solve()  # the claim the proof certifies
    rules = _rule_clauses(tmp_path / "6x6-extreme-killer-1.cnf")
    assert len(rules) > 100
    without_rules = [c for i, c in enumerate(clauses, 1) if i not in rules]
    with Solver(name="minisat22", bootstrap_with=without_rules) as solver:
        assert solver.solve()  # another 6x6 grid: the rules are what the proof refutes


def test_drat_trim_checks_a_variant_proof_and_needs_every_clause(tmp_path):
    """drat-trim (scripts/build_drat_trim.sh; on PATH or SATDOKU_DRAT_TRIM) accepts the proof
    of a variant from puzzles/variants/ against the CNF satdoku wrote, and rejects it once the
    CNF loses its last clause (the other solution ruled out) or its variant rules."""
    import subprocess
    tool = proofs.external_checkers().get("drat-trim")
    if tool is None:
        pytest.skip("drat-trim is not on PATH (scripts/build_drat_trim.sh, SATDOKU_DRAT_TRIM)")
    killer = PUZZLES / "variants" / "6x6-extreme-killer.json"
    result = satdoku.count(str(killer), proof=str(tmp_path / "p"))
    assert result.proof["ok"] and "drat-trim" in result.proof["checked_by"], result.proof
    cnf, drat = tmp_path / "p" / "6x6-extreme-killer-1.cnf", result.proof["drat"]
    clauses = _clauses(cnf)
    rules = _rule_clauses(cnf)

    def verdict(kept):
        path = tmp_path / "cut.cnf"
        nvars = max(abs(lit) for c in clauses for lit in c)
        path.write_text(f"p cnf {nvars} {len(kept)}\n"
                        + "".join(" ".join(map(str, c)) + " 0\n" for c in kept))
        done = subprocess.run([tool, str(path), drat], capture_output=True, text=True,
                              timeout=60)
        return "s VERIFIED" in done.stdout.splitlines()
    assert verdict(clauses)
    assert not verdict(clauses[:-1])
    assert not verdict([c for i, c in enumerate(clauses, 1) if i not in rules])


def test_a_folder_with_proofs_is_refused(tmp_path):
    assert run_cli("count", SMALL, "--proof", tmp_path).exit_code == 0
    again = run_cli("count", SMALL, "--proof", tmp_path)
    assert again.exit_code == 2 and "holds proof files already (arg-1.cnf" in again.stderr
    with pytest.raises(OptionError, match="does not overwrite"):
        satdoku.count(SMALL, proof=str(tmp_path))
    with pytest.raises(OptionError, match="does not take --proof"):
        CountOptions(all=True, proof=str(tmp_path / "new"))


def test_two_puzzles_of_one_name_get_two_names(tmp_path):
    out = run_cli("count", SMALL, UNSOLVABLE_4X4, "--proof", tmp_path, "--format", "line")
    assert out.stdout.splitlines()[1] == "unsolvable"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".cnf") == [
        "arg-1-2.cnf", "arg-1.cnf"]
    assert "'unsolvable' proved: " in out.stderr


def test_a_corrupted_proof_is_rejected(tmp_path):
    result = satdoku.solve(NORVIG, proof=str(tmp_path))
    assert result.proof["ok"]
    cnf, drat = tmp_path / "arg-1.cnf", tmp_path / "arg-1.drat"
    lines = drat.read_text().splitlines()
    assert len(lines) > 1  # propagation alone does not refute it: the proof has lemmas
    drat.write_text("".join(f"{line}\n" for line in lines if line.split() == ["0"]))
    checks, _, _ = check_files(_clauses(cnf), str(cnf), str(drat))
    ours = next(c for c in checks if c.checker == "satdoku-drat")
    assert not ours.ok and not any(c.ok for c in checks)


def test_a_proof_that_fails_makes_the_answer_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(proofs, "_prove", lambda name, clauses, deadline: ["0"])
    result = satdoku.solve(NORVIG, proof=str(tmp_path))
    assert result.status == "error" and result.solution is None
    assert "REJECTED by satdoku-drat" in result.message and not result.proof["ok"]


@pytest.mark.parametrize("where, error, status", [
    ("_prove", "TimeUp", "timeout"), ("refutation", "TooBigError", "refused")])
def test_the_limits_bound_the_proof_run(tmp_path, monkeypatch, where, error, status):
    from satdoku import deadline, errors
    raised = getattr(deadline, error, None) or getattr(errors, error)

    def over(*args, **kwargs):
        raise raised("over the limit") if raised is errors.TooBigError else raised()
    monkeypatch.setattr(proofs, where, over)
    result = satdoku.count(SMALL, proof=str(tmp_path), timeout=30)
    assert result.status == status and "while proving the answer 'unique'" in result.message
    assert list(tmp_path.iterdir()) == []  # a proof run cut short leaves no file


def test_puzzles_the_batch_pass_settles_get_proofs(tmp_path, monkeypatch):
    """64 puzzles in a stream: the bit-sliced pre-pass answers them, the proofs still come."""
    from satdoku.sat.solver import SatSolver
    settled = []
    real = SatSolver.settle

    def spy(self, grids, limit):
        answers = real(self, grids, limit)
        settled.extend(a for a in answers if a is not None)
        return answers
    monkeypatch.setattr(SatSolver, "settle", spy)
    monkeypatch.setattr(proofs, "external_checkers", dict)  # ours only: 64 runs of drat-trim
    text = "".join(f"{SMALL}\n" for _ in range(64))
    out = run_cli("count", "-", "--proof", tmp_path, "--format", "line", input=text)
    assert out.exit_code == 0 and len(settled) == 64
    assert len(list(tmp_path.glob("*.drat"))) == 64


def test_workers_write_their_own_proofs(tmp_path):
    out = run_cli("count", SMALL, SAMPLE, UNSOLVABLE_4X4, "--jobs", "2", "--proof", tmp_path,
                  "--format", "csv")
    rows = out.stdout.splitlines()
    assert rows[0].endswith("proof_claim,proof_ok,proof_cnf,proof_drat,proof_lrat,"
                            "proof_checked_by")
    assert [r.split(",")[14:16] for r in rows[1:]] == [["unique", "true"]] * 2 + [
        ["unsolvable", "true"]]
    assert len(list(tmp_path.glob("*.drat"))) == 3


# decode --proof: an external solver's UNSAT answer, checked.

def _solver_proof(tmp_path, puzzle):
    """A model file saying UNSAT and the DRAT proof a solver gave of ``puzzle``'s formula."""
    from pysat.solvers import Solver
    from satdoku.cnf.formula import encode
    clauses = encode(_grid(puzzle), "extended", None, "units").clauses
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        assert not solver.solve()
        lines = solver.get_proof()
    (tmp_path / "model.txt").write_text("s UNSATISFIABLE\n")
    (tmp_path / "proof.drat").write_text("".join(f"{line}\n" for line in lines))
    return str(tmp_path / "model.txt"), str(tmp_path / "proof.drat")


def test_decode_checks_an_external_unsat_proof(tmp_path):
    from satdoku.io.dimacs import UnsatisfiableError
    model, drat = _solver_proof(tmp_path, NORVIG)
    out = run_cli("decode", model, "--puzzle", NORVIG, "--proof", drat, "--format", "json")
    record = json.loads(out.stdout)
    assert out.exit_code == 1 and record["status"] == "unsolvable"
    assert record["proof"]["ok"] and "satdoku-drat" in record["proof"]["checked_by"]
    with pytest.raises(UnsatisfiableError) as raised:
        satdoku.decode((tmp_path / "model.txt").read_text(), NORVIG, proof=drat)
    assert raised.value.proof["lemmas"] > 0
    unchecked = run_cli("decode", model, "--puzzle", NORVIG)  # no proof: as before
    assert unchecked.exit_code == 1 and "the puzzle is unsolvable" in unchecked.stderr


def test_decode_rejects_a_proof_of_another_formula(tmp_path):
    model, drat = _solver_proof(tmp_path, NORVIG)
    other = NORVIG.replace("5", ".", 1)  # one given fewer: the proof no longer refutes it
    out = run_cli("decode", model, "--puzzle", other, "--proof", drat, "--format", "json")
    record = json.loads(out.stdout)
    assert out.exit_code == 3 and record["status"] == "error"
    assert "REJECTED by satdoku-drat" in record["message"]
