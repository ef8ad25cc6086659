"""Compiled samplers of HiTech TFT attacks (docs/architecture.md, principle 3).

Private ``@njit(cache=True, nogil=True)`` kernels that run trials ``[start, stop)`` of one
cell and add int64 tallies into the arrays they are given. They know nothing of tables,
validation or output: :mod:`simlab.systems.hitech_tft.sample` prepares their inputs from a
:class:`~simlab.systems.hitech_tft.resolve.ResolvedAttack`, and
:mod:`simlab.systems.hitech_tft.reference` holds plain Python and numpy twins that produce
identical tallies.

Draw layout of one trial (positions in the trial's window of the cell's stream):

* direct fire: quickdraw roll at 1-3 (only with quickdraw), attack roll at the next three
  positions, then damage die ``i`` at ``first_die + i``;
* blast: the same rolls, then the scatter die, then damage dice; the figures at distance
  ``k`` from a blast roll their dice at ``DISTANCE_WINDOW * (k + 1) + i``.

The direct-fire kernel works on chunks of trials so that the compiler can vectorise the
draws (see :func:`direct_fire_block`). Every kernel makes exactly the draws the rules use,
and its ``draws`` tally counts them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, die_from_draw, mix64

# Indices of the ``counts`` tally.
STAGGER, KNOCKDOWN, LOST, DRAWS, DICE, DICE_SQ = range(6)
N_COUNTS = 6
#: Trials per chunk of the direct-fire kernel.
CHUNK = 2048
#: Stride between the windows of the distance figures in a blast trial.
DISTANCE_WINDOW = 4096
#: Distances 0..N_DISTANCES-1 whose figures the blast kernel samples.
N_DISTANCES = 4
#: Sub-histograms the tallies are spread over (breaks store-to-load dependencies).
LANES = 4


@njit(inline="always")
def _roll_3d6(w: np.uint64, gamma: np.uint64) -> np.int64:  # pragma: no cover - compiled
    """3d6 from the three draws after position ``w``."""
    return (
        die_from_draw(mix64(w + gamma), 6)
        + die_from_draw(mix64(w + np.uint64(2) * gamma), 6)
        + die_from_draw(mix64(w + np.uint64(3) * gamma), 6)
    )


@njit(inline="always")
def _attack_outcome(
    hits: np.int64,
    taken: np.int64,
    raw: np.int64,
    protection: np.int64,
    per_die: bool,
    adds_per_hit: np.int64,
    factor: np.int64,
    soft: bool,
) -> tuple[np.int64, np.int64]:  # pragma: no cover - compiled
    """Damage taken and knockdown damage from the dice sums (TFT-4, TFT-5.1)."""
    adds = hits * adds_per_hit
    through = taken + adds if per_die else raw + adds - protection
    damage = (through if through > 0 else 0) * factor
    before = raw + adds
    knock = (before if before > 0 else 0) if soft else damage
    return damage, knock


@njit(inline="always")
def _die_through(x: np.uint64, protection: np.int64) -> np.int64:  # pragma: no cover - compiled
    """One damage die from draw ``x``, packed: face in the high half, damage through armour low."""
    face = die_from_draw(x, 6)
    through = face - protection
    return (face << 32) + (through if through > 0 else 0)


@njit(cache=True, nogil=True, error_model="numpy")
def direct_fire_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    quickdraw_dx: int,
    class_of_roll: np.ndarray,
    class_hits: np.ndarray,
    class_dice: np.ndarray,
    class_lost: np.ndarray,
    protection: int,
    per_die: bool,
    adds_per_hit: int,
    factor: int,
    soft: bool,
    stagger_threshold: int,
    knockdown_threshold: int,
    n_damage: int,
    joint: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample direct-fire attacks (TFT-3 to TFT-5) and add their tallies.

    The 3d6 totals fall into a few *classes*, the totals with the same hits, damage dice
    and weapon loss (a miss, one hit, two hits, a critical double...). Per chunk of trials
    the kernel rolls every attack, sorts the trials into their classes, and then rolls each
    class's dice slot by slot over all its trials at once: loops of fixed length that the
    compiler turns into SIMD code, with no draw made that the rules do not use.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        quickdraw_dx: DX of the quickdraw roll, or -1 without quickdraw (TFT-6.3).
        class_of_roll: Class of each 3d6 total (index 0: no attack).
        class_hits: Hits of each class.
        class_dice: Damage dice of each class (hits x dice x critical multiplier).
        class_lost: 1 where the class loses the weapon.
        protection: Armour per die (per_die) or per attack.
        per_die: Per-die (missile) or whole-attack (melee) armour.
        adds_per_hit: Damage adds of one hit.
        factor: Multiplier of the damage through armour (HE/HEAP: 2).
        soft: Knockdown from the damage before armour.
        stagger_threshold: TFT-5.2.
        knockdown_threshold: TFT-5.2.
        n_damage: Damage values tallied, ``0..n_damage-1`` (the caller sizes it to the largest damage).
        joint: ``(LANES, n_hits * n_damage)`` histogram of (hits, damage), flattened: cell
            ``h * n_damage + d``; the caller sizes ``n_hits`` to the largest hits of any class
            (autofire can score more hits than there are 3d6 totals).
        counts: Tallies indexed by STAGGER, KNOCKDOWN, LOST, DRAWS, DICE, DICE_SQ.
    """
    n_classes = class_hits.shape[0]
    base = np.empty(CHUNK, np.uint64)
    class_of = np.empty(CHUNK, np.int64)
    packed = np.empty(CHUNK, np.int64)
    members = np.empty(n_classes * CHUNK, np.uint64)
    end = np.empty(n_classes, np.int64)
    class_count = np.zeros(n_classes, np.int64)
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    g_first = np.uint64(7 if quickdraw_dx >= 0 else 4) * gamma
    g3 = np.uint64(3) * gamma
    stagger = 0
    knockdown = 0
    draws = 0
    for chunk_start in range(start, stop, CHUNK):
        n = min(CHUNK, stop - chunk_start)
        w0 = offset + np.uint64(chunk_start) * stride
        # The attack rolls (and the quickdraw rolls before them), vectorised.
        if quickdraw_dx >= 0:
            attackers = 0
            for t in range(n):
                w = w0 + np.uint64(t) * stride
                base[t] = w
                drawn = _roll_3d6(w, gamma) <= quickdraw_dx
                attackers += 1 if drawn else 0
                class_of[t] = class_of_roll[_roll_3d6(w + g3, gamma) if drawn else 0]
            draws += 3 * n + 3 * attackers
        else:
            for t in range(n):
                w = w0 + np.uint64(t) * stride
                base[t] = w
                class_of[t] = class_of_roll[_roll_3d6(w, gamma)]
            draws += 3 * n
        # Sort the trials into their classes.
        for c in range(n_classes):
            end[c] = c * CHUNK
        for t in range(n):
            c = class_of[t]
            slot = end[c]
            members[slot] = base[t]
            end[c] = slot + 1
        for c in range(n_classes):
            first = c * CHUNK
            m = end[c] - first
            if m == 0:
                continue
            class_count[c] += m
            k = class_dice[c]
            hits = class_hits[c]
            row = hits * n_damage
            # The class's damage dice, slot by slot (face and damage through, packed).
            for j in range(m):
                packed[j] = 0
            g_i = g_first
            for _ in range(k):
                for j in range(m):
                    packed[j] += _die_through(mix64(members[first + j] + g_i), protection)
                g_i += gamma
            draws += m * k
            # Outcomes, then the histogram (scattered over LANES copies).
            for j in range(m):
                damage, knock = _attack_outcome(
                    hits, packed[j] & 0xFFFFFFFF, packed[j] >> 32, protection, per_die, adds_per_hit, factor, soft
                )
                packed[j] = row + min(damage, n_damage - 1)
                stagger += knock >= stagger_threshold
                knockdown += knock >= knockdown_threshold
            for j in range(m):
                joint[j & (LANES - 1), packed[j]] += 1
    for c in range(n_classes):
        counts[LOST] += class_count[c] * class_lost[c]
        counts[DICE] += class_count[c] * class_dice[c]
        counts[DICE_SQ] += class_count[c] * class_dice[c] * class_dice[c]
    counts[STAGGER] += stagger
    counts[KNOCKDOWN] += knockdown
    counts[DRAWS] += draws


