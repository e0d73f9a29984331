#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""Host side of the memory-bus bridge (docs/fpga.md): sends one bridge
request through a raw Ethernet socket (Linux AF_PACKET, needs
CAP_NET_RAW) and prints the answer. With unix:PATH in place of IFNAME the
frame goes instead as one datagram to the Unix socket PATH, a simulated
board's host port (tg-board-sim). --dump prints the request frame in hex
instead of sending it. Field offsets and codes are read from
include/tg/tg_hw.h, the header the RTL's definitions come from.

  tg_bridge.py IFNAME [--node N] id
  tg_bridge.py IFNAME [--node N] bar-read ADDR | bar-write ADDR VALUE [STRB]
  tg_bridge.py IFNAME [--node N] bar-burst ADDR VALUE VALUE... (2 to 8 words, one 64-byte block)
  tg_bridge.py IFNAME [--node N] mem-read ADDR | mem-write ADDR VALUE [STRB]
"""
import argparse
import os
import re
import select
import socket
import struct
import sys
import time

HDR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "tg", "tg_hw.h")


def load_defs(path=HDR):
    defs = {}
    with open(path) as f:
        for m in re.finditer(r"#define TG_(\w+)\s+0x([0-9A-F]+)ULL", f.read()):
            defs[m.group(1)] = int(m.group(2), 16)
    return defs


D = load_defs()
OPS = {"bar-write": D["BRIDGE_OP_BAR_WRITE"], "bar-read": D["BRIDGE_OP_BAR_READ"],
       "mem-write": D["BRIDGE_OP_MEM_WRITE"], "mem-read": D["BRIDGE_OP_MEM_READ"],
       "bar-burst": D["BRIDGE_OP_BAR_BURST"]}
STATUS = {D["BRIDGE_ST_OK"]: "OK", D["BRIDGE_ST_BAD_OP"]: "BAD_OP", D["BRIDGE_ST_RANGE"]: "RANGE"}


def bridge_mac(node):
    oui = D["BRIDGE_MAC_OUI"]
    return bytes([oui >> 16 & 0xFF, oui >> 8 & 0xFF, oui & 0xFF, 0x01, node >> 8 & 0xFF, node & 0xFF])


def request(node, src_mac, op, seq, addr, data=0, strb=0xFF, words=()):
    """A request frame; with words, a burst: strb is their count, data
    their byte enables (all set), the words follow from BRIDGE_OFF_WORDS."""
    if words:
        strb, data = len(words), (1 << (8 * len(words))) - 1
    f = bytearray(max(D["BRIDGE_FRAME_BYTES"], D["BRIDGE_OFF_WORDS"] + 8 * len(words)))
    f[0:6] = bridge_mac(node)
    f[6:12] = src_mac
    f[12:14] = struct.pack(">H", D["BRIDGE_ETHERTYPE"])
    f[D["BRIDGE_OFF_VER"]] = D["BRIDGE_VERSION"]
    f[D["BRIDGE_OFF_OP"]] = op
    f[D["BRIDGE_OFF_SEQ"]:D["BRIDGE_OFF_SEQ"] + 2] = struct.pack(">H", seq)
    f[D["BRIDGE_OFF_ADDR"]:D["BRIDGE_OFF_ADDR"] + 8] = struct.pack(">Q", addr)
    f[D["BRIDGE_OFF_STRB"]] = strb
    f[D["BRIDGE_OFF_DATA"]:D["BRIDGE_OFF_DATA"] + 8] = struct.pack("<Q", data)
    for i, w in enumerate(words):
        o = D["BRIDGE_OFF_WORDS"] + 8 * i
        f[o:o + 8] = struct.pack("<Q", w)
    return bytes(f)


def parse(frame, node, op, seq):
    """(status, data) of the response to (op, seq), or None."""
    if len(frame) < D["BRIDGE_FRAME_BYTES"] or frame[6:12] != bridge_mac(node):
        return None
    if struct.unpack(">H", frame[12:14])[0] != D["BRIDGE_ETHERTYPE"]:
        return None
    # a resend's answer echoes the resend bit, an earlier send's does not
    if frame[D["BRIDGE_OFF_OP"]] & ~D["BRIDGE_OP_RESEND"] != op | D["BRIDGE_OP_RESP"]:
        return None
    if struct.unpack(">H", frame[D["BRIDGE_OFF_SEQ"]:D["BRIDGE_OFF_SEQ"] + 2])[0] != seq:
        return None
    data = struct.unpack("<Q", frame[D["BRIDGE_OFF_DATA"]:D["BRIDGE_OFF_DATA"] + 8])[0]
    return frame[D["BRIDGE_OFF_STRB"]], data


# source MAC of frames sent to a simulated board (locally administered)
UNIX_SRC_MAC = bytes([0x02, 0x00, 0x00, 0x00, 0x00, 0x01])


def open_port(ifname):
    """(socket, source MAC) reaching the bridge: a raw socket on interface
    IFNAME, or for unix:PATH a datagram socket connected to PATH and
    autobound (an abstract address), so that the answers come back to it."""
    if ifname.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            s.bind("")
            s.connect(ifname[len("unix:"):])
        except OSError:
            s.close()
            raise
        return s, UNIX_SRC_MAC
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(D["BRIDGE_ETHERTYPE"]))
    s.bind((ifname, 0))
    return s, s.getsockname()[4][:6]


def call(ifname, node, op, addr, data, strb, words=(), timeout=0.5, tries=3):
    s, src = open_port(ifname)
    seq = int(time.time() * 1000) & 0xFFFF
    try:
        for t in range(tries):
            # resends are marked: the bridge answers a repeat of the last
            # request it executed again instead of executing it twice
            s.send(request(node, src, op | (D["BRIDGE_OP_RESEND"] if t else 0), seq, addr, data, strb, words))
            end = time.time() + timeout
            while time.time() < end:
                r, _, _ = select.select([s], [], [], max(0.0, end - time.time()))
                if r:
                    got = parse(s.recv(2048), node, op, seq)
                    if got:
                        return got
        return None
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ifname")
    ap.add_argument("--node", type=lambda x: int(x, 0), default=0)
    ap.add_argument("--dump", action="store_true", help="print the request frame, send nothing")
    ap.add_argument("cmd", choices=["id"] + sorted(OPS))
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    try:
        num = [int(x, 0) for x in a.args]
    except ValueError as e:
        ap.error(str(e))
    words = ()
    if a.cmd == "id":
        op, addr, data, strb = OPS["bar-read"], D["CTRL_CSR_BASE"] + D["CSR_REG_ID"], 0, 0
    elif a.cmd == "bar-burst":
        op, addr, words = OPS[a.cmd], num[0] if num else 0, tuple(num[1:])
        if not 2 <= len(words) <= D["BRIDGE_BURST_WORDS"]:
            ap.error(f"bar-burst needs ADDR and 2 to {D['BRIDGE_BURST_WORDS']} values")
        if addr % 8 or addr % 64 + 8 * len(words) > 64:
            ap.error("bar-burst: ADDR must be 8-byte aligned and the words inside one 64-byte block")
        data = strb = 0
    else:
        op = OPS[a.cmd]
        need = 2 if a.cmd.endswith("write") else 1
        if len(num) < need:
            ap.error(f"{a.cmd} needs {'ADDR VALUE' if need == 2 else 'ADDR'}")
        addr, data = num[0], num[1] if need == 2 else 0
        strb = num[2] if len(num) > 2 else (0xFF if need == 2 else 0)
    if a.dump:
        print(request(a.node, b"\x00" * 6, op, 0, addr, data, strb, words).hex())
        return 0
    try:
        got = call(a.ifname, a.node, op, addr, data, strb, words)
    except OSError as e:
        if not a.ifname.startswith("unix:"):
            raise
        print(f"tg_bridge: {a.ifname}: {e.strerror or e}", file=sys.stderr)   # no simulator there
        return 1
    if got is None:
        print("tg_bridge: no answer", file=sys.stderr)
        return 1
    status, value = got
    print(f"{STATUS.get(status, status)} 0x{value:016x}")
    return 0 if status == D["BRIDGE_ST_OK"] else 1


if __name__ == "__main__":
    sys.exit(main())
