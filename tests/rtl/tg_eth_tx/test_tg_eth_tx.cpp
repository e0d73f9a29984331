// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the frame transmitter: every frame, with the FCS the MAC
// would append, matches the reference encoder byte for byte (header fields
// including flags, payload, FCS), in order and once,
// under random descriptor gaps and stream backpressure, with the AXI-Stream
// stability rule, the descriptor handshake and the event pulses checked.
// The payload comes from the slot the descriptor names, read through a port
// that answers junk when not claimed, while the bench writes junk into the
// other slots (a frame without a buffer carries zeros); the slot is pinned
// exactly while its frame is sent, the read address follows registers
// alone, and the slot's release comes once, with the last beat, for a
// frame that asks for it.
#include "Vtb_eth_tx.h"
#include "verilated.h"
#include "tb.hpp"

#include <cstring>
#include <memory>

struct Desc {
    uint8_t op, flags, status, len, ctx;
    uint16_t dst, tag;
    uint32_t addr, seq, ack;
    uint64_t mask;
    uint8_t payload[TG_MAX_PAYLOAD];
    uint8_t src, slot, rel;   // payload buffer and slot; release the slot once sent
};

static const uint8_t OPS[] = {
    TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_FAA, TG_OP_ATOMIC_RESP, TG_OP_SWAP, TG_OP_CAS,
    TG_OP_REQ,   TG_OP_REQ_RESP, TG_OP_ACK,       TG_OP_NAK,    0x00,
    0x0F,        // (the field has 4 bits)
};
static const unsigned NOPS = sizeof OPS / sizeof OPS[0];

struct Tb {
    std::unique_ptr<Vtb_eth_tx> m;
    TbRng rng;
    uint16_t node = 0;
    std::deque<Desc> q;      // descriptors still to offer
    std::deque<Desc> sent;   // accepted, frame not yet checked
    Desc cur{};              // the frame being sent (while in_frame)
    AxisSink sink;
    unsigned gap_pct = 0;
    bool showing = false;
    bool in_frame = false;   // a descriptor was taken and its last beat has not left
    bool first_beat = true;  // the next beat accepted starts a frame
    bool prev_stalled = false;
    uint64_t prev_data = 0;
    uint8_t prev_keep = 0, prev_last = 0;
    uint64_t cyc = 0, frames = 0, starts = 0, ends = 0, stalled_beats = 0, data_frames = 0, data_starts = 0;
    uint64_t rels = 0, want_rels = 0;

    explicit Tb(uint64_t seed) : m(new Vtb_eth_tx), rng(seed) {}

    void drive_desc(const Desc &d)
    {
        Vtb_eth_tx &t = *m;
        t.s_txd_op = d.op;
        t.s_txd_flags = d.flags;
        t.s_txd_status = d.status;
        t.s_txd_dst = d.dst;
        t.s_txd_addr = d.addr;
        t.s_txd_off = tb_run_off(d.mask);
        t.s_txd_cnt = tb_run_cnt(d.mask);
        t.s_txd_len = d.len;
        t.s_txd_ctx = d.ctx;
        t.s_txd_tag = d.tag;
        t.s_txd_seq = d.seq;
        t.s_txd_ack = d.ack;
        t.s_txd_pay_src = d.src;
        t.s_txd_pay_slot = d.slot;
        t.s_txd_pay_rel = d.rel;
        for (unsigned w = 0; w < 16; w++) {
            uint32_t v = 0;
            for (unsigned b = 0; b < 4; b++) v |= (uint32_t)d.payload[4 * w + b] << (8 * b);
            t.s_txd_payload[w] = v;
        }
    }

