// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the REQ sender against model targets that answer REQs as the
// receiver does (tg_rx_engine): per source and queue, a refusal closes the
// queue until a REQ with the retry flag reopens it; answers are OK,
// NOT_READY, NO_QUEUE, MALFORMED, or never. A queue is a target node and a
// queue address. A cycle-level model of the sender predicts every offer
// and every handshake: other requests pass through unchanged and in order;
// a new REQ goes out at once unless its own queue has refused REQs (then it
// is parked behind them) or every slot is busy; a round of resends starts
// when none is running, a refused REQ is eligible (none to its queue awaits
// an answer), no new offer is stalled on the output and the backoff has
// passed, holds exactly the eligible REQs, resends them oldest first, with
// the retry flag on the first resend to each queue; failures and timeouts
// are reported with their context; the output holds still while stalled.
// End to end, every queue accepts the good REQs sent to it exactly once
// and in the host's order.
// Payloads are in payload buffers (request, response, spill) modelled
// here: a request takes the lowest free slot of its buffer before it is
// offered (the wire hold, and the REQ hold for a REQ), a descriptor names
// the slot (none for requests without a payload), and the payload offered
// is read from the slot named. The path to the wire drops the wire hold a
// random while after it takes a frame. A resend waits until its slot's
// wire hold is gone (unless the REQ, parked unsent, still has its
// writer's), adds the hold again when it is taken, and every REQ's REQ
// hold is released exactly once, when it is answered for good or times
// out; at the end of a run no slot is held.
#include "Vtg_req_tx.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#ifndef TB_MAX_REQS
#define TB_MAX_REQS 4                   // the module default
#endif
static const unsigned MAX_REQS = TB_MAX_REQS;   // the bench is built with it

// ---------------------------------------------------------------- property checks
// A broken property can repeat every few cycles; each kind reports its
// first few failures in full and the rest as one count at the end (all of
// them with TB_ALL set). TB_TRACE=n traces bench instance n cycle by cycle;
// TB_SEED varies the random instances.
enum Prop {
    P_STABLE, P_UNKNOWN, P_FIELDS, P_TAG, P_SLOT, P_PASS, P_NEW_HELD, P_NEW_FREE, P_PARK, P_SLOTS_FULL,
    P_ROUND_START, P_ROUND_ORDER, P_RETRY_FLAG, P_RESEND_LIVE, P_ORDER, P_DUP, P_ERR, P_ERR_EXTRA,
    P_TIMEOUT, P_EVENTS, P_END, P_WIRE_WAIT, P_PAY_HOLD, P_PAY_REL, P_LEAK, NPROPS
};
static const char *const PROP_NAME[NPROPS] = {
    "stable output", "known descriptor", "descriptor fields", "REQ tag", "slot use", "pass-through",
    "no new REQ to a queue with refused ones", "a REQ to another queue goes out", "parking",
    "stall when every slot is busy", "round start (time and members)", "resend order", "retry flag",
    "no resend of a live REQ", "acceptance order per queue", "no duplicate", "failure report",
    "no spurious report", "timeout", "events", "every REQ finished",
    "resend waits for the wire hold", "wire hold of a resend", "REQ hold released once", "no slot held at the end",
};
static uint64_t prop_fail[NPROPS];
static const uint64_t PROP_SHOWN = 2;
static unsigned bench_no;   // which bench instance is running (in the messages)

#define PROP(kind, cond, ...)                                                 \
    do {                                                                      \
        if (cond) {                                                           \
            tb_checks++;                                                      \
        } else if (prop_fail[kind]++ < PROP_SHOWN) {                          \
            std::fprintf(stderr, "bench %u: ", bench_no);                     \
            TB_CHECK(false, __VA_ARGS__);                                     \
        } else {                                                              \
            tb_checks++;                                                      \
            if (getenv("TB_ALL")) {                                           \
                std::fprintf(stderr, "bench %u: (more) ", bench_no);          \
                std::fprintf(stderr, __VA_ARGS__);                            \
                std::fprintf(stderr, "\n");                                   \
            }                                                                 \
        }                                                                     \
    } while (0)

// ---------------------------------------------------------------- descriptors
enum St { HOST, PARKED, SENT, REFUSED, DONE };
enum Cls { C_GOOD, C_NO_QUEUE, C_MALFORMED };
typedef std::pair<uint16_t, uint32_t> QKey;   // a queue: target node, queue address

static const unsigned PAY_SLOTS = 1u << TG_PAY_SLOT_BITS;   // slots of each payload buffer (PAY_SLOT_W's default)

struct Desc {
    uint64_t id = 0;      // also its key, which identifies it on the output
    bool req = false;
    uint8_t op = 0, len = 0, ctx = 0;
    uint16_t dst = 0, tag = 0;
    uint32_t addr = 0;
    uint64_t mask = 0;
    uint8_t src = TG_PAY_NONE, pslot = 0;   // payload buffer and slot (the slot once it has one)
    uint64_t w[8] = {};   // payload (zeros without a buffer); word 0 is the id
};

struct Req {
    Desc d;
    St st = HOST;
    Cls cls = C_GOOD;
    bool dead = false;            // its destination never answers
    int slot = -1;
    uint64_t order = 0;           // place in the host's order of REQs
    uint64_t send_cyc = 0, park_cyc = 0, refuse_cyc = 0, first_resend_cyc = 0;
    uint32_t send_tmo = 0;        // the timeout when it was last sent (0: none)
    unsigned sends = 0, arrivals_refused_full = 0;
    bool accepted = false, was_parked = false;
    bool claimed = false;         // it has its payload slot
    bool owns_wire = false;       // a REQ not yet sent: its writer's wire hold is still its own
    int final_st = -1;
    QKey q() const { return QKey(d.dst, d.addr); }
    bool waiting() const { return st == PARKED || st == REFUSED; }   // held by the sender, to be resent
};

struct Resp {
    uint64_t due, id;
    uint16_t tag;
    uint8_t status;
};

// A queue at its target, as the target's receiver treats this sender's REQs.
struct Queue {
    unsigned cls = 1;                 // how often it is full: 0 never, 1 full_pct, 2 twice as often
    bool blocked = false;             // refused since the last retry (the receiver's block bit)
    std::vector<uint64_t> good;       // REQs it must accept, in the host's order
    size_t next_acc = 0;
    std::vector<uint64_t> acc;        // REQs it accepted, in order
};

// A target node: it handles REQs in the order they arrive and answers in
// that order.
struct Node {
    bool dead = false;
    std::deque<Resp> fifo;
    uint64_t last_due = 0;
};

// A payload buffer: the holds of each slot (TG_PAY_HOLD_WIRE and _REQ
// bits), the request it was taken for, and its words.
struct PayBuf {
    uint8_t hold[PAY_SLOTS] = {};
    int64_t owner[PAY_SLOTS];
    uint64_t w[PAY_SLOTS][8] = {};
    PayBuf() { for (int64_t &o : owner) o = -1; }
    uint32_t wire_vec() const
    {
        uint32_t v = 0;
        for (unsigned s = 0; s < PAY_SLOTS; s++) v |= (hold[s] & TG_PAY_HOLD_WIRE) ? 1u << s : 0;
        return v;
    }
    unsigned held() const
    {
        unsigned n = 0;
        for (unsigned s = 0; s < PAY_SLOTS; s++) n += hold[s] != 0;
        return n;
    }
};
// a frame's wire hold, dropped by the path to the wire in cycle due
struct WireRel {
    uint64_t due;
    uint8_t src, slot;
};

static const uint16_t LIVE_NODES[] = {0x0001, 0x0002, 0x0005, 0x00C3};
static const uint16_t DEAD_NODE = 0x0044;
static const uint32_t NO_QUEUE_ADDR = 0x00F00000u;   // addresses at or above: no queue
static const uint32_t MALFORMED_ADDR = 0x00E00000u;  // [MALFORMED_ADDR, NO_QUEUE_ADDR): bad queue

struct Tb {
    std::unique_ptr<Vtg_req_tx> m;
    TbRng rng;
    uint64_t cyc = 0;
    // knobs
    unsigned gap_pct = 0, stall_pct = 0, full_pct = 0, stray_pct = 0, resp_gap_pct = 0, hot_pct = 75;
    unsigned dmin = 1, dmax = 1;
    unsigned wire_max = 1, wire_long_pct = 0;           // cycles the wire keeps a frame's slot: 1..wire_max, or
    static const unsigned WIRE_LONG = 400;              // ... up to WIRE_LONG (kept until acknowledged)
    uint32_t backoff = 0, timeout = 0;
    // directed knobs
    std::map<uint64_t, unsigned> refuse_full;          // id -> arrivals to refuse as full
    std::map<uint64_t, unsigned> stall_after_resend;   // id -> cycles of stall after it is resent
    std::map<uint64_t, unsigned> stall_on_offer;       // id -> cycles of stall from its first offer
    std::map<uint64_t, uint64_t> delay_of;             // id -> answer delay
    std::map<uint64_t, unsigned> wire_delay_of;        // id -> cycles the wire keeps its slot after its next send
    uint64_t ready_low_until = 0;
    bool trace = false;
    // the host and the targets
    std::vector<Req> all;
    std::deque<uint64_t> hq;
    bool showing = false;
    std::map<uint16_t, Node> nodes;
    std::map<QKey, Queue> queues;
    std::vector<QKey> hot;              // queues most REQs go to, several on one node
    uint64_t next_order = 0;
    // the payload buffers (indexed by TG_PAY_*: request, response, spill)
    PayBuf pb[4];
    std::vector<WireRel> wire_rel;      // wire holds to drop
    // the model of the sender (its registers at the start of a cycle)
    int slot_owner[16];                 // REQ held in each slot (parked, sent or refused), or -1
    uint8_t slot_gen[16];               // tag generation of each slot
    std::deque<uint64_t> round_list;    // this round's REQs not yet resent, oldest first
    // the end report due in the next cycle (the REQ that finished in this one)
    bool done_v = false, done_tmo = false;
    uint8_t done_ctx = 0, done_st = 0;
    uint16_t done_tag = 0;
    Prop done_kind = P_ERR_EXTRA;
    std::map<QKey, std::vector<uint64_t>> round_qs;   // queues resent to in this round, and the REQs resent
    unsigned round_flagged = 0;         // resends with the retry flag in this round
    uint32_t wait_m = 0;                // backoff cycles waited
    bool prev_stalled = false, prev_resend = false;
    uint64_t prev_oid = 0;
    uint32_t prev_snap[32];
    // coverage
    uint64_t n_direct = 0, n_parked = 0, n_resends = 0, n_rounds = 0, n_retry_flags = 0, n_pass = 0,
             n_stall_full = 0, n_strays = 0, n_timeouts = 0, n_noq = 0, n_malformed = 0, n_accepted = 0,
             n_refused = 0, n_stalled = 0, n_multi_dst_rounds = 0,
             n_direct_beside_node = 0,    // sent directly while another queue of its node was recovering
             n_direct_beside_other = 0,   // ... while a queue of another node was recovering
             n_multi_q_rounds = 0,        // rounds over several queues
             n_multi_q_node_rounds = 0,   // ... with several queues of one node
             n_multi_flag_rounds = 0,     // rounds with the retry flag set for several queues
             n_held_out = 0,              // refused REQs left out of a round: a REQ to their queue was unanswered
             n_held_out_rounds = 0, n_held_cycles = 0,
             n_refused_blocked = 0,       // refused by the target because their queue was closed
             n_reaccepted = 0,            // accepted after a resend
             n_backoff_restarts = 0,      // cycles the backoff held for a stalled offer
             n_wire_waits = 0,            // cycles the next resend waited for its slot's wire hold
             n_wire_passed = 0,           // ... in which a request from the host went out
             n_pay_holds = 0, n_pay_rels = 0,
             n_pay_full = 0,              // cycles a request waited for a free payload slot
             n_flags_reopened = 0;        // retry flags on a resend after the queue's earlier ones in the round finished

