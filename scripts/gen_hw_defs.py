#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
"""The one source of truth for the NIC's register map, address map and wire
format.  Generates the C header include/tg/tg_hw.h and the Verilog include
rtl/tg_hw_defs.vh, and include/tg/tg_board.h, the clock the board's NIC
core runs, from the clock requirements recorded with the board's baseline
(fpga/baseline/, checked against each build by check-baseline).  `--check`
compares the files with what would be generated and fails on any
difference (run by `make test`)."""

import json
import os
import re
import sys

# The board whose build the simulator's default clock follows.
BOARD = "colorlight_5a75b"
# Gigabit Ethernet: one byte every 8 ns on the MAC's side.
GBE_BYTE_PS = 8000
# Propagation on a simulated cable (and the PHYs around it), in ns.
CABLE_NS = 80

# The descriptor's fields, from the top bit down: (name, bits, comment).
DESC_FIELDS = [
    ("OP", 8, "opcode (TG_OP_*)"),
    ("FLAGS", 8, "TG_FLAG_*"),
    ("STATUS", 8, "status of a response"),
    ("NODE", 16, "destination node (transmit) or source node (receive)"),
    ("ADDR", 32, "target address"),
    ("OFF", 6, "first byte the access covers"),
    ("CNT", 7, "bytes it covers from off"),
    ("LEN", 8, "payload bytes"),
    ("CTX", 8, "source context"),
    ("TAG", 16, "requester's tag"),
    ("KEY", 64, "protection key"),
]


def desc_rows():
    """DESC_<field>_LSB and DESC_<field>_BITS of each field, and DESC_BITS."""
    total = sum(bits for _, bits, _ in DESC_FIELDS)
    rows, top = [], total
    for name, bits, comment in DESC_FIELDS:
        top -= bits
        rows.append(("DESC_%s_LSB" % name, top, comment))
        rows.append(("DESC_%s_BITS" % name, bits, ""))
    rows.append(("DESC_BITS", total, "bits of the fields above"))
    return rows


DESC_ROWS = desc_rows()

