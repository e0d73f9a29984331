// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the queue table against a cycle-exact model: programming and
// readback of every entry through QSEL and through the read-only view
// (which never moves QSEL), lookup by base (lowest enabled index
// wins, disabled entries never hit), tail and full updates, the remembered
// head (set by the engine, forgotten by any driver write to the entry, the
// driver winning in the same cycle), the overflow and
// notification causes, QARM, IRQ_STATUS write-1-to-clear, the interrupt,
// and reset, under random register traffic and updates.
#include "Vtg_qtable.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned NUM_QUEUES = 16;   // the module default (the bench is built with it)
static const uint64_t M32 = 0xFFFFFFFFull;

static const uint64_t QT_REGS[] = {
    TG_CSR_REG_QSEL,       TG_CSR_REG_QBASE,    TG_CSR_REG_QCFG, TG_CSR_REG_QTAIL,
    TG_CSR_REG_IRQ_STATUS, TG_CSR_REG_IRQ_MASK, TG_CSR_REG_QARM,
};
static const unsigned NREGS = sizeof QT_REGS / sizeof QT_REGS[0];

// QCFG fields
static const unsigned QCFG_SIZE_MASK = 0x1F, QCFG_ESIZE_SHIFT = 8, QCFG_ESIZE_MASK = 0x7;

struct Ent {
    uint32_t base = 0, tail = 0;
    unsigned size = 0, esize = 0;
    bool en = false, full = false;
    bool hv = false;        // a head the engine read is remembered (hc)
    uint32_t hc = 0;
};

// One cycle's inputs.
struct In {
    bool rst = false;
    bool wr = false;
    uint16_t addr = 0;
    uint64_t wdata = 0;
    bool upd_tail = false, upd_full = false;
    unsigned upd_idx = 0;
    uint32_t upd_tail_val = 0;
    bool upd_head = false;
    uint32_t upd_head_val = 0;
};

struct Model {
    unsigned sel = 0;
    Ent e[16];
    uint32_t arm = 0, st = 0, mask = 0;

    void reset() { *this = Model(); }

    static uint64_t qcfg(const Ent &q)
    {
        return q.size | ((uint64_t)q.esize << QCFG_ESIZE_SHIFT) | (q.en ? TG_QCFG_ENABLE : 0) |
               (q.full ? TG_QCFG_FULL : 0);
    }

    bool reg_value(uint64_t off, uint64_t &v) const
    {
        const Ent &s = e[sel];
        switch (off) {
        case TG_CSR_REG_QSEL: v = sel | ((uint64_t)NUM_QUEUES << 8); return true;
        case TG_CSR_REG_QBASE: v = s.base; return true;
        case TG_CSR_REG_QCFG: v = qcfg(s); return true;
        case TG_CSR_REG_QTAIL: v = s.tail; return true;
        case TG_CSR_REG_IRQ_STATUS: v = st; return true;
        case TG_CSR_REG_IRQ_MASK: v = mask; return true;
        case TG_CSR_REG_QARM: v = arm; return true;
        }
        if (off >= TG_CSR_QVIEW_BASE && off < TG_CSR_QVIEW_BASE + 16 * TG_CSR_QVIEW_STRIDE) {
            const Ent &q = e[(off - TG_CSR_QVIEW_BASE) / TG_CSR_QVIEW_STRIDE];
            switch ((off - TG_CSR_QVIEW_BASE) % TG_CSR_QVIEW_STRIDE) {
            case TG_QVIEW_QBASE: v = q.base; break;
            case TG_QVIEW_QCFG: v = qcfg(q); break;
            case TG_QVIEW_QTAIL: v = q.tail; break;
            case TG_QVIEW_QHEAD: v = q.hv ? (1ull << 63 | q.hc) : 0; break;
            default: v = 0;   // the byte lanes inside a word read as the word: not used
            }
            return true;
        }
        v = 0;
        return false;
    }
    int lookup(uint32_t base) const
    {
        for (unsigned i = 0; i < NUM_QUEUES; i++)
            if (e[i].en && e[i].base == base) return (int)i;
        return -1;
    }
    bool irq() const { return (st & mask) != 0; }

