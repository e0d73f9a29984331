// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the link layer's transmit side over a modelled lossy link
// and receiver: random descriptors to several peers with source gaps and
// sink stalls; every frame reaches its receiver exactly once and in order,
// resends are identical, acks are piggybacked or sent alone in time, NAKs
// requested are sent and NAKs received start a resend, a peer that never
// answers is declared gone with every frame to it counted, frames beyond
// the peer range pass unsequenced, and response reservations are kept.
// Payloads live in a model of the payload buffers: a descriptor takes the
// lowest free slot of its buffer and names it; every frame sent, resends
// included, carries the words of the slot it names, which must still be
// held; a hold goes once, by the link layer (acknowledged, purged or
// dropped) or by the sender (a frame not kept), and none is left once the
// link drains.
#include "Vtg_link_tx.h"
#include "verilated.h"
#include "tb.hpp"

#include <map>
#include <memory>

static const unsigned PEER_BITS = 8;   // module defaults
static const unsigned SEQ_W = 16;
static const uint32_t SEQ_MASK = (1u << SEQ_W) - 1;
static const unsigned PEERS[] = {0, 5, 9, 200};
static const unsigned NP = 4;
static const unsigned DEAD = 13;       // a peer that never answers
static const uint16_t FAR = 0x1234;    // beyond the peer range

struct Desc {
    uint8_t op, flags;
    uint16_t dst, tag;
    uint32_t id;
    uint8_t src, slot;   // payload buffer and its slot (taken when first offered)
};

static const unsigned PAY_SLOTS = 1u << TG_PAY_SLOT_BITS;   // per buffer
static uint64_t pay_word(uint32_t id, unsigned w)
{
    return (uint64_t)(id * 0x85EBCA6Bu + 2 * w + 1) << 32 | (id * 0x85EBCA6Bu + 2 * w);
}

struct Ev {   // an acknowledgement on its way back
    uint64_t due;
    unsigned peer;
    uint32_t seq;
    bool nak;
};

static bool is_rsp(uint8_t op)
{
    return op == TG_OP_READ_RESP || op == TG_OP_ATOMIC_RESP || op == TG_OP_REQ_RESP;
}

struct Tb {
    std::unique_ptr<Vtg_link_tx> m;
    TbRng rng;
    uint64_t cyc = 0;
    unsigned gap_pct = 0, stall_pct = 0, loss_pct = 0, lat = 20;
    uint32_t rto = 150, ack_delay = 16;
    uint8_t max_retries = 5;

    std::deque<Desc> src[2];                      // requests, responses
    bool showing[2] = {false, false};
    std::map<unsigned, std::deque<Desc>> pend[2]; // taken, no seq seen yet, per peer and class
    std::map<unsigned, std::vector<Desc>> acc;    // per peer, index = seq
    std::map<unsigned, uint32_t> rexp;            // receiver model: next expected
    std::vector<uint32_t> far_sent[2], far_got[2];
    std::vector<Desc> far_desc[2];                // taken beyond the range, in order
    struct PaySlot {
        bool held;
        uint64_t w[8];
    } pay[4][PAY_SLOTS] = {};                     // the payload buffers, [src][slot]
    uint64_t takes = 0, rels = 0, sender_rels = 0;
    bool ack_all = false;                         // the receiver acks every frame (draining)
    std::deque<Ev> back;                          // acks and NAKs on the way back
    // acks owed: value, cycle it became owed; the last ack value carried
    uint32_t owed_val[1u << PEER_BITS] = {}, carried[1u << PEER_BITS] = {};
    uint64_t owed_cyc[1u << PEER_BITS] = {};
    bool owed[1u << PEER_BITS] = {};
    std::deque<std::pair<unsigned, uint32_t>> naks_req;
    uint64_t dead_acc = 0, gone_drops = 0, retx = 0, acks = 0, naks = 0, lost = 0, sent = 0, nak_in = 0;
    unsigned rsv = 0;
    bool dead_seen_gone = false;
    uint64_t gone_cyc = 0;
    uint32_t next_id = 1;
    int to_add = 0;
    bool dead_mode = false;
    bool quiet = false;

