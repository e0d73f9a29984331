// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the Gray counter: random steps and resets; after every clock
// the binary output is the number of steps since reset (modulo 2^W) and the
// Gray output is its Gray code, so neighbouring counts differ in one bit;
// the successor output is the Gray code of the count plus one.
#include "Vtg_gray_count.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned W = 5;   // the module's default
static const unsigned MASK = (1u << W) - 1;

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::unique_ptr<Vtg_gray_count> m(new Vtg_gray_count);
    TbRng rng(7);
    unsigned ref = 0, prev_gray = 0, wraps = 0;
    m->clk = 0;
    m->rst = 1;
    m->inc = 0;
    m->eval();
    for (unsigned t = 0; t < 20000; t++) {
        bool rst = t < 2 || rng.chance(1);
        bool inc = rng.chance(t % 3000 < 1500 ? 90 : 30);
        m->rst = rst;
        m->inc = inc;
        m->clk = 1;
        m->eval();
        m->clk = 0;
        m->eval();
        if (rst) {
            ref = 0;
        } else if (inc) {
            ref = (ref + 1) & MASK;
            if (ref == 0) wraps++;
            unsigned diff = (m->out_gray ^ prev_gray) & MASK;
            TB_CHECK(diff != 0 && (diff & (diff - 1)) == 0, "step %u: Gray %02x after %02x", t, m->out_gray,
                     prev_gray);
        } else {
            TB_CHECK(m->out_gray == prev_gray, "step %u: Gray moved without inc", t);
        }
        TB_CHECK(m->out_bin == ref, "step %u: count %u, expected %u", t, m->out_bin, ref);
        TB_CHECK(m->out_gray == (ref ^ (ref >> 1)), "step %u: Gray %02x of %u", t, m->out_gray, ref);
        unsigned succ = (ref + 1) & MASK;
        TB_CHECK(m->out_gray_inc == (succ ^ (succ >> 1)), "step %u: successor Gray %02x of %u", t,
                 m->out_gray_inc, ref);
        prev_gray = m->out_gray;
    }
    TB_CHECK(wraps > 10, "only %u wraps", wraps);
    return tb_finish("tg_gray_count");
}