    explicit Tb(uint64_t seed) : m(new Vtg_req_tx), rng(seed)
    {
        for (int &s : slot_owner) s = -1;
        for (uint8_t &g : slot_gen) g = 0;
        for (uint16_t n : LIVE_NODES) nodes[n];
        nodes[DEAD_NODE].dead = true;
    }

    Queue &queue(const QKey &k)
    {
        auto f = queues.find(k);
        if (f != queues.end()) return f->second;
        Queue &q = queues[k];
        q.cls = rng.below(3);
        return q;
    }
    unsigned full_chance(const Queue &q) const
    {
        return q.cls == 0 ? 0 : q.cls == 1 ? full_pct : std::min(90u, 2 * full_pct);
    }

    // ------------------------------------------------------------ host side
    uint64_t add(const Desc &d0)
    {
        Req r;
        r.d = d0;
        r.d.id = all.size();
        r.d.w[0] = r.d.id;
        if (r.d.src == TG_PAY_NONE)
            for (uint64_t &w : r.d.w) w = 0;
        if (r.d.req) {
            r.dead = nodes.count(r.d.dst) && nodes[r.d.dst].dead;
            r.cls = r.d.addr >= NO_QUEUE_ADDR ? C_NO_QUEUE : r.d.addr >= MALFORMED_ADDR ? C_MALFORMED : C_GOOD;
        }
        all.push_back(r);
        hq.push_back(r.d.id);
        return r.d.id;
    }
    Desc random_payload(Desc d)
    {
        for (unsigned k = 1; k < 8; k++) d.w[k] = rng.next();
        d.mask = rng.chance(50) ? ~0ull : tb_random_run(rng);
        return d;
    }
    uint32_t qaddr() { return 0x1000u * (1 + rng.below(8)); }
    uint64_t req(uint16_t dst, uint32_t addr = 0, int ctx = -1, unsigned words = 0)
    {
        Desc d;
        d.req = true;
        d.op = TG_OP_REQ;
        d.dst = dst;
        d.addr = addr ? addr : qaddr();
        d.len = (uint8_t)(8 * (words ? words : 1 + rng.below(8)));
        d.ctx = (uint8_t)(ctx >= 0 ? ctx : rng.below(256));
        d.tag = (uint16_t)rng.next();   // the sender chooses the tag of a REQ
        d.src = rng.chance(20) ? TG_PAY_SPILL : TG_PAY_REQ;   // from the host port, or read back from the spill ring
        return add(random_payload(d));
    }
    uint64_t req(const QKey &k) { return req(k.first, k.second); }
    uint64_t other()
    {
        const uint8_t ops[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_REQ_RESP, TG_OP_FAA};
        Desc d;
        d.op = ops[rng.below(5)];
        d.dst = rng.chance(70) ? LIVE_NODES[rng.below(4)] : (uint16_t)rng.next();
        d.addr = (uint32_t)rng.next();
        d.len = (uint8_t)(8 * rng.below(9));
        d.ctx = (uint8_t)rng.next();
        d.tag = (uint16_t)rng.next();
        // writes and atomics carry their words in the request buffer, read
        // responses in the response buffer; the rest carry none
        d.src = d.op == TG_OP_WRITE || d.op == TG_OP_FAA ? TG_PAY_REQ
              : d.op == TG_OP_READ_RESP && d.len ? TG_PAY_RSP : TG_PAY_NONE;
        return add(random_payload(d));
    }
    // A new set of busy queues: two or three on one node, one or two on
    // another; one of the first node's often full, another never.
    void pick_hot()
    {
        hot.clear();
        uint16_t a = LIVE_NODES[rng.below(4)], b;
        do b = LIVE_NODES[rng.below(4)]; while (b == a);
        std::set<QKey> qs;
        unsigned na = 2 + rng.below(2), nb = 1 + rng.below(2);
        while (qs.size() < na) qs.insert(QKey(a, qaddr()));
        while (qs.size() < na + nb) qs.insert(QKey(b, qaddr()));
        hot.assign(qs.begin(), qs.end());
        queue(hot[0]).cls = 2;
        queue(hot[1]).cls = 0;
        for (size_t i = 2; i < hot.size(); i++) queue(hot[i]).cls = rng.below(3);
    }
    uint64_t random_req(bool with_dead = false)
    {
        if (!hot.empty() && rng.chance(hot_pct)) {
            if (rng.chance(1)) pick_hot();
            return req(hot[rng.below((unsigned)hot.size())]);
        }
        uint16_t dst = with_dead && rng.chance(15) ? DEAD_NODE : LIVE_NODES[rng.below(4)];
        unsigned k = rng.below(100);
        uint32_t addr = k < 6 ? NO_QUEUE_ADDR + 8 * rng.below(1000) : k < 10 ? MALFORMED_ADDR + 8 * rng.below(1000) : 0;
        return req(dst, addr);
    }

    // ------------------------------------------------------------ signals
    void drive_desc(const Desc &d)
    {
        Vtg_req_tx &t = *m;
        t.s_txd_op = d.op;
        t.s_txd_dst = d.dst;
        t.s_txd_addr = d.addr;
        t.s_txd_off = tb_run_off(d.mask);
        t.s_txd_cnt = tb_run_cnt(d.mask);
        t.s_txd_len = d.len;
        t.s_txd_ctx = d.ctx;
        t.s_txd_tag = d.tag;
        t.s_txd_key = d.id;
        t.s_txd_pay_src = d.src;
        t.s_txd_pay_slot = d.pslot;
    }
    // the descriptor offered (its key)
    uint64_t out_id() const { return m->m_txd_key; }
    // a word of the payload offered: from the slot it names
    uint64_t out_word(unsigned k) const
    {
        return m->m_txd_pay_src == TG_PAY_NONE ? 0 : pb[m->m_txd_pay_src].w[m->m_txd_pay_slot % PAY_SLOTS][k];
    }
    // The host's request takes the lowest free slot of its payload buffer
    // (with its words) before it is offered; false: none is free.
    bool claim(Req &r)
    {
        if (r.claimed || r.d.src == TG_PAY_NONE) return true;
        PayBuf &b = pb[r.d.src];
        for (unsigned s = 0; s < PAY_SLOTS; s++) {
            if (b.hold[s]) continue;
            b.hold[s] = TG_PAY_HOLD_WIRE | (r.d.req ? TG_PAY_HOLD_REQ : 0);
            b.owner[s] = (int64_t)r.d.id;
            std::memcpy(b.w[s], r.d.w, sizeof r.d.w);
            r.d.pslot = (uint8_t)s;
            r.claimed = true;
            r.owns_wire = r.d.req;
            return true;
        }
        n_pay_full++;
        return false;
    }
    // a hold of a slot dropped
    void unhold(uint8_t src, uint8_t slot, uint8_t h)
    {
        PayBuf &b = pb[src];
        b.hold[slot] &= (uint8_t)~h;
        if (!b.hold[slot]) b.owner[slot] = -1;
    }
    void snapshot(uint32_t *s) const
    {
        const Vtg_req_tx &t = *m;
        for (unsigned w = 0; w < 8; w++) {
            s[2 * w] = (uint32_t)out_word(w);
            s[2 * w + 1] = (uint32_t)(out_word(w) >> 32);
        }
        s[16] = t.m_txd_op | (t.m_txd_flags << 8) | (t.m_txd_len << 16) | (t.m_txd_ctx << 24);
        s[17] = t.m_txd_dst | (t.m_txd_tag << 16);
        s[18] = t.m_txd_addr;
        s[19] = (uint32_t)tg_frame_mask(t.m_txd_off, t.m_txd_cnt);
        s[20] = (uint32_t)(tg_frame_mask(t.m_txd_off, t.m_txd_cnt) >> 32);
        s[21] = t.m_txd_pay_src | (t.m_txd_pay_slot << 8);
        s[22] = (uint32_t)t.m_txd_key;
        s[23] = (uint32_t)(t.m_txd_key >> 32);
        for (unsigned w = 24; w < 32; w++) s[w] = 0;
    }

