// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the link layer's receive side against a model: random frames
// from several peers (in order, duplicates, gaps, ACK and NAK, unsequenced,
// beyond the peer range) with random sink stalls and slot reservations
// refused; every frame passed on exactly once and in order, acks reported
// for every sequenced frame in its first cycle, acks owed, one NAK per gap,
// drops only after the wait limit, and the layer disabled passes everything.
#include "Vtg_link_rx.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned PEER_BITS = 8;   // module defaults
static const unsigned SEQ_W = 16;
static const uint32_t SEQ_MASK = (1u << SEQ_W) - 1;
static const unsigned NPEERS = 4;      // peers the bench uses

struct Frame {
    uint8_t op, flags;
    uint16_t src, tag;
    uint32_t seq, ack, id;
};

static bool answered(uint8_t op)
{
    return op == TG_OP_READ_REQ || op == TG_OP_REQ || op == TG_OP_FAA || op == TG_OP_SWAP || op == TG_OP_CAS;
}

static const unsigned FIFO_DEPTH = 2;   // tg_link_rx FIFO_LOG2 = 1
static const unsigned SLOT_MASK = 3;    // tg_link_rx SLOT_W = 2

struct Tb {
    std::unique_ptr<Vtg_link_rx> m;
    TbRng rng;
    uint64_t cyc = 0;
    unsigned stall_pct = 0, room_pct = 100;
    uint32_t rx_wait = 20;
    bool enable = true;

