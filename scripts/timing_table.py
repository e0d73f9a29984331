#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""Prints the wall time of each part of a run, from the lines that
scripts/timed.sh appended to FILE (kind, name, milliseconds, exit status),
and, with --jobs, how much time the jobs of each kind took inside those
parts (they run side by side, so their times add up to more than the
wall time of the part that ran them)."""
import argparse
import collections
import sys


def read(path):
    rows = []
    try:
        with open(path) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) == 4:
                    rows.append((fields[0], fields[1], int(fields[2]), int(fields[3])))
    except FileNotFoundError:
        pass
    return rows


def mmss(ms):
    s = (ms + 500) // 1000
    return "%d:%02d" % (s // 60, s % 60)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("file", help="the parts, as timed.sh wrote them")
    ap.add_argument("--title", default="time by part")
    ap.add_argument("--jobs", help="the jobs run inside the parts, as timed.sh wrote them")
    a = ap.parse_args()

    parts = read(a.file)
    width = max([len(n) for _, n, _, _ in parts] + [len("total"), 20])
    print()
    print("%s (wall clock, m:ss)" % a.title)
    print("  %-*s  %7s  %s" % (width, "part", "wall", "status"))
    total = 0
    for _, name, ms, rc in parts:
        total += ms
        print("  %-*s  %7s  %s" % (width, name, mmss(ms), "ok" if rc == 0 else "FAILED (exit %d)" % rc))
    print("  %-*s  %7s" % (width, "total", mmss(total)))

    if a.jobs:
        jobs = read(a.jobs)
        if jobs:
            by_kind = collections.OrderedDict()
            for kind, name, ms, rc in jobs:
                n, t, slow = by_kind.get(kind, (0, 0, ("", 0)))
                by_kind[kind] = (n + 1, t + ms, (name, ms) if ms > slow[1] else slow)
            print()
            print("  jobs inside the parts (run side by side; time summed over jobs)")
            print("  %-14s %5s  %8s  %s" % ("kind", "jobs", "sum", "longest"))
            for kind, (n, t, slow) in by_kind.items():
                print("  %-14s %5d  %8s  %s (%s)" % (kind, n, mmss(t), slow[0], mmss(slow[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
