import itertools

import numpy as np
import pytest

from simlab.engine.pmf import PMF, dice_sum, die, mixture, point


def test_3d6_matches_enumeration():
    counts = np.zeros(19)
    for faces in itertools.product(range(1, 7), repeat=3):
        counts[sum(faces)] += 1
    pmf = dice_sum(3, 6)
    assert pmf.offset == 3
    np.testing.assert_allclose(pmf.probs, counts[3:] / 216)
    assert pmf.mean() == pytest.approx(10.5)
    assert pmf.variance() == pytest.approx(35 / 4)


def test_times_is_repeated_addition():
    d = die(6).map(lambda v: np.maximum(v - 2, 0))
    by_loop = point(0)
    for _ in range(5):
        by_loop = by_loop + d
    np.testing.assert_allclose(d.times(5).probs, by_loop.probs)
    assert d.times(0).to_dict() == {0: 1.0}


def test_mixture_clamp_scale_and_tails():
    m = mixture([0.25, 0.75], [point(2), die(4)])
    assert m.total() == pytest.approx(1.0)
    assert m.p_equal(2) == pytest.approx(0.25 + 0.75 / 4)
    assert m.p_at_least(4) == pytest.approx(0.75 / 4)
    assert (die(6) + -3).clamp_low(0).p_equal(0) == pytest.approx(0.5)
    assert die(2).scale(2).to_dict() == {2: 0.5, 4: 0.5}


def test_pmf_is_immutable():
    pmf = PMF(0, np.array([0.5, 0.5]))
    with pytest.raises(ValueError):
        pmf.probs[0] = 1.0