    explicit Tb(uint64_t seed) : m(new Vtg_link_tx), rng(seed) {}

    // The descriptor's payload into the lowest free slot of its buffer
    // (none free: it waits).
    bool take_slot(Desc &d)
    {
        if (d.src == TG_PAY_NONE) return true;
        for (unsigned k = 0; k < PAY_SLOTS; k++) {
            PaySlot &ps = pay[d.src][k];
            if (ps.held) continue;
            ps.held = true;
            for (unsigned w = 0; w < 8; w++) ps.w[w] = pay_word(d.id, w);
            d.slot = (uint8_t)k;
            takes++;
            return true;
        }
        return false;
    }

    void release(unsigned src, unsigned slot, const char *who)
    {
        TB_CHECK(src != TG_PAY_NONE && slot < PAY_SLOTS, "cycle %llu: %s releases slot %u of buffer %u",
                 (unsigned long long)cyc, who, slot, src);
        if (src == TG_PAY_NONE || slot >= PAY_SLOTS) return;
        PaySlot &ps = pay[src][slot];
        TB_CHECK(ps.held, "cycle %llu: %s releases slot %u/%u, not held", (unsigned long long)cyc, who, src, slot);
        ps.held = false;
        for (unsigned w = 0; w < 8; w++) ps.w[w] = ~ps.w[w];
        rels++;
    }

    unsigned held() const
    {
        unsigned n = 0;
        for (auto &b : pay)
            for (auto &ps : b) n += ps.held;
        return n;
    }

    void drive_src()
    {
        Vtg_link_tx &t = *m;
        for (int c = 0; c < 2; c++) {
            if (!showing[c] && !src[c].empty() && !rng.chance(gap_pct)) showing[c] = take_slot(src[c].front());
            const Desc &d = showing[c] ? src[c].front() : Desc{};
            // the two ports have the same fields
#define TB_DRIVE(P)                                                                   \
    do {                                                                              \
        t.P##_valid = showing[c];                                                     \
        t.P##_op = d.op;                                                              \
        t.P##_flags = d.flags;                                                        \
        t.P##_status = (uint8_t)d.id;                                                 \
        t.P##_dst = d.dst;                                                            \
        t.P##_addr = d.id;                                                            \
        t.P##_off = (d.id ^ d.tag) & 63;                                              \
        t.P##_cnt = (d.id >> 6) & 127;                                                \
        t.P##_len = 64;                                                               \
        t.P##_ctx = (uint8_t)(d.id >> 3);                                             \
        t.P##_tag = d.tag;                                                            \
        t.P##_pay_src = d.src;                                                        \
        t.P##_pay_slot = d.slot;                                                      \
    } while (0)
            if (c) TB_DRIVE(s_rsp_txd);
            else TB_DRIVE(s_req_txd);
#undef TB_DRIVE
        }
    }

    bool frame_is(const Desc &d)
    {
        Vtg_link_tx &t = *m;
        bool ok = t.m_txd_op == d.op && t.m_txd_dst == d.dst && t.m_txd_addr == d.id && t.m_txd_tag == d.tag &&
                  t.m_txd_status == (uint8_t)d.id && t.m_txd_off == ((d.id ^ d.tag) & 63) &&
                  t.m_txd_cnt == ((d.id >> 6) & 127) &&
                  t.m_txd_len == 64 && t.m_txd_ctx == (uint8_t)(d.id >> 3) && t.m_txd_pay_src == d.src;
        // the payload: the words of the slot the frame names (none: zeros)
        if (d.src != TG_PAY_NONE) {
            const PaySlot &ps = pay[t.m_txd_pay_src][t.m_txd_pay_slot % PAY_SLOTS];
            for (unsigned w = 0; w < 8; w++) ok = ok && ps.w[w] == pay_word(d.id, w);
        }
        return ok;
    }

