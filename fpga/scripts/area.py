#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""Where a synthesized design's LUTs and flip-flops are.

Reads the flattened netlist Yosys wrote (build/fpga/<board>/<top>.json)
and counts LUTs and flip-flops per module instance, by the hierarchical
name of the net each cell drives (flattening keeps instance paths in net
names, "a_inst.b_inst.signal").  A cell whose outputs have only names
Yosys made up is counted under "(no name)".

    fpga/scripts/area.py build/fpga/colorlight_5a75b/tg_colorlight_5a75b.json [--depth 3]
"""
import argparse
import collections
import json
import sys

from report import FAMILY_CELLS

# the synthesized cell names of every family the build report knows
LUT_TYPES = tuple(t for c in FAMILY_CELLS.values() for t in c["synth_lut"])
FF_PREFIXES = tuple(c["synth_ff_prefix"] for c in FAMILY_CELLS.values())


def kind(cell_type):
    if cell_type in LUT_TYPES:
        return "lut"
    if cell_type.startswith(FF_PREFIXES):
        return "ff"
    return None


def driven_bits(cell):
    """The bits a cell drives (its output ports)."""
    dirs = cell.get("port_directions", {})
    for port, bits in cell.get("connections", {}).items():
        if dirs.get(port) == "output":
            for b in bits:
                if isinstance(b, int):
                    yield b


def is_set(attr):
    """A Yosys attribute as a flag: written as a binary string or a number."""
    if isinstance(attr, str):
        return set(attr) <= {"0", "1"} and "1" in attr
    return bool(attr)


def instance_of(name, depth):
    """The instance path of a net name, cut to depth components."""
    parts = name.split(".")[:-1]
    if not parts:
        return "(top)"
    return ".".join(parts[:depth])


def count(netlist, top, depth):
    mod = netlist["modules"].get(top)
    if mod is None:
        raise KeyError(top)
    names = {}
    for name, net in mod.get("netnames", {}).items():
        if net.get("hide_name", 0):
            continue
        for b in net.get("bits", []):
            if isinstance(b, int):
                # the shortest visible name: the one closest to the source
                if b not in names or len(name) < len(names[b]):
                    names[b] = name
    table = collections.defaultdict(lambda: {"lut": 0, "ff": 0})
    for cell in mod.get("cells", {}).values():
        k = kind(cell.get("type", ""))
        if k is None:
            continue
        where = "(no name)"
        for b in driven_bits(cell):
            if b in names:
                where = instance_of(names[b], depth)
                break
        table[where][k] += 1
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", help="netlist written by Yosys (write_json / -json)")
    ap.add_argument("--top", help="top module (default: the one marked top)")
    ap.add_argument("--depth", type=int, default=3, help="instance path components kept (default 3)")
    args = ap.parse_args()
    if args.depth < 1:
        ap.error("--depth must be at least 1")
    try:
        with open(args.json) as f:
            netlist = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"area.py: {args.json}: {e}")
    top = args.top
    if top is None:
        tops = [m for m, v in netlist.get("modules", {}).items()
                if is_set(v.get("attributes", {}).get("top", 0))]
        if len(tops) != 1:
            sys.exit(f"area.py: {args.json}: name the top module with --top (found {len(tops)})")
        top = tops[0]
    try:
        table = count(netlist, top, args.depth)
    except KeyError:
        sys.exit(f"area.py: {args.json}: no module {top}")
    total_lut = sum(v["lut"] for v in table.values())
    total_ff = sum(v["ff"] for v in table.values())
    print(f"{'LUTs':>7} {'FFs':>7}  instance ({top})")
    for where, v in sorted(table.items(), key=lambda kv: (-kv[1]["lut"], -kv[1]["ff"], kv[0])):
        print(f"{v['lut']:7d} {v['ff']:7d}  {where}")
    print(f"{total_lut:7d} {total_ff:7d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