# (name, value, comment).  Names become TG_<name> in C and `TG_<name> in RTL.
GROUPS = [
    ("Identity", [
        ("ID_MAGIC", 0x54474E43, "'TGNC': upper 32 bits of CSR ID"),
        ("VERSION_MAJOR", 2, "incompatible changes bump this"),
        ("VERSION_MINOR", 0, "compatible additions bump this"),
        ("PROTO_VERSION", 2, "value of the ver field of every frame"),
        ("ETHERTYPE", 0x88B5, "local experimental EtherType"),
        ("MAC_OUI", 0x025447, "locally administered prefix; MAC = OUI:00:node16"),
    ]),
    ("PCI function (docs/hardware.md)", [
        ("PCI_VENDOR", 0x10EE, "placeholder: the vendor ID a vendor PCIe bridge core reports by default"),
        ("PCI_DEVICE", 0x7447, "placeholder device ID ('tG') until the project has its own ID pair"),
        ("PCI_BAR", 0, "the BAR (sysfs resourceN) that holds the host port"),
    ]),
    ("BAR address map: [46:44] window, [43:40] context, [39:32] node, [31:0] paddr", [
        ("BAR_ADDR_BITS", 47, "width of a host-port address"),
        ("BAR_WIN_SHIFT", 44, "window select field"),
        ("BAR_WIN_BITS", 3, ""),
        ("BAR_CTX_SHIFT", 40, "context field of the data windows"),
        ("BAR_CTX_BITS", 4, "so at most 16 contexts"),
        ("BAR_NODE_SHIFT", 32, "node field of the data windows"),
        ("BAR_NODE_BITS", 8, "so at most 256 nodes"),
        ("PADDR_BITS", 32, "remote physical address bits"),
        ("WIN_CTRL", 0, "CSR page and context pages"),
        ("WIN_REMOTE", 1, "load = blocking remote read, store = posted remote write"),
        ("WIN_SYNC", 2, "load = fence: returns status once earlier ops to node are done"),
        ("WIN_REQ", 3, "store = remote enqueue"),
        ("WIN_FAA", 4, "store = set the operand; load = fetch-and-add the operand, returns the old value"),
        ("WIN_SWAP", 5, "store = set the operand; load = swap in the operand, returns the old value"),
        ("WIN_CAS", 6, "store = set the operand; load = CAS(compare, operand), returns the old value"),
        ("WIN_FINC", 7, "load = fetch-and-increment, returns the old value"),
        ("CTRL_CSR_BASE", 0x0000, "CSR page offset in the control window"),
        ("CTRL_CTX_BASE", 0x10000, "context page c at CTX_BASE + c * PAGE_SIZE"),
        ("PAGE_SIZE", 0x1000, ""),
        ("MAX_BURST_BYTES", 64, "a write burst stays inside one aligned 64-byte block"),
    ]),
    ("CSR page (driver only), 64-bit registers", [
        ("CSR_REG_ID", 0x000, "RO [63:32] ID_MAGIC, [31:16] major, [15:0] minor"),
        ("CSR_REG_NODE_ID", 0x008, "RO this node's id"),
        ("CSR_REG_CYCLES", 0x010, "RO free-running cycle counter"),
        ("CSR_REG_MEM_SIZE", 0x018, "RW bytes of host memory remote nodes may reach (0 after reset)"),
        ("CSR_REG_MAC", 0x020, "RO this node's MAC address"),
        ("CSR_REG_CONFIG", 0x028, "RO [7:0] contexts, [15:8] fetches in flight (0: no fetch table, FETCH_GO and ATOMIC_GO refused), [23:16] queue-table entries, [31:24] block bytes (largest frame payload: 16, 32 or 64), [32] the REQ spill ring is built in (CONFIG_SPILL), [33] the reliable link layer is built in (CONFIG_LINK), [34] the region table is left out (CONFIG_NO_PROT)"),
        ("CSR_REG_SCRATCH", 0x030, "RW scratch register"),
        ("CSR_REG_READ_TIMEOUT", 0x038, "RW cycles a blocking read waits before it fails with PEER_GONE (0: forever)"),
        ("READ_TIMEOUT_RESET", 0x100000, "READ_TIMEOUT after reset"),
        ("CSR_REG_TX_FRAMES", 0x040, "RO frames sent"),
        ("CSR_REG_RX_FRAMES", 0x048, "RO frames received and accepted"),
        ("CSR_REG_RX_DROP_FCS", 0x050, "RO frames dropped: the MAC found them bad (wrong FCS, error symbol; in the simulator also a frame no longer than an FCS, which the board's MAC drops itself)"),
        ("CSR_REG_RX_DROP_TYPE", 0x058, "RO frames dropped: wrong EtherType, version or destination"),
        ("CSR_REG_RX_DROP_MALFORMED", 0x060, "RO frames dropped: truncated, oversized, keep off the stream rule, length mismatch, bad opcode"),
        ("CSR_REG_RX_REFUSED", 0x068, "RO requests refused with an error status"),
        ("CSR_REG_HOST_ERRORS", 0x070, "RO host-port requests refused (misaligned, bad window, bad argument)"),
        ("CSR_REG_RX_STRAY", 0x078, "RO responses that matched no outstanding request"),
        ("CSR_REG_TS_HOST_REQ", 0x080, "RO cycle the last remote-window request was accepted"),
        ("CSR_REG_TS_TX_START", 0x088, "RO cycle the last data frame's first beat left the NIC (ACK and NAK frames not counted)"),
        ("CSR_REG_TS_RX_END", 0x090, "RO cycle the last accepted data frame's last beat arrived (ACK and NAK frames not counted)"),
        ("CSR_REG_TS_RX_DONE", 0x098, "RO cycle the last incoming write finished in host memory"),
        ("CSR_REG_TS_HOST_RESP", 0x0A0, "RO cycle the last remote read answered the host"),
        ("CSR_REG_TS_ENQ_DONE", 0x0A8, "RO cycle the last accepted REQ's tail write was complete"),
        ("CSR_REG_QSEL", 0x100, "RW queue-table entry the next three registers show"),
        ("CSR_REG_QBASE", 0x108, "RW base paddr of the queue's first buffer (aligned to its size)"),
        ("CSR_REG_QCFG", 0x110, "RW [4:0] log2 buffer bytes, [10:8] log2 entry bytes, [16] enable, [17] full"),
        ("CSR_REG_QTAIL", 0x118, "RW byte offset where the NIC writes the next entry"),
        ("CSR_REG_IRQ_STATUS", 0x120, "RW1C [15:0] queue overflowed, [31:16] queue notified"),
        ("CSR_REG_IRQ_MASK", 0x128, "RW interrupt enables, bits as IRQ_STATUS"),
        ("CSR_REG_QARM", 0x130, "W1S arm the notification of queue i (bit i); RO armed queues"),
        ("CSR_REG_REQ_ACCEPTED", 0x138, "RO REQs this node appended to a queue"),
        ("CSR_REG_REQ_REFUSED", 0x140, "RO REQs this node refused (receiver not ready, no queue, malformed)"),
        ("CSR_REG_REQ_RETRIES", 0x148, "RO REQs this node sent again after a refusal"),
        ("CSR_REG_REQ_BACKOFF", 0x150, "RW cycles to wait before sending refused REQs again"),
        ("CSR_REG_ATOMICS", 0x158, "RO atomic operations this node executed for the network"),
        ("CSR_REG_SPILL_BASE", 0x160, "RW paddr of the REQ spill ring (aligned to its size); applies while the ring is empty"),
        ("CSR_REG_SPILL_CFG", 0x168, "RW [4:0] log2 ring entries (0: no ring, at most SPILL_MAX_LOG2); RO [63:32] entries held"),
        ("CSR_REG_REQ_SPILLED", 0x170, "RO REQs this node parked in its spill ring"),
        ("CSR_REG_LINK_CFG", 0x178, "RW link layer: [0] enable, [15:8] max retries, [31:16] ack delay cycles; RO [32] the link-layer paths are in use (follows [0] when no frame is in the NIC)"),
        ("CSR_REG_LINK_RTO", 0x180, "RW link layer: retransmission timeout in cycles (doubles per retry, up to 16x)"),
        ("CSR_REG_LINK_RX_WAIT", 0x188, "RW link layer: cycles an in-order frame may wait for the receive engine before it is dropped"),
        ("CSR_REG_LINK_GONE", 0x190, "RO [15:0] last peer declared gone, [63] a peer is gone; any write clears all"),
        ("CSR_REG_LINK_RETX", 0x198, "RO frames retransmitted"),
        ("CSR_REG_LINK_DUP_DROP", 0x1A0, "RO frames dropped as duplicates"),
        ("CSR_REG_LINK_OOO_DROP", 0x1A8, "RO frames dropped as out of order (after a gap)"),
        ("CSR_REG_LINK_BUSY_DROP", 0x1B0, "RO in-order frames dropped because the receive engine stayed busy"),
        ("CSR_REG_LINK_NAKS_SENT", 0x1B8, "RO NAK frames sent"),
        ("CSR_REG_LINK_ACKS_SENT", 0x1C0, "RO standalone ACK frames sent"),
        ("CSR_REG_LINK_PEER_GONE", 0x1C8, "RO frames discarded because their peer was declared gone"),
        ("CSR_REG_PROT_CFG", 0x1D0, "RW protection: [0] enable (every remote access must name an exported region with its key); RO [63] a revocation waits for the receive engine"),
        ("CSR_REG_RSEL", 0x1D8, "RW region-table entry the next four registers show"),
        ("CSR_REG_RBASE", 0x1E0, "RW first paddr of the region"),
        ("CSR_REG_RLEN", 0x1E8, "RW bytes in the region"),
        ("CSR_REG_RKEY", 0x1F0, "RW the region's key; its low KEY_IDX_BITS bits must be the entry's index"),
        ("CSR_REG_RCFG", 0x1F8, "RW [3:0] RIGHT_* granted, [8] valid; writing it with [8] clear revokes the region"),
        ("CSR_REG_PROT_REFUSED", 0x200, "RO remote accesses refused by the protection check"),
        ("CSR_REG_CLOCK_KHZ", 0x208, "RO the NIC core's clock in kHz, a strap of the build (the board's core clock; the simulator's clock); 0: not given. Readable without TG_OPEN_DRIVER, like ID and CONFIG"),
        ("CSR_QVIEW_BASE", 0x400, "RO the queue table without QSEL: entry i at QVIEW_BASE + i * QVIEW_STRIDE, for monitors that must not move QSEL under the driver"),
        ("CSR_QVIEW_STRIDE", 0x20, "bytes per entry in the queue-table view"),
        ("QVIEW_QBASE", 0x00, "view entry: QBASE"),
        ("QVIEW_QCFG", 0x08, "view entry: QCFG"),
        ("QVIEW_QTAIL", 0x10, "view entry: QTAIL"),
        ("QVIEW_QHEAD", 0x18, "view entry: [63] the NIC remembers a head it read from the buffer, [23:0] that head (0 when [63] is clear)"),
        ("PROT_CFG_ENABLE", 0x1, "PROT_CFG bit 0"),
        ("PROT_CFG_BUSY", 0x8000000000000000, "PROT_CFG bit 63"),
        ("RCFG_VALID", 0x100, "RCFG bit 8"),
        ("RIGHT_READ", 0x1, "remote reads and fetches (and fences, which read nothing)"),
        ("RIGHT_WRITE", 0x2, "remote writes"),
        ("RIGHT_ATOMIC", 0x4, "fetch-and-add, swap, compare-and-swap"),
        ("RIGHT_ENQ", 0x8, "remote enqueue to the queue at the region's first byte"),
        ("REGIONS", 32, "region-table entries"),
        ("KEY_IDX_BITS", 5, "low key bits that name the region-table entry"),
        ("CONFIG_SPILL", 0x100000000, "CONFIG bit 32: SPILL_BASE and SPILL_CFG exist; without it they read 0 and ignore writes"),
        ("CONFIG_LINK", 0x200000000, "CONFIG bit 33: LINK_CFG bit 0 can turn the link layer on"),
        ("CONFIG_NO_PROT", 0x400000000, "CONFIG bit 34: no region table; PROT_CFG and the region registers read 0 and ignore writes, and remote requests are not checked"),
        ("LINK_CFG_ENABLE", 0x1, "LINK_CFG bit 0"),
        ("LINK_CFG_ON", 0x100000000, "LINK_CFG bit 32"),
        ("LINK_CFG_RESET", (32 << 16) | (16 << 8), "LINK_CFG after reset: off, 16 retries, ack delay 32"),
        ("LINK_RTO_RESET", 8000, "LINK_RTO after reset"),
        ("LINK_RX_WAIT_RESET", 1024, "LINK_RX_WAIT after reset"),
        ("REQ_BACKOFF_RESET", 256, "REQ_BACKOFF after reset"),
        ("SPILL_ENTRY_BYTES", 128, "spill ring entry: header, address, mask, key, 8 payload words"),
        ("SPILL_MAX_LOG2", 16, "largest spill ring: 65536 entries"),
        ("QCFG_ENABLE", 1 << 16, ""),
        ("QCFG_FULL", 1 << 17, ""),
    ]),
    ("Context page (one per process), 64-bit registers", [
        ("CTX_REG_STATUS", 0x000, "RW [7:0] status of the first failure since cleared; any write clears it"),
        ("CTX_REG_FETCH_LADDR", 0x008, "RW local destination of a fetch; [2:0] must equal the remote's"),
        ("CTX_REG_FETCH_CPL", 0x010, "RW local address of the 8-byte completion word"),
        ("CTX_REG_FETCH_GO", 0x018, "WO start fetch: [31:0] remote paddr, [47:32] node, [55:48] length"),
        ("CTX_REG_OPERAND", 0x020, "RW operand of atomics: add value, swap value, CAS new value"),
        ("CTX_REG_COMPARE", 0x028, "RW compare value of CAS"),
        ("CTX_REG_ATOMIC_GO", 0x030, "WO start an atomic: [31:0] paddr, [47:32] node, [57:56] AOP_*; old value to FETCH_LADDR"),
        ("CTX_REG_LAST_STATUS", 0x038, "RO status of this context's last blocking load (read, fence, atomic)"),
        ("CTX_REG_KEY", 0x040, "RW protection key carried by every later request of this context"),
        ("CTX_REG_WCHECK", 0x048, "WO send a write of no bytes, checked by the target like a write: [31:0] remote paddr, [47:32] node, [55:48] length (one 64-byte block)"),
        ("CTX_REG_REQ_STATE", 0x050, "RW REQ outcomes of this context (REQST_*); any write clears the failure fields"),
        ("REQST_ISSUED_LSB", 0, "[15:0] number of the last REQ issued (REQs issued, modulo 2^16)"),
        ("REQST_DONE_LSB", 16, "[31:16] REQs finished: delivered, failed, or given up (modulo 2^16)"),
        ("REQST_FAIL_NUM_LSB", 32, "[47:32] number of the first REQ that failed since cleared"),
        ("REQST_FAIL_ST_LSB", 48, "[55:48] its status; 0: none failed"),
        ("REQST_FAIL_CNT_LSB", 56, "[63:56] REQs failed since cleared, saturating at 255"),
        ("FETCH_CPL_DONE", 0x1, "completion word bit 0; status in [15:8]"),
        ("AOP_FAA", 0, "ATOMIC_GO function: fetch-and-add"),
        ("AOP_SWAP", 1, "ATOMIC_GO function: swap"),
        ("AOP_CAS", 2, "ATOMIC_GO function: compare-and-swap"),
    ]),
    ("Queue buffer in host memory (power-of-two size, aligned to it)", [
        ("Q_TAIL", 0x00, "u64 NIC-written: byte offset of the next free slot"),
        ("Q_HEAD", 0x40, "u64 host-written: byte offset of the oldest entry"),
        ("Q_NEXT", 0x48, "u64 host-written: paddr of the next (older) buffer, 0 if none"),
        ("Q_FLAGS", 0x50, "u64 host-written: QF_* flags"),
        ("Q_SIZE", 0x58, "u64 host-written: [7:0] log2 buffer bytes, [15:8] log2 entry bytes"),
        ("Q_SLOTS", 0x80, "first slot; slots run to the end of the buffer"),
        ("Q_MIN_LOG2", 8, "smallest buffer: 256 bytes"),
        ("Q_MAX_LOG2", 24, "largest buffer: 16 MiB"),
        ("QF_DNP", 0x1, "do-not-preempt: a dequeue is in progress"),
        ("QF_FULL", 0x2, "full-queue: the buffer overflowed during a dequeue"),
        ("MAX_QUEUES", 16, "queue-table entries at most"),
    ]),
    ("Status codes (context STATUS, completion words, NAK reasons)", [
        ("ST_OK", 0, ""),
        ("ST_BAD_KEY", 1, "protection key mismatch"),
        ("ST_RANGE", 2, "address outside the target's exported memory or outside the region the key names"),
        ("ST_NOT_READY", 3, "receiver not ready (queue full)"),
        ("ST_MALFORMED", 4, "malformed request"),
        ("ST_BAD_OP", 5, "unknown opcode or window"),
        ("ST_NO_QUEUE", 6, "no such queue"),
        ("ST_MISALIGNED", 7, "misaligned address or length"),
        ("ST_PEER_GONE", 8, "peer unreachable"),
        ("ST_NO_RIGHT", 9, "the region does not grant this kind of access"),
    ]),
    ("Wire format, version 2: Ethernet II + 24-byte header (big-endian fields) + payload, zero-padded to 60 bytes, + FCS", [
        ("ETH_HDR_BYTES", 14, "dst MAC, src MAC, EtherType; the MACs carry the node ids"),
        ("HDR_OFF", 14, "frame offset of the Telegraphos header"),
        ("HDR_BYTES", 24, ""),
        ("PAYLOAD_OFF", 38, "frame offset of the payload"),
        ("MAX_PAYLOAD", 64, "payload bytes, a multiple of 8"),
        ("FCS_BYTES", 4, ""),
        ("MIN_FRAME_BYTES", 60, "a shorter frame is zero-padded to this before its FCS"),
        ("MAX_FRAME_BYTES", 106, "38 + 64 + 4"),
        ("H_VER", 0, "u8 protocol version"),
        ("H_OP", 1, "u8[3:0] opcode"),
        ("H_FLAGS", 1, "u8[7:4] flags"),
        ("H_STATUS", 2, "u8[3:0] status of a response"),
        ("H_CTX", 2, "u8[7:4] source context"),
        ("H_LEN", 3, "u8 payload bytes (a multiple of 8, at most 64); a read request: the bytes asked for"),
        ("H_OFF", 4, "u8 first byte the access covers, from addr"),
        ("H_CNT", 5, "u8 bytes the access covers from off (off + cnt at most 64)"),
        ("H_SEQ", 6, "u16 link sequence number"),
        ("H_ACK", 8, "u16 cumulative acknowledgement: next seq expected from the receiver"),
        ("H_TAG", 10, "u16 requester's tag, echoed in the response"),
        ("H_ADDR", 12, "u32 target address, 8-byte aligned"),
        ("H_KEY", 16, "u64 protection key"),
        ("OP_WRITE", 0x01, "payload words written, bytes off to off + cnt - 1"),
        ("OP_READ_REQ", 0x02, "read len bytes at addr; off and cnt say which bytes are wanted"),
        ("OP_READ_RESP", 0x03, "response: payload = words read, status"),
        ("OP_FAA", 0x04, "fetch-and-add: payload = operand, compare (16 bytes), off 0, cnt 8"),
        ("OP_ATOMIC_RESP", 0x05, "response to FAA/SWAP/CAS: payload = old value (8 bytes), status"),
        ("OP_REQ", 0x06, "remote enqueue: addr = queue base, payload = entry"),
        ("OP_REQ_RESP", 0x07, "response to a REQ: status OK, NOT_READY, NO_QUEUE or MALFORMED"),
        ("OP_ACK", 0x08, "link acknowledgement: no payload, ack = next seq expected"),
        ("OP_NAK", 0x09, "link negative acknowledgement: no payload, resend from seq = ack"),
        ("OP_SWAP", 0x0A, "swap: payload as FAA"),
        ("OP_CAS", 0x0B, "compare-and-swap: payload as FAA; writes operand if the word equals compare"),
        ("ATOMIC_LEN", 16, "payload bytes of an atomic request"),
        ("TAG_FETCH", 0x8000, "tag bit 15: response goes to memory (fetch), else to the host port"),
        ("TAG_REQ", 0x4000, "tag bit 14: a REQ, [3:0] its slot in the sender's REQ buffer"),
        ("FLAG_RETRY", 0x1, "flags bit 0: a REQ sent again after a refusal"),
        ("FLAG_SEQ", 0x2, "flags bit 1: seq and ack are valid (link layer on at the sender)"),
    ]),
    ("Transmit payloads inside the core (docs/design.md, Storage): a descriptor names a buffer and a slot", [
        ("PAY_NONE", 0, "no payload buffer: the frame's payload words are zeros"),
        ("PAY_REQ", 1, "the request buffer: written by the host port"),
        ("PAY_RSP", 2, "the response buffer: written by the receive engine"),
        ("PAY_SPILL", 3, "the spill buffer: REQs read back from the spill ring"),
        ("PAY_SLOT_BITS", 5, "slot number bits at most: up to 32 slots of one block per buffer"),
        ("PAY_HOLD_WIRE", 1, "hold bit 0: the path to the wire (sender, link layer until acked)"),
        ("PAY_HOLD_REQ", 2, "hold bit 1: the REQ sender, until the REQ is answered or fails"),
    ]),
    ("Descriptor between the core's blocks (docs/design.md, Storage): a frame's header fields, "
     "packed from the top bit down; a transmit descriptor adds its payload reference "
     "(buffer and slot, TG_PAY_*) below them", DESC_ROWS),
    ("Host bridge over raw Ethernet (FPGA boards, docs/fpga.md): byte offsets from the frame start", [
        ("BRIDGE_ETHERTYPE", 0x88B6, "local experimental EtherType of bridge frames"),
        ("BRIDGE_VERSION", 1, "value of the ver byte"),
        ("BRIDGE_MAC_OUI", 0x025447, "bridge MAC = OUI:01:node16"),
        ("BRIDGE_OFF_VER", 14, "u8 version"),
        ("BRIDGE_OFF_OP", 15, "u8 operation; a response has bit 7 set"),
        ("BRIDGE_OFF_SEQ", 16, "u16 big-endian, echoed in the response"),
        ("BRIDGE_OFF_ADDR", 18, "u64 big-endian: BAR address or host-memory address, 8-byte aligned"),
        ("BRIDGE_OFF_STRB", 26, "u8 byte enables of a write; status in a response"),
        ("BRIDGE_OFF_DATA", 28, "u64 little-endian: write data, or the value read"),
        ("BRIDGE_OFF_WORDS", 36, "burst: the first of its u64 little-endian words"),
        ("BRIDGE_FRAME_BYTES", 60, "frame length before the FCS (requests at least this, zero-padded)"),
        ("BRIDGE_BURST_WORDS", 8, "words a burst carries at most (TG_MAX_BURST_BYTES / 8)"),
        ("BRIDGE_OP_BAR_WRITE", 1, "host-port write (one beat, last set)"),
        ("BRIDGE_OP_BAR_READ", 2, "host-port read"),
        ("BRIDGE_OP_MEM_WRITE", 3, "write to the NIC's host memory"),
        ("BRIDGE_OP_MEM_READ", 4, "read of the NIC's host memory"),
        ("BRIDGE_OP_BAR_BURST", 5, "host-port write burst: strb = words, data = their byte enables"),
        ("BRIDGE_OP_RESP", 0x80, "response bit of op"),
        ("BRIDGE_OP_RESEND", 0x40, "resend bit of op: answered again, not executed, if it repeats the last request executed"),
        ("BRIDGE_ST_OK", 0, "done"),
        ("BRIDGE_ST_BAD_OP", 1, "unknown operation"),
        ("BRIDGE_ST_RANGE", 2, "address misaligned, or outside the BAR or the memory"),
    ]),
]


