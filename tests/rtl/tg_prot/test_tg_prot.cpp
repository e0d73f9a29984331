// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the region table against a cycle-exact model: programming
// and readback through RSEL, fields that change only while an entry is
// invalid, RCFG refusing a key that names another entry, lookups by key
// (exact keys, keys one bit off, guesses with the right index, revoked
// keys), region ends up to 2^32, PROT_CFG enable and its busy bit (set by
// a change, cleared once the receive engine is seen idle), and reset
// (every entry invalid, the fields as last written), under random
// register traffic.
#include "Vtg_prot.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned ROWS = 1u << TG_KEY_IDX_BITS;
#ifndef TB_NUM_REGIONS
#define TB_NUM_REGIONS TG_REGIONS   // the module default
#endif
static const unsigned NUM_REGIONS = TB_NUM_REGIONS;

struct Ent {
    bool valid = false;
    uint32_t base = 0;
    uint64_t len = 0;     // up to 2^32
    unsigned rights = 0;
    uint64_t key = 0;
};

struct Model {
    bool enable = false, busy = false;
    unsigned sel = 0;
    Ent e[ROWS];

    // a reset invalidates every entry; the fields keep what was last
    // written to them (they live in memories, not reset)
    void reset()
    {
        Model m;
        for (unsigned i = 0; i < ROWS; i++) {
            m.e[i] = e[i];
            m.e[i].valid = false;
        }
        *this = m;
    }

    bool reg_value(uint64_t off, uint64_t &v) const
    {
        const Ent &s = e[sel];
        switch (off) {
        case TG_CSR_REG_PROT_CFG: v = (busy ? TG_PROT_CFG_BUSY : 0) | (enable ? 1 : 0); return true;
        case TG_CSR_REG_RSEL: v = sel; return true;
        case TG_CSR_REG_RBASE: v = s.base; return true;
        case TG_CSR_REG_RLEN: v = s.len; return true;
        case TG_CSR_REG_RKEY: v = s.key; return true;
        case TG_CSR_REG_RCFG: v = (s.valid ? TG_RCFG_VALID : 0) | s.rights; return true;
        }
        v = 0;
        return false;
    }

    // one clock edge
    void tick(bool wr, uint64_t off, uint64_t d, bool idle)
    {
        bool busy_n = busy && !idle;
        if (wr) {
            bool ok = sel < NUM_REGIONS;
            Ent &s = e[sel];
            if (off == TG_CSR_REG_PROT_CFG) {
                enable = d & 1;
                busy_n = true;
            }
            if (ok && !s.valid) {
                if (off == TG_CSR_REG_RBASE) s.base = (uint32_t)d;
                if (off == TG_CSR_REG_RLEN) s.len = (d >> 32) ? (1ull << 32) : (d & 0xFFFFFFFFull);
                if (off == TG_CSR_REG_RKEY) s.key = d;
            }
            if (off == TG_CSR_REG_RCFG && ok) {
                s.valid = (d & TG_RCFG_VALID) && (s.key & (ROWS - 1)) == sel;
                s.rights = d & 0xF;
                busy_n = true;
            }
            if (off == TG_CSR_REG_RSEL) sel = d & (ROWS - 1);
        }
        busy = busy_n;
    }
};

static const uint64_t REGS[] = { TG_CSR_REG_PROT_CFG, TG_CSR_REG_RSEL, TG_CSR_REG_RBASE,
                                 TG_CSR_REG_RLEN,     TG_CSR_REG_RKEY, TG_CSR_REG_RCFG };

