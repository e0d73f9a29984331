// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the frame receiver: good frames of every accepted opcode and
// length become exactly the encoded descriptor (flags byte included), held
// until taken; every kind of bad
// frame is dropped and counted under exactly one reason, and the next good
// frame still gets through, under random stream gaps and descriptor stalls.
// The bench plays the MAC: every frame loses its FCS on the way in, and a
// wrong one (or a frame no longer than an FCS) sets tuser on the last beat,
// which the receiver counts as a bad FCS.
#include "Vtb_eth_rx.h"
#include "verilated.h"
#include "tb.hpp"

#include <cstring>
#include <memory>

// the opcodes the receiver lets through
static const uint8_t GOOD_OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_REQ, TG_OP_REQ_RESP,
                                   TG_OP_FAA,   TG_OP_SWAP,     TG_OP_CAS,       TG_OP_ATOMIC_RESP};
static const unsigned NGOOD_OPS = sizeof GOOD_OPS / sizeof GOOD_OPS[0];
// link acknowledgements: accepted only without payload
static bool link_op(unsigned op)
{
    return op == TG_OP_ACK || op == TG_OP_NAK;
}
static bool good_op(unsigned op)
{
    for (uint8_t g : GOOD_OPS)
        if (op == g) return true;
    return false;
}

enum Outcome { ACCEPT, DROP_FCS, DROP_TYPE, DROP_MALFORMED, DROP_ANY };
static const char *const OUTCOME_NAME[] = {"accept", "FCS drop", "type drop", "malformed drop", "some drop"};

struct Want {
    Outcome what;
    tg_frame_hdr h;
    uint8_t payload[TG_MAX_PAYLOAD];
    const char *why;
    size_t size;
};

// Encode a frame whose length field may be anything (the reference encoder
// copies h.len payload bytes, so give it room).
static Bytes encode(const tg_frame_hdr &h, const uint8_t *payload)
{
    Bytes b(TG_PAYLOAD_OFF + 256 + TG_FCS_BYTES + 8);
    size_t n = tg_frame_encode(b.data(), &h, payload);
    b.resize(n);
    return b;
}

struct Tb {
    std::unique_ptr<Vtb_eth_rx> m;
    TbRng rng;
    uint16_t node = 0;
    AxisSource src;
    unsigned ready_stall_pct = 0;
    unsigned slot_block_pct = 0;   // cycles the payload buffer shows no free slot
    bool mid = false;              // beats of a frame taken, its last not yet
    std::vector<unsigned> done_slots;  // frames taken, slots not yet freed
    unsigned model_busy = 0;       // slots the buffer must show busy
    bool told = false;             // told_slot: the slot told as on offer in this cycle
    unsigned told_slot = 0;
    uint64_t n_told = 0;
    unsigned slots_used = 0;       // slots frames were accepted into
    std::deque<Want> expect;    // outcome of each frame sent, in order
    std::deque<Want> present;   // accepted, descriptor not yet taken
    uint64_t cyc = 0, held_cycles = 0;
    uint64_t counts[4] = {};    // events seen: accept, fcs, type, malformed
    uint64_t want_counts[5] = {};
    // descriptor seen last cycle while held
    bool prev_held = false;
    uint8_t prev_op, prev_flags, prev_status, prev_len, prev_ctx, prev_off, prev_cnt;
    uint16_t prev_src, prev_tag;
    uint32_t prev_addr;
    uint32_t prev_payload[16];
    uint8_t payload_buf[256];
    // one beat of a queued frame driven with another keep: frame number
    // (counted from the first frame queued), beat, keep
    struct KeepPatch {
        uint64_t frame;
        size_t beat;
        uint8_t keep;
    };
    std::deque<KeepPatch> patches;
    uint64_t frames_queued = 0, frames_gone = 0;

    explicit Tb(uint64_t seed) : m(new Vtb_eth_rx), rng(seed)
    {
        for (auto &b : payload_buf) b = (uint8_t)rng.next();
    }

