// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the CSR page against a cycle-exact model: identity, node id,
// MAC, CONFIG, the cycle counter, read/write registers, every event counter
// and timestamp under random pulses, every event in the same cycle and in
// back-to-back cycles (every register read in every cycle, so also while
// the counter table's flush writes the row read, with counts pending),
// counters wrapping at CNT_W, edges that stand for skipped cycles, reads of
// the queue table's registers passed through, unknown offsets, reset values
// and a reset with counts pending. Built twice: at the module's defaults,
// and with 16-bit counters and no link layer (TB_CNT_W, TB_LINK).
#include "Vtg_csr.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

// module defaults (the bench is built with them)
static const unsigned NUM_CTX = 16;
static const unsigned MAX_READS = 8;
static const unsigned NUM_QUEUES = 16;
static const unsigned BLOCK_BYTES = 64;
#ifndef TB_CNT_W
#define TB_CNT_W 64
#endif
static const uint64_t CNT_MASK = TB_CNT_W >= 64 ? ~0ull : (1ull << TB_CNT_W) - 1;
// LINK_LAYER: without the link layer its counters (13..19) read 0
#ifndef TB_LINK
#define TB_LINK 1
#endif
static bool counted(unsigned i) { return TB_LINK || i < 13 || i > 19; }

enum { NCNT = 21, NTS = 6, NEV = NCNT + NTS };
// cycles of a quiet run or of a run of events: one per counter and
// timestamp, more than the counter table's flush takes to visit every row
static const unsigned RUN_CYCLES = NEV;
static const unsigned ALL_EVENTS = (1u << NEV) - 1;

// counter registers, in the order of the event inputs set by set_events()
static const uint64_t CNT_REG[NCNT] = {
    TG_CSR_REG_TX_FRAMES,       TG_CSR_REG_RX_FRAMES,   TG_CSR_REG_RX_DROP_FCS,
    TG_CSR_REG_RX_DROP_TYPE,    TG_CSR_REG_RX_DROP_MALFORMED,
    TG_CSR_REG_RX_REFUSED,      TG_CSR_REG_HOST_ERRORS, TG_CSR_REG_RX_STRAY,
    TG_CSR_REG_REQ_ACCEPTED,    TG_CSR_REG_REQ_REFUSED, TG_CSR_REG_REQ_RETRIES,
    TG_CSR_REG_ATOMICS,         TG_CSR_REG_REQ_SPILLED,
    TG_CSR_REG_LINK_RETX,       TG_CSR_REG_LINK_DUP_DROP, TG_CSR_REG_LINK_OOO_DROP,
    TG_CSR_REG_LINK_BUSY_DROP,  TG_CSR_REG_LINK_NAKS_SENT, TG_CSR_REG_LINK_ACKS_SENT,
    TG_CSR_REG_LINK_PEER_GONE,  TG_CSR_REG_PROT_REFUSED,
};
static const char *const CNT_NAME[NCNT] = {
    "TX_FRAMES", "RX_FRAMES", "RX_DROP_FCS", "RX_DROP_TYPE", "RX_DROP_MALFORMED",
    "RX_REFUSED", "HOST_ERRORS", "RX_STRAY", "REQ_ACCEPTED", "REQ_REFUSED", "REQ_RETRIES",
    "ATOMICS", "REQ_SPILLED", "LINK_RETX", "LINK_DUP_DROP", "LINK_OOO_DROP", "LINK_BUSY_DROP",
    "LINK_NAKS_SENT", "LINK_ACKS_SENT", "LINK_PEER_GONE", "PROT_REFUSED",
};
static const uint64_t TS_REG[NTS] = {
    TG_CSR_REG_TS_HOST_REQ, TG_CSR_REG_TS_TX_START, TG_CSR_REG_TS_RX_END,
    TG_CSR_REG_TS_RX_DONE,  TG_CSR_REG_TS_HOST_RESP, TG_CSR_REG_TS_ENQ_DONE,
};
static const char *const TS_NAME[NTS] = {"TS_HOST_REQ", "TS_TX_START", "TS_RX_END",
                                         "TS_RX_DONE",  "TS_HOST_RESP", "TS_ENQ_DONE"};