    // ------------------------------------------------------------ the targets
    // A REQ arrives at its destination (in the order sent) and is handled
    // as tg_rx_engine does: no such queue; else a retry reopens the queue
    // for this source; a closed or full queue refuses (and is closed); a
    // bad queue is reported; else the entry is taken. The answer follows
    // after a delay, in order per node.
    void arrive(Req &r)
    {
        Node &n = nodes[r.d.dst];
        if (n.dead) return;
        bool retry = (m->m_txd_flags & TG_FLAG_RETRY) != 0;
        uint8_t st;
        if (r.cls == C_NO_QUEUE) {
            st = TG_ST_NO_QUEUE;
        } else {
            Queue &q = queue(r.q());
            if (retry) q.blocked = false;
            auto forced = refuse_full.find(r.d.id);
            bool full = forced != refuse_full.end() ? r.arrivals_refused_full < forced->second
                                                    : rng.chance(full_chance(q));
            if (q.blocked) {
                st = TG_ST_NOT_READY;
                n_refused_blocked++;
            } else if (full) {
                st = TG_ST_NOT_READY;
                q.blocked = true;
                r.arrivals_refused_full++;
            } else if (r.cls == C_MALFORMED) {
                st = TG_ST_MALFORMED;
            } else {
                st = TG_ST_OK;
                PROP(P_DUP, !r.accepted, "cycle %llu: queue %04x/%08x accepted REQ #%llu a second time",
                     (unsigned long long)cyc, r.d.dst, r.d.addr, (unsigned long long)r.d.id);
                if (!r.accepted) {
                    uint64_t want = q.next_acc < q.good.size() ? q.good[q.next_acc] : ~0ull;
                    PROP(P_ORDER, r.d.id == want, "cycle %llu: queue %04x/%08x accepted REQ #%llu while REQ #%llu, "
                         "issued before it, was not yet accepted", (unsigned long long)cyc, r.d.dst, r.d.addr,
                         (unsigned long long)r.d.id, (unsigned long long)want);
                    r.accepted = true;
                    q.acc.push_back(r.d.id);
                    while (q.next_acc < q.good.size() && all[q.good[q.next_acc]].accepted) q.next_acc++;
                    n_reaccepted += r.sends > 1;
                }
            }
        }
        auto fd = delay_of.find(r.d.id);
        uint64_t delay = fd != delay_of.end() ? fd->second : dmin + (dmax > dmin ? rng.below(dmax - dmin + 1) : 0);
        uint64_t due = std::max(cyc + delay, n.last_due + 1);
        n.last_due = due;
        n.fifo.push_back(Resp{due, r.d.id, m->m_txd_tag, st});
    }

    // A response that matches no REQ in flight.
    void stray(uint16_t &src, uint16_t &tag)
    {
        unsigned s = rng.below(16);
        int owner = slot_owner[s];
        bool sent = owner >= 0 && all[owner].st == SENT;
        src = LIVE_NODES[rng.below(4)];
        switch (rng.below(4)) {
        case 0: tag = (uint16_t)(rng.next() & ~TG_TAG_REQ); if (sent) src = all[owner].d.dst; break;   // not a REQ's
        case 1:   // bits 13:12 are never set on a REQ's tag (11:4 carry the slot's generation)
            tag = (uint16_t)(TG_TAG_REQ | ((1 + rng.below(3)) << 12) | (rng.below(256) << 4) | s);
            if (sent) src = all[owner].d.dst;
            break;
        case 2:   // no such slot (with 16 slots every slot number is one: a tag not a REQ's)
            tag = MAX_REQS < 16 ? (uint16_t)(TG_TAG_REQ | (MAX_REQS + rng.below(16 - MAX_REQS)))
                                : (uint16_t)(rng.next() & ~TG_TAG_REQ);
            break;
        default:
            tag = (uint16_t)(TG_TAG_REQ | (s < 16 ? slot_gen[s] << 4 : 0) | s);
            if (sent) src = (uint16_t)(all[owner].d.dst ^ (1u << rng.below(16)));   // another node
            break;
        }
    }

    // ------------------------------------------------------------ the model
    int free_slot() const
    {
        for (unsigned s = 0; s < MAX_REQS; s++)
            if (slot_owner[s] < 0) return (int)s;
        return -1;
    }
    // a REQ to this queue is refused or parked (or in this round, which
    // only holds such REQs): a new one to it is parked
    bool held(const QKey &k) const
    {
        for (unsigned s = 0; s < MAX_REQS; s++)
            if (slot_owner[s] >= 0 && all[slot_owner[s]].waiting() && all[slot_owner[s]].q() == k) return true;
        return false;
    }
    // the REQ to this queue awaiting an answer, or -1
    long long unanswered(const QKey &k) const
    {
        for (unsigned s = 0; s < MAX_REQS; s++)
            if (slot_owner[s] >= 0 && all[slot_owner[s]].st == SENT && all[slot_owner[s]].q() == k)
                return slot_owner[s];
        return -1;
    }
    // refused or parked REQs with none to their queue awaiting an answer,
    // oldest first
    std::vector<uint64_t> eligible() const
    {
        std::vector<uint64_t> v;
        for (unsigned s = 0; s < MAX_REQS; s++)
            if (slot_owner[s] >= 0 && all[slot_owner[s]].waiting() && unanswered(all[slot_owner[s]].q()) < 0)
                v.push_back((uint64_t)slot_owner[s]);
        std::sort(v.begin(), v.end(), [this](uint64_t a, uint64_t b) { return all[a].order < all[b].order; });
        return v;
    }
    unsigned waiting_count() const
    {
        unsigned n = 0;
        for (unsigned s = 0; s < MAX_REQS; s++) n += slot_owner[s] >= 0 && all[slot_owner[s]].waiting();
        return n;
    }
    void free_slot_of(Req &r)
    {
        if (r.slot >= 0 && slot_owner[r.slot] == (int)r.d.id) {
            slot_owner[r.slot] = -1;
            slot_gen[r.slot]++;
        }
    }
    void start_round(const std::vector<uint64_t> &elig)
    {
        round_list.assign(elig.begin(), elig.end());
        round_qs.clear();
        round_flagged = 0;
        n_rounds++;
        std::set<QKey> qs;
        std::set<uint16_t> dsts;
        for (uint64_t id : elig) {
            qs.insert(all[id].q());
            dsts.insert(all[id].d.dst);
        }
        n_multi_q_rounds += qs.size() > 1;
        n_multi_q_node_rounds += qs.size() > dsts.size();
        n_multi_dst_rounds += dsts.size() > 1;
        unsigned out = waiting_count() - (unsigned)elig.size();
        n_held_out += out;
        n_held_out_rounds += out > 0;
    }
    unsigned count(St st) const
    {
        unsigned n = 0;
        for (const Req &r : all) n += r.d.req && r.st == st;
        return n;
    }
    std::string what(bool valid, uint64_t oid) const
    {
        if (!valid) return "nothing";
        char b[96];
        if (oid >= all.size()) {
            std::snprintf(b, sizeof b, "an unknown descriptor");
        } else {
            const Req &r = all[oid];
            static const char *const sn[] = {"new", "parked", "sent", "refused", "finished"};
            if (r.d.req)
                std::snprintf(b, sizeof b, "REQ #%llu (%s, queue %04x/%08x)", (unsigned long long)oid, sn[r.st],
                              r.d.dst, r.d.addr);
            else
                std::snprintf(b, sizeof b, "request #%llu (op %u)", (unsigned long long)oid, r.d.op);
        }
        return b;
    }

    // ------------------------------------------------------------ clock
    void tick(bool rst = false)
    {
        Vtg_req_tx &t = *m;
        t.rst = rst;
        t.cfg_backoff = backoff;
        t.cfg_timeout = timeout;
        t.in_req_wire_held = pb[TG_PAY_REQ].wire_vec();
        t.in_spill_wire_held = pb[TG_PAY_SPILL].wire_vec();
        if (!showing && !rst) showing = !hq.empty() && !rng.chance(gap_pct) && claim(all[hq.front()]);
        t.s_txd_valid = showing && !rst;
        if (t.s_txd_valid) {
            drive_desc(all[hq.front()].d);
        } else {
            Desc j;
            j.op = rng.chance(50) ? TG_OP_REQ : (uint8_t)rng.next();
            j.dst = (uint16_t)rng.next(); j.addr = (uint32_t)rng.next(); j.mask = tb_random_run(rng);
            j.len = (uint8_t)rng.next(); j.ctx = (uint8_t)rng.next(); j.tag = (uint16_t)rng.next();
            j.id = rng.next(); j.src = (uint8_t)rng.below(4); j.pslot = (uint8_t)rng.below(PAY_SLOTS);
            drive_desc(j);
        }
        // an answer that is due, or a stray, or nothing
        Resp resp{0, ~0ull, 0, 0};
        bool is_stray = false;
        t.s_qresp_valid = 0;
        t.s_qresp_src = (uint16_t)rng.next();
        t.s_qresp_tag = (uint16_t)rng.next();
        t.s_qresp_status = (uint8_t)rng.next();
        if (!rst) {
            std::vector<uint16_t> due;
            for (auto &kv : nodes)
                if (!kv.second.fifo.empty() && kv.second.fifo.front().due <= cyc) due.push_back(kv.first);
            if (!due.empty() && !rng.chance(resp_gap_pct)) {
                Node &n = nodes[due[rng.below((unsigned)due.size())]];
                resp = n.fifo.front();
                n.fifo.pop_front();
                t.s_qresp_valid = 1;
                t.s_qresp_src = all[resp.id].d.dst;
                t.s_qresp_tag = resp.tag;
                t.s_qresp_status = resp.status;
            } else if (rng.chance(stray_pct)) {
                uint16_t src, tag;
                stray(src, tag);
                is_stray = true;
                t.s_qresp_valid = 1;
                t.s_qresp_src = src;
                t.s_qresp_tag = tag;
                t.s_qresp_status = (uint8_t)rng.next();
                n_strays++;
            }
        }
        t.m_txd_ready = 1;
        t.clk = 0;
        t.eval();
        // the transmitter: stalls at random, or as a directed test asks
        // (the offer does not depend on ready, so look at it first)
        if (!rst && t.m_txd_valid && !prev_stalled) {
            uint64_t id = out_id();
            auto f = stall_on_offer.find(id);
            if (f != stall_on_offer.end() && id < all.size() && all[id].st == HOST) {
                ready_low_until = std::max(ready_low_until, cyc + f->second);
                stall_on_offer.erase(f);
            }
        }
        t.m_txd_ready = cyc < ready_low_until ? 0 : !rng.chance(stall_pct);
        t.eval();
        if (!rst) check(resp, is_stray);
        t.clk = 1;
        t.eval();
        if (rst) done_v = false;   // reset clears the report register
        cyc++;
    }

