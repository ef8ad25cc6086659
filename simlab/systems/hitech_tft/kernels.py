"""Compiled samplers of HiTech TFT attacks (DESIGN.md principle 3).

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
draws: it rolls every trial's attack, then the damage dice slot by slot (two slots per
pass, masked by each trial's number of dice), then rolls the rare extra dice of critical
hits one trial at a time, and finally tallies. It therefore generates some draws that a
trial does not use; the ``draws`` tally counts every draw generated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.rng import DRAWS_PER_TRIAL_LIMIT, die_from_draw, mix64

# Indices of the ``counts`` tally.
STAGGER, KNOCKDOWN, LOST, DRAWS, DICE, DICE_SQ = range(6)
N_COUNTS = 6
#: Trials per chunk of the direct-fire kernel.
CHUNK = 512
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


@njit(cache=True, nogil=True)
def direct_fire_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    quickdraw_dx: int,
    hits_by_roll: np.ndarray,
    dice_by_roll: np.ndarray,
    lost_by_roll: np.ndarray,
    slots: int,
    protection: int,
    per_die: bool,
    adds_per_hit: int,
    factor: int,
    soft: bool,
    stagger_threshold: int,
    knockdown_threshold: int,
    joint: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample direct-fire attacks (TFT-3 to TFT-5) and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        quickdraw_dx: DX of the quickdraw roll, or -1 without quickdraw (TFT-6.3).
        hits_by_roll: Hits per 3d6 total (index 0: no attack).
        dice_by_roll: Damage dice per 3d6 total (hits x dice x critical multiplier).
        lost_by_roll: 1 where the total loses the weapon.
        slots: Damage dice rolled for every trial in the vectorised pass (even).
        protection: Armour per die (per_die) or per attack.
        per_die: Per-die (missile) or whole-attack (melee) armour.
        adds_per_hit: Damage adds of one hit.
        factor: Multiplier of the damage through armour (HE/HEAP: 2).
        soft: Knockdown from the damage before armour.
        stagger_threshold: TFT-5.2.
        knockdown_threshold: TFT-5.2.
        joint: ``(LANES, ROLL_SLOTS * n_damage)`` histogram of (hits, damage), flattened:
            cell ``h * n_damage + d`` (the caller sizes ``n_damage`` to the largest damage).
        counts: Tallies indexed by STAGGER, KNOCKDOWN, LOST, DRAWS, DICE, DICE_SQ.
    """
    n_damage = joint.shape[1] // hits_by_roll.shape[0]
    slot_of = np.empty(CHUNK, np.int64)
    base = np.empty(CHUNK, np.uint64)
    taken = np.empty(CHUNK, np.int64)
    raw = np.empty(CHUNK, np.int64)
    n_dice = np.empty(CHUNK, np.int64)
    hits_of = np.empty(CHUNK, np.int64)
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    first_die = 7 if quickdraw_dx >= 0 else 4
    g_first = np.uint64(first_die) * gamma
    g3 = np.uint64(3) * gamma
    stagger = 0
    knockdown = 0
    lost = 0
    draws = 0
    dice_total = 0
    dice_sq = 0
    for chunk_start in range(start, stop, CHUNK):
        n = min(CHUNK, stop - chunk_start)
        w0 = offset + np.uint64(chunk_start) * stride
        # Pass 1: the attack roll (and the quickdraw roll before it).
        if quickdraw_dx >= 0:
            for t in range(n):
                w = w0 + np.uint64(t) * stride
                base[t] = w
                drawn = _roll_3d6(w, gamma)
                roll = _roll_3d6(w + g3, gamma)
                slot_of[t] = roll if drawn <= quickdraw_dx else 0
            draws += 6 * n
        else:
            for t in range(n):
                w = w0 + np.uint64(t) * stride
                base[t] = w
                slot_of[t] = _roll_3d6(w, gamma)
            draws += 3 * n
        for t in range(n):
            slot = slot_of[t]
            k = dice_by_roll[slot]
            hits_of[t] = hits_by_roll[slot]
            lost += lost_by_roll[slot]
            n_dice[t] = k
            dice_total += k
            dice_sq += k * k
            taken[t] = 0
            raw[t] = 0
        # Pass 2: damage dice, two slots per pass over the chunk (vectorised).
        g_i = g_first
        for i in range(0, slots, 2):
            g_j = g_i + gamma
            for t in range(n):
                b = base[t]
                k = n_dice[t]
                d = die_from_draw(mix64(b + g_i), 6)
                e = die_from_draw(mix64(b + g_j), 6)
                dd = d - protection
                dd = dd if dd > 0 else 0
                ee = e - protection
                ee = ee if ee > 0 else 0
                m1 = i < k
                m2 = i + 1 < k
                taken[t] += (dd if m1 else 0) + (ee if m2 else 0)
                raw[t] += (d if m1 else 0) + (e if m2 else 0)
            g_i += gamma + gamma
        draws += slots * n
        # Pass 3: dice beyond the slots (critical hits), one trial at a time.
        for t in range(n):
            k = n_dice[t]
            if k > slots:
                w = base[t] + g_first + np.uint64(slots) * gamma
                for _ in range(slots, k):
                    d = die_from_draw(mix64(w), 6)
                    w += gamma
                    dd = d - protection
                    taken[t] += dd if dd > 0 else 0
                    raw[t] += d
                draws += k - slots
        # Pass 4: outcomes (vectorised), then the histogram (scattered over LANES copies).
        for t in range(n):
            hits = hits_of[t]
            damage, knock = _attack_outcome(hits, taken[t], raw[t], protection, per_die, adds_per_hit, factor, soft)
            taken[t] = hits * n_damage + min(damage, n_damage - 1)
            stagger += knock >= stagger_threshold
            knockdown += knock >= knockdown_threshold
        for t in range(n):
            joint[t & (LANES - 1), taken[t]] += 1
    counts[STAGGER] += stagger
    counts[KNOCKDOWN] += knockdown
    counts[LOST] += lost
    counts[DRAWS] += draws
    counts[DICE] += dice_total
    counts[DICE_SQ] += dice_sq


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


@njit(cache=True, nogil=True)
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
