# A Python statistics helper without type hints, its docstring describing a parameter it does not have.
mkdir -p textstats tests
: > textstats/__init__.py
: > tests/__init__.py
cat > textstats/stats.py <<'PY'
"""Small statistics helpers for the dashboard."""


def moving_average(values, window=3):
    """Average each run of `size` consecutive numbers.

    Args:
        values (list): the numbers, oldest first.
        size (int): how many numbers each average covers.

    Returns:
        list of int: one average per full run, so len(values) - size + 1 of them.
    """
    if window < 1:
        raise ValueError("window must be at least 1")
    return [sum(values[i : i + window]) / window for i in range(len(values) - window + 1)]


def spread(values):
    """Return the difference between the largest and the smallest value."""
    return max(values) - min(values)
PY
cat > tests/test_stats.py <<'PY'
import unittest

from textstats.stats import moving_average, spread


class StatsTest(unittest.TestCase):
    def test_moving_average(self):
        self.assertEqual(moving_average([1, 2, 3, 4], 2), [1.5, 2.5, 3.5])
        self.assertEqual(moving_average([3.0, 6.0, 9.0]), [6.0])
        self.assertEqual(moving_average([1.0, 2.0], 3), [])

    def test_window_must_be_positive(self):
        with self.assertRaises(ValueError):
            moving_average([1.0], 0)

    def test_spread(self):
        self.assertEqual(spread([4, 1, 9]), 8)


if __name__ == "__main__":
    unittest.main()
PY
