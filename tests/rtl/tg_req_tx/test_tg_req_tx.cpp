// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the REQ sender against model targets that answer REQs as a
// receiver does (OK, NOT_READY, NO_QUEUE, MALFORMED, or never): other
// requests pass through unchanged and in order, every REQ is accepted once
// and in order per destination, refused and parked REQs go out again in
// rounds after the backoff with the retry flag on the first resend to each
// destination, failures and timeouts are reported with their context, and
// the output holds still while stalled.
#include "Vtg_req_tx.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <vector>

static const unsigned MAX_REQS = 4;   // the module default (the bench is built with it)

// ---------------------------------------------------------------- property checks
// A broken property can repeat every few cycles; each kind reports its
// first few failures in full and the rest as one count at the end (all of
// them with TB_ALL set). TB_TRACE=n traces bench instance n cycle by cycle;
// TB_SEED varies the random instances.
enum Prop {
    P_STABLE, P_UNKNOWN, P_FIELDS, P_TAG, P_SLOT, P_PASS, P_NEW_WHILE_REFUSED, P_PARK, P_SLOTS_FULL,
    P_ROUND_BUSY, P_ROUND_BACKOFF, P_ROUND_ORDER, P_RETRY_FLAG, P_RESEND_LIVE, P_ORDER, P_DUP, P_ERR, P_ERR_EXTRA,
    P_TIMEOUT_LATE, P_EVENTS, P_END, NPROPS
};
static const char *const PROP_NAME[NPROPS] = {
    "stable output", "known descriptor", "descriptor fields", "REQ tag", "slot use", "pass-through",
    "no new REQ while refused ones wait", "parking", "stall when every slot is busy", "round after every answer",
    "round after the backoff", "resend order", "retry flag", "no resend of a live REQ", "acceptance order",
    "no duplicate", "failure report", "no spurious report", "timeout", "events", "every REQ finished",
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

struct Desc {
    uint64_t id = 0;
    bool req = false;
    uint8_t op = 0, len = 0, ctx = 0;
    uint16_t dst = 0, tag = 0;
    uint32_t addr = 0;
    uint64_t mask = 0;
    uint64_t w[8] = {};   // payload; word 0 is the id
};

struct Req {
    Desc d;
    St st = HOST;
    Cls cls = C_GOOD;
    bool dead = false;            // its destination never answers
    int slot = -1;
    uint64_t order = 0;           // place in the host's order of REQs
    uint64_t send_cyc = 0, park_cyc = 0;
    unsigned sends = 0, arrivals_refused_full = 0;
    bool accepted = false, late_flagged = false;
    int final_st = -1;
};

struct Resp {
    uint64_t due, id;
    uint16_t tag;
    uint8_t status;
};

// A target node, as its receiver treats this sender's REQs.
struct Node {
    bool dead = false;
    bool blocked = false;             // refused since the last retry
    std::deque<Resp> fifo;            // answers, in order
    uint64_t last_due = 0;
    std::vector<uint64_t> good;       // REQs it must accept, host order
    size_t next_acc = 0;
    std::vector<uint64_t> acc;        // REQs it accepted
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
    unsigned gap_pct = 0, stall_pct = 0, full_pct = 0, stray_pct = 0, resp_gap_pct = 0;
    unsigned dmin = 1, dmax = 1;
    uint32_t backoff = 0, timeout = 0;
    unsigned timeout_slack = 64;
    // directed knobs
    std::map<uint64_t, unsigned> refuse_full;          // id -> arrivals to refuse as full
    std::map<uint64_t, unsigned> stall_after_resend;   // id -> cycles of stall after it is resent
    std::map<uint64_t, unsigned> stall_on_offer;       // id -> cycles of stall from its first offer
    std::map<uint64_t, uint64_t> delay_of;             // id -> answer delay
    uint64_t ready_low_until = 0;
    bool trace = false;
    // state
    std::vector<Req> all;
    std::deque<uint64_t> hq;
    bool showing = false;
    std::map<uint16_t, Node> nodes;
    int slot_owner[16];
    uint64_t next_order = 0, last_end_cyc = 0;
    bool in_round = false;
    std::deque<uint64_t> round_list;
    std::set<uint16_t> round_dsts;
    // output bookkeeping
    bool prev_stalled = false;
    uint32_t prev_snap[32];
    // coverage
    uint64_t n_direct = 0, n_parked = 0, n_resends = 0, n_rounds = 0, n_retry_flags = 0, n_pass = 0,
             n_stall_full = 0, n_strays = 0, n_timeouts = 0, n_noq = 0, n_malformed = 0, n_accepted = 0,
             n_refused = 0, n_stalled = 0, n_multi_dst_rounds = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_req_tx), rng(seed)
    {
        for (int &s : slot_owner) s = -1;
        for (uint16_t n : LIVE_NODES) nodes[n];
        nodes[DEAD_NODE].dead = true;
    }

    // ------------------------------------------------------------ host side
    uint64_t add(const Desc &d0)
    {
        Req r;
        r.d = d0;
        r.d.id = all.size();
        r.d.w[0] = r.d.id;
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
        d.mask = rng.chance(50) ? ~0ull : rng.next();
        return d;
    }
    uint64_t req(uint16_t dst, uint32_t addr = 0, int ctx = -1, unsigned words = 0)
    {
        Desc d;
        d.req = true;
        d.op = TG_OP_REQ;
        d.dst = dst;
        d.addr = addr ? addr : 0x1000u * (1 + rng.below(8));
        d.len = (uint8_t)(8 * (words ? words : 1 + rng.below(8)));
        d.ctx = (uint8_t)(ctx >= 0 ? ctx : rng.below(256));
        d.tag = (uint16_t)rng.next();   // the sender chooses the tag of a REQ
        return add(random_payload(d));
    }
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
        return add(random_payload(d));
    }
    uint64_t random_req(bool with_dead = false)
    {
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
        t.s_txd_mask = d.mask;
        t.s_txd_len = d.len;
        t.s_txd_ctx = d.ctx;
        t.s_txd_tag = d.tag;
        for (unsigned k = 0; k < 8; k++) {
            t.s_txd_payload[2 * k] = (uint32_t)d.w[k];
            t.s_txd_payload[2 * k + 1] = (uint32_t)(d.w[k] >> 32);
        }
    }
    uint64_t out_word(unsigned k) const
    {
        return (uint64_t)m->m_txd_payload[2 * k] | ((uint64_t)m->m_txd_payload[2 * k + 1] << 32);
    }
    void snapshot(uint32_t *s) const
    {
        const Vtg_req_tx &t = *m;
        for (unsigned w = 0; w < 16; w++) s[w] = t.m_txd_payload[w];
        s[16] = t.m_txd_op | (t.m_txd_flags << 8) | (t.m_txd_len << 16) | (t.m_txd_ctx << 24);
        s[17] = t.m_txd_dst | (t.m_txd_tag << 16);
        s[18] = t.m_txd_addr;
        s[19] = (uint32_t)t.m_txd_mask;
        s[20] = (uint32_t)(t.m_txd_mask >> 32);
        for (unsigned w = 21; w < 32; w++) s[w] = 0;
    }

    // ------------------------------------------------------------ the targets
    // A REQ arrives at its destination (in the order sent): the receiver's
    // rules decide, the answer follows after a delay, in order per node.
    void arrive(Req &r)
    {
        Node &n = nodes[r.d.dst];
        if (n.dead) return;
        bool retry = (m->m_txd_flags & TG_FLAG_RETRY) != 0;
        if (retry) n.blocked = false;
        uint8_t st;
        auto forced = refuse_full.find(r.d.id);
        bool full = forced != refuse_full.end() ? r.arrivals_refused_full < forced->second : rng.chance(full_pct);
        if (r.cls == C_NO_QUEUE) {
            st = TG_ST_NO_QUEUE;
        } else if (n.blocked) {
            st = TG_ST_NOT_READY;
        } else if (full) {
            st = TG_ST_NOT_READY;
            n.blocked = true;
            r.arrivals_refused_full++;
        } else if (r.cls == C_MALFORMED) {
            st = TG_ST_MALFORMED;
        } else {
            st = TG_ST_OK;
            PROP(P_DUP, !r.accepted, "cycle %llu: node %04x accepted REQ #%llu a second time",
                 (unsigned long long)cyc, r.d.dst, (unsigned long long)r.d.id);
            if (!r.accepted) {
                uint64_t want = n.next_acc < n.good.size() ? n.good[n.next_acc] : ~0ull;
                PROP(P_ORDER, r.d.id == want, "cycle %llu: node %04x accepted REQ #%llu while REQ #%llu, sent "
                     "before it by the host, was not yet accepted", (unsigned long long)cyc, r.d.dst,
                     (unsigned long long)r.d.id, (unsigned long long)want);
                r.accepted = true;
                n.acc.push_back(r.d.id);
                while (n.next_acc < n.good.size() && all[n.good[n.next_acc]].accepted) n.next_acc++;
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
        case 2: tag = (uint16_t)(TG_TAG_REQ | (MAX_REQS + rng.below(16 - MAX_REQS))); break;   // no such slot
        default:
            tag = (uint16_t)(TG_TAG_REQ | s);
            if (sent) src = (uint16_t)(all[owner].d.dst ^ (1u << rng.below(16)));   // another node
            break;
        }
    }

    // ------------------------------------------------------------ clock
    bool recovering() const
    {
        if (in_round) return true;
        for (const Req &r : all)
            if (r.d.req && (r.st == PARKED || r.st == REFUSED)) return true;
        return false;
    }
    unsigned count(St st) const
    {
        unsigned n = 0;
        for (const Req &r : all) n += r.d.req && r.st == st;
        return n;
    }

    void tick(bool rst = false)
    {
        Vtg_req_tx &t = *m;
        t.rst = rst;
        t.cfg_backoff = backoff;
        t.cfg_timeout = timeout;
        if (!showing && !rst) showing = !hq.empty() && !rng.chance(gap_pct);
        t.s_txd_valid = showing && !rst;
        if (t.s_txd_valid) {
            drive_desc(all[hq.front()].d);
        } else {
            Desc j;
            j.op = rng.chance(50) ? TG_OP_REQ : (uint8_t)rng.next();
            j.dst = (uint16_t)rng.next(); j.addr = (uint32_t)rng.next(); j.mask = rng.next();
            j.len = (uint8_t)rng.next(); j.ctx = (uint8_t)rng.next(); j.tag = (uint16_t)rng.next();
            for (uint64_t &w : j.w) w = rng.next();
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
            uint64_t id = out_word(0);
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
        cyc++;
    }

    void check(const Resp &resp, bool is_stray)
    {
        Vtg_req_tx &t = *m;
        unsigned long long c = cyc;
        // state before this cycle's events
        unsigned outstanding = count(SENT);
        unsigned live = count(PARKED) + count(SENT) + count(REFUSED);
        bool recov = recovering();
        long long in_id = t.s_txd_valid ? (long long)hq.front() : -1;

        // --- the output holds still while stalled
        uint32_t snap[32];
        snapshot(snap);
        if (prev_stalled)
            PROP(P_STABLE, t.m_txd_valid && std::memcmp(snap, prev_snap, sizeof snap) == 0,
                 "cycle %llu: descriptor changed or withdrawn while stalled", c);
        bool offer_start = t.m_txd_valid && !prev_stalled;
        bool out_fire = t.m_txd_valid && t.m_txd_ready;
        bool in_fire = t.s_txd_valid && t.s_txd_ready;
        uint64_t oid = out_word(0);
        bool known = t.m_txd_valid && oid < all.size();
        if (t.m_txd_valid)
            PROP(P_UNKNOWN, known, "cycle %llu: descriptor with payload word 0 = %016llx was never sent by the host", c,
                 (unsigned long long)oid);
        Req *o = known ? &all[oid] : nullptr;
        bool resend = o && o->d.req && (o->st == PARKED || o->st == REFUSED);

        // --- what is offered
        if (offer_start && o) {
            const Desc &d = o->d;
            bool same = t.m_txd_op == d.op && t.m_txd_dst == d.dst && t.m_txd_addr == d.addr &&
                        t.m_txd_mask == d.mask && t.m_txd_len == d.len && t.m_txd_ctx == d.ctx;
            for (unsigned k = 0; k < 8; k++) same &= out_word(k) == d.w[k];
            PROP(P_FIELDS, same && (d.req || t.m_txd_tag == d.tag),
                 "cycle %llu: descriptor #%llu (op %u) differs from what the host sent", c,
                 (unsigned long long)d.id, d.op);
            if (!d.req) {
                PROP(P_FIELDS, t.m_txd_flags == 0, "cycle %llu: flags %02x on a pass-through", c, t.m_txd_flags);
                PROP(P_PASS, t.s_txd_valid && hq.front() == d.id, "cycle %llu: #%llu offered but not the host's "
                     "current request", c, (unsigned long long)d.id);
            } else {
                unsigned slot = t.m_txd_tag & 15;
                PROP(P_TAG, (t.m_txd_tag & 0xF000u) == TG_TAG_REQ && slot < MAX_REQS,
                     "cycle %llu: REQ #%llu tag %04x", c, (unsigned long long)d.id, t.m_txd_tag);
                if (o->slot >= 0)
                    PROP(P_SLOT, (int)slot == o->slot, "cycle %llu: REQ #%llu resent in slot %u, it holds %d", c,
                         (unsigned long long)d.id, slot, o->slot);
                else
                    PROP(P_SLOT, slot_owner[slot] < 0 || slot_owner[slot] == (int)d.id,
                         "cycle %llu: REQ #%llu sent in slot %u, held by REQ #%d", c, (unsigned long long)d.id, slot,
                         slot_owner[slot]);
                PROP(P_RESEND_LIVE, o->st != SENT && o->st != DONE,
                     "cycle %llu: REQ #%llu offered again while %s", c, (unsigned long long)d.id,
                     o->st == SENT ? "awaiting its answer" : "finished");
                if (o->st == HOST) {
                    PROP(P_FIELDS, t.m_txd_flags == 0, "cycle %llu: flags %02x on a first send", c, t.m_txd_flags);
                    PROP(P_PASS, t.s_txd_valid && hq.front() == d.id, "cycle %llu: REQ #%llu offered but not the "
                         "host's current request", c, (unsigned long long)d.id);
                    PROP(P_NEW_WHILE_REFUSED, !recov, "cycle %llu: new REQ #%llu offered while refused REQs wait", c,
                         (unsigned long long)d.id);
                } else if (resend) {
                    if (!in_round) {
                        // a round begins: every REQ answered, the backoff passed
                        PROP(P_ROUND_BUSY, outstanding == 0, "cycle %llu: round of resends began with %u REQs "
                             "unanswered", c, outstanding);
                        PROP(P_ROUND_BACKOFF, cyc - last_end_cyc - 1 >= backoff, "cycle %llu: round began %llu "
                             "cycles after the last answer, backoff %u", c,
                             (unsigned long long)(cyc - last_end_cyc - 1), backoff);
                        // every REQ refused or parked before it began (one
                        // parked in the cycle it begins waits for the next)
                        std::vector<const Req *> members;
                        for (const Req &r : all)
                            if (r.d.req && (r.st == REFUSED || (r.st == PARKED && r.park_cyc + 2 <= cyc)))
                                members.push_back(&r);
                        std::sort(members.begin(), members.end(),
                                  [](const Req *a, const Req *b) { return a->order < b->order; });
                        round_list.clear();
                        for (const Req *r : members) round_list.push_back(r->d.id);
                        round_dsts.clear();
                        in_round = true;
                        n_rounds++;
                        std::set<uint16_t> dsts;
                        for (const Req *r : members) dsts.insert(r->d.dst);
                        n_multi_dst_rounds += dsts.size() > 1;
                    }
                    uint64_t head = round_list.empty() ? ~0ull : round_list.front();
                    PROP(P_ROUND_ORDER, head == d.id, "cycle %llu: resent REQ #%llu, REQ #%llu is next in the "
                         "host's order", c, (unsigned long long)d.id, (unsigned long long)head);
                    bool first = !round_dsts.count(d.dst);
                    PROP(P_RETRY_FLAG, t.m_txd_flags == (first ? TG_FLAG_RETRY : 0),
                         "cycle %llu: resend of REQ #%llu to node %04x has flags %02x; it is %sthe first resend to "
                         "that node in this round", c, (unsigned long long)d.id, d.dst, t.m_txd_flags,
                         first ? "" : "not ");
                    if (!round_list.empty() && head == d.id) round_list.pop_front();
                    round_dsts.insert(d.dst);
                    n_retry_flags += (t.m_txd_flags & TG_FLAG_RETRY) != 0;
                }
            }
        }

        // --- stalls on the host side
        if (t.s_txd_valid && all[hq.front()].d.req && live >= MAX_REQS) {
            n_stall_full++;
            PROP(P_SLOTS_FULL, !t.s_txd_ready, "cycle %llu: REQ #%llu taken with all %u slots busy", c,
                 (unsigned long long)hq.front(), MAX_REQS);
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
                if (r.cls == C_GOOD && !r.dead) nodes[r.d.dst].good.push_back(r.d.id);
                if (!through) {
                    PROP(P_PARK, recov, "cycle %llu: REQ #%llu kept back with nothing refused", c,
                         (unsigned long long)r.d.id);
                    PROP(P_PARK, live < MAX_REQS, "cycle %llu: REQ #%llu kept back with no free slot", c,
                         (unsigned long long)r.d.id);
                    r.st = PARKED;
                    r.park_cyc = cyc;
                    n_parked++;
                }
            }
        }

        // --- the transmitter took the offer
        if (out_fire && o) {
            if (!o->d.req) {
                n_pass++;
            } else {
                if (o->st == HOST) n_direct++;
                else n_resends++;
                unsigned slot = t.m_txd_tag & 15;
                if (o->slot < 0 && slot < 16 && slot_owner[slot] < 0) {
                    o->slot = (int)slot;
                    slot_owner[slot] = (int)o->d.id;
                }
                if (o->st != SENT && o->st != DONE) {
                    o->st = SENT;
                    o->send_cyc = cyc;
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
            if (in_round && round_list.empty()) in_round = false;
        }
        PROP(P_EVENTS, t.ev_req_retry == (out_fire && resend), "cycle %llu: ev_req_retry %u, resend taken %u", c,
             t.ev_req_retry, out_fire && resend);
        n_stalled += t.m_txd_valid && !t.m_txd_ready;

        // --- answers and failure reports
        if (resp.id == ~0ull || all[resp.id].st == SENT)
            PROP(P_EVENTS, t.ev_req_stray == is_stray, "cycle %llu: ev_req_stray %u for a %s answer", c, t.ev_req_stray,
             is_stray ? "stray" : t.s_qresp_valid ? "matching" : "missing");
        bool err_expected = false;
        if (resp.id != ~0ull && all[resp.id].st != SENT) {
            // an answer after its REQ timed out matches nothing
            PROP(P_EVENTS, t.ev_req_stray, "cycle %llu: late answer to REQ #%llu not counted as a stray", c,
                 (unsigned long long)resp.id);
        } else if (resp.id != ~0ull) {
            Req &r = all[resp.id];
            last_end_cyc = cyc;
            if (resp.status == TG_ST_NOT_READY) {
                r.st = REFUSED;
                n_refused++;
            } else {
                r.st = DONE;
                r.final_st = resp.status;
                if (r.slot >= 0) slot_owner[r.slot] = -1;
                if (resp.status == TG_ST_OK) {
                    n_accepted++;
                } else {
                    err_expected = true;
                    if (resp.status == TG_ST_NO_QUEUE) n_noq++;
                    else n_malformed++;
                    PROP(P_ERR, t.m_err_valid && t.m_err_ctx == (r.d.ctx & 15) && t.m_err_status == resp.status,
                         "cycle %llu: REQ #%llu answered %u: report valid %u ctx %u status %u, want ctx %u", c,
                         (unsigned long long)r.d.id, resp.status, t.m_err_valid, t.m_err_ctx, t.m_err_status,
                         r.d.ctx & 15);
                }
            }
        }
        if (t.m_err_valid && !err_expected) {
            // a timeout: the oldest REQ of that context unanswered too long
            Req *best = nullptr;
            for (Req &r : all)
                if (r.d.req && r.st == SENT && (r.d.ctx & 15) == t.m_err_ctx && cyc - r.send_cyc > timeout &&
                    timeout != 0 && (!best || r.send_cyc < best->send_cyc))
                    best = &r;
            PROP(P_ERR_EXTRA, best && t.m_err_status == TG_ST_PEER_GONE,
                 "cycle %llu: failure report ctx %u status %u with no REQ of that context timed out", c, t.m_err_ctx,
                 t.m_err_status);
            if (best) {
                PROP(P_ERR_EXTRA, best->dead, "cycle %llu: REQ #%llu to a live node timed out", c,
                     (unsigned long long)best->d.id);
                best->st = DONE;
                best->final_st = TG_ST_PEER_GONE;
                if (best->slot >= 0) slot_owner[best->slot] = -1;
                last_end_cyc = cyc;
                n_timeouts++;
            }
        }
        if (timeout)
            for (Req &r : all)
                if (r.d.req && r.st == SENT && !r.late_flagged && cyc - r.send_cyc > timeout + timeout_slack) {
                    r.late_flagged = true;
                    PROP(P_TIMEOUT_LATE, false, "cycle %llu: REQ #%llu (ctx %u) to node %04x unanswered for %llu "
                         "cycles, timeout %u, and not reported", c, (unsigned long long)r.d.id, r.d.ctx & 15,
                         r.d.dst, (unsigned long long)(cyc - r.send_cyc), timeout);
                }

        if (trace && (t.m_txd_valid || t.s_qresp_valid || in_fire || t.m_err_valid))
            std::fprintf(stderr, "%llu: out %u/%u #%llu op %u flags %u dst %04x tag %04x | in %u/%u #%lld | resp %u "
                         "#%lld st %u src %04x tag %04x%s | err %u ctx %u st %u | sent %u refused %u parked %u round %u\n",
                         c, t.m_txd_valid, t.m_txd_ready, (unsigned long long)oid, t.m_txd_op, t.m_txd_flags,
                         t.m_txd_dst, t.m_txd_tag, t.s_txd_valid, t.s_txd_ready,
                         in_id, t.s_qresp_valid,
                         resp.id == ~0ull ? -1LL : (long long)resp.id, t.s_qresp_status, t.s_qresp_src,
                         t.s_qresp_tag, is_stray ? " stray" : "", t.m_err_valid, t.m_err_ctx, t.m_err_status,
                         count(SENT), count(REFUSED), count(PARKED), in_round);
        prev_stalled = t.m_txd_valid && !t.m_txd_ready;
        std::memcpy(prev_snap, snap, sizeof snap);
    }

    bool busy() const
    {
        if (!hq.empty()) return true;
        for (const Req &r : all)
            if (r.d.req && r.st != DONE) return true;
        return false;
    }

    // Run until every request went out and every REQ finished, then check
    // what each destination accepted.
    void run(const char *what, uint64_t limit = 400000)
    {
        uint64_t end = cyc + limit;
        while (busy() && cyc < end) tick();
        for (int i = 0; i < 10; i++) tick();
        unsigned left = 0;
        for (const Req &r : all) left += r.d.req && r.st != DONE;
        PROP(P_END, !busy(), "%s: stuck with %zu requests from the host and %u REQs unfinished (%u sent, %u refused, "
             "%u parked)", what, hq.size(), left, count(SENT), count(REFUSED), count(PARKED));
        for (auto &kv : nodes) {
            const Node &n = kv.second;
            PROP(P_END, n.acc == n.good, "%s: node %04x accepted %zu REQs, the host sent it %zu it should accept",
                 what, kv.first, n.acc.size(), n.good.size());
        }
        for (const Req &r : all) {
            if (!r.d.req || r.st != DONE || r.final_st == -2) continue;
            int want = r.dead ? TG_ST_PEER_GONE : r.cls == C_NO_QUEUE ? TG_ST_NO_QUEUE
                                                  : r.cls == C_MALFORMED ? TG_ST_MALFORMED : TG_ST_OK;
            PROP(P_END, r.final_st == want, "%s: REQ #%llu to node %04x ended %d, want %d", what,
                 (unsigned long long)r.d.id, r.d.dst, r.final_st, want);
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
        for (int &s : slot_owner) s = -1;
        in_round = false;
        round_list.clear();
        prev_stalled = false;
        ready_low_until = 0;
        last_end_cyc = cyc;
    }
};

static uint64_t total[16];

static void account(const Tb &tb)
{
    const uint64_t v[] = {tb.n_direct, tb.n_parked, tb.n_resends, tb.n_rounds, tb.n_retry_flags, tb.n_pass,
                          tb.n_stall_full, tb.n_strays, tb.n_timeouts, tb.n_noq, tb.n_malformed, tb.n_accepted,
                          tb.n_refused, tb.n_stalled, tb.n_multi_dst_rounds};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) total[i] += v[i];
}

// ---------------------------------------------------------------- phases

// Other requests only: each passes through unchanged, in order.
static void pass_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) tb.other();
    tb.run("pass-through");
}

