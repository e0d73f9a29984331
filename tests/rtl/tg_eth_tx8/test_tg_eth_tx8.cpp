// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the byte-serial frame transmitter: a writer fills slots with
// bytes 14 on of frames the C encoder built (random header fields and
// payloads of every length, bytes written in random order, some first with
// junk, junk in the slot bytes the transmitter must not use, junk writes
// while no slot is free); every frame must come out equal to the encoder's,
// Ethernet header and FCS included, in hand-over order and once, under
// random backpressure, with the stream stability rule, a byte offered every
// cycle inside a frame, the event pulses, back-to-back frames when the next
// slot is ready in time, and a reset in the middle of a frame checked.
#include "Vtg_eth_tx8.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <memory>

static const uint8_t OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_REQ,  TG_OP_REQ_RESP, TG_OP_FAA,
                              TG_OP_SWAP,  TG_OP_CAS,      TG_OP_ATOMIC_RESP, TG_OP_ACK, TG_OP_NAK};

struct Out {
    Bytes b;          // the whole frame the encoder made, FCS included
    unsigned plen;    // payload bytes
    uint64_t commit;  // cycle of the hand-over
};

struct Tb {
    std::unique_ptr<Vtg_eth_tx8> m;
    TbRng rng;
    uint16_t node = 0;
    uint64_t cyc = 0;

    std::deque<Out> todo;        // frames still to write and hand over
    std::deque<Out> handed;      // handed over, not yet seen whole
    std::vector<unsigned> order; // write order of the current frame's offsets
    size_t wr_pos = 0;           // next entry of order
    bool wr_junk_first = false;  // write junk to each offset before its byte
    bool wr_junk_done = false;
    unsigned wr_gap_pct = 0, stall_pct = 0;

    Bytes cur;                   // bytes of the frame coming out
    bool ready = true;
    bool prev_stalled = false;
    uint8_t prev_data = 0, prev_last = 0;
    bool took_first = false, took_last = false;
    bool expect_valid = false;   // the next frame must follow at once
    uint64_t frames = 0, bytes = 0, back_to_back = 0, in_frame_checks = 0;
    uint64_t starts = 0, ends = 0, whole = 0;   // since the last reset

    explicit Tb(uint64_t seed) : m(new Vtg_eth_tx8), rng(seed) {}

    Out make()
    {
        tg_frame_hdr h{};
        h.ver = (uint8_t)(rng.chance(90) ? TG_PROTO_VERSION : rng.next());
        h.op = OPS[rng.below(sizeof OPS)];
        if (rng.chance(5)) h.op = (uint8_t)rng.next();
        h.flags = (uint8_t)rng.next();
        h.status = (uint8_t)rng.next();
        h.src = node;
        h.dst = (uint16_t)(rng.chance(20) ? (rng.chance(50) ? 0 : 0xFFFF) : rng.next());
        h.seq = (uint32_t)rng.next();
        h.ack = (uint32_t)rng.next();
        h.key = rng.next();
        h.addr = rng.next();
        h.mask = rng.next();
        h.len = (uint8_t)(8 * rng.below(9));
        if (h.len && rng.chance(30)) h.len = TG_MAX_PAYLOAD;
        h.ctx = (uint8_t)rng.next();
        h.tag = (uint16_t)rng.next();
        h.rsvd = (uint32_t)rng.next();
        uint8_t pl[TG_MAX_PAYLOAD];
        for (auto &x : pl) x = (uint8_t)rng.next();
        Out o{tb_frame(h, pl), tg_frame_payload_bytes(h.op, h.len), 0};
        return o;
    }

    void start_writing()
    {
        const Out &o = todo.front();
        order.clear();
        for (unsigned i = TG_HDR_OFF; i < o.b.size() - TG_FCS_BYTES; i++) order.push_back(i);
        // bytes the transmitter must not read: the slot's first 14 and
        // what lies past the payload
        for (unsigned i = 0; i < TG_HDR_OFF; i++) order.push_back(i | 0x100);
        for (unsigned i = (unsigned)(o.b.size() - TG_FCS_BYTES); i < 128; i++)
            if (rng.chance(20)) order.push_back(i | 0x100);
        if (rng.chance(50))
            for (size_t i = order.size(); i > 1; i--) std::swap(order[i - 1], order[rng.below((unsigned)i)]);
        wr_pos = 0;
        wr_junk_first = rng.chance(20);
        wr_junk_done = false;
    }

