// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the GMII MAC. Receive: frames of 1 to 300 bytes and their
// FCS, with sample gaps and sink backpressure, arrive whole, in order,
// without the FCS and not marked bad; frames longer than the FIFO allows
// are cut short and marked bad; a frame with a wrong FCS or rx_er is
// marked bad, and one with a bad preamble does not arrive; a frame of no
// more bytes than an FCS is dropped and counted; frames that find the FIFO
// without room are dropped whole and counted. Transmit: frames leave with
// preamble, start delimiter, their FCS and at least 12 idle bytes between
// them; a source that pauses inside a frame for less than a beat's byte
// times is covered by the beat held ahead, and one that runs dry for longer
// marks the frame with tx_er.
#include "Vtg_gmii_mac.h"
#include "verilated.h"
#include "gmii.hpp"

#include <memory>

static const size_t MAX_BYTES = (64 / 2 - 1) * 8;   // RX_FIFO_LOG2 = 6: bytes before the FCS

struct Tb {
    std::unique_ptr<Vtg_gmii_mac> m{new Vtg_gmii_mac};
    TbRng rng{3};
    GmiiSource src;
    AxisSink rx;
    AxisSource tx;
    GmiiSink out;
    unsigned drops = 0, aborts = 0, sample_gap_pct = 0;
    unsigned tx_hold_cycles = 0;   // withhold the beats after a frame's first for this many cycles
    uint64_t cyc = 0;