    // frame: as on the wire, FCS included, queued as the MAC offers it
    // (AxisSource::push_mac); user: tuser on its last beat, -1 as the MAC
    // sets it (the FCS is wrong, or nothing precedes it)
    void send(const Bytes &frame, Outcome what, const char *why, const tg_frame_hdr *h = nullptr,
              const uint8_t *payload = nullptr, int user = -1)
    {
        src.push_mac(frame);
        if (user >= 0) src.users.back() = user > 0;
        Want w{};
        w.what = what;
        w.why = why;
        w.size = src.frames.back().size();
        if (h) w.h = *h;
        if (payload && h) std::memcpy(w.payload, payload, h->len <= TG_MAX_PAYLOAD ? h->len : TG_MAX_PAYLOAD);
        expect.push_back(w);
        want_counts[what]++;
        frames_queued++;
    }

    // send f with beat `beat` driven with keep `keep` instead of its own
    void send_patched(const Bytes &f, size_t beat, uint8_t keep, Outcome what, const char *why)
    {
        patches.push_back(KeepPatch{frames_queued, beat, keep});
        send(f, what, why, nullptr, nullptr, 0);
    }

    tg_frame_hdr good_hdr(uint8_t op, uint8_t len)
    {
        tg_frame_hdr h{};
        h.ver = TG_PROTO_VERSION;
        h.op = op;
        h.flags = (uint8_t)rng.below(16);
        h.status = (uint8_t)rng.below(16);
        h.src = (uint16_t)rng.next();
        h.dst = node;
        h.seq = (uint16_t)rng.next();
        h.ack = (uint16_t)rng.next();
        h.key = rng.next();
        h.addr = (uint32_t)rng.next();
        if (rng.below(2)) h.addr &= ~7u;
        if (rng.chance(20)) {
            h.off = 0;
            h.cnt = 64;
        } else {
            h.off = (uint8_t)rng.below(64);
            h.cnt = (uint8_t)rng.below(65 - h.off);
        }
        h.len = len;
        h.ctx = (uint8_t)rng.below(16);
        h.tag = (uint16_t)rng.next();
        return h;
    }

    uint8_t random_op()
    {
        return GOOD_OPS[rng.below(NGOOD_OPS)];
    }

    void good(uint8_t op, uint8_t len)
    {
        tg_frame_hdr h = good_hdr(op, len);
        uint8_t p[TG_MAX_PAYLOAD];
        for (auto &b : p) b = (uint8_t)rng.next();
        send(encode(h, p), ACCEPT, "good frame", &h, p);
    }
    void good() { good(random_op(), (uint8_t)(8 * rng.below(9))); }

    // a good frame to edit into a bad one
    Bytes base_frame(uint8_t len = 255)
    {
        if (len == 255) len = (uint8_t)(8 * rng.below(9));
        tg_frame_hdr h = good_hdr(random_op(), len);
        return encode(h, payload_buf);
    }

    void bad(const Bytes &f, Outcome what, const char *why)
    {
        send(f, what, why);
        good();   // no state leaks into the next frame
    }