    void tick(bool rst = false)
    {
        Vtg_eth_tx8 &t = *m;
        t.rst = rst;
        t.cfg_node_id = node;

        // writer: one byte a cycle into the free slot, then the hand-over
        t.s_wr_en = 0;
        t.s_wr_off = (uint8_t)(rng.next() & 0x7F);
        t.s_wr_data = (uint8_t)rng.next();
        t.s_frm_valid = 0;
        t.s_frm_words = (uint8_t)(rng.next() & 0xF);
        bool commit = false;
        if (!rst && !t.s_frm_ready) {
            // no slot free: writes must change nothing
            t.s_wr_en = rng.chance(30);
        } else if (!rst && !todo.empty() && !rng.chance(wr_gap_pct)) {
            const Out &o = todo.front();
            if (wr_pos == 0 && order.empty()) start_writing();
            if (wr_pos < order.size()) {
                unsigned e = order[wr_pos];
                unsigned off = e & 0x7F;
                t.s_wr_en = 1;
                t.s_wr_off = (uint8_t)off;
                if (e & 0x100) {
                    wr_pos++;                                       // junk where nothing is read
                } else if (wr_junk_first && !wr_junk_done) {
                    wr_junk_done = true;                            // junk, then the byte
                } else {
                    t.s_wr_data = o.b[off];
                    wr_pos++;
                    wr_junk_done = false;
                }
            }
            // the hand-over may come with the last write
            if (wr_pos == order.size() && rng.chance(70)) {
                t.s_frm_valid = 1;
                t.s_frm_words = (uint8_t)(o.plen / 8);
                commit = true;
            }
        }

        ready = rst ? true : !rng.chance(stall_pct);
        t.m_tx_tready = ready;

        t.clk = 0;
        t.eval();
        if (!rst) sample();
        t.clk = 1;
        t.eval();
        cyc++;

        if (commit) {
            Out o = todo.front();
            todo.pop_front();
            o.commit = cyc - 1;
            handed.push_back(o);
            order.clear();
            wr_pos = 0;
        }
    }

    // outputs before the edge (they depend only on registers, and on
    // tready through nothing)
    void sample()
    {
        Vtg_eth_tx8 &t = *m;
        // events: a cycle after the byte was taken
        TB_CHECK(t.ev_tx_start == took_first, "cycle %llu: ev_tx_start %u, first byte taken %u",
                 (unsigned long long)cyc, t.ev_tx_start, took_first);
        TB_CHECK(t.ev_tx_frame == took_last, "cycle %llu: ev_tx_frame %u, last byte taken %u",
                 (unsigned long long)cyc, t.ev_tx_frame, took_last);
        starts += t.ev_tx_start;
        ends += t.ev_tx_frame;
        if (prev_stalled) {
            TB_CHECK(t.m_tx_tvalid && t.m_tx_tdata == prev_data && t.m_tx_tlast == prev_last,
                     "cycle %llu: stalled byte changed or withdrawn", (unsigned long long)cyc);
        }
        // once a frame's first byte is taken, a byte is offered every cycle
        // until its last (a GMII MAC cannot pause inside a frame)
        if (!cur.empty()) {
            TB_CHECK(t.m_tx_tvalid, "cycle %llu: no byte offered inside a frame, after byte %zu",
                     (unsigned long long)cyc, cur.size());
            in_frame_checks++;
        }
        if (expect_valid) {
            TB_CHECK(t.m_tx_tvalid, "cycle %llu: gap before a frame handed over in time",
                     (unsigned long long)cyc);
            if (t.m_tx_tvalid) back_to_back++;
            expect_valid = false;
        }
        took_first = t.m_tx_tvalid && ready && cur.empty();
        took_last = t.m_tx_tvalid && ready && t.m_tx_tlast;
        prev_stalled = t.m_tx_tvalid && !ready;
        prev_data = t.m_tx_tdata;
        prev_last = t.m_tx_tlast;
        if (!(t.m_tx_tvalid && ready)) return;
        cur.push_back(t.m_tx_tdata);
        bytes++;
        TB_CHECK(!handed.empty(), "cycle %llu: a byte with no frame handed over", (unsigned long long)cyc);
        if (handed.empty()) {
            cur.clear();
            return;
        }
        const Out &o = handed.front();
        TB_CHECK(cur.size() <= o.b.size(), "cycle %llu: frame runs past its %zu bytes", (unsigned long long)cyc,
                 o.b.size());
        TB_CHECK((bool)t.m_tx_tlast == (cur.size() == o.b.size()), "cycle %llu: tlast %u at byte %zu of %zu",
                 (unsigned long long)cyc, t.m_tx_tlast, cur.size(), o.b.size());
        if (!t.m_tx_tlast && cur.size() < o.b.size()) return;
        TB_CHECK(cur == o.b, "frame %llu (%zu bytes) differs from the encoder's at byte %zu",
                 (unsigned long long)frames, o.b.size(),
                 (size_t)(std::mismatch(cur.begin(), cur.end(), o.b.begin()).first - cur.begin()));
        frames++;
        whole++;
        cur.clear();
        handed.pop_front();
        // the next frame, handed over two cycles before, follows at once
        if (stall_pct == 0 && !handed.empty() && handed.front().commit + 2 <= cyc) expect_valid = true;
    }