    void check_ack_field(unsigned p)
    {
        Vtg_link_tx &t = *m;
        // the value owed now, or one owed before it (the frame may have been
        // loaded a few cycles ago)
        uint32_t a = t.m_txd_ack;
        uint32_t behind = (owed_val[p] - a) & SEQ_MASK;
        TB_CHECK(a <= SEQ_MASK && behind < 64, "cycle %llu: ack %u to peer %u, owed %u", (unsigned long long)cyc,
                 a, p, owed_val[p]);
        carried[p] = a;
        if (a == owed_val[p]) owed[p] = false;
    }

    void on_frame()
    {
        Vtg_link_tx &t = *m;
        sent++;
        uint8_t op = t.m_txd_op;
        unsigned dst = t.m_txd_dst;
        bool seqf = t.m_txd_flags & TG_FLAG_SEQ;
        if (op == TG_OP_ACK || op == TG_OP_NAK) {
            TB_CHECK(seqf && t.m_txd_len == 0 && dst < (1u << PEER_BITS), "cycle %llu: link frame flags %02x len %u "
                     "dst %u", (unsigned long long)cyc, t.m_txd_flags, t.m_txd_len, dst);
            TB_CHECK(t.m_txd_pay_src == TG_PAY_NONE && !t.m_txd_pay_rel, "cycle %llu: link frame with payload "
                     "buffer %u, release %u", (unsigned long long)cyc, t.m_txd_pay_src, t.m_txd_pay_rel);
            if (op == TG_OP_ACK) {
                acks++;
                check_ack_field(dst);
            } else {
                naks++;
                TB_CHECK(!naks_req.empty() && naks_req.front().first == dst && naks_req.front().second == t.m_txd_ack,
                         "cycle %llu: NAK %u/%u not requested", (unsigned long long)cyc, dst, t.m_txd_ack);
                if (!naks_req.empty()) naks_req.pop_front();
            }
            return;
        }
        if (dst == FAR) {
            TB_CHECK(!seqf && t.m_txd_seq == 0 && t.m_txd_ack == 0, "cycle %llu: frame beyond the range sequenced",
                     (unsigned long long)cyc);
            // not kept: in order per class, and the sender releases its slot
            unsigned c = is_rsp(op), k = (unsigned)far_got[c].size();
            TB_CHECK(k < far_desc[c].size() && frame_is(far_desc[c][k]), "cycle %llu: frame beyond the range is "
                     "not the next %s", (unsigned long long)cyc, c ? "response" : "request");
            TB_CHECK(t.m_txd_pay_rel, "cycle %llu: frame beyond the range kept", (unsigned long long)cyc);
            far_got[c].push_back(t.m_txd_addr);
            if (t.m_txd_pay_rel && t.m_txd_pay_src != TG_PAY_NONE) {
                sender_rels++;
                release(t.m_txd_pay_src, t.m_txd_pay_slot, "the sender");
            }
            return;
        }
        TB_CHECK(!t.m_txd_pay_rel, "cycle %llu: sequenced frame to %u released by the sender",
                 (unsigned long long)cyc, dst);
        TB_CHECK(t.m_txd_pay_src == TG_PAY_NONE || pay[t.m_txd_pay_src][t.m_txd_pay_slot % PAY_SLOTS].held,
                 "cycle %llu: frame seq %u to %u names slot %u/%u, not held", (unsigned long long)cyc, t.m_txd_seq,
                 dst, t.m_txd_pay_src, t.m_txd_pay_slot);
        TB_CHECK(seqf, "cycle %llu: data frame to %u without SEQ", (unsigned long long)cyc, dst);
        TB_CHECK(dst != DEAD || !dead_seen_gone || cyc < gone_cyc + 50, "cycle %llu: frame to a gone peer",
                 (unsigned long long)cyc);
        auto &v = acc[dst];
        uint32_t s = t.m_txd_seq;
        if (s == v.size()) {
            // a new number: the oldest frame of its class to this peer
            auto &q = pend[is_rsp(op)][dst];
            TB_CHECK(!q.empty() && frame_is(q.front()), "cycle %llu: seq %u to %u is not the next %s (id %u)",
                     (unsigned long long)cyc, s, dst, is_rsp(op) ? "response" : "request",
                     q.empty() ? 0 : q.front().id);
            if (q.empty()) return;
            v.push_back(q.front());
            q.pop_front();
        }
        TB_CHECK(s < v.size(), "cycle %llu: seq %u to %u skips (%zu given)", (unsigned long long)cyc, s, dst,
                 v.size());
        if (s >= v.size()) return;
        Desc d = v[s];
        d.flags = v[s].flags | TG_FLAG_SEQ;
        TB_CHECK(frame_is(d) && t.m_txd_flags == (uint8_t)(v[s].flags | TG_FLAG_SEQ),
                 "cycle %llu: frame seq %u to %u is not descriptor %u", (unsigned long long)cyc, s, dst, d.id);
        check_ack_field(dst);
        if (dst == DEAD || rng.chance(loss_pct)) {
            lost++;
            return;
        }
        // the receiver: in order is taken, anything else acked or NAKed
        uint32_t &e = rexp[dst];
        if (s == e) e++;
        else if (s > e && rng.chance(50)) {
            back.push_back(Ev{cyc + lat + rng.below(lat), dst, e, true});
            return;
        }
        if (ack_all || rng.chance(60)) back.push_back(Ev{cyc + lat + rng.below(lat), dst, e, false});
    }