    void check_desc(Vtb_eth_rx &r, const Want &w)
    {
        const tg_frame_hdr &h = w.h;
        TB_CHECK(r.m_rxd_op == h.op && r.m_rxd_status == h.status && r.m_rxd_src == h.src,
                 "cycle %llu: op %u/%u status %u/%u src %04x/%04x", (unsigned long long)cyc, r.m_rxd_op, h.op,
                 r.m_rxd_status, h.status, r.m_rxd_src, h.src);
        TB_CHECK(r.m_rxd_flags == h.flags, "cycle %llu: flags %02x, want %02x", (unsigned long long)cyc,
                 r.m_rxd_flags, h.flags);
        TB_CHECK(r.m_rxd_seq == h.seq && r.m_rxd_ack == h.ack, "cycle %llu: seq %08x/%08x ack %08x/%08x",
                 (unsigned long long)cyc, r.m_rxd_seq, h.seq, r.m_rxd_ack, h.ack);
        TB_CHECK(r.m_rxd_addr == h.addr, "cycle %llu: addr %08x, encoded %08x", (unsigned long long)cyc,
                 r.m_rxd_addr, h.addr);
        // (an empty run at byte 64 covers nothing, and is passed on at 0)
        TB_CHECK(r.m_rxd_off == (h.off & 63) && r.m_rxd_cnt == h.cnt && r.m_rxd_len == h.len && r.m_rxd_ctx == h.ctx &&
                     r.m_rxd_tag == h.tag,
                 "cycle %llu: off %u/%u cnt %u/%u len %u/%u ctx %u/%u tag %04x/%04x", (unsigned long long)cyc,
                 r.m_rxd_off, h.off, r.m_rxd_cnt, h.cnt, r.m_rxd_len, h.len, r.m_rxd_ctx, h.ctx, r.m_rxd_tag,
                 h.tag);
        unsigned bad = 0, first = 0;
        for (unsigned i = 0; i < tg_frame_payload_bytes(h.op, h.len) && i < TG_MAX_PAYLOAD; i++) {
            uint8_t b = (uint8_t)(r.m_rxd_payload[i / 4] >> (8 * (i % 4)));
            if (b != w.payload[i] && bad++ == 0) first = i;
        }
        TB_CHECK(bad == 0, "cycle %llu: %u payload bytes differ, first %u", (unsigned long long)cyc, bad, first);
    }

