#!/usr/bin/env python3
"""What a block device was asked while a command ran: /proc/diskstats before
and after, and the process's CPU time (wait4), on Linux.

Usage:
  bench/diskstats.py [--dir DIR] -- COMMAND [ARG...]
prints the deltas of the device that holds DIR (default: the current
folder) over the command's run, and its CPU time. bench/compare-fio imports
it and prints the same per tool and row.

The counters are the whole device's, not the process's: anything else that
reads or writes that device at the same time (a build, another benchmark)
is counted too, so on a shared machine read the read-side figures of an
O_DIRECT read test (a build mostly writes, and reads from the page cache)
and label them as taken under load.

Derived figures (fields as in the kernel's Documentation/admin-guide/
iostats.rst; "reads" are completed read requests as the device saw them,
after the block layer merged what it could):
  reads, merges    read requests completed, and reads merged into others
  KiB/read         sectors read x 512 / reads: the request size the device got
  ms/read          time spent reading / reads: the device's mean time per
                   read, from issue to the block layer to completion
                   (includes the time queued in the I/O scheduler)
  depth            time spent reading / elapsed: reads in flight at the
                   device on average (Little's law), the queue depth the
                   device really saw
  util             time the device had any I/O in flight / elapsed
  writes           write requests completed (someone else's, in a read test)
"""

import os
import subprocess
import sys
import time

SECTOR = 512


def device_of(path):
    """The /proc/diskstats name of the whole disk that holds path (a
    partition's parent), or None (e.g. tmpfs, overlay without a device)."""
    st = os.stat(path)
    sys_dev = "/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
    try:
        real = os.path.realpath(sys_dev)
    except OSError:
        return None
    if not os.path.exists(real):
        return None
    if os.path.exists(os.path.join(real, "partition")):
        real = os.path.dirname(real)
    return os.path.basename(real)


def snapshot(device):
    """The device's counters now: {field: int} (None if it is not listed)."""
    names = ("reads", "read_merges", "read_sectors", "read_ms", "writes", "write_merges",
             "write_sectors", "write_ms", "in_flight", "io_ms", "weighted_ms")
    with open("/proc/diskstats") as f:
        for line in f:
            cols = line.split()
            if len(cols) >= 14 and cols[2] == device:
                values = dict(zip(names, (int(c) for c in cols[3:14])))
                values["t"] = time.monotonic()
                return values
    return None


def delta(before, after):
    """Derived figures between two snapshots (see the module comment)."""
    if before is None or after is None:
        return None
    d = {k: after[k] - before[k] for k in before if k != "in_flight"}
    elapsed_ms = (after["t"] - before["t"]) * 1000.0
    reads = d["reads"]
    return {
        "reads": reads,
        "merges": d["read_merges"],
        "kib_per_read": d["read_sectors"] * SECTOR / 1024.0 / reads if reads else 0.0,
        "ms_per_read": d["read_ms"] / reads if reads else 0.0,
        "depth": d["read_ms"] / elapsed_ms if elapsed_ms > 0 else 0.0,
        "util": d["io_ms"] / elapsed_ms if elapsed_ms > 0 else 0.0,
        "writes": d["writes"],
    }


def describe(d):
    """One line of the derived figures."""
    if d is None:
        return "no diskstats"
    return ("reads %d, merges %d, %.1f KiB/read, %.3f ms/read, depth %.1f, util %.2f, "
            "writes %d" % (d["reads"], d["merges"], d["kib_per_read"], d["ms_per_read"],
                           d["depth"], d["util"], d["writes"]))


def run_measured(argv, device):
    """Runs argv; returns (exit code, output text, user s, system s, deltas)."""
    before = snapshot(device) if device else None
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    after = snapshot(device) if device else None
    return (os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace"), usage.ru_utime,
            usage.ru_stime, delta(before, after))


def main(args):
    where = "."
    if args[:1] == ["--dir"] and len(args) >= 2:
        where, args = args[1], args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.stderr.write("usage: diskstats.py [--dir DIR] -- COMMAND [ARG...]\n")
        return 2
    device = device_of(where)
    code, out, user, system, d = run_measured(args, device)
    sys.stdout.write(out)
    print("diskstats %s: %s; CPU user %.3f s, system %.3f s" % (device, describe(d), user, system))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
