"""Every kernel registered with its interpreted twin tallies exactly as the twin does, on every example it gives.

A kernel's block functions are made by :func:`simlab.engine.interpreted.block_functions`, which
registers the pair with the resolved inputs worth checking (every branch its examples reach);
this one battery runs them all. Importing every module of simlab first registers every kernel.
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

#: The kernels whose twins are the kernel's own source interpreted (the others have written twins).
REGISTERED = {
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


def test_every_kernel_with_an_interpreted_twin_is_registered():
    assert set(TWINS) == REGISTERED


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_the_compiled_kernel_tallies_exactly_as_its_interpreted_twin(name):
    twins = TWINS[name]
    examples = twins.examples()
    assert examples, name
    key = stream_key(5, 2)
    for subject in examples:
        for ours, theirs in zip(twins.compiled(subject, key, 40, 340), twins.plain(subject, key, 40, 340), strict=True):
            np.testing.assert_array_equal(ours, theirs)