    void tick(bool rst = false)
    {
        Vtb_eth_rx &r = *m;
        r.rst = rst;
        r.cfg_node_id = node;
        if (rst) r.s_axis_rx_tvalid = 0;
        else src.drive(r.s_axis_rx_tdata, r.s_axis_rx_tkeep, r.s_axis_rx_tvalid, r.s_axis_rx_tlast, rng);
        if (!rst && r.s_axis_rx_tvalid && !patches.empty() && patches.front().frame == frames_gone &&
            patches.front().beat == src.pos / 8)
            r.s_axis_rx_tkeep = patches.front().keep;
        // tuser counts on the last beat only: anything elsewhere
        r.s_axis_rx_tuser = (r.s_axis_rx_tvalid && r.s_axis_rx_tlast && !src.users.empty()) ? src.users.front()
                                                                                       : rng.below(2);
        if (!r.s_axis_rx_tvalid) {
            r.s_axis_rx_tdata = rng.next();
            r.s_axis_rx_tkeep = (uint8_t)rng.next();
            r.s_axis_rx_tlast = rng.below(2);
        }
        r.m_rxd_ready = !rng.chance(ready_stall_pct);
        r.tb_slot_block = rng.chance(slot_block_pct);
        // free a taken frame's slot now and then, so that up to all four
        // are busy and the buffer offers each of them
        int fi = (!rst && !done_slots.empty() && rng.chance(4)) ? (int)rng.below((unsigned)done_slots.size()) : -1;
        r.tb_free_valid = fi >= 0;
        r.tb_free_slot = fi >= 0 ? done_slots[(size_t)fi] : (unsigned)rng.below(4);
        r.clk = 0;
        r.eval();

        if (!rst) {
            unsigned nev = r.ev_rx_frame + r.ev_drop_fcs + r.ev_drop_type + r.ev_drop_malformed;
            TB_CHECK(nev <= 1, "cycle %llu: %u events at once", (unsigned long long)cyc, nev);
            TB_CHECK(r.ev_rx_data_frame == (r.ev_rx_frame && !link_op(r.m_rxd_op)),
                     "cycle %llu: ev_rx_data_frame %u for op %u", (unsigned long long)cyc, r.ev_rx_data_frame,
                     r.m_rxd_op);
            if (nev == 1) {
                Outcome got = r.ev_rx_frame ? ACCEPT : r.ev_drop_fcs ? DROP_FCS : r.ev_drop_type ? DROP_TYPE
                                                                                            : DROP_MALFORMED;
                counts[got]++;
                TB_CHECK(!expect.empty(), "cycle %llu: %s with no frame sent", (unsigned long long)cyc,
                         OUTCOME_NAME[got]);
                if (!expect.empty()) {
                    const Want &w = expect.front();
                    bool ok = w.what == got || (w.what == DROP_ANY && got != ACCEPT);
                    TB_CHECK(ok, "cycle %llu: %s (%zu bytes) counted as %s, want %s", (unsigned long long)cyc,
                             w.why, w.size, OUTCOME_NAME[got], OUTCOME_NAME[w.what]);
                    if (got == ACCEPT) present.push_back(w);
                    expect.pop_front();
                }
            }
            // a frame starts only with a slot for its payload, and the
            // slot of a held frame stays taken
            TB_CHECK(!(r.tb_slot_block && !mid && r.s_axis_rx_tready),
                     "cycle %llu: a frame starts with no free slot", (unsigned long long)cyc);
            TB_CHECK(r.st_busy == model_busy, "cycle %llu: slots %x busy, want %x", (unsigned long long)cyc,
                     r.st_busy, model_busy);
            if (r.ev_rx_frame) {
                TB_CHECK(!((model_busy >> r.m_rxd_slot) & 1), "cycle %llu: frame accepted into busy slot %u",
                         (unsigned long long)cyc, r.m_rxd_slot);
                model_busy |= 1u << r.m_rxd_slot;
                slots_used |= 1u << r.m_rxd_slot;
            }
            if (fi >= 0) {
                model_busy &= ~(1u << r.tb_free_slot);
                done_slots.erase(done_slots.begin() + fi);
            }
            TB_CHECK(!(r.m_rxd_valid && told) || r.m_rxd_slot == told_slot,
                     "cycle %llu: slot %u on offer, %u told the cycle before", (unsigned long long)cyc,
                     r.m_rxd_slot, told_slot);
            n_told += r.m_rxd_valid && told;
            if (r.m_rxd_valid) {
                held_cycles++;
                TB_CHECK((r.st_busy >> r.m_rxd_slot) & 1, "cycle %llu: held frame's slot %u not taken",
                         (unsigned long long)cyc, r.m_rxd_slot);
                TB_CHECK(!r.s_axis_rx_tready, "cycle %llu: tready while a descriptor is held", (unsigned long long)cyc);
                TB_CHECK(!present.empty(), "cycle %llu: descriptor presented with no frame accepted",
                         (unsigned long long)cyc);
                if (!present.empty()) check_desc(r, present.front());
                if (prev_held) {
                    bool same = r.m_rxd_op == prev_op && r.m_rxd_flags == prev_flags && r.m_rxd_status == prev_status && r.m_rxd_len == prev_len &&
                                r.m_rxd_ctx == prev_ctx &&
                                r.m_rxd_src == prev_src && r.m_rxd_tag == prev_tag && r.m_rxd_addr == prev_addr &&
                                r.m_rxd_off == prev_off && r.m_rxd_cnt == prev_cnt &&
                                std::memcmp(prev_payload, r.m_rxd_payload.data(), sizeof prev_payload) == 0;
                    TB_CHECK(same, "cycle %llu: held descriptor changed", (unsigned long long)cyc);
                }
            } else {
                TB_CHECK(!prev_held, "cycle %llu: descriptor withdrawn before it was taken", (unsigned long long)cyc);
            }
            prev_held = r.m_rxd_valid && !r.m_rxd_ready;
            prev_op = r.m_rxd_op; prev_flags = r.m_rxd_flags; prev_status = r.m_rxd_status; prev_len = r.m_rxd_len;
            prev_ctx = r.m_rxd_ctx; prev_src = r.m_rxd_src;
            prev_tag = r.m_rxd_tag; prev_addr = r.m_rxd_addr; prev_off = r.m_rxd_off;
            prev_cnt = r.m_rxd_cnt;
            std::memcpy(prev_payload, r.m_rxd_payload.data(), sizeof prev_payload);
            if (r.m_rxd_valid && r.m_rxd_ready) done_slots.push_back(r.m_rxd_slot);
            if (r.m_rxd_valid && r.m_rxd_ready && !present.empty()) present.pop_front();
            if (r.s_axis_rx_tvalid && r.s_axis_rx_tready) mid = !r.s_axis_rx_tlast;
            size_t before = src.frames.size();
            src.advance(r.s_axis_rx_tvalid && r.s_axis_rx_tready);
            if (src.frames.size() < before) {
                frames_gone++;
                while (!patches.empty() && patches.front().frame < frames_gone) patches.pop_front();
            }
        }
        told = !rst;
        told_slot = r.m_rxd_slot_next;
        r.clk = 1;
        r.eval();
        cyc++;
    }

