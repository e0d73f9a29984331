// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the byte-serial GMII MAC. Receive: with random sample gaps,
// every frame with a preamble (1 to 7 bytes of 0x55) and a start delimiter
// comes out byte for byte, its last byte marked and a byte received in
// error flagged on that byte; frames with a bad or broken preamble, or
// that start with rx_er, give nothing; a frame's last byte is followed by
// a cycle without a byte. Transmit: frames leave with preamble, start
// delimiter and at least 12 idle bytes between them, in order; a source
// that runs dry inside a frame gets that frame ended with tx_er and the
// rest of it dropped, and the frames after it go out intact. A reset in
// the middle of both leaves nothing behind.
#include "Vtg_gmii_mac8.h"
#include "verilated.h"
#include "gmii.hpp"

#include <algorithm>
#include <memory>

struct RxByte {
    uint8_t d;
    bool last, user;
};

struct Tb {
    std::unique_ptr<Vtg_gmii_mac8> m{new Vtg_gmii_mac8};
    TbRng rng{11};
    uint64_t cyc = 0;

    // receive
    GmiiSource src;
    unsigned sample_gap_pct = 0;
    std::deque<RxByte> rx_want;
    bool rx_prev_last = false;
    uint64_t rx_bytes = 0, rx_frames = 0;

    // transmit
    std::deque<Bytes> tx_frames;   // frames to offer (FCS included)
    std::deque<int> tx_dry_at;     // per frame: byte before which the source withholds (-1: none)
    size_t tx_pos = 0;
    bool tx_dry_now = false;       // withheld this cycle
    bool tx_showing = false;       // the first byte is offered
    std::deque<Bytes> tx_want;     // frames that must arrive whole (without FCS)
    GmiiSink out;
    uint64_t aborts = 0, er_bytes = 0;

    void tick(bool rst = false)
    {
        Vtg_gmii_mac8 &v = *m;
        v.rst = rst;
        bool sample = !rst && !rng.chance(sample_gap_pct);
        uint8_t dv = 0, er = 0, d = 0;
        if (sample) src.next(dv, er, d);
        v.gmii_rx_valid = sample;
        v.gmii_rx_dv = dv, v.gmii_rx_er = er, v.gmii_rxd = d;
        if (!sample) v.gmii_rxd = (uint8_t)rng.next(), v.gmii_rx_dv = rng.below(2), v.gmii_rx_er = rng.below(2);

        // transmit source: a frame's bytes back to back, but for a frame
        // meant to run dry, which withholds one byte for a while
        v.s_tx_tvalid = 0;
        v.s_tx_tdata = (uint8_t)rng.next();
        v.s_tx_tlast = rng.below(2);
        tx_dry_now = false;
        if (!rst && !tx_frames.empty()) {
            const Bytes &f = tx_frames.front();
            tx_dry_now = tx_dry_at.front() == (int)tx_pos && tx_pos > 0;
            // a byte once offered stays until taken
            if (!tx_dry_now && (tx_pos > 0 || tx_showing || !rng.chance(50))) {
                tx_showing = true;
                v.s_tx_tvalid = 1;
                v.s_tx_tdata = f[tx_pos];
                v.s_tx_tlast = tx_pos + 1 == f.size();
            }
        }

        v.clk = 0;
        v.eval();
        bool fired = v.s_tx_tvalid && v.s_tx_tready;
        if (tx_dry_now && v.s_tx_tready && rng.chance(30)) tx_dry_at.front() = -1;   // the byte comes later
        v.clk = 1;
        v.eval();
        cyc++;
        if (rst) return;

        if (fired) tx_showing = false;
        if (fired && ++tx_pos == tx_frames.front().size()) {
            tx_frames.pop_front();
            tx_dry_at.pop_front();
            tx_pos = 0;
        }
        out.sample(v.gmii_tx_en, v.gmii_tx_er, v.gmii_txd);
        aborts += v.ev_tx_abort;
        er_bytes += v.gmii_tx_en && v.gmii_tx_er;

        // received bytes, registered at this edge
        if (v.m_rx_tvalid) {
            TB_CHECK(!rx_prev_last, "cycle %llu: a byte right after a frame's last", (unsigned long long)cyc);
            TB_CHECK(!rx_want.empty(), "cycle %llu: byte %02x received, none expected", (unsigned long long)cyc,
                     v.m_rx_tdata);
            if (!rx_want.empty()) {
                RxByte w = rx_want.front();
                rx_want.pop_front();
                TB_CHECK(v.m_rx_tdata == w.d && v.m_rx_tlast == w.last && v.m_rx_tuser == w.user,
                         "cycle %llu: byte %02x last %u user %u, want %02x %u %u", (unsigned long long)cyc,
                         v.m_rx_tdata, v.m_rx_tlast, v.m_rx_tuser, w.d, w.last, w.user);
            }
            rx_bytes++;
            rx_frames += v.m_rx_tlast;
        }
        rx_prev_last = v.m_rx_tvalid && v.m_rx_tlast;
    }

