// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// System test of the Colorlight 5A-75B board top at its pins: the
// network port's RGMII transmit pins are looped to its receive pins (the
// node reaches itself through the cable), and a model PHY on the host
// port carries bridge frames. Through the bridge the bench sets MEM_SIZE,
// makes remote writes and reads that cross the RGMII loop, and checks
// them against host memory read through the bridge.
#include "Vtg_colorlight_5a75b.h"
#include "verilated.h"
#include "gmii.hpp"

#include <memory>

static const unsigned NODE = 0;   // the board top's NODE_ID

struct Tb {
    std::unique_ptr<Vtg_colorlight_5a75b> m;
    GmiiSource host_tx;   // towards the board's port 1
    GmiiSink host_rx;     // from the board's port 1
    GmiiSink net_mon;     // frames seen on the network cable
    uint64_t cyc = 0;
    uint16_t seq = 1;
    uint8_t h_dv = 0, h_er = 0, h_d = 0;
    uint8_t t_lo = 0, t_ctl0 = 0, n_lo = 0, n_ctl0 = 0;

    Tb() : m(new Vtg_colorlight_5a75b) {}

    // One 125 MHz cycle in four quarter steps: TX clock rise, RX clocks
    // rise (the 90 degree skew RGMII asks for), TX clock fall, RX clocks fall.
    void tick()
    {
        Vtg_colorlight_5a75b &b = *m;
        b.clk25 = 1;
        b.eval();
        host_tx.next(h_dv, h_er, h_d);
        b.eth0_rxd = b.eth0_txd;
        b.eth0_rx_ctl = b.eth0_tx_ctl;
        t_lo = b.eth1_txd, t_ctl0 = b.eth1_tx_ctl;
        n_lo = b.eth0_txd, n_ctl0 = b.eth0_tx_ctl;
        b.eth1_rxd = h_d & 0xF;
        b.eth1_rx_ctl = h_dv;
        b.eth0_rxc = 1;
        b.eth1_rxc = 1;
        b.eval();
        b.clk25 = 0;
        b.eval();
        b.eth0_rxd = b.eth0_txd;
        b.eth0_rx_ctl = b.eth0_tx_ctl;
        host_rx.sample(t_ctl0, t_ctl0 ^ b.eth1_tx_ctl, (uint8_t)(t_lo | (b.eth1_txd << 4)));
        net_mon.sample(n_ctl0, n_ctl0 ^ b.eth0_tx_ctl, (uint8_t)(n_lo | (b.eth0_txd << 4)));
        b.eth1_rxd = h_d >> 4;
        b.eth1_rx_ctl = h_dv ^ h_er;
        b.eth0_rxc = 0;
        b.eth1_rxc = 0;
        b.eval();
        cyc++;
    }

    // Send one bridge request and wait for its response.
    bool call(uint8_t op, uint64_t addr, uint64_t data, uint8_t strb, BridgeMsg &r)
    {
        BridgeMsg q;
        q.op = op, q.seq = seq++, q.addr = addr, q.data = data, q.strb = strb;
        host_tx.push(gmii_wire(with_fcs(bridge_request(NODE, q))));
        for (unsigned i = 0; i < 20000 && host_rx.frames.empty(); i++) tick();
        TB_CHECK(!host_rx.frames.empty(), "no response to op %u at %llx", op, (unsigned long long)addr);
        if (host_rx.frames.empty()) return false;
        Bytes f = host_rx.frames.front();
        host_rx.frames.pop_front();
        bool ok = bridge_response(NODE, f, r);
        TB_CHECK(ok, "malformed response");
        TB_CHECK(r.op == (op | TG_BRIDGE_OP_RESP) && r.seq == q.seq && r.addr == addr,
                 "response op %02x seq %u", r.op, r.seq);
        return ok;
    }
    uint64_t rd(uint8_t op, uint64_t addr, uint8_t want = TG_BRIDGE_ST_OK)
    {
        BridgeMsg r;
        if (!call(op, addr, 0, 0, r)) return ~0ull;
        TB_CHECK(r.strb == want, "status %u at %llx, expected %u", r.strb, (unsigned long long)addr, want);
        return r.data;
    }
    void wr(uint8_t op, uint64_t addr, uint64_t data, uint8_t strb = 0xFF)
    {
        BridgeMsg r;
        if (call(op, addr, data, strb, r))
            TB_CHECK(r.strb == TG_BRIDGE_ST_OK, "write status %u at %llx", r.strb, (unsigned long long)addr);
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    for (unsigned i = 0; i < 400; i++) t.tick();   // PLL lock and power-on reset

    // identity through the bridge and the host port
    uint64_t id = t.rd(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_ID);
    TB_CHECK((id >> 32) == TG_ID_MAGIC, "CSR ID %llx", (unsigned long long)id);
    TB_CHECK(t.rd(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_NODE_ID) == NODE, "node id");
    t.wr(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_MEM_SIZE, 1u << 14);
    TB_CHECK(t.rd(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_MEM_SIZE) == (1u << 14), "MEM_SIZE");

    // host memory directly
    t.wr(TG_BRIDGE_OP_MEM_WRITE, 0x100, 0x1122334455667788ull);
    TB_CHECK(t.rd(TG_BRIDGE_OP_MEM_READ, 0x100) == 0x1122334455667788ull, "memory word");

    // remote write across the RGMII loop, then read back both ways
    size_t frames_before = t.net_mon.frames.size();
    t.wr(TG_BRIDGE_OP_BAR_WRITE, bar_addr(TG_WIN_REMOTE, 0, NODE, 0x200), 0xCAFEF00D12345678ull);
    uint64_t fence = t.rd(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_SYNC, 0, NODE, 0x200));
    TB_CHECK(fence == 0, "fence status %llu", (unsigned long long)fence);
    TB_CHECK(t.rd(TG_BRIDGE_OP_MEM_READ, 0x200) == 0xCAFEF00D12345678ull, "remote write in memory");
    TB_CHECK(t.rd(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_REMOTE, 0, NODE, 0x200)) == 0xCAFEF00D12345678ull,
             "remote read");
    TB_CHECK(t.net_mon.frames.size() >= frames_before + 4, "frames on the cable: %zu",
             t.net_mon.frames.size() - frames_before);
    TB_CHECK(t.net_mon.bad == 0 && t.host_rx.bad == 0, "bad frames: cable %u, host %u", t.net_mon.bad,
             t.host_rx.bad);
    TB_CHECK(t.net_mon.min_gap >= 12 && t.host_rx.min_gap >= 12, "gap %u / %u", t.net_mon.min_gap,
             t.host_rx.min_gap);
    for (const Bytes &f : t.net_mon.frames)
        TB_CHECK(__tg_get_be(&f[12], 2) == TG_ETHERTYPE, "EtherType on the cable");

    // fetch-and-add across the loop
    t.wr(TG_BRIDGE_OP_MEM_WRITE, 0x300, 40);
    t.wr(TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CTX_BASE + TG_CTX_REG_OPERAND, 2);
    TB_CHECK(t.rd(TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_FAA, 0, NODE, 0x300)) == 40, "FAA old value");
    TB_CHECK(t.rd(TG_BRIDGE_OP_MEM_READ, 0x300) == 42, "FAA new value");

    // the RX counter saw the looped frames; nothing was dropped
    TB_CHECK(t.rd(TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_RX_DROP_FCS) == 0, "FCS drops");
    std::printf("tg_colorlight_5a75b: %llu cycles, %zu frames on the cable\n",
                (unsigned long long)t.cyc, t.net_mon.frames.size());
    return tb_finish("tg_colorlight_5a75b");
}