    void tick(bool rst = false)
    {
        Vtg_link_tx &t = *m;
        t.rst = rst;
        t.cfg_enable = 1;
        t.cfg_rto = rto;
        t.cfg_max_retries = max_retries;
        t.cfg_ack_delay = (uint16_t)ack_delay;
        t.cfg_gone_clear = 0;
        if (!rst) feed(dead_mode);
        drive_src();
        t.m_txd_ready = !rng.chance(stall_pct);
        // acks back, one per cycle, when due (lost ones are simply not sent)
        t.s_lack_valid = 0;
        if (!back.empty() && back.front().due <= cyc) {
            Ev e = back.front();
            back.pop_front();
            if (!rng.chance(loss_pct)) {
                t.s_lack_valid = 1;
                t.s_lack_peer = e.peer;
                t.s_lack_seq = e.seq & SEQ_MASK;
                t.s_lack_nak = e.nak;
                nak_in += e.nak;
            }
        }
        // acks owed and NAKs to send, from the receive side
        t.s_lowe_valid = 0;
        t.s_lnak_valid = 0;
        t.s_rsv_valid = 0;
        rst = rst || quiet;   // nothing from the receive side while the tables clear
        if (!rst && rng.chance(3)) {
            unsigned p = PEERS[rng.below(NP)];
            owed_val[p] = (owed_val[p] + 1 + rng.below(3)) & SEQ_MASK;
            if (!owed[p]) owed_cyc[p] = cyc;
            owed[p] = true;
            t.s_lowe_valid = 1;
            t.s_lowe_peer = p;
            t.s_lowe_seq = owed_val[p];
        }
        bool nak_pending_before = false;
        if (!rst && rng.chance(1) && naks_req.empty()) {
            unsigned p = PEERS[rng.below(NP)];
            uint32_t s = (uint32_t)rng.below(SEQ_MASK);
            t.s_lnak_valid = 1;
            t.s_lnak_peer = p;
            t.s_lnak_seq = s;
            nak_pending_before = true;
            naks_req.push_back({p, s});
        }
        if (!rst && rng.chance(2) && t.st_rsv_room) {
            t.s_rsv_valid = 1;
            rsv++;
        }
        t.clk = 0;
        t.eval();
        if (!rst) {
            for (int c = 0; c < 2; c++) {
                bool hs = c ? (t.s_rsp_txd_valid && t.s_rsp_txd_ready) : (t.s_req_txd_valid && t.s_req_txd_ready);
                if (!hs) continue;
                Desc d = src[c].front();
                src[c].pop_front();
                showing[c] = false;
                if (d.dst == FAR) {
                    far_sent[c].push_back(d.id);
                    far_desc[c].push_back(d);
                } else pend[c][d.dst].push_back(d);
                if (d.dst == DEAD) dead_acc++;
            }
            if (t.m_txd_valid && t.m_txd_ready) on_frame();
            if (t.m_pay_rel_valid) release(t.m_pay_rel_src, t.m_pay_rel_slot, "the link layer");
            retx += t.ev_retx;
            gone_drops += t.ev_gone_drop;
            if (t.st_gone_any) {
                TB_CHECK(t.st_gone_peer == DEAD, "cycle %llu: peer %u declared gone", (unsigned long long)cyc,
                         t.st_gone_peer);
                if (!dead_seen_gone) gone_cyc = cyc;
                dead_seen_gone = true;
            }
            // an owed ack goes out within the delay (plus room for the
            // frames ahead of it)
            for (unsigned k = 0; k < NP; k++) {
                unsigned p = PEERS[k];
                TB_CHECK(!owed[p] || cyc - owed_cyc[p] < ack_delay + 400, "cycle %llu: ack %u to %u owed since %llu",
                         (unsigned long long)cyc, owed_val[p], p, (unsigned long long)owed_cyc[p]);
                if (owed[p] && cyc - owed_cyc[p] >= ack_delay + 400) owed[p] = false;
            }
        }
        (void)nak_pending_before;
        t.clk = 1;
        t.eval();
        cyc++;
    }