    void clock(const In &in)
    {
        if (in.rst) {
            reset();
            return;
        }
        uint32_t bit = 1u << in.upd_idx;
        if (in.upd_tail) {
            e[in.upd_idx].tail = in.upd_tail_val & 0xFFFFFF;
            if (arm & bit) {
                arm &= ~bit;
                st |= bit << 16;
            }
        }
        if (in.upd_full) {
            e[in.upd_idx].full = true;
            st |= bit;
        }
        if (in.upd_head) {
            e[in.upd_idx].hv = true;
            e[in.upd_idx].hc = in.upd_head_val & 0xFFFFFF;
        }
        if (!in.wr) return;
        Ent &s = e[sel];
        // the driver writing an entry makes the table forget its head,
        // even one the engine reports in the same cycle
        if (in.addr == TG_CSR_REG_QBASE || in.addr == TG_CSR_REG_QCFG || in.addr == TG_CSR_REG_QTAIL) s.hv = false;
        switch (in.addr) {
        case TG_CSR_REG_QSEL: sel = in.wdata & 15; break;
        case TG_CSR_REG_QBASE: s.base = (uint32_t)in.wdata; break;
        case TG_CSR_REG_QCFG:
            s.size = in.wdata & QCFG_SIZE_MASK;
            s.esize = (in.wdata >> QCFG_ESIZE_SHIFT) & QCFG_ESIZE_MASK;
            s.en = (in.wdata & TG_QCFG_ENABLE) != 0 && sel < NUM_QUEUES;
            s.full = (in.wdata & TG_QCFG_FULL) != 0;
            break;
        case TG_CSR_REG_QTAIL: s.tail = in.wdata & 0xFFFFFF; break;
        case TG_CSR_REG_IRQ_STATUS: st &= ~(uint32_t)in.wdata; break;
        case TG_CSR_REG_IRQ_MASK: mask = (uint32_t)in.wdata; break;
        case TG_CSR_REG_QARM: arm |= in.wdata & ((1u << NUM_QUEUES) - 1) & 0xFFFF; break;
        }
    }
};

struct Tb {
    std::unique_ptr<Vtg_qtable> m;
    TbRng rng;
    Model ref;
    uint64_t cyc = 0;
    uint32_t bases[6];   // a few bases, so that entries share them
    // coverage
    uint64_t n_hits = 0, n_shadowed = 0, n_disabled_same = 0, n_notify = 0, n_overflow = 0, n_irq = 0,
             n_w1c = 0, n_arm_no_notify = 0;
    uint64_t n_head_hits = 0, n_head_forgot = 0, n_head_race = 0, n_view = 0;   // n_view: view reads of a remembered head

    explicit Tb(uint64_t seed) : m(new Vtg_qtable), rng(seed)
    {
        for (uint32_t &b : bases) b = (uint32_t)rng.next() & ~0xFFu;
        bases[0] = 0;
        bases[1] = 0xFFFFFF00u;
    }

    uint64_t read(uint64_t off)
    {
        m->csr_addr = (uint16_t)off;
        m->eval();
        return m->csr_rdata;
    }

    void check_reads(const char *what)
    {
        unsigned long long c = cyc;
        for (uint64_t off : QT_REGS) {
            uint64_t want;
            ref.reg_value(off, want);
            uint64_t got = read(off);
            TB_CHECK(got == want, "%s, cycle %llu: register %03llx = %016llx, want %016llx", what, c,
                     (unsigned long long)off, (unsigned long long)got, (unsigned long long)want);
            TB_CHECK(m->csr_hit, "%s, cycle %llu: register %03llx not claimed", what, c, (unsigned long long)off);
        }
        // two words of the view, of any entry
        for (int i = 0; i < 2; i++) {
            uint64_t off = TG_CSR_QVIEW_BASE + rng.below(16) * TG_CSR_QVIEW_STRIDE + 8 * rng.below(4), want;
            ref.reg_value(off, want);
            uint64_t got = read(off);
            TB_CHECK(m->csr_hit && got == want, "%s, cycle %llu: view %03llx hit %u = %016llx, want %016llx", what,
                     c, (unsigned long long)off, m->csr_hit, (unsigned long long)got, (unsigned long long)want);
            n_view += (off - TG_CSR_QVIEW_BASE) % TG_CSR_QVIEW_STRIDE == TG_QVIEW_QHEAD && (want >> 63);
        }
        for (int i = 0; i < 3; i++) {
            uint64_t off = rng.below(4096) & ~7ull, want;
            if (ref.reg_value(off, want)) continue;
            uint64_t got = read(off);
            TB_CHECK(!m->csr_hit && got == 0, "%s, cycle %llu: offset %03llx hit %u reads %016llx", what, c,
                     (unsigned long long)off, m->csr_hit, (unsigned long long)got);
        }
    }