    void check(const Resp &resp, bool is_stray)
    {
        Vtg_req_tx &t = *m;
        unsigned long long c = cyc;
        // --- the model's state at the start of this cycle
        const int fs = free_slot();
        const std::vector<uint64_t> elig = eligible();
        const bool phase0 = round_list.empty();
        const bool locked = prev_stalled;
        const bool host = t.s_txd_valid;
        const long long in_id = host ? (long long)hq.front() : -1;
        const bool h_req = host && all[hq.front()].d.req;
        const bool h_held = h_req && held(all[hq.front()].q());
        const unsigned waiting = waiting_count();
        n_held_cycles += waiting > elig.size();
        bool resynced = false;
        // the next resend waits while the last send of its payload slot
        // still has the wire hold
        bool rs_wait = false;
        if (!phase0 && !locked) {
            const Req &f = all[round_list.front()];
            rs_wait = f.d.src != TG_PAY_NONE && !f.owns_wire && (pb[f.d.src].hold[f.d.pslot] & TG_PAY_HOLD_WIRE);
        }
        n_wire_waits += rs_wait;

        // --- the output holds still while stalled
        uint32_t snap[32];
        snapshot(snap);
        if (locked)
            PROP(P_STABLE, t.m_txd_valid && std::memcmp(snap, prev_snap, sizeof snap) == 0,
                 "cycle %llu: descriptor changed or withdrawn while stalled", c);
        bool offer_start = t.m_txd_valid && !locked;
        bool out_fire = t.m_txd_valid && t.m_txd_ready;
        bool in_fire = t.s_txd_valid && t.s_txd_ready;
        uint64_t oid = out_id();
        bool known = t.m_txd_valid && oid < all.size();
        if (t.m_txd_valid)
            PROP(P_UNKNOWN, known, "cycle %llu: descriptor with key %016llx was never sent by the host", c,
                 (unsigned long long)oid);
        Req *o = known ? &all[oid] : nullptr;
        bool resend = o && o->d.req && o->waiting();
        if (rs_wait && t.m_txd_valid && resend) {
            PROP(P_WIRE_WAIT, false, "cycle %llu: REQ #%llu resent while its payload slot %u/%u still has the wire "
                 "hold of its last send", c, (unsigned long long)oid, o->d.src, o->d.pslot);
            rs_wait = false;   // follow the RTL
        }
        n_wire_passed += rs_wait && t.m_txd_valid && t.m_txd_ready && o && !resend;

        // --- what the model offers, and whether it takes the host's request
        long long exp = -1;
        bool exp_rs = false;
        if (locked) {
            exp = (long long)prev_oid;
            exp_rs = prev_resend;
        } else if (!phase0 && !rs_wait) {
            exp = (long long)round_list.front();
            exp_rs = true;
        } else if (host && (!h_req || (fs >= 0 && !h_held))) {
            exp = in_id;
        }
        bool exp_ready = exp_rs ? false : exp >= 0 ? (bool)t.m_txd_ready : (h_req && fs >= 0 && h_held);
        if (!locked) {
            if (exp_rs) {
                if (t.m_txd_valid && resend) {
                    bool member = std::find(round_list.begin(), round_list.end(), oid) != round_list.end();
                    PROP(P_ROUND_ORDER, (long long)oid == exp, "cycle %llu: resent REQ #%llu, REQ #%llu is next in "
                         "this round (%s)", c, (unsigned long long)oid, (unsigned long long)exp,
                         member ? "both in it" : "the one resent is not in it");
                } else {
                    PROP(P_ROUND_START, false, "cycle %llu: round of %zu resends due (REQ #%llu first), %s offered", c,
                         round_list.size(), (unsigned long long)exp, what(t.m_txd_valid, oid).c_str());
                    round_list.clear();   // follow the RTL
                }
            } else if (t.m_txd_valid && resend) {
                long long busy = unanswered(o->q());
                bool el = std::find(elig.begin(), elig.end(), oid) != elig.end();
                char why[160];
                if (!phase0)
                    std::snprintf(why, sizeof why, "a stalled offer goes first");
                else if (!el && busy >= 0)
                    std::snprintf(why, sizeof why, "REQ #%lld to its queue awaits an answer", busy);
                else
                    std::snprintf(why, sizeof why, "%zu eligible, backoff waited %u of %u, previous offer %s",
                                  elig.size(), wait_m, backoff, locked ? "stalled" : "not stalled");
                PROP(P_ROUND_START, false, "cycle %llu: REQ #%llu (queue %04x/%08x) resent with no round due: %s", c,
                     (unsigned long long)oid, o->d.dst, o->d.addr, why);
                // follow the RTL: it began a round of what was eligible
                std::vector<uint64_t> v = elig;
                if (!el) v.insert(v.begin(), oid);
                start_round(v);
                resynced = true;
            } else if (exp >= 0) {
                PROP(h_req ? P_NEW_FREE : P_PASS, t.m_txd_valid && (long long)oid == exp,
                     "cycle %llu: the host's %s%s should go out (free slot %d, its queue %s), %s offered", c,
                     what(true, (uint64_t)exp).c_str(), h_req ? "" : " (pass-through)", fs,
                     h_held ? "recovering" : "has nothing refused", what(t.m_txd_valid, oid).c_str());
            } else if (t.m_txd_valid) {
                Prop k = !host ? P_UNKNOWN : h_held ? P_NEW_HELD : P_SLOTS_FULL;
                PROP(k, false, "cycle %llu: %s offered; the host offers %s (%s)", c, what(true, oid).c_str(),
                     what(host, (uint64_t)in_id).c_str(),
                     !host ? "nothing" : h_held ? "its queue has refused REQs" : "no free slot");
            }
        }
        if (host) {
            Prop k = !h_req ? P_PASS : fs < 0 && !locked ? P_SLOTS_FULL : P_PARK;
            PROP(k, (bool)t.s_txd_ready == exp_ready, "cycle %llu: host's %s: ready %u, want %u (free slot %d, its "
                 "queue %s, output %s)", c, what(true, (uint64_t)in_id).c_str(), t.s_txd_ready, exp_ready, fs,
                 h_held ? "recovering" : "not recovering", locked ? "stalled" : !phase0 ? "in a round" : "free");
        }
        if (h_req && fs < 0) n_stall_full++;

        // --- what is offered
        if (offer_start && o) {
            const Desc &d = o->d;
            bool same = t.m_txd_op == d.op && t.m_txd_dst == d.dst && t.m_txd_addr == d.addr &&
                        tg_frame_mask(t.m_txd_off, t.m_txd_cnt) == d.mask && t.m_txd_len == d.len && t.m_txd_ctx == d.ctx;
            for (unsigned k = 0; k < 8; k++) same &= out_word(k) == d.w[k];
            PROP(P_FIELDS, same && (d.req || t.m_txd_tag == d.tag),
                 "cycle %llu: descriptor #%llu (op %u) differs from what the host sent", c,
                 (unsigned long long)d.id, d.op);
            // its payload is the slot it was written to, still held for it
            bool own = t.m_txd_pay_src == d.src &&
                       (d.src == TG_PAY_NONE || (t.m_txd_pay_slot == d.pslot && pb[d.src].hold[d.pslot] &&
                                                 pb[d.src].owner[d.pslot] == (int64_t)d.id));
            PROP(P_FIELDS, own, "cycle %llu: descriptor #%llu names payload %u/%u, its payload is in %u/%u (holds %u "
                 "for #%lld)", c, (unsigned long long)d.id, t.m_txd_pay_src, t.m_txd_pay_slot, d.src, d.pslot,
                 d.src ? pb[d.src].hold[d.pslot] : 0, d.src ? (long long)pb[d.src].owner[d.pslot] : -1LL);
            if (!d.req) {
                PROP(P_FIELDS, t.m_txd_flags == 0, "cycle %llu: flags %02x on a pass-through", c, t.m_txd_flags);
            } else {
                unsigned slot = t.m_txd_tag & 15;
                PROP(P_TAG, (t.m_txd_tag & 0xF000u) == TG_TAG_REQ && slot < MAX_REQS &&
                     ((t.m_txd_tag >> 4) & 0xFF) == slot_gen[slot],
                     "cycle %llu: REQ #%llu tag %04x (slot %u generation %u)", c, (unsigned long long)d.id,
                     t.m_txd_tag, slot, slot_gen[slot]);
                if (o->st == HOST)
                    PROP(P_SLOT, (int)slot == fs, "cycle %llu: REQ #%llu sent in slot %u, the first free one is %d", c,
                         (unsigned long long)d.id, slot, fs);
                else
                    PROP(P_SLOT, (int)slot == o->slot, "cycle %llu: REQ #%llu resent in slot %u, it holds %d", c,
                         (unsigned long long)d.id, slot, o->slot);
                PROP(P_RESEND_LIVE, o->st != SENT && o->st != DONE,
                     "cycle %llu: REQ #%llu offered again while %s", c, (unsigned long long)d.id,
                     o->st == SENT ? "awaiting its answer" : "finished");
                if (o->st == HOST) {
                    PROP(P_FIELDS, t.m_txd_flags == 0, "cycle %llu: flags %02x on a first send", c, t.m_txd_flags);
                } else if (resend) {
                    // the first resend to a queue in a round reopens it; one
                    // after a resend to it that is not finished for good must
                    // not (it would overtake that one if it was refused
                    // again). Once every earlier one is finished (their slots
                    // may be taken by new REQs, which a resend can let out
                    // while it waits for its wire hold) the queue is open at
                    // the target and the flag is harmless either way.
                    auto f = round_qs.find(o->q());
                    bool first = f == round_qs.end(), open = !first;
                    if (!first)
                        for (uint64_t id : f->second) open &= all[id].st == DONE;
                    bool flag = t.m_txd_flags == TG_FLAG_RETRY;
                    PROP(P_RETRY_FLAG, (flag || t.m_txd_flags == 0) && (open || flag == first),
                         "cycle %llu: resend of REQ #%llu to queue %04x/%08x has flags %02x; it is %sthe first resend "
                         "to that queue in this round", c, (unsigned long long)d.id, d.dst, d.addr, t.m_txd_flags,
                         first ? "" : open ? "not (the ones before it are finished) " : "not ");
                    n_flags_reopened += open && flag;
                }
            }
        }

        // --- the host's request taken
        if (in_fire) {
            Req &r = all[hq.front()];
            hq.pop_front();
            showing = false;
            bool through = out_fire && oid == r.d.id;
            if (!r.d.req) {
                PROP(P_PASS, through, "cycle %llu: #%llu taken but not passed on in the same cycle", c,
                     (unsigned long long)r.d.id);
            } else {
                r.order = next_order++;
                if (r.cls == C_GOOD && !r.dead) queue(r.q()).good.push_back(r.d.id);
                if (!through) {
                    PROP(P_PARK, h_held && fs >= 0 && !t.m_txd_valid, "cycle %llu: REQ #%llu kept back (its queue "
                         "%s, free slot %d, output %s)", c, (unsigned long long)r.d.id,
                         h_held ? "recovering" : "has nothing refused", fs, t.m_txd_valid ? "busy" : "free");
                    r.st = PARKED;
                    r.was_parked = true;
                    r.park_cyc = cyc;
                    n_parked++;
                    if (fs >= 0) {
                        r.slot = fs;
                        slot_owner[fs] = (int)r.d.id;
                    }
                }
            }
        }

        // --- the transmitter took the offer
        if (out_fire && o) {
            if (!o->d.req) {
                n_pass++;
            } else {
                unsigned slot = t.m_txd_tag & 15;
                if (o->st == HOST) {
                    n_direct++;
                    bool node = false, other = false;
                    for (unsigned s = 0; s < MAX_REQS; s++) {
                        int w = slot_owner[s];
                        if (w >= 0 && all[w].waiting() && all[w].q() != o->q())
                            (all[w].d.dst == o->d.dst ? node : other) = true;
                    }
                    n_direct_beside_node += node;
                    n_direct_beside_other += other;
                    if (o->slot < 0 && slot < 16 && slot_owner[slot] < 0) {
                        o->slot = (int)slot;
                        slot_owner[slot] = (int)o->d.id;
                    }
                } else if (resend) {
                    n_resends++;
                    if (!o->first_resend_cyc) o->first_resend_cyc = cyc;
                    auto f = std::find(round_list.begin(), round_list.end(), oid);
                    if (f != round_list.end()) round_list.erase(f);
                    round_qs[o->q()].push_back(oid);
                    if (t.m_txd_flags & TG_FLAG_RETRY) {
                        n_retry_flags++;
                        round_flagged++;
                    }
                    if (round_list.empty()) n_multi_flag_rounds += round_flagged > 1;
                }
                if (o->st != SENT && o->st != DONE) {
                    o->st = SENT;
                    o->send_cyc = cyc;
                    o->send_tmo = timeout;
                    o->sends++;
                    arrive(*o);
                    if (resend) {
                        auto f = stall_after_resend.find(o->d.id);
                        if (f != stall_after_resend.end()) {
                            ready_low_until = std::max(ready_low_until, cyc + 1 + f->second);
                            stall_after_resend.erase(f);
                        }
                    }
                }
            }
        }
        // --- payload slots: the wire holds a frame's slot from the cycle it
        // is taken until it is out; a send of a REQ that no longer has its
        // writer's wire hold adds it again (after the last send dropped it)
        const bool exp_hold = out_fire && o && o->d.req && o->d.src != TG_PAY_NONE && !o->owns_wire;
        PROP(P_PAY_HOLD, t.m_pay_hold_valid == exp_hold &&
             (!exp_hold || (t.m_pay_hold_src == o->d.src && t.m_pay_hold_slot == o->d.pslot)),
             "cycle %llu: wire hold added %u (slot %u/%u); want %s (%s, slot %u/%u)", c, t.m_pay_hold_valid,
             t.m_pay_hold_src, t.m_pay_hold_slot, exp_hold ? "one" : "none", what(out_fire, oid).c_str(),
             o ? o->d.src : 0, o ? o->d.pslot : 0);
        if (out_fire && o && o->d.src != TG_PAY_NONE) {
            uint8_t &h = pb[o->d.src].hold[o->d.pslot];
            if (exp_hold) {
                PROP(P_WIRE_WAIT, !(h & TG_PAY_HOLD_WIRE), "cycle %llu: REQ #%llu resent while its slot %u/%u has "
                     "the wire hold of its last send", c, (unsigned long long)oid, o->d.src, o->d.pslot);
                h |= TG_PAY_HOLD_WIRE;
                n_pay_holds++;
            }
            o->owns_wire = false;
            auto f = wire_delay_of.find(oid);
            unsigned delay = f != wire_delay_of.end() ? f->second
                           : 1 + rng.below(rng.chance(wire_long_pct) ? WIRE_LONG : wire_max);
            if (f != wire_delay_of.end()) wire_delay_of.erase(f);
            wire_rel.push_back(WireRel{cyc + delay, o->d.src, o->d.pslot});
        }
        PROP(P_EVENTS, t.ev_req_retry == (out_fire && resend), "cycle %llu: ev_req_retry %u, resend taken %u", c,
             t.ev_req_retry, out_fire && resend);
        n_stalled += t.m_txd_valid && !t.m_txd_ready;

        // --- answers and failure reports
        bool matched = resp.id != ~0ull && all[resp.id].st == SENT;
        PROP(P_EVENTS, t.ev_req_stray == (t.s_qresp_valid && !matched), "cycle %llu: ev_req_stray %u for %s", c,
             t.ev_req_stray, is_stray ? "a stray" : matched ? "a matching answer" : resp.id != ~0ull ?
             "a late answer to a REQ given up" : "no answer");
        bool err_exp = false;
        uint8_t err_st = 0;
        Prop err_kind = P_ERR_EXTRA;
        Req *gone = nullptr;
        if (matched) {
            Req &r = all[resp.id];
            if (resp.status == TG_ST_NOT_READY) {
                r.st = REFUSED;
                r.refuse_cyc = cyc;
                n_refused++;
            } else {
                r.st = DONE;
                r.final_st = resp.status;
                free_slot_of(r);
                if (resp.status == TG_ST_OK) {
                    n_accepted++;
                } else {
                    err_exp = true;
                    err_st = resp.status;
                    err_kind = P_ERR;
                    if (resp.status == TG_ST_NO_QUEUE) n_noq++;
                    else n_malformed++;
                }
            }
        } else if (!t.s_qresp_valid) {
            // no answer this cycle: the lowest slot whose REQ waited too
            // long (by the timeout when it was sent) is given up
            for (unsigned s = 0; s < MAX_REQS && !gone; s++) {
                int w = slot_owner[s];
                if (w >= 0 && all[w].st == SENT && all[w].send_tmo && cyc - all[w].send_cyc > all[w].send_tmo)
                    gone = &all[w];
            }
            if (gone) {
                err_exp = true;
                err_st = TG_ST_PEER_GONE;
                err_kind = P_TIMEOUT;
            }
        }
        // every REQ finished for good is reported once, a cycle later (from
        // registers), with its context, the tag it came in with, and its
        // outcome
        PROP(done_kind, t.m_done_valid == done_v &&
                 (!done_v || (t.m_done_ctx == done_ctx && t.m_done_tag == done_tag && t.m_done_status == done_st)),
             "cycle %llu: end report valid %u ctx %u tag %04x status %u; want %s ctx %u tag %04x status %u%s", c,
             t.m_done_valid, t.m_done_ctx, t.m_done_tag, t.m_done_status, done_v ? "one," : "none", done_ctx,
             done_tag, done_st, done_tmo ? " (a timeout)" : "");
        const Req *end = gone ? gone : matched && resp.status != TG_ST_NOT_READY ? &all[resp.id] : nullptr;
        done_v = end != nullptr;
        done_ctx = end ? end->d.ctx & 15 : 0;
        done_tag = end ? end->d.tag : 0;
        done_st = err_exp ? err_st : (uint8_t)TG_ST_OK;
        done_kind = err_kind;
        done_tmo = gone != nullptr;
        if (gone) {
            PROP(P_ERR_EXTRA, gone->dead, "cycle %llu: REQ #%llu to a live node timed out", c,
                 (unsigned long long)gone->d.id);
            gone->st = DONE;
            gone->final_st = TG_ST_PEER_GONE;
            free_slot_of(*gone);
            n_timeouts++;
        }
        // the REQ hold goes once the REQ is answered for good or given up
        const Req *fin = gone ? gone : matched && resp.status != TG_ST_NOT_READY ? &all[resp.id] : nullptr;
        const bool exp_rel = fin && fin->d.src != TG_PAY_NONE;
        PROP(P_PAY_REL, t.m_pay_rel_valid == exp_rel &&
             (!exp_rel || (t.m_pay_rel_src == fin->d.src && t.m_pay_rel_slot == fin->d.pslot)),
             "cycle %llu: REQ hold released %u (slot %u/%u); want %s%llu (slot %u/%u)", c, t.m_pay_rel_valid,
             t.m_pay_rel_src, t.m_pay_rel_slot, exp_rel ? "that of REQ #" : "none, REQ finished #",
             fin ? (unsigned long long)fin->d.id : ~0ull, fin ? fin->d.src : 0, fin ? fin->d.pslot : 0);
        if (exp_rel) {
            const PayBuf &b = pb[fin->d.src];
            PROP(P_PAY_REL, (b.hold[fin->d.pslot] & TG_PAY_HOLD_REQ) && b.owner[fin->d.pslot] == (int64_t)fin->d.id,
                 "cycle %llu: REQ #%llu finished, its slot %u/%u has no REQ hold of its own", c,
                 (unsigned long long)fin->d.id, fin->d.src, fin->d.pslot);
            unhold(fin->d.src, fin->d.pslot, TG_PAY_HOLD_REQ);
            n_pay_rels++;
        }
        // the path to the wire is done with frames' slots
        for (size_t i = 0; i < wire_rel.size();) {
            if (wire_rel[i].due <= cyc) {
                unhold(wire_rel[i].src, wire_rel[i].slot, TG_PAY_HOLD_WIRE);
                wire_rel[i] = wire_rel.back();
                wire_rel.pop_back();
            } else {
                i++;
            }
        }

        // --- the next round: it begins with what is eligible once the
        // backoff has passed (a stalled offer holds the backoff count)
        if (resynced) {
            wait_m = 0;
        } else if (phase0 && !elig.empty()) {
            if (locked && !prev_resend) {
                n_backoff_restarts++;
            } else if (wait_m >= backoff) {
                start_round(elig);
                wait_m = 0;
            } else {
                wait_m++;
            }
        } else {
            wait_m = 0;
        }

        if (trace && (t.m_txd_valid || t.s_qresp_valid || in_fire || t.m_done_valid))
            std::fprintf(stderr, "%llu: out %u/%u #%llu op %u flags %u dst %04x addr %08x tag %04x | in %u/%u #%lld | "
                         "resp %u #%lld st %u src %04x tag %04x%s | err %u ctx %u st %u | waiting %u eligible %zu "
                         "round %zu wait %u\n",
                         c, t.m_txd_valid, t.m_txd_ready, (unsigned long long)oid, t.m_txd_op, t.m_txd_flags,
                         t.m_txd_dst, t.m_txd_addr, t.m_txd_tag, t.s_txd_valid, t.s_txd_ready, in_id,
                         t.s_qresp_valid, resp.id == ~0ull ? -1LL : (long long)resp.id, t.s_qresp_status,
                         t.s_qresp_src, t.s_qresp_tag, is_stray ? " stray" : "", t.m_done_valid, t.m_done_ctx,
                         t.m_done_status, waiting, elig.size(), round_list.size(), wait_m);
        prev_stalled = t.m_txd_valid && !t.m_txd_ready;
        prev_resend = t.m_txd_valid && resend;
        prev_oid = oid;
        std::memcpy(prev_snap, snap, sizeof snap);
    }

