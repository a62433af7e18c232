"""A copy of a chance source (built without seeding from the OS: runtime.chance) continues the
same stream, and the engine's inline draw below n is `randrange(n)`."""

import random

from runtime.chance import ChanceSource, below_inline


def test_clone_continues_the_same_stream():
    src = ChanceSource("s")
    src.rng.random()
    copy = src.clone()
    assert [copy.rng.random() for _ in range(5)] == [src.rng.random() for _ in range(5)]


def test_below_is_randrange():
    a, b = random.Random("r"), random.Random("r")
    for n in (1, 2, 3, 7, 45, 1000):
        assert [below_inline(a, n) for _ in range(20)] == [b.randrange(n) for _ in range(20)]