    void check_lookup(uint32_t base, const char *what)
    {
        m->lk_base = base;
        m->eval();
        int want = ref.lookup(base);
        unsigned long long c = cyc;
        TB_CHECK(m->lk_hit == (want >= 0), "%s, cycle %llu: base %08x hit %u, want entry %d", what, c, base,
                 m->lk_hit, want);
        if (want < 0 || !m->lk_hit) return;
        const Ent &e = ref.e[want];
        n_hits++;
        TB_CHECK(m->lk_idx == (unsigned)want && m->lk_size_log2 == e.size && m->lk_esize_log2 == e.esize &&
                     m->lk_tail == e.tail && m->lk_full == e.full,
                 "%s, cycle %llu: base %08x -> entry %u size %u esize %u tail %06x full %u, want entry %d size %u "
                 "esize %u tail %06x full %u", what, c, base, m->lk_idx, m->lk_size_log2, m->lk_esize_log2,
                 m->lk_tail, m->lk_full, want, e.size, e.esize, e.tail, e.full);
        TB_CHECK(m->lk_head_valid == e.hv && (!e.hv || m->lk_head == e.hc),
                 "%s, cycle %llu: base %08x -> remembered head %u %06x, want %u %06x", what, c, base,
                 m->lk_head_valid, m->lk_head, e.hv, e.hc);
        n_head_hits += e.hv;
        for (unsigned i = want + 1; i < NUM_QUEUES; i++) {
            if (ref.e[i].base != base) continue;
            if (ref.e[i].en) n_shadowed++;
        }
        for (unsigned i = 0; i < (unsigned)want; i++)
            if (ref.e[i].base == base && !ref.e[i].en) n_disabled_same++;
    }

    // One clock: register reads, lookups and the interrupt are checked
    // before the edge.
    void tick(const In &in)
    {
        Vtg_qtable &q = *m;
        q.rst = in.rst;
        q.csr_wr_en = 0;
        q.upd_tail_valid = in.upd_tail;
        q.upd_full_valid = in.upd_full;
        q.upd_idx = (uint8_t)in.upd_idx;
        q.upd_tail = in.upd_tail_val & 0xFFFFFF;
        q.upd_head_valid = in.upd_head;
        q.upd_head = in.upd_head_val & 0xFFFFFF;
        q.csr_wdata = rng.next();
        q.clk = 0;
        q.eval();
        if (!in.rst) {
            check_reads("registers");
            for (uint32_t b : bases) check_lookup(b, "lookup");
            for (unsigned i = 0; i < 2; i++) check_lookup(ref.e[rng.below(16)].base + (rng.below(2) ? 0 : 8), "lookup");
            check_lookup((uint32_t)rng.next(), "lookup of a random base");
            TB_CHECK(q.irq == ref.irq(), "cycle %llu: irq %u, status %08x mask %08x", (unsigned long long)cyc, q.irq,
                     ref.st, ref.mask);
            n_irq += q.irq;
        }
        q.csr_wr_en = in.wr;
        q.csr_addr = in.addr;
        q.csr_wdata = in.wdata;
        q.lk_base = (uint32_t)rng.next();
        q.eval();
        if (!in.rst) {
            uint32_t bit = 1u << in.upd_idx;
            n_notify += in.upd_tail && (ref.arm & bit);
            n_arm_no_notify += in.upd_tail && !(ref.arm & bit);
            n_overflow += in.upd_full;
            n_w1c += in.wr && in.addr == TG_CSR_REG_IRQ_STATUS && (ref.st & in.wdata);
        }
        q.clk = 1;
        q.eval();
        ref.clock(in);
        cyc++;
    }