// the queue table's registers, read through this page
static const uint64_t QT_REG[] = {
    TG_CSR_REG_QSEL,       TG_CSR_REG_QBASE,    TG_CSR_REG_QCFG, TG_CSR_REG_QTAIL,
    TG_CSR_REG_IRQ_STATUS, TG_CSR_REG_IRQ_MASK, TG_CSR_REG_QARM,
};
static bool is_qt_reg(uint64_t off)
{
    for (uint64_t r : QT_REG)
        if (off == r) return true;
    return false;
}
// what the queue table answers at an offset (changes with `salt`)
static uint64_t qt_value(uint64_t off, uint64_t salt)
{
    return (0x5154000000000000ull | (off << 20)) ^ (salt * 0x9E3779B97F4A7C15ull);
}

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
    m.ev_req_accepted   = (ev >> 8) & 1;
    m.ev_req_refused    = (ev >> 9) & 1;
    m.ev_req_retry      = (ev >> 10) & 1;
    m.ev_atomic         = (ev >> 11) & 1;
    m.ev_spill          = (ev >> 12) & 1;
    m.ev_link_retx      = (ev >> 13) & 1;
    m.ev_link_dup_drop  = (ev >> 14) & 1;
    m.ev_link_ooo_drop  = (ev >> 15) & 1;
    m.ev_link_busy_drop = (ev >> 16) & 1;
    m.ev_link_nak_sent  = (ev >> 17) & 1;
    m.ev_link_ack_sent  = (ev >> 18) & 1;
    m.ev_link_gone_drop = (ev >> 19) & 1;
    m.ev_prot_refused   = (ev >> 20) & 1;
    m.ev_host_req       = (ev >> 21) & 1;
    m.ev_tx_start       = (ev >> 22) & 1;
    m.ev_rx_end         = (ev >> 23) & 1;
    m.ev_rx_done        = (ev >> 24) & 1;
    m.ev_host_resp      = (ev >> 25) & 1;
    m.ev_enq_done       = (ev >> 26) & 1;
}

// How the bench's queue table answers: as the real one (its registers
// only), never, or at every offset (the page's own registers still win).
enum QtMode { QT_REAL, QT_NONE, QT_ALL };

// Reference state of the page.
struct Model {
    uint64_t cycles = 0, mem_size = 0, scratch = 0;
    uint64_t cnt[NCNT] = {};
    uint64_t ts[NTS] = {};
    uint16_t node = 0;
    uint32_t clock_khz = 0;     // the strap, read live
    uint64_t read_timeout = TG_READ_TIMEOUT_RESET;
    uint64_t req_backoff = TG_REQ_BACKOFF_RESET;
    uint64_t spill_base = 0, spill_log2 = 0;
    uint32_t spill_count = 0;   // the spill unit's input, read live
    uint64_t link_cfg = TG_LINK_CFG_RESET, link_rto = TG_LINK_RTO_RESET, link_rx_wait = TG_LINK_RX_WAIT_RESET;
    bool gone_any = false;      // the link transmitter's status, read live
    bool link_on = false;       // the path in use, read live
    uint16_t gone_peer = 0;
    QtMode qt = QT_REAL;
    uint64_t qt_salt = 0;

    void reset()
    {
        uint16_t n = node;
        uint32_t k = clock_khz;
        QtMode q = qt;
        uint64_t salt = qt_salt;
        uint32_t sc = spill_count;
        bool ga = gone_any;
        uint16_t gp = gone_peer;
        *this = Model();
        spill_count = sc;
        gone_any = ga;
        gone_peer = gp;
        node = n;
        clock_khz = k;
        qt = q;
        qt_salt = salt;
    }
    bool qt_hit(uint64_t off) const { return qt == QT_ALL || (qt == QT_REAL && is_qt_reg(off)); }

