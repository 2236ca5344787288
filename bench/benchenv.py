"""What the bench/ scripts share: their settings from the environment,
checked before any run (a value that is not what the script needs is one
line on stderr and exit code 2, not a traceback half-way through), and the
rounds, per-round ratios and A/A band every compare script prints."""

import math
import os
import random
import re
import signal
import statistics
import sys


def end_cleanly_on_sigterm():
    """SIGTERM (kill, a CI timeout) ends the script as Ctrl-C does: through
    its `finally` blocks, which remove the files it made."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def _fail(name, value, what):
    sys.stderr.write("%s: %s=%r: %s\n" % (os.path.basename(sys.argv[0]), name, value, what))
    sys.exit(2)


def env_int(name, default, minimum=1):
    """A whole number >= minimum (default when unset)."""
    value = os.environ.get(name, str(default))
    try:
        n = int(value)
    except ValueError:
        n = None
    if n is None or n < minimum:
        _fail(name, value, "must be a whole number of at least %d" % minimum)
    return n


def env_count(name, default, minimum=1):
    """Like env_int, as the text handed on to the tools' command lines."""
    return str(env_int(name, default, minimum))


def env_regex(name):
    """A regular expression (default: matches everything)."""
    value = os.environ.get(name, "")
    try:
        return re.compile(value)
    except re.error as e:
        _fail(name, value, "not a regular expression (%s)" % e)


# ---------------------------------------------------------------- rounds and the A/A band
#
# Every compare script measures each row in ROUNDS rounds. A round runs every
# side once, the order turning by one place each round (A B C, B C A, C A B,
# ...), so that no side always runs first or right after another. The sides
# are the two tools (A/B) and, by default, the reference tool a second time
# under its own label (A/A, "fio#2"): the same tool on both sides of a ratio
# shows how much a ratio moves with nothing changed. A row's figure is the
# median of its per-round A/B ratios, so its A/A band is where a median of
# as many per-round ratios of the reference against itself falls, 95 times
# in 100 (median_band). A row whose median A/B ratio lies inside its band is
# "equal within noise".
#
#   AA=on    (default) A/B and A/A in the same rounds
#   AA=off   A/B only (no band)
#   AA=only  A/A only (the band alone: is this machine quiet enough?)
#   AA_TOOL  the tool run twice: the reference (default) or loadcell

AA_MODES = ("on", "off", "only")


def aa_mode():
    value = os.environ.get("AA", "on").lower()
    aliases = {"1": "on", "yes": "on", "0": "off", "no": "off"}
    value = aliases.get(value, value)
    if value not in AA_MODES:
        _fail("AA", value, "must be one of on, off, only")
    return value


def sides(tool, reference):
    """The labels of one row's sides: tool, reference and the A/A copy."""
    mode = aa_mode()
    twice = os.environ.get("AA_TOOL", reference)
    if twice not in (tool, reference):
        _fail("AA_TOOL", twice, "must be %s or %s" % (reference, tool))
    copy = twice + "#2"
    if mode == "off":
        return [tool, reference]
    if mode == "only":
        return [twice, copy]
    return [tool, reference, copy]


def tool_of(label):
    """The tool a side label runs ("fio#2" runs fio)."""
    return label.split("#")[0]


def round_order(labels, r):
    """Round r's order: the labels turned by r places."""
    k = r % len(labels)
    return labels[k:] + labels[:k]


def run_rounds(labels, rounds, measure, note=None):
    """Runs measure(label) for every label in every round, in round_order.
    Returns {label: [value per round]} (None where a run failed); note(r,
    label, value) is called after each run (progress)."""
    values = {label: [] for label in labels}
    for r in range(rounds):
        for label in round_order(labels, r):
            v = measure(label)
            values[label].append(v)
            if note is not None:
                note(r, label, v)
    return values


BAND_RESAMPLES = 4000
BAND_LEVEL = 0.95


def median_band(aa, rounds):
    """Where the median of `rounds` per-round A/A ratios falls, 95 times in
    100: `rounds` ratios are drawn (with replacement, a fixed seed, so that
    the same rounds give the same band) from the A/A ratios `aa`, each taken
    both ways (x and 1/x: which copy is on top is arbitrary), BAND_RESAMPLES
    times; the band runs from the 2.5th to the 97.5th percentile of their
    medians, made symmetric (1/d to d, d the larger of the two deviations)
    so that it always holds 1. It narrows as rounds are added (about as
    1 / sqrt(rounds)), where the lowest and highest single A/A round only
    widen. With 3 rounds it is that lowest-to-highest range; None without
    A/A ratios."""
    pool = [x for x in aa if x] + [1.0 / x for x in aa if x]
    if not pool or rounds < 1:
        return None
    rng = random.Random(1)
    medians = sorted(statistics.median(rng.choices(pool, k=rounds))
                     for _ in range(BAND_RESAMPLES))
    tail = (1.0 - BAND_LEVEL) / 2.0
    lo = medians[int(tail * BAND_RESAMPLES)]
    hi = medians[int(math.ceil((1.0 - tail) * BAND_RESAMPLES)) - 1]
    d = max(hi, 1.0 / lo, 1.0)
    return (1.0 / d, d)


def _per_round(values, top, bottom, pick):
    out = []
    for a, b in zip(values.get(top, []), values.get(bottom, [])):
        x = pick(a) if a is not None else None
        y = pick(b) if b is not None else None
        if x is not None and y:
            out.append(x / y)
    return out


class Comparison:
    """The per-round ratios top/bottom of one row, and its A/A band."""

    def __init__(self, values, top, bottom, pick=lambda v: v):
        labels = list(values)
        self.ratios = _per_round(values, top, bottom, pick) if top in values else []
        copies = [label for label in labels if "#" in label]
        self.aa = []
        if copies:
            copy = copies[0]
            self.aa = _per_round(values, copy, tool_of(copy), pick)
        if not self.ratios and self.aa:  # AA=only: the band is the row
            self.ratios = list(self.aa)
        self.median = statistics.median(self.ratios) if self.ratios else None
        self.band = median_band(self.aa, len(self.ratios))

    def cells(self):
        """[median ratio, spread, A/A band, verdict] as text."""
        if self.median is None:
            return ["n/a", "n/a", "n/a", ""]
        spread = "%.3f-%.3f" % (min(self.ratios), max(self.ratios))
        if self.band is None:
            return ["%.3f" % self.median, spread, "none", "(no A/A pass)"]
        band = "%.3f-%.3f" % self.band
        # Compared as printed: a ratio of 1.0000001 against a band ending
        # at 1.000 is inside.
        lo, hi = (round(x, 3) for x in self.band)
        inside = lo <= round(self.median, 3) <= hi
        return ["%.3f" % self.median, spread, band,
                "equal within noise" if inside else "outside noise"]


def print_rounds(name, values, show=lambda v: str(v)):
    """Every round's value of every side of one row (stdout)."""
    print("%s:" % name)
    for label, vals in values.items():
        print("  %-12s %s" % (label, "  ".join("n/a" if v is None else show(v) for v in vals)))


def print_table(header, rows, left=1):
    """A plain text table; the first `left` columns are left-aligned."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i < left else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    text = line(header)
    print(text)
    print("-" * len(text))
    for r in rows:
        print(line(r))


RATIO_HEADER = ("median ratio", "spread", "A/A band", "verdict")
RATIO_NOTE = ("median ratio: the median of the per-round ratios; spread: their lowest and "
              "highest; A/A band: where the median of as many rounds of the reference against "
              "itself falls 95 times in 100 (resampled from this run's A/A rounds, both ways); "
              "'equal within noise': the median ratio lies inside the band.")
