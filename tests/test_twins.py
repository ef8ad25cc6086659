"""Every compiled kernel tallies exactly as each of its registered twins does, on every example it gives.

A kernel registers with its twins and the resolved inputs worth checking (every branch its
examples reach): :func:`simlab.engine.interpreted.block_functions` registers a kernel with its
own source run by the interpreter, :func:`~simlab.engine.interpreted.register_twins` one with the
plain-Python and numpy references written apart from it. This one battery runs them all.
Importing every module of simlab first registers every kernel.
"""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np
import pytest

import simlab
from simlab.engine.interpreted import TWINS
from simlab.engine.rng import stream_key

for module in pkgutil.walk_packages(simlab.__path__, "simlab."):
    if not module.name.startswith(("simlab.web", "simlab.__main__")):
        importlib.import_module(module.name)

#: Every compiled sampler of simlab.
REGISTERED = {
    "simlab.systems.hitech_tft.kernels:direct_fire_block",
    "simlab.systems.hitech_tft.kernels:blast_block",
    "simlab.systems.striker.kernels:attack_block",
    "simlab.systems.striker.kernels:duel_block",
    "simlab.systems.tyconian.kernels:attack_block",
    "simlab.systems.tyconian.duel_kernel:duel_block",
    "simlab.systems.hitech_tft.battle_kernel:battle_block",
    "simlab.systems.striker.battle_kernel:battle_block",
    "simlab.systems.tyconian.battle_kernel:battle_block",
    "simlab.systems.space_v4.battle_kernel:battle_block",
    "simlab.systems.space_v4.kernels:attack_block",
    "simlab.systems.space_v4.kernels:duel_block",
    "simlab.systems.tyconian.questions.blast_kernels:blast_block",
    "simlab.systems.tyconian.questions.flame_kernels:flame_block",
    "simlab.systems.tyconian.questions.melee_kernels:melee_block",
    "simlab.systems.tyconian.questions.healing_kernels:healing_block",
}


def test_every_kernel_is_registered_with_its_twins():
    assert set(TWINS) == REGISTERED


def padded(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``array`` with zeros after its last rows and columns, to ``shape`` (tallies sized by the largest value seen)."""
    return np.pad(array, [(0, n - m) for m, n in zip(array.shape, shape, strict=True)])


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_the_compiled_kernel_tallies_exactly_as_its_twins(name):
    twins = TWINS[name]
    examples = twins.examples()
    assert examples, name
    key = stream_key(5, 2)
    for subject in examples:
        ours = twins.compiled(subject, key, 40, 340)
        for reference in twins.references(subject):
            theirs = reference(subject, key, 40, 340)
            assert len(ours) == len(theirs), (name, reference)
            for mine, other in zip(ours, theirs, strict=True):
                shape = tuple(max(a, b) for a, b in zip(np.shape(mine), np.shape(other), strict=True))
                np.testing.assert_array_equal(padded(np.asarray(mine), shape), padded(np.asarray(other), shape))