    bool busy() const
    {
        if (!hq.empty()) return true;
        for (unsigned s = 0; s < MAX_REQS; s++)
            if (slot_owner[s] >= 0) return true;
        return false;
    }

    // Run until every request went out and every REQ finished, then check
    // what each queue accepted.
    void run(const char *what, uint64_t limit = 400000)
    {
        uint64_t end = cyc + limit;
        while (busy() && cyc < end) tick();
        for (int i = 0; i < 10; i++) tick();
        for (uint64_t e = cyc + WIRE_LONG + 10; !wire_rel.empty() && cyc < e;) tick();
        unsigned left = 0;
        for (const Req &r : all) left += r.d.req && r.st != DONE;
        PROP(P_END, !busy() && left == 0, "%s: stuck with %zu requests from the host and %u REQs unfinished (%u "
             "sent, %u refused, %u parked)", what, hq.size(), left, count(SENT), count(REFUSED), count(PARKED));
        // every slot free again once everything finished: each REQ hold
        // was released
        for (unsigned b = TG_PAY_REQ; b <= TG_PAY_SPILL; b++) {
            unsigned s = 0;
            while (s < PAY_SLOTS && !pb[b].hold[s]) s++;
            PROP(P_LEAK, busy() || left || s == PAY_SLOTS, "%s: %u slots of payload buffer %u still held, slot %u "
                 "(holds %u) by #%lld", what, pb[b].held(), b, s, s < PAY_SLOTS ? pb[b].hold[s] : 0,
                 s < PAY_SLOTS ? (long long)pb[b].owner[s] : -1LL);
        }
        for (auto &kv : queues) {
            const Queue &q = kv.second;
            PROP(P_END, q.acc == q.good, "%s: queue %04x/%08x accepted %zu REQs, the host sent it %zu it should "
                 "accept", what, kv.first.first, kv.first.second, q.acc.size(), q.good.size());
        }
        for (const Req &r : all) {
            if (!r.d.req || r.st != DONE || r.final_st == -2) continue;
            int want = r.dead ? TG_ST_PEER_GONE : r.cls == C_NO_QUEUE ? TG_ST_NO_QUEUE
                                                  : r.cls == C_MALFORMED ? TG_ST_MALFORMED : TG_ST_OK;
            PROP(P_END, r.final_st == want, "%s: REQ #%llu to queue %04x/%08x ended %d, want %d", what,
                 (unsigned long long)r.d.id, r.d.dst, r.d.addr, r.final_st, want);
        }
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        for (Req &r : all)
            if (r.d.req && r.st != DONE) r.st = DONE, r.final_st = -2;   // dropped by the reset
        hq.clear();
        showing = false;
        for (auto &kv : nodes) {
            Node keep;
            keep.dead = kv.second.dead;
            kv.second = keep;
        }
        for (auto &kv : queues) {
            Queue keep;
            keep.cls = kv.second.cls;
            kv.second = keep;
        }
        for (int &s : slot_owner) s = -1;
        for (uint8_t &g : slot_gen) g = 0;
        for (PayBuf &b : pb) b = PayBuf();   // the buffers are reset too
        wire_rel.clear();
        wire_delay_of.clear();
        round_list.clear();
        round_qs.clear();
        round_flagged = 0;
        wait_m = 0;
        prev_stalled = prev_resend = false;
        ready_low_until = 0;
    }
};