    // ------------------------------------------------------------ receive
    void rx_frame()
    {
        Bytes f(1 + rng.below(200));
        for (auto &b : f) b = (uint8_t)rng.next();
        unsigned pre = 1 + rng.below(7);
        Bytes w(pre, 0x55);
        w.push_back(0xD5);
        w.insert(w.end(), f.begin(), f.end());
        int err = -1;
        bool good = true;
        switch (rng.below(10)) {
        case 0:   // a byte in error inside the data
            err = (int)(pre + 1 + rng.below((unsigned)f.size()));
            break;
        case 1:   // rx_er on the first preamble byte: ignored whole
            err = 0;
            good = false;
            break;
        case 2:   // a preamble or delimiter byte neither 0x55 nor 0xD5, or no preamble
            if (rng.chance(25)) {
                w.erase(w.begin(), w.begin() + pre);
            } else {
                uint8_t x;
                do x = (uint8_t)rng.next(); while (x == 0x55 || x == 0xD5);
                w[rng.below(pre + 1)] = x;
            }
            good = false;
            break;
        case 3:   // rx_dv ends inside the preamble
            w.resize(1 + rng.below(pre + 1));
            good = false;
            break;
        default: break;
        }
        src.push(w, err);
        if (!good) return;
        size_t first = w.size() - f.size();
        for (size_t i = 0; i < f.size(); i++)
            rx_want.push_back({f[i], i + 1 == f.size(), err == (int)(first + i)});
    }

    // ------------------------------------------------------------ transmit
    void tx_frame()
    {
        Bytes f(1 + rng.below(150));
        for (auto &b : f) b = (uint8_t)rng.next();
        Bytes fw = with_fcs(f);
        int dry = rng.chance(8) ? (int)(1 + rng.below((unsigned)fw.size() - 1)) : -1;
        tx_frames.push_back(fw);
        if (dry < 0) tx_want.push_back(f);
        tx_dry_at.push_back(dry);
    }

    void settle()
    {
        uint64_t end = cyc + 2000000;
        while ((src.busy() || !tx_frames.empty() || !rx_want.empty()) && cyc < end) tick();
        for (int i = 0; i < 30; i++) tick();
        TB_CHECK(rx_want.empty() && tx_frames.empty(), "not drained: %zu bytes to receive, %zu frames to send",
                 rx_want.size(), tx_frames.size());
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    for (int i = 0; i < 4; i++) t.tick(true);
    uint64_t tx_good = 0, tx_bad = 0;
    const unsigned gaps[] = {0, 30, 80};
    for (unsigned g : gaps) {
        t.sample_gap_pct = g;
        for (int n = 0; n < 400; n++) {
            t.rx_frame();
            t.tx_frame();
        }
        t.settle();
    }
    // the frames that ran dry are the ones the sink found bad; the others
    // arrive whole and in order
    TB_CHECK(t.out.frames.size() == t.tx_want.size(), "%zu frames arrived whole, %zu sent without a pause",
             t.out.frames.size(), t.tx_want.size());
    for (size_t i = 0; i < t.out.frames.size() && i < t.tx_want.size(); i++)
        TB_CHECK(t.out.frames[i] == t.tx_want[i], "frame %zu sent differs", i);
    tx_good = t.out.frames.size();
    tx_bad = t.out.bad;
    TB_CHECK(t.out.min_gap >= 12, "gap of %u idle bytes between frames", t.out.min_gap);
    TB_CHECK(t.er_bytes == t.aborts, "%llu bytes sent with tx_er, %llu aborts", (unsigned long long)t.er_bytes,
             (unsigned long long)t.aborts);
    TB_CHECK(tx_bad == t.aborts, "%llu frames ended with an error, %llu aborts", (unsigned long long)tx_bad,
             (unsigned long long)t.aborts);

    // a reset with frames going both ways: nothing half-done survives it
    for (int n = 0; n < 3; n++) {
        t.rx_frame();
        t.tx_frame();
    }
    for (unsigned i = 0, n = 60 + t.rng.below(60); i < n; i++) t.tick();
    for (int i = 0; i < 3; i++) t.tick(true);
    t.src = GmiiSource();
    t.rx_want.clear();
    t.tx_frames.clear();
    t.tx_dry_at.clear();
    t.tx_pos = 0;
    t.tx_showing = false;
    for (int i = 0; i < 20; i++) {
        t.tick();
        TB_CHECK(!t.m->m_rx_tvalid && !t.m->gmii_tx_en, "cycle %llu: a byte after reset", (unsigned long long)t.cyc);
    }
    std::printf("tg_gmii_mac8: %llu bytes in %llu frames received, %llu frames sent whole and %llu ended by the "
                "source running dry; smallest gap %u bytes\n",
                (unsigned long long)t.rx_bytes, (unsigned long long)t.rx_frames, (unsigned long long)tx_good,
                (unsigned long long)tx_bad, t.out.min_gap);
    return tb_finish("tg_gmii_mac8");
}