@njit(inline="always")
def _armoured_dice(
    w: np.uint64, gamma: np.uint64, n: np.int64, protection: np.int64
) -> tuple[np.uint64, np.int64, np.int64]:  # pragma: no cover - compiled
    """Roll ``n`` dice after position ``w``: (new position, damage through per-die armour, raw)."""
    taken = 0
    raw = 0
    for _ in range(n):
        w += gamma
        d = die_from_draw(mix64(w), 6)
        raw += d
        if d > protection:
            taken += d - protection
    return w, taken, raw


@njit(cache=True, nogil=True, error_model="numpy")
def blast_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    quickdraw_dx: int,
    hits_by_roll: np.ndarray,
    mult_by_roll: np.ndarray,
    lost_by_roll: np.ndarray,
    dice_at: np.ndarray,
    protection_at: np.ndarray,
    adds: int,
    factor: int,
    soft: bool,
    stagger_threshold: int,
    knockdown_threshold: int,
    joint: np.ndarray,
    counts: np.ndarray,
    distance_sums: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample blast attacks (TFT-7) and add their tallies.

    A hit puts the target in the blast hex (critical multiplier on the dice); a miss
    scatters ``1d6`` hexes, which is then the target's distance from the blast. Each trial
    also rolls the damage of one figure at each distance ``0..N_DISTANCES-1``.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        quickdraw_dx: Always -1 (blast weapons cannot be quickdrawn); kept for the layout.
        hits_by_roll: 1 where the total hits (index 0: no attack).
        mult_by_roll: Critical dice multiplier per total.
        lost_by_roll: 1 where the total loses the weapon.
        dice_at: Dice at hex distance k from the blast.
        protection_at: Armour per die at distance k.
        adds: Damage adds of the blast.
        factor: Multiplier of damage through armour.
        soft: Knockdown from the damage before armour.
        stagger_threshold: TFT-5.2.
        knockdown_threshold: TFT-5.2.
        joint: ``(LANES, 2, n_damage)`` histogram of (hit, damage).
        counts: Tallies indexed by STAGGER, KNOCKDOWN, LOST, DRAWS, DICE, DICE_SQ.
        distance_sums: ``(N_DISTANCES, 2)``: sum and sum of squares of the damage at k.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    n_damage = joint.shape[2]
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        draws = 0
        slot = 0
        attacks = True
        if quickdraw_dx >= 0:
            attacks = _roll_3d6(w, gamma) <= quickdraw_dx
            w += np.uint64(3) * gamma
            draws += 3
        hit = 0
        damage = 0
        knock = 0
        n = 0
        if attacks:
            slot = _roll_3d6(w, gamma)
            w += np.uint64(3) * gamma
            draws += 3
            hit = hits_by_roll[slot]
            if hit > 0:
                distance = 0
                n = dice_at[0] * mult_by_roll[slot]
            else:
                w += gamma
                distance = die_from_draw(mix64(w), 6)
                draws += 1
                n = dice_at[distance]
            w, taken, raw = _armoured_dice(w, gamma, n, protection_at[distance])
            draws += n
            damage, knock = _attack_outcome(1, taken, raw, 0, True, adds, factor, soft)
            if damage >= n_damage:
                damage = n_damage - 1  # unreachable: the caller sizes the histogram
        joint[trial & (LANES - 1), hit, damage] += 1
        counts[STAGGER] += knock >= stagger_threshold
        counts[KNOCKDOWN] += knock >= knockdown_threshold
        counts[LOST] += lost_by_roll[slot]
        counts[DICE] += n
        counts[DICE_SQ] += n * n
        base = offset + np.uint64(trial) * stride
        for k in range(N_DISTANCES):
            start_k = base + np.uint64(DISTANCE_WINDOW * (k + 1) - 1) * gamma
            _, taken_k, raw_k = _armoured_dice(start_k, gamma, dice_at[k], protection_at[k])
            draws += dice_at[k]
            damage_k, _ = _attack_outcome(1, taken_k, raw_k, 0, True, adds, factor, soft)
            distance_sums[k, 0] += damage_k
            distance_sums[k, 1] += damage_k * damage_k
        counts[DRAWS] += draws