enum Cov {
    V_DIRECT, V_PARKED, V_RESENDS, V_ROUNDS, V_FLAGS, V_PASS, V_STALL_FULL, V_STRAYS, V_TIMEOUTS, V_NOQ, V_MALFORMED,
    V_ACCEPTED, V_REFUSED, V_STALLED, V_MULTI_DST, V_BESIDE_NODE, V_BESIDE_OTHER, V_MULTI_Q, V_MULTI_Q_NODE,
    V_MULTI_FLAG, V_HELD_OUT, V_HELD_OUT_ROUNDS, V_HELD_CYCLES, V_REFUSED_BLOCKED, V_REACCEPTED, V_RESTARTS,
    V_WIRE_WAITS, V_WIRE_PASSED, V_PAY_HOLDS, V_PAY_RELS, V_PAY_FULL, V_FLAGS_REOPENED, NCOV
};
static uint64_t total[NCOV];

static void account(const Tb &tb)
{
    const uint64_t v[NCOV] = {tb.n_direct, tb.n_parked, tb.n_resends, tb.n_rounds, tb.n_retry_flags, tb.n_pass,
                              tb.n_stall_full, tb.n_strays, tb.n_timeouts, tb.n_noq, tb.n_malformed, tb.n_accepted,
                              tb.n_refused, tb.n_stalled, tb.n_multi_dst_rounds, tb.n_direct_beside_node,
                              tb.n_direct_beside_other, tb.n_multi_q_rounds, tb.n_multi_q_node_rounds,
                              tb.n_multi_flag_rounds, tb.n_held_out, tb.n_held_out_rounds, tb.n_held_cycles,
                              tb.n_refused_blocked, tb.n_reaccepted, tb.n_backoff_restarts, tb.n_wire_waits,
                              tb.n_wire_passed, tb.n_pay_holds, tb.n_pay_rels, tb.n_pay_full, tb.n_flags_reopened};
    for (unsigned i = 0; i < NCOV; i++) total[i] += v[i];
}

// ---------------------------------------------------------------- phases

// Other requests only: each passes through unchanged, in order.
static void pass_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) tb.other();
    tb.run("pass-through");
}

// REQs (most to a few busy queues, some often full, some never) and other
// requests, targets refusing at random.
static void random_phase(Tb &tb, unsigned n, bool with_dead)
{
    tb.pick_hot();
    for (unsigned i = 0; i < n; i++) {
        if (tb.rng.chance(70)) tb.random_req(with_dead);
        else tb.other();
        if (tb.rng.chance(2)) tb.run("random REQs");
    }
    tb.run("random REQs");
}

// Every slot busy with REQs a slow target holds: the next REQ waits, the
// other requests behind it too, until an answer frees a slot.
static void slots_phase(Tb &tb)
{
    unsigned saved_min = tb.dmin, saved_max = tb.dmax, saved_full = tb.full_pct;
    tb.dmin = tb.dmax = 300;
    tb.full_pct = 0;
    tb.run("before the slots test");
    for (unsigned i = 0; i < MAX_REQS + 3; i++) tb.req(LIVE_NODES[i % 4]);
    tb.other();
    for (int i = 0; i < 150; i++) tb.tick();
    TB_CHECK(tb.count(SENT) == MAX_REQS && tb.hq.size() == 4, "%u REQs out, %zu waiting, with every slot busy",
             tb.count(SENT), tb.hq.size());
    tb.dmin = saved_min;
    tb.dmax = saved_max;
    tb.full_pct = saved_full;
    tb.run("slots");
}

// ---------------------------------------------------------------- directed cases
// Each sets up one situation exactly, on a quiet transmitter and targets
// that answer after a fixed delay unless told otherwise.
static void quiet(Tb &tb, uint32_t timeout = 0)
{
    tb.gap_pct = tb.stall_pct = tb.full_pct = tb.stray_pct = tb.resp_gap_pct = 0;
    tb.dmin = tb.dmax = 1;
    tb.wire_max = 1;
    tb.wire_long_pct = 0;
    tb.backoff = 0;
    tb.timeout = timeout;
    tb.reset();
}

static uint64_t failures_now()
{
    uint64_t n = 0;
    for (uint64_t f : prop_fail) n += f;
    return n;
}

static std::string ids(const std::vector<uint64_t> &v)
{
    std::string s;
    for (uint64_t id : v) s += (s.empty() ? "#" : " #") + std::to_string(id);
    return s.empty() ? "none" : s;
}

// Two REQs to queue D around one to queue E, all refused. In the round,
// D's first resend is refused again before the second resend to D goes
// out: that one must not carry the retry flag (it would reopen D ahead of
// the first and be accepted before it).
static void case_refused_again(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE01u);
    quiet(tb);
    const QKey D(LIVE_NODES[0], 0x1000), E(LIVE_NODES[1], 0x1000);
    uint64_t r1 = tb.req(D), r2 = tb.req(E), r3 = tb.req(D);
    tb.refuse_full[r1] = 2;   // refused at its first send and at its first resend
    tb.refuse_full[r2] = 1;
    tb.run("refused again", 5000);
    const std::vector<uint64_t> want = {r1, r3};
    TB_CHECK(tb.queues[D].acc == want, "case %u: queue D accepted %s, want #%llu #%llu (the second resend to D in a "
             "round must not reopen D after the first was refused again)", no,
             ids(tb.queues[D].acc).c_str(), (unsigned long long)r1, (unsigned long long)r3);
}

// A new REQ to the queue is already offered, held by the transmitter, when
// the only REQ in flight to it is refused; the round must wait for the new
// one's answer (and the first resend must carry the retry flag).
static void case_offer_held(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE02u);
    quiet(tb);
    const QKey D(LIVE_NODES[2], 0x3000);
    uint64_t r1 = tb.req(D), n2 = tb.req(D);
    tb.refuse_full[r1] = 1;
    tb.stall_on_offer[n2] = 6;
    uint64_t f0 = failures_now();
    tb.run("offer held", 5000);
    const std::vector<uint64_t> want = {r1, n2};
    TB_CHECK(failures_now() == f0 && tb.queues[D].acc == want && tb.n_rounds == 1,
             "case %u: REQ #%llu refused while REQ #%llu, to its queue, was stalled on the output: accepted %s in %llu "
             "rounds", no, (unsigned long long)r1, (unsigned long long)n2, ids(tb.queues[D].acc).c_str(),
             (unsigned long long)tb.n_rounds);
}

