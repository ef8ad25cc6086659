"""Bradley-Terry strengths: the maximum-likelihood fit of a matrix of scores, one strength per option."""

from __future__ import annotations

import numpy as np

from simlab.inputs.errors import SimlabError

__all__ = [
    "STRENGTH_CLIP",
    "STRENGTH_TOLERANCE",
    "strengths",
]


#: A score of exactly 0 or 1 (a sweep) has no finite Bradley-Terry strength: it is read as one fight in a thousand.
STRENGTH_CLIP = 1e-3


#: Bradley-Terry is fitted until no option's gradient of the log-likelihood exceeds this.
STRENGTH_TOLERANCE = 1e-10


def strengths(score: np.ndarray, tolerance: float = STRENGTH_TOLERANCE) -> np.ndarray:
    """Bradley-Terry strengths (log scale, mean 0): the maximum-likelihood fit to the scores.

    ``P(i beats j) = e^s_i / (e^s_i + e^s_j)``, each score ``score[i, j]`` counted as i's share of
    one fight against j. The log-likelihood is concave; Newton's method with step halving climbs it
    until every option's gradient is below ``tolerance`` (the strengths are then exact to about
    that much). A score of exactly 0 or 1 has no finite maximum (a sweep makes the winner
    infinitely strong), so scores are read within [:data:`STRENGTH_CLIP`, 1 - :data:`STRENGTH_CLIP`]
    (one fight in a thousand): a dominant option gets a large but finite strength.

    Args:
        score: One matrix (n × n), or a stack of them (r × n × n) fitted at once.
        tolerance: The largest gradient of the log-likelihood left.

    Returns:
        The strengths: n of them, or r × n for a stack.

    Raises:
        SimlabError: Should the fit not converge in 200 steps (never seen: it converges in about ten).
    """
    n = score.shape[-1]
    off = ~np.eye(n, dtype=bool)
    wins = np.where(off, np.clip(score, STRENGTH_CLIP, 1 - STRENGTH_CLIP), 0.0)
    played = wins + np.swapaxes(wins, -1, -2)  # fights between each pair: 1 where the matrix is fair
    strength = np.zeros(score.shape[:-1])

    def likelihood(s: np.ndarray) -> np.ndarray:
        gap = s[..., :, None] - s[..., None, :]
        return np.where(off, -wins * np.logaddexp(0.0, -gap), 0.0).sum(axis=(-1, -2))  # Σ w log σ(s_i - s_j)

    gauge = np.ones((n, n)) / n  # fixes the mean (the likelihood does not see a common shift)
    for _ in range(200):
        chance = np.where(off, 1.0 / (1.0 + np.exp(strength[..., None, :] - strength[..., :, None])), 0.0)
        gradient = (wins - chance * played).sum(axis=-1)
        if np.abs(gradient).max() < tolerance:
            break
        curvature = played * chance * np.swapaxes(chance, -1, -2)
        laplacian = np.eye(n) * curvature.sum(axis=-1)[..., None] - curvature
        step = np.linalg.solve(laplacian + gauge, gradient[..., None])[..., 0]
        before = likelihood(strength)
        scale = np.ones((*score.shape[:-2], 1))
        for _ in range(40):  # halve the step where it would lower the likelihood
            tried = strength + scale * step
            worse = likelihood(tried) < before - 1e-12 * np.abs(before)
            if not worse.any():
                break
            scale = np.where(worse[..., None], scale / 2, scale)
        strength = tried - tried.mean(axis=-1, keepdims=True)
    else:  # pragma: no cover - a concave likelihood with a finite maximum converges
        raise SimlabError("the Bradley-Terry strengths did not converge")
    centred: np.ndarray = strength - strength.mean(axis=-1, keepdims=True)
    return centred
