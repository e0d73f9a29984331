// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the CSR page against a cycle-exact model: identity, node id,
// MAC, CONFIG, the cycle counter, read/write registers, every event counter
// and timestamp under random (also simultaneous) pulses, unknown offsets and
// reset values.
#include "Vtg_csr.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

// module defaults (the bench is built with them)
static const unsigned NUM_CTX = 16;
static const unsigned MAX_READS = 8;

enum { NCNT = 8, NTS = 5, NEV = NCNT + NTS };

// counter registers, in the order of the event inputs set by set_events()
static const uint64_t CNT_REG[NCNT] = {
    TG_CSR_REG_TX_FRAMES,       TG_CSR_REG_RX_FRAMES,   TG_CSR_REG_RX_DROP_FCS,
    TG_CSR_REG_RX_DROP_TYPE,    TG_CSR_REG_RX_DROP_MALFORMED,
    TG_CSR_REG_RX_REFUSED,      TG_CSR_REG_HOST_ERRORS, TG_CSR_REG_RX_STRAY,
};
static const char *const CNT_NAME[NCNT] = {
    "TX_FRAMES", "RX_FRAMES", "RX_DROP_FCS", "RX_DROP_TYPE", "RX_DROP_MALFORMED",
    "RX_REFUSED", "HOST_ERRORS", "RX_STRAY",
};
static const uint64_t TS_REG[NTS] = {
    TG_CSR_REG_TS_HOST_REQ, TG_CSR_REG_TS_TX_START, TG_CSR_REG_TS_RX_END,
    TG_CSR_REG_TS_RX_DONE,  TG_CSR_REG_TS_HOST_RESP,
};
static const char *const TS_NAME[NTS] = {"TS_HOST_REQ", "TS_TX_START", "TS_RX_END", "TS_RX_DONE", "TS_HOST_RESP"};

static void set_events(Vtg_csr &m, unsigned ev)
{
    m.ev_tx_frame       = (ev >> 0) & 1;
    m.ev_rx_frame       = (ev >> 1) & 1;
    m.ev_drop_fcs       = (ev >> 2) & 1;
    m.ev_drop_type      = (ev >> 3) & 1;
    m.ev_drop_malformed = (ev >> 4) & 1;
    m.ev_refused        = (ev >> 5) & 1;
    m.ev_host_error     = (ev >> 6) & 1;
    m.ev_stray          = (ev >> 7) & 1;
    m.ev_host_req       = (ev >> 8) & 1;
    m.ev_tx_start       = (ev >> 9) & 1;
    m.ev_rx_end         = (ev >> 10) & 1;
    m.ev_rx_done        = (ev >> 11) & 1;
    m.ev_host_resp      = (ev >> 12) & 1;
}

// Reference state of the page.
struct Model {
    uint64_t cycles = 0, mem_size = 0, scratch = 0;
    uint64_t cnt[NCNT] = {};
    uint64_t ts[NTS] = {};
    uint16_t node = 0;
    uint64_t read_timeout = TG_READ_TIMEOUT_RESET;

    void reset()
    {
        uint16_t n = node;
        *this = Model();
        node = n;
    }

    // value a read of `off` must return
    bool known(uint64_t off, uint64_t &v) const
    {
        switch (off) {
        case TG_CSR_REG_ID:
            v = (TG_ID_MAGIC << 32) | (TG_VERSION_MAJOR << 16) | TG_VERSION_MINOR;
            return true;
        case TG_CSR_REG_NODE_ID: v = node; return true;
        case TG_CSR_REG_CYCLES: v = cycles; return true;
        case TG_CSR_REG_MEM_SIZE: v = mem_size; return true;
        case TG_CSR_REG_MAC: v = (TG_MAC_OUI << 24) | node; return true;
        case TG_CSR_REG_CONFIG: v = NUM_CTX | (MAX_READS << 8); return true;
        case TG_CSR_REG_SCRATCH: v = scratch; return true;
        case TG_CSR_REG_READ_TIMEOUT: v = read_timeout; return true;
        }
        for (unsigned i = 0; i < NCNT; i++)
            if (off == CNT_REG[i]) { v = cnt[i]; return true; }
        for (unsigned i = 0; i < NTS; i++)
            if (off == TS_REG[i]) { v = ts[i]; return true; }
        v = 0;
        return false;
    }