    // value a read of `off` must return
    bool known(uint64_t off, uint64_t &v) const
    {
        switch (off) {
        case TG_CSR_REG_ID:
            v = (TG_ID_MAGIC << 32) | (TG_VERSION_MAJOR << 16) | TG_VERSION_MINOR;
            return true;
        case TG_CSR_REG_NODE_ID: v = node; return true;
        case TG_CSR_REG_CLOCK_KHZ: v = clock_khz; return true;
        case TG_CSR_REG_CYCLES: v = cycles; return true;
        case TG_CSR_REG_MEM_SIZE: v = mem_size; return true;
        case TG_CSR_REG_MAC: v = (TG_MAC_OUI << 24) | node; return true;
        case TG_CSR_REG_CONFIG:
            v = NUM_CTX | (MAX_READS << 8) | (NUM_QUEUES << 16) | ((uint64_t)BLOCK_BYTES << 24) |
                TG_CONFIG_SPILL | (TB_LINK ? TG_CONFIG_LINK : 0);
            return true;
        case TG_CSR_REG_SCRATCH: v = scratch; return true;
        case TG_CSR_REG_READ_TIMEOUT: v = read_timeout; return true;
        case TG_CSR_REG_REQ_BACKOFF: v = req_backoff; return true;
        case TG_CSR_REG_SPILL_BASE: v = spill_base; return true;
        case TG_CSR_REG_SPILL_CFG: v = ((uint64_t)spill_count << 32) | spill_log2; return true;
        case TG_CSR_REG_LINK_CFG: v = link_cfg | ((uint64_t)link_on << 32); return true;
        case TG_CSR_REG_LINK_RTO: v = link_rto; return true;
        case TG_CSR_REG_LINK_RX_WAIT: v = link_rx_wait; return true;
        case TG_CSR_REG_LINK_GONE: v = ((uint64_t)gone_any << 63) | gone_peer; return true;
        }
        for (unsigned i = 0; i < NCNT; i++)
            if (off == CNT_REG[i]) { v = counted(i) ? cnt[i] & CNT_MASK : 0; return true; }
        for (unsigned i = 0; i < NTS; i++)
            if (off == TS_REG[i]) { v = ts[i]; return true; }
        // not the page's own: the queue table's answer, if it claims the offset
        v = qt_hit(off) ? qt_value(off, qt_salt) : 0;
        return is_qt_reg(off);
    }

    void clock(bool rst, unsigned ev, bool wr, uint64_t off, uint64_t wdata, uint32_t skip)
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
        if (wr && off == TG_CSR_REG_REQ_BACKOFF) req_backoff = wdata & 0xFFFFFFFFull;
        if (wr && off == TG_CSR_REG_SPILL_BASE) spill_base = wdata & 0xFFFFFFFFull;
        if (wr && off == TG_CSR_REG_SPILL_CFG) spill_log2 = wdata & 0x1F;
        if (wr && off == TG_CSR_REG_LINK_CFG) link_cfg = wdata & 0xFFFFFF01ull;
        if (wr && off == TG_CSR_REG_LINK_RTO) link_rto = wdata & 0xFFFFFFFFull;
        if (wr && off == TG_CSR_REG_LINK_RX_WAIT) link_rx_wait = wdata & 0xFFFFFFFFull;
        cycles += 1 + (uint64_t)skip;
    }
};

