"""56's strategy dispatch (simulator/games/fifty_six/dispatch.py, generated from the registry):
each built-in's fast paths on the kernel's hand masks (the bid_mask and play_mask hooks)
decide exactly as its decisions do through the array interface, and the hooks tell the
built-ins that share them apart by their pinned ids."""
import dataclasses

import numpy as np
import pytest

from cardsim.simulator.games.fifty_six import dispatch as D
from cardsim.simulator.runner import RunSpec, Runner
from cardsim.strategies.fifty_six import (
    BUILTIN_IDS, BUILTINS, CONVENTIONAL_ID, REGISTRY, heuristic_bid_mask, heuristic_play_slot,
    random_bid_mask, random_play_slot,
)
from tests.helpers_fifty_six import GAME

# open trumps (conventional signals only when it sees partner's trump) and hidden ones (the
# reveal decision too)
RULES = ({}, {"hidden_trump": True})


def _through_pointers(name):
    """Built-in ``name`` as a plug-in: the kernel asks it through its function pointers and
    the array interface, never through a hook."""
    return dataclasses.replace(REGISTRY[name], name=f"ptr_{name}", plugin=True, id=None,
                               hooks={})


def _tables(strategies, rules, registry=None, count=150):
    rules = GAME.rules.resolve(rules)
    deals, games = Runner(RunSpec(GAME, rules, strategies, seed=11, count=count,
                                  seating="fixed", registry=registry, debug=True)
                          ).play_chunk(0, count, 1)
    return deals, games


def test_every_builtin_declares_both_hooks_and_shares_them():
    for d in BUILTINS:
        if d.name == "expert":  # the search: through pointers, so kernels never compile it
            assert d.pointer and not d.hooks
            continue
        assert set(d.hooks) == {"bid_mask", "play_mask"}, d.name
        if d.name == "random":
            assert d.hooks == {"bid_mask": random_bid_mask, "play_mask": random_play_slot}
        else:  # one function per hook for every heuristic: one call site of _bid
            assert d.hooks == {"bid_mask": heuristic_bid_mask,
                               "play_mask": heuristic_play_slot}, d.name
    assert BUILTIN_IDS["conventional"] == CONVENTIONAL_ID


@pytest.mark.parametrize("rules", RULES, ids=("open", "hidden"))
@pytest.mark.parametrize("name", [d.name for d in BUILTINS if not d.pointer])
def test_hooks_decide_as_the_array_interface(name, rules):
    """Whole games of the built-in against the same strategy asked through its pointers, on
    the same deals: byte-identical tables."""
    registry = {f"ptr_{name}": _through_pointers(name)}
    direct = _tables([name], rules)
    for strategies in ([f"ptr_{name}"], [f"0={name}", f"1=ptr_{name}"]):
        via = _tables(strategies, rules, registry)
        assert direct[0].equals(via[0]) and direct[1].equals(via[1]), strategies


def test_the_bid_hook_tells_conventional_from_the_evaluator_by_id():
    """Same deals and parameters, the signalling forms only for conventional's id."""
    conv = _tables(["conventional"], {})[0]
    ev = _tables(["evaluator"], {})[0]
    assert not conv.equals(ev)
    signals = {"noes", "plus_suit", "plus_two_noes"}
    forms = [set(t["bid_form"].cast(str)) for t in (conv, ev)]
    assert signals <= forms[0] and not signals & forms[1]


def test_plugins_get_the_hooks_default():
    from numba import njit

    @njit
    def call_hooks(sid):
        z = np.uint64(0)
        i16 = np.zeros(4, np.int16)
        legal = np.zeros(16, np.int8)
        params = np.zeros(40, np.float64)
        rng = np.zeros(2, np.uint64)
        return (D.hook_bid_mask(sid, z, i16, i16, legal, params, rng),
                D.hook_play_mask(sid, z, z, i16, i16, params, z, z, rng))

    assert call_hooks(-1) == (-1, -1)
