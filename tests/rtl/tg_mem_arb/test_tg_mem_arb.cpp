// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the host-memory arbiter: two requesters issue random reads
// and writes with random idle cycles and hold each request until it is
// taken; the memory answers in order after a random latency and stalls at
// random. Every forwarded request is exactly one requester's request and
// holds still while the memory stalls; every answer goes to the requester
// that asked, in its order, with the read data of a reference memory; two
// requesters that both wait are served in turn; no more than 2^OUT_LOG2
// requests await an answer; the port shows the granted requester's request
// whenever it has one and there is room, the grant moving to the other
// requester when it waits and the granted one has none or was just served;
// the readies do not follow the requesters' valids within a cycle; a reset
// in the middle of traffic starts it afresh.
#include "Vtg_mem_arb.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned OUT_LOG2 = 6;               // the module default (the bench is built with it)
static const unsigned DEPTH = 1u << OUT_LOG2;
static const uint32_t MEM_BYTES = 4096;           // small, so that the requesters share addresses

struct MReq {
    bool write = false;
    uint32_t addr = 0;
    uint64_t wdata = 0;
    uint8_t wstrb = 0;
    bool operator==(const MReq &o) const
    {
        return write == o.write && addr == o.addr && wdata == o.wdata && wstrb == o.wstrb;
    }
};

// A requester: offers its requests in order, with random idle cycles, and
// holds each one until it is taken; expects one answer per request taken.
struct Requester {
    std::deque<MReq> items;
    unsigned gap_pct = 0;
    bool showing = false;
    struct Want {
        bool read;
        uint64_t data;
    };
    std::deque<Want> want;   // answers still due, in order
    uint64_t taken = 0, answered = 0;

    uint8_t valid(TbRng &rng)
    {
        if (!showing) showing = !items.empty() && !rng.chance(gap_pct);
        return showing;
    }
};