static const uint64_t ALL_REGS[] = {
    TG_CSR_REG_ID, TG_CSR_REG_NODE_ID, TG_CSR_REG_CYCLES, TG_CSR_REG_MEM_SIZE, TG_CSR_REG_MAC,
    TG_CSR_REG_CONFIG, TG_CSR_REG_SCRATCH, TG_CSR_REG_READ_TIMEOUT, TG_CSR_REG_TX_FRAMES, TG_CSR_REG_RX_FRAMES,
    TG_CSR_REG_RX_DROP_FCS, TG_CSR_REG_RX_DROP_TYPE, TG_CSR_REG_RX_DROP_MALFORMED,
    TG_CSR_REG_RX_REFUSED, TG_CSR_REG_HOST_ERRORS, TG_CSR_REG_RX_STRAY, TG_CSR_REG_TS_HOST_REQ,
    TG_CSR_REG_TS_TX_START, TG_CSR_REG_TS_RX_END, TG_CSR_REG_TS_RX_DONE, TG_CSR_REG_TS_HOST_RESP,
    TG_CSR_REG_TS_ENQ_DONE, TG_CSR_REG_REQ_ACCEPTED, TG_CSR_REG_REQ_REFUSED, TG_CSR_REG_REQ_RETRIES,
    TG_CSR_REG_REQ_BACKOFF, TG_CSR_REG_QSEL, TG_CSR_REG_QBASE, TG_CSR_REG_QCFG, TG_CSR_REG_QTAIL,
    TG_CSR_REG_IRQ_STATUS, TG_CSR_REG_IRQ_MASK, TG_CSR_REG_QARM,
    TG_CSR_REG_ATOMICS, TG_CSR_REG_SPILL_BASE, TG_CSR_REG_SPILL_CFG, TG_CSR_REG_REQ_SPILLED,
    TG_CSR_REG_LINK_CFG, TG_CSR_REG_LINK_RTO, TG_CSR_REG_LINK_RX_WAIT, TG_CSR_REG_LINK_GONE,
    TG_CSR_REG_LINK_RETX, TG_CSR_REG_LINK_DUP_DROP, TG_CSR_REG_LINK_OOO_DROP, TG_CSR_REG_LINK_BUSY_DROP,
    TG_CSR_REG_LINK_NAKS_SENT, TG_CSR_REG_LINK_ACKS_SENT, TG_CSR_REG_LINK_PEER_GONE,
    TG_CSR_REG_PROT_REFUSED, TG_CSR_REG_CLOCK_KHZ,
};

