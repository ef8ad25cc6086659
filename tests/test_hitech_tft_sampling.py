"""Samplers against the exact distributions, each other, and themselves across threads."""

import numpy as np
import pytest
from conftest import REGISTRY, Case, chi_square_p
from scipy import stats

from simlab.systems.hitech_tft import kernels
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.sample import sample_outcome

ALPHA = 0.001


CHI_CASES = REGISTRY[::9] + REGISTRY[-11:]


@pytest.mark.slow
@pytest.mark.parametrize("case", CHI_CASES, ids=[c.id for c in CHI_CASES])
def test_sampler_matches_exact_distribution_chi_square(case):
    _, _, attack = case.build()
    trials = 200_000
    exact = exact_outcome(attack)
    sampled = sample_outcome(attack, trials=trials, seed=20261130, threads=1)
    joint = sampled.tallies[0]
    n_hits = min(joint.shape[0], exact.joint.shape[0])
    assert joint[n_hits:].sum() == 0
    assert chi_square_p(joint.sum(axis=0)[: exact.joint.shape[1]], exact.joint.sum(axis=0)) > ALPHA
    assert chi_square_p(joint.sum(axis=1)[:n_hits], exact.joint.sum(axis=1)[:n_hits]) > ALPHA
    for name, count, p in [
        ("stagger", sampled.tallies[1][kernels.STAGGER], exact.p_stagger),
        ("knockdown", sampled.tallies[1][kernels.KNOCKDOWN], exact.p_knockdown),
        ("lost", sampled.tallies[1][kernels.LOST], exact.p_weapon_lost),
    ]:
        assert stats.binomtest(int(count), trials, p).pvalue > ALPHA if 0 < p < 1 else count == p * trials, name
    for name, value in exact.extras.items():
        low, high = sampled.ci95[name]
        half = (high - low) / 2
        assert abs(sampled.outcome.extras[name] - value) <= 2 * half + 1e-12, name


@pytest.mark.parametrize(
    "inputs",
    [
        {"weapon": "assault rifle", "mode": "four", "armor": "flak jacket", "range_m": 20},
        {"weapon": "grenade TL10", "armor": "nylon"},
        {"weapon": "hvy pistol", "quickdraw": True},
    ],
    ids=lambda s: s["weapon"],
)
def test_sampled_output_is_identical_for_any_threads_and_block_size(inputs):
    _, _, attack = Case(inputs).build()
    runs = [
        sample_outcome(attack, trials=300_001, seed=5, threads=threads, block_size=block)
        for threads, block in [(1, 65536), (2, 65536), (2, 4099), (1, 1 << 20)]
    ]
    for run in runs[1:]:
        for a, b in zip(runs[0].tallies, run.tallies, strict=True):
            np.testing.assert_array_equal(a, b)
    assert runs[0].ci95 == runs[-1].ci95