// Two REQs to a node that never answers go out back to back; an answer
// from another node arrives in the cycle the first one's time is up. Each
// must be reported PEER_GONE.
static void case_two_timeouts(unsigned no)
{
    bench_no = no;
    const uint32_t T = 40;
    Tb tb(0xC0FFEE03u);
    quiet(tb, T);
    uint64_t d1 = tb.req(DEAD_NODE, 0, 5), d2 = tb.req(DEAD_NODE, 0, 6), l = tb.req(LIVE_NODES[0], 0, 1);
    tb.delay_of[l] = T - 1;   // answered in the cycle d1's time is up
    tb.run("two timeouts", 2000);
    TB_CHECK(tb.all[d1].final_st == TG_ST_PEER_GONE && tb.all[d2].final_st == TG_ST_PEER_GONE,
             "case %u: REQs #%llu (ctx 5) and #%llu (ctx 6) timed out; reported: ctx 5 %s, ctx 6 %s", no,
             (unsigned long long)d1, (unsigned long long)d2,
             tb.all[d1].final_st == TG_ST_PEER_GONE ? "yes" : "no", tb.all[d2].final_st == TG_ST_PEER_GONE ? "yes" : "no");
}

// The timeout is the one set when a REQ goes out. A REQ to a node that
// never answers is sent with a timeout of T; the timeout is then set to 0
// (never): it must still be given up T cycles after its send. A second
// one, sent while the timeout is 0, must outlive a timeout set after it.
static void case_timeout_at_send(unsigned no)
{
    bench_no = no;
    const uint32_t T = 60;
    Tb tb(0xC0FFEE0Bu);
    quiet(tb, T);
    uint64_t d1 = tb.req(DEAD_NODE, 0, 5);
    while (tb.all[d1].st != SENT && tb.cyc < 100) tb.tick();
    tb.timeout = 0;
    uint64_t d2 = tb.req(DEAD_NODE, 0, 6);
    while (tb.all[d2].st != SENT && tb.cyc < 200) tb.tick();
    tb.timeout = 20;
    for (int i = 0; i < 3 * (int)T; i++) tb.tick();
    const bool d1_gone = tb.all[d1].final_st == TG_ST_PEER_GONE, d2_out = tb.all[d2].st == SENT;
    TB_CHECK(d1_gone && d2_out, "case %u: REQ #%llu sent with timeout %u, then the timeout set to 0: %s; REQ #%llu "
             "sent with none, then a timeout of 20: %s", no, (unsigned long long)d1, T,
             d1_gone ? "given up" : "not given up", (unsigned long long)d2, d2_out ? "still out" : "given up");
    tb.reset();   // drops the REQ that never times out
}

// Two REQs to a queue of a slow node, sent 101 REQs apart, stay unanswered
// while 300 REQs to a fast node pass; both are refused. The round must
// resend the older first.
static void case_long_wait(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE04u);
    quiet(tb);
    const QKey S(LIVE_NODES[0], 0x5000);
    const uint16_t F = LIVE_NODES[1];
    uint64_t r = tb.req(S);
    for (int i = 0; i < 100; i++) tb.req(F);
    uint64_t n = tb.req(S);
    for (int i = 0; i < 200; i++) tb.req(F);
    tb.refuse_full[r] = 1;
    tb.delay_of[r] = tb.delay_of[n] = 3000;
    tb.run("long wait", 20000);
    const std::vector<uint64_t> want = {r, n};
    TB_CHECK(tb.queues[S].acc == want, "case %u: the slow queue accepted %s; the host sent #%llu before #%llu", no,
             ids(tb.queues[S].acc).c_str(), (unsigned long long)r, (unsigned long long)n);
}

// Queue Q1 of node D refuses; while it waits for its round, REQs to Q2 of
// the same node and to Q3 of another node go out at once, and a new one to
// Q1 is parked behind the refused ones.
static void case_others_flow(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE05u);
    quiet(tb);
    tb.backoff = 60;
    const QKey Q1(LIVE_NODES[0], 0x1000), Q2(LIVE_NODES[0], 0x2000), Q3(LIVE_NODES[3], 0x1000);
    uint64_t a1 = tb.req(Q1), a2 = tb.req(Q1);
    tb.refuse_full[a1] = 1;
    std::vector<uint64_t> others;
    for (int i = 0; i < 6; i++) others.push_back(tb.req(i & 1 ? Q3 : Q2));
    uint64_t a3 = tb.req(Q1);
    for (int i = 0; i < 6; i++) others.push_back(tb.req(i & 1 ? Q3 : Q2));
    tb.run("others flow", 5000);
    unsigned early = 0;
    for (uint64_t id : others)
        early += !tb.all[id].was_parked && tb.all[id].sends == 1 && tb.all[id].send_cyc < tb.all[a1].first_resend_cyc;
    const std::vector<uint64_t> want = {a1, a2, a3};
    // (with fewer than four slots, Q1's three REQs leave none for the others)
    TB_CHECK(tb.queues[Q1].acc == want && tb.all[a3].was_parked &&
             (MAX_REQS < 4 || (early == others.size() && tb.n_direct_beside_node > 0 &&
                               tb.n_direct_beside_other > 0)),
             "case %u: queue Q1 accepted %s (want #%llu #%llu #%llu), REQ #%llu %sparked; %u of %zu REQs to other "
             "queues went out directly before Q1's round (%llu beside a queue of their node, %llu of another)", no,
             ids(tb.queues[Q1].acc).c_str(), (unsigned long long)a1, (unsigned long long)a2, (unsigned long long)a3,
             (unsigned long long)a3, tb.all[a3].was_parked ? "" : "not ", early, others.size(),
             (unsigned long long)tb.n_direct_beside_node, (unsigned long long)tb.n_direct_beside_other);
}

// A and B to queue Q; A is refused while B's answer is slow; C and D to Q
// come after; X to another queue is refused too. X's round must leave A, C
// and D out while B is unanswered: resending A with the retry flag would
// reopen Q ahead of B (already refused at the target), and C or D would be
// accepted before B.
static void case_held_out(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE06u);
    quiet(tb);
    tb.backoff = 5;
    const QKey Q(LIVE_NODES[1], 0x1000), X(LIVE_NODES[2], 0x2000);
    uint64_t a = tb.req(Q), b = tb.req(Q), x = tb.req(X), c2 = tb.req(Q), d = tb.req(Q);
    tb.refuse_full[a] = 1;
    tb.refuse_full[x] = 1;
    tb.delay_of[a] = 2;
    tb.delay_of[b] = 40;
    tb.run("held out", 5000);
    const std::vector<uint64_t> want = {a, b, c2, d};
    TB_CHECK(tb.queues[Q].acc == want && tb.n_held_out > 0 && tb.all[x].first_resend_cyc < tb.all[a].first_resend_cyc,
             "case %u: queue Q accepted %s, want %s; %llu REQs held out of a round; X resent at %llu, A at %llu", no,
             ids(tb.queues[Q].acc).c_str(), ids(want).c_str(), (unsigned long long)tb.n_held_out,
             (unsigned long long)tb.all[x].first_resend_cyc, (unsigned long long)tb.all[a].first_resend_cyc);
}

// Three queues, two on one node, each refuses its first REQ and has a
// second one parked: one round holds all six, with the retry flag on the
// first resend to each queue only.
static void case_multi_queue_round(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE07u);
    quiet(tb);
    tb.backoff = 12;
    const QKey Q[3] = {QKey(LIVE_NODES[3], 0x1000), QKey(LIVE_NODES[3], 0x2000), QKey(LIVE_NODES[0], 0x1000)};
    uint64_t first[3], second[3];
    for (int i = 0; i < 3; i++) first[i] = tb.req(Q[i]);
    for (int i = 0; i < 3; i++) {
        tb.refuse_full[first[i]] = 1;
        second[i] = tb.req(Q[i]);
    }
    uint64_t f0 = failures_now();
    tb.run("multi-queue round", 5000);
    bool ok = failures_now() == f0 && tb.n_rounds == 1 && tb.n_retry_flags == 3 && tb.n_multi_flag_rounds == 1;
    for (int i = 0; i < 3; i++) ok &= tb.queues[Q[i]].acc == std::vector<uint64_t>{first[i], second[i]};
    TB_CHECK(ok, "case %u: %llu rounds, %llu resends with the retry flag (want 1 round, 3 flags); queues accepted %s / "
             "%s / %s", no, (unsigned long long)tb.n_rounds, (unsigned long long)tb.n_retry_flags,
             ids(tb.queues[Q[0]].acc).c_str(), ids(tb.queues[Q[1]].acc).c_str(), ids(tb.queues[Q[2]].acc).c_str());
}

// REQ A to queue Q is refused at once while its frame keeps its payload
// slot on the way to the wire for 80 cycles. The resend must wait until
// the wire hold is gone (and add it again when taken), while a request
// and a REQ to another queue go out meanwhile; a REQ parked behind A goes
// out after it on its writer's wire hold (adding none).
static void case_wire_wait(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE09u);
    quiet(tb);
    const QKey Q(LIVE_NODES[1], 0x4000), X(LIVE_NODES[3], 0x4000);
    uint64_t a = tb.req(Q);
    tb.refuse_full[a] = 1;
    tb.wire_delay_of[a] = 80;
    for (int i = 0; i < 20; i++) tb.tick();
    const uint64_t sent = tb.all[a].send_cyc;
    uint64_t b = tb.req(Q);
    tb.other();
    uint64_t x = tb.req(X);
    uint64_t f0 = failures_now();
    tb.run("wire wait", 5000);
    const Req &ra = tb.all[a];
    bool ok = failures_now() == f0 && tb.queues[Q].acc == std::vector<uint64_t>{a, b} && tb.all[b].was_parked &&
              ra.first_resend_cyc > sent + 80 && ra.first_resend_cyc > tb.all[x].send_cyc &&
              tb.n_wire_passed == 2 && tb.n_pay_holds == 1 && tb.n_wire_waits > 40;
    TB_CHECK(ok, "case %u: queue Q accepted %s; A sent at cycle %llu, resent at %llu (its slot's wire hold went at "
             "%llu), REQ #%llu to another queue sent at %llu; %llu requests went out while A waited %llu cycles; "
             "%llu wire holds added", no, ids(tb.queues[Q].acc).c_str(), (unsigned long long)sent,
             (unsigned long long)ra.first_resend_cyc, (unsigned long long)(sent + 80), (unsigned long long)x,
             (unsigned long long)tb.all[x].send_cyc, (unsigned long long)tb.n_wire_passed,
             (unsigned long long)tb.n_wire_waits, (unsigned long long)tb.n_pay_holds);
}

