#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""Writes the report of one FPGA build (report.txt, summary.json in the
build folder): logic, flip-flops and block RAMs used against what the device
has, Fmax of every clock against its requirement, and the wall time of
synthesis and place-and-route. Exits 1 when the design does not fit or a
clock misses its requirement, unless --explore 1."""
import argparse
import json
import os
import re
import sys

# cell names of each family: logic, flip-flops, block RAM
FAMILY_CELLS = {
    "ecp5": {"logic": "TRELLIS_COMB", "ff": "TRELLIS_FF", "bram": "DP16KD",
             "synth_lut": ["LUT4"], "synth_ff_prefix": "TRELLIS_FF"},
}


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def synth_cells(stat):
    """Cell counts of the top module from Yosys' stat output."""
    cells = {}
    for m in re.finditer(r"^\s+(\d+)\s+\S*\s*(\$?[A-Za-z_][\w$]*)\s*$", stat, re.M):
        cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    for m in re.finditer(r"^\s+([A-Za-z_][\w$]*)\s+(\d+)\s*$", stat, re.M):
        cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    return cells


def log_utilisation(log):
    """Device utilisation printed by nextpnr (also when placement fails)."""
    util = {}
    for m in re.finditer(r"Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", log):
        util[m.group(1)] = {"used": int(m.group(2)), "available": int(m.group(3))}
    return util


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--req-mhz", type=float, default=125.0)
    ap.add_argument("--explore", default="0")
    ap.add_argument("--params", default="", type=str.strip)
    a = ap.parse_args()

    family = "ecp5"
    names = FAMILY_CELLS[family]
    pnr_failed = os.path.exists(os.path.join(a.out, "pnr.failed"))
    pnr = {}
    if not pnr_failed:
        try:
            with open(os.path.join(a.out, "pnr.json")) as f:
                pnr = json.load(f)
        except (OSError, ValueError):
            pnr_failed = True
    log = read(os.path.join(a.out, "pnr.log"))
    util = pnr.get("utilization") or log_utilisation(log)
    cells = synth_cells(read(os.path.join(a.out, "synth.stat")))

    def used(cell):
        return util.get(cell, {}).get("used")

    def avail(cell):
        return util.get(cell, {}).get("available")

    luts = sum(cells.get(c, 0) for c in names["synth_lut"])
    ffs = sum(v for k, v in cells.items() if k.startswith(names["synth_ff_prefix"]))
    fmax = {}
    for clk, v in (pnr.get("fmax") or {}).items():
        fmax[clk] = {"achieved": round(v.get("achieved", 0.0), 2),
                     "constraint": round(v.get("constraint", a.req_mhz), 2)}

    over = [c for c, v in util.items() if v["used"] > v["available"]]
    fits = not over and not pnr_failed
    slow = [c for c, v in fmax.items() if v["achieved"] < v["constraint"]]
    fast_enough = fits and bool(fmax) and not slow

    summary = {
        "board": a.board,
        "family": family,
        "params": a.params,
        "synth_luts": luts,
        "synth_ffs": ffs,
        "logic_cell": names["logic"],
        "logic_used": used(names["logic"]),
        "logic_available": avail(names["logic"]),
        "ff_used": used(names["ff"]),
        "ff_available": avail(names["ff"]),
        "bram_used": used(names["bram"]),
        "bram_available": avail(names["bram"]),
        "fmax_mhz": fmax,
        "req_mhz": a.req_mhz,
        "synth_secs": int(read(os.path.join(a.out, "synth.secs")) or 0),
        "synth_abc": (read(os.path.join(a.out, "synth.abc")) or "default").strip(),
        "pnr_secs": int(read(os.path.join(a.out, "pnr.secs")) or 0),
        "fits": fits,
        "timing_met": fast_enough,
        "pnr_failed": pnr_failed,
    }
    lines = [f"FPGA build report: {a.board} ({family})",
             f"parameters: {a.params or '(board defaults)'}",
             f"synthesis: {luts} LUT4, {ffs} flip-flops ({summary['synth_secs']} s)" +
             ("" if summary["synth_abc"] == "default" else f", ABC script {summary['synth_abc']}"),
             f"place and route: {'FAILED' if pnr_failed else 'done'} ({summary['pnr_secs']} s)",
             "", f"{'resource':<16}{'used':>8}{'available':>11}{'%':>6}"]
    for c in sorted(util):
        u, t = util[c]["used"], util[c]["available"]
        if u == 0:
            continue
        mark = "  OVER" if u > t else ""
        lines.append(f"{c:<16}{u:>8}{t:>11}{(100 * u // t) if t else 0:>6}{mark}")
    lines += ["", f"{'clock':<32}{'Fmax MHz':>10}{'required':>10}"]
    for c, v in sorted(fmax.items()):
        mark = "  MISSED" if v["achieved"] < v["constraint"] else ""
        lines.append(f"{c:<32}{v['achieved']:>10.2f}{v['constraint']:>10.2f}{mark}")
    if not fmax:
        lines.append("(no timing: place and route did not complete)")
    verdict = "PASS" if fits and fast_enough else "FAIL"
    why = []
    if not fits:
        why.append("does not fit" + (f" ({', '.join(over)})" if over else " (place and route failed, see pnr.log)"))
    if fits and not fast_enough:
        why.append("timing not met" + (f" ({', '.join(slow)})" if slow else ""))
    lines += ["", f"verdict: {verdict}" + (f": {'; '.join(why)}" if why else "")]
    tolerated = a.explore == "1"
    if verdict == "FAIL" and tolerated:
        lines.append("(EXPLORE=1: not treated as an error)")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "report.txt"), "w") as f:
        f.write(text)
    summary["verdict"] = verdict
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    sys.stdout.write(text)
    return 0 if verdict == "PASS" or tolerated else 1


if __name__ == "__main__":
    sys.exit(main())
