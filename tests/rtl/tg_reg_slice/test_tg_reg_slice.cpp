// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the register slice: a source offers numbered beats with
// random idle cycles and holds each until taken; a sink stalls at random.
// Every beat comes out once, in order, one cycle after it went in at the
// earliest; the output holds still while stalled; s_ready and m_valid/m_data
// do not move when the inputs change within a cycle (both sides are
// registers); with the sink always ready the slice passes a beat per cycle;
// a reset in the middle of traffic empties it.
#include "Vtg_reg_slice.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

struct Tb {
    std::unique_ptr<Vtg_reg_slice> m;
    TbRng rng;
    uint64_t cyc = 0;
    uint64_t next_in = 0;      // the beat the source offers next
    uint64_t next_out = 0;     // the beat the sink expects next
    bool showing = false;
    unsigned gap_pct = 0, stall_pct = 0;
    uint64_t in_cycle[1 << 12];  // when beat n (mod the table) went in
    bool held = false;           // the output stalled last cycle
    uint64_t held_data = 0;
    uint64_t moved = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_reg_slice), rng(seed) {}

    static uint64_t beat(uint64_t n) { return n * 0x9E3779B97F4A7C15ull ^ 0x5A5Aull; }

    void tick(bool rst = false)
    {
        Vtg_reg_slice &a = *m;
        if (!showing) showing = !rst && !rng.chance(gap_pct);
        a.rst = rst;
        a.s_valid = showing;
        a.s_data = showing ? beat(next_in) : rng.next();
        a.m_ready = !rng.chance(stall_pct);
        a.clk = 0;
        a.eval();

        // registered on both sides: other inputs in the same cycle leave
        // every output as it is
        uint8_t rdy = a.s_ready, v = a.m_valid;
        uint64_t d = a.m_data;
        uint8_t sv = a.s_valid, mr = a.m_ready;
        uint64_t sd = a.s_data;
        a.s_valid = !sv;
        a.m_ready = !mr;
        a.s_data = ~sd;
        a.eval();
        TB_CHECK(a.s_ready == rdy && a.m_valid == v && a.m_data == d,
                 "cycle %llu: an output follows an input combinationally", (unsigned long long)cyc);
        a.s_valid = sv;
        a.m_ready = mr;
        a.s_data = sd;
        a.eval();

        if (!rst) step(a);

        a.clk = 1;
        a.eval();
        cyc++;
    }

    void step(Vtg_reg_slice &a)
    {
        const unsigned long long c = cyc;
        if (held) {
            TB_CHECK(a.m_valid && a.m_data == held_data, "cycle %llu: stalled output changed", c);
        }
        if (a.m_valid && a.m_ready) {
            TB_CHECK(next_out < next_in, "cycle %llu: a beat out that never went in", c);
            TB_CHECK(a.m_data == beat(next_out), "cycle %llu: beat %llu out of order or changed", c,
                     (unsigned long long)next_out);
            TB_CHECK(cyc > in_cycle[next_out % (1 << 12)], "cycle %llu: beat %llu out in the cycle it went in", c,
                     (unsigned long long)next_out);
            next_out++;
            moved++;
        }
        held = a.m_valid && !a.m_ready;
        held_data = a.m_data;
        TB_CHECK(next_in - next_out <= 2, "cycle %llu: %llu beats inside a two-register slice", c,
                 (unsigned long long)(next_in - next_out));
        if (a.s_valid && a.s_ready) {
            in_cycle[next_in % (1 << 12)] = cyc;
            next_in++;
            showing = false;
        }
    }

    void reset(unsigned cycles)
    {
        for (unsigned i = 0; i < cycles; i++) tick(true);
        showing = false;
        held = false;
        next_out = next_in;   // what was inside is gone
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb tb(0x51CE);
    tb.reset(3);

    // random idle and stall cycles, a reset in the middle of traffic
    const unsigned mix[][2] = {{0, 0}, {30, 0}, {0, 30}, {40, 40}, {10, 70}, {70, 10}};
    for (unsigned r = 0; r < 2; r++) {
        for (const auto &p : mix) {
            tb.gap_pct = p[0];
            tb.stall_pct = p[1];
            for (unsigned i = 0; i < 5000; i++) tb.tick();
        }
        tb.reset(2);
        for (unsigned i = 0; i < 4; i++) tb.tick();
        TB_CHECK(!tb.m->m_valid || tb.next_out < tb.next_in, "a beat from before the reset came out");
    }

    // throughput: source always valid, sink always ready: a beat a cycle
    tb.gap_pct = 0;
    tb.stall_pct = 0;
    for (unsigned i = 0; i < 100; i++) tb.tick();
    uint64_t before = tb.moved;
    for (unsigned i = 0; i < 1000; i++) tb.tick();
    TB_CHECK(tb.moved - before == 1000, "%llu beats in 1000 cycles at full rate",
             (unsigned long long)(tb.moved - before));

    // drain, then nothing is left inside
    tb.gap_pct = 100;
    for (unsigned i = 0; i < 10; i++) tb.tick();
    TB_CHECK(tb.next_out == tb.next_in, "%llu beats never came out", (unsigned long long)(tb.next_in - tb.next_out));
    TB_CHECK(tb.moved > 30000, "only %llu beats moved", (unsigned long long)tb.moved);
    return tb_finish("tg_reg_slice");
}