    void settle()
    {
        uint64_t end = cyc + 2000000;
        while ((!todo.empty() || !handed.empty()) && cyc < end) tick();
        TB_CHECK(todo.empty() && handed.empty(), "not drained: %zu to write, %zu handed over", todo.size(),
                 handed.size());
        for (int i = 0; i < 6; i++) tick();
        TB_CHECK(!m->m_tx_tvalid && m->s_frm_ready, "output or full slot after every frame went out");
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        todo.clear();
        handed.clear();
        order.clear();
        wr_pos = 0;
        cur.clear();
        prev_stalled = took_first = took_last = expect_valid = false;
        starts = ends = whole = 0;
        m->rst = 0;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const unsigned stalls[] = {0, 30, 90};
    const unsigned wgaps[] = {0, 50};
    uint64_t seed = 1, frames = 0, bytes = 0, b2b = 0;
    for (unsigned sp : stalls) {
        for (unsigned wg : wgaps) {
            Tb tb(seed * 0x2545F491u + 3);
            tb.node = seed == 1 ? 0xFFFF : seed == 2 ? 0 : (uint16_t)tb.rng.next();
            seed++;
            tb.stall_pct = sp;
            tb.wr_gap_pct = wg;
            tb.reset();
            for (int batch = 0; batch < 8; batch++) {
                for (int i = 0; i < 150; i++) tb.todo.push_back(tb.make());
                tb.settle();
            }
            // reset with frames handed over and one half out: nothing survives it
            for (int i = 0; i < 4; i++) tb.todo.push_back(tb.make());
            for (unsigned i = 0, n = 150 + tb.rng.below(200); i < n; i++) tb.tick();
            tb.reset();
            for (int i = 0; i < 4; i++) {
                tb.tick();
                TB_CHECK(!tb.m->m_tx_tvalid && tb.m->s_frm_ready && !tb.m->ev_tx_frame,
                         "output, full slot or event after reset");
            }
            for (int i = 0; i < 100; i++) tb.todo.push_back(tb.make());
            tb.settle();
            TB_CHECK(tb.starts == tb.whole && tb.ends == tb.whole, "%llu starts and %llu ends for %llu frames",
                     (unsigned long long)tb.starts, (unsigned long long)tb.ends, (unsigned long long)tb.whole);
            frames += tb.frames;
            bytes += tb.bytes;
            b2b += tb.back_to_back;
        }
    }
    std::printf("tg_eth_tx8: %llu frames (%llu bytes) equal to the encoder's, %llu sent back to back\n",
                (unsigned long long)frames, (unsigned long long)bytes, (unsigned long long)b2b);
    TB_CHECK(b2b >= 100, "only %llu frames sent back to back", (unsigned long long)b2b);
    return tb_finish("tg_eth_tx8");
}