struct Tb {
    std::unique_ptr<Vtg_csr> m;
    TbRng rng;
    Model ref;
    uint64_t cyc = 0;
    unsigned ev_pct = 10;       // chance of each event in a cycle
    unsigned burst_pct = 2;     // chance that every event fires at once
    unsigned wr_pct = 5;
    unsigned skip_pct = 0;      // chance of a skip on an edge that may have one
    bool check_each = true;     // read every register before each edge
    unsigned quiet_left = 0;    // cycles left of a quiet run
    uint64_t ev_seen[NEV] = {};
    uint64_t qt_reads = 0;
    uint64_t skips = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_csr), rng(seed) {}

    // The queue table answers combinationally from the address, with a
    // value that changes on every read.
    uint64_t read(uint64_t off)
    {
        ref.qt_salt = rng.next();
        m->csr_addr = (uint16_t)off;
        m->st_spill_count = ref.spill_count;
        m->st_link_gone_any = ref.gone_any;
        m->st_link_gone_peer = ref.gone_peer;
        m->st_link_on = ref.link_on;
        m->qt_hit = ref.qt_hit(off);
        m->qt_rdata = ref.qt_hit(off) ? qt_value(off, ref.qt_salt) : rng.next();
        m->eval();
        qt_reads += ref.qt_hit(off) && is_qt_reg(off);
        return m->csr_rdata;
    }

    void check_regs(const char *what)
    {
        for (uint64_t off : ALL_REGS) {
            uint64_t want;
            uint64_t got = read(off);
            ref.known(off, want);
            TB_CHECK(got == want, "%s, cycle %llu: register %03llx = %016llx, want %016llx", what,
                     (unsigned long long)cyc, (unsigned long long)off, (unsigned long long)got,
                     (unsigned long long)want);
        }
        // a few offsets outside the map, aligned or not
        for (int i = 0; i < 4; i++) {
            uint64_t off = rng.below(4096), want;
            uint64_t got = read(off);
            if (ref.known(off, want)) continue;
            TB_CHECK(got == want, "%s: unknown offset %03llx reads %016llx, want %016llx", what,
                     (unsigned long long)off, (unsigned long long)got, (unsigned long long)want);
        }
        TB_CHECK(m->cycles == ref.cycles, "%s: cycles port %llu, want %llu", what,
                 (unsigned long long)m->cycles, (unsigned long long)ref.cycles);
        TB_CHECK(m->cfg_mem_size == ref.mem_size, "%s: cfg_mem_size %08x, want %08llx", what, m->cfg_mem_size,
                 (unsigned long long)ref.mem_size);
        TB_CHECK(m->cfg_read_timeout == ref.read_timeout, "%s: cfg_read_timeout %08x, want %08llx", what,
                 m->cfg_read_timeout, (unsigned long long)ref.read_timeout);
        TB_CHECK(m->cfg_spill_base == ref.spill_base && m->cfg_spill_log2 == ref.spill_log2,
                 "%s: cfg_spill_base/log2 %08x/%u, want %08llx/%llu", what, m->cfg_spill_base,
                 m->cfg_spill_log2, (unsigned long long)ref.spill_base, (unsigned long long)ref.spill_log2);
        TB_CHECK(m->cfg_link_enable == (ref.link_cfg & 1) && m->cfg_link_max_retries == ((ref.link_cfg >> 8) & 0xFF) &&
                 m->cfg_link_ack_delay == ((ref.link_cfg >> 16) & 0xFFFF) && m->cfg_link_rto == ref.link_rto &&
                 m->cfg_link_rx_wait == ref.link_rx_wait,
                 "%s: link configuration %u/%u/%u/%08x/%08x, want LINK_CFG %08llx RTO %08llx RX_WAIT %08llx", what,
                 m->cfg_link_enable, m->cfg_link_max_retries, m->cfg_link_ack_delay, m->cfg_link_rto,
                 m->cfg_link_rx_wait, (unsigned long long)ref.link_cfg, (unsigned long long)ref.link_rto,
                 (unsigned long long)ref.link_rx_wait);
        TB_CHECK(m->cfg_req_backoff == ref.req_backoff, "%s: cfg_req_backoff %08x, want %08llx", what,
                 m->cfg_req_backoff, (unsigned long long)ref.req_backoff);
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
            uint64_t got = read(off);
            bool k = ref.known(off, want);
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
    void tick(bool rst = false, unsigned ev = 0, bool wr = false, uint64_t off = 0, uint64_t wdata = 0,
              uint32_t skip = 0)
    {
        m->rst = rst;
        m->in_skip = skip;
        m->cfg_node_id = ref.node;
        m->cfg_clock_khz = ref.clock_khz;
        set_events(*m, ev);
        m->csr_wr_en = 0;
        m->clk = 0;
        m->eval();
        if (!rst && check_each) check_regs("traffic");
        m->csr_wr_en = wr;
        m->csr_addr = (uint16_t)off;
        m->csr_wdata = wdata;
        m->qt_hit = rng.below(2);   // a write never depends on the queue table's read port
        m->qt_rdata = rng.next();
        m->eval();
        TB_CHECK(m->cfg_link_gone_clear == (wr && off == TG_CSR_REG_LINK_GONE), "cycle %llu: gone-clear pulse %u",
                 (unsigned long long)cyc, m->cfg_link_gone_clear);
        m->clk = 1;
        m->eval();
        ref.clock(rst, ev, wr, off, wdata, skip);
        if (!rst)
            for (unsigned i = 0; i < NEV; i++) ev_seen[i] += (ev >> i) & 1;
        skips += skip != 0;
        cyc++;
    }

    // an edge that may stand for more cycles: one with no event (tg_nic
    // skips only while idle)
    uint32_t pick_skip(unsigned ev)
    {
        if (ev || !rng.chance(skip_pct)) return 0;
        return rng.chance(50) ? (uint32_t)rng.below(40) + 1 : (uint32_t)rng.next();
    }

    void random_tick()
    {
        // with skips on, now and then a quiet run
        if (skip_pct && quiet_left == 0 && rng.chance(3)) quiet_left = (unsigned)rng.below(3 * RUN_CYCLES);
        unsigned ev = quiet_left ? 0 : pick_events();
        quiet_left -= quiet_left != 0;
        bool wr = rng.chance(wr_pct);
        uint64_t off, wdata = rng.next();
        if (rng.chance(5)) ref.spill_count = (uint32_t)rng.next();
        if (rng.chance(5)) { ref.gone_any = rng.below(2); ref.gone_peer = (uint16_t)rng.next(); }
        if (rng.chance(5)) { ref.link_on = rng.below(2); }
        switch (rng.below(13)) {
        case 9: off = TG_CSR_REG_LINK_CFG; break;
        case 10: off = TG_CSR_REG_LINK_RTO; break;
        case 11: off = TG_CSR_REG_LINK_RX_WAIT; break;
        case 12: off = TG_CSR_REG_LINK_GONE; break;
        case 7: off = TG_CSR_REG_SPILL_BASE; break;
        case 8: off = TG_CSR_REG_SPILL_CFG; break;
        case 4: off = TG_CSR_REG_READ_TIMEOUT; break;
        case 5: off = TG_CSR_REG_REQ_BACKOFF; break;
        case 6: off = QT_REG[rng.below(sizeof QT_REG / sizeof QT_REG[0])]; break;   // the table's, not the page's
        case 0: off = TG_CSR_REG_MEM_SIZE; break;
        case 1: off = TG_CSR_REG_SCRATCH; break;
        case 2: off = ALL_REGS[rng.below(sizeof ALL_REGS / sizeof ALL_REGS[0])]; break;  // read-only ones ignore it
        default: off = rng.below(4096); break;
        }
        tick(false, ev, wr, off, wdata, pick_skip(ev));
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

// Every event in every cycle, then each event alone back to back, every
// register read in every cycle (pending counts grow to the most the flush
// lets them); then a reset with counts pending.
static void back_to_back(Tb &tb)
{
    for (unsigned k = 0; k < 4 * RUN_CYCLES + 5; k++) tb.tick(false, ALL_EVENTS);
    for (unsigned k = 0; k < RUN_CYCLES; k++) tb.tick();
    tb.sweep("after every event in every cycle");
    for (unsigned e = 0; e < NEV; e++) {
        for (unsigned k = 0; k < 2 * RUN_CYCLES + 3; k++) tb.tick(false, 1u << e);
        tb.tick();
    }
    for (unsigned k = 0; k < RUN_CYCLES; k++) tb.tick();
    tb.sweep("after each event back to back");
    // a reset with counts pending clears every counter
    for (unsigned k = 0; k < 10; k++) tb.tick(false, ALL_EVENTS);
    tb.reset();
    tb.sweep("reset with counts pending");
    for (unsigned k = 0; k < RUN_CYCLES; k++) tb.tick();
    tb.sweep("quiet cycles after that reset");
}

// Counters wrap at CNT_W bits: every event in every cycle until each
// counter has passed 2^CNT_W (checked every 97 cycles and at the end).
static void wrap(Tb &tb)
{
    if (TB_CNT_W > 20) return;
    tb.check_each = false;
    for (uint64_t k = 0; k < (1ull << TB_CNT_W) + 3 * RUN_CYCLES; k++) {
        tb.check_each = k % 97 == 0;
        tb.tick(false, ALL_EVENTS);
    }
    tb.check_each = true;
    for (unsigned k = 0; k < RUN_CYCLES; k++) tb.tick();
    TB_CHECK(tb.ref.cnt[0] > (1ull << TB_CNT_W), "wrap: only %llu events", (unsigned long long)tb.ref.cnt[0]);
    tb.sweep("after the counters wrapped");
}

// Write and read back the read/write registers with edge values.
static void rw_regs(Tb &tb)
{
    const uint64_t vals[] = {0, ~0ull, 0x0123456789ABCDEFull, 0xFFFFFFFF00000000ull, 0x00000000FFFFFFFFull, 1};
    for (uint64_t v : vals) {
        tb.tick(false, 0, true, TG_CSR_REG_MEM_SIZE, v);
        tb.tick(false, 0, true, TG_CSR_REG_SCRATCH, ~v);
        tb.tick(false, 0, true, TG_CSR_REG_READ_TIMEOUT, v ^ 0x5555);
        tb.tick(false, 0, true, TG_CSR_REG_REQ_BACKOFF, v ^ 0xAAAA0000ull);
        tb.tick(false, 0, true, TG_CSR_REG_SPILL_BASE, v ^ 0x1234);
        tb.tick(false, 0, true, TG_CSR_REG_SPILL_CFG, ~v);
        tb.tick(false, 0, true, TG_CSR_REG_LINK_CFG, v ^ 0x77);
        tb.tick(false, 0, true, TG_CSR_REG_LINK_RTO, ~v ^ 0x99);
        tb.tick(false, 0, true, TG_CSR_REG_LINK_RX_WAIT, v + 3);
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
    uint64_t seen[NEV] = {}, qt_reads = 0, skips = 0;
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed++ * 0x9E3779B1u);
            tb.ref.node = (uint16_t)tb.rng.next();
            if (rep == 1) tb.ref.node = 0xFFFF;
            tb.ref.clock_khz = rep ? 125000u : (uint32_t)tb.rng.next();
            tb.ev_pct = c.ev_pct;
            tb.burst_pct = c.burst_pct;
            tb.wr_pct = c.wr_pct;
            tb.skip_pct = rep ? 30 : 0;
            tb.reset();
            tb.sweep("reset values");
            single_events(tb);
            back_to_back(tb);
            rw_regs(tb);
            for (int i = 0; i < 3000; i++) tb.random_tick();
            tb.sweep("after random traffic");
            // a queue table that claims nothing, then one that claims every
            // offset: its registers read zero, then every offset that is not
            // the page's own passes its answer through
            tb.ref.qt = QT_NONE;
            tb.sweep("queue table claims nothing");
            for (int i = 0; i < 200; i++) tb.random_tick();
            tb.ref.qt = QT_ALL;
            tb.sweep("queue table claims every offset");
            for (int i = 0; i < 200; i++) tb.random_tick();
            tb.ref.qt = QT_REAL;
            // reset in the middle of traffic clears everything but the straps
            tb.reset();
            tb.sweep("reset during traffic");
            // the node id strap is read live
            tb.ref.node = (uint16_t)tb.rng.next();
            tb.tick();
            for (int i = 0; i < 1500; i++) tb.random_tick();
            tb.sweep("after traffic following reset");
            for (unsigned i = 0; i < NEV; i++) seen[i] += tb.ev_seen[i];
            qt_reads += tb.qt_reads;
            skips += tb.skips;
        }
    }
    {
        Tb tb(0xC0FFEE);
        tb.reset();
        wrap(tb);
    }
    for (unsigned i = 0; i < NCNT; i++)
        TB_CHECK(seen[i] > 1000, "%s pulsed only %llu times", CNT_NAME[i], (unsigned long long)seen[i]);
    for (unsigned i = 0; i < NTS; i++)
        TB_CHECK(seen[NCNT + i] > 1000, "%s pulsed only %llu times", TS_NAME[i], (unsigned long long)seen[NCNT + i]);
    TB_CHECK(skips > 100, "only %llu skipping edges", (unsigned long long)skips);
    TB_CHECK(qt_reads > 10000, "only %llu reads of queue-table registers", (unsigned long long)qt_reads);
    return tb_finish("tg_csr");
}
