"""Plain twins of the compiled Tyconian duel kernel, for tests and ``simlab bench``.

:func:`python_duel_block` plays each duel second by second as the kernel does, one draw after
another from :class:`simlab.engine.rng.TrialDraws`; :func:`numpy_duel_block` plays all the duels
of a block at once with numpy. Both give the kernel's tallies, draw for draw.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.interpreted import register_twins
from simlab.engine.rng import StreamKey, TrialDraws, VectorDraws
from simlab.systems import duels
from simlab.systems.tyconian import kernels
from simlab.systems.tyconian.duel import ResolvedDuel
from simlab.systems.tyconian.plans import MAX_SHOTS
from simlab.systems.tyconian.rules import Rules
from simlab.systems.tyconian.sample import _duel_tallies
from simlab.systems.tyconian.wounds import wound_code

__all__ = ["python_duel_block", "numpy_duel_block", "TWIN_DUELS"]


def _duel_hit(
    duel: ResolvedDuel, s: int, draws: TrialDraws, critical: bool, end: int, penetrations: list[int]
) -> tuple[int, int, bool]:
    """Location, damage and stun of one hit of side ``s`` (as the kernel's ``_hit_on``), wearing armour (TYC-5.5)."""
    location = int(duel.location_of_roll[draws.die(20)])
    tables = duel.locations[s]
    table = tables[min(penetrations[location] // 2, len(tables) - 1)]
    whole, half = int(table[0, location]), int(table[1, location])
    damage = int(table[2, location])
    if critical:
        damage += 8 * whole + 4 * half
    else:
        damage += sum(draws.die(8) for _ in range(whole)) + (draws.die(4) if half else 0)
    if whole + half:
        penetrations[location] += 1
    stunned = location == 0 and draws.two_d6() + damage > end and damage > 0
    return location, damage, stunned


def _round(numerator: int, denominator: int, down: bool) -> int:
    return numerator // denominator if down else (2 * numerator + denominator) // (2 * denominator)


def _turn_kind(p: npt.NDArray[np.int64], turn: int, tactics_turns: int) -> int:
    """Which of a side's plans a turn uses: the Tactics roll's own turn, one of its bonus or a plain one (TYC-2.1)."""
    if not p[kernels.TACTICS]:
        return kernels.PLAIN_TURN
    if turn == 1:
        return kernels.TACTICS_TURN
    return kernels.BONUS_TURN if turn <= 1 + tactics_turns else kernels.PLAIN_TURN


def _auto_dice(p: npt.NDArray[np.int64], loaded: int, strength: int, rules: Rules) -> tuple[int, int]:
    """(rounds fired, dice rolled) of one full-auto volley (TYC-4.2 to TYC-4.4)."""
    down = rules.rounding == "down"
    full = int(p[kernels.AUTO_ROUNDS])
    rounds = min(full, loaded)
    reduction = _round(int(p[kernels.AUTO_REDUCTION]) * rounds, full, down)
    r5 = 5 * int(p[kernels.AUTO_RECOIL])
    if r5 > strength:
        reduction += rules.recoil_dice_factor * (r5 - strength)
    dice = rounds - reduction
    if reduction > 0:
        dice = max(dice, _round(int(p[kernels.AUTO_MINIMUM]) * rounds, full, down))
    return rounds, max(0, min(dice, rounds))


def python_duel_block(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    """Pure-Python duel sampler of trials ``[start, stop)``: the kernel's tallies."""
    rules = duel.rules
    sides = duel.sides
    down_rounding = rules.rounding == "down"
    every_turn = rules.consciousness_roll == "every_turn"
    turns_hist = np.zeros(rules.max_turns + 1, np.int64)
    seconds_hist = np.zeros(5 * rules.max_turns + 1, np.int64)
    counts = np.zeros(duels.N_DUEL_COUNTS, np.int64)
    for trial in range(start, stop):
        draws = TrialDraws(key, trial)
        dex = [int(sides[s, kernels.DEX]) for s in (0, 1)]
        strength = [int(sides[s, kernels.STR]) for s in (0, 1)]
        loaded = [int(sides[s, kernels.MAGAZINE]) for s in (0, 1)]
        spare = [int(sides[s, kernels.SPARE]) for s in (0, 1)]
        down, slight, serious, knocked = [False, False], [False, False], [False, False], [False, False]
        serious_count = [0, 0]
        located = [[0] * 7, [0] * 7]
        level = [[0] * 7, [0] * 7]
        penetrations = [[0] * 7, [0] * 7]
        owed = [0, 0]  # action points owed to clear a jam (TYC-3.6)
        hesitant_until = [-1, -1]  # the last second of a hesitation (TYC-6.3)
        turns = elapsed = 0
        over = False
        while turns < rules.max_turns and not over:
            turns += 1
            for s in (0, 1):
                if every_turn and serious[s] and not down[s] and not knocked[s]:
                    down[s] = draws.dice(3) > sides[s, kernels.END]
            if down[0] or down[1]:
                elapsed = 5 * (turns - 1)
                break
            plans: list[list[int]] = [[], []]
            auto = [False, False]
            recoil = [0, 0]
            turn_dex = list(dex)
            turn_damage = [0, 0]
            hardest = [0, 0]
            lying = list(knocked)
            knocked = [False, False]
            shots_fired = [0, 0]
            for s in (0, 1):
                p = sides[s]
                if lying[s] or dex[s] <= 0:
                    continue
                if loaded[s] < (1 if p[kernels.AUTO] else p[kernels.ROUNDS]):
                    if spare[s] > 0:
                        spare[s] -= 1
                        loaded[s] = int(p[kernels.MAGAZINE])
                        owed[s] = 0
                    continue
                if p[kernels.AUTO]:
                    auto[s] = True
                else:
                    kind, row = _turn_kind(p, turns, rules.tactics_turns), min(dex[s], 15)
                    paid, owed[s] = owed[s], 0
                    shots = min(int(duel.plan_shots[s, kind, paid, row]), loaded[s] // int(p[kernels.ROUNDS]))
                    plans[s] = [int(at) for at in duel.plans[s, kind, paid, row, :shots]]
            for second in range(1, 6):
                pending = [[0] * 7, [0] * 7]
                stunned = [False, False]
                now = 5 * (turns - 1) + second
                for s in (0, 1):
                    if down[s] or now <= hesitant_until[s]:
                        continue
                    other = 1 - s
                    p = sides[s]
                    end = int(sides[other, kernels.END])
                    for at in plans[s]:
                        if at != second:
                            continue
                        shots_fired[s] += 1
                        hand = 0
                        if p[kernels.TWO_WEAPONS]:
                            fired = (int(p[kernels.MAGAZINE]) - loaded[s]) // int(p[kernels.ROUNDS])
                            hand = int(p[kernels.PRIMARY_PENALTY] if fired % 2 == 0 else p[kernels.OFF_PENALTY])
                        loaded[s] -= int(p[kernels.ROUNDS])
                        recoil[s] += int(p[kernels.RECOIL])
                        penalty = max(0, recoil[s] - (strength[s] - int(p[kernels.STR_LOSS])))
                        base = (int(p[kernels.SKILL]) + int(p[kernels.AIM_SKILL])) * int(p[kernels.MULTIPLIER])
                        skill = _round(base, 100, down_rounding) - penalty - hand
                        roll = draws.die(rules.skill_die)
                        critical = roll <= rules.critical_success_max
                        if critical or (roll < rules.critical_failure_min and roll <= skill):
                            location, damage, stun = _duel_hit(duel, s, draws, critical, end, penetrations[other])
                            pending[other][location] += damage
                            stunned[other] = stunned[other] or stun
                            turn_damage[other] += damage
                            hardest[other] = max(hardest[other], damage)
                    if auto[s] and second == 5:
                        rounds, dice = _auto_dice(p, loaded[s], strength[s], rules)
                        loaded[s] -= rounds
                        scored = sum(draws.d6() >= p[kernels.HIT_FACE] for _ in range(dice))
                        volley = 0
                        for _ in range(scored):
                            location, damage, stun = _duel_hit(duel, s, draws, False, end, penetrations[other])
                            pending[other][location] += damage
                            stunned[other] = stunned[other] or stun
                            volley += damage
                        turn_damage[other] += volley
                        hardest[other] = max(hardest[other], volley)
                for s in (0, 1):
                    out = stunned[s]
                    table = duel.locations[1 - s, 0]
                    fresh = not any(level[s])
                    worst = 0
                    for i in range(7):
                        if not pending[s][i]:
                            continue
                        located[s][i] += pending[s][i]
                        new = wound_code(located[s][i], int(table[3, i]), bool(table[4, i]), i == 0)
                        worst = max(worst, new)
                        if new >= 2 and not slight[s]:
                            slight[s] = True
                            dex[s] -= 2
                        if new >= 3 and not serious[s]:
                            serious[s] = True
                            dex[s] -= 4
                            strength[s] //= 2
                        if new == 3 and level[s][i] < 3:
                            serious_count[s] += 1
                            if i == 0 or draws.dice(3) > sides[s, kernels.END]:
                                out = True
                        out = out or new >= 4
                        level[s][i] = max(level[s][i], new)
                    out = out or serious_count[s] >= 3 or dex[s] <= 0
                    down[s] = down[s] or out
                    if fresh and worst == 1 and not out:  # the first wounds are scratches: hesitate
                        hesitant_until[s] = now + rules.hesitation_seconds
                if down[0] or down[1]:
                    over = True
                    elapsed = 5 * (turns - 1) + second
                    break
            per_shot = rules.knockdown_damage == "shot"
            knocked = [(hardest[s] if per_shot else turn_damage[s]) > turn_dex[s] for s in (0, 1)]
            for s in (0, 1):
                shots_of_weapon = (shots_fired[s] + 1) // 2 if sides[s, kernels.TWO_WEAPONS] else shots_fired[s]
                can = sides[s, kernels.CAN_JAM] and not over and shots_of_weapon - rules.jam_bonus > 2
                if can and draws.two_d6() + rules.jam_bonus < shots_of_weapon:
                    owed[s] = draws.die(rules.jam_clear_die)
        if not over and not (down[0] or down[1]):
            elapsed = 5 * turns
        duels.record_duel(counts, turns_hist, seconds_hist, down[0], down[1], turns, elapsed, 1, draws.made)
    return turns_hist, seconds_hist, counts


def _level_table(duel: ResolvedDuel, shooter: int, location: int, most: int) -> npt.NDArray[np.int64]:
    """Wound level at a location of the figure ``shooter`` fires at, for every damage up to ``most``."""
    table = duel.locations[shooter, 0]
    cap, limb = int(table[3, location]), bool(table[4, location])
    return np.array([wound_code(d, cap, limb, location == 0) for d in range(most + 1)], np.int64)


def numpy_duel_block(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    """Vectorised numpy duel sampler: every live duel advances second by second together."""
    rules, sides = duel.rules, duel.sides
    n = stop - start
    draws = VectorDraws(key, start, stop)
    down_rounding = rules.rounding == "down"
    every_turn = rules.consciousness_roll == "every_turn"
    most = 3000  # wound levels are constant beyond twice the capacity
    levels_by_damage = [[_level_table(duel, 1 - s, i, most) for i in range(7)] for s in (0, 1)]
    dex = np.tile(sides[:, kernels.DEX], (n, 1))
    strength = np.tile(sides[:, kernels.STR], (n, 1))
    loaded = np.tile(sides[:, kernels.MAGAZINE], (n, 1))
    spare = np.tile(sides[:, kernels.SPARE], (n, 1))
    down = np.zeros((n, 2), bool)
    slight = np.zeros((n, 2), bool)
    serious = np.zeros((n, 2), bool)
    knocked = np.zeros((n, 2), bool)
    serious_count = np.zeros((n, 2), np.int64)
    located = np.zeros((n, 2, 7), np.int64)
    level = np.zeros((n, 2, 7), np.int64)
    penetrations = np.zeros((n, 2, 7), np.int64)
    owed = np.zeros((n, 2), np.int64)  # action points owed to clear a jam (TYC-3.6)
    hesitant_until = np.full((n, 2), -1, np.int64)  # the last second of a hesitation (TYC-6.3)
    turns = np.zeros(n, np.int64)
    elapsed = np.zeros(n, np.int64)
    live = np.arange(n)
    for turn in range(1, rules.max_turns + 1):
        if not len(live):
            break
        turns[live] += 1
        for s in (0, 1):  # the consciousness roll of a seriously wounded figure that tries to act (TYC-6.3)
            rows = live[serious[live, s] & ~down[live, s] & ~knocked[live, s]] if every_turn else live[:0]
            total = draws.d6(rows) + draws.d6(rows) + draws.d6(rows)
            down[rows[total > sides[s, kernels.END]], s] = True
        ended = live[down[live].any(axis=1)]
        elapsed[ended] = 5 * (turns[ended] - 1)
        live = live[~down[live].any(axis=1)]
        plan_row = np.zeros((n, 2), np.int64)
        jam_row = np.zeros((n, 2), np.int64)
        shots_fired = np.zeros((n, 2), np.int64)
        n_shots = np.zeros((n, 2), np.int64)
        auto = np.zeros((n, 2), bool)
        recoil = np.zeros((n, 2), np.int64)
        turn_dex = dex.copy()
        turn_damage = np.zeros((n, 2), np.int64)
        hardest = np.zeros((n, 2), np.int64)
        kinds = [_turn_kind(sides[s], turn, rules.tactics_turns) for s in (0, 1)]
        for s in (0, 1):
            p = sides[s]
            able = live[~knocked[live, s] & (dex[live, s] > 0)]
            empty = loaded[able, s] < (1 if p[kernels.AUTO] else p[kernels.ROUNDS])
            reload = able[empty & (spare[able, s] > 0)]
            spare[reload, s] -= 1
            loaded[reload, s] = p[kernels.MAGAZINE]
            owed[reload, s] = 0
            firing = able[~empty]
            if p[kernels.AUTO]:
                auto[firing, s] = True
            else:
                plan_row[firing, s] = np.minimum(dex[firing, s], 15)
                jam_row[firing, s] = owed[firing, s]
                owed[firing, s] = 0
                planned = duel.plan_shots[s, kinds[s], jam_row[firing, s], plan_row[firing, s]]
                n_shots[firing, s] = np.minimum(planned, loaded[firing, s] // p[kernels.ROUNDS])
        knocked[:] = False
        for second in range(1, 6):
            if not len(live):
                break
            pending = np.zeros((n, 2, 7), np.int64)
            stunned = np.zeros((n, 2), bool)
            now = 5 * (turn - 1) + second
            for s in (0, 1):
                p = sides[s]
                other = 1 - s
                shooting = live[~down[live, s] & (hesitant_until[live, s] < now)]
                plan = duel.plans[s, kinds[s]]
                for k in range(MAX_SHOTS):
                    at_second = plan[jam_row[shooting, s], plan_row[shooting, s], k] == second
                    rows = shooting[(n_shots[shooting, s] > k) & at_second]
                    if not len(rows):
                        continue
                    shots_fired[rows, s] += 1
                    hand = np.zeros(len(rows), np.int64)
                    if p[kernels.TWO_WEAPONS]:
                        fired = (p[kernels.MAGAZINE] - loaded[rows, s]) // p[kernels.ROUNDS]
                        hand = np.where(fired % 2 == 0, p[kernels.PRIMARY_PENALTY], p[kernels.OFF_PENALTY])
                    loaded[rows, s] -= p[kernels.ROUNDS]
                    recoil[rows, s] += p[kernels.RECOIL]
                    penalty = np.maximum(0, recoil[rows, s] - (strength[rows, s] - p[kernels.STR_LOSS]))
                    base = (p[kernels.SKILL] + p[kernels.AIM_SKILL]) * p[kernels.MULTIPLIER]
                    skill = _round(int(base), 100, down_rounding) - penalty - hand
                    roll = draws.die(rows, rules.skill_die)
                    critical = roll <= rules.critical_success_max
                    hit = critical | ((roll < rules.critical_failure_min) & (roll <= skill))
                    damage = _numpy_hits(duel, s, draws, rows[hit], critical[hit], pending, stunned, penetrations)
                    turn_damage[rows[hit], other] += damage
                    hardest[rows[hit], other] = np.maximum(hardest[rows[hit], other], damage)
                if p[kernels.AUTO] and second == 5:
                    rows = shooting[auto[shooting, s]]
                    full = int(p[kernels.AUTO_ROUNDS])
                    rounds = np.minimum(full, loaded[rows, s])
                    loaded[rows, s] -= rounds
                    if down_rounding:
                        reduction = p[kernels.AUTO_REDUCTION] * rounds // full
                        floor = p[kernels.AUTO_MINIMUM] * rounds // full
                    else:
                        reduction = (2 * p[kernels.AUTO_REDUCTION] * rounds + full) // (2 * full)
                        floor = (2 * p[kernels.AUTO_MINIMUM] * rounds + full) // (2 * full)
                    r5 = 5 * int(p[kernels.AUTO_RECOIL])
                    reduction = reduction + np.where(
                        r5 > strength[rows, s], rules.recoil_dice_factor * (r5 - strength[rows, s]), 0
                    )
                    dice = rounds - reduction
                    dice = np.where(reduction > 0, np.maximum(dice, floor), dice)
                    dice = np.clip(dice, 0, rounds)
                    scored = np.zeros(len(rows), np.int64)
                    for j in range(int(dice.max(initial=0))):
                        at = np.flatnonzero(dice > j)
                        scored[at] += draws.d6(rows[at]) >= p[kernels.HIT_FACE]
                    volley = np.zeros(len(rows), np.int64)
                    for j in range(int(scored.max(initial=0))):
                        at = np.flatnonzero(scored > j)
                        volley[at] += _numpy_hits(
                            duel, s, draws, rows[at], np.zeros(len(at), bool), pending, stunned, penetrations
                        )
                    turn_damage[rows, other] += volley
                    hardest[rows, other] = np.maximum(hardest[rows, other], volley)
            for s in (0, 1):
                out = stunned[:, s].copy()
                fresh = ~level[:, s].any(axis=1)
                worst = np.zeros(n, np.int64)
                for i in range(7):
                    rows = live[pending[live, s, i] > 0]
                    if not len(rows):
                        continue
                    located[rows, s, i] += pending[rows, s, i]
                    new = levels_by_damage[s][i][np.minimum(located[rows, s, i], most)]
                    worst[rows] = np.maximum(worst[rows], new)
                    first_slight = rows[(new >= 2) & ~slight[rows, s]]
                    slight[first_slight, s] = True
                    dex[first_slight, s] -= 2
                    first_serious = rows[(new >= 3) & ~serious[rows, s]]
                    serious[first_serious, s] = True
                    dex[first_serious, s] -= 4
                    strength[first_serious, s] //= 2
                    becoming = (new == 3) & (level[rows, s, i] < 3)
                    serious_count[rows[becoming], s] += 1
                    if i == 0:
                        out[rows[becoming]] = True
                    else:
                        rolled = rows[becoming]
                        total = draws.d6(rolled) + draws.d6(rolled) + draws.d6(rolled)
                        out[rolled[total > sides[s, kernels.END]]] = True
                    out[rows[new >= 4]] = True
                    level[rows, s, i] = np.maximum(level[rows, s, i], new)
                out |= (serious_count[:, s] >= 3) | (dex[:, s] <= 0)
                down[live, s] |= out[live]
                hesitating = live[(fresh & (worst == 1) & ~out)[live]]
                hesitant_until[hesitating, s] = now + rules.hesitation_seconds
            ended = live[down[live].any(axis=1)]
            elapsed[ended] = 5 * (turns[ended] - 1) + second
            live = live[~down[live].any(axis=1)]
        hit_hard = hardest if rules.knockdown_damage == "shot" else turn_damage
        knocked[live] = hit_hard[live] > turn_dex[live]
        for s in (0, 1):  # the jam check at the turn's end (TYC-3.6)
            if not sides[s, kernels.CAN_JAM]:
                continue
            shots = (shots_fired[:, s] + 1) // 2 if sides[s, kernels.TWO_WEAPONS] else shots_fired[:, s]
            checked = live[shots[live] - rules.jam_bonus > 2]
            jammed = checked[draws.two_d6(checked) + rules.jam_bonus < shots[checked]]
            owed[jammed, s] = draws.die(jammed, rules.jam_clear_die)
    elapsed[live] = 5 * turns[live]
    return duels.numpy_duel_tallies(
        down, turns, elapsed, 1, rules.max_turns, 5 * rules.max_turns + 1, int(draws.made.sum())
    )


def _numpy_hits(
    duel: ResolvedDuel,
    s: int,
    draws: VectorDraws,
    rows: npt.NDArray[np.intp],
    critical: npt.NDArray[np.bool_],
    pending: npt.NDArray[np.int64],
    stunned: npt.NDArray[np.bool_],
    penetrations: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """One hit of side ``s`` for each trial in ``rows`` (as the kernel's ``_hit_on``): its damage."""
    if not len(rows):
        return np.zeros(0, np.int64)
    tables = duel.locations[s]
    other = 1 - s
    location = duel.location_of_roll[draws.die(rows, 20)]
    wear = np.minimum(penetrations[rows, other, location] // 2, len(tables) - 1)
    whole, half = tables[wear, 0, location], tables[wear, 1, location]
    damage = tables[wear, 2, location] + np.where(critical, 8 * whole + 4 * half, 0)
    rolling = ~critical
    for d in range(int(whole.max(initial=0))):
        at = np.flatnonzero(rolling & (whole > d))
        damage[at] += draws.die(rows[at], 8)
    at = np.flatnonzero(rolling & (half == 1))
    damage[at] += draws.die(rows[at], 4)
    penetrations[rows, other, location] += (whole + half) > 0
    head = np.flatnonzero(location == 0)
    stunned[rows[head], other] |= (draws.two_d6(rows[head]) + damage[head] > duel.sides[other, kernels.END]) & (
        damage[head] > 0
    )
    np.add.at(pending, (rows, np.full(len(rows), other), location), damage)
    return damage


#: The duels they are checked on: bursts, full automatic fire, aim, magazines, two weapons, readings.
TWIN_DUELS: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    ({"weapon": "battle rifle"}, {"weapon": "assault rifle", "mode": "burst"}, {}),
    ({"weapon": "light machinegun", "mode": "full_auto", "range_m": 40},
     {"weapon": "bolt rifle", "aim": 2, "armor": "combat armour", "range_m": 40}, {"rounding": "down"}),
    ({"weapon": "revolver", "dex": 6, "magazines": 2}, {"weapon": "autopistol", "cover_av": 2, "end": 6}, {}),
    ({"weapon": "submachinegun", "mode": "full_auto", "range_m": 8, "magazines": 1, "strength": 6},
     {"weapon": "shotgun", "armor": "flak vest", "range_m": 8}, {"max_turns": 6}),
    ({"weapon": "autopistol", "two_weapons": True, "tactics": "success", "armor": "combat armour", "end": 14},
     {"weapon": "heavy pistol", "two_weapons": True, "two_weapon_fire": "same_second", "tactics": "critical",
      "armor": "flak vest", "end": 7}, {}),
    ({"weapon": "heavy pistol", "armor": "combat armour", "dex": 13},
     {"weapon": "light machinegun", "mode": "full_auto", "armor": "combat armour"},
     {"knockdown_damage": "shot", "consciousness_roll": "once", "armor_wear": "none"}),
]  # fmt: skip


def _twin_duels() -> list[ResolvedDuel]:
    from simlab.systems.tyconian.duel import resolve_duel

    return [resolve_duel(a, b, Rules(**rules), ({}, {})) for a, b, rules in TWIN_DUELS]


register_twins(
    "simlab.systems.tyconian.duel_kernel:duel_block",
    _duel_tallies,
    lambda duel: (python_duel_block, numpy_duel_block),
    _twin_duels,
)