    void tick(bool rst = false)
    {
        Vtb_eth_tx &t = *m;
        t.rst = rst;
        t.cfg_node_id = node;
        if (!showing && !rst) showing = !q.empty() && !rng.chance(gap_pct);
        t.s_txd_valid = showing && !rst;
        if (t.s_txd_valid) {
            drive_desc(q.front());
        } else {
            Desc junk;
            for (auto &b : junk.payload) b = (uint8_t)rng.next();
            junk.op = (uint8_t)rng.next(); junk.flags = (uint8_t)rng.next(); junk.status = (uint8_t)rng.next();
            junk.len = (uint8_t)rng.next(); junk.ctx = (uint8_t)rng.next();
            junk.dst = (uint16_t)rng.next(); junk.tag = (uint16_t)rng.next();
            junk.addr = (uint32_t)rng.next(); junk.mask = tb_random_run(rng);
            junk.src = (uint8_t)rng.below(4); junk.slot = (uint8_t)rng.below(32); junk.rel = (uint8_t)rng.below(2);
            drive_desc(junk);
        }
        // junk on the read port when not claimed, and into a slot neither
        // the frame in flight nor the descriptor on offer names
        t.tb_junk = rng.next();
        t.tb_wr_src = (uint8_t)(1 + rng.below(3));
        t.tb_wr_slot = (uint8_t)rng.below(32);
        t.tb_wr_word = (uint8_t)rng.below(8);
        t.tb_wr_data = rng.next();
        t.tb_wr_en = rng.chance(50) && !(in_frame && t.tb_wr_src == cur.src && t.tb_wr_slot == cur.slot) &&
                     !(t.s_txd_valid && t.tb_wr_src == q.front().src && t.tb_wr_slot == q.front().slot);
        t.m_axis_tx_tready = sink.pick_ready(rng);
        t.clk = 0;
        t.eval();

        if (!rst) {
            // the read port's address follows registers alone (not the
            // stream's ready)
            uint8_t rd_v = t.m_pay_rd_valid, rd_src = t.m_pay_src, rd_slot = t.m_pay_rd_slot,
                    rd_word = t.m_pay_rd_word;
            t.m_axis_tx_tready = !t.m_axis_tx_tready;
            t.eval();
            TB_CHECK(t.m_pay_rd_valid == rd_v && t.m_pay_src == rd_src && t.m_pay_rd_slot == rd_slot &&
                         t.m_pay_rd_word == rd_word, "cycle %llu: the read port follows tready",
                     (unsigned long long)cyc);
            t.m_axis_tx_tready = sink.ready;
            t.eval();
            bool beat = t.m_axis_tx_tvalid && t.m_axis_tx_tready;
            if (prev_stalled) {
                TB_CHECK(t.m_axis_tx_tvalid, "cycle %llu: tvalid dropped while stalled", (unsigned long long)cyc);
                TB_CHECK(t.m_axis_tx_tdata == prev_data && t.m_axis_tx_tkeep == prev_keep &&
                             t.m_axis_tx_tlast == prev_last,
                         "cycle %llu: beat changed while stalled: %016llx/%02x/%u -> %016llx/%02x/%u",
                         (unsigned long long)cyc, (unsigned long long)prev_data, prev_keep, prev_last,
                         (unsigned long long)t.m_axis_tx_tdata, t.m_axis_tx_tkeep, t.m_axis_tx_tlast);
            }
            if (in_frame)
                TB_CHECK(!t.s_txd_ready, "cycle %llu: s_txd_ready while a frame is being sent",
                         (unsigned long long)cyc);
            TB_CHECK(!t.m_axis_tx_tvalid || in_frame, "cycle %llu: tvalid with no descriptor taken",
                     (unsigned long long)cyc);
            TB_CHECK(t.ev_tx_start == (beat && first_beat), "cycle %llu: ev_tx_start %u, beat %u, first %u",
                     (unsigned long long)cyc, t.ev_tx_start, beat, first_beat);
            TB_CHECK(t.ev_tx_frame == (beat && t.m_axis_tx_tlast), "cycle %llu: ev_tx_frame %u, beat %u, last %u",
                     (unsigned long long)cyc, t.ev_tx_frame, beat, t.m_axis_tx_tlast);
            starts += t.ev_tx_start;
            data_starts += t.ev_tx_data_start;
            TB_CHECK(!t.ev_tx_data_start || t.ev_tx_start, "cycle %llu: data start without start",
                     (unsigned long long)cyc);
            ends += t.ev_tx_frame;
            // the slot is pinned while its frame is sent, and read only then
            bool has_pay = in_frame && cur.src != TG_PAY_NONE;
            TB_CHECK(t.m_pay_pin_valid == has_pay, "cycle %llu: pin %u, frame %u, src %u",
                     (unsigned long long)cyc, t.m_pay_pin_valid, in_frame, cur.src);
            TB_CHECK(!t.m_pay_rd_valid || has_pay, "cycle %llu: payload read with no slot",
                     (unsigned long long)cyc);
            if (has_pay)
                TB_CHECK(t.m_pay_src == cur.src && t.m_pay_rd_slot == cur.slot,
                         "cycle %llu: pin/read of %u/%u, frame's slot %u/%u", (unsigned long long)cyc, t.m_pay_src,
                         t.m_pay_rd_slot, cur.src, cur.slot);
            bool want_rel = beat && t.m_axis_tx_tlast && has_pay && cur.rel;
            TB_CHECK(t.m_pay_rel_valid == want_rel, "cycle %llu: release %u, want %u (last beat %u, src %u rel %u)",
                     (unsigned long long)cyc, t.m_pay_rel_valid, want_rel, beat && t.m_axis_tx_tlast, cur.src,
                     cur.rel);
            rels += t.m_pay_rel_valid;
            want_rels += want_rel;

            sink.sample(t.m_axis_tx_tdata, t.m_axis_tx_tkeep, t.m_axis_tx_tvalid, t.m_axis_tx_tlast);
            prev_stalled = t.m_axis_tx_tvalid && !t.m_axis_tx_tready;
            stalled_beats += prev_stalled;
            prev_data = t.m_axis_tx_tdata;
            prev_keep = t.m_axis_tx_tkeep;
            prev_last = t.m_axis_tx_tlast;
            if (beat) {
                first_beat = t.m_axis_tx_tlast;
                if (t.m_axis_tx_tlast) in_frame = false;
            }
            if (t.s_txd_valid && t.s_txd_ready) {
                cur = q.front();
                sent.push_back(q.front());
                q.pop_front();
                showing = false;
                in_frame = true;
            }
        }
        t.clk = 1;
        t.eval();
        cyc++;
        while (!sink.frames.empty()) {
            check_frame(sink.frames.front());
            sink.frames.pop_front();
        }
    }