    // Keep both sources fed: requests, and a response for each slot the
    // bench kept (plus some unasked ones).
    void feed(bool dead)
    {
        static const uint8_t REQ_OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_REQ, TG_OP_FAA, TG_OP_CAS};
        static const uint8_t RSP_OPS[] = {TG_OP_READ_RESP, TG_OP_ATOMIC_RESP, TG_OP_REQ_RESP};
        for (int c = 0; c < 2; c++) {
            while (src[c].size() < 4 && to_add > 0 && (c == 0 || rsv > 0 || rng.chance(1))) {
                Desc d{};
                unsigned k = rng.below(100);
                d.dst = (uint16_t)(k < 5 ? FAR : (dead && k < 10) ? DEAD : PEERS[rng.below(NP)]);
                d.op = c ? RSP_OPS[rng.below(3)] : REQ_OPS[rng.below(5)];
                if (c && rsv) rsv--;
                d.flags = (uint8_t)(rng.next() & 0xFD);
                d.tag = (uint16_t)rng.next();
                d.id = next_id++;
                unsigned b = rng.below(4);   // a quarter without payload
                d.src = (uint8_t)(b == 0 ? TG_PAY_NONE : c ? TG_PAY_RSP : b == 3 ? TG_PAY_SPILL : TG_PAY_REQ);
                src[c].push_back(d);
                to_add--;
            }
        }
    }

    bool done()
    {
        if (!src[0].empty() || !src[1].empty() || to_add > 0 || !naks_req.empty()) return false;
        for (int c = 0; c < 2; c++)
            for (auto &kv : pend[c])
                if (kv.first != DEAD && !kv.second.empty()) return false;
        for (auto &kv : acc)
            if (kv.first != DEAD && rexp[kv.first] != kv.second.size()) return false;
        return far_got[0].size() == far_sent[0].size() && far_got[1].size() == far_sent[1].size();
    }
};

