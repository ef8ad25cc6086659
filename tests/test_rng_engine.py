import numpy as np
import pytest

from simlab.engine.blocks import run_blocks
from simlab.engine.intervals import normal_mean, wilson
from simlab.engine.rng import die_from_draw, draw_py, mix64, mix64_py, stream_key, trial_position
from simlab.inputs.errors import InvalidValueError


def test_compiled_generator_matches_its_pure_python_specification():
    key = stream_key(7, 3)
    for trial in (0, 1, 12345, 2**40):
        w = int(trial_position(np.uint64(key.offset), np.uint64(key.gamma), trial))
        for draw in range(5):
            w = (w + key.gamma) % 2**64
            assert int(mix64(np.uint64(w))) == draw_py(key, trial, draw)
            assert mix64_py(w) == draw_py(key, trial, draw)
            assert die_from_draw(np.uint64(mix64(np.uint64(w))), 6) in range(1, 7)


def test_stream_keys_are_spawned_and_distinct():
    keys = {stream_key(seed, cell) for seed in range(5) for cell in range(5)}
    assert len(keys) == 25
    assert stream_key(1, 2) == stream_key(1, 2)
    assert all(k.gamma & 1 for k in keys)
    with pytest.raises(ValueError):
        stream_key(-1)


def test_run_blocks_is_independent_of_threads_and_block_size():
    def block(start: int, stop: int):
        values = np.array([draw_py(stream_key(0), t, 0) % 7 for t in range(start, stop)])
        return (np.bincount(values, minlength=7).astype(np.int64),)

    reference = block(0, 1000)[0]
    for threads, size in [(1, 1000), (2, 7), (3, 64), (1, 1)]:
        (total,) = run_blocks(block, 1000, threads=threads, block_size=size)
        np.testing.assert_array_equal(total, reference)


def test_run_blocks_reports_progress_and_validates():
    seen = []
    run_blocks(lambda a, b: (np.array([b - a], np.int64),), 10, threads=1, block_size=3, progress=seen.append)
    assert seen == [3, 6, 9, 10]
    with pytest.raises(InvalidValueError):
        run_blocks(lambda a, b: (np.zeros(1, np.int64),), 0)


def test_intervals():
    low, high = wilson(0, 100)
    assert low == pytest.approx(0.0, abs=1e-12) and 0.03 < high < 0.04
    low, high = wilson(50, 100)
    assert low < 0.5 < high
    low, high = normal_mean(total=10.0, total_sq=10.0, trials=10)
    assert low == pytest.approx(1.0) and high == pytest.approx(1.0)


def test_the_engine_gives_every_thread_several_blocks_within_bounds():
    from simlab.engine.blocks import DEFAULT_BLOCK_SIZE, MIN_BLOCK_SIZE, auto_block_size

    assert auto_block_size(100_000, 2) == 6_250  # 100,000 duels: 16 blocks on 2 threads
    assert auto_block_size(10, 2) == MIN_BLOCK_SIZE
    assert auto_block_size(10**9, 2) == DEFAULT_BLOCK_SIZE
    calls: list[tuple[int, int]] = []

    def block(start: int, stop: int) -> tuple[np.ndarray, ...]:
        calls.append((start, stop))
        return (np.array([stop - start], np.int64),)

    assert run_blocks(block, 100_000, threads=2)[0][0] == 100_000 and len(calls) == 16