// REQs and other requests to several nodes, targets refusing at random.
static void random_phase(Tb &tb, unsigned n, bool with_dead)
{
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
    tb.backoff = 0;
    tb.timeout = timeout;
    tb.reset();
}

// Two REQs to D around one to E, all refused. In the round, D's first
// resend is refused again before the second resend to D goes out: that one
// must not carry the retry flag (it would reopen D ahead of the first and
// be accepted before it).
static void case_refused_again(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE01u);
    quiet(tb);
    const uint16_t D = LIVE_NODES[0], E = LIVE_NODES[1];
    uint64_t r1 = tb.req(D), r2 = tb.req(E), r3 = tb.req(D);
    tb.refuse_full[r1] = 2;   // refused at its first send and at its first resend
    tb.refuse_full[r2] = 1;
    tb.run("refused again", 5000);
    const Node &n = tb.nodes[D];
    TB_CHECK(n.acc.size() == 2 && n.acc[0] == r1 && n.acc[1] == r3,
             "case %u: node D accepted REQ #%llu before REQ #%llu (host order #%llu, #%llu): the round's second resend "
             "to D went out with the retry flag after the first one was refused again", no,
             (unsigned long long)(n.acc.empty() ? ~0ull : n.acc[0]),
             (unsigned long long)(n.acc.size() < 2 ? ~0ull : n.acc[1]), (unsigned long long)r1,
             (unsigned long long)r3);
}

