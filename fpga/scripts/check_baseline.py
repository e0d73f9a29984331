#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""Compares a build's summary.json with its recorded baseline: fails when
logic use grew, or the Fmax of a clock fell, by more than the baseline's
tolerance. A clock's floor is its recorded Fmax less the tolerance, or its
requirement plus the headroom where that is lower: a clock far above its
requirement moves with the placement by tens of percent, and only a fall
toward the requirement is a regression. Each clock's requirement must be
the one recorded (clock_mhz): the simulator's default clock is generated
from it (scripts/gen_hw_defs.py), so a board clock that changes without
the record fails here. --update writes the summary's figures as the new
baseline."""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()

    with open(a.summary) as f:
        s = json.load(f)
    if a.update:
        base = {
            "board": s["board"],
            "params": s["params"],
            "logic_cell": s["logic_cell"],
            "logic_used": s["logic_used"],
            "bram_used": s["bram_used"],
            "fmax_mhz": {c: v["achieved"] for c, v in s["fmax_mhz"].items()},
            "clock_mhz": {c: v["constraint"] for c, v in s["fmax_mhz"].items()},
            "tolerance_pct": {"logic": 3.0, "fmax": 5.0, "fmax_headroom": 25.0},
        }
        with open(a.baseline, "w") as f:
            json.dump(base, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"baseline: wrote {a.baseline}")
        return 0

    with open(a.baseline) as f:
        base = json.load(f)
    tol = base.get("tolerance_pct", {})
    bad = []
    if s["params"] != base["params"]:
        bad.append(f"parameters differ: build '{s['params']}', baseline '{base['params']}'")
    lim = base["logic_used"] * (1 + tol.get("logic", 3.0) / 100)
    used = s.get("logic_used")
    print(f"baseline: {base['logic_cell']} {used} (baseline {base['logic_used']}, limit {lim:.0f})")
    if used is None or used > lim:
        bad.append(f"{base['logic_cell']} {used} exceeds {lim:.0f}")
    for clk, ref in sorted(base["fmax_mhz"].items()):
        got = s["fmax_mhz"].get(clk, {}).get("achieved")
        req = s["fmax_mhz"].get(clk, {}).get("constraint")
        floor = ref * (1 - tol.get("fmax", 5.0) / 100)
        if req:
            floor = min(floor, req * (1 + tol.get("fmax_headroom", 25.0) / 100))
        print(f"baseline: Fmax {clk} {got} MHz (baseline {ref}, floor {floor:.2f})")
        if got is None or got < floor:
            bad.append(f"Fmax of {clk} {got} below {floor:.2f} MHz")
    for clk, ref in sorted(base["clock_mhz"].items()):
        req = s["fmax_mhz"].get(clk, {}).get("constraint")
        print(f"baseline: clock {clk} required {req} MHz (recorded {ref})")
        if req is None or abs(req - ref) > 0.005:
            bad.append(f"{clk} runs at {req} MHz, recorded {ref}: record it (--update) and "
                       "regenerate the simulator's clock (scripts/gen_hw_defs.py)")
    extra = sorted(set(s["fmax_mhz"]) - set(base["clock_mhz"]))
    if extra:
        bad.append(f"clocks not recorded: {', '.join(extra)}")
    for b in bad:
        print(f"baseline: REGRESSION: {b}")
    print("baseline: " + ("FAIL" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