struct Tb {
    std::unique_ptr<Vtg_prot> m;
    Model ref;
    TbRng rng;
    unsigned long long cyc = 0;
    unsigned long long n_hit = 0, n_miss_bit = 0, n_miss_guess = 0, n_miss_invalid = 0, n_frozen = 0,
                       n_bad_idx = 0, n_busy_clear = 0, n_full_len = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_prot), rng(seed) {}

    void clock(bool wr, uint64_t off, uint64_t d, bool idle)
    {
        m->csr_wr_en = wr;
        m->csr_addr = (uint16_t)off;
        m->csr_wdata = d;
        m->in_rx_idle = idle;
        m->eval();
        bool was_busy = ref.busy;
        if (wr && off != TG_CSR_REG_RSEL && off != TG_CSR_REG_PROT_CFG && off != TG_CSR_REG_RCFG &&
            ref.sel < NUM_REGIONS && ref.e[ref.sel].valid)
            n_frozen++;
        ref.tick(wr, off, d, idle);
        if (was_busy && !ref.busy) n_busy_clear++;
        m->clk = 1;
        m->eval();
        m->clk = 0;
        m->csr_wr_en = 0;
        m->eval();
        cyc++;
    }

    void reset()
    {
        m->rst = 1;
        clock(false, 0, 0, false);
        m->rst = 0;
        ref.reset();
    }

    uint64_t read(uint64_t off)
    {
        m->csr_addr = (uint16_t)off;
        m->eval();
        return m->csr_rdata;
    }

    void check_reads(const char *what)
    {
        for (uint64_t off : REGS) {
            uint64_t want, got = read(off);
            ref.reg_value(off, want);
            TB_CHECK(got == want && m->csr_hit, "%s, cycle %llu: register %03llx = %016llx hit %u, want %016llx",
                     what, cyc, (unsigned long long)off, (unsigned long long)got, m->csr_hit,
                     (unsigned long long)want);
        }
        uint64_t off = rng.below(4096) & ~7ull, want;
        if (!ref.reg_value(off, want)) {
            uint64_t got = read(off);
            TB_CHECK(!m->csr_hit && got == 0, "%s: offset %03llx claimed", what, (unsigned long long)off);
        }
        TB_CHECK(m->cfg_enable == ref.enable, "%s: enable %u, want %u", what, m->cfg_enable, ref.enable);
    }

    void check_lookup(uint64_t key)
    {
        m->lk_key = key;
        m->eval();
        const Ent &s = ref.e[key & (ROWS - 1)];
        bool want = s.valid && s.key == key;
        TB_CHECK(m->lk_hit == want, "cycle %llu: key %016llx hit %u, want %u", cyc, (unsigned long long)key,
                 m->lk_hit, want);
        if (!want) return;
        n_hit++;
        uint64_t end = (uint64_t)s.base + s.len;
        TB_CHECK(m->lk_base == s.base && m->lk_end == end && m->lk_rights == s.rights,
                 "cycle %llu: key %016llx -> base %08x end %09llx rights %x, want %08x %09llx %x", cyc,
                 (unsigned long long)key, m->lk_base, (unsigned long long)m->lk_end, m->lk_rights, s.base,
                 (unsigned long long)end, s.rights);
        n_full_len += (s.len == (1ull << 32));
    }

    // lookups: every entry's key, one bit off, a guess with its index
    void lookups()
    {
        for (unsigned i = 0; i < ROWS; i++) {
            const Ent &s = ref.e[i];
            check_lookup(s.key);
            if (!s.valid && s.key) n_miss_invalid++;
            uint64_t off = s.key ^ (1ull << (TG_KEY_IDX_BITS + rng.below(64 - TG_KEY_IDX_BITS)));
            check_lookup(off);
            n_miss_bit += s.valid;
            uint64_t guess = (rng.next() & ~(uint64_t)(ROWS - 1)) | i;
            check_lookup(guess);
            n_miss_guess += s.valid && guess != s.key;
        }
        check_lookup(rng.next());
    }

    uint64_t rand_key(unsigned idx)
    {
        uint64_t k = rng.next() & ~(uint64_t)(ROWS - 1);
        if (rng.below(10) == 0) {   // a key naming another entry
            n_bad_idx++;
            return k | ((idx + 1 + rng.below(ROWS - 1)) & (ROWS - 1));
        }
        return k | idx;
    }

    // a driver-like sequence: invalidate, program, validate (or revoke)
    void program(unsigned idx)
    {
        bool idle = rng.below(3) != 0;
        clock(true, TG_CSR_REG_RSEL, idx, idle);
        clock(true, TG_CSR_REG_RCFG, 0, idle);
        clock(true, TG_CSR_REG_RBASE, rng.next(), idle);
        uint64_t len = rng.below(8) == 0 ? (1ull << 32) + rng.below(5) : rng.below(1u << 20);
        clock(true, TG_CSR_REG_RLEN, len, idle);
        clock(true, TG_CSR_REG_RKEY, rand_key(idx), idle);
        if (rng.below(4) != 0) clock(true, TG_CSR_REG_RCFG, TG_RCFG_VALID | rng.below(16), idle);
    }

    void random_tick()
    {
        bool wr = rng.below(3) == 0;
        uint64_t off = REGS[rng.below(6)];
        uint64_t d = rng.next();
        if (off == TG_CSR_REG_RSEL) d = rng.below(ROWS * 2);
        if (off == TG_CSR_REG_RKEY && rng.below(2)) d = rand_key(ref.sel);
        if (off == TG_CSR_REG_RCFG && rng.below(2)) d = TG_RCFG_VALID | rng.below(16);
        clock(wr, off, d, rng.below(4) == 0);
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    unsigned long long hit = 0, bit = 0, guess = 0, inval = 0, frozen = 0, badidx = 0, bclr = 0, full = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        Tb tb(seed * 0x9E3779B97F4A7C15ull);
        tb.reset();
        tb.check_reads("after reset");
        tb.lookups();
        for (int r = 0; r < 300; r++) {
            // mostly a row that exists, sometimes any index
            tb.program((unsigned)tb.rng.below(tb.rng.below(4) == 0 ? ROWS : NUM_REGIONS));
            tb.check_reads("after programming");
            tb.lookups();
            for (int i = 0; i < 20; i++) {
                tb.random_tick();
                tb.check_reads("random traffic");
            }
            tb.lookups();
            if (r == 150) {
                tb.reset();
                tb.check_reads("after reset in traffic");
                tb.lookups();
            }
        }
        hit += tb.n_hit;
        bit += tb.n_miss_bit;
        guess += tb.n_miss_guess;
        inval += tb.n_miss_invalid;
        frozen += tb.n_frozen;
        badidx += tb.n_bad_idx;
        bclr += tb.n_busy_clear;
        full += tb.n_full_len;
    }
    std::printf("%llu lookup hits (%llu of 4 GiB regions), %llu one-bit-off and %llu guessed keys refused, "
                "%llu lookups of invalid entries, %llu writes to valid entries ignored, %llu keys naming another "
                "entry, %llu busy clears\n", hit, full, bit, guess, inval, frozen, badidx, bclr);
    TB_CHECK(hit > 5000 && full > 100 && bit > 5000 && guess > 5000 && inval > 1000 && frozen > 500 &&
                 badidx > 200 && bclr > 500,
             "coverage");
    return tb_finish("tg_prot");
}