    void clock(bool rst, unsigned ev, bool wr, uint64_t off, uint64_t wdata)
    {
        if (rst) {
            reset();
            return;
        }
        for (unsigned i = 0; i < NCNT; i++) cnt[i] += (ev >> i) & 1;
        for (unsigned i = 0; i < NTS; i++)
            if ((ev >> (NCNT + i)) & 1) ts[i] = cycles;
        if (wr && off == TG_CSR_REG_MEM_SIZE) mem_size = wdata & 0xFFFFFFFFull;
        if (wr && off == TG_CSR_REG_SCRATCH) scratch = wdata;
        if (wr && off == TG_CSR_REG_READ_TIMEOUT) read_timeout = wdata & 0xFFFFFFFFull;
        cycles++;
    }
};

static const uint64_t ALL_REGS[] = {
    TG_CSR_REG_ID, TG_CSR_REG_NODE_ID, TG_CSR_REG_CYCLES, TG_CSR_REG_MEM_SIZE, TG_CSR_REG_MAC,
    TG_CSR_REG_CONFIG, TG_CSR_REG_SCRATCH, TG_CSR_REG_READ_TIMEOUT, TG_CSR_REG_TX_FRAMES, TG_CSR_REG_RX_FRAMES,
    TG_CSR_REG_RX_DROP_FCS, TG_CSR_REG_RX_DROP_TYPE, TG_CSR_REG_RX_DROP_MALFORMED,
    TG_CSR_REG_RX_REFUSED, TG_CSR_REG_HOST_ERRORS, TG_CSR_REG_RX_STRAY, TG_CSR_REG_TS_HOST_REQ,
    TG_CSR_REG_TS_TX_START, TG_CSR_REG_TS_RX_END, TG_CSR_REG_TS_RX_DONE, TG_CSR_REG_TS_HOST_RESP,
};

struct Tb {
    std::unique_ptr<Vtg_csr> m;
    TbRng rng;
    Model ref;
    uint64_t cyc = 0;
    unsigned ev_pct = 10;       // chance of each event in a cycle
    unsigned burst_pct = 2;     // chance that every event fires at once
    unsigned wr_pct = 5;
    uint64_t ev_seen[NEV] = {};

    explicit Tb(uint64_t seed) : m(new Vtg_csr), rng(seed) {}

    uint64_t read(uint64_t off)
    {
        m->csr_addr = (uint16_t)off;
        m->eval();
        return m->csr_rdata;
    }

    void check_regs(const char *what)
    {
        for (uint64_t off : ALL_REGS) {
            uint64_t want;
            ref.known(off, want);
            uint64_t got = read(off);
            TB_CHECK(got == want, "%s, cycle %llu: register %03llx = %016llx, want %016llx", what,
                     (unsigned long long)cyc, (unsigned long long)off, (unsigned long long)got,
                     (unsigned long long)want);
        }
        // a few offsets outside the map, aligned or not
        for (int i = 0; i < 4; i++) {
            uint64_t off = rng.below(4096), want;
            if (ref.known(off, want)) continue;
            uint64_t got = read(off);
            TB_CHECK(got == 0, "%s: unknown offset %03llx reads %016llx", what, (unsigned long long)off,
                     (unsigned long long)got);
        }
        TB_CHECK(m->cycles == ref.cycles, "%s: cycles port %llu, want %llu", what,
                 (unsigned long long)m->cycles, (unsigned long long)ref.cycles);
        TB_CHECK(m->cfg_mem_size == ref.mem_size, "%s: cfg_mem_size %08x, want %08llx", what, m->cfg_mem_size,
                 (unsigned long long)ref.mem_size);
    }

    // Every one of the 4096 offsets: registers hold their model value, the
    // rest read zero.
    void sweep(const char *what)
    {
        m->csr_wr_en = 0;
        set_events(*m, 0);
        m->clk = 0;
        m->eval();
        for (uint64_t off = 0; off < 4096; off++) {
            uint64_t want;
            bool k = ref.known(off, want);
            uint64_t got = read(off);
            TB_CHECK(got == want, "%s: offset %03llx (%s) = %016llx, want %016llx", what, (unsigned long long)off,
                     k ? "register" : "unknown", (unsigned long long)got, (unsigned long long)want);
        }
    }

    unsigned pick_events()
    {
        if (rng.chance(burst_pct)) return (1u << NEV) - 1;
        unsigned ev = 0;
        for (unsigned i = 0; i < NEV; i++)
            if (rng.chance(ev_pct)) ev |= 1u << i;
        return ev;
    }

