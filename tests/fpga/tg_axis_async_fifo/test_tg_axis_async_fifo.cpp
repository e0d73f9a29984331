// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the AXI-Stream clock crossing in frame mode (built with
// FRAME=1): frames of 1 to 17 beats written with random gaps, read at
// several clock ratios by a random reader and by a MAC-paced reader.
// Every beat comes out once, in order and with its tuser; no frame is offered before its
// last beat went in; once a frame's first beat is taken, tvalid holds
// until its last; the input side stalls while the FIFO is full.
#include "Vtg_axis_async_fifo.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

struct Beat {
    uint64_t data;
    uint8_t keep;
    bool last;
    bool user;
    unsigned frame;
};

static void run(unsigned s_half, unsigned m_half, unsigned gap_pct, bool mac_paced,
                unsigned stall_until, uint64_t seed)
{
    std::unique_ptr<Vtg_axis_async_fifo> m(new Vtg_axis_async_fifo);
    TbRng rng(seed);
    std::deque<Beat> to_send, in_flight;
    std::vector<bool> last_in;              // per frame: its last beat was written
    unsigned frames = 0, beats_out = 0, frames_out = 0, full_seen = 0;
    bool in_frame = false;                  // the reader took a frame's first beat
    unsigned pace = 0;

    // build the frames up front: 1..17 beats, a random keep on the last
    for (unsigned f = 0; f < 400; f++) {
        unsigned n = 1 + rng.below(17);
        for (unsigned i = 0; i < n; i++) {
            Beat b;
            b.data = rng.next();
            b.keep = (i + 1 == n) ? (uint8_t)(0xFF >> rng.below(8)) : 0xFF;
            b.last = (i + 1 == n);
            b.user = rng.chance(50);
            b.frame = f;
            to_send.push_back(b);
        }
        frames++;
    }
    last_in.assign(frames, false);

    m->m_rst = 1;
    m->s_axis_tvalid = 0;
    m->m_axis_tready = 0;
    uint64_t t_end = 4000000;
    for (uint64_t t = 0; t < t_end && (beats_out == 0 || !in_flight.empty() || !to_send.empty()); t++) {
        bool s_edge = (t % s_half) == 0 && (t / s_half) % 2 == 0;
        bool m_edge = (t % m_half) == 0 && (t / m_half) % 2 == 0;
        if (t == 40 * (s_half + m_half)) m->m_rst = 0;
        bool live = t > 60 * (s_half + m_half);
        if (s_edge) {
            // inputs for this edge, decided from the settled outputs
            bool show = live && !to_send.empty() && !rng.chance(gap_pct);
            if (show) {
                const Beat &b = to_send.front();
                m->s_axis_tdata = b.data;
                m->s_axis_tkeep = b.keep;
                m->s_axis_tlast = b.last;
                m->s_axis_tuser = b.user;
                if (m->s_axis_tready) {
                    if (b.last) last_in[b.frame] = true;
                    in_flight.push_back(b);
                    to_send.pop_front();
                } else {
                    full_seen++;
                }
            }
            m->s_axis_tvalid = show;
        }
        if (m_edge && !m->m_rst) {
            if (in_frame)
                TB_CHECK(m->m_axis_tvalid, "tvalid fell inside frame %u at t=%llu", frames_out,
                         (unsigned long long)t);
            // a MAC takes one beat in eight once a frame has started, and
            // waits a random while between frames
            bool ready;
            if (t < stall_until) {
                ready = false;
            } else if (mac_paced) {
                if (in_frame) ready = (++pace % 8) == 0;
                else ready = (pace = 0, rng.chance(30));
            } else {
                ready = rng.chance(60);
            }
            m->m_axis_tready = ready;
            if (ready && m->m_axis_tvalid) {
                TB_CHECK(!in_flight.empty(), "a beat out of an empty FIFO");
                if (!in_flight.empty()) {
                    Beat b = in_flight.front();
                    in_flight.pop_front();
                    TB_CHECK(m->m_axis_tdata == b.data && m->m_axis_tkeep == b.keep &&
                                 (bool)m->m_axis_tlast == b.last && (bool)m->m_axis_tuser == b.user,
                             "frame %u: beat %016llx/%02x/%d/%d, expected %016llx/%02x/%d/%d", b.frame,
                             (unsigned long long)m->m_axis_tdata, m->m_axis_tkeep, m->m_axis_tlast,
                             m->m_axis_tuser, (unsigned long long)b.data, b.keep, b.last, b.user);
                    if (!in_frame) TB_CHECK(last_in[b.frame], "frame %u offered before its last beat", b.frame);
                    in_frame = !b.last;
                    beats_out++;
                    if (b.last) frames_out++;
                }
            }
        }
        m->s_clk = (t / s_half) % 2 == 0;
        m->m_clk = (t / m_half) % 2 == 0;
        m->eval();
    }
    TB_CHECK(to_send.empty() && in_flight.empty(), "%zu beats unsent, %zu never came out", to_send.size(),
             in_flight.size());
    TB_CHECK(frames_out == frames, "%u of %u frames came out", frames_out, frames);
    if (stall_until) TB_CHECK(full_seen > 0, "the input never stalled while the output was held");
    std::printf("  s/m half-periods %u/%u, %s reader: %u frames, %u beats\n", s_half, m_half,
                mac_paced ? "MAC-paced" : "random", frames_out, beats_out);
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    run(8, 2, 20, true, 0, 1);        // NIC core at a quarter of the MAC clock (the boards)
    run(8, 2, 0, true, 0, 2);         // back-to-back beats
    run(3, 7, 10, false, 0, 3);       // fast writer, slow reader
    run(4, 4, 30, false, 0, 4);       // one clock
    run(5, 3, 10, true, 200000, 5);   // output held: the input fills and stalls
    run(7, 2, 50, true, 0, 6);        // slow writer with long gaps
    return tb_finish("tg_axis_async_fifo");
}