    void run(uint64_t limit = 2000000)
    {
        uint64_t end = cyc + limit;
        while ((!src.idle() || !expect.empty() || !present.empty()) && cyc < end) tick();
        TB_CHECK(src.idle() && expect.empty() && present.empty(),
                 "not drained: %zu frames to send, %zu outcomes missing, %zu descriptors not taken",
                 src.frames.size(), expect.size(), present.size());
        for (int i = 0; i < 10; i++) tick();
        TB_CHECK(counts[ACCEPT] == want_counts[ACCEPT], "ev_rx_frame %llu, good frames %llu",
                 (unsigned long long)counts[ACCEPT], (unsigned long long)want_counts[ACCEPT]);
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        src.clear();
        frames_gone = frames_queued;
        patches.clear();
        expect.clear();
        present.clear();
        prev_held = false;
        mid = false;
        done_slots.clear();
        model_busy = 0;
    }
};

static void good_frames(Tb &tb)
{
    for (int rep = 0; rep < 3; rep++)
        for (uint8_t op : GOOD_OPS)
            for (unsigned len = 0; len <= TG_MAX_PAYLOAD; len += 8) tb.good(op, (uint8_t)len);
    // an empty run may start anywhere up to byte 64
    for (unsigned off = 60; off <= 64; off++) {
        tg_frame_hdr h = tb.good_hdr(GOOD_OPS[off % NGOOD_OPS], (uint8_t)(8 * tb.rng.below(9)));
        h.off = (uint8_t)off;
        h.cnt = 0;
        uint8_t p[TG_MAX_PAYLOAD] = {};
        tb.send(encode(h, p), ACCEPT, "good frame, empty run", &h, p);
    }
    // every flags value (4 bits) gets through unchanged, with every op
    for (unsigned f = 0; f < 16 * NGOOD_OPS; f++) {
        tg_frame_hdr h = tb.good_hdr(GOOD_OPS[f % NGOOD_OPS], (uint8_t)(8 * tb.rng.below(9)));
        h.flags = (uint8_t)(f % 16);
        uint8_t p[TG_MAX_PAYLOAD];
        for (auto &b : p) b = (uint8_t)tb.rng.next();
        tb.send(encode(h, p), ACCEPT, "good frame, every flags value", &h, p);
    }
    tb.run();
}

static void bit_flips(Tb &tb, bool every_bit)
{
    for (unsigned len = 0; len <= TG_MAX_PAYLOAD; len += 8) {
        Bytes g = tb.base_frame((uint8_t)len);
        bool all = every_bit && len == 8 * (tb.rng.below(9));
        unsigned n = all ? (unsigned)g.size() * 8 : 40;
        for (unsigned i = 0; i < n; i++) {
            size_t bit = all ? i : tb.rng.below((unsigned)g.size() * 8);
            Bytes f = g;
            f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            tb.bad(f, DROP_FCS, "single bit flip");
        }
        tb.run();
    }
}

static void header_errors(Tb &tb)
{
    const uint16_t types[] = {0x0800, 0x86DD, 0x0806, 0x88B4, 0x88B6, 0xB588, 0x0000, 0xFFFF};
    for (uint16_t t : types) {
        Bytes f = tb.base_frame();
        f[12] = (uint8_t)(t >> 8);
        f[13] = (uint8_t)t;
        tb_refcs(f);
        tb.bad(f, DROP_TYPE, "wrong EtherType");
    }
    const uint8_t vers[] = {0, 1, 3, 0x7F, 0x80, 0xFF};   // 1: the old 48-byte header
    for (uint8_t v : vers) {
        Bytes f = tb.base_frame();
        f[TG_HDR_OFF + TG_H_VER] = v;
        tb_refcs(f);
        tb.bad(f, DROP_TYPE, "wrong version");
    }
    // destination MAC: every bit of it, and broadcast
    for (unsigned bit = 0; bit < 48; bit++) {
        Bytes f = tb.base_frame();
        f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        tb_refcs(f);
        tb.bad(f, DROP_TYPE, "wrong destination MAC");
    }
    {
        Bytes f = tb.base_frame();
        std::memset(f.data(), 0xFF, 6);
        tb_refcs(f);
        tb.bad(f, DROP_TYPE, "broadcast destination MAC");
    }
    tb.run();
}

