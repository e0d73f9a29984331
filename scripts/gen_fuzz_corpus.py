#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""Writes the seed corpora of the libFuzzer harnesses (tests/fuzz/corpus/NAME/)
from the frame format in scripts/gen_hw_defs.py; --check only compares."""
import os
import struct
import sys
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_hw_defs  # noqa: E402

D = {name: val for _, rows in gen_hw_defs.GROUPS for name, val, _ in gen_hw_defs.expanded(rows)}


def mac(node):
    return struct.pack(">I", D["MAC_OUI"] << 8)[1:] + b"\x00" + struct.pack(">H", node)


def frame(op, src, dst, addr=0, length=8, off=0, cnt=8, tag=0, status=0, payload=None):
    """A frame as the NIC sends it: padded to the minimum, FCS included."""
    hdr = struct.pack(">BBBBBBHHHIQ", D["PROTO_VERSION"], op << D["H_OP_LSB"],
                      status << D["H_STATUS_LSB"], length, off, cnt, 0, 0, tag, addr, 0)
    assert len(hdr) == D["HDR_BYTES"]
    assert struct.calcsize(">BBBBBB") == D["H_SEQ"] and struct.calcsize(">BBBBBBHHH") == D["H_ADDR"]
    if payload is None:
        payload = bytes((i * 37 + op) & 0xFF for i in range(length))
    if op in (D["OP_READ_REQ"], D["OP_ACK"], D["OP_NAK"]):
        payload = b""
    body = mac(dst) + mac(src) + struct.pack(">H", D["ETHERTYPE"]) + hdr + payload
    body = body.ljust(D["MIN_FRAME_BYTES"], b"\x00")
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def frames():
    out = {}
    for name in ("WRITE", "READ_REQ", "READ_RESP", "ATOMIC_RESP", "REQ", "REQ_RESP"):
        out["valid-" + name.lower()] = frame(D["OP_" + name], 0, 1, addr=0x1000, length=8)
    for name in ("ACK", "NAK"):
        out["valid-" + name.lower()] = frame(D["OP_" + name], 0, 1, length=0, cnt=0)
    for name in ("FAA", "SWAP", "CAS"):
        out["valid-" + name.lower()] = frame(D["OP_" + name], 0, 1, addr=0x1008,
                                             length=D["ATOMIC_LEN"])
    out["valid-write-64"] = frame(D["OP_WRITE"], 2, 1, addr=0x2000, length=64, cnt=64)
    out["valid-write-bytes"] = frame(D["OP_WRITE"], 2, 1, addr=0x2000, length=16, off=3, cnt=9)
    out["fence"] = frame(D["OP_READ_REQ"], 0, 1, addr=0, length=0, cnt=0)
    out["truncated"] = frame(D["OP_WRITE"], 0, 1)[:40]
    return out


def beats(data, port, first_mac=True):
    """Switch harness records: one control byte and 8 data bytes per beat."""
    out = b""
    for off in range(0, len(data), 8):
        chunk = data[off:off + 8]
        last = off + 8 >= len(data)
        ctrl = port | (4 if last else 0) | ((len(chunk) - 1) << 3 if last else 0)
        if off == 0 and first_mac:
            ctrl |= 0x40
        out += bytes([ctrl]) + chunk.ljust(8, b"\x00")
    return out


def switch():
    cfg = bytes([1, 0, 10, 0])          # 2 ports, 1 byte per cycle, latency 10, no stalls
    plain = cfg + bytes([0]) + struct.pack("<Q", 1) + bytes([0, 8, 0])
    f01 = frame(D["OP_WRITE"], 0, 1, addr=0x1000, length=16)
    f10 = frame(D["OP_READ_REQ"], 1, 0, addr=0x1000, length=8)
    out = {"two-frames": plain + beats(f01, 0) + beats(f10, 1)}
    # every fault, small output buffers, an outage of port 1
    faults = (cfg + bytes([0x3F]) + struct.pack("<Q", 7) + bytes([2, 4, 3]) +
              struct.pack("<HH", 200, 300) + bytes([1]) + struct.pack("<HH", 50, 400))
    body = b"".join(beats(frame(D["OP_WRITE"], p, 1 - p, addr=8 * k, length=8 * (k % 9),
                                cnt=8 * (k % 9)), p)
                    for k in range(6) for p in (0, 1))
    out["faults-outage"] = faults + body
    out["unknown-mac"] = plain + beats(f01, 0, first_mac=False)
    return out


def drv():
    # opcode byte: [3:0] call, [5:4] client slot; see tests/fuzz/fuzz_drv.c
    create = bytes([0x02, 4, 3])                         # queue of 4 KiB, 8-byte entries
    alloc = bytes([0x00]) + (20000).to_bytes(3, "little") + bytes([12])
    store_tail = bytes([0x09, 0, 0, 200]) + (0xFFFFF).to_bytes(3, "little")
    overflow = bytes([0x0B, 0])
    grow = bytes([0x04, 0])
    freebuf = bytes([0x06, 0, 1])
    destroy = bytes([0x03, 0])
    leave = bytes([0x08])
    free_first = bytes([0x01, 0])                        # the client frees the queue's buffer
    freebuf_other = bytes([0x06, 1, 0])                  # queue 1 frees queue 0's buffer
    alloc_page = bytes([0x00]) + (4096).to_bytes(3, "little") + bytes([0])
    return {
        "free-queue-buffer": create + free_first + alloc_page,
        "freebuf-other-queue": create + create + freebuf_other + alloc_page,
        "queue-life": create + alloc + overflow + grow + freebuf + destroy + leave,
        "corrupt-header": create + store_tail + overflow + grow + destroy,
        "two-clients": create + bytes([0x12, 5, 1]) + alloc + bytes([0x17]) +
        (0x30003).to_bytes(4, "little") + bytes([0x18]) + leave,
    }


def parse():
    return {"".join(c if c.isalnum() else "_" for c in name): name.encode()
            for name in ("sim:0", "sim:tg:1", "sim:cluster:255", "sim:a/b:1",
                         "0000:00:1f.3", "01:00.0", "ffff:ff:1f.7")}


CORPORA = {"fuzz_frame": frames, "fuzz_switch": switch, "fuzz_drv": drv, "fuzz_parse": parse}


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    check = "--check" in sys.argv[1:]
    bad = 0
    for harness, make in CORPORA.items():
        d = os.path.join(top, "tests", "fuzz", "corpus", harness)
        seeds = make()
        if check:
            have = set(os.listdir(d)) if os.path.isdir(d) else set()
            if have != set(seeds):
                bad = 1
            for name, data in seeds.items():
                p = os.path.join(d, name)
                if not os.path.isfile(p) or open(p, "rb").read() != data:
                    bad = 1
            continue
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            if old not in seeds:
                os.remove(os.path.join(d, old))
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    if bad:
        print("gen_fuzz_corpus: tests/fuzz/corpus is stale: run scripts/gen_fuzz_corpus.py")
    return bad


if __name__ == "__main__":
    sys.exit(main())