// Not a check: how long a refused queue waits for its round while REQs to
// another queue stream out on a transmitter that stalls now and then
// (every stalled new offer restarts the backoff).
static void case_backoff_under_traffic(unsigned no, unsigned stall)
{
    bench_no = no;
    Tb tb(0xC0FFEE08u + stall);
    quiet(tb);
    tb.backoff = 20;
    tb.stall_pct = stall;
    const QKey Q1(LIVE_NODES[0], 0x1000), Q2(LIVE_NODES[1], 0x1000);
    uint64_t s1 = tb.req(Q1);
    tb.refuse_full[s1] = 1;
    uint64_t last = 0;
    for (int i = 0; i < 400; i++) last = tb.req(Q2);
    tb.run("backoff under traffic", 50000);
    std::printf("case %u: transmitter stalling %u%%: a refused REQ waited %llu cycles for its round (backoff %u) "
                "while 400 REQs to another queue went out over %llu cycles\n", no, stall,
                (unsigned long long)(tb.all[s1].first_resend_cyc - tb.all[s1].refuse_cyc - 1), tb.backoff,
                (unsigned long long)tb.all[last].send_cyc);
    // the backoff holds while an offer is stalled, it does not start over:
    // the round comes long before the other queue's traffic is over
    uint64_t waited = tb.all[s1].first_resend_cyc - tb.all[s1].refuse_cyc - 1;
    TB_CHECK(waited < 4u * tb.backoff && tb.all[s1].first_resend_cyc < tb.all[last].send_cyc,
             "case %u: the refused REQ waited %llu cycles for its round", no, (unsigned long long)waited);
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    auto t0 = std::chrono::steady_clock::now();
    case_refused_again(101);
    case_offer_held(102);
    case_two_timeouts(103);
    case_long_wait(104);
    case_others_flow(105);
    case_held_out(106);
    case_multi_queue_round(107);
    case_backoff_under_traffic(108, 5);
    case_backoff_under_traffic(109, 30);
    case_wire_wait(110);
    case_timeout_at_send(111);
    // (wire: cycles the wire keeps a frame's slot, 1..wire, or in wlong
    // percent of frames up to Tb::WIRE_LONG)
    struct Cfg { unsigned gap, stall, full, dmin, dmax, stray, resp_gap; uint32_t backoff; unsigned wire, wlong; };
    const Cfg cfgs[] = {
        {0, 0, 20, 1, 4, 0, 0, 0, 12, 0},
        {20, 30, 25, 1, 30, 3, 20, 5, 40, 2},
        {0, 60, 40, 2, 12, 2, 10, 0, 20, 5},
        {50, 10, 10, 5, 60, 5, 40, 40, 1, 0},
        {10, 80, 30, 1, 3, 1, 0, 1, 8, 1},
        {0, 40, 60, 1, 20, 2, 30, 200, 60, 3},
        {0, 10, 35, 8, 40, 0, 10, 3, 30, 10},
        {5, 20, 50, 1, 8, 1, 5, 10, 16, 0},
    };
    uint64_t seed = 1, salt = getenv("TB_SEED") ? strtoull(getenv("TB_SEED"), nullptr, 0) : 0;
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed * 0x1F83D9ABu + salt);
            tb.trace = getenv("TB_TRACE") && (uint64_t)atoi(getenv("TB_TRACE")) == seed;
            bench_no = (unsigned)seed;
            seed++;
            tb.gap_pct = c.gap;
            tb.stall_pct = c.stall;
            tb.full_pct = c.full;
            tb.dmin = c.dmin;
            tb.dmax = c.dmax;
            tb.stray_pct = c.stray;
            tb.resp_gap_pct = c.resp_gap;
            tb.backoff = c.backoff;
            tb.wire_max = c.wire;
            tb.wire_long_pct = c.wlong;
            tb.timeout = rep ? 0 : 100000;
            tb.reset();
            pass_phase(tb, 200);
            random_phase(tb, 800, false);
            slots_phase(tb);
            // a node that never answers: its REQs time out, the rest go on
            tb.timeout = 300 + tb.rng.below(200);
            random_phase(tb, 400, true);
            tb.timeout = rep ? 0 : 100000;
            // reset in the middle of traffic, then traffic again
            for (int i = 0; i < 20; i++) tb.random_req();
            for (unsigned i = 0, n = 5 + tb.rng.below(100); i < n; i++) tb.tick();
            tb.reset();
            random_phase(tb, 300, false);
            account(tb);
        }
    }
    const uint64_t *v = total;
    std::printf("%llu REQs sent directly, %llu parked, %llu resends in %llu rounds (%llu over several nodes, %llu "
                "with the retry flag); %llu passed through; %llu cycles with every slot busy; %llu accepted (%llu "
                "after a resend), %llu refused (%llu because their queue was closed), %llu no queue, %llu malformed, "
                "%llu timed out; %llu strays; %llu stalled cycles\n",
                (unsigned long long)v[V_DIRECT], (unsigned long long)v[V_PARKED], (unsigned long long)v[V_RESENDS],
                (unsigned long long)v[V_ROUNDS], (unsigned long long)v[V_MULTI_DST], (unsigned long long)v[V_FLAGS],
                (unsigned long long)v[V_PASS], (unsigned long long)v[V_STALL_FULL], (unsigned long long)v[V_ACCEPTED],
                (unsigned long long)v[V_REACCEPTED], (unsigned long long)v[V_REFUSED],
                (unsigned long long)v[V_REFUSED_BLOCKED], (unsigned long long)v[V_NOQ],
                (unsigned long long)v[V_MALFORMED], (unsigned long long)v[V_TIMEOUTS], (unsigned long long)v[V_STRAYS],
                (unsigned long long)v[V_STALLED]);
    std::printf("per queue: %llu REQs sent directly while another queue of their node was recovering, %llu while one "
                "of another node was; %llu rounds over several queues (%llu with several of one node), %llu with the "
                "retry flag set for several queues; %llu refused REQs held out of %llu rounds because a REQ to their "
                "queue was unanswered (%llu cycles with such a REQ); %llu backoffs restarted by a stalled new offer\n",
                (unsigned long long)v[V_BESIDE_NODE], (unsigned long long)v[V_BESIDE_OTHER],
                (unsigned long long)v[V_MULTI_Q], (unsigned long long)v[V_MULTI_Q_NODE],
                (unsigned long long)v[V_MULTI_FLAG], (unsigned long long)v[V_HELD_OUT],
                (unsigned long long)v[V_HELD_OUT_ROUNDS], (unsigned long long)v[V_HELD_CYCLES],
                (unsigned long long)v[V_RESTARTS]);
    std::printf("payload slots: %llu wire holds added by resends, %llu REQ holds released; %llu cycles a resend "
                "waited for its slot's wire hold (%llu in which another request went out); %llu cycles a request "
                "waited for a free slot; %llu resends with the retry flag after the earlier ones to their queue in "
                "the round finished\n", (unsigned long long)v[V_PAY_HOLDS], (unsigned long long)v[V_PAY_RELS],
                (unsigned long long)v[V_WIRE_WAITS], (unsigned long long)v[V_WIRE_PASSED],
                (unsigned long long)v[V_PAY_FULL], (unsigned long long)v[V_FLAGS_REOPENED]);
    TB_CHECK(v[V_WIRE_WAITS] >= 1000 && v[V_WIRE_PASSED] >= 100 && v[V_PAY_HOLDS] >= 1000,
             "coverage: too few resends waiting for the wire hold (%llu cycles, %llu with another request going "
             "out) or resends adding it (%llu)", (unsigned long long)v[V_WIRE_WAITS],
             (unsigned long long)v[V_WIRE_PASSED], (unsigned long long)v[V_PAY_HOLDS]);
    TB_CHECK(v[V_BESIDE_NODE] >= 100 && v[V_BESIDE_OTHER] >= 100,
             "coverage: too few REQs sent directly beside a recovering queue (%llu of its node, %llu of another)",
             (unsigned long long)v[V_BESIDE_NODE], (unsigned long long)v[V_BESIDE_OTHER]);
    TB_CHECK(v[V_MULTI_Q] >= 100 && v[V_MULTI_Q_NODE] >= 20,
             "coverage: too few rounds over several queues (%llu, %llu with several of one node)",
             (unsigned long long)v[V_MULTI_Q], (unsigned long long)v[V_MULTI_Q_NODE]);
    TB_CHECK(v[V_MULTI_FLAG] >= 100, "coverage: too few rounds with the retry flag for several queues (%llu)",
             (unsigned long long)v[V_MULTI_FLAG]);
    TB_CHECK(v[V_HELD_OUT] >= 50, "coverage: too few refused REQs held out of a round by an unanswered one (%llu)",
             (unsigned long long)v[V_HELD_OUT]);
    TB_CHECK(v[V_REFUSED_BLOCKED] >= 100 && v[V_REACCEPTED] >= 100 && v[V_PARKED] >= 100,
             "coverage: too few refusals of closed queues (%llu), acceptances after a resend (%llu) or parked REQs "
             "(%llu)", (unsigned long long)v[V_REFUSED_BLOCKED], (unsigned long long)v[V_REACCEPTED],
             (unsigned long long)v[V_PARKED]);
    std::string failed;
    for (unsigned k = 0; k < NPROPS; k++)
        if (prop_fail[k]) failed += std::string(failed.empty() ? "" : ", ") + PROP_NAME[k] + " " + std::to_string(prop_fail[k]);
    if (!failed.empty()) std::printf("properties broken: %s\n", failed.c_str());
    for (unsigned k = 0; k < NPROPS; k++)
        TB_CHECK(prop_fail[k] <= PROP_SHOWN, "%s: %llu more failures not shown", PROP_NAME[k],
                 (unsigned long long)(prop_fail[k] - PROP_SHOWN));
    std::printf("run time %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return tb_finish("tg_req_tx");
}