static void length_errors(Tb &tb)
{
    tg_frame_hdr h;
    // not a multiple of 8, the frame size agreeing with the field
    for (unsigned len = 1; len < TG_MAX_PAYLOAD; len++) {
        if (len % 8 == 0) continue;
        h = tb.good_hdr(tb.random_op(), (uint8_t)len);
        tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "length not a multiple of 8");
    }
    // more than 64, the frame size agreeing with the field
    const unsigned big[] = {65, 72, 80, 96, 128, 136, 184, 192, 248, 255};
    for (unsigned len : big) {
        h = tb.good_hdr(tb.random_op(), (uint8_t)len);
        tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "length over 64");
    }
    // the field disagrees with the frame size, both directions
    for (unsigned field = 0; field <= TG_MAX_PAYLOAD; field += 8) {
        for (int k = 0; k < 6; k++) {
            unsigned carried = tb.rng.below(TG_MAX_PAYLOAD + 9);
            if (k == 0) carried = field + 8;
            if (k == 1 && field >= 8) carried = field - 8;
            if (carried == field) continue;
            uint8_t op = (uint8_t)tb.random_op();
            while (op == TG_OP_READ_REQ) op = (uint8_t)tb.random_op();   // carries no payload: below
            // both padded to the same size: the padding may be payload
            if (tg_frame_bytes(op, (uint8_t)carried) == tg_frame_bytes(op, (uint8_t)field)) continue;
            h = tb.good_hdr(op, (uint8_t)carried);
            Bytes f = encode(h, tb.payload_buf);
            f[TG_HDR_OFF + TG_H_LEN] = (uint8_t)field;
            tb_refcs(f);
            tb.bad(f, DROP_MALFORMED, carried > field ? "frame longer than its length field"
                                                      : "frame shorter than its length field");
        }
        // a read request with payload bytes after its header (more than
        // the padding of a minimum frame)
        h = tb.good_hdr(TG_OP_WRITE, (uint8_t)(24 + tb.rng.below(6) * 8));
        Bytes f = encode(h, tb.payload_buf);
        f[TG_HDR_OFF + TG_H_OP] = (uint8_t)((f[TG_HDR_OFF + TG_H_OP] & ~0xFu) | TG_OP_READ_REQ);
        f[TG_HDR_OFF + TG_H_LEN] = (uint8_t)field;
        tb_refcs(f);
        tb.bad(f, DROP_MALFORMED, "read request carrying a payload");
    }
    // byte enables past byte 63
    for (unsigned k = 0; k < 40; k++) {
        h = tb.good_hdr(tb.random_op(), (uint8_t)(8 * tb.rng.below(9)));
        h.off = (uint8_t)tb.rng.below(64);
        h.cnt = (uint8_t)(65 - h.off + tb.rng.below(k < 20 ? 4 : 191 + h.off));
        tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "byte run past byte 63");
    }
    h = tb.good_hdr(TG_OP_WRITE, 64);
    h.off = 200;
    h.cnt = 0;
    tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "empty byte run at byte 200");
    // a short frame not padded to the minimum
    for (unsigned len = 0; len <= 16; len += 8) {
        h = tb.good_hdr(TG_OP_WRITE, (uint8_t)len);
        Bytes g = encode(h, tb.payload_buf);
        g.resize(TG_PAYLOAD_OFF + len);
        tb.bad(with_fcs(g), DROP_MALFORMED, "short frame without its padding");
    }
    tb.run();
}