    void tick()
    {
        Vtg_gmii_mac &v = *m;
        v.rst = cyc < 4;
        bool sample = !rng.chance(sample_gap_pct);
        uint8_t dv = 0, er = 0, d = 0;
        if (sample) src.next(dv, er, d);
        v.gmii_rx_valid = sample;
        v.gmii_rx_dv = dv, v.gmii_rx_er = er, v.gmii_rxd = d;
        v.m_axis_rx_tready = rx.pick_ready(rng);
        uint8_t tv = 0, tl = 0, tk = 0;
        tx.drive(v.s_axis_tx_tdata, tk, tv, tl, rng);
        v.s_axis_tx_tkeep = tk, v.s_axis_tx_tvalid = tv, v.s_axis_tx_tlast = tl;
        v.clk = 0;
        v.eval();
        if (tx_hold_cycles && tx.pos > 0 && v.s_axis_tx_tready) {
            // withhold the beat the MAC asks for
            v.s_axis_tx_tvalid = 0;
            tx.showing = false;
            tx_hold_cycles--;
            v.eval();
        }
        bool fired = v.s_axis_tx_tvalid && v.s_axis_tx_tready;
        rx.sample(v.m_axis_rx_tdata, v.m_axis_rx_tkeep, v.m_axis_rx_tvalid, v.m_axis_rx_tlast,
                  v.m_axis_rx_tuser);
        v.clk = 1;
        v.eval();
        tx.advance(fired);
        out.sample(v.gmii_tx_en, v.gmii_tx_er, v.gmii_txd);
        drops += v.ev_rx_drop;
        aborts += v.ev_tx_abort;
        cyc++;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    for (unsigned i = 0; i < 8; i++) t.tick();

    // ---- receive: whole frames, gaps and backpressure (the sink keeps up on average)
    std::vector<Bytes> sent;
    t.sample_gap_pct = 20;
    t.rx.stall_pct = 10;
    for (unsigned n = 0; n < 120; n++) {
        Bytes f(1 + t.rng.below(n < 100 ? (unsigned)MAX_BYTES : 300));
        for (auto &b : f) b = (uint8_t)t.rng.next();
        sent.push_back(f);
        t.src.push(gmii_wire(with_fcs(f)));
        while (t.src.busy()) t.tick();
    }
    for (unsigned i = 0; i < 2000; i++) t.tick();
    TB_CHECK(t.drops == 0, "%u drops without pressure", t.drops);
    TB_CHECK(t.rx.frames.size() == sent.size(), "%zu frames of %zu", t.rx.frames.size(), sent.size());
    for (size_t i = 0; i < sent.size() && i < t.rx.frames.size(); i++) {
        const Bytes &g = t.rx.frames[i];
        if (sent[i].size() <= MAX_BYTES) {
            TB_CHECK(g == sent[i] && !t.rx.bad[i], "frame %zu (%zu bytes) differs or is marked bad", i,
                     sent[i].size());
        } else {
            TB_CHECK(g.size() == MAX_BYTES && t.rx.bad[i], "overlong frame %zu: %zu bytes, must be cut and bad",
                     i, g.size());
        }
    }
    t.rx.clear();

    // ---- receive errors: rx_er inside, a wrong FCS, a broken preamble,
    // frames of no more bytes than an FCS
    Bytes e(80, 0x5A);
    t.src.push(gmii_wire(with_fcs(e)), 30);
    Bytes bad_fcs = with_fcs(e);
    bad_fcs[81] ^= 0x10;
    t.src.push(gmii_wire(bad_fcs));
    Bytes bad_pre = gmii_wire(with_fcs(e));
    bad_pre[3] = 0x00;
    t.src.push(bad_pre);
    t.src.push(gmii_wire(with_fcs(Bytes())));
    t.src.push(gmii_wire(Bytes(2, 0x77)));
    t.src.push(gmii_wire(with_fcs(Bytes(1, 0x42))));
    while (t.src.busy()) t.tick();
    for (unsigned i = 0; i < 200; i++) t.tick();
    TB_CHECK(t.rx.frames.size() == 3, "%zu frames of 3", t.rx.frames.size());
    if (t.rx.frames.size() == 3) {
        TB_CHECK(t.rx.frames[0] == e && t.rx.bad[0], "rx_er frame must arrive marked bad");
        TB_CHECK(t.rx.frames[1] == e && t.rx.bad[1], "frame with a wrong FCS must arrive marked bad");
        TB_CHECK(t.rx.frames[2] == Bytes(1, 0x42) && !t.rx.bad[2], "one-byte frame");
    }
    TB_CHECK(t.drops == 2, "%u drops of the two frames without a byte before the FCS", t.drops);
    t.drops = 0;
    t.rx.clear();

    // ---- receive overflow: the sink stops, frames beyond the FIFO are dropped whole
    t.rx.stall_pct = 100;
    t.sample_gap_pct = 0;
    for (unsigned n = 0; n < 10; n++) t.src.push(gmii_wire(with_fcs(Bytes(120, (uint8_t)n))));
    while (t.src.busy()) t.tick();
    t.rx.stall_pct = 0;
    for (unsigned i = 0; i < 500; i++) t.tick();
    TB_CHECK(t.drops > 0 && t.rx.frames.size() + t.drops == 10, "%zu delivered, %u dropped",
             t.rx.frames.size(), t.drops);
    for (size_t i = 0; i < t.rx.frames.size(); i++)
        TB_CHECK(t.rx.frames[i] == Bytes(120, t.rx.frames[i][0]) && !t.rx.bad[i], "frame %zu differs", i);

    // ---- transmit
    std::vector<Bytes> txs;
    for (unsigned n = 0; n < 60; n++) {
        Bytes f(1 + t.rng.below(200));
        for (auto &b : f) b = (uint8_t)t.rng.next();
        txs.push_back(f);
        t.tx.frames.push_back(f);
    }
    while (!t.tx.idle()) t.tick();
    for (unsigned i = 0; i < 100; i++) t.tick();
    TB_CHECK(t.out.frames.size() == txs.size() && t.out.bad == 0, "%zu frames out, %u bad", t.out.frames.size(),
             t.out.bad);
    for (size_t i = 0; i < txs.size() && i < t.out.frames.size(); i++)
        TB_CHECK(t.out.frames[i] == txs[i], "transmitted frame %zu differs", i);
    TB_CHECK(t.out.min_gap >= 12, "gap of %u bytes", t.out.min_gap);

    // ---- a pause of 5 cycles before the second beat: the first beat's 8 bytes cover it
    Bytes paused(64);
    for (auto &b : paused) b = (uint8_t)t.rng.next();
    t.tx.frames.push_back(paused);
    t.tx_hold_cycles = 5;
    while (!t.tx.idle()) t.tick();
    for (unsigned i = 0; i < 100; i++) t.tick();
    TB_CHECK(t.tx_hold_cycles == 0, "the pause was not applied");
    TB_CHECK(t.aborts == 0 && t.out.bad == 0 && t.out.frames.size() == txs.size() + 1 &&
                 t.out.frames.back() == paused,
             "paused frame: %u aborts, %u bad, %zu frames", t.aborts, t.out.bad, t.out.frames.size());

    // ---- transmit abort: the source runs dry for longer than a beat
    t.tx.frames.push_back(Bytes(64, 0x33));
    t.tx_hold_cycles = 20;
    for (unsigned i = 0; i < 200 && !t.aborts; i++) t.tick();
    t.tx.frames.clear();
    t.tx.pos = 0;
    t.tx.showing = false;
    for (unsigned i = 0; i < 100; i++) t.tick();
    TB_CHECK(t.aborts == 1 && t.out.bad == 1, "abort: %u events, %u bad frames", t.aborts, t.out.bad);
    return tb_finish("tg_gmii_mac");
}
