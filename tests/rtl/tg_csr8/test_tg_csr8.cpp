// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the byte-serial node's CSR page against tg_csr (built
// without spill ring and link layer): both get the same reads and writes of
// every register and of addresses that name none (at most one access every
// other cycle, the address steady in the cycle before each), the same
// queue-table answers, and the same events (every counter's at most one
// every 8 cycles, the timestamped ones at any rate, several in a cycle).
// Every read returns what tg_csr returns, counters and timestamps included
// whatever the events waiting to reach the RAM; configuration outputs agree
// in every cycle; a reset in the middle leaves both the same. Reads and
// writes of the contexts' copies, at any address, come among them: a copy
// reads its last write (0 after reset), and the page's registers and
// outputs go on agreeing with tg_csr's, which never sees those accesses.
#include "Vtb_csr8_pair.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned NCOPY = 64;     // the copies of the bench's 16 contexts, 4 words each

enum Kind { VAL, CNT, TS, BUSY };   // BUSY: tg_csr8's alone, checked against the bench's count
struct Reg {
    uint16_t addr;
    Kind kind;
};

static const Reg REGS[] = {
    {TG_CSR_REG_ID, VAL},
    {TG_CSR_REG_NODE_ID, VAL},
    {TG_CSR_REG_CYCLES, VAL},
    {TG_CSR_REG_MEM_SIZE, VAL},
    {TG_CSR_REG_MAC, VAL},
    {TG_CSR_REG_CONFIG, VAL},
    {TG_CSR_REG_SCRATCH, VAL},
    {TG_CSR_REG_READ_TIMEOUT, VAL},
    {TG_CSR_REG_REQ_BACKOFF, VAL},
    {TG_CSR_REG_SPILL_BASE, VAL},
    {TG_CSR_REG_SPILL_CFG, VAL},
    {TG_CSR_REG_REQ_SPILLED, VAL},
    {TG_CSR_REG_LINK_CFG, VAL},
    {TG_CSR_REG_LINK_RTO, VAL},
    {TG_CSR_REG_LINK_RX_WAIT, VAL},
    {TG_CSR_REG_LINK_GONE, VAL},
    {TG_CSR_REG_LINK_RETX, VAL},
    {TG_CSR_REG_LINK_DUP_DROP, VAL},
    {TG_CSR_REG_LINK_OOO_DROP, VAL},
    {TG_CSR_REG_LINK_BUSY_DROP, VAL},
    {TG_CSR_REG_LINK_NAKS_SENT, VAL},
    {TG_CSR_REG_LINK_ACKS_SENT, VAL},
    {TG_CSR_REG_LINK_PEER_GONE, VAL},
    {TG_CSR_REG_TX_FRAMES, CNT},
    {TG_CSR_REG_RX_FRAMES, CNT},
    {TG_CSR_REG_RX_DROP_FCS, CNT},
    {TG_CSR_REG_RX_DROP_TYPE, CNT},
    {TG_CSR_REG_RX_DROP_MALFORMED, CNT},
    {TG_CSR_REG_RX_REFUSED, CNT},
    {TG_CSR_REG_HOST_ERRORS, CNT},
    {TG_CSR_REG_RX_STRAY, CNT},
    {TG_CSR_REG_REQ_ACCEPTED, CNT},
    {TG_CSR_REG_REQ_REFUSED, CNT},
    {TG_CSR_REG_REQ_RETRIES, CNT},
    {TG_CSR_REG_ATOMICS, CNT},
    {TG_CSR_REG_PROT_REFUSED, CNT},
    {TG_CSR_REG_RX_DROP_BUSY, BUSY},
    {TG_CSR_REG_TS_HOST_REQ, TS},
    {TG_CSR_REG_TS_TX_START, TS},
    {TG_CSR_REG_TS_RX_END, TS},
    {TG_CSR_REG_TS_RX_DONE, TS},
    {TG_CSR_REG_TS_HOST_RESP, TS},
    {TG_CSR_REG_TS_ENQ_DONE, TS},
    // the queue table's registers and view, answered by the bench
    {TG_CSR_REG_QSEL, VAL},
    {TG_CSR_REG_QCFG, VAL},
    {TG_CSR_REG_IRQ_STATUS, VAL},
    {TG_CSR_QVIEW_BASE + 8, VAL},
};
static const unsigned NREGS = sizeof REGS / sizeof REGS[0];