    void idle() { tick(In()); }
    void write(uint64_t off, uint64_t v)
    {
        In in;
        in.wr = true;
        in.addr = (uint16_t)off;
        in.wdata = v;
        tick(in);
    }
    uint64_t cfg(unsigned size, unsigned esize, bool en, bool full)
    {
        return size | ((uint64_t)esize << QCFG_ESIZE_SHIFT) | (en ? TG_QCFG_ENABLE : 0) | (full ? TG_QCFG_FULL : 0);
    }

    // Write the three registers of entry i (upper bits of the data random).
    void program(unsigned i, uint32_t base, unsigned size, unsigned esize, uint32_t tail, bool en, bool full = false)
    {
        write(TG_CSR_REG_QSEL, i | (rng.next() & ~0xFull));
        write(TG_CSR_REG_QBASE, base | (rng.next() << 32));
        write(TG_CSR_REG_QCFG, cfg(size, esize, en, full) | (rng.next() & ~0x3071Full));   // other bits ignored
        write(TG_CSR_REG_QTAIL, tail | (rng.next() << 24));
    }

    // A cycle of random traffic: a register write (any register, any data)
    // and engine updates, never both touching the same thing at once.
    void random_tick(unsigned wr_pct, unsigned upd_pct)
    {
        In in;
        if (rng.chance(wr_pct)) {
            in.wr = true;
            unsigned k = rng.below(12);
            in.addr = (uint16_t)(k < NREGS ? QT_REGS[k] : k < 10 ? QT_REGS[1 + rng.below(3)] : rng.below(4096));
            in.wdata = rng.next();
            switch (in.addr) {
            case TG_CSR_REG_QBASE: in.wdata = bases[rng.below(6)] | (rng.next() << 32); break;
            case TG_CSR_REG_QCFG: if (rng.chance(60)) in.wdata |= TG_QCFG_ENABLE; break;
            case TG_CSR_REG_IRQ_STATUS: if (rng.chance(50)) in.wdata &= rng.next(); break;
            case TG_CSR_REG_QARM: if (rng.chance(50)) in.wdata &= rng.next(); break;
            }
        }
        if (rng.chance(upd_pct)) {
            in.upd_idx = rng.below(16);
            int hit = ref.lookup(bases[rng.below(6)]);
            if (hit >= 0 && rng.chance(70)) in.upd_idx = (unsigned)hit;   // mostly entries a lookup found
            if (rng.below(3)) {
                in.upd_tail = true;
                in.upd_tail_val = (uint32_t)rng.next() & 0xFFFFFF;
            } else {
                in.upd_full = true;
            }
            if (rng.chance(50)) {   // the head read for it, as the engine reports it
                in.upd_head = true;
                in.upd_head_val = (uint32_t)rng.next() & 0xFFFFFF;
            }
        }
        if (in.wr && ref.e[ref.sel].hv &&
            (in.addr == TG_CSR_REG_QBASE || in.addr == TG_CSR_REG_QCFG || in.addr == TG_CSR_REG_QTAIL))
            n_head_forgot++;
        n_head_race += in.wr && in.upd_head && ref.sel == in.upd_idx &&
                       (in.addr == TG_CSR_REG_QBASE || in.addr == TG_CSR_REG_QCFG || in.addr == TG_CSR_REG_QTAIL);
        // The same-cycle order of a register write and an update of the
        // same field is not part of the contract: keep them apart.
        if (in.wr && (in.upd_tail || in.upd_full)) {
            uint32_t bit = 1u << in.upd_idx;
            bool clash = false;
            switch (in.addr) {
            case TG_CSR_REG_QCFG: clash = in.upd_full && ref.sel == in.upd_idx; break;
            case TG_CSR_REG_QTAIL: clash = in.upd_tail && ref.sel == in.upd_idx; break;
            case TG_CSR_REG_IRQ_STATUS: clash = (in.wdata & ((uint64_t)bit | ((uint64_t)bit << 16))) != 0; break;
            case TG_CSR_REG_QARM: clash = in.upd_tail && (in.wdata & bit); break;
            }
            if (clash) in.upd_tail = in.upd_full = false;
        }
        tick(in);
    }