def expanded(rows):
    """The rows, each header field that is part of a byte ("u8[7:4] ...")
    followed by its H_<name>_LSB and H_<name>_BITS."""
    for name, val, comment in rows:
        yield name, val, comment
        m = re.match(r"u8\[(\d):(\d)\] ", comment)
        if name.startswith("H_") and m:
            hi, lo = int(m.group(1)), int(m.group(2))
            yield name + "_LSB", lo, "lowest bit of %s in its byte" % name[2:].lower()
            yield name + "_BITS", hi - lo + 1, ""


def c_header():
    out = ["/* SPDX-License-Identifier: MIT */",
           "/* Copyright (c) 2026 The Telegraphos NIC authors */",
           "/* Register map, address map and wire format of the Telegraphos NIC.",
           " * Generated by scripts/gen_hw_defs.py: edit that file, not this one. */",
           "#ifndef TG_HW_H", "#define TG_HW_H", ""]
    for title, rows in GROUPS:
        out.append("/* %s */" % title)
        for name, val, comment in expanded(rows):
            line = "#define TG_%-28s 0x%XULL" % (name, val)
            if comment:
                line += "  /* %s */" % comment
            out.append(line)
        out.append("")
    out.append("#endif /* TG_HW_H */")
    return "\n".join(out) + "\n"