struct Tb {
    std::unique_ptr<Vtb_csr8_pair> m{new Vtb_csr8_pair};
    TbRng rng;
    uint64_t cyc = 0;
    unsigned since[14] = {};          // cycles since each counter's last event
    uint64_t busy = 0;                // busy-drop events since reset
    // accesses are planned a cycle ahead: the address is steady in the
    // cycle before each (the page's rule), and none follows another at once
    struct Access {
        bool rd = false, wr = false;
        uint16_t addr = 0;
        const Reg *r = nullptr;       // the register read, if the table names it
        bool copy = false;            // a context's copy (idx) instead
        unsigned idx = 0;
    };
    Access cur, nxt;
    unsigned ev_pct = 0, ts_pct = 0, rd_pct = 0, wr_pct = 0, copy_pct = 20;
    uint64_t reads = 0, reads_cnt = 0, reads_ts = 0, reads_busy = 0, events = 0;
    uint64_t copy_val[NCOPY] = {};    // the copies as written since reset
    uint64_t copy_reads = 0, copy_writes = 0;

    explicit Tb(uint64_t seed) : rng(seed) {}

    const Reg &pick()
    {
        return REGS[rng.below(NREGS)];
    }

    // one cycle; `quiet` holds the events back
    void tick(bool rst, bool quiet)
    {
        Vtb_csr8_pair &v = *m;
        v.rst = rst;
        v.cfg_node_id = 0x1234;
        v.qt_hit = rng.below(2);
        v.qt_rdata = rng.next();

        unsigned evc = 0, evt = 0;
        if (!rst && !quiet) {
            for (unsigned i = 0; i < 14; i++)
                if (since[i] >= 8 && rng.chance(ev_pct)) evc |= 1u << i;
            for (unsigned i = 0; i < 6; i++)
                if (rng.chance(ts_pct)) evt |= 1u << i;
        }
        v.ev_cnt = evc;
        v.ev_ts = evt;

        cur = rst ? Access() : nxt;
        nxt = Access();
        if (!rst && !cur.rd && !cur.wr) {
            if (rng.chance(rd_pct)) {
                nxt.rd = true;
                if (rng.chance(90)) {
                    nxt.r = &pick();
                    nxt.addr = nxt.r->addr;
                } else {
                    nxt.addr = (uint16_t)(rng.next() & 0xFF8);   // any address, perhaps none
                    for (unsigned k = 0; k < NREGS; k++)
                        if (REGS[k].addr == nxt.addr) nxt.r = &REGS[k];
                }
            } else if (rng.chance(wr_pct)) {
                nxt.wr = true;
                nxt.addr = (uint16_t)(rng.chance(70) ? pick().addr : (rng.next() & 0xFFF));
            }
            if ((nxt.rd || nxt.wr) && rng.chance(copy_pct)) {
                // the address stays whatever it was: a copy's access ignores it
                nxt.copy = true;
                nxt.idx = rng.below(NCOPY);
                nxt.r = nullptr;
            }
        }
        if (cur.rd || cur.wr)
            v.csr_addr = cur.addr;
        else if (nxt.rd || nxt.wr)
            v.csr_addr = nxt.addr;
        else
            v.csr_addr = (uint16_t)(rng.chance(70) ? pick().addr : (rng.next() & 0xFFF));
        const Reg *r = cur.r;
        bool rd = cur.rd;
        v.csr_rd_en = rd;
        v.csr_wr_en = cur.wr;
        v.csr_wdata = rng.next();
        v.csr_copy = cur.copy || (!cur.rd && !cur.wr && rng.chance(50));   // without a strobe it means nothing
        v.csr_copy_idx = cur.copy ? cur.idx : rng.below(64);
        uint64_t copy_want = cur.copy ? copy_val[cur.idx] : 0;
        if (rst) {
            for (unsigned i = 0; i < NCOPY; i++) copy_val[i] = 0;
        } else if (cur.copy && cur.wr) {
            copy_val[cur.idx] = v.csr_wdata;
            copy_writes++;
        }

        v.clk = 0;
        v.eval();
        uint64_t ref = v.ref_rdata;
        TB_CHECK(v.ref_mem_size == v.dut_mem_size && v.ref_read_timeout == v.dut_read_timeout &&
                     v.ref_req_backoff == v.dut_req_backoff && v.ref_cycles == v.dut_cycles,
                 "cycle %llu: configuration outputs differ", (unsigned long long)cyc);
        v.clk = 1;
        v.eval();
        cyc++;
        for (unsigned i = 0; i < 14; i++) since[i] = (evc >> i & 1) ? 0 : since[i] + 1;
        // the busy-drop count as it stood before this cycle's event
        uint64_t busy_before = busy;
        busy = rst ? 0 : busy + (evc >> 13 & 1);
        events += (unsigned)__builtin_popcount(evc) + (unsigned)__builtin_popcount(evt);
        if (rst || !rd) return;
        uint64_t dut = v.dut_rdata;
        if (cur.copy) {
            TB_CHECK(dut == copy_want, "cycle %llu: copy %u reads %016llx, last written %016llx",
                     (unsigned long long)cyc, cur.idx, (unsigned long long)dut, (unsigned long long)copy_want);
            copy_reads += copy_want != 0;
            return;
        }
        if (r && r->kind == BUSY) {
            // tg_csr has no such register: the count of the events before the read
            TB_CHECK(dut == (busy_before & 0xFFFF), "cycle %llu: RX_DROP_BUSY reads %llu, %llu events",
                     (unsigned long long)cyc, (unsigned long long)dut, (unsigned long long)busy_before);
            reads_busy += dut != 0;
            return;
        }
        TB_CHECK(dut == ref, "cycle %llu: register %03x reads %016llx, tg_csr %016llx", (unsigned long long)cyc,
                 v.csr_addr, (unsigned long long)dut, (unsigned long long)ref);
        reads++;
        if (r && r->kind == CNT) reads_cnt += ref != 0;
        if (r && r->kind == TS) reads_ts += ref != 0;
    }