static void opcode_errors(Tb &tb)
{
    // the field has 4 bits: every value is tried
    for (unsigned op = 0; op < 16; op++) {
        if (good_op(op) || link_op(op)) continue;
        tg_frame_hdr h = tb.good_hdr((uint8_t)op, (uint8_t)(8 * tb.rng.below(9)));
        tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "unknown opcode");
    }
    tb.run();
}

// ACK and NAK: no payload; a length field is malformed
static void link_ops(Tb &tb)
{
    for (unsigned k = 0; k < 40; k++) {
        uint8_t op = k & 1 ? TG_OP_NAK : TG_OP_ACK;
        tb.good(op, 0);
        tg_frame_hdr h = tb.good_hdr(op, (uint8_t)(8 + 8 * tb.rng.below(8)));
        tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "link frame with a length");
    }
    tb.run();
}

static void size_errors(Tb &tb)
{
    // truncated: every size below the smallest frame, with a correct FCS
    for (unsigned n = 1; n < TG_PAYLOAD_OFF + TG_FCS_BYTES; n++) {
        Bytes g = tb.base_frame();
        if (n <= TG_FCS_BYTES) {
            // no byte before an FCS: the MAC marks it bad
            tb.bad(Bytes(g.begin(), g.begin() + n), DROP_FCS, "runt no longer than an FCS");
        } else {
            tb.bad(with_fcs(Bytes(g.begin(), g.begin() + (n - TG_FCS_BYTES))), DROP_MALFORMED, "truncated frame");
        }
    }
    // oversized: the largest good frame with bytes added before the FCS
    for (unsigned n = TG_MAX_FRAME_BYTES + 1; n <= 300; n++) {
        if (n > 150 && n % 7 != 0 && n != 300 && n != 255 && n != 256) continue;
        Bytes g = tb.base_frame(TG_MAX_PAYLOAD);
        g.resize(g.size() - TG_FCS_BYTES);
        while (g.size() + TG_FCS_BYTES < n) g.push_back((uint8_t)tb.rng.next());
        tb.bad(with_fcs(g), DROP_MALFORMED, "oversized frame");
    }
    // oversized with a length field that matches the bytes carried
    for (unsigned len = 72; len <= 232; len += 32) {
        tg_frame_hdr h = tb.good_hdr(tb.random_op(), (uint8_t)len);
        tb.bad(encode(h, tb.payload_buf), DROP_MALFORMED, "oversized frame, length field agrees");
    }
    // oversized with a bad FCS
    {
        Bytes g = tb.base_frame(TG_MAX_PAYLOAD);
        g.insert(g.end() - TG_FCS_BYTES, 100, 0x5A);
        tb.bad(g, DROP_FCS, "oversized frame with a bad FCS");
    }
    tb.run();
}

// A beat whose keep breaks the stream's rule (all ones before the last
// beat, a run of ones from bit 0 on it) makes its frame malformed, even
// with an FCS that matches the bytes the CRC step took and a byte count
// that matches the length field: a middle beat with a hole in its keep,
// which the CRC step skips whole, and a last beat one byte longer to keep
// the count.
static void keep_errors(Tb &tb)
{
    for (unsigned r = 0; r < 16; r++) {
        Bytes g = encode(tb.good_hdr(TG_OP_WRITE, TG_MAX_PAYLOAD), tb.payload_buf);   // 130 bytes
        size_t beat = 8 + tb.rng.below(7);         // a payload beat
        uint8_t hole = (uint8_t)(0xFF & ~(1u << tb.rng.below(7)));   // not a run
        // 131 bytes driven, 130 counted: the header, the payload, and an
        // FCS over the bytes the CRC step takes (all but the beat's)
        Bytes f(g.begin(), g.begin() + (ptrdiff_t)(g.size() - 3));
        Bytes taken;
        for (size_t i = 0; i < f.size(); i++)
            if (i / 8 != beat) taken.push_back(f[i]);
        uint32_t fcs = ~tg_crc32_update(0xFFFFFFFFu, taken.data(), taken.size());
        for (int k = 0; k < 4; k++) f.push_back((uint8_t)(fcs >> (8 * k)));
        tb.send_patched(f, beat, hole, DROP_MALFORMED, "a middle beat's keep with a hole");
        tb.good();
    }
    // a middle beat whose keep is a run but not all ones: the count is off
    // as well, so the drop says malformed under either rule
    for (unsigned r = 0; r < 8; r++) {
        Bytes g = tb.base_frame();
        size_t beats = (g.size() + 7) / 8;
        tb.send_patched(g, 1 + tb.rng.below((unsigned)beats - 2), 0x7F, DROP_ANY, "a middle beat's keep short");
        tb.good();
    }
    tb.run();
}