// NAKs the module drops (one pending already) leave entries in naks_req:
// the check in on_frame matches in order, so only let NAK requests through
// when none is outstanding in the model.
static void run(Tb &tb, uint64_t limit)
{
    uint64_t end = tb.cyc + limit;
    while (!tb.done() && tb.cyc < end) tb.tick();
    for (auto &kv : tb.acc)
        if (kv.first != DEAD)
            TB_CHECK(tb.rexp[kv.first] == kv.second.size(), "peer %u: %u of %zu frames delivered", kv.first,
                     tb.rexp[kv.first], kv.second.size());
    TB_CHECK(tb.naks_req.empty(), "%zu NAKs asked for but not sent", tb.naks_req.size());
    for (int c = 0; c < 2; c++)
        TB_CHECK(tb.far_got[c] == tb.far_sent[c], "frames beyond the range: %zu of %zu, or out of order",
                 tb.far_got[c].size(), tb.far_sent[c].size());
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    // the last two: timeouts of a few cycles, far under the round trip,
    // so that resends, their backoff and restarts by acks come every few
    // cycles, meeting the timer scan; a peer is then never given up (255
    // retries), so those run without the silent peer
    struct Cfg { unsigned gap, stall, loss; uint32_t rto; uint8_t max_retries; };
    const Cfg cfgs[] = {{0, 0, 0, 150, 5}, {30, 30, 2, 150, 5}, {0, 60, 10, 150, 5},
                        {70, 10, 5, 150, 5}, {10, 90, 20, 150, 5}, {30, 30, 10, 1, 255},
                        {0, 60, 5, 3, 255}};
    uint64_t seed = 1, tot_retx = 0, tot_lost = 0, tot_acks = 0, tot_naks = 0, tot_nak_in = 0;
    for (const Cfg &c : cfgs) {
        for (int dead = 0; dead < (c.max_retries == 255 ? 1 : 2); dead++) {
            Tb tb(seed++);
            tb.gap_pct = c.gap;
            tb.stall_pct = c.stall;
            tb.loss_pct = c.loss;
            tb.rto = c.rto;
            tb.max_retries = c.max_retries;
            for (int i = 0; i < 4; i++) tb.tick(true);
            tb.quiet = true;
            for (int i = 0; i < 300; i++) tb.tick();
            tb.quiet = false;
            tb.to_add = 3000;
            tb.dead_mode = dead;
            run(tb, 3000000);
            // the dead peer: every frame to it discarded and counted
            if (dead) {
                for (int i = 0; i < 200000 && tb.gone_drops < tb.dead_acc; i++) tb.tick();
                TB_CHECK(tb.dead_seen_gone, "the silent peer was never declared gone");
                TB_CHECK(tb.gone_drops == tb.dead_acc, "gone drops %llu, frames to the silent peer %llu",
                         (unsigned long long)tb.gone_drops, (unsigned long long)tb.dead_acc);
                tb.m->cfg_gone_clear = 1;
                tb.m->m_txd_ready = 0;   // (no frame leaves in this cycle)
                tb.m->clk = 0;
                tb.m->eval();
                if (tb.m->m_pay_rel_valid) tb.release(tb.m->m_pay_rel_src, tb.m->m_pay_rel_slot, "the link layer");
                tb.m->clk = 1;
                tb.m->eval();
                tb.m->cfg_gone_clear = 0;
                tb.m->clk = 0;
                tb.m->eval();
                TB_CHECK(!tb.m->st_gone_any, "gone status not cleared");
            }
            // drain: a clean link whose receiver acks every frame; every
            // payload hold is released once
            tb.loss_pct = 0;
            tb.ack_all = true;
            for (int i = 0; i < 200000 && tb.held() > 0; i++) tb.tick();
            TB_CHECK(tb.held() == 0 && tb.takes == tb.rels, "%u payload slots still held after the drain (%llu "
                     "taken, %llu released)", tb.held(), (unsigned long long)tb.takes, (unsigned long long)tb.rels);
            TB_CHECK(tb.sender_rels > 0 && tb.rels > tb.sender_rels, "releases: %llu by the sender of %llu",
                     (unsigned long long)tb.sender_rels, (unsigned long long)tb.rels);
            tot_retx += tb.retx; tot_lost += tb.lost; tot_acks += tb.acks; tot_naks += tb.naks;
            tot_nak_in += tb.nak_in;
        }
    }
    std::printf("lost %llu, retransmitted %llu, ACK frames %llu, NAK frames %llu, NAKs received %llu\n",
                (unsigned long long)tot_lost, (unsigned long long)tot_retx, (unsigned long long)tot_acks,
                (unsigned long long)tot_naks, (unsigned long long)tot_nak_in);
    TB_CHECK(tot_retx > 100 && tot_acks > 100 && tot_naks > 10 && tot_nak_in > 10, "a case was not exercised");
    return tb_finish("tg_link_tx");
}