    void reset()
    {
        In in;
        in.rst = true;
        for (int i = 0; i < 2; i++) {
            in.wr = rng.below(2);
            in.addr = (uint16_t)QT_REGS[rng.below(NREGS)];
            in.wdata = rng.next();
            in.upd_tail = rng.below(2);
            in.upd_full = rng.below(2);
            tick(in);
        }
    }

    // Every entry read back through the view, then through QSEL.
    void readback(const char *what)
    {
        unsigned sel = ref.sel;
        for (unsigned i = 0; i < 16; i++) {
            for (uint64_t f = 0; f < TG_CSR_QVIEW_STRIDE; f += 8) {
                uint64_t off = TG_CSR_QVIEW_BASE + i * TG_CSR_QVIEW_STRIDE + f, want, got = read(off);
                ref.reg_value(off, want);
                TB_CHECK(got == want, "%s: entry %u view word %02llx = %016llx, want %016llx", what, i,
                         (unsigned long long)f, (unsigned long long)got, (unsigned long long)want);
            }
        }
        TB_CHECK(read(TG_CSR_REG_QSEL) == (sel | (NUM_QUEUES << 8)), "%s: reading the view moved QSEL", what);
        for (unsigned i = 0; i < 16; i++) {
            write(TG_CSR_REG_QSEL, i);
            for (uint64_t off : {TG_CSR_REG_QSEL, TG_CSR_REG_QBASE, TG_CSR_REG_QCFG, TG_CSR_REG_QTAIL}) {
                uint64_t want, got = read(off);
                ref.reg_value(off, want);
                TB_CHECK(got == want, "%s: entry %u register %03llx = %016llx, want %016llx", what, i,
                         (unsigned long long)off, (unsigned long long)got, (unsigned long long)want);
            }
        }
    }
};

// Reset values: every entry cleared and disabled, nothing pending.
static void reset_values(Tb &tb)
{
    tb.idle();
    for (unsigned i = 0; i < 16; i++) {
        tb.write(TG_CSR_REG_QSEL, i);
        tb.idle();
        TB_CHECK(tb.read(TG_CSR_REG_QSEL) == (i | (NUM_QUEUES << 8)), "QSEL after selecting %u: %016llx", i,
                 (unsigned long long)tb.read(TG_CSR_REG_QSEL));
        TB_CHECK(tb.read(TG_CSR_REG_QBASE) == 0 && tb.read(TG_CSR_REG_QCFG) == 0 && tb.read(TG_CSR_REG_QTAIL) == 0,
                 "entry %u not cleared by reset", i);
    }
    TB_CHECK(tb.read(TG_CSR_REG_IRQ_STATUS) == 0 && tb.read(TG_CSR_REG_IRQ_MASK) == 0 && tb.read(TG_CSR_REG_QARM) == 0,
             "interrupt registers not cleared by reset");
    TB_CHECK(!tb.m->irq, "irq after reset");
    tb.m->lk_base = 0;
    tb.m->eval();
    TB_CHECK(!tb.m->lk_hit, "a disabled entry (base 0 after reset) hits");
}

// Every register of every entry, edge values, read back through QSEL, with
// no entry's writes reaching another.
static void program_phase(Tb &tb)
{
    const uint32_t bases[] = {0, 0xFFFFFFFFu, 0x80000000u, 0x12345600u};
    for (unsigned rep = 0; rep < 4; rep++) {
        for (unsigned i = 0; i < 16; i++) {
            uint32_t base = rep < 4 && tb.rng.chance(30) ? bases[tb.rng.below(4)] : (uint32_t)tb.rng.next();
            unsigned size = tb.rng.below(32), esize = tb.rng.below(8);
            uint32_t tail = tb.rng.chance(20) ? 0xFFFFFF : (uint32_t)tb.rng.next() & 0xFFFFFF;
            tb.program(i, base, size, esize, tail, tb.rng.below(2), tb.rng.below(2));
        }
        tb.readback("after programming");
    }
    // QSEL keeps only its 4 bits; the upper bits of the data are ignored
    for (unsigned i = 0; i < 8; i++) {
        tb.write(TG_CSR_REG_QSEL, tb.rng.next());
        tb.idle();
    }
}

