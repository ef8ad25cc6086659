"""Compiled samplers of Space Combat V4: one attack (SPC-8) and a duel of two ships (SPC-7).

Draw order of one attack roll (:func:`fire_group`): the attack's 2d6; on a hit, for each
weapon of the group in turn, the 2d6 of each point-defence laser engaging it (held-back
lasers first) until one shoots it down. One attack is its rolls in turn.

Draw order of a duel: one draw decides who acts first between ships of equal G; then turn
by turn each ship in order rolls its crew's four skill rolls (pilot, navigator, chief
gunner, engineer), fires its beam group, its pulse group, and its missile and nuclear
flights (:func:`fire_group` each, or one roll per weapon with ``grouping = per_weapon``).

The plain reference of each kernel is its own source run by the interpreter
(:mod:`simlab.engine.interpreted`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, draw_2d6, draw_die
from simlab.systems.space_v4.layout import (
    A_FIRST,
    A_WINS,
    ATTACK_DRAWS,
    B_WINS,
    BEAM,
    CLOSE,
    COMPUTER,
    CRITS,
    CRITS_SQ,
    CUMULATIVE,
    DESTROYED,
    DESTROYED_SQ,
    DISABLE,
    DM,
    DUEL_DRAWS,
    ENGINEER,
    GUNNER,
    GUNNER_DM,
    HITS_ON_A,
    HITS_ON_A_SQ,
    HITS_ON_B,
    HITS_ON_B_SQ,
    HULL,
    MAGAZINE,
    MISSILE,
    MISSILES_A,
    MISSILES_A_SQ,
    MISSILES_B,
    MISSILES_B_SQ,
    N_ATTACK_COUNTS,
    N_ATTACK_INTS,
    N_DUEL_COUNTS,
    N_RULE_INTS,
    N_SIDE_INTS,
    NATURAL_HIT,
    NATURAL_RULES,
    NAVIGATOR,
    NEED_FIRED,
    NEED_HELD,
    NEITHER,
    NUCLEAR,
    OPEN,
    PD_HOLD,
    PER_CRITICAL,
    PER_ROLL,
    PER_WEAPON_HITS,
    PILOT,
    POLICY,
    PULSE,
    R_CUMULATIVE,
    R_EVERY_TURN_MOVES,
    R_FIRED,
    R_GROUPING,
    R_HELD,
    R_MAX_TURNS,
    R_NATURAL,
    R_NATURAL_HIT,
    R_PD_DM,
    R_PER_CRIT,
    R_REDUCTION,
    R_SAND_PLUS_ONE,
    R_SKILL_TARGET,
    R_START_BAND,
    R_TO_HIT,
    REDUCTION,
    ROLLS,
    SAND,
    SANDCASTERS,
    SKILL_ROLLS,
    TO_HIT,
    TONS,
    TURNS,
    TURNS_SQ,
    WEAPON_KINDS,
    G,
)
from simlab.systems.space_v4.resolve import hit_and_margin

__all__ = [
    "fire_group",
    "attack_block",
    "duel_block",
    "N_ATTACK_INTS",
    "N_ATTACK_COUNTS",
    "N_DUEL_COUNTS",
    "N_SIDE_INTS",
    "N_RULE_INTS",
    "WEAPON_KINDS",
]

_hit_and_margin = njit(inline="always")(hit_and_margin)


@njit(inline="always")
def fire_group(
    w: np.uint64,
    gamma: np.uint64,
    n: int,
    per_weapon_hits: int,
    dm: int,
    to_hit: int,
    miss_max: int,
    hit_min: int,
    applied: np.ndarray,
    pd: np.ndarray,
    first: int,
    need_held: int,
    need_fired: int,
    reduction: int,
) -> tuple[np.uint64, int, int, int, int]:  # pragma: no cover - compiled
    """One attack roll of ``n`` weapons (SPC-3 to SPC-5): (position, applied hits, destroyed, draws, margin).

    The margin is -1 for a miss.

    ``pd[first + j]`` holds the held-back and the fired lasers that engage weapon ``j``.
    """
    w, natural = draw_2d6(w, gamma)
    draws = 1
    hit, margin = _hit_and_margin(natural, dm, to_hit, miss_max, hit_min)
    if not hit:
        return w, 0, 0, draws, -1
    survivors = n
    for j in range(first, first + n):
        down = False
        for column in range(2):
            need = need_held if column == 0 else need_fired
            for _ in range(pd[j, column]):
                if down:
                    break
                w, roll = draw_2d6(w, gamma)
                draws += 1
                down = roll >= need
        if down:
            survivors -= 1
    if survivors == 0:
        return w, 0, n, draws, margin
    hits = applied[survivors * per_weapon_hits, min(margin, applied.shape[1] - 1)]
    return w, max(0, hits - reduction), n - survivors, draws, margin


@njit(cache=True, nogil=True, error_model="numpy")
def attack_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    ints: np.ndarray,
    applied: np.ndarray,
    pd: np.ndarray,
    hist: np.ndarray,
    by_margin: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample one attack (SPC-8) over trials ``[start, stop)`` and add the tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        ints: Parameters indexed by ROLLS ... GUNNER_DM.
        applied: Applied hits by optimal hits and margin.
        pd: Held-back and fired point-defence lasers engaging each weapon.
        hist: Trials by applied hits.
        by_margin: Rolls that hit (row 0), their applied hits (row 1) and its square (row 2), by margin.
        counts: Tallies indexed by CRITS ... ATTACK_DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    per = ints[PER_ROLL]
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        total = 0
        crits = 0
        destroyed = 0
        for r in range(ints[ROLLS]):
            w, hits, down, draws, margin = fire_group(
                w,
                gamma,
                per,
                ints[PER_WEAPON_HITS],
                ints[DM] - (ints[GUNNER_DM] if r > 0 else 0),  # the chief gunner's +1: the first roll only
                ints[TO_HIT],
                ints[NATURAL_RULES],
                ints[NATURAL_HIT],
                applied,
                pd,
                r * per,
                ints[NEED_HELD],
                ints[NEED_FIRED],
                ints[REDUCTION],
            )
            total += hits
            crits += hits // ints[PER_CRITICAL]
            destroyed += down
            counts[ATTACK_DRAWS] += draws
            if margin >= 0:
                by_margin[0, margin] += 1
                by_margin[1, margin] += hits
                by_margin[2, margin] += hits * hits
        if ints[CUMULATIVE] == 1:
            crits = total // ints[PER_CRITICAL]
        hist[total] += 1
        counts[CRITS] += crits
        counts[CRITS_SQ] += crits * crits
        counts[DESTROYED] += destroyed
        counts[DESTROYED_SQ] += destroyed * destroyed


@njit(inline="always")
def _skill(w: np.uint64, gamma: np.uint64, skill: int, target: int) -> tuple[np.uint64, bool]:  # pragma: no cover
    """A crew skill roll, 2d6 + skill >= target (SPC-6)."""
    w, roll = draw_2d6(w, gamma)
    return w, roll + skill >= target


@njit(inline="always")
def crew_rolls(
    w: np.uint64, gamma: np.uint64, ships: np.ndarray, x: int, goal: int
) -> tuple[np.uint64, int, int, int, int, bool]:  # pragma: no cover - compiled
    """Ship ``x``'s crew skill rolls of its turn (SPC-6), when it makes them.

    Returns:
        (new position, draws made, G this turn, computer this turn, the gunner's +1, the
        engineer's success).
    """
    if ships[x, SKILL_ROLLS] != 1:
        return w, 0, ships[x, G], ships[x, COMPUTER], 0, False
    w, pilot = _skill(w, gamma, ships[x, PILOT], goal)
    w, navigator = _skill(w, gamma, ships[x, NAVIGATOR], goal)
    w, gunner = _skill(w, gamma, ships[x, GUNNER], goal)
    w, engineer = _skill(w, gamma, ships[x, ENGINEER], goal)
    return w, 4, ships[x, G] + int(pilot), ships[x, COMPUTER] + int(navigator), 1 if gunner else 0, engineer


@njit(inline="always")
def prepare_fire(
    ships: np.ndarray,
    x: int,
    band: int,
    turrets: np.ndarray,
    lasers_of: np.ndarray,
    band_fires: np.ndarray,
    held: np.ndarray,
    fired: np.ndarray,
    magazine: np.ndarray,
    group: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Ship ``x``'s weapons of its turn (SPC-5, SPC-7): lasers held back, groups, missiles launched.

    Lasers held back for point defence (``pd_hold``, pulses first: they reach less far) do not
    fire; a laser that cannot fire at the band counts as held. Missiles leave the magazine,
    missiles before nuclear ones. Fills ``group`` (weapons of each kind firing) and the ship's
    rows of ``held`` and ``fired``; no draw is made.

    Returns:
        (missiles launched, the kind that gets the chief gunner's +1: the most optimal hits, -1 none).
    """
    to_hold = ships[x, PD_HOLD]
    group[:] = 0
    for t in range(turrets.shape[1]):
        keep = min(to_hold, lasers_of[x, t])
        to_hold -= keep
        beams = turrets[x, t, BEAM]
        pulses = turrets[x, t, PULSE]
        kept_pulses = min(keep, pulses)
        kept_beams = keep - kept_pulses
        fire_beams = (beams - kept_beams) * band_fires[band, BEAM]
        fire_pulses = (pulses - kept_pulses) * band_fires[band, PULSE]
        group[BEAM] += fire_beams
        group[PULSE] += fire_pulses
        fired[x, t] = fire_beams + fire_pulses
        held[x, t] = lasers_of[x, t] - fired[x, t]
        group[MISSILE] += turrets[x, t, MISSILE] * band_fires[band, MISSILE]
        group[NUCLEAR] += turrets[x, t, NUCLEAR] * band_fires[band, NUCLEAR]
    launched = 0
    for kind in range(MISSILE, NUCLEAR + 1):
        group[kind] = min(group[kind], magazine[x])
        magazine[x] -= group[kind]
        launched += group[kind]
    best = -1
    most = 0
    for kind in range(4):
        optimal = group[kind] * (1 if kind < MISSILE else 3 if kind == MISSILE else 6)
        if optimal > most:
            best, most = kind, optimal
    return launched, best


@njit(inline="always")
def defence(
    ships: np.ndarray,
    y: int,
    g_x: int,
    computer_x: int,
    band_dm: np.ndarray,
    band: int,
    sand_up: bool,
    engineer_up: bool,
    rule_ints: np.ndarray,
) -> tuple[int, int, int, int, int]:  # pragma: no cover - compiled
    """What ship ``y`` sets against an attack (SPC-3 to SPC-6): (DM, sand DM, point-defence targets, reduction).

    Returns:
        (the attack's DM but sand, the sand DM on lasers, the 2d6 a held-back laser needs, the
        2d6 a laser that fired needs, the hits the engineer takes off).
    """
    base_dm = band_dm[band] + max(0, computer_x - ships[y, COMPUTER]) + max(0, g_x - ships[y, G])
    sand = 0
    if sand_up:
        if rule_ints[R_SAND_PLUS_ONE] == 1:
            sand = 1
        else:
            per_200 = ships[y, SANDCASTERS] * 200
            sand = -2 if per_200 >= 2 * ships[y, TONS] else -1 if per_200 >= ships[y, TONS] else 0
    better = ships[y, COMPUTER] > computer_x
    need_held = rule_ints[R_HELD] - (rule_ints[R_PD_DM] if better else 0)
    need_fired = rule_ints[R_FIRED] - (rule_ints[R_PD_DM] if better else 0)
    reduction = rule_ints[R_REDUCTION] if engineer_up else 0
    return base_dm, sand, need_held, need_fired, reduction


@njit(inline="always")
def point_defence(
    pd: np.ndarray, count: int, y: int, lasers_of: np.ndarray, held: np.ndarray, fired: np.ndarray
) -> None:  # pragma: no cover - compiled
    """The lasers of ship ``y``'s turrets against ``count`` incoming missiles: turret i takes missile i mod count."""
    pd[:count, :] = 0
    k = 0
    for t in range(lasers_of.shape[1]):
        if lasers_of[y, t] > 0:
            pd[k % count, 0] += held[y, t]
            pd[k % count, 1] += fired[y, t]
            k += 1


@njit(cache=True, nogil=True, error_model="numpy")
def duel_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    sides: np.ndarray,
    turrets: np.ndarray,
    rule_ints: np.ndarray,
    band_dm: np.ndarray,
    band_fires: np.ndarray,
    applied: np.ndarray,
    turns_hist: np.ndarray,
    win_hist: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample duels of two ships (SPC-7) over trials ``[start, stop)`` and add the tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        sides: Each ship's values indexed by G ... SKILL_ROLLS.
        turrets: Weapons of each kind per turret and ship, ``(2, turrets, 4)``.
        rule_ints: Rule parameters indexed by R_TO_HIT ... R_SAND_PLUS_ONE.
        band_dm: DM of each range band.
        band_fires: Whether each weapon kind may fire at each band, ``(bands, 4)``.
        applied: Applied hits by optimal hits and margin.
        turns_hist: Duels by turns played.
        win_hist: Duels won by A (row 0) and B (row 1) by the turn the other ship was out.
        counts: Tallies indexed by A_WINS ... DUEL_DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    n_turrets = turrets.shape[1]
    held = np.zeros((2, n_turrets), np.int64)  # lasers that did not fire in the ship's last turn
    fired = np.zeros((2, n_turrets), np.int64)
    lasers_of = np.zeros((2, n_turrets), np.int64)
    pd = np.zeros((turrets.sum() + 1, 2), np.int64)
    hits_on = np.zeros(2, np.int64)
    crits_on = np.zeros(2, np.int64)
    magazine = np.zeros(2, np.int64)
    spent = np.zeros(2, np.int64)
    sand_up = np.zeros(2, np.bool_)
    engineer_up = np.zeros(2, np.bool_)
    group = np.zeros(4, np.int64)
    per_crit = rule_ints[R_PER_CRIT]
    for s in range(2):
        for t in range(n_turrets):
            lasers_of[s, t] = turrets[s, t, BEAM] + turrets[s, t, PULSE]
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        for s in range(2):
            hits_on[s] = 0
            crits_on[s] = 0
            magazine[s] = sides[s, MAGAZINE]
            spent[s] = 0
            sand_up[s] = False
            engineer_up[s] = False
            for t in range(n_turrets):
                held[s, t] = lasers_of[s, t]
                fired[s, t] = 0
        # Order of G rating; ties by a roll-off with ties rolled again: an even chance (SPC-7).
        w, coin = draw_die(w, gamma, 2)
        made += 1
        first = coin - 1
        if sides[0, G] != sides[1, G]:
            first = 0 if sides[0, G] > sides[1, G] else 1
        band = rule_ints[R_START_BAND]
        out = -1
        turn = 0
        while turn < rule_ints[R_MAX_TURNS] and out < 0:
            turn += 1
            for step in range(2):
                x = first if step == 0 else 1 - first
                y = 1 - x
                # Crew skill rolls (SPC-6).
                w, rolled, g_x, computer_x, gunner, engineer_up[x] = crew_rolls(
                    w, gamma, sides, x, rule_ints[R_SKILL_TARGET]
                )
                made += rolled
                # Lasers held back for point defence, missiles launched, then sand (SPC-7).
                launched, best = prepare_fire(
                    sides, x, band, turrets, lasers_of, band_fires, held, fired, magazine, group
                )
                spent[x] += launched
                sand_up[x] = sides[x, SAND] == 1 and sides[x, SANDCASTERS] > 0
                base_dm, sand, need_held, need_fired, reduction = defence(
                    sides, y, g_x, computer_x, band_dm, band, sand_up[y], engineer_up[y], rule_ints
                )
                for kind in range(4):
                    n = group[kind]
                    if n == 0 or out >= 0:
                        continue
                    dm = base_dm + (sand if kind < MISSILE else 0)
                    per_weapon_hits = 1 if kind < MISSILE else 3 if kind == MISSILE else 6
                    rolls = n if rule_ints[R_GROUPING] == 1 else 1
                    size = 1 if rule_ints[R_GROUPING] == 1 else n
                    # Point defence: the target's laser turrets engage missile i mod count (SPC-5.2).
                    pd[:n, :] = 0
                    if kind >= MISSILE:
                        point_defence(pd, n, y, lasers_of, held, fired)
                    for r in range(rolls):
                        bonus = 1 if (kind == best and r == 0) else 0
                        w, hits, _, draws, _ = fire_group(
                            w,
                            gamma,
                            size,
                            per_weapon_hits,
                            dm + gunner * bonus,
                            rule_ints[R_TO_HIT],
                            rule_ints[R_NATURAL],
                            rule_ints[R_NATURAL_HIT],
                            applied,
                            pd,
                            r * size,
                            need_held,
                            need_fired,
                            reduction,
                        )
                        made += draws
                        hits_on[y] += hits
                        if rule_ints[R_CUMULATIVE] == 1:
                            crits_on[y] = hits_on[y] // per_crit
                        else:
                            crits_on[y] += hits // per_crit
                        if hits_on[y] >= sides[y, HULL] or crits_on[y] >= sides[y, DISABLE]:
                            out = y
                            break
                if out >= 0:
                    break
                # Movement (SPC-7): at the end of every ship's turn the faster ship (the first to act
                # when equal) closes, opens or holds; the old reading moves on the faster's own turn only.
                faster = x if g_x > sides[y, G] or (g_x == sides[y, G] and x == first) else y
                if faster == x or rule_ints[R_EVERY_TURN_MOVES] == 1:
                    if sides[faster, POLICY] == CLOSE:
                        band = max(0, band - 1)
                    elif sides[faster, POLICY] == OPEN:
                        band = min(band_dm.shape[0] - 1, band + 1)
        if out == 1:
            counts[A_WINS] += 1
            win_hist[0, turn] += 1
        elif out == 0:
            counts[B_WINS] += 1
            win_hist[1, turn] += 1
        else:
            counts[NEITHER] += 1
        turns_hist[turn] += 1
        counts[TURNS] += turn
        counts[TURNS_SQ] += turn * turn
        counts[HITS_ON_A] += hits_on[0]
        counts[HITS_ON_A_SQ] += hits_on[0] * hits_on[0]
        counts[HITS_ON_B] += hits_on[1]
        counts[HITS_ON_B_SQ] += hits_on[1] * hits_on[1]
        counts[MISSILES_A] += spent[0]
        counts[MISSILES_A_SQ] += spent[0] * spent[0]
        counts[MISSILES_B] += spent[1]
        counts[MISSILES_B_SQ] += spent[1] * spent[1]
        counts[A_FIRST] += int(first == 0)
        counts[DUEL_DRAWS] += made
