"""Every python-sat solver satdoku uses is made here (:func:`new_solver`).

The default, CaDiCaL 1.9.5, is driven straight through python-sat's compiled module
(``pysolvers``) by :class:`Cadical`, without python-sat's Python layer: ``import pysat.solvers``
loads that layer's engines, formulas, typing, threading and tempfile, 20 ms of CPU, which was
most of a one-puzzle run (``import pysolvers`` alone takes 4 ms; docs/performance.md). The calls
are the ones ``pysat.solvers.Cadical195`` makes, with the same arguments, so the answers, models
and cores are the same (tests/test_binding.py compares them). Any other solver, a proof, or a
python-sat build whose module lacks one of those calls gets python-sat's own ``Solver``.
"""

from __future__ import annotations

import functools
import signal
import sys

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Iterable, Sequence

__all__ = ["new_solver", "configure", "abandon", "Cadical", "DIRECT_SOLVER"]

#: The solver :class:`Cadical` drives directly.
DIRECT_SOLVER = "cadical195"

#: The calls of python-sat's compiled module that :class:`Cadical` makes.
_CALLS = ("new", "add_cl", "solve", "solve_lim", "cbudget", "model", "core", "nof_vars",
          "nof_cls", "acc_stats", "set", "setphases", "del")


@functools.cache
def _module() -> Any:
    """python-sat's compiled module when it has every call :class:`Cadical` makes, else None
    (looked at once)."""
    try:
        import pysolvers  # type: ignore[import-not-found]  # python-sat's compiled module
    except ImportError:  # pragma: no cover - python-sat always ships it
        return None
    if all(hasattr(pysolvers, f"{DIRECT_SOLVER}_{call}") for call in _CALLS):
        return pysolvers
    return None  # pragma: no cover - a python-sat whose module changed: its Python layer


def new_solver(name: str, clauses: Iterable[Sequence[int]] | None = None, *,
               with_proof: bool = False) -> Any:
    """A new python-sat solver ``name`` (canonical: see
    :func:`satdoku.sat.catalogue.check_sat_solver`), holding ``clauses``; ``with_proof``: one
    that keeps its DRAT proof (python-sat's own)."""
    module = _module() if name == DIRECT_SOLVER and not with_proof else None
    if module is not None:
        solver: Any = Cadical(module)
    else:
        from pysat.solvers import MainThread, Solver
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            # A background job: keep python-sat from turning SIGINT back into
            # KeyboardInterrupt inside a call (its handler is set whatever the signal's state)
            MainThread.check = staticmethod(lambda: False)
        solver = Solver(name=name, with_proof=with_proof) if with_proof else Solver(name=name)
    if clauses is not None:
        solver.append_formula(clauses)
    return solver


def configure(solver: Any, settings: dict[str, int]) -> None:
    """Set options of a solver :func:`new_solver` made (python-sat's ``Solver`` keeps its
    engine in ``.solver``; older releases configure only there)."""
    getattr(solver, "solver", solver).configure(settings)


def abandon(solver: Any) -> None:
    """Let a solver stopped inside a call go unfreed: freeing it can crash (CaDiCaL); its
    ``delete`` is then a no-op."""
    if isinstance(solver, Cadical):
        solver._s = None
        return
    inner = getattr(solver, "solver", solver)
    for name, value in list(vars(inner).items()):
        if type(value).__name__ == "PyCapsule":
            setattr(inner, name, None)


def _main_thread() -> int:
    """1 when the compiled module may catch Ctrl-C during a call: in the main thread (only
    it may set a signal handler), with SIGINT not ignored (a background job keeps it
    ignored). Read at every call, as python-sat does: a solver may be made in one thread and
    used in another."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return 0
    threading = sys.modules.get("threading")  # no other thread was started without it
    return int(threading is None or threading.main_thread().ident == threading.get_ident())


class Cadical:
    """CaDiCaL 1.9.5 through python-sat's compiled module: the methods of python-sat's
    ``Solver`` that satdoku calls, with the same answers. After :meth:`delete` (or
    :func:`abandon`) every call does nothing and answers None, as python-sat's do."""

    __slots__ = ("_m", "_s", "status", "_assumptions")

    def __init__(self, module: Any) -> None:
        self._m = module
        self._s = module.cadical195_new()
        self.status: bool | None = None
        self._assumptions: list[int] = []

    def __enter__(self) -> "Cadical":
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete()

    def __del__(self) -> None:
        self.delete()

    def delete(self) -> None:
        if getattr(self, "_s", None) is not None:  # None: deleted (or never made)
            self._m.cadical195_del(self._s, None)
            self._s = None
            self.status = None

    def configure(self, settings: dict[str, int]) -> None:
        if self._s is not None:
            for name, value in settings.items():
                self._m.cadical195_set(self._s, name, value)

    def add_clause(self, clause: Sequence[int], no_return: bool = True) -> bool | None:
        if self._s is None:
            return None
        ok = self._m.cadical195_add_cl(self._s, clause)
        if not ok:
            self.status = False
        return None if no_return else ok

    def append_formula(self, clauses: Iterable[Sequence[int]], no_return: bool = True) -> None:
        add, s = self._m.cadical195_add_cl, self._s
        if s is None:
            return
        for clause in clauses:
            if not add(s, clause):
                self.status = False

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        if self._s is None:
            return None
        assumptions = list(assumptions)
        self.status = bool(self._m.cadical195_solve(self._s, assumptions, _main_thread()))
        self._assumptions = assumptions
        return self.status

    def solve_limited(self, assumptions: Sequence[int] = (),
                      expect_interrupt: bool = False) -> bool | None:
        if self._s is None:
            return None
        assumptions = list(assumptions)
        answer = self._m.cadical195_solve_lim(self._s, assumptions, _main_thread())
        self.status = None if answer == 0 else answer > 0
        self._assumptions = assumptions
        return self.status

    def conf_budget(self, budget: int = -1) -> None:
        if self._s is not None:
            self._m.cadical195_cbudget(self._s, budget)

    def set_phases(self, literals: Sequence[int] = ()) -> None:
        if self._s is not None:
            self.configure({"lucky": 0})  # as python-sat does: lucky phases would override
            self._m.cadical195_setphases(self._s, list(literals))

    def get_model(self) -> list[int] | None:
        if self.status is not True or self._s is None:
            return None
        model = self._m.cadical195_model(self._s)
        return model if model is not None else []

    def get_core(self) -> list[int] | None:
        if self.status is not False or self._s is None:
            return None
        return self._m.cadical195_core(self._s, self._assumptions)

    def nof_vars(self) -> int | None:
        return None if self._s is None else self._m.cadical195_nof_vars(self._s)

    def nof_clauses(self) -> int | None:
        return None if self._s is None else self._m.cadical195_nof_cls(self._s)

    def accum_stats(self) -> dict[str, int] | None:
        return None if self._s is None else self._m.cadical195_acc_stats(self._s)
