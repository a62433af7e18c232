"""A chance source's RNG is `random.Random(seed)` exactly, however it is built (runtime.chance
seeds str and int seeds by a shorter path), and a copy continues the same stream."""

import random

from runtime.chance import ChanceSource, below_inline


def test_seeded_state_is_the_standard_librarys():
    for seed in ("", "7:12", "héllo", 0, 3, -9, 2**80, None):
        want = random.Random(seed if seed is not None else 0)
        assert ChanceSource(seed).rng.getstate() == want.getstate()


def test_clone_continues_the_same_stream():
    src = ChanceSource("s")
    src.rng.random()
    copy = src.clone()
    assert [copy.rng.random() for _ in range(5)] == [src.rng.random() for _ in range(5)]


def test_below_is_randrange():
    a, b = random.Random("r"), random.Random("r")
    for n in (1, 2, 3, 7, 45, 1000):
        assert [below_inline(a, n) for _ in range(20)] == [b.randrange(n) for _ in range(20)]