    // model
    uint32_t expected[1u << PEER_BITS] = {};
    bool naked[1u << PEER_BITS] = {};
    std::deque<Frame> in;        // frames to present, the front one showing
    std::deque<Frame> passed;    // frames the module must pass on, in order
    bool first = true;           // the front frame has not been shown yet
    uint32_t waited = 0;
    bool claim = false;          // a slot is kept for claim_peer's next request
    unsigned claim_peer = 0;
    uint32_t claim_age = 0;
    unsigned occ = 0;            // frames in the module's FIFO
    uint64_t n_told = 0, n_free = 0, n_pass = 0, n_dup = 0, n_ooo = 0, n_busy = 0, n_nak = 0, n_link = 0, n_rsv = 0;
    uint32_t next_id = 1;
    bool told_next = false;      // told_slot is the slot on offer in this cycle, if any
    unsigned told_slot = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_link_rx), rng(seed) {}

    void tick(bool rst = false)
    {
        Vtg_link_rx &t = *m;
        t.rst = rst;
        t.cfg_enable = enable;
        t.cfg_rx_wait = rx_wait;
        t.in_rsv_room = rng.chance(room_pct);
        t.in_rsv_room2 = t.in_rsv_room && rng.chance(room_pct);
        t.m_rxd_ready = !rng.chance(stall_pct);
        bool show = !rst && !in.empty();
        if (show) {
            const Frame &f = in.front();
            t.s_rxd_valid = 1;
            t.s_rxd_op = f.op;
            t.s_rxd_flags = f.flags;
            t.s_rxd_status = 0;
            t.s_rxd_src = f.src;
            t.s_rxd_addr = f.id;
            t.s_rxd_off = (f.id >> 3) & 63;   // (fields passed through carry bits of id and tag)
            t.s_rxd_cnt = f.tag & 127;
            t.s_rxd_len = (uint8_t)f.id;
            t.s_rxd_ctx = (uint8_t)(f.id >> 8);
            t.s_rxd_tag = f.tag;
            t.s_rxd_slot = f.id & SLOT_MASK;
            t.s_rxd_seq = f.seq;
            t.s_rxd_ack = f.ack;
        } else {
            t.s_rxd_valid = 0;
        }
        t.clk = 0;
        t.eval();

        if (!rst) {
            // the slot told last cycle as next on offer is the one on offer
            TB_CHECK(!(t.m_rxd_valid && told_next) || t.m_rxd_slot == told_slot,
                     "cycle %llu: slot %u on offer, %u told the cycle before", (unsigned long long)cyc,
                     t.m_rxd_slot, told_slot);
            n_told += t.m_rxd_valid && told_next;
            // output side
            if (t.m_rxd_valid && t.m_rxd_ready) {
                TB_CHECK(!passed.empty(), "cycle %llu: frame passed on that the model did not pass",
                         (unsigned long long)cyc);
                if (!passed.empty()) {
                    const Frame &w = passed.front();
                    bool ok = t.m_rxd_op == w.op && t.m_rxd_flags == w.flags && t.m_rxd_src == w.src &&
                              t.m_rxd_tag == w.tag && t.m_rxd_addr == w.id &&
                              t.m_rxd_off == ((w.id >> 3) & 63) && t.m_rxd_cnt == (w.tag & 127) && t.m_rxd_len == (uint8_t)w.id &&
                              t.m_rxd_ctx == (uint8_t)(w.id >> 8);
                    ok = ok && t.m_rxd_slot == (w.id & SLOT_MASK);
                    TB_CHECK(ok, "cycle %llu: frame out op %u src %04x tag %04x addr %08x, want op %u src %04x "
                             "tag %04x id %08x", (unsigned long long)cyc, t.m_rxd_op, t.m_rxd_src, t.m_rxd_tag,
                             t.m_rxd_addr, w.op, w.src, w.tag, w.id);
                    passed.pop_front();
                }
            }
            bool popped = t.m_rxd_valid && t.m_rxd_ready;
            bool claim_set = false;
            bool pushed = false;
            // input side
            unsigned nev = t.ev_dup_drop + t.ev_ooo_drop + t.ev_busy_drop;
            TB_CHECK(nev <= 1, "cycle %llu: %u drop events", (unsigned long long)cyc, nev);
            if (show) {
                const Frame f = in.front();
                bool inr = (f.src >> PEER_BITS) == 0;
                bool seqd = enable && inr && (f.flags & TG_FLAG_SEQ);
                unsigned p = f.src & ((1u << PEER_BITS) - 1);
                bool link = f.op == TG_OP_ACK || f.op == TG_OP_NAK;
                TB_CHECK(t.m_lack_valid == (seqd && first), "cycle %llu: lack_valid %u (sequenced %u, first %u)",
                         (unsigned long long)cyc, t.m_lack_valid, seqd, first);
                if (t.m_lack_valid) {
                    TB_CHECK(t.m_lack_peer == p && t.m_lack_seq == (f.ack & SEQ_MASK) &&
                             t.m_lack_nak == (f.op == TG_OP_NAK),
                             "cycle %llu: lack peer %u seq %u nak %u, want %u %u %u", (unsigned long long)cyc,
                             t.m_lack_peer, t.m_lack_seq, t.m_lack_nak, p, f.ack & SEQ_MASK, f.op == TG_OP_NAK);
                }
                uint32_t d = (f.seq - expected[p]) & SEQ_MASK;
                bool dup = seqd && !link && (d & (1u << (SEQ_W - 1)));
                bool gap = seqd && !link && d != 0 && !dup;
                if (link) {
                    TB_CHECK(t.s_rxd_ready, "cycle %llu: ACK/NAK frame not taken at once", (unsigned long long)cyc);
                    TB_CHECK(!t.m_lowe_valid && !t.m_lnak_valid && !t.m_rsv_valid && nev == 0,
                             "cycle %llu: ACK/NAK frame did more than report", (unsigned long long)cyc);
                    n_link++;
                } else if (dup) {
                    TB_CHECK(t.s_rxd_ready && t.ev_dup_drop && t.m_lowe_valid && t.m_lowe_peer == p &&
                             t.m_lowe_seq == expected[p] && !t.m_lnak_valid && !t.m_rsv_valid,
                             "cycle %llu: duplicate seq %u (expected %u) not dropped and acked",
                             (unsigned long long)cyc, f.seq, expected[p]);
                    n_dup++;
                } else if (gap) {
                    TB_CHECK(t.s_rxd_ready && t.ev_ooo_drop && !t.m_lowe_valid && !t.m_rsv_valid,
                             "cycle %llu: gap seq %u (expected %u) not dropped", (unsigned long long)cyc, f.seq,
                             expected[p]);
                    TB_CHECK(t.m_lnak_valid == !naked[p], "cycle %llu: NAK %u, already sent %u",
                             (unsigned long long)cyc, t.m_lnak_valid, naked[p]);
                    if (t.m_lnak_valid) {
                        TB_CHECK(t.m_lnak_peer == p && t.m_lnak_seq == expected[p], "cycle %llu: NAK %u/%u",
                                 (unsigned long long)cyc, t.m_lnak_peer, t.m_lnak_seq);
                        n_nak++;
                    }
                    naked[p] = true;
                    n_ooo++;
                } else if (t.s_rxd_ready && t.ev_busy_drop) {
                    // at once for a sequenced request when no slot can be
                    // kept for its answer, else after LINK_RX_WAIT cycles
                    bool full = occ >= FIFO_DEPTH;
                    bool claimed = claim && claim_peer != p;
                    bool no_slot = seqd && !full && answered(f.op) &&
                                   !(claimed ? t.in_rsv_room2 : t.in_rsv_room);
                    TB_CHECK(enable && (no_slot || waited >= rx_wait),
                             "cycle %llu: dropped as busy after %u cycles (limit %u)",
                             (unsigned long long)cyc, waited, rx_wait);
                    TB_CHECK(!t.m_lowe_valid && !t.m_rsv_valid, "cycle %llu: busy drop acked",
                             (unsigned long long)cyc);
                    TB_CHECK(t.m_lnak_valid == (no_slot && !naked[p]), "cycle %llu: busy drop NAK %u",
                             (unsigned long long)cyc, t.m_lnak_valid);
                    if (no_slot) {
                        naked[p] = true;
                        if (!claim) {
                            claim = true;
                            claim_peer = p;
                            claim_set = true;
                        }
                    }
                    n_busy++;
                } else if (t.s_rxd_ready) {
                    TB_CHECK(nev == 0, "cycle %llu: frame passed on and dropped", (unsigned long long)cyc);
                    TB_CHECK(t.m_lowe_valid == seqd, "cycle %llu: ack owed %u, sequenced %u",
                             (unsigned long long)cyc, t.m_lowe_valid, seqd);
                    if (seqd) {
                        expected[p] = (expected[p] + 1) & SEQ_MASK;
                        naked[p] = false;
                        TB_CHECK(t.m_lowe_peer == p && t.m_lowe_seq == expected[p], "cycle %llu: owe %u/%u",
                                 (unsigned long long)cyc, t.m_lowe_peer, t.m_lowe_seq);
                    }
                    TB_CHECK(t.m_rsv_valid == (enable && answered(f.op)), "cycle %llu: reservation %u for op %u",
                             (unsigned long long)cyc, t.m_rsv_valid, f.op);
                    bool claimed = claim && claim_peer != p;
                    TB_CHECK(!answered(f.op) || !enable || (claimed ? t.in_rsv_room2 : t.in_rsv_room),
                             "cycle %llu: answered request taken without a slot%s", (unsigned long long)cyc,
                             claimed ? " kept for another peer" : "");
                    if (answered(f.op) && claim && claim_peer == p)
                        claim = false;
                    occ++;
                    n_rsv += t.m_rsv_valid;
                    passed.push_back(f);
                    pushed = true;
                    n_pass++;
                } else {
                    TB_CHECK(!t.m_lowe_valid && !t.m_lnak_valid && !t.m_rsv_valid && nev == 0,
                             "cycle %llu: events for a waiting frame", (unsigned long long)cyc);
                }
                // a frame taken and not passed on frees its payload slot
                TB_CHECK(t.m_free_valid == (t.s_rxd_ready && !pushed) &&
                             (!t.m_free_valid || t.m_free_slot == (f.id & SLOT_MASK)),
                         "cycle %llu: slot freed %u (slot %u), frame taken %u, passed on %u",
                         (unsigned long long)cyc, t.m_free_valid, t.m_free_slot, t.s_rxd_ready, pushed);
                n_free += t.m_free_valid;
                if (t.s_rxd_ready) {
                    in.pop_front();
                    first = true;
                    waited = 0;
                } else {
                    first = false;
                    waited++;
                }

            } else {
                TB_CHECK(!t.m_lack_valid && !t.m_lowe_valid && !t.m_lnak_valid && !t.m_rsv_valid && nev == 0 &&
                             !t.m_free_valid,
                         "cycle %llu: events without a frame", (unsigned long long)cyc);
            }
            if (popped)
                occ--;
            // the claim lapses after 2^20 cycles; a new one starts its age at 0
            if (claim_set) {
                claim_age = 1;
            } else {
                if (claim && claim_age == 0xFFFFF)
                    claim = false;
                claim_age = (claim_age + 1) & 0xFFFFF;
            }
        }
        told_next = !rst;
        told_slot = t.m_rxd_slot_next;
        t.clk = 1;
        t.eval();
        cyc++;
    }

    void reset()
    {
        for (int i = 0; i < 4; i++) tick(true);
        for (unsigned p = 0; p < (1u << PEER_BITS); p++) {
            expected[p] = 0;
            naked[p] = false;
        }
        passed.clear();
        first = true;
        waited = 0;
        claim = false;
        claim_age = 0;
        occ = 0;
        // the peer table is cleared in 2^PEER_BITS cycles
        for (unsigned i = 0; i < (1u << PEER_BITS) + 2; i++) tick();
        TB_CHECK(!m->s_rxd_ready || in.empty(), "ready before the table is clear");
    }

    // Frames from `n` random peers: mostly the next seq, sometimes an old or
    // a future one, some ACK/NAK, unsequenced or from beyond the range.
    void traffic(unsigned n)
    {
        static uint32_t sent[1u << PEER_BITS];
        static bool init = false;
        if (!init) {
            for (auto &s : sent) s = 0;
            init = true;
        }
        static const uint8_t OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_REQ, TG_OP_FAA,
                                      TG_OP_ATOMIC_RESP, TG_OP_REQ_RESP, TG_OP_SWAP, TG_OP_CAS};
        for (unsigned i = 0; i < n; i++) {
            Frame f{};
            unsigned p = rng.below(NPEERS) * 37;
            f.src = (uint16_t)p;
            f.flags = (uint8_t)((rng.next() & ~(uint64_t)TG_FLAG_SEQ) | TG_FLAG_SEQ);
            f.op = OPS[rng.below(sizeof OPS)];
            f.tag = (uint16_t)rng.next();
            f.ack = (uint32_t)rng.next();
            f.id = next_id++;
            unsigned k = rng.below(100);
            if (k < 70) {
                f.seq = sent[p];                                 // as the sender numbers it
                sent[p] = (sent[p] + 1) & SEQ_MASK;
            } else if (k < 78) {
                f.seq = (sent[p] - 1 - rng.below(8)) & SEQ_MASK; // an old one again
            } else if (k < 84) {
                f.seq = (sent[p] + 1 + rng.below(4)) & SEQ_MASK; // after a loss
            } else if (k < 90) {
                f.op = rng.chance(50) ? TG_OP_ACK : TG_OP_NAK;
                f.seq = 0;
            } else if (k < 95) {
                f.flags &= (uint8_t)~TG_FLAG_SEQ;                // unsequenced
                f.seq = (uint32_t)rng.next();
            } else {
                f.src = (uint16_t)((1u << PEER_BITS) + rng.below(0xFF00));   // beyond the range
                f.seq = (uint32_t)rng.next();
            }
            // the high bits of seq are ignored
            f.seq |= (uint32_t)rng.below(2) << 20;
            in.push_back(f);
        }
        // a sender whose frames are dropped resends them: resync the model
        // sender with the receiver now and then
        if (rng.chance(30))
            for (unsigned q = 0; q < NPEERS; q++) sent[q * 37] = expected[q * 37];
    }

    void run(uint64_t limit)
    {
        uint64_t end = cyc + limit;
        while ((!in.empty() || !passed.empty()) && cyc < end) tick();
        TB_CHECK(in.empty() && passed.empty(), "stuck: %zu frames to show, %zu to pass on", in.size(), passed.size());
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Cfg { unsigned stall, room; uint32_t wait; };
    const Cfg cfgs[] = {{0, 100, 20}, {50, 100, 20}, {90, 100, 200}, {30, 30, 10}, {95, 60, 0}, {70, 90, 1000}};
    uint64_t seed = 1;
    uint64_t tot_pass = 0, tot_dup = 0, tot_ooo = 0, tot_busy = 0, tot_nak = 0, tot_rsv = 0;
    for (const Cfg &c : cfgs) {
        Tb tb(seed++);
        tb.stall_pct = c.stall;
        tb.room_pct = c.room;
        tb.rx_wait = c.wait;
        tb.reset();
        for (unsigned r = 0; r < 40; r++) {
            tb.traffic(200);
            tb.run(2000000);
            if (r == 20) tb.reset();   // reset between bursts: every peer starts again at 0
        }
        // the layer disabled: everything passes, in order, nothing dropped
        tb.enable = false;
        uint64_t busy0 = tb.n_busy, dup0 = tb.n_dup, ooo0 = tb.n_ooo;
        for (unsigned r = 0; r < 5; r++) {
            tb.traffic(200);
            tb.run(2000000);
        }
        TB_CHECK(tb.n_busy == busy0 && tb.n_dup == dup0 && tb.n_ooo == ooo0, "drops with the layer disabled");
        TB_CHECK(tb.n_told > 1000, "next slot checked only %llu times", (unsigned long long)tb.n_told);
        // every frame taken is passed on or frees its slot, never both
        TB_CHECK(tb.n_free == tb.n_dup + tb.n_ooo + tb.n_busy + tb.n_link,
                 "%llu slots freed for %llu frames dropped or ACK/NAK", (unsigned long long)tb.n_free,
                 (unsigned long long)(tb.n_dup + tb.n_ooo + tb.n_busy + tb.n_link));
        tot_pass += tb.n_pass; tot_dup += tb.n_dup; tot_ooo += tb.n_ooo; tot_busy += tb.n_busy;
        tot_nak += tb.n_nak; tot_rsv += tb.n_rsv;
    }
    std::printf("passed %llu, duplicates %llu, gaps %llu (NAKs %llu), busy drops %llu, reservations %llu\n",
                (unsigned long long)tot_pass, (unsigned long long)tot_dup, (unsigned long long)tot_ooo,
                (unsigned long long)tot_nak, (unsigned long long)tot_busy, (unsigned long long)tot_rsv);
    TB_CHECK(tot_dup > 100 && tot_ooo > 100 && tot_nak > 50 && tot_busy > 10 && tot_rsv > 100,
             "a case was not exercised");
    return tb_finish("tg_link_rx");
}
