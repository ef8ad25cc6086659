"""The exact engine against icepool and brute-force enumeration, over the registry."""

import itertools

import numpy as np
import pytest

from simlab.mechanics.roll_under import THREE_D6
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.oracle import icepool_attack
from simlab.systems.hitech_tft.reference import damage_of_faces

icepool = pytest.importorskip("icepool")


def die_to_array(die, length):
    probs = np.zeros(length)
    for value, count in die.items():
        probs[value] += count / die.denominator()
    return probs


def test_exact_matches_icepool(case):
    scenario, rules, attack = case.build()
    outcome = exact_outcome(attack)
    oracle = icepool_attack(scenario, rules, attack.weapon, attack.armour, attack.adj_dx)
    hits, damage = outcome.joint.sum(axis=1), outcome.joint.sum(axis=0)
    np.testing.assert_allclose(die_to_array(oracle.hits, len(hits)), hits, atol=1e-12)
    np.testing.assert_allclose(die_to_array(oracle.damage, len(damage)), damage, atol=1e-12)
    knock = oracle.knock
    p_knockdown = sum(c for v, c in knock.items() if v >= rules.knockdown_threshold) / knock.denominator()
    p_stagger = sum(c for v, c in knock.items() if v >= rules.stagger_threshold) / knock.denominator()
    assert outcome.p_knockdown == pytest.approx(p_knockdown, abs=1e-12)
    assert outcome.p_stagger == pytest.approx(p_stagger, abs=1e-12)
    assert outcome.p_weapon_lost == pytest.approx(oracle.p_weapon_lost, abs=1e-12)
    assert outcome.joint.sum() == pytest.approx(1.0, abs=1e-12)


SMALL = [
    {"weapon": "lt pistol", "armor": "none"},
    {"weapon": "hvy pistol", "armor": "flak jacket", "dx": 9},
    {"weapon": "snub pistol HE", "armor": "nylon", "range_m": 13},
    {"weapon": "snub pistol HEAP", "armor": "combat TL12"},
    {"weapon": "broadsword", "armor": "flak jacket", "dx": 8},
    {"weapon": "dagger", "armor": "none"},
]


@pytest.mark.parametrize("criticals", [True, False])
@pytest.mark.parametrize("inputs", SMALL, ids=lambda s: s["weapon"])
def test_exact_matches_brute_force_enumeration_of_every_die(inputs, criticals):
    from conftest import Case

    _, _, attack = Case(inputs, {"criticals": criticals}).build()
    outcome = exact_outcome(attack)
    damage = np.zeros(outcome.joint.shape[1])
    stagger = 0.0
    for roll in range(3, 19):
        p_roll = THREE_D6.p_equal(roll)
        hits = int(attack.table.hits[roll])
        n = int(attack.dice_by_roll[roll])
        for faces in itertools.product(range(1, 7), repeat=n):
            p = p_roll / 6**n
            d, knock = damage_of_faces(attack, hits, list(faces))
            damage[d] += p
            stagger += p * (knock >= attack.stagger_threshold)
    np.testing.assert_allclose(outcome.joint.sum(axis=0), damage, atol=1e-12)
    assert outcome.p_stagger == pytest.approx(stagger, abs=1e-12)