struct Tb {
    std::unique_ptr<Vtg_mem_arb> m;
    TbRng rng;
    MemModel mem;
    std::vector<uint8_t> ref;        // what the memory holds, from the requesters' view
    Requester r[2];
    uint64_t cyc = 0;
    unsigned outstanding = 0, max_outstanding = 0;
    // the forwarded request, when it was stalled in the previous cycle
    bool held = false;
    MReq held_req;
    unsigned held_src = 0;
    int last_grant = -1;
    bool both_at_last = false;                // both requesters waited at the last grant
    unsigned grant = 0;                       // the requester the arbiter should have granted
    unsigned waited[2] = {0, 0};              // cycles a request has waited
    unsigned max_wait = 1000;                 // the longest wait allowed (stalls and a full port included)
    uint64_t turns = 0, turns_to_same = 0;   // grants with both waiting on a free port
    bool strict_turns = false;                // both always valid: grants must alternate
    uint64_t stall_changes = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_mem_arb), rng(seed), mem(MEM_BYTES), ref(MEM_BYTES, 0)
    {
        for (uint32_t a = 0; a < MEM_BYTES; a++) {
            mem.mem[a] = (uint8_t)rng.next();
            ref[a] = mem.mem[a];
        }
    }

    MReq offer(unsigned i, const Vtg_mem_arb &a) const
    {
        MReq q;
        q.write = i ? a.s1_mem_req_write : a.s0_mem_req_write;
        q.addr = i ? a.s1_mem_req_addr : a.s0_mem_req_addr;
        q.wdata = i ? a.s1_mem_req_wdata : a.s0_mem_req_wdata;
        q.wstrb = i ? a.s1_mem_req_wstrb : a.s0_mem_req_wstrb;
        return q;
    }

    void drive(unsigned i, bool rst)
    {
        Vtg_mem_arb &a = *m;
        uint8_t v = rst ? 0 : r[i].valid(rng);
        MReq q;
        if (v) {
            q = r[i].items.front();
        } else {   // junk on an idle requester
            q.write = rng.chance(50);
            q.addr = (uint32_t)rng.next();
            q.wdata = rng.next();
            q.wstrb = (uint8_t)rng.next();
        }
        if (i == 0) {
            a.s0_mem_req_valid = v;
            a.s0_mem_req_write = q.write;
            a.s0_mem_req_addr = q.addr;
            a.s0_mem_req_wdata = q.wdata;
            a.s0_mem_req_wstrb = q.wstrb;
        } else {
            a.s1_mem_req_valid = v;
            a.s1_mem_req_write = q.write;
            a.s1_mem_req_addr = q.addr;
            a.s1_mem_req_wdata = q.wdata;
            a.s1_mem_req_wstrb = q.wstrb;
        }
    }

    void tick(bool rst = false)
    {
        Vtg_mem_arb &a = *m;
        a.rst = rst;
        drive(0, rst);
        drive(1, rst);
        a.m_mem_req_ready = mem.pick_ready(rng);
        uint64_t rdata = 0;
        bool rv = !rst && mem.resp(cyc, rdata);
        a.s_mem_resp_valid = rv;
        a.s_mem_resp_rdata = rv ? rdata : rng.next();
        a.clk = 0;
        a.eval();

        // each ready is made of the arbiter's registers and the memory's
        // ready: the requesters' valids and payloads do not move it
        uint8_t r0 = a.s0_mem_req_ready, r1 = a.s1_mem_req_ready;
        uint8_t v0 = a.s0_mem_req_valid, v1 = a.s1_mem_req_valid;
        a.s0_mem_req_valid = !v0;
        a.s1_mem_req_valid = !v1;
        a.eval();
        TB_CHECK(a.s0_mem_req_ready == r0 && a.s1_mem_req_ready == r1,
                 "cycle %llu: a ready follows a requester's valid", (unsigned long long)cyc);
        a.s0_mem_req_valid = v0;
        a.s1_mem_req_valid = v1;
        a.eval();

        if (!rst) step(a, rv, rdata);

        a.clk = 1;
        a.eval();
        cyc++;
    }

    void step(Vtg_mem_arb &a, bool rv, uint64_t rdata)
    {
        const unsigned long long c = cyc;
        bool v[2] = {a.s0_mem_req_valid != 0, a.s1_mem_req_valid != 0};
        bool rd[2] = {a.s0_mem_req_ready != 0, a.s1_mem_req_ready != 0};
        bool hs[2] = {v[0] && rd[0], v[1] && rd[1]};
        MReq out;
        out.write = a.m_mem_req_write;
        out.addr = a.m_mem_req_addr;
        out.wdata = a.m_mem_req_wdata;
        out.wstrb = a.m_mem_req_wstrb;
        bool fire = a.m_mem_req_valid && a.m_mem_req_ready;

        // the port shows the granted requester's request whenever it has
        // one and there is room for its answer; only that requester is ready
        bool room = outstanding < DEPTH;
        TB_CHECK(a.m_mem_req_valid == (v[grant] && room),
                 "cycle %llu: m_mem_req_valid %u, granted %u, valid %u/%u, %u awaiting answers", c,
                 a.m_mem_req_valid, grant, v[0], v[1], outstanding);
        TB_CHECK(rd[grant] == (room && a.m_mem_req_ready), "cycle %llu: granted requester %u ready %u (room %u, memory ready %u)",
                 c, grant, rd[grant], room, a.m_mem_req_ready);
        TB_CHECK(!rd[1 - grant], "cycle %llu: requester %u ready while not granted", c, 1 - grant);
        TB_CHECK(!(hs[0] && hs[1]), "cycle %llu: both requesters taken at once", c);
        TB_CHECK((hs[0] || hs[1]) == fire, "cycle %llu: requester handshakes %u/%u, memory handshake %u", c, hs[0],
                 hs[1], fire);
        // a stalled request holds still
        if (held) {
            bool same = a.m_mem_req_valid && out == held_req;
            if (!same) stall_changes++;
            TB_CHECK(same, "cycle %llu: stalled request from requester %u changed (valid %u, addr %08x -> %08x)", c,
                     held_src, a.m_mem_req_valid, held_req.addr, out.addr);
        }
        int src = (int)grant;
        if (a.m_mem_req_valid) {
            TB_CHECK(out == offer(grant, a), "cycle %llu: forwarded request is not requester %u's", c, grant);
        }
        // both waiting, and both waited at the last grant too: the other one's turn
        if (v[0] && v[1] && !held && fire) {
            turns++;
            if (last_grant >= 0 && hs[last_grant] && both_at_last) turns_to_same++;
        }
        if (fire) both_at_last = v[0] && v[1];
        if (strict_turns && fire && last_grant >= 0) {
            TB_CHECK(!hs[last_grant], "cycle %llu: requester %d granted twice in a row while both wait", c,
                     last_grant);
        }
        // the grant moves to a waiting requester when the granted one has
        // nothing or was just served
        for (unsigned i = 0; i < 2; i++) {
            if (v[i] && !hs[i]) {
                waited[i]++;
                TB_CHECK(waited[i] <= max_wait, "cycle %llu: requester %u waited %u cycles", c, i, waited[i]);
            } else {
                waited[i] = 0;
            }
        }
        if (v[1 - grant] && (!v[grant] || fire)) grant = 1 - grant;

        // answers
        bool a0 = a.m0_mem_resp_valid, a1 = a.m1_mem_resp_valid;
        TB_CHECK(!(a0 && a1), "cycle %llu: answer routed to both requesters", c);
        TB_CHECK((a0 || a1) == rv, "cycle %llu: answer valid %u, routed %u/%u", c, rv, a0, a1);
        for (unsigned i = 0; i < 2; i++) {
            bool av = i ? a1 : a0;
            if (!av) continue;
            uint64_t d = i ? a.m1_mem_resp_rdata : a.m0_mem_resp_rdata;
            TB_CHECK(!r[i].want.empty(), "cycle %llu: answer to requester %u, which awaits none", c, i);
            if (r[i].want.empty()) continue;
            Requester::Want w = r[i].want.front();
            r[i].want.pop_front();
            r[i].answered++;
            if (w.read) {
                TB_CHECK(d == w.data, "cycle %llu: requester %u read %016llx, expected %016llx", c, i,
                         (unsigned long long)d, (unsigned long long)w.data);
            }
        }
        (void)rdata;
        if (rv) outstanding--;

        // requests taken
        mem.request(cyc, a.m_mem_req_valid, a.m_mem_req_write, a.m_mem_req_addr, a.m_mem_req_wdata,
                    a.m_mem_req_wstrb, rng);
        for (unsigned i = 0; i < 2; i++) {
            if (!hs[i]) continue;
            MReq q = r[i].items.front();
            r[i].items.pop_front();
            r[i].showing = false;
            r[i].taken++;
            uint64_t d = 0;
            for (unsigned b = 0; b < 8; b++) {
                if (q.write && (q.wstrb & (1u << b))) ref[q.addr + b] = (uint8_t)(q.wdata >> (8 * b));
                d |= (uint64_t)ref[q.addr + b] << (8 * b);
            }
            r[i].want.push_back(Requester::Want{!q.write, d});
            last_grant = (int)i;
        }
        if (fire) outstanding++;
        TB_CHECK(outstanding <= DEPTH, "cycle %llu: %u requests await an answer", c, outstanding);
        if (outstanding > max_outstanding) max_outstanding = outstanding;
        held = a.m_mem_req_valid && !a.m_mem_req_ready;
        if (held) {
            held_req = out;
            held_src = (unsigned)(src >= 0 ? src : 0);
        }
    }

    // reset with the memory and its answers in flight: all of it starts afresh
    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        mem.q.clear();
        mem.last_due = 0;
        for (unsigned i = 0; i < 2; i++) {
            r[i].want.clear();
            r[i].showing = false;
        }
        outstanding = 0;
        held = false;
        last_grant = -1;
        grant = 0;
        both_at_last = false;
        waited[0] = waited[1] = 0;
    }

    void add(unsigned i, unsigned n)
    {
        for (unsigned k = 0; k < n; k++) {
            MReq q;
            q.write = rng.chance(50);
            q.addr = rng.below(MEM_BYTES / 8) * 8;
            q.wdata = rng.next();
            q.wstrb = q.write ? (uint8_t)rng.next() : 0xFF;
            r[i].items.push_back(q);
        }
    }

    bool busy() const
    {
        return !r[0].items.empty() || !r[1].items.empty() || !r[0].want.empty() || !r[1].want.empty();
    }

    void run(uint64_t limit)
    {
        uint64_t end = cyc + limit;
        while (busy() && cyc < end) tick();
        TB_CHECK(!busy(), "not drained: %zu/%zu requests, %zu/%zu answers left", r[0].items.size(),
                 r[1].items.size(), r[0].want.size(), r[1].want.size());
        for (int i = 0; i < 5; i++) tick();
        TB_CHECK(mem.q.empty(), "answers left in the memory");
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Cfg {
        unsigned gap0, gap1, stall, lat_min, lat_max;
    };
    const Cfg cfgs[] = {
        {0, 0, 0, 1, 1},     {0, 0, 30, 1, 8},    {30, 30, 30, 1, 20}, {80, 20, 50, 2, 6},
        {20, 80, 10, 1, 40}, {50, 50, 80, 1, 3},  {0, 70, 20, 5, 60},  {0, 0, 5, 150, 300},
        {10, 10, 0, 100, 200},
    };
    uint64_t seed = 1, turns = 0, same = 0, changes = 0;
    unsigned max_out = 0;
    for (const Cfg &k : cfgs) {
        for (unsigned rep = 0; rep < 3; rep++) {
            Tb tb(seed++ * 0x9E3779B97F4A7C15ull);
            tb.r[0].gap_pct = k.gap0;
            tb.r[1].gap_pct = k.gap1;
            tb.mem.stall_pct = k.stall;
            tb.mem.lat_min = k.lat_min;
            tb.mem.lat_max = k.lat_max;
            tb.reset();

            // one requester alone, then the other, then both
            tb.add(0, 40);
            tb.run(100000);
            tb.add(1, 40);
            tb.run(100000);
            tb.add(0, 1500);
            tb.add(1, 1500);
            tb.run(400000);

            // both always waiting on a memory that never stalls: strict turns
            {
                unsigned g0 = tb.r[0].gap_pct, g1 = tb.r[1].gap_pct, st = tb.mem.stall_pct;
                tb.r[0].gap_pct = tb.r[1].gap_pct = 0;
                tb.mem.stall_pct = 0;
                tb.add(0, 300);
                tb.add(1, 300);
                tb.strict_turns = true;
                tb.last_grant = -1;   // the first grant of the run goes to whichever holds the grant
                while (!tb.r[0].items.empty() && !tb.r[1].items.empty()) tb.tick();
                tb.strict_turns = false;
                tb.run(400000);
                tb.r[0].gap_pct = g0;
                tb.r[1].gap_pct = g1;
                tb.mem.stall_pct = st;
            }

            // reset in the middle of traffic
            tb.add(0, 200);
            tb.add(1, 200);
            for (unsigned i = 0, n = 30 + tb.rng.below(200); i < n; i++) tb.tick();
            tb.reset();
            tb.run(400000);

            turns += tb.turns;
            same += tb.turns_to_same;
            changes += tb.stall_changes;
            if (tb.max_outstanding > max_out) max_out = tb.max_outstanding;
            if (k.lat_min >= 100) {
                TB_CHECK(tb.max_outstanding == DEPTH, "long latency: at most %u requests awaited answers, expected %u",
                         tb.max_outstanding, DEPTH);
            }
        }
    }
    // the interesting cases were exercised
    TB_CHECK(turns > 5000, "both requesters waited on a free port only %llu times", (unsigned long long)turns);
    TB_CHECK(same == 0, "%llu grants went to the requester served last while both waited", (unsigned long long)same);
    TB_CHECK(max_out == DEPTH, "at most %u requests awaited answers", max_out);
    return tb_finish("tg_mem_arb");
}