// Lookup: equal bases at several entries, the lowest enabled wins, and
// disabled entries never hit, whatever they hold.
static void lookup_phase(Tb &tb)
{
    const uint32_t B = 0x00012000u, C = 0x00040000u;
    for (unsigned i = 0; i < 16; i++) tb.program(i, 0x1000u * (i + 1), 8, 3, TG_Q_SLOTS, false);
    // every entry alone holds B: only its enable decides
    for (unsigned i = 0; i < 16; i++) {
        tb.program(i, B, 10 + i % 8, i % 8, TG_Q_SLOTS + 8 * i, false);
        tb.idle();
        TB_CHECK(tb.ref.lookup(B) < 0, "bench: B enabled");
        tb.write(TG_CSR_REG_QCFG, tb.cfg(10 + i % 8, i % 8, true, i & 1));
        tb.idle();
        tb.m->lk_base = B;
        tb.m->eval();
        TB_CHECK(tb.m->lk_hit && tb.m->lk_idx == i, "B only at entry %u: hit %u entry %u", i, tb.m->lk_hit,
                 tb.m->lk_idx);
        tb.write(TG_CSR_REG_QCFG, tb.cfg(10 + i % 8, i % 8, false, i & 1));
        tb.program(i, 0x1000u * (i + 1), 8, 3, TG_Q_SLOTS, false);
    }
    // B at several entries, enabled in random patterns
    for (int rep = 0; rep < 200; rep++) {
        unsigned i = tb.rng.below(16);
        tb.program(i, tb.rng.chance(60) ? B : C, tb.rng.below(32), tb.rng.below(8), (uint32_t)tb.rng.next() & 0xFFFFFF,
                   tb.rng.chance(40), tb.rng.below(2));
        tb.idle();
    }
}