    // a burst of events, then reads of every register while the page's
    // RAM catches up
    void burst_then_read_all()
    {
        unsigned e = ev_pct, t = ts_pct;
        ev_pct = ts_pct = 100;
        for (int i = 0; i < 16; i++) tick(false, false);
        ev_pct = e, ts_pct = t;
        unsigned pct = rd_pct, wpct = wr_pct;
        rd_pct = 100;
        wr_pct = 0;
        for (unsigned n = 0; n < 6 * NREGS; n++) tick(false, true);
        rd_pct = pct;
        wr_pct = wpct;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    uint64_t reads = 0, reads_cnt = 0, reads_ts = 0, reads_busy = 0, events = 0, copy_reads = 0, copy_writes = 0;
    struct Cfg {
        unsigned ev, ts, rd, wr;
    } cfgs[] = {{5, 2, 30, 5}, {60, 30, 60, 2}, {100, 80, 100, 10}, {20, 5, 10, 40}};
    uint64_t seed = 1;
    for (const Cfg &c : cfgs) {
        Tb t(seed++ * 0x9E3779B1u);
        t.ev_pct = c.ev, t.ts_pct = c.ts, t.rd_pct = c.rd, t.wr_pct = c.wr;
        for (int i = 0; i < 3; i++) t.tick(true, true);
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 600; i++) t.tick(false, false);
            t.burst_then_read_all();
            if (round == 20) {
                // a reset in the middle of events
                for (int i = 0; i < 50; i++) t.tick(false, false);
                for (int i = 0; i < 3; i++) t.tick(true, true);
                t.burst_then_read_all();
            }
        }
        reads += t.reads, reads_cnt += t.reads_cnt, reads_ts += t.reads_ts, events += t.events;
        reads_busy += t.reads_busy;
        copy_reads += t.copy_reads, copy_writes += t.copy_writes;
    }
    std::printf("tg_csr8: %llu events, %llu reads equal to tg_csr's (%llu of counters and %llu of timestamps "
                "not zero), %llu reads of RX_DROP_BUSY not zero equal to the events\n",
                (unsigned long long)events, (unsigned long long)reads, (unsigned long long)reads_cnt,
                (unsigned long long)reads_ts, (unsigned long long)reads_busy);
    std::printf("tg_csr8: %llu writes of the contexts' copies, %llu reads of a written copy\n",
                (unsigned long long)copy_writes, (unsigned long long)copy_reads);
    TB_CHECK(reads_cnt >= 1000 && reads_ts >= 1000 && reads_busy >= 20, "too few counter, timestamp or busy-count reads");
    TB_CHECK(copy_writes >= 1000 && copy_reads >= 1000, "too few accesses of the contexts' copies");
    return tb_finish("tg_csr8");
}