def vh_header():
    out = ["// SPDX-License-Identifier: MIT",
           "// Copyright (c) 2026 The Telegraphos NIC authors",
           "// Register map, address map and wire format of the Telegraphos NIC.",
           "// Generated by scripts/gen_hw_defs.py: edit that file, not this one.",
           "`ifndef TG_HW_DEFS_VH", "`define TG_HW_DEFS_VH", ""]
    for title, rows in GROUPS:
        out.append("// %s" % title)
        for name, val, comment in expanded(rows):
            line = "`define TG_%-28s %d" % (name, val)
            if comment:
                line += "  // %s" % comment
            out.append(line)
        out.append("")
    out.append("`endif // TG_HW_DEFS_VH")
    return "\n".join(out) + "\n"


def board_clock(top):
    """(core clock MHz, link bytes per core cycle) of BOARD, from the
    requirements recorded in its baseline."""
    path = os.path.join(top, "fpga", "baseline", BOARD + ".json")
    with open(path) as f:
        req = json.load(f)["clock_mhz"]
    mac = req["$glbnet$clk"]
    core = req.get("$glbnet$core_clk", mac)
    ratio = mac / core
    bpc = round(ratio)
    if bpc < 1 or abs(ratio - bpc) > 0.01:
        raise SystemExit("gen_hw_defs: %s: the MAC clock (%.2f MHz) is not a whole multiple "
                         "of the core clock (%.2f MHz): the simulator's links move whole "
                         "bytes per cycle" % (path, mac, core))
    return core, bpc