// QARM sets bits (never clears), a tail update of an armed queue raises its
// notification and disarms it, one that is not armed raises nothing; a full
// mark raises the overflow cause; IRQ_STATUS bits clear only where written
// with 1; irq = status & mask.
static void irq_phase(Tb &tb)
{
    tb.write(TG_CSR_REG_IRQ_STATUS, M32);
    tb.write(TG_CSR_REG_IRQ_MASK, 0);
    for (unsigned i = 0; i < 16; i++) {
        In in;
        tb.write(TG_CSR_REG_QARM, 1u << i);
        tb.write(TG_CSR_REG_QARM, 0);            // writing zeros disarms nothing
        in.upd_tail = true;
        in.upd_idx = i;
        in.upd_tail_val = TG_Q_SLOTS + 8 * i;
        tb.tick(in);                              // notifies, disarms
        TB_CHECK((tb.read(TG_CSR_REG_IRQ_STATUS) >> 16) == (1u << i) && tb.read(TG_CSR_REG_QARM) == 0,
                 "queue %u: status %llx arm %llx after an armed update", i,
                 (unsigned long long)tb.read(TG_CSR_REG_IRQ_STATUS), (unsigned long long)tb.read(TG_CSR_REG_QARM));
        tb.tick(in);                              // not armed any more: nothing new
        TB_CHECK(!tb.m->irq, "queue %u: irq with an empty mask", i);
        tb.write(TG_CSR_REG_IRQ_MASK, 1u << (16 + i));
        TB_CHECK(tb.m->irq, "queue %u: no irq for an enabled notification", i);
        tb.write(TG_CSR_REG_IRQ_STATUS, ~(1u << (16 + i)));   // other bits: nothing clears
        TB_CHECK(tb.m->irq, "queue %u: notification cleared by a write of 0", i);
        tb.write(TG_CSR_REG_IRQ_STATUS, 1u << (16 + i));
        TB_CHECK(!tb.m->irq, "queue %u: irq after clearing its notification", i);
        in.upd_tail = false;
        in.upd_full = true;
        tb.tick(in);
        TB_CHECK(tb.read(TG_CSR_REG_IRQ_STATUS) == (1u << i), "queue %u: status %llx after a full mark", i,
                 (unsigned long long)tb.read(TG_CSR_REG_IRQ_STATUS));
        TB_CHECK(!tb.m->irq, "queue %u: overflow interrupts while masked", i);
        tb.write(TG_CSR_REG_IRQ_MASK, M32 & ~(1u << i));
        TB_CHECK(!tb.m->irq, "queue %u: overflow interrupts while masked", i);
        tb.write(TG_CSR_REG_IRQ_MASK, 1u << i);
        TB_CHECK(tb.m->irq, "queue %u: no irq for an enabled overflow", i);
        tb.write(TG_CSR_REG_IRQ_STATUS, 1u << i);
        tb.idle();
    }
    // several armed at once, updates in random order
    tb.write(TG_CSR_REG_IRQ_MASK, M32);
    for (int rep = 0; rep < 50; rep++) {
        tb.write(TG_CSR_REG_QARM, tb.rng.next());
        for (int k = 0; k < 10; k++) {
            In in;
            in.upd_tail = tb.rng.below(2);
            in.upd_full = !in.upd_tail && tb.rng.chance(30);
            in.upd_idx = tb.rng.below(16);
            in.upd_tail_val = (uint32_t)tb.rng.next();
            tb.tick(in);
        }
        tb.write(TG_CSR_REG_IRQ_STATUS, tb.rng.next());
    }
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Cfg { unsigned wr_pct, upd_pct; };
    const Cfg cfgs[] = {{5, 5}, {30, 20}, {70, 50}, {95, 90}};
    uint64_t seed = 1, hits = 0, shadowed = 0, disabled = 0, notify = 0, overflow = 0, irq = 0, w1c = 0, plain = 0;
    uint64_t head_hits = 0, head_forgot = 0, head_race = 0, view_head = 0;
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed++ * 0x510E527Fu);
            tb.reset();
            reset_values(tb);
            program_phase(tb);
            lookup_phase(tb);
            irq_phase(tb);
            for (int i = 0; i < 4000; i++) tb.random_tick(c.wr_pct, c.upd_pct);
            tb.readback("after random traffic");
            // reset in the middle of traffic clears everything
            tb.reset();
            reset_values(tb);
            for (int i = 0; i < 2000; i++) tb.random_tick(c.wr_pct, c.upd_pct);
            tb.readback("after traffic following reset");
            hits += tb.n_hits;
            shadowed += tb.n_shadowed;
            disabled += tb.n_disabled_same;
            notify += tb.n_notify;
            overflow += tb.n_overflow;
            irq += tb.n_irq;
            w1c += tb.n_w1c;
            plain += tb.n_arm_no_notify;
            head_hits += tb.n_head_hits;
            head_forgot += tb.n_head_forgot;
            head_race += tb.n_head_race;
            view_head += tb.n_view;
        }
    }
    std::printf("remembered head: %llu lookups found one, %llu forgotten by a driver write, %llu of those in the "
                "cycle the engine reported one\n", (unsigned long long)head_hits, (unsigned long long)head_forgot,
                (unsigned long long)head_race);
    std::printf("view: %llu reads of a remembered head\n", (unsigned long long)view_head);
    TB_CHECK(view_head > 1000, "view coverage: %llu", (unsigned long long)view_head);
    TB_CHECK(head_hits > 5000 && head_forgot > 300 && head_race > 20, "remembered-head coverage");
    std::printf("%llu lookup hits (%llu over a higher enabled entry, %llu past a lower disabled one), %llu "
                "notifications, %llu updates not armed, %llu overflows, %llu clears, %llu cycles of irq\n",
                (unsigned long long)hits, (unsigned long long)shadowed, (unsigned long long)disabled,
                (unsigned long long)notify, (unsigned long long)plain, (unsigned long long)overflow,
                (unsigned long long)w1c, (unsigned long long)irq);
    TB_CHECK(hits > 10000 && shadowed > 1000 && disabled > 1000, "lookup coverage: %llu hits, %llu shadowed, "
             "%llu past disabled", (unsigned long long)hits, (unsigned long long)shadowed, (unsigned long long)disabled);
    TB_CHECK(notify > 500 && plain > 500 && overflow > 500 && w1c > 500 && irq > 1000,
             "interrupt coverage: %llu notifications, %llu plain updates, %llu overflows, %llu clears, %llu irq",
             (unsigned long long)notify, (unsigned long long)plain, (unsigned long long)overflow,
             (unsigned long long)w1c, (unsigned long long)irq);
    return tb_finish("tg_qtable");
}
