// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the payload buffer against a model: random takes, frees on
// both ports (together, and of the same slot), word writes and reads; the
// pool always offers the lowest free slot, a word reads back (a cycle after
// it is asked for) as last written before it was asked for, whatever
// happens to other slots (a word read as it is written is undefined), and
// reset frees every slot.
#include "Vtg_pay_buf.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned SLOTS = 4;   // module defaults: SLOTS_LOG2 2, WORDS_LOG2 3
static const unsigned WORDS = 8;

struct Tb {
    std::unique_ptr<Vtg_pay_buf> m;
    TbRng rng;
    uint64_t cyc = 0;
    bool busy[SLOTS] = {};
    uint64_t mem[SLOTS][WORDS] = {};
    bool written[SLOTS][WORDS] = {};
    uint64_t n_take = 0, n_free = 0, n_reads = 0, n_full = 0;
    bool rd_known = false;   // the word asked for last cycle had been written
    uint64_t rd_want = 0;
    unsigned rd_slot = 0, rd_word = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_pay_buf), rng(seed) {}

    void tick(bool rst = false)
    {
        Vtg_pay_buf &p = *m;
        p.rst = rst;
        // the writer takes the slot it was offered, or (as a bench) any free one
        int take = -1;
        if (!rst && rng.chance(30)) {
            unsigned s = (unsigned)rng.below(SLOTS);
            if (!busy[s]) take = (int)s;
        }
        int f0 = -1, f1 = -1;
        if (!rst && rng.chance(25)) {
            unsigned s = (unsigned)rng.below(SLOTS);
            if (busy[s]) f0 = (int)s;
        }
        if (!rst && rng.chance(25)) {
            unsigned s = (unsigned)rng.below(SLOTS);
            if (busy[s]) f1 = (int)s;   // may be f0's slot: freed once
        }
        p.s_take_valid = take >= 0;
        p.s_take_slot = take >= 0 ? (unsigned)take : (unsigned)rng.below(SLOTS);
        p.s_free0_valid = f0 >= 0;
        p.s_free0_slot = f0 >= 0 ? (unsigned)f0 : (unsigned)rng.below(SLOTS);
        p.s_free1_valid = f1 >= 0;
        p.s_free1_slot = f1 >= 0 ? (unsigned)f1 : (unsigned)rng.below(SLOTS);
        bool we = !rst && rng.chance(60);
        unsigned ws = (unsigned)rng.below(SLOTS), ww = (unsigned)rng.below(WORDS);
        uint64_t wd = rng.next();
        p.s_wr_en = we;
        p.s_wr_slot = ws;
        p.s_wr_word = ww;
        p.s_wr_data = wd;
        unsigned rs = (unsigned)rng.below(SLOTS), rw = (unsigned)rng.below(WORDS);
        p.s_rd_slot = rs;
        p.s_rd_word = rw;
        p.clk = 0;
        p.eval();

        if (!rst) {
            // the pool: the lowest free slot, and the busy bits
            int lowest = -1;
            unsigned bits = 0;
            for (unsigned s = 0; s < SLOTS; s++) {
                if (!busy[s] && lowest < 0) lowest = (int)s;
                bits |= (unsigned)busy[s] << s;
            }
            TB_CHECK(p.m_alloc_valid == (lowest >= 0) && (lowest < 0 || p.m_alloc_slot == (unsigned)lowest),
                     "cycle %llu: offered %u/%u, lowest free %d", (unsigned long long)cyc, p.m_alloc_valid,
                     p.m_alloc_slot, lowest);
            TB_CHECK(p.st_busy == bits, "cycle %llu: busy %x, want %x", (unsigned long long)cyc, p.st_busy, bits);
            n_full += lowest < 0;
            // the read port: the word asked for last cycle, as it was then
            if (rd_known) {
                TB_CHECK(p.m_rd_data == rd_want, "cycle %llu: slot %u word %u reads %016llx, want %016llx",
                         (unsigned long long)cyc, rd_slot, rd_word, (unsigned long long)p.m_rd_data,
                         (unsigned long long)rd_want);
                n_reads++;
            }
            // (a word read as it is written reads undefined data: not checked)
            rd_known = written[rs][rw] && !(we && ws == rs && ww == rw);
            rd_want = mem[rs][rw];
            rd_slot = rs;
            rd_word = rw;
            if (take >= 0) { busy[take] = true; n_take++; }
            if (f0 >= 0) { busy[f0] = false; n_free++; }
            if (f1 >= 0 && f1 != f0) { busy[f1] = false; n_free++; }
            if (we) { mem[ws][ww] = wd; written[ws][ww] = true; }
        } else {
            for (auto &b : busy) b = false;
            rd_known = false;
        }
        p.clk = 1;
        p.eval();
        cyc++;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb tb(0x6A09E667F3BCC908ull);
    for (int i = 0; i < 3; i++) tb.tick(true);
    for (unsigned round = 0; round < 20; round++) {
        for (unsigned i = 0; i < 5000; i++) tb.tick();
        // a reset frees every slot and keeps the words
        for (int i = 0; i < 2; i++) tb.tick(true);
        TB_CHECK(tb.m->m_alloc_valid && tb.m->m_alloc_slot == 0 && tb.m->st_busy == 0,
                 "slots busy after reset");
    }
    std::printf("takes %llu, frees %llu, reads checked %llu, cycles with every slot busy %llu\n",
                (unsigned long long)tb.n_take, (unsigned long long)tb.n_free, (unsigned long long)tb.n_reads,
                (unsigned long long)tb.n_full);
    TB_CHECK(tb.n_take > 1000 && tb.n_free > 1000 && tb.n_reads > 10000 && tb.n_full > 100,
             "a case was not exercised");
    return tb_finish("tg_pay_buf");
}
