// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the iCE40 top at its GMII pins: network port looped back,
// bridge frames on the host port; identity, the narrow configuration in
// CONFIG, a remote write to itself and its read back from block RAM.
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
    TB_CHECK((cfg & 0xFFFFFFFF) == 0x10010101, "CONFIG %llx: one context, fetch, queue, 16-byte block",
             (unsigned long long)cfg);
    t.call(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_MEM_SIZE, 1u << 12);
    t.call(TG_BRIDGE_OP_BAR_WRITE, bar_addr(TG_WIN_REMOTE, 0, 0, 0x80), 0x0123456789ABCDEFull);
    TB_CHECK(t.call(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_SYNC, 0, 0, 0)) == 0, "fence");
    TB_CHECK(t.call(TG_BRIDGE_OP_MEM_READ, 0x80) == 0x0123456789ABCDEFull, "remote write in block RAM");
    return tb_finish("tg_ice40_hx8k");
}
