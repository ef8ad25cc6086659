"""The layout of Space Combat V4's kernel arrays: the index of every entry, shared by the code that packs them."""

from __future__ import annotations

__all__ = [
    "ROLLS",
    "PER_ROLL",
    "PER_WEAPON_HITS",
    "DM",
    "TO_HIT",
    "NATURAL_RULES",
    "NEED_HELD",
    "NEED_FIRED",
    "REDUCTION",
    "PER_CRITICAL",
    "CUMULATIVE",
    "GUNNER_DM",
    "NATURAL_HIT",
    "N_ATTACK_INTS",
    "CRITS",
    "CRITS_SQ",
    "DESTROYED",
    "DESTROYED_SQ",
    "ATTACK_DRAWS",
    "N_ATTACK_COUNTS",
    "BEAM",
    "PULSE",
    "MISSILE",
    "NUCLEAR",
    "WEAPON_KINDS",
    "G",
    "COMPUTER",
    "TONS",
    "SANDCASTERS",
    "MAGAZINE",
    "HULL",
    "DISABLE",
    "PILOT",
    "NAVIGATOR",
    "GUNNER",
    "ENGINEER",
    "POLICY",
    "PD_HOLD",
    "SAND",
    "SKILL_ROLLS",
    "N_SIDE_INTS",
    "HOLD",
    "CLOSE",
    "OPEN",
    "R_TO_HIT",
    "R_NATURAL",
    "R_GROUPING",
    "R_HELD",
    "R_FIRED",
    "R_PD_DM",
    "R_SKILL_TARGET",
    "R_REDUCTION",
    "R_PER_CRIT",
    "R_CUMULATIVE",
    "R_MAX_TURNS",
    "R_START_BAND",
    "R_SAND_PLUS_ONE",
    "R_EVERY_TURN_MOVES",
    "R_NATURAL_HIT",
    "N_RULE_INTS",
    "A_WINS",
    "B_WINS",
    "NEITHER",
    "TURNS",
    "TURNS_SQ",
    "HITS_ON_A",
    "HITS_ON_A_SQ",
    "HITS_ON_B",
    "HITS_ON_B_SQ",
    "MISSILES_A",
    "MISSILES_A_SQ",
    "MISSILES_B",
    "MISSILES_B_SQ",
    "A_FIRST",
    "DUEL_DRAWS",
    "N_DUEL_COUNTS",
]

# Indices of the one-attack ``ints``.
(
    ROLLS,
    PER_ROLL,
    PER_WEAPON_HITS,
    DM,
    TO_HIT,
    NATURAL_RULES,
    NEED_HELD,
    NEED_FIRED,
    REDUCTION,
    PER_CRITICAL,
    CUMULATIVE,
    GUNNER_DM,
    NATURAL_HIT,
) = range(13)
N_ATTACK_INTS = 13
# Indices of the one-attack ``counts``.
CRITS, CRITS_SQ, DESTROYED, DESTROYED_SQ, ATTACK_DRAWS = range(5)
N_ATTACK_COUNTS = 5

# Weapon kinds of a turret, in the order a ship fires them; columns of ``turrets``.
BEAM, PULSE, MISSILE, NUCLEAR = range(4)
WEAPON_KINDS = ("beam", "pulse", "missile", "nuclear")
# Indices of a side's ``sides`` row.
(G, COMPUTER, TONS, SANDCASTERS, MAGAZINE, HULL, DISABLE, PILOT, NAVIGATOR, GUNNER, ENGINEER, POLICY, PD_HOLD,
 SAND, SKILL_ROLLS) = range(15)  # fmt: skip
N_SIDE_INTS = 15
HOLD, CLOSE, OPEN = range(3)
# Indices of the duel's ``rule_ints``.
# R_NATURAL and R_NATURAL_HIT: naturals at or below always miss, at or above always hit (1 and 13: none).
(R_TO_HIT, R_NATURAL, R_GROUPING, R_HELD, R_FIRED, R_PD_DM, R_SKILL_TARGET, R_REDUCTION, R_PER_CRIT, R_CUMULATIVE,
 R_MAX_TURNS, R_START_BAND, R_SAND_PLUS_ONE, R_EVERY_TURN_MOVES, R_NATURAL_HIT) = range(15)  # fmt: skip
N_RULE_INTS = 15
# Indices of the duel's ``counts``.
(A_WINS, B_WINS, NEITHER, TURNS, TURNS_SQ, HITS_ON_A, HITS_ON_A_SQ, HITS_ON_B, HITS_ON_B_SQ, MISSILES_A, MISSILES_A_SQ,
 MISSILES_B, MISSILES_B_SQ, A_FIRST, DUEL_DRAWS) = range(15)  # fmt: skip
N_DUEL_COUNTS = 15