    // One clock: events, an optional write, and reads of every register
    // before the edge.
    void tick(bool rst = false, unsigned ev = 0, bool wr = false, uint64_t off = 0, uint64_t wdata = 0)
    {
        m->rst = rst;
        m->cfg_node_id = ref.node;
        set_events(*m, ev);
        m->csr_wr_en = 0;
        m->clk = 0;
        m->eval();
        if (!rst) check_regs("traffic");
        m->csr_wr_en = wr;
        m->csr_addr = (uint16_t)off;
        m->csr_wdata = wdata;
        m->eval();
        m->clk = 1;
        m->eval();
        ref.clock(rst, ev, wr, off, wdata);
        if (!rst)
            for (unsigned i = 0; i < NEV; i++) ev_seen[i] += (ev >> i) & 1;
        cyc++;
    }

    void random_tick()
    {
        unsigned ev = pick_events();
        bool wr = rng.chance(wr_pct);
        uint64_t off, wdata = rng.next();
        switch (rng.below(5)) {
        case 4: off = TG_CSR_REG_READ_TIMEOUT; break;
        case 0: off = TG_CSR_REG_MEM_SIZE; break;
        case 1: off = TG_CSR_REG_SCRATCH; break;
        case 2: off = ALL_REGS[rng.below(sizeof ALL_REGS / sizeof ALL_REGS[0])]; break;  // read-only ones ignore it
        default: off = rng.below(4096); break;
        }
        tick(false, ev, wr, off, wdata);
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true, pick_events(), rng.chance(50), TG_CSR_REG_SCRATCH, rng.next());
    }
};

// Every single event alone: exactly its own counter or timestamp moves.
static void single_events(Tb &tb)
{
    for (unsigned e = 0; e < NEV; e++) {
        for (unsigned k = 0; k < 3; k++) {
            tb.tick(false, 1u << e);
            tb.tick();
        }
    }
    tb.sweep("after single events");
}

// Write and read back the read/write registers with edge values.
static void rw_regs(Tb &tb)
{
    const uint64_t vals[] = {0, ~0ull, 0x0123456789ABCDEFull, 0xFFFFFFFF00000000ull, 0x00000000FFFFFFFFull, 1};
    for (uint64_t v : vals) {
        tb.tick(false, 0, true, TG_CSR_REG_MEM_SIZE, v);
        tb.tick(false, 0, true, TG_CSR_REG_SCRATCH, ~v);
        tb.tick(false, 0, true, TG_CSR_REG_READ_TIMEOUT, v ^ 0x5555);
        tb.tick();
    }
    // writes to read-only registers and unknown offsets change nothing
    for (uint64_t off : ALL_REGS) tb.tick(false, 0, true, off, tb.rng.next());
    for (int i = 0; i < 64; i++) tb.tick(false, 0, true, tb.rng.below(4096), tb.rng.next());
    tb.sweep("after writes");
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Cfg { unsigned ev_pct, burst_pct, wr_pct; };
    const Cfg cfgs[] = {{2, 0, 2}, {20, 5, 10}, {60, 20, 30}, {95, 50, 50}};
    uint64_t seed = 1;
    uint64_t seen[NEV] = {};
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed++ * 0x9E3779B1u);
            tb.ref.node = (uint16_t)tb.rng.next();
            if (rep == 1) tb.ref.node = 0xFFFF;
            tb.ev_pct = c.ev_pct;
            tb.burst_pct = c.burst_pct;
            tb.wr_pct = c.wr_pct;
            tb.reset();
            tb.sweep("reset values");
            single_events(tb);
            rw_regs(tb);
            for (int i = 0; i < 3000; i++) tb.random_tick();
            tb.sweep("after random traffic");
            // reset in the middle of traffic clears everything but the straps
            tb.reset();
            tb.sweep("reset during traffic");
            // the node id strap is read live
            tb.ref.node = (uint16_t)tb.rng.next();
            tb.tick();
            for (int i = 0; i < 1500; i++) tb.random_tick();
            tb.sweep("after traffic following reset");
            for (unsigned i = 0; i < NEV; i++) seen[i] += tb.ev_seen[i];
        }
    }
    for (unsigned i = 0; i < NCNT; i++)
        TB_CHECK(seen[i] > 1000, "%s pulsed only %llu times", CNT_NAME[i], (unsigned long long)seen[i]);
    for (unsigned i = 0; i < NTS; i++)
        TB_CHECK(seen[NCNT + i] > 1000, "%s pulsed only %llu times", TS_NAME[i], (unsigned long long)seen[NCNT + i]);
    return tb_finish("tg_csr");
}
