// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the clock-crossing FIFO: write and read clocks of several
// ratios, random pushes and pops; every entry comes out once, in order,
// none while empty, none accepted while full.
#include "Vtg_async_fifo.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static void run(unsigned wr_half, unsigned rd_half, unsigned push_pct, unsigned pop_pct, uint64_t seed)
{
    std::unique_ptr<Vtg_async_fifo> m(new Vtg_async_fifo);
    TbRng rng(seed);
    std::deque<uint16_t> ref;
    uint16_t next_val = 1;
    unsigned got = 0, full_seen = 0;
    m->rst = 1;
    m->wr_en = 0;
    m->rd_en = 0;
    for (uint64_t t = 0; t < 40000; t++) {
        bool wr_edge = (t % wr_half) == 0 && (t / wr_half) % 2 == 0;
        bool rd_edge = (t % rd_half) == 0 && (t / rd_half) % 2 == 0;
        if (t == 40 * (wr_half + rd_half)) m->rst = 0;
        if (wr_edge) {
            // decide the write of this edge from the settled outputs
            bool want = !m->rst && rng.chance(push_pct) && t < 30000;
            m->wr_en = want;
            m->wr_data = next_val;
            if (want && !m->wr_full) ref.push_back(next_val++);
            if (want && m->wr_full) full_seen++;
        }
        if (rd_edge) {
            bool want = !m->rst && rng.chance(pop_pct);
            m->rd_en = want;
            if (want && m->rd_valid) {
                TB_CHECK(!ref.empty(), "data out of an empty FIFO");
                if (!ref.empty()) {
                    TB_CHECK(m->rd_data == ref.front(), "got %u expected %u", m->rd_data, ref.front());
                    ref.pop_front();
                    got++;
                }
            }
        }
        m->wr_clk = (t / wr_half) % 2 == 0;
        m->rd_clk = (t / rd_half) % 2 == 0;
        m->eval();
    }
    TB_CHECK(ref.empty(), "%zu entries never came out", ref.size());
    TB_CHECK(got > 500, "only %u entries passed", got);
    if (push_pct > pop_pct * 2) TB_CHECK(full_seen > 0, "never full");
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    run(4, 4, 50, 50, 1);     // same clock
    run(3, 5, 90, 20, 2);     // fast writer, slow reader: fills up
    run(5, 3, 30, 90, 3);     // slow writer: often empty
    run(7, 4, 100, 100, 4);   // streaming across unrelated clocks
    return tb_finish("tg_async_fifo");
}
