// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the deadline timeouts against a counter per entry: each
// entry waits in runs of random length, the timeout changes at random
// (also in the middle of waits, to 0 and back), and resets come in the
// middle of waits. In every cycle m_over must say whether the entry has
// waited at least the timeout it had in the cycle before its wait began
// (0: never), and m_over_next what m_over will say after the edge.
#include "Vtg_timeout.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned N = 4;

struct Ref {
    uint64_t age = 0;     // cycles waited so far in this wait
    uint32_t tmo = 0;     // the timeout taken before the wait (0: never)
};

struct Tb {
    std::unique_ptr<Vtg_timeout> m;
    TbRng rng;
    Ref ref[N];
    uint64_t cyc = 0;
    uint32_t timeout = 0;
    unsigned stop_pct[N] = {};   // chance an entry's wait ends in a cycle
    unsigned start_pct[N] = {};  // chance an idle entry starts waiting
    uint8_t wait = 0;
    uint64_t n_over = 0, n_starts = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_timeout), rng(seed) {}

    void tick(bool rst = false)
    {
        Vtg_timeout &t = *m;
        for (unsigned e = 0; e < N; e++) {
            bool w = (wait >> e) & 1;
            if (w && rng.chance(stop_pct[e])) w = false;
            else if (!w && rng.chance(start_pct[e])) w = true, n_starts++;
            wait = (uint8_t)((wait & ~(1u << e)) | ((unsigned)w << e));
        }
        t.rst = rst;
        t.cfg_timeout = timeout;
        t.in_wait = wait;
        t.clk = 0;
        t.eval();
        if (!rst) {
            for (unsigned e = 0; e < N; e++) {
                const Ref &r = ref[e];
                bool w = (wait >> e) & 1;
                bool over = r.tmo != 0 && r.age >= r.tmo;
                bool over_next = w && r.tmo != 0 && r.age + 1 >= r.tmo;
                TB_CHECK(((t.m_over >> e) & 1) == over && ((t.m_over_next >> e) & 1) == over_next,
                         "cycle %llu: entry %u waited %llu of %u: overdue %u next %u, want %u %u",
                         (unsigned long long)cyc, e, (unsigned long long)r.age, r.tmo, (t.m_over >> e) & 1,
                         (t.m_over_next >> e) & 1, over, over_next);
                n_over += over;
            }
        }
        t.clk = 1;
        t.eval();
        for (unsigned e = 0; e < N; e++) {
            Ref &r = ref[e];
            bool w = (wait >> e) & 1;
            if (rst) {
                r.tmo = 0;         // forgotten: never overdue until the next wait
                r.age = w ? r.age + 1 : 0;
            } else if (w) {
                r.age++;
            } else {
                r.age = 0;
                r.tmo = timeout;
            }
        }
        cyc++;
    }

    uint32_t pick_timeout()
    {
        switch (rng.below(6)) {
        case 0: return 0;
        case 1: return 1 + rng.below(3);
        case 2: return 0xFFFFFFF0u + rng.below(16);   // wraps the count: never within the run
        default: return 1 + rng.below(60);
        }
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb tb(0x7153);
    for (int i = 0; i < 3; i++) tb.tick(true);

    for (unsigned round = 0; round < 400; round++) {
        for (unsigned e = 0; e < N; e++) {
            tb.stop_pct[e] = tb.rng.below(4) == 0 ? 0 : 1 + tb.rng.below(10);
            tb.start_pct[e] = 1 + tb.rng.below(60);
        }
        tb.timeout = tb.pick_timeout();
        for (unsigned i = 0, n = 200 + tb.rng.below(400); i < n; i++) {
            if (tb.rng.chance(2)) tb.timeout = tb.pick_timeout();   // under waits in progress
            tb.tick();
        }
        if (tb.rng.chance(20)) {
            for (unsigned i = 0, n = 1 + tb.rng.below(3); i < n; i++) tb.tick(true);
        }
    }
    TB_CHECK(tb.n_over > 10000 && tb.n_starts > 10000, "only %llu overdue entry-cycles in %llu waits",
             (unsigned long long)tb.n_over, (unsigned long long)tb.n_starts);
    return tb_finish("tg_timeout");
}