    void check_frame(const Bytes &wire)
    {
        Bytes f = with_fcs(wire);   // what the MAC sends
        frames++;
        TB_CHECK(!sent.empty(), "frame %llu of %zu bytes with no descriptor taken", (unsigned long long)frames,
                 f.size());
        if (sent.empty()) return;
        Desc d = sent.front();
        sent.pop_front();
        data_frames += d.op != TG_OP_ACK && d.op != TG_OP_NAK;

        tg_frame_hdr h{};
        h.ver = TG_PROTO_VERSION;
        h.op = d.op;
        h.flags = d.flags;
        h.status = d.status;
        h.src = node;
        h.dst = d.dst;
        h.addr = d.addr;
        TB_CHECK(tg_frame_run(d.mask, &h.off, &h.cnt) == 0, "descriptor mask %016llx is not a run",
                 (unsigned long long)d.mask);
        h.len = d.len;
        h.ctx = d.ctx;
        h.tag = d.tag;
        h.seq = (uint16_t)d.seq;   // the wire carries 16 bits
        h.ack = (uint16_t)d.ack;
        static const uint8_t zeros[TG_MAX_PAYLOAD] = {};
        Bytes want = tb_frame(h, d.src == TG_PAY_NONE ? zeros : d.payload);

        tg_frame_hdr g{};
        TB_CHECK(tg_frame_decode(f.data(), f.size(), &g) == 0, "frame %llu (%zu bytes) does not decode",
                 (unsigned long long)frames, f.size());
        TB_CHECK(f.size() == (size_t)tg_frame_bytes(d.op, d.len) + TG_FCS_BYTES,
                 "frame %llu: %zu bytes for len %u",
                 (unsigned long long)frames, f.size(), d.len);
        TB_CHECK(g.ver == TG_PROTO_VERSION && g.op == d.op && g.flags == d.flags && g.status == d.status,
                 "frame %llu: ver %u op %u/%u flags %02x/%02x status %u/%u", (unsigned long long)frames, g.ver, g.op,
                 d.op, g.flags, d.flags, g.status, d.status);
        TB_CHECK(g.src == node && g.dst == d.dst, "frame %llu: src %04x/%04x dst %04x/%04x",
                 (unsigned long long)frames, g.src, node, g.dst, d.dst);
        TB_CHECK(g.seq == h.seq && g.ack == h.ack, "frame %llu: seq %04x/%08x ack %04x/%08x",
                 (unsigned long long)frames, g.seq, d.seq, g.ack, d.ack);
        TB_CHECK(g.key == 0, "frame %llu: key not zero", (unsigned long long)frames);
        TB_CHECK(g.addr == d.addr && tg_frame_mask(g.off, g.cnt) == d.mask && g.len == d.len && g.ctx == d.ctx &&
                 g.tag == d.tag,
                 "frame %llu: addr %llx/%x off %u cnt %u mask %016llx len %u/%u ctx %u/%u tag %04x/%04x",
                 (unsigned long long)frames, (unsigned long long)g.addr, d.addr, g.off, g.cnt,
                 (unsigned long long)d.mask, g.len, d.len, g.ctx, d.ctx, g.tag, d.tag);
        uint8_t mac[6];
        tg_node_mac(mac, d.dst);
        TB_CHECK(f.size() >= 12 && std::memcmp(f.data(), mac, 6) == 0, "frame %llu: destination MAC",
                 (unsigned long long)frames);
        tg_node_mac(mac, node);
        TB_CHECK(f.size() >= 12 && std::memcmp(f.data() + 6, mac, 6) == 0, "frame %llu: source MAC",
                 (unsigned long long)frames);
        if (f.size() == want.size()) {
            size_t diff = 0, first = 0;
            for (size_t i = 0; i < f.size(); i++)
                if (f[i] != want[i] && diff++ == 0) first = i;
            TB_CHECK(diff == 0, "frame %llu (op %u len %u): %zu bytes differ from the reference, first at %zu "
                     "(%02x, want %02x)", (unsigned long long)frames, d.op, d.len, diff, first, f[first], want[first]);
        }
    }

