// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the payload buffer, built as the transmit buffers are (32
// slots, two holds per slot), against a model: random takes and added
// holds, releases on four ports (together, of the same slot, of holds a
// slot does not have), a pinned slot, word writes and reads; the pool
// always offers the lowest slot with no hold that is not pinned, a hold
// taken or added in the cycle it is released stays, a word reads back (a
// cycle after it is asked for) as last written before it was asked for,
// whatever happens to other slots (a word read as it is written is
// undefined), and reset drops every hold.
#include "Vtb_pay_buf.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned SLOTS = 32;
static const unsigned WORDS = 8;

struct Tb {
    std::unique_ptr<Vtb_pay_buf> m;
    TbRng rng;
    uint64_t cyc = 0;
    unsigned held[SLOTS] = {};     // hold bits per slot
    uint64_t mem[SLOTS][WORDS] = {};
    bool written[SLOTS][WORDS] = {};
    uint64_t n_take = 0, n_hold = 0, n_free = 0, n_reads = 0, n_full = 0, n_pinned = 0, n_same = 0;
    bool rd_known = false;   // the word asked for last cycle had been written
    uint64_t rd_want = 0;
    unsigned rd_slot = 0, rd_word = 0;
    unsigned fill = 60;      // percent chance of a take per cycle (varies, to fill and drain)

    explicit Tb(uint64_t seed) : m(new Vtb_pay_buf), rng(seed) {}

    unsigned busy_slot()
    {
        unsigned s = (unsigned)rng.below(SLOTS);
        for (unsigned k = 0; k < SLOTS; k++)
            if (held[(s + k) % SLOTS]) return (s + k) % SLOTS;
        return s;
    }

    void tick(bool rst = false)
    {
        Vtb_pay_buf &p = *m;
        p.rst = rst;
        if (cyc % 4000 == 0) fill = 10 + (unsigned)rng.below(80);
        // a pinned slot (as tg_eth_tx pins the slot it sends from)
        bool pin = !rst && rng.chance(30);
        unsigned pin_slot = rng.chance(50) ? busy_slot() : (unsigned)rng.below(SLOTS);
        p.s_pin_valid = pin;
        p.s_pin_slot = pin_slot;
        p.clk = 0;
        p.eval();
        // the writer takes the slot it is offered, with one or both holds
        bool take = !rst && p.m_alloc_valid && rng.chance(fill);
        unsigned take_slot = p.m_alloc_slot, take_mask = 1 + (unsigned)rng.below(3);
        // a hold added to a slot in use
        bool hold = !rst && rng.chance(15);
        unsigned hold_slot = busy_slot(), hold_mask = 1 + (unsigned)rng.below(3);
        if (hold && !held[hold_slot]) hold = false;
        // releases: mostly of holds the slot has, sometimes of the slot just
        // taken or held (the new hold stays), of one slot on two ports, or of
        // a hold it does not have
        bool fv[4];
        unsigned fs[4], fm[4];
        for (unsigned k = 0; k < 4; k++) {
            fv[k] = !rst && rng.chance(fill < 80 ? 100 - fill : 20);
            fs[k] = k > 0 && rng.chance(20) ? fs[k - 1] : busy_slot();
            if (take && rng.chance(5)) fs[k] = take_slot;
            if (hold && rng.chance(5)) fs[k] = hold_slot;
            fm[k] = 1 + (unsigned)rng.below(3);
        }
        p.s_take_valid = take;
        p.s_take_slot = take ? take_slot : (unsigned)rng.below(SLOTS);
        p.s_take_mask = take_mask;
        p.s_hold_valid = hold;
        p.s_hold_slot = hold_slot;
        p.s_hold_mask = hold_mask;
        p.s_free0_valid = fv[0]; p.s_free0_slot = fs[0]; p.s_free0_mask = fm[0];
        p.s_free1_valid = fv[1]; p.s_free1_slot = fs[1]; p.s_free1_mask = fm[1];
        p.s_free2_valid = fv[2]; p.s_free2_slot = fs[2]; p.s_free2_mask = fm[2];
        p.s_free3_valid = fv[3]; p.s_free3_slot = fs[3]; p.s_free3_mask = fm[3];
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
        p.eval();

        if (!rst) {
            // the pool: the lowest free unpinned slot, and the hold bits
            int lowest = -1;
            uint32_t busy = 0;
            uint64_t bits = 0;
            for (unsigned s = 0; s < SLOTS; s++) {
                if (!held[s] && !(pin && pin_slot == s) && lowest < 0) lowest = (int)s;
                busy |= (uint32_t)(held[s] != 0) << s;
                bits |= (uint64_t)(held[s] & 1) << s;
                bits |= (uint64_t)((held[s] >> 1) & 1) << (SLOTS + s);
            }
            TB_CHECK(p.m_alloc_valid == (lowest >= 0) && (lowest < 0 || p.m_alloc_slot == (unsigned)lowest),
                     "cycle %llu: offered %u/%u, lowest free %d", (unsigned long long)cyc, p.m_alloc_valid,
                     p.m_alloc_slot, lowest);
            TB_CHECK(p.st_busy == busy, "cycle %llu: busy %x, want %x", (unsigned long long)cyc, p.st_busy, busy);
            TB_CHECK(p.st_held == bits, "cycle %llu: held %llx, want %llx", (unsigned long long)cyc,
                     (unsigned long long)p.st_held, (unsigned long long)bits);
            n_full += lowest < 0;
            n_pinned += pin && !held[pin_slot];
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
            // releases first, then the holds taken or added this cycle
            unsigned next[SLOTS];
            for (unsigned s = 0; s < SLOTS; s++) next[s] = held[s];
            for (unsigned k = 0; k < 4; k++) {
                if (!fv[k]) continue;
                n_free += (held[fs[k]] & fm[k]) != 0;
                next[fs[k]] &= ~fm[k];
            }
            if (take) { next[take_slot] |= take_mask; n_take++; }
            if (hold) { next[hold_slot] |= hold_mask; n_hold++; }
            for (unsigned k = 0; k < 4; k++)
                n_same += fv[k] && ((take && fs[k] == take_slot) || (hold && fs[k] == hold_slot));
            for (unsigned s = 0; s < SLOTS; s++) held[s] = next[s];
            if (we) { mem[ws][ww] = wd; written[ws][ww] = true; }
        } else {
            for (auto &h : held) h = 0;
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
        // a reset drops every hold and keeps the words
        for (int i = 0; i < 2; i++) tb.tick(true);
        tb.m->s_pin_valid = 0;
        tb.m->eval();
        TB_CHECK(tb.m->m_alloc_valid && tb.m->m_alloc_slot == 0 && tb.m->st_busy == 0 && tb.m->st_held == 0,
                 "slots held after reset");
    }
    std::printf("takes %llu, added holds %llu, releases %llu, reads checked %llu, cycles with every slot busy %llu, "
                "pinned free slots %llu, release and hold of one slot in a cycle %llu\n",
                (unsigned long long)tb.n_take, (unsigned long long)tb.n_hold, (unsigned long long)tb.n_free,
                (unsigned long long)tb.n_reads, (unsigned long long)tb.n_full, (unsigned long long)tb.n_pinned,
                (unsigned long long)tb.n_same);
    TB_CHECK(tb.n_take > 1000 && tb.n_hold > 1000 && tb.n_free > 1000 && tb.n_reads > 10000 && tb.n_full > 100 &&
                 tb.n_pinned > 1000 && tb.n_same > 100,
             "a case was not exercised");
    return tb_finish("tg_pay_buf");
}