// A new REQ is already offered, held by the transmitter, when the only REQ
// in flight is refused; the round must wait for the new one's answer (and
// the first resend to D must carry the retry flag).
static void case_offer_held(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE02u);
    quiet(tb);
    const uint16_t D = LIVE_NODES[2];
    uint64_t r1 = tb.req(D), n2 = tb.req(D);
    tb.refuse_full[r1] = 1;
    tb.stall_on_offer[n2] = 6;
    uint64_t busy0 = prop_fail[P_ROUND_BUSY], flag0 = prop_fail[P_RETRY_FLAG];
    tb.run("offer held", 5000);
    TB_CHECK(prop_fail[P_ROUND_BUSY] == busy0 && prop_fail[P_RETRY_FLAG] == flag0,
             "case %u: REQ #%llu was resent while REQ #%llu, taken by the transmitter after the round was decided, "
             "was unanswered, and without the retry flag; both were refused again (%llu rounds)", no,
             (unsigned long long)r1, (unsigned long long)n2, (unsigned long long)tb.n_rounds);
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

// Two REQs to a slow node, sent 101 REQs apart, stay unanswered while 300
// REQs to a fast node pass; both are refused. The round must resend the
// older first.
static void case_long_wait(unsigned no)
{
    bench_no = no;
    Tb tb(0xC0FFEE04u);
    quiet(tb);
    const uint16_t S = LIVE_NODES[0], F = LIVE_NODES[1];
    uint64_t r = tb.req(S);
    for (int i = 0; i < 100; i++) tb.req(F);
    uint64_t n = tb.req(S);
    for (int i = 0; i < 200; i++) tb.req(F);
    tb.refuse_full[r] = 1;
    tb.delay_of[r] = tb.delay_of[n] = 3000;
    tb.run("long wait", 20000);
    const Node &s = tb.nodes[S];
    TB_CHECK(s.acc.size() == 2 && s.acc[0] == r && s.acc[1] == n,
             "case %u: the slow node accepted REQ #%llu then #%llu; the host sent #%llu before #%llu", no,
             (unsigned long long)(s.acc.empty() ? ~0ull : s.acc[0]),
             (unsigned long long)(s.acc.size() < 2 ? ~0ull : s.acc[1]), (unsigned long long)r,
             (unsigned long long)n);
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    case_refused_again(101);
    case_offer_held(102);
    case_two_timeouts(103);
    case_long_wait(104);
    struct Cfg { unsigned gap, stall, full, dmin, dmax, stray, resp_gap; uint32_t backoff; };
    const Cfg cfgs[] = {
        {0, 0, 20, 1, 4, 0, 0, 0},
        {20, 30, 25, 1, 30, 3, 20, 5},
        {0, 60, 40, 2, 12, 2, 10, 0},
        {50, 10, 10, 5, 60, 5, 40, 40},
        {10, 80, 30, 1, 3, 1, 0, 1},
        {0, 40, 60, 1, 20, 2, 30, 200},
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
    std::printf("%llu REQs sent directly, %llu parked, %llu resends in %llu rounds (%llu over several nodes, %llu "
                "with the retry flag); %llu passed through; %llu cycles with every slot busy; %llu accepted, %llu "
                "refused, %llu no queue, %llu malformed, %llu timed out; %llu strays; %llu stalled cycles\n",
                (unsigned long long)total[0], (unsigned long long)total[1], (unsigned long long)total[2],
                (unsigned long long)total[3], (unsigned long long)total[14], (unsigned long long)total[4],
                (unsigned long long)total[5], (unsigned long long)total[6], (unsigned long long)total[11],
                (unsigned long long)total[12], (unsigned long long)total[9], (unsigned long long)total[10],
                (unsigned long long)total[8], (unsigned long long)total[7], (unsigned long long)total[13]);
    for (unsigned k = 0; k < NPROPS; k++)
        TB_CHECK(prop_fail[k] <= PROP_SHOWN, "%s: %llu more failures not shown", PROP_NAME[k],
                 (unsigned long long)(prop_fail[k] - PROP_SHOWN));
    return tb_finish("tg_req_tx");
}
