#!/usr/bin/env python3
"""The statistics every bench/ compare script prints (bench/benchenv.py):
the median of the per-round ratios, the A/A band of that median and the
verdict. Run by ctest (label bench_scripts); standard library only."""

import os
import sys
import unittest

sys.dont_write_bytecode = True  # nothing left in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import benchenv  # noqa: E402


def both_ways(aa):
    both = aa + [1.0 / x for x in aa]
    return (min(both), max(both))


class MedianBand(unittest.TestCase):
    AA = [0.97, 1.02, 1.04, 0.99, 1.01, 0.96, 1.03, 1.00, 0.98]

    def test_holds_one_and_is_symmetric(self):
        for rounds in (1, 3, 5, 9, 15):
            lo, hi = benchenv.median_band(self.AA, rounds)
            self.assertLessEqual(lo, 1.0)
            self.assertGreaterEqual(hi, 1.0)
            self.assertAlmostEqual(lo * hi, 1.0)

    def test_three_rounds_is_the_lowest_to_highest_round(self):
        aa = [0.97, 1.02, 1.04]
        lo, hi = benchenv.median_band(aa, 3)
        want_lo, want_hi = both_ways(aa)
        self.assertAlmostEqual(lo, want_lo)
        self.assertAlmostEqual(hi, want_hi)

    def test_narrows_as_rounds_are_added(self):
        widths = [benchenv.median_band(self.AA, n)[1] for n in (3, 9, 25)]
        self.assertGreater(widths[0], widths[1])
        self.assertGreater(widths[1], widths[2])
        # Narrower than the lowest-to-highest single round (the old band).
        self.assertLess(widths[1], both_ways(self.AA)[1])

    def test_same_rounds_same_band(self):
        self.assertEqual(benchenv.median_band(self.AA, 5), benchenv.median_band(self.AA, 5))

    def test_no_noise_and_no_aa_pass(self):
        self.assertEqual(benchenv.median_band([1.0, 1.0, 1.0], 3), (1.0, 1.0))
        self.assertIsNone(benchenv.median_band([], 5))
        self.assertIsNone(benchenv.median_band(self.AA, 0))


class Verdict(unittest.TestCase):
    def test_a_clear_difference_is_outside_noise(self):
        values = {"loadcell": [150, 152, 149, 151, 150],
                  "fio": [100, 101, 99, 100, 102],
                  "fio#2": [101, 100, 100, 99, 101]}
        median, spread, band, verdict = benchenv.Comparison(values, "loadcell", "fio").cells()
        # Per round 1.500, 1.505, 1.505, 1.510, 1.471: the median of the
        # ratios, not the ratio of the medians (1.500).
        self.assertEqual(median, "1.505")
        self.assertEqual(verdict, "outside noise")
        lo, hi = (float(x) for x in band.split("-"))
        self.assertLess(hi, 1.05)
        self.assertLess(lo, 1.0)

    def test_a_ratio_inside_the_band_is_equal_within_noise(self):
        values = {"loadcell": [101, 97, 103, 99, 100],
                  "fio": [100, 100, 100, 100, 100],
                  "fio#2": [104, 96, 102, 98, 101]}
        self.assertEqual(benchenv.Comparison(values, "loadcell", "fio").cells()[3],
                         "equal within noise")

    def test_without_an_aa_pass_there_is_no_verdict(self):
        values = {"loadcell": [150, 151, 149], "fio": [100, 100, 100]}
        self.assertEqual(benchenv.Comparison(values, "loadcell", "fio").cells()[2:],
                         ["none", "(no A/A pass)"])

    def test_failed_runs_are_left_out_of_the_ratios(self):
        values = {"loadcell": [150, None, 150], "fio": [100, 100, None],
                  "fio#2": [100, 100, 100]}
        c = benchenv.Comparison(values, "loadcell", "fio")
        self.assertEqual(c.ratios, [1.5])


if __name__ == "__main__":
    unittest.main(verbosity=1)