    Desc random_desc(uint8_t op, uint8_t len)
    {
        Desc d;
        d.op = op;
        d.len = len;
        // op, flags, status and ctx are 4 bits on the wire, as the core makes them
        d.status = (uint8_t)rng.below(16);
        switch (rng.below(4)) {
        case 0: d.flags = 0; break;
        case 1: d.flags = TG_FLAG_RETRY; break;
        case 2: d.flags = (uint8_t)(1u << rng.below(4)); break;   // one bit, each position
        default: d.flags = (uint8_t)rng.below(16); break;
        }
        d.ctx = (uint8_t)rng.below(16);
        d.dst = (uint16_t)rng.next();
        d.tag = (uint16_t)rng.next();
        d.seq = (uint32_t)rng.next();
        d.ack = (uint32_t)rng.next();
        d.addr = (uint32_t)rng.next();
        // the core's masks are one run of bytes
        {
            unsigned off = rng.below(64);
            d.mask = tg_frame_mask(off, rng.below(65 - off));
        }
        switch (rng.below(6)) {
        case 0: d.mask = ~0ull; break;
        case 1: d.mask = 0; break;
        case 2: d.addr = 0xFFFFFFF8u; d.dst = 0xFFFF; d.tag = 0xFFFF; break;
        case 3: d.addr = 0; d.dst = 0; d.tag = 0; break;
        }
        for (auto &b : d.payload) b = (uint8_t)rng.next();
        d.src = (uint8_t)rng.below(4);   // TG_PAY_NONE a quarter of the time
        d.slot = (uint8_t)rng.below(32);
        d.rel = (uint8_t)rng.below(2);
        return d;
    }

    void run(uint64_t limit = 200000)
    {
        uint64_t end = cyc + limit;
        while ((!q.empty() || !sent.empty()) && cyc < end) tick();
        TB_CHECK(q.empty() && sent.empty(), "not drained: %zu to offer, %zu without a frame", q.size(), sent.size());
        for (int i = 0; i < 20; i++) tick();
        TB_CHECK(sink.cur.empty(), "partial frame of %zu bytes left over", sink.cur.size());
        TB_CHECK(starts == frames && ends == frames, "%llu frames, %llu ev_tx_start, %llu ev_tx_frame",
                 (unsigned long long)frames, (unsigned long long)starts, (unsigned long long)ends);
        TB_CHECK(data_starts == data_frames, "%llu frames other than ACK/NAK, %llu ev_tx_data_start",
                 (unsigned long long)data_frames, (unsigned long long)data_starts);
        TB_CHECK(rels == want_rels, "%llu releases, %llu frames asking for one", (unsigned long long)rels,
                 (unsigned long long)want_rels);
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        sent.clear();
        sink.cur.clear();
        in_frame = false;
        first_beat = true;
        prev_stalled = false;
        starts = ends = frames;
        data_starts = data_frames;
        rels = want_rels;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const unsigned stalls[] = {0, 30, 80};
    const unsigned gaps[] = {0, 30, 80};
    uint64_t seed = 1, stalled = 0, released = 0;
    for (unsigned st : stalls) {
        for (unsigned gp : gaps) {
            for (unsigned rep = 0; rep < 2; rep++) {
                Tb tb(seed++ * 0x6A09E667u);
                tb.node = rep ? (uint16_t)tb.rng.next() : 0xFFFF;
                tb.sink.stall_pct = st;
                tb.gap_pct = gp;
                tb.reset();

                // every opcode with every payload length
                for (uint8_t op : OPS)
                    for (unsigned len = 0; len <= TG_MAX_PAYLOAD; len += 8)
                        tb.q.push_back(tb.random_desc(op, (uint8_t)len));
                tb.run();

                // random stress
                for (int i = 0; i < 300; i++)
                    tb.q.push_back(tb.random_desc(OPS[tb.rng.below(NOPS)], (uint8_t)(8 * tb.rng.below(9))));
                tb.run();

                // reset in the middle of a frame, then traffic again
                for (int i = 0; i < 20; i++)
                    tb.q.push_back(tb.random_desc(OPS[tb.rng.below(NOPS)], (uint8_t)(8 * tb.rng.below(9))));
                for (unsigned i = 0, n = 5 + tb.rng.below(60); i < n; i++) tb.tick();
                tb.reset();
                tb.run();
                stalled += tb.stalled_beats;
                released += tb.rels;
            }
        }
    }
    TB_CHECK(stalled > 1000, "only %llu stalled beats", (unsigned long long)stalled);
    TB_CHECK(released > 1000, "only %llu slots released", (unsigned long long)released);
    return tb_finish("tg_eth_tx");
}
