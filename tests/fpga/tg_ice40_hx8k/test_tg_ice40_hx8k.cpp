// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the iCE40 top at its GMII pins: network port looped back,
// bridge frames on the host port; identity, the narrow configuration in
// CONFIG (no fetch table, no region table: PROT_CFG stays 0), a remote write to itself and its read back from block RAM, a
// remote read, a fetch-and-add, and remote enqueues into a queue of
// 16-byte entries until it is full (the refused one leaves the buffer
// as it was), then one more after the consumer has made room.
#include "Vtg_ice40_hx8k.h"
#include "verilated.h"
#include "gmii.hpp"

#include <memory>

struct Tb {
    std::unique_ptr<Vtg_ice40_hx8k> m{new Vtg_ice40_hx8k};
    GmiiSource host_tx;
    GmiiSink host_rx;
    uint16_t seq = 1;

    void tick()
    {
        Vtg_ice40_hx8k &v = *m;
        uint8_t dv, er, d;
        host_tx.next(dv, er, d);
        v.host_rxd = d, v.host_rx_dv = dv, v.host_rx_er = er;
        v.net_rxd = v.net_txd, v.net_rx_dv = v.net_tx_en, v.net_rx_er = v.net_tx_er;
        v.clk = 1, v.net_rx_clk = 1, v.host_rx_clk = 1;
        v.eval();
        host_rx.sample(v.host_tx_en, v.host_tx_er, v.host_txd);
        v.clk = 0, v.net_rx_clk = 0, v.host_rx_clk = 0;
        v.eval();
    }
    uint64_t call(uint8_t op, uint64_t addr, uint64_t data = 0)
    {
        BridgeMsg q, r;
        q.op = op, q.seq = seq++, q.addr = addr, q.data = data, q.strb = 0xFF;
        host_tx.push(gmii_wire(with_fcs(bridge_request(0, q))));
        for (unsigned i = 0; i < 20000 && host_rx.frames.empty(); i++) tick();
        TB_CHECK(host_rx.frames.size() == 1, "no response to op %u", op);
        if (host_rx.frames.empty()) return ~0ull;
        TB_CHECK(bridge_response(0, host_rx.frames.front(), r) && r.seq == q.seq && r.strb == TG_BRIDGE_ST_OK,
                 "response to op %u", op);
        host_rx.frames.clear();
        return r.data;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    for (unsigned i = 0; i < 300; i++) t.tick();
    TB_CHECK((t.call(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_ID) >> 32) == TG_ID_MAGIC, "ID");
    uint64_t cfg = t.call(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_CONFIG);
    TB_CHECK(!(cfg & (TG_CONFIG_SPILL | TG_CONFIG_LINK)), "CONFIG %llx: no spill ring, no link layer",
             (unsigned long long)cfg);
    TB_CHECK((cfg & 0xFFFFFFFF) == 0x10010001, "CONFIG %llx: one context and queue, no fetch table, 16-byte block",
             (unsigned long long)cfg);
    TB_CHECK(cfg & TG_CONFIG_NO_PROT, "CONFIG %llx: no region table", (unsigned long long)cfg);
    // without a region table protection cannot be turned on
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_PROT_CFG, TG_PROT_CFG_ENABLE);
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_PROT_CFG) == 0, "PROT_CFG stays 0");
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_MEM_SIZE, 1u << 12);
    t.call(TG_BRIDGE_OP_BAR_WRITE, bar_addr(TG_WIN_REMOTE, 0, 0, 0x80), 0x0123456789ABCDEFull);
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_SYNC, 0, 0, 0)) == 0, "fence");
    TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, 0x80) == 0x0123456789ABCDEFull, "remote write in block RAM");
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_REMOTE, 0, 0, 0x80)) == 0x0123456789ABCDEFull,
             "remote read");

    // fetch-and-add: the operand, then the load that runs it
    t.call(TG_BRIDGE_OP_BAR_WRITE, bar_addr(TG_WIN_FAA, 0, 0, 0x80), 5);
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_FAA, 0, 0, 0x80)) == 0x0123456789ABCDEFull,
             "fetch-and-add: old value");
    TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, 0x80) == 0x0123456789ABCDEFull + 5, "fetch-and-add: new value");

    // a queue of 256 bytes at 0x400 with 16-byte entries: 8 slots, so 7
    // entries fill it (the tail never reaches the head)
    const uint32_t qb = 0x400;
    t.call(TG_BRIDGE_OP_MEM_WRITE, qb + TG_Q_HEAD, TG_Q_SLOTS);
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_QSEL, 0);
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_QBASE, qb);
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_QCFG, 8 | (4 << 8) | TG_QCFG_ENABLE);
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_QTAIL, TG_Q_SLOTS);
    for (unsigned i = 0; i < 8; i++) {
        t.call(TG_BRIDGE_OP_BAR_WRITE, bar_addr(TG_WIN_REQ, 0, 0, qb), 0xE0000000ull + i);
        for (unsigned c = 0; c < 3000; c++) t.tick();
    }
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_REQ_ACCEPTED) == 7, "7 REQs accepted");
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_REQ_REFUSED) >= 1, "the 8th refused");
    for (unsigned i = 0; i < 7; i++) {
        uint32_t slot = TG_Q_SLOTS + 16 * i;
        TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, qb + slot) == 0xE0000000ull + i, "entry %u", i);
        TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, qb + slot + 8) == 0, "entry %u: zero past its word", i);
    }
    TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, qb + TG_Q_TAIL) == TG_Q_SLOTS + 7 * 16, "tail after 7 entries");
    // the consumer takes every entry and reopens the queue; the refused
    // REQ, sent again after its backoff, lands in the first free slot
    t.call(TG_BRIDGE_OP_MEM_WRITE, qb + TG_Q_HEAD, TG_Q_SLOTS + 7 * 16);
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_QCFG, 8 | (4 << 8) | TG_QCFG_ENABLE);
    for (unsigned c = 0; c < 20000; c++) t.tick();
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_REQ_ACCEPTED) == 8, "the 8th accepted");
    TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, qb + TG_Q_SLOTS + 7 * 16) == 0xE0000007ull, "the 8th entry");
    TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, qb + TG_Q_TAIL) == TG_Q_SLOTS, "tail wrapped to the first slot");
    return tb_finish("tg_ice40_hx8k");
}
