"""SE's nested forcing chains: dynamic forcing chains that, when a propagation runs dry, apply
other techniques to the board its offs leave (the "advanced" potentials of Sudoku Explainer
1.2.1's ``Chaining``), one rung a nesting level (:mod:`satdoku.native.dynamic` has the
propagation and the searches):

- level 1 (9.0, "+"): locking, hidden and naked pairs, X-wings (:data:`BASIC`);
- level 2 (9.5, "+ Forcing Chains"): those, then cycles and forcing chains
  (:func:`~satdoku.native.chains.every_chain`);
- level 3 (10.0, "+ Multiple Forcing Chains"): those, then multiple forcing chains (rung 8.0's
  deductions, static);
- level 4 (10.5, "+ Dynamic Forcing Chains", SE's first "experimental" level): the basic
  rules, then dynamic forcing chains (rung 8.5's deductions).

A removal made inside rests on the offs the step needs gone (``NamedStep.absent``: for a
chain, SE's rule parents, what each of its ons came from, its cell's other digits or its
digit's other places in a house); a chain made inside adds its own complexity, once, to every
deduction that rests on it. SE has two more rungs at level 4 (dynamic forcing chains "+" and
nested inside, 10.5 and up): the ladder stops before them.
"""

from __future__ import annotations

from functools import partial

from .chains import every_chain
from .dynamic import Finder, dynamic_forcing_chain, multiple_forcing_chain
from .named import every_fish, every_hidden_set, every_locking, every_naked_set

__all__ = ["BASIC", "dynamic_forcing_chain_plus", "nested_forcing_chain",
           "nested_multiple_forcing_chain", "nested_dynamic_forcing_chain"]


def _simple(every):
    """A rule applied inside dynamic chains from a finder of every step: (step, 0) each."""
    return lambda board, deadline, since: ((step, 0) for step in every(board))


#: What every nesting level applies first: locking, hidden and naked pairs, X-wings.
BASIC = (_simple(every_locking), _simple(partial(every_hidden_set, k=2)),
         _simple(partial(every_naked_set, k=2)), _simple(partial(every_fish, k=2)))

#: The rungs, in SE's order; each rule set is tried when the one before found nothing.
dynamic_forcing_chain_plus = Finder(9.0, y=True, dynamic=True, nishio=False, level=1,
                                    rules=(BASIC,))
nested_forcing_chain = Finder(9.5, y=True, dynamic=True, nishio=False, level=2,
                              rules=(BASIC, (every_chain,)))
nested_multiple_forcing_chain = Finder(10.0, y=True, dynamic=True, nishio=False, level=3,
                                       rules=(BASIC, (every_chain,),
                                              (multiple_forcing_chain.every,)))
nested_dynamic_forcing_chain = Finder(10.5, y=True, dynamic=True, nishio=False, level=4,
                                      rules=(BASIC, (dynamic_forcing_chain.every,)))
