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