def board_header(top):
    core, bpc = board_clock(top)
    ps = bpc * GBE_BYTE_PS
    cable = max(1, (CABLE_NS * 1000 + ps // 2) // ps)
    rows = [
        ("BOARD_NAME", '"%s"' % BOARD, "the board the defaults follow"),
        ("BOARD_CORE_PS", "%du" % ps, "period of its NIC core's clock (%.2f MHz)" % core),
        ("BOARD_LINK_BYTES", "%du" % bpc, "Gigabit Ethernet bytes per core cycle"),
        ("BOARD_CABLE_CYCLES", "%du" % cable, "%d ns of cable, rounded to core cycles (%d ns)"
         % (CABLE_NS, cable * ps // 1000)),
    ]
    out = ["/* SPDX-License-Identifier: MIT */",
           "/* Copyright (c) 2026 The Telegraphos NIC authors */",
           "/* The clock the board's NIC core runs, from the clock requirements of",
           " * fpga/baseline/%s.json (which check-baseline compares with each" % BOARD,
           " * build's report): the simulator's default timing.",
           " * Generated by scripts/gen_hw_defs.py: edit that file, not this one. */",
           "#ifndef TG_BOARD_H", "#define TG_BOARD_H", ""]
    for name, val, comment in rows:
        out.append("#define TG_%-20s %s  /* %s */" % (name, val, comment))
    out += ["", "#endif /* TG_BOARD_H */"]
    return "\n".join(out) + "\n"


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = {os.path.join(top, "include", "tg", "tg_hw.h"): c_header(),
             os.path.join(top, "rtl", "tg_hw_defs.vh"): vh_header(),
             os.path.join(top, "include", "tg", "tg_board.h"): board_header(top)}
    check = "--check" in sys.argv[1:]
    bad = 0
    for path, text in files.items():
        if check:
            try:
                with open(path) as f:
                    cur = f.read()
            except OSError:
                cur = None
            if cur != text:
                print("gen_hw_defs: %s is stale: run scripts/gen_hw_defs.py" % path)
                bad = 1
        else:
            with open(path, "w") as f:
                f.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