// frames a MAC marked bad (tuser on the last beat): dropped as a bad FCS
// whatever they carry, good frames or bad ones
static void user_marked(Tb &tb)
{
    for (unsigned k = 0; k < 40; k++) {
        tg_frame_hdr h = tb.good_hdr(tb.random_op(), (uint8_t)(8 * tb.rng.below(9)));
        if (k % 4 == 3) h.ver ^= 0x40;   // a bad header too: still an FCS drop
        tb.send(encode(h, tb.payload_buf), DROP_FCS, "marked bad by tuser", nullptr, nullptr, 1);
        tb.good();
    }
    tb.run();
}

static void mixed(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        switch (tb.rng.below(6)) {
        case 0: {
            Bytes f = tb.base_frame();
            size_t bit = tb.rng.below((unsigned)f.size() * 8);
            f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            tb.send(f, DROP_FCS, "single bit flip");
            break;
        }
        case 1: {
            Bytes f = tb.base_frame();
            f[TG_HDR_OFF + TG_H_VER] ^= 0x40;
            tb_refcs(f);
            tb.send(f, DROP_TYPE, "wrong version");
            break;
        }
        case 2: {
            tg_frame_hdr h = tb.good_hdr(0x7F, 16);
            tb.send(encode(h, tb.payload_buf), DROP_MALFORMED, "unknown opcode");
            break;
        }
        default: tb.good(); break;
        }
    }
    tb.run();
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const unsigned gaps[] = {0, 30, 80};
    const unsigned stalls[] = {0, 50, 90};
    uint64_t seed = 1, held = 0, told = 0;
    for (unsigned gp : gaps) {
        for (unsigned st : stalls) {
            Tb tb(seed * 0xBB67AE85u);
            tb.node = seed == 1 ? 0xFFFF : seed == 2 ? 0 : (uint16_t)tb.rng.next();
            seed++;
            tb.src.gap_pct = gp;
            tb.ready_stall_pct = st;
            tb.slot_block_pct = gp == 30 ? 40 : 0;
            tb.reset();

            good_frames(tb);
            bit_flips(tb, gp == 0);
            header_errors(tb);
            length_errors(tb);
            opcode_errors(tb);
            link_ops(tb);
            size_errors(tb);
            keep_errors(tb);
            user_marked(tb);
            mixed(tb, 300);

            // reset while a frame is arriving or a descriptor is held
            for (int k = 0; k < 4; k++) {
                for (int i = 0; i < 6; i++) tb.good();
                for (unsigned i = 0, n = 3 + tb.rng.below(40); i < n; i++) tb.tick();
                tb.reset();
                for (int i = 0; i < 5; i++) tb.tick();
                TB_CHECK(!tb.m->m_rxd_valid, "descriptor presented after reset");
                tb.counts[ACCEPT] = tb.want_counts[ACCEPT] = 0;
                mixed(tb, 20);
            }
            held += tb.held_cycles;
            TB_CHECK(tb.slots_used == 0xF, "frames went into slots %x only", tb.slots_used);
            told += tb.n_told;
        }
    }
    TB_CHECK(held > 1000, "descriptors held only %llu cycles", (unsigned long long)held);
    TB_CHECK(told > 1000, "next slot checked only %llu times", (unsigned long long)told);
    return tb_finish("tg_eth_rx");
}
