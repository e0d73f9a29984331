// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the host target against a reference model of the BAR: write
// bursts into WRITE descriptors and REQ-window bursts into REQ descriptors
// (never merged with each other), blocking remote reads and fences, CSR and
// context-page access, fetch starts and the fetch table, failures reported
// after a request left (the context's STATUS, first failure kept), and every
// refused request, with the transmitter, the receive engine's answers and the
// host's response port modelled under random stalls.
// Atomics: stores to the FAA, SWAP and CAS windows set the context's OPERAND
// (all eight strobes, else MISALIGNED), loads from the FAA, SWAP, CAS and FINC
// windows are blocking atomics (descriptor with operand and compare words,
// answered with OK or an error status, or never: the read timeout fails them
// with PEER_GONE), stores to FINC are refused, and ATOMIC_GO starts a
// non-blocking atomic through the fetch table or is refused with BAD_OP, RANGE
// or MISALIGNED. Fetch-table entries that are overdue are offered to the
// receive engine (m_fto) and checked cycle by cycle.
// tg_host_if is built with its request buffer (tb_host_if.v): a
// descriptor names a slot (TG_PAY_REQ) exactly when it has a payload, a
// burst's or an atomic's words, and none (TG_PAY_NONE, zeros) for read
// requests and write checks; the slot is taken only while free, with the
// wire hold and, for a REQ, the REQ hold, and is not written while held but
// for an atomic's compare word in the cycle it is first offered. The bench
// releases each hold some cycles after its descriptor is taken, shows no
// free slot for stretches (a burst's first beat, an atomic or an
// ATOMIC_GO must wait), and checks that no slot is left held after a run.
// tg_host_if with its request buffer (tb_host_if.v), under the class name
// the bench uses
#include "Vtb_host_if.h"
typedef Vtb_host_if Vtg_host_if;
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

// module defaults (the bench is built with them)
static const unsigned NUM_CTX = 16;
static const unsigned MAX_READS = 8;

static const uint64_t ONES = ~0ull;
static const unsigned WORDS = TG_MAX_BURST_BYTES / 8;                    // words in a burst block
static const uint64_t CTRL_SPAN = TG_CTRL_CTX_BASE + (1ull << TG_BAR_CTX_BITS) * TG_PAGE_SIZE;
static const uint64_t ST_ANY = 0x100;                                    // some error status, code not fixed

static uint64_t bar(unsigned win, unsigned ctx, unsigned node, uint32_t paddr)
{
    return ((uint64_t)win << TG_BAR_WIN_SHIFT) | ((uint64_t)ctx << TG_BAR_CTX_SHIFT) |
           ((uint64_t)node << TG_BAR_NODE_SHIFT) | paddr;
}
static uint64_t csr(uint64_t reg) { return TG_CTRL_CSR_BASE + reg; }
static uint64_t ctxreg(unsigned c, uint64_t reg) { return TG_CTRL_CTX_BASE + c * TG_PAGE_SIZE + reg; }
static uint64_t fetch_go(uint32_t paddr, uint16_t node, unsigned len)
{
    return paddr | ((uint64_t)node << 32) | ((uint64_t)(len & 0xFF) << 48);
}
static uint64_t atomic_go(uint32_t paddr, uint16_t node, unsigned fn)
{
    return paddr | ((uint64_t)node << 32) | ((uint64_t)(fn & 3) << 56);
}
// what the CSR block answers at each offset
static uint64_t csr_value(unsigned off) { return 0xC5C5000000000000ull ^ ((uint64_t)(off + 1) * 0x9E3779B97F4A7C15ull); }

// Coverage of the atomics, over every run (printed and checked at the end).
enum { AW_FAA, AW_SWAP, AW_CAS, AW_FINC, AW_N };
static const char *const AW_NAME[AW_N] = {"FAA", "SWAP", "CAS", "FINC"};
// why an ATOMIC_GO was refused (several may hold at once)
enum { WHY_FN, WHY_LRANGE, WHY_CRANGE, WHY_PMIS, WHY_LMIS, WHY_CMIS, WHY_N };
static const char *const WHY_NAME[WHY_N] = {"function", "laddr range", "cpl range", "paddr align", "laddr align",
                                            "cpl align"};
struct Cov {
    uint64_t blk_sent[AW_N] = {}, blk_ok[AW_N] = {}, blk_err[AW_N] = {}, blk_tmo[AW_N] = {};
    uint64_t read_tmo = 0, fence_tmo = 0, late = 0;
    uint64_t opnd_set = 0, opnd_bad = 0, finc_store = 0, mis_status = 0, unknown_reg = 0;
    uint64_t wcheck_sent = 0, wcheck_bad = 0;
    uint64_t run_bad = 0;                 // bursts refused: byte enables with holes
    uint64_t reqst_clear = 0;             // REQ_STATE writes
    uint64_t reqst_clear_fail = 0;        // ... in the cycle a REQ of that context failed
    uint64_t last_ok = 0, last_err = 0;   // LAST_STATUS reads: OK, or a failure
    uint64_t ago_go[3] = {}, ago_ref_st[3] = {}, ago_why[WHY_N] = {}, ago_fn_and_more = 0, ago_range_and_mis = 0;
    uint64_t ago_hits = 0, ago_stall_full = 0, fto = 0, fto_atomic = 0;
    uint64_t tmo_write = 0, tmo_clear = 0;   // timeouts in the cycle a write was taken; of them, its STATUS cleared
    uint64_t payload_known = 0;              // atomic descriptors whose operand and compare words were compared
    // (tg_host_if) the request buffer: slots taken, of them with the REQ
    // hold; compare words written in the cycle their atomic is first
    // offered; cycles a request that needs a slot waited for one, of them
    // with every slot held; holds released; the slots ever taken
    uint64_t pay_takes = 0, pay_req_holds = 0, pay_cmp_late = 0, pay_wait = 0, pay_wait_full = 0, pay_rels = 0;
    uint32_t pay_slots = 0;
};
static Cov cov;

struct Beat {
    bool write;
    uint64_t addr, wdata;
    uint8_t wstrb;
    bool last;
};

struct Dec {
    unsigned win, ctx, node, page;
    uint32_t paddr;
    uint64_t reg;
    bool mis, ctrl, remote, sync, reqw, csr, ctxpg;
    bool atom;     // a FAA, SWAP, CAS or FINC window of a context that exists
    int aw;        // which of them (AW_*)
};

static Dec decode(uint64_t a)
{
    Dec d{};
    d.win = (unsigned)(a >> TG_BAR_WIN_SHIFT) & ((1u << TG_BAR_WIN_BITS) - 1);
    d.ctx = (unsigned)(a >> TG_BAR_CTX_SHIFT) & ((1u << TG_BAR_CTX_BITS) - 1);
    d.node = (unsigned)(a >> TG_BAR_NODE_SHIFT) & ((1u << TG_BAR_NODE_BITS) - 1);
    d.paddr = (uint32_t)a;
    d.mis = (a & 7) != 0;
    d.ctrl = d.win == TG_WIN_CTRL;
    d.remote = d.win == TG_WIN_REMOTE;
    d.sync = d.win == TG_WIN_SYNC;
    d.reqw = d.win == TG_WIN_REQ;
    d.aw = d.win == TG_WIN_FAA ? AW_FAA : d.win == TG_WIN_SWAP ? AW_SWAP : d.win == TG_WIN_CAS ? AW_CAS
         : d.win == TG_WIN_FINC ? AW_FINC : -1;
    d.atom = d.aw >= 0 && d.ctx < NUM_CTX;
    uint64_t off = a & ((1ull << TG_BAR_WIN_SHIFT) - 1);
    if (d.ctrl && off < TG_PAGE_SIZE) {
        d.csr = true;
        d.reg = off;
    } else if (d.ctrl && off >= TG_CTRL_CTX_BASE && off < CTRL_SPAN) {
        d.page = (unsigned)((off - TG_CTRL_CTX_BASE) / TG_PAGE_SIZE);
        d.reg = (off - TG_CTRL_CTX_BASE) % TG_PAGE_SIZE;
        d.ctxpg = d.page < NUM_CTX;
    }
    return d;
}

struct TxD {
    uint8_t op = 0, len = 0, ctx = 0;
    uint16_t dst = 0, tag = 0;
    uint32_t addr = 0;
    uint64_t mask = 0;
    uint64_t words[WORDS] = {};
    bool sync = false;       // a fence: address and mask are not part of the contract
    bool fetch = false;      // tag carries a table index chosen by the module
    bool resolved = false;   // fetch: index known
    bool burst = false;      // a WRITE or REQ: carries the burst's words
    bool pay = false;        // has a payload in a request-buffer slot (a burst's or an atomic's words)
    bool atomic = false;     // FAA, SWAP or CAS: words 0 and 1 are operand and compare
    bool wknown[2] = {};     // atomic: whether words 0 and 1 are known to the model
    uint64_t key = 0;        // the context's key when the descriptor was formed
    bool kknown = false;
};

struct Ent {
    bool busy = false, sent = false;
    bool late = false;       // offered as overdue and taken: no longer looked up
    bool atomic = false;     // started by ATOMIC_GO
    uint64_t alloc = 0;      // cycle the start was accepted
    uint32_t tmo = 0;        // the read timeout in that cycle (0: none)
    uint16_t node = 0;
    uint32_t laddr = 0, cpl = 0;
    uint64_t mask = 0;
};

// Reference model of the host port: applied to each accepted beat in order.
struct Model {
    // burst being assembled
    bool b_active = false;
    bool b_bad = false;      // its byte enables are no longer one run: refused
    uint64_t b_refused = 0;  // bursts refused so far
    bool b_req = false;      // beats of the REQ window, not the remote one
    unsigned b_ctx = 0, b_node = 0, b_cnt = 0;
    uint32_t b_first = 0;
    uint64_t b_data[WORDS] = {}, b_mask = 0;
    // contexts
    uint64_t status[16] = {};
    uint64_t last[16] = {};  // LAST_STATUS: the status of the context's last blocking load
    // REQ_STATE: the last REQ's number, REQs finished, {failures, first failure's status and number}
    uint16_t reqn[16] = {}, reqd[16] = {};
    uint32_t reqf[16] = {};
    bool known[16][9] = {};
    uint64_t val[16][9] = {};
    // blocking read, fence or atomic
    bool waiting = false, wait_sync = false;
    unsigned wait_ctx = 0, wait_node = 0;
    int wait_aw = -1;        // the atomic window it came from, else -1
    uint64_t wait_start = 0; // cycle it was accepted
    uint32_t wait_tmo = 0;   // the read timeout in that cycle (0: none)
    uint16_t seq = 0;
    uint32_t mem_size = 0;
    uint64_t now = 0;        // the cycle being modelled
    uint32_t tmo_now = 0;    // the read timeout in it
    // fetch table: resolved entries and allocations not yet seen
    Ent ft[16];
    std::deque<Ent> pending;
    // expected outputs
    std::deque<TxD> txd;
    std::deque<uint64_t> resp;
    std::deque<std::pair<unsigned, uint64_t>> csr_wr;
    uint64_t errors = 0, strays = 0, descs = 0, answers = 0;

    void reset()
    {
        uint32_t ms = mem_size;
        *this = Model();
        mem_size = ms;
        // reset clears the address and operand registers of every context
        for (unsigned c = 0; c < 16; c++)
            for (unsigned r : {1u, 2u, 4u, 5u, 8u}) {
                known[c][r] = true;
                val[c][r] = 0;
            }
    }
    unsigned ft_used() const
    {
        unsigned n = (unsigned)pending.size();
        for (unsigned i = 0; i < 16; i++) n += ft[i].busy;
        return n;
    }
    void set_status(unsigned c, uint64_t st)
    {
        if (c < NUM_CTX && status[c] == TG_ST_OK) status[c] = st;
    }
    uint64_t req_state(unsigned c) const
    {
        return c < NUM_CTX ? (uint64_t)reqf[c] << 32 | (uint64_t)reqd[c] << 16 | reqn[c] : 0;
    }
    // A REQ of context c finished: counted, and a failure recorded (the
    // first one's number and status kept). Returns whether it was the first.
    bool req_done(unsigned c, uint16_t num, uint8_t st)
    {
        if (c >= NUM_CTX) return false;
        reqd[c]++;
        if (st == TG_ST_OK) return false;
        uint32_t f = reqf[c];
        bool first = ((f >> 16) & 0xFF) == 0;
        uint32_t n = f >> 24;
        reqf[c] = (n == 255 ? 255u : n + 1) << 24 | (first ? (uint32_t)st << 16 | num : f & 0xFFFFFF);
        return first;
    }

    bool continues(const Beat &b, const Dec &d) const
    {
        return b_active && (d.remote || d.reqw) && d.reqw == b_req && b.write && !d.mis && d.ctx == b_ctx &&
               d.node == b_node &&
               (d.paddr / TG_MAX_BURST_BYTES) == (b_first / TG_MAX_BURST_BYTES) &&
               (d.paddr % TG_MAX_BURST_BYTES) / 8 == (b_first % TG_MAX_BURST_BYTES) / 8 + b_cnt;
    }
    static bool mask_is_run(uint64_t m)
    {
        uint8_t off, cnt;
        return tg_frame_run(m, &off, &cnt) == 0;
    }
    void emit_burst()
    {
        b_active = false;
        if (b_bad) {
            b_refused++;   // a request all the same (counted at its first beat)
            return;
        }
        TxD t;
        t.op = b_req ? TG_OP_REQ : TG_OP_WRITE;
        t.burst = true;
        t.pay = true;
        t.dst = (uint16_t)b_node;
        t.ctx = (uint8_t)b_ctx;
        t.addr = b_first;
        t.len = (uint8_t)(8 * b_cnt);
        t.mask = b_mask;
        std::memcpy(t.words, b_data, sizeof t.words);
        t.key = val[t.ctx & 15][8];
        t.kknown = known[t.ctx & 15][8];
        // a REQ leaves with the next number of its context's REQs
        if (b_req) t.tag = b_ctx < NUM_CTX ? ++reqn[b_ctx] : 0;
        txd.push_back(t);
        descs++;
    }

    // registers of a context page that hold a value (index d.reg / 8 in val)
    static bool value_reg(uint64_t reg)
    {
        return reg == TG_CTX_REG_FETCH_LADDR || reg == TG_CTX_REG_FETCH_CPL || reg == TG_CTX_REG_OPERAND ||
               reg == TG_CTX_REG_COMPARE || reg == TG_CTX_REG_KEY;
    }
    // ATOMIC_GO argument check: 0 when good, else the status it sets; `why`
    // gets every reason that holds (WHY_* bits).
    uint64_t atomic_error(unsigned c, uint64_t w, unsigned *why = nullptr) const
    {
        unsigned fn = (unsigned)(w >> 56) & 3;
        uint32_t paddr = (uint32_t)w;
        uint64_t laddr = val[c][1], cpl = val[c][2];
        unsigned y = 0;
        if (fn != TG_AOP_FAA && fn != TG_AOP_SWAP && fn != TG_AOP_CAS) y |= 1u << WHY_FN;
        if (laddr + 8 > mem_size) y |= 1u << WHY_LRANGE;
        if (cpl + 8 > mem_size) y |= 1u << WHY_CRANGE;
        if (paddr & 7) y |= 1u << WHY_PMIS;
        if (laddr & 7) y |= 1u << WHY_LMIS;
        if (cpl & 7) y |= 1u << WHY_CMIS;
        if (why) *why = y;
        if (y & (1u << WHY_FN)) return TG_ST_BAD_OP;
        if (y & ((1u << WHY_LRANGE) | (1u << WHY_CRANGE))) return TG_ST_RANGE;
        if (y) return TG_ST_MISALIGNED;
        return 0;
    }
    // FETCH_GO argument check: 0 when good, else the status it sets.
    uint64_t fetch_error(unsigned c, uint64_t w) const
    {
        uint32_t paddr = (uint32_t)w;
        unsigned len = (unsigned)(w >> 48) & 0xFF;
        uint64_t laddr = val[c][1], cpl = val[c][2];
        bool range = laddr + len > mem_size || cpl + 8 > mem_size;
        bool bad_len = len == 0 || len > TG_MAX_BURST_BYTES;
        bool cross = (paddr % TG_MAX_BURST_BYTES) + len > TG_MAX_BURST_BYTES;
        bool mis = (paddr & 7) != (laddr & 7) || (cpl & 7) != 0;
        if (range) return TG_ST_RANGE;
        if (bad_len) return ST_ANY;
        if (cross || mis) return TG_ST_MISALIGNED;
        return 0;
    }
    // A FETCH_GO or ATOMIC_GO that will take a table entry.
    bool is_good_fetch(const Beat &b) const
    {
        Dec d = decode(b.addr);
        if (!b.write || d.mis || !d.ctxpg || !known[d.page][1] || !known[d.page][2]) return false;
        if (d.reg == TG_CTX_REG_FETCH_GO) return fetch_error(d.page, b.wdata) == 0;
        if (d.reg == TG_CTX_REG_ATOMIC_GO) return atomic_error(d.page, b.wdata) == 0;
        return false;
    }

    void accept(const Beat &b)
    {
        Dec d = decode(b.addr);
        if (b_active && !continues(b, d)) emit_burst();
        if (d.mis) {
            errors++;
            if (!b.write) resp.push_back(ONES);
            // a data window records it in the context's STATUS; the control window does not
            if (!d.ctrl && d.ctx < NUM_CTX) {
                cov.mis_status += status[d.ctx] == TG_ST_OK;
                set_status(d.ctx, TG_ST_MISALIGNED);
                if (!b.write) last[d.ctx] = TG_ST_MISALIGNED;
            }
            return;
        }
        if ((d.remote || d.reqw) && b.write) {
            if (!b_active) {
                b_active = true;
                b_req = d.reqw;
                b_ctx = d.ctx;
                b_node = d.node;
                b_first = d.paddr;
                b_cnt = 0;
                b_mask = 0;
                b_bad = false;
                std::memset(b_data, 0, sizeof b_data);
            }
            b_data[b_cnt] = b.wdata & strb_mask(b.wstrb);
            b_mask |= (uint64_t)b.wstrb << (8 * b_cnt);
            b_cnt++;
            // the byte enables must stay one run: the beat that breaks it
            // refuses the burst (noted once, nothing sent)
            if (!b_bad && !mask_is_run(b_mask)) {
                b_bad = true;
                errors++;
                cov.run_bad++;
                set_status(b_ctx, TG_ST_MISALIGNED);
            }
            if (b.last || (b_first % TG_MAX_BURST_BYTES) / 8 + b_cnt == WORDS) emit_burst();
            return;
        }
        if (d.atom && d.aw != AW_FINC && b.write) {
            // a store to FAA, SWAP or CAS sets the operand: all eight bytes or nothing
            if (b.wstrb == 0xFF) {
                val[d.ctx][4] = b.wdata;
                known[d.ctx][4] = true;
                cov.opnd_set++;
            } else {
                errors++;
                set_status(d.ctx, TG_ST_MISALIGNED);
                cov.opnd_bad++;
            }
            return;
        }
        if ((d.remote || d.sync || d.atom) && !b.write) {
            TxD t;
            t.dst = (uint16_t)d.node;
            t.ctx = (uint8_t)d.ctx;
            t.tag = seq;
            if (d.atom) {
                // blocking atomic: old value comes back as a read's would
                const uint8_t ops[AW_N] = {TG_OP_FAA, TG_OP_SWAP, TG_OP_CAS, TG_OP_FAA};
                t.op = ops[d.aw];
                t.atomic = true;
                t.pay = true;
                t.addr = d.paddr;
                t.len = TG_ATOMIC_LEN;
                t.mask = 0xFF;
                t.words[0] = d.aw == AW_FINC ? 1 : val[d.ctx][4];
                t.wknown[0] = d.aw == AW_FINC || known[d.ctx][4];
                t.words[1] = val[d.ctx][5];
                t.wknown[1] = known[d.ctx][5];
                cov.blk_sent[d.aw]++;
            } else {
                t.op = TG_OP_READ_REQ;
                t.sync = d.sync;
                t.addr = d.paddr;
                t.len = d.sync ? 0 : 8;
                t.mask = d.sync ? 0 : 0xFF;
            }
            t.key = val[t.ctx & 15][8];
        t.kknown = known[t.ctx & 15][8];
        txd.push_back(t);
            descs++;
            waiting = true;
            wait_sync = d.sync;
            wait_ctx = d.ctx;
            wait_node = d.node;
            wait_aw = d.atom ? d.aw : -1;
            wait_start = now;
            wait_tmo = tmo_now;
            return;
        }
        if (d.csr) {
            if (b.write) {
                if (b.wstrb == 0xFF) csr_wr.push_back({(unsigned)d.reg, b.wdata});
            } else {
                resp.push_back(csr_value((unsigned)d.reg));
            }
            return;
        }
        if (d.ctxpg) {
            unsigned c = d.page;
            unsigned r = (unsigned)(d.reg / 8);
            if (!b.write) {
                uint64_t v = 0;   // FETCH_GO, ATOMIC_GO and offsets that map nothing read as zero
                if (d.reg == TG_CTX_REG_STATUS) v = status[c];
                else if (d.reg == TG_CTX_REG_LAST_STATUS) v = last[c];
                else if (d.reg == TG_CTX_REG_REQ_STATE) v = req_state(c);
                else if (value_reg(d.reg)) v = val[c][r];
                if (d.reg == TG_CTX_REG_LAST_STATUS) (last[c] ? cov.last_err : cov.last_ok)++;
                resp.push_back(v);   // checked against `known` when it comes out
                return;
            }
            if (d.reg == TG_CTX_REG_FETCH_GO) {
                uint64_t e = fetch_error(c, b.wdata);
                if (e) {
                    errors++;
                    set_status(c, e);
                    return;
                }
                uint32_t paddr = (uint32_t)b.wdata;
                unsigned len = (unsigned)(b.wdata >> 48) & 0xFF, lo = paddr & 7;
                TxD t;
                t.op = TG_OP_READ_REQ;
                t.fetch = true;
                t.dst = (uint16_t)(b.wdata >> 32);
                t.ctx = (uint8_t)c;
                t.addr = paddr & ~7u;
                t.len = (uint8_t)(8 * ((lo + len + 7) / 8));
                t.mask = (len == 64 ? ONES : ((1ull << len) - 1)) << lo;
                t.key = val[t.ctx & 15][8];
        t.kknown = known[t.ctx & 15][8];
        txd.push_back(t);
                descs++;
                Ent en;
                en.busy = true;
                en.node = t.dst;
                en.laddr = (uint32_t)val[c][1] & ~7u;
                en.cpl = (uint32_t)val[c][2];
                en.mask = t.mask;
                en.alloc = now;
                en.tmo = tmo_now;
                pending.push_back(en);
                return;
            }
            if (d.reg == TG_CTX_REG_WCHECK) {
                // a WRITE of no bytes over the words of the range
                uint32_t paddr = (uint32_t)b.wdata;
                unsigned len = (unsigned)(b.wdata >> 48) & 0xFF, lo = paddr & 7;
                if (len == 0 || len > TG_MAX_BURST_BYTES ||
                    (paddr % TG_MAX_BURST_BYTES) + len > TG_MAX_BURST_BYTES) {
                    errors++;
                    set_status(c, TG_ST_MISALIGNED);
                    cov.wcheck_bad++;
                    return;
                }
                TxD t;
                t.op = TG_OP_WRITE;
                t.burst = true;      // its words: all zero
                t.dst = (uint16_t)(b.wdata >> 32);
                t.ctx = (uint8_t)c;
                t.addr = paddr & ~7u;
                t.len = (uint8_t)(8 * ((lo + len + 7) / 8));
                t.mask = 0;
                t.key = val[t.ctx & 15][8];
                t.kknown = known[t.ctx & 15][8];
                txd.push_back(t);
                descs++;
                cov.wcheck_sent++;
                return;
            }
            if (d.reg == TG_CTX_REG_ATOMIC_GO) {
                unsigned why = 0;
                uint64_t e = atomic_error(c, b.wdata, &why);
                if (e) {
                    errors++;
                    set_status(c, e);
                    for (unsigned k = 0; k < WHY_N; k++) cov.ago_why[k] += (why >> k) & 1;
                    cov.ago_ref_st[e == TG_ST_BAD_OP ? 0 : e == TG_ST_RANGE ? 1 : 2]++;
                    cov.ago_fn_and_more += (why & 1) && (why & ~1u);
                    cov.ago_range_and_mis += !(why & 1) && (why & 6) && (why & 0x38);
                    return;
                }
                const uint8_t ops[3] = {TG_OP_FAA, TG_OP_SWAP, TG_OP_CAS};
                unsigned fn = (unsigned)(b.wdata >> 56) & 3;
                TxD t;
                t.op = ops[fn];
                t.fetch = true;
                t.atomic = true;
                t.pay = true;
                t.dst = (uint16_t)(b.wdata >> 32);
                t.ctx = (uint8_t)c;
                t.addr = (uint32_t)b.wdata;
                t.len = TG_ATOMIC_LEN;
                t.mask = 0xFF;
                t.words[0] = val[c][4];
                t.wknown[0] = known[c][4];
                t.words[1] = val[c][5];
                t.wknown[1] = known[c][5];
                t.key = val[t.ctx & 15][8];
        t.kknown = known[t.ctx & 15][8];
        txd.push_back(t);
                descs++;
                cov.ago_go[fn]++;
                Ent en;
                en.busy = true;
                en.atomic = true;
                en.node = t.dst;
                en.laddr = (uint32_t)val[c][1];
                en.cpl = (uint32_t)val[c][2];
                en.mask = 0xFF;
                en.alloc = now;
                en.tmo = tmo_now;
                pending.push_back(en);
                return;
            }
            if (d.reg == TG_CTX_REG_STATUS) {
                status[c] = TG_ST_OK;
            } else if (d.reg == TG_CTX_REG_REQ_STATE) {
                if (c < NUM_CTX) reqf[c] = 0;   // the failure fields
                cov.reqst_clear++;
            } else if (!value_reg(d.reg)) {
                errors++;   // a register that cannot be written
                cov.unknown_reg++;
            } else {
                // LADDR and CPL hold an address, OPERAND and COMPARE 64 bits
                bool addr_reg = d.reg == TG_CTX_REG_FETCH_LADDR || d.reg == TG_CTX_REG_FETCH_CPL;
                val[c][r] = addr_reg ? (uint32_t)b.wdata : b.wdata;
                known[c][r] = true;
            }
            return;
        }
        // unmapped control offset, a store to the FINC or fence window, a
        // load from the REQ window, or an atomic window of a context past
        // the last
        errors++;
        if (!b.write) resp.push_back(ONES);
        if (!d.ctrl) set_status(d.ctx, TG_ST_BAD_OP);
        if (!d.ctrl && !b.write && d.ctx < NUM_CTX) last[d.ctx] = TG_ST_BAD_OP;
        if (d.atom && b.write) cov.finc_store++;
    }

    void answer(uint8_t st, uint64_t data)
    {
        waiting = false;
        seq = (uint16_t)((seq + 1) & 0x7FFF);
        answers++;
        resp.push_back(wait_sync ? st : st == TG_ST_OK ? data : ONES);
        if (st != TG_ST_OK) set_status(wait_ctx, st);
        last[wait_ctx] = st;
        if (wait_aw >= 0) (st == TG_ST_OK ? cov.blk_ok : cov.blk_err)[wait_aw]++;
    }
    // No answer in time: the host gets all ones (a fence PEER_GONE); the
    // caller sets the STATUS once it knows what the request in the same
    // cycle did to it.
    void timeout()
    {
        waiting = false;
        seq = (uint16_t)((seq + 1) & 0x7FFF);
        answers++;
        resp.push_back(wait_sync ? (uint64_t)TG_ST_PEER_GONE : ONES);
        last[wait_ctx] = TG_ST_PEER_GONE;
        if (wait_aw >= 0) cov.blk_tmo[wait_aw]++;
        else if (wait_sync) cov.fence_tmo++;
        else cov.read_tmo++;
    }
};

// Which context register a response to a context-page read came from, so
// reads of values the model does not know (after reset) are not compared.
struct RespInfo {
    bool check = true;
    bool status_any = false;   // an error status with any code
    unsigned ctx = 0;
};

struct Tb {
    std::unique_ptr<Vtg_host_if> m;
    TbRng rng;
    Model ref;
    std::deque<Beat> hq;
    std::deque<RespInfo> resp_info;
    bool showing = false;
    unsigned host_gap_pct = 0, resp_stall_pct = 0, txd_stall_pct = 0, free_pct = 0, stray_pct = 0;
    unsigned ans_min = 1, ans_max = 1;
    bool hold_answers = false;   // answer only once every queued write is in
    // the receive engine's answer to the read in flight
    bool ans_active = false;
    uint64_t ans_due = 0;
    uint16_t ans_tag = 0, ans_src = 0;
    uint8_t ans_status = 0;
    uint64_t ans_data = 0;
    unsigned ans_strays = 0;
    unsigned err_status_pct = 15;
    unsigned fail_pct = 2;       // chance of a failure report (s_err) in a cycle
    // read timeout (cfg_read_timeout): answers may never come, or come late
    uint32_t read_timeout = 0;
    unsigned drop_pct = 0;       // chance a blocking request is never answered (timeout set only)
    unsigned fto_ready_pct = 50; // chance the receive engine takes an overdue fetch in a cycle
    bool late_active = false;    // an answer that lost to the timeout, still to arrive (a stray)
    uint64_t late_due = 0;
    uint16_t late_tag = 0, late_src = 0;
    // seen
    uint64_t cyc = 0, seen_err = 0, seen_stray = 0, seen_req = 0, seen_resp = 0;
    uint64_t n_desc = 0, n_resp = 0, n_stall_full = 0, n_wait_writes = 0, n_lookup_hits = 0;
    uint64_t n_fail = 0, n_fail_kept = 0, n_req_desc = 0;
    bool prev_txd_stalled = false, prev_resp_stalled = false;
    uint32_t prev_txd[24];
    uint64_t prev_resp = 0;
    // The request buffer, the bench as the request's path downstream: the
    // holds each slot has (bit 0 the wire, bit 1 the REQ sender), the holds
    // a slot was taken with while its descriptor is not yet taken (-1:
    // none), and the releases due, each hold dropped some cycles after its
    // descriptor is taken. Stretches with no slot shown free. (Its own
    // generator: the traffic draws stay as they are.)
    TbRng prng;
    unsigned rel_max = 8;          // a hold is released 1..rel_max+1 cycles after its descriptor is taken
    unsigned block_permille = 3;   // chance a cycle starts a stretch with no free slot shown
    uint64_t block_end = 0;
    uint8_t held[32] = {};
    int taken[32];
    struct Rel {
        uint64_t due;
        unsigned slot, bit;
    };
    std::vector<Rel> rels;
    int rel_idx[2] = {-1, -1};     // the releases driven in this cycle (wire, REQ), indices in rels

    explicit Tb(uint64_t seed) : m(new Vtg_host_if), rng(seed)
        , prng(seed ^ 0x5DEECE66Dull)
    {
        std::fill(taken, taken + 32, -1);
    }

    // a value for a context register: an address register holds 32 bits
    uint64_t reg_value(uint64_t reg)
    {
        bool addr_reg = reg == TG_CTX_REG_FETCH_LADDR || reg == TG_CTX_REG_FETCH_CPL;
        return addr_reg ? (uint32_t)rng.next() : rng.next();
    }

    // ------------------------------------------------------------ requests
    void push(const Beat &b) { hq.push_back(b); }
    void wr(uint64_t addr, uint64_t data, uint8_t strb = 0xFF) { push(Beat{true, addr, data, strb, true}); }
    void rd(uint64_t addr) { push(Beat{false, addr, 0, 0, true}); }

    uint8_t random_strobe()
    {
        switch (rng.below(5)) {
        case 0: return 0xFF;
        case 1: { unsigned lo = rng.below(8), n = 1 + rng.below(8 - lo); return (uint8_t)(((1u << n) - 1) << lo); }
        case 2: return 0;
        default: return (uint8_t)rng.next();
        }
    }
    // `n` beats from word `w0` of the block at `blk`; `last` on the final
    // beat when asked.
    // Mostly the byte enables are one run over the burst (the wire's form),
    // else each beat's random: a run with holes is refused.
    void burst(unsigned ctx, unsigned node, uint32_t blk, unsigned w0, unsigned n, bool last,
               unsigned win = TG_WIN_REMOTE)
    {
        bool run = rng.chance(75);
        unsigned lo = rng.below(8 * n), hi = lo + rng.below(8 * n - lo + 1);   // bytes [lo, hi)
        for (unsigned i = 0; i < n; i++) {
            uint8_t st = 0;
            for (unsigned b = 0; b < 8; b++)
                st |= (uint8_t)((8 * i + b >= lo && 8 * i + b < hi) << b);
            push(Beat{true, bar(win, ctx, node, blk + 8 * (w0 + i)), rng.next(), run ? st : random_strobe(),
                      last && i + 1 == n});
        }
    }
    uint32_t random_block() { return (uint32_t)(rng.next() & ~(uint64_t)(TG_MAX_BURST_BYTES - 1)); }

    // ------------------------------------------------------------ clock
    void drive_beat(const Beat &b)
    {
        m->s_host_req_write = b.write;
        m->s_host_req_addr = b.addr;
        m->s_host_req_wdata = b.wdata;
        m->s_host_req_wstrb = b.wstrb;
        m->s_host_req_last = b.last;
    }
    void snapshot_txd(uint32_t *s)
    {
        Vtg_host_if &h = *m;
        for (unsigned w = 0; w < 16; w++) s[w] = h.m_txd_payload[w];
        s[16] = h.m_txd_op | (h.m_txd_len << 8) | (h.m_txd_ctx << 16);
        s[17] = h.m_txd_dst | (h.m_txd_tag << 16);
        s[18] = h.m_txd_addr;
        s[19] = (uint32_t)tg_frame_mask(h.m_txd_off, h.m_txd_cnt);
        s[20] = (uint32_t)(tg_frame_mask(h.m_txd_off, h.m_txd_cnt) >> 32);
        s[21] = s[22] = s[23] = 0;
        s[21] = h.m_txd_pay_src | (h.m_txd_pay_slot << 8);
    }

    void check_lookup()
    {
        Vtg_host_if &h = *m;
        unsigned i = h.fetch_lookup_idx;
        const Ent &e = ref.ft[i];
        if (i >= MAX_READS) {
            TB_CHECK(!h.fetch_lookup_valid, "cycle %llu: table entry %u valid, past MAX_READS", (unsigned long long)cyc, i);
            return;
        }
        if (e.busy && e.late) {
            TB_CHECK(!h.fetch_lookup_valid, "cycle %llu: entry %u looked up after it was handed over as overdue",
                     (unsigned long long)cyc, i);
            return;
        }
        if (e.busy) {
            n_lookup_hits++;
            cov.ago_hits += e.atomic;
            TB_CHECK(h.fetch_lookup_valid && h.fetch_lookup_node == e.node && h.fetch_lookup_laddr == e.laddr &&
                         h.fetch_lookup_cpl == e.cpl && tg_frame_mask(h.fetch_lookup_off, h.fetch_lookup_cnt) == e.mask,
                     "cycle %llu: entry %u valid %u node %04x/%04x laddr %08x/%08x cpl %08x/%08x mask %016llx/%016llx",
                     (unsigned long long)cyc, i, h.fetch_lookup_valid, h.fetch_lookup_node, e.node,
                     h.fetch_lookup_laddr, e.laddr, h.fetch_lookup_cpl, e.cpl,
                     (unsigned long long)tg_frame_mask(h.fetch_lookup_off, h.fetch_lookup_cnt), (unsigned long long)e.mask);
            return;
        }
        if (!h.fetch_lookup_valid) return;
        // valid but not known yet: must be one of the allocations in flight
        bool match = false;
        for (const Ent &p : ref.pending)
            match |= p.node == h.fetch_lookup_node && p.laddr == h.fetch_lookup_laddr &&
                     p.cpl == h.fetch_lookup_cpl && p.mask == tg_frame_mask(h.fetch_lookup_off, h.fetch_lookup_cnt);
        TB_CHECK(match, "cycle %llu: entry %u valid but nothing allocated there", (unsigned long long)cyc, i);
    }

    void check_txd(const TxD &w)
    {
        Vtg_host_if &h = *m;
        TB_CHECK(h.m_txd_op == w.op && h.m_txd_len == w.len && h.m_txd_ctx == w.ctx && h.m_txd_dst == w.dst,
                 "cycle %llu: descriptor op %u/%u len %u/%u ctx %u/%u dst %04x/%04x", (unsigned long long)cyc,
                 h.m_txd_op, w.op, h.m_txd_len, w.len, h.m_txd_ctx, w.ctx, h.m_txd_dst, w.dst);
        if (w.kknown)
            TB_CHECK(h.m_txd_key == w.key, "cycle %llu: descriptor key %016llx, want %016llx",
                     (unsigned long long)cyc, (unsigned long long)h.m_txd_key, (unsigned long long)w.key);
        // (a write burst's tag is not part of the contract; a REQ's is its number)
        if (!w.burst || w.op == TG_OP_REQ)
            TB_CHECK(h.m_txd_tag == w.tag, "cycle %llu: descriptor tag %04x, want %04x", (unsigned long long)cyc,
                     h.m_txd_tag, w.tag);
        if (!w.sync)
            TB_CHECK(h.m_txd_addr == w.addr && tg_frame_mask(h.m_txd_off, h.m_txd_cnt) == w.mask,
                     "cycle %llu: descriptor (op %u len %u) addr %08x/%08x mask %016llx/%016llx",
                     (unsigned long long)cyc, w.op, w.len, h.m_txd_addr, w.addr,
                     (unsigned long long)tg_frame_mask(h.m_txd_off, h.m_txd_cnt), (unsigned long long)w.mask);
        // an atomic carries operand and compare (a request-buffer slot
        // holds the frame's words, no more)
        cov.payload_known += w.atomic && w.wknown[0] && w.wknown[1];
        const unsigned atomic_words = (unsigned)TG_ATOMIC_LEN / 8;
        for (unsigned k = 0; w.atomic && k < atomic_words; k++) {
            uint64_t got = (uint64_t)h.m_txd_payload[2 * k] | ((uint64_t)h.m_txd_payload[2 * k + 1] << 32);
            if (k < 2 && !w.wknown[k]) continue;
            uint64_t want = k < 2 ? w.words[k] : 0;
            TB_CHECK(got == want, "cycle %llu: atomic op %u to %04x:%08x word %u = %016llx, want %016llx",
                     (unsigned long long)cyc, w.op, w.dst, w.addr, k, (unsigned long long)got,
                     (unsigned long long)want);
        }
        // a WRITE or REQ carries the burst; a READ_REQ's payload bytes mean nothing
        for (unsigned k = 0; w.burst && k < w.len / 8u && k < WORDS; k++) {
            uint64_t got = (uint64_t)h.m_txd_payload[2 * k] | ((uint64_t)h.m_txd_payload[2 * k + 1] << 32);
            TB_CHECK(got == w.words[k], "cycle %llu: %s to %08x word %u = %016llx, want %016llx",
                     (unsigned long long)cyc, w.op == TG_OP_REQ ? "REQ" : "WRITE", w.addr, k,
                     (unsigned long long)got, (unsigned long long)w.words[k]);
        }
    }

    // ------------------------------------------------------------ request buffer
    static bool atomic_op(unsigned op) { return op == TG_OP_FAA || op == TG_OP_SWAP || op == TG_OP_CAS; }
    uint64_t held_vec() const
    {
        uint64_t v = 0;
        for (unsigned s = 0; s < 32; s++) v |= (uint64_t)(held[s] & 1) << s | (uint64_t)(held[s] >> 1 & 1) << (32 + s);
        return v;
    }
    // A request that must wait for a free slot: a burst's first beat, a
    // blocking atomic, an ATOMIC_GO that starts.
    bool needs_slot(const Beat &b) const
    {
        Dec d = decode(b.addr);
        if (d.mis) return false;
        if ((d.remote || d.reqw) && b.write) return !(ref.b_active && ref.continues(b, d));
        if (d.atom && !b.write) return true;
        return b.write && d.ctxpg && d.reg == TG_CTX_REG_ATOMIC_GO && ref.is_good_fetch(b);
    }
    // before the clock: a stretch with no free slot shown, and the due
    // releases (one wire hold and one REQ hold a cycle)
    void pay_drive(bool rst)
    {
        Vtg_host_if &h = *m;
        if (!rst && cyc >= block_end && prng.below(1000) < block_permille) block_end = cyc + 1 + prng.below(40);
        h.tb_alloc_block = !rst && cyc < block_end;
        rel_idx[0] = rel_idx[1] = -1;
        for (size_t i = 0; i < rels.size() && !rst; i++)
            if (rels[i].due <= cyc && rel_idx[rels[i].bit] < 0) rel_idx[rels[i].bit] = (int)i;
        h.tb_free_wire_valid = rel_idx[0] >= 0;
        h.tb_free_wire_slot = rel_idx[0] >= 0 ? rels[rel_idx[0]].slot : prng.below(32);
        h.tb_free_req_valid = rel_idx[1] >= 0;
        h.tb_free_req_slot = rel_idx[1] >= 0 ? rels[rel_idx[1]].slot : prng.below(32);
    }
    // after the inputs settle: the buffer's holds are the model's, a slot is
    // taken only when free, a held slot is written only with the compare
    // word of the atomic first offered from it, an offered slot was taken,
    // and a request that needs a slot waits while none is shown
    void pay_check()
    {
        Vtg_host_if &h = *m;
        unsigned long long c = cyc;
        TB_CHECK(h.st_held == held_vec(), "cycle %llu: request-buffer holds %016llx, want %016llx", c,
                 (unsigned long long)h.st_held, (unsigned long long)held_vec());
        if (h.m_pay_take_valid) {
            unsigned s = h.m_pay_take_slot;
            TB_CHECK(!held[s], "cycle %llu: slot %u taken while held (%u)", c, s, held[s]);
            TB_CHECK(h.m_pay_take_mask == TG_PAY_HOLD_WIRE || h.m_pay_take_mask == (TG_PAY_HOLD_WIRE | TG_PAY_HOLD_REQ),
                     "cycle %llu: slot %u taken with holds %u", c, s, h.m_pay_take_mask);
        }
        if (h.m_pay_we) {
            unsigned s = h.m_pay_wr_slot;
            bool cmp = h.m_txd_valid && !prev_txd_stalled && h.m_txd_pay_src == TG_PAY_REQ && h.m_txd_pay_slot == s &&
                       atomic_op(h.m_txd_op) && h.m_pay_wr_word == 1;
            TB_CHECK(!held[s] || cmp, "cycle %llu: word %u of slot %u written while the slot is held (%u)", c,
                     h.m_pay_wr_word, s, held[s]);
            cov.pay_cmp_late += cmp && held[s];
        }
        TB_CHECK(h.m_txd_pay_src == TG_PAY_NONE || h.m_txd_pay_src == TG_PAY_REQ, "cycle %llu: descriptor source %u",
                 c, h.m_txd_pay_src);
        if (h.m_txd_valid && h.m_txd_pay_src == TG_PAY_REQ)
            TB_CHECK(taken[h.m_txd_pay_slot] >= 0, "cycle %llu: descriptor offers slot %u, which it did not take", c,
                     h.m_txd_pay_slot);
        if (!h.pay_alloc_valid && h.s_host_req_valid && needs_slot(hq.front())) {
            TB_CHECK(!h.s_host_req_ready, "cycle %llu: request %llx that needs a slot taken with none free", c,
                     (unsigned long long)hq.front().addr);
            cov.pay_wait++;
            cov.pay_wait_full += h.st_busy == 0xFFFFFFFFu;
        }
    }
    // the descriptor taken downstream: a payload in a slot exactly when it
    // has one, the slot taken with the wire hold (and a REQ's hold), and
    // its holds released later
    void pay_desc_taken(const TxD &t)
    {
        Vtg_host_if &h = *m;
        unsigned want = t.pay ? TG_PAY_REQ : TG_PAY_NONE;
        TB_CHECK(h.m_txd_pay_src == want, "cycle %llu: op %u len %u to %08x source %u, want %u",
                 (unsigned long long)cyc, t.op, t.len, t.addr, h.m_txd_pay_src, want);
        if (h.m_txd_pay_src != TG_PAY_REQ) return;
        unsigned s = h.m_txd_pay_slot;
        int mask = t.op == TG_OP_REQ ? TG_PAY_HOLD_WIRE | TG_PAY_HOLD_REQ : TG_PAY_HOLD_WIRE;
        TB_CHECK(taken[s] == mask, "cycle %llu: op %u from slot %u taken with holds %d, want %d",
                 (unsigned long long)cyc, t.op, s, taken[s], mask);
        if (taken[s] < 0) return;
        for (unsigned bit = 0; bit < 2; bit++)
            if (taken[s] >> bit & 1) rels.push_back(Rel{cyc + 1 + prng.below(rel_max + 1), s, bit});
        taken[s] = -1;
    }
    // the clock edge, as the buffer takes it
    void pay_edge()
    {
        Vtg_host_if &h = *m;
        for (unsigned bit = 0; bit < 2; bit++) {
            if (rel_idx[bit] < 0) continue;
            unsigned s = rels[rel_idx[bit]].slot;
            TB_CHECK(held[s] >> bit & 1, "cycle %llu: bench releases hold %u of slot %u, not held",
                     (unsigned long long)cyc, bit, s);
            held[s] &= (uint8_t)~(1u << bit);
            cov.pay_rels++;
        }
        int hi = std::max(rel_idx[0], rel_idx[1]), lo = std::min(rel_idx[0], rel_idx[1]);
        if (hi >= 0) rels.erase(rels.begin() + hi);
        if (lo >= 0) rels.erase(rels.begin() + lo);
        if (h.m_pay_take_valid) {
            unsigned s = h.m_pay_take_slot;
            held[s] |= h.m_pay_take_mask;
            taken[s] = h.m_pay_take_mask;
            cov.pay_takes++;
            cov.pay_req_holds += h.m_pay_take_mask >> 1 & 1;
            cov.pay_slots |= 1u << s;
        }
    }
    void pay_clear()
    {
        std::fill(held, held + 32, 0);
        std::fill(taken, taken + 32, -1);
        rels.clear();
        block_end = 0;
    }
    // every hold released once its time comes: no slot is left held
    void pay_drain(const char *what)
    {
        for (uint64_t end = cyc + rel_max + 100; !rels.empty() && cyc < end;) tick();
        tick();
        unsigned pend = 0;
        for (unsigned s = 0; s < 32; s++) pend += taken[s] >= 0;
        TB_CHECK(rels.empty() && pend == 0 && m->st_busy == 0,
                 "%s: request buffer busy %08x after every descriptor was taken (%zu releases, %u slots pending)", what,
                 m->st_busy, rels.size(), pend);
    }

    void tick(bool rst = false)
    {
        Vtg_host_if &h = *m;
        h.rst = rst;
        h.cfg_mem_size = ref.mem_size;
        h.cfg_read_timeout = read_timeout;
        ref.now = cyc;
        ref.tmo_now = read_timeout;
        if (!showing && !rst) showing = !hq.empty() && !rng.chance(host_gap_pct);
        h.s_host_req_valid = showing && !rst;
        if (h.s_host_req_valid) {
            drive_beat(hq.front());
        } else {
            drive_beat(Beat{(bool)rng.below(2), rng.next() & ((1ull << TG_BAR_ADDR_BITS) - 1), rng.next(),
                            (uint8_t)rng.next(), (bool)rng.below(2)});
        }

        // the receive engine: an answer, a stray, or nothing
        bool ans = false, stray = false;
        h.s_hrd_valid = 0;
        h.s_hrd_src = (uint16_t)rng.next();
        h.s_hrd_tag = (uint16_t)rng.next();
        h.s_hrd_status = (uint8_t)rng.next();
        h.s_hrd_data = rng.next();
        if (!rst) {
            // never in the same cycle as a write: both could touch a STATUS
            bool quiet = !h.s_host_req_valid || !hq.front().write;
            // holding: only once the writes queued behind the read are in
            bool writes_in = !hold_answers || hq.empty() || !hq.front().write;
            if (ans_active && cyc >= ans_due && quiet && writes_in) {
                if (ans_strays) {
                    stray = true;
                    ans_strays--;
                    h.s_hrd_valid = 1;
                    h.s_hrd_src = ans_src;
                    h.s_hrd_tag = ans_tag;
                    h.s_hrd_status = ans_status;
                    h.s_hrd_data = ans_data;
                    if (rng.below(2)) h.s_hrd_src ^= (uint16_t)(1u << rng.below(16));
                    else h.s_hrd_tag ^= (uint16_t)(1u << rng.below(16));
                } else {
                    ans = true;
                    h.s_hrd_valid = 1;
                    h.s_hrd_src = ans_src;
                    h.s_hrd_tag = ans_tag;
                    h.s_hrd_status = ans_status;
                    h.s_hrd_data = ans_data;
                    if (hold_answers) n_wait_writes++;
                }
            } else if (late_active && cyc >= late_due) {
                // the answer to a request that already timed out
                stray = true;
                late_active = false;
                cov.late++;
                h.s_hrd_valid = 1;
                h.s_hrd_src = late_src;
                h.s_hrd_tag = late_tag;
            } else if (rng.chance(stray_pct)) {
                stray = true;
                h.s_hrd_valid = 1;
                h.s_hrd_tag = (uint16_t)(ref.seq ^ (1u << rng.below(16)));   // never the tag in flight
            }
        }
        // the blocking request in flight fails in this cycle: it was accepted
        // more than the read timeout of then cycles ago and nothing arrives now
        bool tmo = !rst && ref.waiting && ref.wait_tmo != 0 && !h.s_hrd_valid &&
                   cyc >= ref.wait_start + 1 + ref.wait_tmo;
        // a REQ that finished for good, delivered or failed (in any cycle:
        // a REQ_STATE write in the same one clears first, then it counts)
        bool done = false;
        h.s_reqdone_valid = 0;
        h.s_reqdone_ctx = (uint8_t)rng.below(16);
        if (h.s_host_req_valid && rng.chance(50)) {
            // often the context whose REQ_STATE the request at the port writes
            const Dec pd = decode(hq.front().addr);
            if (hq.front().write && pd.ctxpg && pd.reg == TG_CTX_REG_REQ_STATE) h.s_reqdone_ctx = (uint8_t)pd.page;
        }
        h.s_reqdone_num = (uint16_t)rng.next();
        h.s_reqdone_status = (uint8_t)rng.next();
        if (!rst && rng.chance(fail_pct)) {
            const uint8_t codes[] = {TG_ST_NO_QUEUE, TG_ST_MALFORMED, TG_ST_PEER_GONE};
            done = true;
            h.s_reqdone_valid = 1;
            h.s_reqdone_status = rng.chance(40) ? (uint8_t)TG_ST_OK
                                 : rng.chance(75) ? codes[rng.below(3)] : (uint8_t)(1 + rng.below(8));
        }
        h.m_host_resp_ready = !rng.chance(resp_stall_pct);
        h.m_txd_ready = !rng.chance(txd_stall_pct);
        h.m_fto_ready = rng.chance(fto_ready_pct);
        h.fetch_lookup_idx = (uint8_t)rng.below(16);
        int free_idx = -1;
        if (!rst && rng.chance(free_pct)) {
            unsigned start = rng.below(16);
            for (unsigned k = 0; k < 16 && free_idx < 0; k++) {
                unsigned i = (start + k) % 16;
                if (ref.ft[i].busy && ref.ft[i].sent) free_idx = (int)i;
            }
        }
        h.fetch_free_valid = free_idx >= 0;
        h.fetch_free_idx = (uint8_t)(free_idx >= 0 ? free_idx : rng.below(16));
        pay_drive(rst);
        h.clk = 0;
        h.eval();
        h.csr_rdata = csr_value(h.csr_addr);
        h.eval();

        if (!rst) {
            // A request that does not continue the open burst ends it: the
            // module may send the burst while that request is still waiting
            // to be accepted (never before one is presented).
            if (h.m_txd_valid && ref.txd.empty() && ref.b_active && showing &&
                !ref.continues(hq.front(), decode(hq.front().addr)))
                ref.emit_burst();
            // a fetch descriptor on the transmitter port names its table entry
            if (h.m_txd_valid && !ref.txd.empty() && ref.txd.front().fetch && !ref.txd.front().resolved) {
                TxD &t = ref.txd.front();
                unsigned idx = h.m_txd_tag & 15;
                TB_CHECK((h.m_txd_tag & TG_TAG_FETCH) && idx < MAX_READS && !ref.ft[idx].busy &&
                             !ref.pending.empty(),
                         "cycle %llu: fetch tag %04x (entry busy %u)", (unsigned long long)cyc, h.m_txd_tag,
                         ref.ft[idx].busy);
                t.tag = h.m_txd_tag;
                t.resolved = true;
                if (!ref.pending.empty()) {
                    ref.ft[idx] = ref.pending.front();
                    ref.pending.pop_front();
                }
            }
            check_lookup();

            // overdue fetches: the lowest entry whose age reached the timeout
            int overdue = -1;
            for (unsigned i = 0; i < MAX_READS && overdue < 0; i++)
                if (ref.ft[i].busy && !ref.ft[i].late && ref.ft[i].tmo && cyc >= ref.ft[i].alloc + 1 + ref.ft[i].tmo)
                    overdue = (int)i;
            for (const Ent &p : ref.pending)
                TB_CHECK(!p.tmo || cyc < p.alloc + 1 + p.tmo,
                         "cycle %llu: a fetch start accepted at %llu is overdue but never showed its entry",
                         (unsigned long long)cyc, (unsigned long long)p.alloc);
            TB_CHECK(h.m_fto_valid == (overdue >= 0) && (overdue < 0 || h.m_fto_idx == (unsigned)overdue),
                     "cycle %llu: overdue fetch valid %u idx %u, want valid %u idx %d", (unsigned long long)cyc,
                     h.m_fto_valid, h.m_fto_idx, overdue >= 0, overdue);

            pay_check();
            // transmitter port
            uint32_t snap[24];
            snapshot_txd(snap);
            if (prev_txd_stalled)
                TB_CHECK(h.m_txd_valid && std::memcmp(snap, prev_txd, sizeof snap) == 0,
                         "cycle %llu: descriptor changed or withdrawn before it was taken", (unsigned long long)cyc);
            if (h.m_txd_valid && h.m_txd_ready) {
                TB_CHECK(!ref.txd.empty(), "cycle %llu: unexpected descriptor op %u addr %08x len %u",
                         (unsigned long long)cyc, h.m_txd_op, h.m_txd_addr, h.m_txd_len);
                if (!ref.txd.empty()) {
                    TxD t = ref.txd.front();
                    ref.txd.pop_front();
                    check_txd(t);
                    pay_desc_taken(t);
                    n_desc++;
                    if (t.fetch) ref.ft[h.m_txd_tag & 15].sent = true;
                    if (t.op == TG_OP_REQ) n_req_desc++;
                    if (!t.burst && !t.fetch) {
                        // (with a timeout it may have failed while it waited for the transmitter)
                        bool current = ref.waiting && t.tag == ref.seq;
                        TB_CHECK(!ans_active && (current || ref.wait_tmo),
                                 "cycle %llu: read request with no read waiting", (unsigned long long)cyc);
                        // with a timeout some requests are never answered
                        bool drop = ref.wait_tmo && rng.chance(drop_pct);
                        uint64_t due = cyc + ans_min + (ans_max > ans_min ? rng.below(ans_max - ans_min + 1) : 0);
                        if (current) {
                            ans_active = !drop;
                            ans_due = due;
                            ans_tag = t.tag;
                            ans_src = t.dst;
                            ans_status = rng.chance(err_status_pct) ? (uint8_t)(1 + rng.below(8)) : TG_ST_OK;
                            ans_data = rng.next();
                            ans_strays = rng.below(3);
                        } else if (!drop && !late_active) {
                            late_active = true;
                            late_due = due;
                            late_tag = t.tag;
                            late_src = t.dst;
                        }
                    }
                }
            }
            prev_txd_stalled = h.m_txd_valid && !h.m_txd_ready;
            std::memcpy(prev_txd, snap, sizeof snap);

            // host responses
            if (prev_resp_stalled)
                TB_CHECK(h.m_host_resp_valid && h.m_host_resp_rdata == prev_resp,
                         "cycle %llu: response changed or withdrawn before it was taken", (unsigned long long)cyc);
            if (h.m_host_resp_valid && h.m_host_resp_ready) {
                TB_CHECK(!ref.resp.empty(), "cycle %llu: unexpected response %016llx", (unsigned long long)cyc,
                         (unsigned long long)h.m_host_resp_rdata);
                if (!ref.resp.empty()) {
                    RespInfo ri = resp_info.front();
                    uint64_t want = ref.resp.front();
                    if (ri.status_any) {
                        TB_CHECK(h.m_host_resp_rdata != TG_ST_OK && h.m_host_resp_rdata < 256,
                                 "cycle %llu: context %u STATUS %llu, want an error code", (unsigned long long)cyc,
                                 ri.ctx, (unsigned long long)h.m_host_resp_rdata);
                        // from now on the code it chose is the one to keep
                        if (ref.status[ri.ctx] == ST_ANY) ref.status[ri.ctx] = h.m_host_resp_rdata;
                    } else if (ri.check) {
                        TB_CHECK(h.m_host_resp_rdata == want, "cycle %llu: response %016llx, want %016llx",
                                 (unsigned long long)cyc, (unsigned long long)h.m_host_resp_rdata,
                                 (unsigned long long)want);
                    }
                    ref.resp.pop_front();
                    resp_info.pop_front();
                    n_resp++;
                }
            }
            prev_resp_stalled = h.m_host_resp_valid && !h.m_host_resp_ready;
            prev_resp = h.m_host_resp_rdata;

            // what must stall
            if (h.s_host_req_valid) {
                const Beat &b = hq.front();
                if (!b.write && ref.waiting)
                    TB_CHECK(!h.s_host_req_ready, "cycle %llu: read %llx accepted while a remote read waits",
                             (unsigned long long)cyc, (unsigned long long)b.addr);
                if (ref.is_good_fetch(b) && ref.ft_used() >= MAX_READS && free_idx < 0 && !ref.b_active) {
                    n_stall_full++;
                    cov.ago_stall_full += decode(b.addr).reg == TG_CTX_REG_ATOMIC_GO;
                    TB_CHECK(!h.s_host_req_ready, "cycle %llu: FETCH_GO accepted with all %u entries busy",
                             (unsigned long long)cyc, MAX_READS);
                }
            }

            // the receive engine's answer is taken before any request
            if (stray) ref.strays++;
            if (ans) {
                ref.answer(ans_status, ans_data);
                resp_info.push_back(RespInfo());
                ans_active = false;
            }
            // and so is a timeout, but the STATUS it sets gives way to what
            // a request in the same cycle does to it (a write may be shown
            // then: the module, not the bench, picks the cycle)
            unsigned tmo_ctx = ref.wait_ctx;
            bool tmo_status = tmo;
            if (tmo) {
                ref.timeout();
                resp_info.push_back(RespInfo());
                if (ans_active) {
                    // its answer will come too late
                    late_active = true;
                    late_due = std::max(ans_due, cyc + 1);
                    late_tag = ans_tag;
                    late_src = ans_src;
                    ans_active = false;
                }
            }
            int clr_ctx = -1;   // the context whose REQ_STATE this cycle's request clears
            if (h.s_host_req_valid && h.s_host_req_ready) {
                const Beat b = hq.front();
                hq.pop_front();
                showing = false;
                size_t before = ref.resp.size();
                Dec bd = decode(b.addr);
                cov.tmo_write += tmo && b.write;
                if (tmo && b.write && !bd.mis && bd.ctxpg && bd.page == tmo_ctx && bd.reg == TG_CTX_REG_STATUS) {
                    tmo_status = false;   // cleared in the same cycle: the write wins
                    cov.tmo_clear++;
                }
                ref.accept(b);
                if (b.write && !bd.mis && bd.ctxpg && bd.reg == TG_CTX_REG_REQ_STATE) clr_ctx = (int)bd.page;
                if (ref.resp.size() > before) {
                    RespInfo ri;
                    Dec d = decode(b.addr);
                    if (d.ctxpg && !d.mis) {
                        unsigned r = (unsigned)(d.reg / 8);
                        ri.ctx = d.page;
                        if (d.reg == TG_CTX_REG_STATUS) {
                            ri.status_any = ref.status[d.page] == ST_ANY;
                        } else {
                            ri.check = !Model::value_reg(d.reg) || ref.known[d.page][r];
                        }
                    }
                    resp_info.push_back(ri);
                }
            }
            if (tmo_status) ref.set_status(tmo_ctx, TG_ST_PEER_GONE);
            // a failure report marks its context after this cycle's request
            // (a read of STATUS in this cycle still sees the old value)
            if (done) {
                n_fail += h.s_reqdone_status != TG_ST_OK;
                cov.reqst_clear_fail += clr_ctx == (int)h.s_reqdone_ctx && h.s_reqdone_status != TG_ST_OK;
                n_fail_kept += ref.req_done(h.s_reqdone_ctx, h.s_reqdone_num, h.s_reqdone_status);
            }
            // CSR writes pass through in the cycle they are accepted
            if (h.csr_wr_en) {
                TB_CHECK(!ref.csr_wr.empty(), "cycle %llu: csr_wr_en with no CSR write accepted", (unsigned long long)cyc);
                if (!ref.csr_wr.empty()) {
                    TB_CHECK(h.csr_addr == ref.csr_wr.front().first && h.csr_wdata == ref.csr_wr.front().second,
                             "cycle %llu: CSR write %03x = %016llx, want %03x = %016llx", (unsigned long long)cyc,
                             h.csr_addr, (unsigned long long)h.csr_wdata, ref.csr_wr.front().first,
                             (unsigned long long)ref.csr_wr.front().second);
                    ref.csr_wr.pop_front();
                }
            }
            TB_CHECK(ref.csr_wr.empty(), "cycle %llu: CSR write not passed through", (unsigned long long)cyc);
            ref.csr_wr.clear();

            seen_err += h.ev_host_error;
            seen_stray += h.ev_stray;
            seen_req += h.ev_host_req;
            seen_resp += h.ev_host_resp;
            if (overdue >= 0 && h.m_fto_ready) {
                ref.ft[overdue].late = true;
                cov.fto++;
                cov.fto_atomic += ref.ft[overdue].atomic;
            }
            if (free_idx >= 0) ref.ft[free_idx] = Ent();
            pay_edge();
        }
        if (rst) pay_clear();   // the buffer's holds go with the reset
        h.clk = 1;
        h.eval();
        cyc++;
    }

    bool busy() const
    {
        return !hq.empty() || !ref.txd.empty() || !ref.resp.empty() || ans_active || ref.waiting || late_active;
    }

    // Run until every request is in and answered, then check the counters.
    void run(const char *what, uint64_t limit = 300000)
    {
        uint64_t end = cyc + limit;
        while (busy() && cyc < end) tick();
        TB_CHECK(!busy(), "%s: stuck with %zu requests, %zu descriptors, %zu responses to go (waiting %u)", what,
                 hq.size(), ref.txd.size(), ref.resp.size(), ref.waiting);
        for (int i = 0; i < 8; i++) tick();
        TB_CHECK(seen_err == ref.errors, "%s: ev_host_error %llu, want %llu", what, (unsigned long long)seen_err,
                 (unsigned long long)ref.errors);
        TB_CHECK(seen_stray == ref.strays, "%s: ev_stray %llu, want %llu", what, (unsigned long long)seen_stray,
                 (unsigned long long)ref.strays);
        TB_CHECK(seen_resp == ref.answers, "%s: ev_host_resp %llu, want %llu", what, (unsigned long long)seen_resp,
                 (unsigned long long)ref.answers);
        uint64_t reqs = ref.descs + ref.b_refused + (ref.b_active ? 1 : 0);
        TB_CHECK(seen_req == reqs, "%s: ev_host_req %llu, want %llu", what, (unsigned long long)seen_req,
                 (unsigned long long)reqs);
        if (!ref.b_active) pay_drain(what);   // (an open burst has a slot in use, not yet taken)
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        ref.reset();
        hq.clear();
        resp_info.clear();
        showing = false;
        ans_active = false;
        late_active = false;
        prev_txd_stalled = prev_resp_stalled = false;
        seen_err = seen_stray = seen_req = seen_resp = 0;
    }

    // Read every context's STATUS (checked against the model).
    void read_statuses()
    {
        for (unsigned c = 0; c < NUM_CTX; c++) {
            rd(ctxreg(c, TG_CTX_REG_STATUS));
            rd(ctxreg(c, TG_CTX_REG_LAST_STATUS));
            rd(ctxreg(c, TG_CTX_REG_REQ_STATE));
        }
    }
    void clear_statuses()
    {
        for (unsigned c = 0; c < NUM_CTX; c++) {
            wr(ctxreg(c, TG_CTX_REG_STATUS), rng.next());
            wr(ctxreg(c, TG_CTX_REG_REQ_STATE), rng.next());
        }
    }
};

// ---------------------------------------------------------------- phases

static void csr_phase(Tb &tb)
{
    for (uint64_t off = 0; off < TG_PAGE_SIZE; off += 8) {
        tb.rd(csr(off));
        if (tb.rng.chance(20)) tb.wr(csr(off), tb.rng.next());
    }
    tb.run("CSR page");
}

static void ctx_phase(Tb &tb)
{
    const uint64_t regs[] = {TG_CTX_REG_FETCH_LADDR, TG_CTX_REG_FETCH_CPL, TG_CTX_REG_OPERAND, TG_CTX_REG_COMPARE,
                             TG_CTX_REG_KEY};
    for (unsigned c = 0; c < NUM_CTX; c++)
        for (uint64_t r : regs) tb.wr(ctxreg(c, r), tb.reg_value(r));
    for (unsigned c = 0; c < NUM_CTX; c++) {
        for (uint64_t r : regs) tb.rd(ctxreg(c, r));
        tb.rd(ctxreg(c, TG_CTX_REG_STATUS));
    }
    // a page past the last context, and control offsets that map nothing
    for (uint64_t r : regs) {
        tb.rd(ctxreg(NUM_CTX, r));
        tb.wr(ctxreg(NUM_CTX, r), tb.rng.next());
    }
    for (int i = 0; i < 8; i++) {
        uint64_t off = TG_PAGE_SIZE * (1 + tb.rng.below((unsigned)((TG_CTRL_CTX_BASE - TG_PAGE_SIZE) / TG_PAGE_SIZE))) +
                       8 * tb.rng.below(TG_PAGE_SIZE / 8);
        tb.rd(off);
        tb.wr(off, tb.rng.next());
        // bits above the control window's offsets
        unsigned span_bits = 0;
        while ((1ull << span_bits) < CTRL_SPAN) span_bits++;
        uint64_t hi = (CTRL_SPAN << tb.rng.below(TG_BAR_WIN_SHIFT - span_bits)) | (8 * tb.rng.below(TG_PAGE_SIZE / 8));
        tb.rd(hi);
        tb.wr(hi, tb.rng.next());
        tb.rd(bar(TG_WIN_CTRL, 1 + tb.rng.below(15), 0, (uint32_t)csr(TG_CSR_REG_ID)));   // context field set
    }
    // values written to one context do not leak into another
    for (unsigned c = 0; c < NUM_CTX; c++)
        for (uint64_t r : regs) tb.rd(ctxreg(c, r));
    tb.run("context pages");
}

// Every start word and beat count, each burst one WRITE (remote window) or
// one REQ (REQ window).
static void burst_phase(Tb &tb, unsigned win)
{
    for (unsigned w0 = 0; w0 < WORDS; w0++) {
        for (unsigned n = 1; n + w0 <= WORDS; n++) {
            for (int full_without_last = 0; full_without_last < 2; full_without_last++) {
                if (full_without_last && n + w0 != WORDS) continue;
                // (a burst whose byte enables have holes is refused instead)
                uint64_t before = tb.ref.descs + tb.ref.b_refused;
                tb.burst(tb.rng.below(16), tb.rng.below(256), tb.random_block(), w0, n, !full_without_last, win);
                tb.run("burst");
                TB_CHECK(tb.ref.descs + tb.ref.b_refused == before + 1 && !tb.ref.b_active,
                         "burst of %u beats from word %u%s: %llu descriptors", n, w0,
                         full_without_last ? " (no last)" : "",
                         (unsigned long long)(tb.ref.descs + tb.ref.b_refused - before));
            }
        }
    }
    // back to back, no gaps between bursts
    for (int i = 0; i < 200; i++) {
        unsigned w0 = tb.rng.below(WORDS);
        tb.burst(tb.rng.below(16), tb.rng.below(256), tb.random_block(), w0, 1 + tb.rng.below(WORDS - w0), true,
                 win);
    }
    tb.run("back-to-back bursts");
}

// A burst cut short by a request that does not continue it.
static void interrupt_phase(Tb &tb, unsigned win)
{
    unsigned other = win == TG_WIN_REQ ? TG_WIN_REMOTE : TG_WIN_REQ;
    for (int i = 0; i < 150; i++) {
        unsigned ctx = tb.rng.below(16), node = tb.rng.below(256);
        uint32_t blk = tb.random_block();
        unsigned w0 = tb.rng.below(WORDS - 1), k = 1 + tb.rng.below(WORDS - 1 - w0);
        tb.burst(ctx, node, blk, w0, k, false, win);
        unsigned next = w0 + k;   // the word that would continue it
        switch (tb.rng.below(16)) {
        case 0: tb.burst(ctx ^ (1 + tb.rng.below(15)), node, blk, next, 1, true, win); break;   // other context
        case 1: tb.burst(ctx, node ^ (1 + tb.rng.below(255)), blk, next, 1, true, win); break;  // other node
        case 2: tb.burst(ctx, node, blk ^ TG_MAX_BURST_BYTES, next, 1, true, win); break;      // other block
        case 3: tb.burst(ctx, node, blk, (next + 1 + tb.rng.below(WORDS - 1)) % WORDS, 1, true, win); break;  // skips or goes back
        case 4: tb.burst(ctx, node, blk, w0, WORDS - w0, true, win); break;                      // restarts
        case 5: tb.wr(bar(win, ctx, node, blk + 8 * next + 1 + tb.rng.below(7)), 1); break;     // misaligned
        case 6: tb.rd(bar(win, ctx, node, blk + 8 * next)); break;   // a remote read; a REQ-window read is refused
        case 12:  // the other window, exactly where the burst would go on: a burst of its own
            tb.burst(ctx, node, blk, next, 1 + tb.rng.below(WORDS - next), tb.rng.chance(80), other);
            break;
        case 13: tb.rd(bar(other, ctx, node, blk + 8 * next)); break;
        case 7: tb.rd(csr(8 * tb.rng.below(32))); break;
        case 8: tb.wr(csr(TG_CSR_REG_SCRATCH), tb.rng.next()); break;
        case 9: tb.wr(ctxreg(ctx, TG_CTX_REG_OPERAND), tb.rng.next()); break;
        case 10: tb.wr(bar(TG_WIN_FAA + tb.rng.below(4), ctx, node, blk + 8 * next), 1); break;   // operand, or FINC
        case 14: tb.rd(bar(TG_WIN_FAA + tb.rng.below(4), ctx, node, blk + 8 * next)); break;      // blocking atomic
        case 15: tb.wr(ctxreg(ctx, TG_CTX_REG_ATOMIC_GO), atomic_go(blk + 8 * next, (uint16_t)node, tb.rng.below(4))); break;
        default: tb.rd(bar(TG_WIN_SYNC, ctx, node, 0)); break;
        }
        if (tb.rng.chance(50)) tb.run("interrupted burst");
    }
    tb.run("interrupted bursts");
    tb.clear_statuses();
    tb.run("clear");
}

// Blocking reads and fences, with error answers and strays.
static void read_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned ctx = tb.rng.below(NUM_CTX), node = tb.rng.below(256);
        if (tb.rng.chance(75)) tb.rd(bar(TG_WIN_REMOTE, ctx, node, (uint32_t)tb.rng.next() & ~7u));
        else tb.rd(bar(TG_WIN_SYNC, ctx, node, (uint32_t)tb.rng.next() & ~7u));
        if (tb.rng.chance(10)) tb.read_statuses();
        if (tb.rng.chance(5)) tb.clear_statuses();
    }
    tb.read_statuses();
    tb.run("remote reads");
}

// Writes keep flowing while a read waits for its answer; further reads wait.
static void wait_phase(Tb &tb, unsigned n)
{
    tb.hold_answers = true;
    for (unsigned i = 0; i < n; i++) {
        unsigned ctx = tb.rng.below(NUM_CTX);
        unsigned win = tb.rng.chance(60) ? TG_WIN_REMOTE : TG_WIN_FAA + tb.rng.below(4);
        tb.rd(bar(win, ctx, tb.rng.below(256), 8 * tb.rng.below(1000)));
        for (unsigned k = 0, m = 1 + tb.rng.below(4); k < m; k++) {
            unsigned w0 = tb.rng.below(WORDS);
            switch (tb.rng.below(5)) {
            case 0: tb.wr(csr(TG_CSR_REG_SCRATCH), tb.rng.next()); break;
            case 1: tb.wr(ctxreg(ctx, TG_CTX_REG_COMPARE), tb.rng.next());
                    tb.wr(ctxreg(tb.rng.below(16), TG_CTX_REG_KEY), tb.rng.next()); break;
            case 2: tb.wr(bar(TG_WIN_FAA + tb.rng.below(3), ctx, 0, 0), tb.rng.next()); break;   // next operand
            default:
                tb.burst(tb.rng.below(16), tb.rng.below(256), tb.random_block(), w0, 1 + tb.rng.below(WORDS - w0), true);
                break;
            }
        }
        tb.rd(tb.rng.below(2) ? csr(TG_CSR_REG_ID) : bar(TG_WIN_SYNC, ctx, 1, 0));
    }
    tb.run("writes while a read waits");
    tb.hold_answers = false;
}

// Fetch starts: each refused argument, then good ones up to a full table.
static void fetch_phase(Tb &tb, unsigned n)
{
    Model &r = tb.ref;
    uint32_t ms = r.mem_size;
    for (unsigned i = 0; i < n; i++) {
        unsigned c = tb.rng.below(NUM_CTX);
        uint16_t node = (uint16_t)tb.rng.next();
        unsigned len = 1 + tb.rng.below(TG_MAX_BURST_BYTES);
        uint32_t paddr = tb.random_block() + tb.rng.below(TG_MAX_BURST_BYTES - len + 1);
        uint32_t laddr = 64 * tb.rng.below(ms / 128) + 8 * tb.rng.below(8) + (paddr & 7);
        // data in the lower half of the window, completion words in the third quarter
        uint32_t cpl = (ms / 2 + 8 * tb.rng.below(ms / 32)) & ~7u;
        // one refused argument at a time
        unsigned kind = tb.rng.below(16);
        switch (kind) {
        case 0: len = 0; break;                                                     // no length
        case 1: len = TG_MAX_BURST_BYTES + 1 + tb.rng.below(255 - TG_MAX_BURST_BYTES); break;  // too long
        case 2: {                                                                   // crosses a block
            if (len < 2) len = 2;
            unsigned off = TG_MAX_BURST_BYTES + 1 - len + tb.rng.below(len - 1);
            paddr = tb.random_block() + off;
            laddr = (laddr & ~7u) | (paddr & 7);
            break;
        }
        case 3: laddr ^= 1 + tb.rng.below(7); break;                                // alignment mismatch
        case 4: cpl |= 1 + tb.rng.below(7); break;                                  // completion misaligned
        case 5: laddr = ((ms - len + 1 + tb.rng.below(16)) & ~7u) | (paddr & 7);    // data past the end
                if ((uint64_t)laddr + len <= ms) laddr += 8;
                break;
        case 6: cpl = (ms - 8 + 8 * (1 + tb.rng.below(4))) & ~7u; break;           // completion past the end
        default: break;
        }
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), laddr);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), cpl);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_GO), fetch_go(paddr, node, len));
        if (tb.rng.chance(10)) tb.rd(ctxreg(c, TG_CTX_REG_STATUS));
        if (tb.rng.chance(5)) tb.wr(ctxreg(c, TG_CTX_REG_STATUS), 0);
        if (tb.rng.chance(3)) tb.run("fetches");
    }
    tb.read_statuses();
    tb.run("fetches");
    tb.clear_statuses();
    tb.run("clear");
}

// Fill the table with nothing freed: the next start waits until a free.
static void table_full_phase(Tb &tb)
{
    unsigned saved = tb.free_pct;
    // start from an empty table
    tb.free_pct = 100;
    for (int i = 0; i < 2000 && tb.ref.ft_used(); i++) tb.tick();
    TB_CHECK(tb.ref.ft_used() == 0, "table not emptied: %u entries", tb.ref.ft_used());
    tb.free_pct = 0;
    for (unsigned c = 0; c < NUM_CTX; c++) {
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), 0x100 + 64 * c);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), 0x2000 + 8 * c);
    }
    for (unsigned i = 0; i < MAX_READS + 3; i++) {
        unsigned c = i % NUM_CTX;
        if (tb.rng.below(2))
            tb.wr(ctxreg(c, TG_CTX_REG_FETCH_GO), fetch_go(0x40000 + 64 * i, (uint16_t)(i + 1), 1 + tb.rng.below(64)));
        else
            tb.wr(ctxreg(c, TG_CTX_REG_ATOMIC_GO), atomic_go(0x40000 + 64 * i, (uint16_t)(i + 1), tb.rng.below(3)));
    }
    for (int i = 0; i < 1500; i++) tb.tick();
    TB_CHECK(tb.ref.ft_used() == MAX_READS, "table holds %u entries, want %u", tb.ref.ft_used(), MAX_READS);
    TB_CHECK(tb.hq.size() == 3, "%zu fetch starts still waiting, want 3", tb.hq.size());
    // free one at a time: exactly one more goes out each time
    tb.free_pct = 100;
    tb.run("fetches after frees");
    tb.free_pct = saved;
    TB_CHECK(tb.n_stall_full > 100, "a full table stalled the host only %llu cycles", (unsigned long long)tb.n_stall_full);
}

// Misaligned addresses in every window, loads from the REQ window, and the
// windows not served.
static void error_phase(Tb &tb)
{
    for (int i = 0; i < 60; i++) {
        unsigned win = tb.rng.below(8), ctx = tb.rng.below(16);
        uint64_t a = bar(win, ctx, tb.rng.below(256), (uint32_t)tb.rng.next());
        if (win == TG_WIN_CTRL) a = tb.rng.below(2) ? ctxreg(ctx, 8 * tb.rng.below(6)) : csr(8 * tb.rng.below(32));
        a = (a & ~7ull) | (1 + tb.rng.below(7));
        if (tb.rng.below(2)) tb.rd(a);
        else tb.wr(a, tb.rng.next(), (uint8_t)tb.rng.next());
    }
    tb.read_statuses();
    tb.run("misaligned");
    // the REQ window takes stores only: a load is refused with BAD_OP
    for (int i = 0; i < 24; i++) {
        unsigned ctx = tb.rng.below(NUM_CTX);
        tb.rd(bar(TG_WIN_REQ, ctx, tb.rng.below(256), (uint32_t)tb.rng.next() & ~7u));
        if (tb.rng.chance(30)) tb.rd(ctxreg(ctx, TG_CTX_REG_STATUS));
        if (tb.rng.chance(30)) tb.rd(ctxreg(ctx, TG_CTX_REG_LAST_STATUS));
        if (tb.rng.chance(20)) tb.wr(ctxreg(ctx, TG_CTX_REG_STATUS), 0);
    }
    tb.read_statuses();
    tb.clear_statuses();
    tb.run("loads from the REQ window");
    // the atomic windows: a store to FAA, SWAP or CAS sets the operand (a
    // partial one is refused with MISALIGNED), a store to FINC is refused
    // with BAD_OP, a load is a blocking atomic; and a store to the fence
    // window is refused with BAD_OP
    for (unsigned win = TG_WIN_FAA; win < 8; win++) {
        for (int i = 0; i < 8; i++) {
            uint64_t a = bar(win, tb.rng.below(16), tb.rng.below(256), (uint32_t)tb.rng.next() & ~7u);
            if (tb.rng.below(2)) tb.rd(a);
            else tb.wr(a, tb.rng.next(), tb.rng.below(2) ? 0xFF : tb.random_strobe());
        }
        tb.wr(bar(TG_WIN_SYNC, tb.rng.below(16), 1, 0), 1);   // a store to the fence window
        tb.read_statuses();
        tb.clear_statuses();
    }
    tb.read_statuses();
    tb.run("atomic windows, stores to the fence window");
    // context registers that map nothing: read as zero, writes refused
    // (ATOMIC_GO and FETCH_GO are write-only: they read as zero too)
    for (int i = 0; i < 24; i++) {
        unsigned c = tb.rng.below(NUM_CTX);
        uint64_t r = tb.rng.below(3) ? TG_CTX_REG_ATOMIC_GO + 8 * tb.rng.below(TG_PAGE_SIZE / 8 - 6)
                                     : TG_CTX_REG_FETCH_GO;
        if (r != TG_CTX_REG_ATOMIC_GO && r != TG_CTX_REG_FETCH_GO && tb.rng.below(2)) tb.wr(ctxreg(c, r), tb.rng.next());
        else tb.rd(ctxreg(c, r));
    }
    tb.read_statuses();
    tb.run("unmapped context registers");
}

// Ranges that end past 2^32 are out of range, not wrapped round.
static void top_of_memory_phase(Tb &tb)
{
    uint32_t saved = tb.ref.mem_size;
    tb.ref.mem_size = 0xFFFFFFFFu;
    for (int i = 0; i < 40; i++) {
        unsigned c = tb.rng.below(NUM_CTX), len = 1 + tb.rng.below(TG_MAX_BURST_BYTES);
        uint32_t paddr = tb.random_block() + tb.rng.below(TG_MAX_BURST_BYTES - len + 1);
        uint32_t laddr = 0x1000 + (paddr & 7), cpl = 0x2000;
        if (tb.rng.below(2)) laddr = (uint32_t)(0x100000000ull - 8 * (1 + tb.rng.below(4))) | (paddr & 7);
        else cpl = 0xFFFFFFF8u;
        if ((uint64_t)laddr + len <= 0xFFFFFFFFull && cpl != 0xFFFFFFF8u) cpl = 0xFFFFFFF8u;
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), laddr);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), cpl);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_GO), fetch_go(paddr, 1, len));
    }
    // the same for ATOMIC_GO: 8 bytes at 2^32 - 8 end past the window
    for (int i = 0; i < 20; i++) {
        unsigned c = tb.rng.below(NUM_CTX);
        uint32_t laddr = 0x1000, cpl = 0x2000;
        if (tb.rng.below(2)) laddr = 0xFFFFFFF8u;
        else cpl = 0xFFFFFFF8u;
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), laddr);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), cpl);
        tb.wr(ctxreg(c, TG_CTX_REG_ATOMIC_GO), atomic_go(8 * tb.rng.below(1000), 1, tb.rng.below(3)));
    }
    // and the largest window still takes a fetch that ends right at its top
    tb.wr(ctxreg(0, TG_CTX_REG_FETCH_LADDR), 0xFFFFFFF0u);
    tb.wr(ctxreg(0, TG_CTX_REG_FETCH_CPL), 0xFFFFFFE8u);
    tb.wr(ctxreg(0, TG_CTX_REG_FETCH_GO), fetch_go(0x100, 1, 15));
    tb.wr(ctxreg(1, TG_CTX_REG_FETCH_LADDR), 0xFFFFFFF0u);
    tb.wr(ctxreg(1, TG_CTX_REG_FETCH_CPL), 0xFFFFFFE8u);
    tb.wr(ctxreg(1, TG_CTX_REG_ATOMIC_GO), atomic_go(0x100, 1, TG_AOP_CAS));
    tb.read_statuses();
    tb.run("top of memory");
    tb.clear_statuses();
    tb.run("clear");
    tb.ref.mem_size = saved;
}

// More reads than the tag sequence has numbers: it wraps within 15 bits.
static void seq_wrap_phase(Tb &tb)
{
    unsigned saved_pct = tb.err_status_pct, saved_min = tb.ans_min, saved_max = tb.ans_max;
    tb.err_status_pct = 0;
    tb.ans_min = tb.ans_max = 1;
    for (unsigned i = 0; i < 0x8000 + 20; i++) {
        tb.rd(bar(i % 3 ? TG_WIN_REMOTE : TG_WIN_SYNC, i % NUM_CTX, i & 0xFF, 8 * i));
        if (i % 2048 == 0) tb.run("tag sequence");
    }
    tb.run("tag sequence");
    TB_CHECK(tb.ref.answers >= 0x8000, "only %llu reads", (unsigned long long)tb.ref.answers);
    tb.err_status_pct = saved_pct;
    tb.ans_min = saved_min;
    tb.ans_max = saved_max;
}

// Beats of one block that alternate between the remote and the REQ window
// at random points: each run of one window is a descriptor of its own.
static void window_switch_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned ctx = tb.rng.below(16), node = tb.rng.below(256);
        uint32_t blk = tb.random_block();
        unsigned w = tb.rng.below(WORDS), win = tb.rng.below(2) ? TG_WIN_REQ : TG_WIN_REMOTE;
        uint64_t before = tb.ref.descs + tb.ref.b_refused;   // (refused: holes)
        unsigned runs = 0;
        while (w < WORDS) {
            unsigned len = 1 + tb.rng.below(WORDS - w);
            tb.burst(ctx, node, blk, w, len, w + len == WORDS && tb.rng.chance(50), win);
            w += len;
            runs++;
            win = win == TG_WIN_REQ ? TG_WIN_REMOTE : TG_WIN_REQ;
        }
        tb.run("window switches");
        TB_CHECK(tb.ref.descs + tb.ref.b_refused == before + runs,
                 "%u runs of alternating windows made %llu descriptors", runs,
                 (unsigned long long)(tb.ref.descs + tb.ref.b_refused - before));
    }
}

// REQs finishing for good are counted in their context's REQ_STATE, the
// first failure since it was cleared kept with its number, among REQ
// bursts, reads and clears of STATUS and REQ_STATE.
static void failure_phase(Tb &tb, unsigned n)
{
    unsigned saved = tb.fail_pct;
    tb.clear_statuses();
    tb.run("clear");
    tb.fail_pct = 25;
    for (unsigned i = 0; i < n; i++) {
        unsigned ctx = tb.rng.below(NUM_CTX);
        switch (tb.rng.below(6)) {
        case 0: tb.rd(ctxreg(ctx, tb.rng.below(2) ? TG_CTX_REG_STATUS : TG_CTX_REG_REQ_STATE)); break;
        case 1: tb.wr(ctxreg(ctx, tb.rng.below(2) ? TG_CTX_REG_STATUS : TG_CTX_REG_REQ_STATE), tb.rng.next()); break;
        case 2: tb.rd(bar(TG_WIN_REQ, ctx, tb.rng.below(256), 0)); break;   // refused: BAD_OP may come first
        case 3: tb.read_statuses(); break;
        default: {
            unsigned w0 = tb.rng.below(WORDS);
            tb.burst(ctx, tb.rng.below(256), tb.random_block(), w0, 1 + tb.rng.below(WORDS - w0), true, TG_WIN_REQ);
            break;
        }
        }
        if (tb.rng.chance(10)) {
            tb.run("failures");
            for (unsigned k = 0, m = tb.rng.below(40); k < m; k++) tb.tick();   // failures with the port idle
        }
    }
    tb.read_statuses();
    tb.run("failures");
    tb.clear_statuses();
    tb.run("clear");
    tb.fail_pct = saved;
}

// Blocking atomics from every atomic window, the operand set through the
// context page or the window (a partial store refused), stores to FINC,
// misaligned beats, answers with OK and error statuses, and strays.
static void atomic_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned c = tb.rng.below(NUM_CTX), node = tb.rng.below(256);
        uint32_t paddr = (uint32_t)tb.rng.next() & ~7u;
        unsigned win = TG_WIN_FAA + tb.rng.below(4), opwin = TG_WIN_FAA + tb.rng.below(3);
        switch (tb.rng.below(18)) {
        case 0: tb.wr(ctxreg(c, TG_CTX_REG_OPERAND), tb.rng.next()); break;
        case 1: tb.wr(ctxreg(c, TG_CTX_REG_COMPARE), tb.rng.next()); break;
        case 2:
        case 3: tb.wr(bar(opwin, c, node, paddr), tb.rng.next()); break;   // the operand through the window
        case 4: {                                                           // not all eight bytes: refused
            uint8_t st = tb.random_strobe();
            tb.wr(bar(opwin, c, node, paddr), tb.rng.next(), st == 0xFF ? (uint8_t)(0xFF >> (1 + tb.rng.below(8))) : st);
            break;
        }
        case 5: tb.wr(bar(TG_WIN_FINC, c, node, paddr), tb.rng.next(), tb.random_strobe()); break;
        case 6: tb.rd(ctxreg(c, tb.rng.below(2) ? TG_CTX_REG_OPERAND : TG_CTX_REG_COMPARE)); break;
        case 7: {                                                           // misaligned: MISALIGNED
            uint64_t a = bar(win, c, node, paddr | (1 + tb.rng.below(7)));
            if (tb.rng.below(2)) tb.rd(a);
            else tb.wr(a, tb.rng.next(), tb.random_strobe());
            break;
        }
        case 8: tb.rd(ctxreg(c, tb.rng.below(2) ? TG_CTX_REG_STATUS : TG_CTX_REG_LAST_STATUS)); break;
        case 9: tb.wr(ctxreg(c, TG_CTX_REG_STATUS), tb.rng.next()); break;
        case 10:                                                            // store the operand, then use it
            tb.wr(bar(opwin, c, node, paddr), tb.rng.next());
            tb.rd(bar(opwin, c, node, paddr));
            break;
        default:
            tb.rd(bar(win, c, node, paddr));
            if (tb.rng.below(2)) tb.rd(ctxreg(c, TG_CTX_REG_LAST_STATUS));   // how that one went
            break;
        }
        if (tb.rng.chance(5)) tb.run("blocking atomics");
    }
    tb.read_statuses();
    tb.run("blocking atomics");
    tb.clear_statuses();
    tb.run("clear");
}

// ATOMIC_GO: every function, each refusal reason alone and several at once
// (the status says the first of function, range, alignment), the edges of
// the window, and good starts up to a full table.
static void atomic_go_phase(Tb &tb, unsigned n)
{
    uint32_t ms = tb.ref.mem_size;
    uint32_t top = (ms - 8) & ~7u;   // the last aligned 8 bytes inside the window
    for (unsigned i = 0; i < n; i++) {
        unsigned c = tb.rng.below(NUM_CTX), fn = tb.rng.below(3);
        uint16_t node = (uint16_t)tb.rng.next();
        uint32_t paddr = (uint32_t)tb.rng.next() & ~7u;
        uint32_t laddr = 8 * tb.rng.below(ms / 16);
        uint32_t cpl = (ms / 2 + 8 * tb.rng.below(ms / 32)) & ~7u;
        switch (tb.rng.below(16)) {
        case 0: fn = 3; break;                                               // no such function
        case 1: laddr = top + 8 * (1 + tb.rng.below(3)); break;              // old value past the end
        case 2: cpl = top + 8 * (1 + tb.rng.below(3)); break;                // completion past the end
        case 3: paddr |= 1 + tb.rng.below(7); break;                          // remote word misaligned
        case 4: laddr |= 1 + tb.rng.below(7); break;                          // old value misaligned
        case 5: cpl |= 1 + tb.rng.below(7); break;                            // completion misaligned
        case 6:                                                              // function first
            fn = 3;
            if (tb.rng.below(2)) laddr = top + 8;
            else paddr |= 1 + tb.rng.below(7);
            break;
        case 7:                                                              // range before alignment
            if (tb.rng.below(2)) cpl = top + 8;
            else laddr = top + 8;
            if (tb.rng.below(2)) paddr |= 1 + tb.rng.below(7);
            else cpl |= 1 + tb.rng.below(7);
            break;
        case 8:                                                              // right at the top: good
            if (tb.rng.below(2)) laddr = top;
            else cpl = top;
            break;
        default: break;
        }
        if (tb.rng.chance(30)) tb.wr(ctxreg(c, TG_CTX_REG_OPERAND), tb.rng.next());
        if (tb.rng.chance(30)) tb.wr(ctxreg(c, TG_CTX_REG_COMPARE), tb.rng.next());
        if (tb.rng.chance(20)) tb.wr(ctxreg(c, TG_CTX_REG_KEY), tb.rng.next());
        if (tb.rng.chance(10)) tb.wr(bar(TG_WIN_FAA + tb.rng.below(3), c, 0, 0), tb.rng.next());
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), laddr);
        tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), cpl);
        tb.wr(ctxreg(c, TG_CTX_REG_ATOMIC_GO), atomic_go(paddr, node, fn));
        if (tb.rng.chance(10)) tb.rd(ctxreg(c, TG_CTX_REG_STATUS));
        if (tb.rng.chance(5)) tb.wr(ctxreg(c, TG_CTX_REG_STATUS), 0);
        if (tb.rng.chance(3)) tb.run("atomic starts");
    }
    tb.read_statuses();
    tb.run("atomic starts");
    tb.clear_statuses();
    tb.run("clear");
}

// The read timeout: blocking reads, fences and atomics that are never
// answered, or answered too late, fail with PEER_GONE (the late answer is a
// stray); table entries of fetches and ATOMIC_GOs left unfreed are offered
// as overdue and, once taken, no longer looked up.
static void timeout_phase(Tb &tb, unsigned n, uint32_t timeout)
{
    unsigned s_drop = tb.drop_pct, s_min = tb.ans_min, s_max = tb.ans_max, s_free = tb.free_pct;
    tb.read_timeout = timeout;
    tb.drop_pct = 30;
    tb.ans_min = 1;
    tb.ans_max = tb.read_timeout + 30;   // some come after the timeout
    tb.free_pct = 2;
    for (unsigned i = 0; i < n; i++) {
        unsigned c = tb.rng.below(4), node = tb.rng.below(256);   // few contexts: STATUS writes meet timeouts
        uint32_t paddr = (uint32_t)tb.rng.next() & ~7u;
        switch (tb.rng.below(14)) {
        case 0: case 1: case 2: case 3: tb.rd(bar(TG_WIN_FAA + tb.rng.below(4), c, node, paddr)); break;
        case 4: tb.rd(bar(TG_WIN_REMOTE, c, node, paddr)); break;
        case 5: tb.rd(bar(TG_WIN_SYNC, c, node, 0)); break;
        case 6:
            tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), 0x1000 + 8 * tb.rng.below(256));
            tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), 0x8000 + 8 * tb.rng.below(64));
            tb.wr(ctxreg(c, TG_CTX_REG_ATOMIC_GO), atomic_go(paddr, node, tb.rng.below(3)));
            break;
        case 7: {
            unsigned len = 1 + tb.rng.below(64);
            uint32_t pa = tb.random_block() + tb.rng.below(65 - len);
            tb.wr(ctxreg(c, TG_CTX_REG_FETCH_LADDR), 0x1000 + 64 * tb.rng.below(64) + (pa & 7));
            tb.wr(ctxreg(c, TG_CTX_REG_FETCH_CPL), 0x8000 + 8 * tb.rng.below(64));
            tb.wr(ctxreg(c, TG_CTX_REG_FETCH_GO), fetch_go(pa, node, len));
            break;
        }
        // a request that waits, and a stream of writes that touch its
        // context's STATUS long enough for one to land in the cycle its
        // timeout fires
        case 8: case 9:
            tb.rd(bar(tb.rng.below(2) ? TG_WIN_FAA + tb.rng.below(4) : TG_WIN_REMOTE, c, node, paddr));
            for (unsigned k = 0, m = tb.read_timeout + tb.rng.below(20); k < m; k++) {
                if (tb.rng.below(3)) tb.wr(ctxreg(c, TG_CTX_REG_STATUS), tb.rng.next());
                else tb.wr(bar(TG_WIN_FAA + tb.rng.below(4), c, node, paddr), tb.rng.next(), tb.random_strobe());
            }
            break;
        case 10: tb.wr(bar(TG_WIN_FAA + tb.rng.below(3), c, node, paddr), tb.rng.next(), (uint8_t)tb.rng.below(255)); break;
        case 11: tb.rd(ctxreg(c, tb.rng.below(2) ? TG_CTX_REG_STATUS : TG_CTX_REG_LAST_STATUS)); break;
        default: {
            unsigned w0 = tb.rng.below(WORDS);
            tb.burst(c, node, tb.random_block(), w0, 1 + tb.rng.below(WORDS - w0), true);
            break;
        }
        }
        if (tb.rng.chance(3)) tb.run("timeouts");
        // the timeout changes under requests in flight: each keeps the one
        // of the cycle it was accepted in
        if (tb.rng.chance(10)) tb.read_timeout = timeout / 2 + tb.rng.below(timeout);
    }
    tb.read_statuses();
    tb.run("timeouts");
    tb.clear_statuses();
    tb.run("clear");
    tb.read_timeout = 0;
    tb.drop_pct = s_drop;
    tb.ans_min = s_min;
    tb.ans_max = s_max;
    tb.free_pct = s_free;
}

static void random_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned k = tb.rng.below(26);
        unsigned ctx = tb.rng.below(NUM_CTX);
        if (k < 8) {
            unsigned w0 = tb.rng.below(WORDS);
            tb.burst(tb.rng.below(16), tb.rng.below(256), tb.random_block(), w0, 1 + tb.rng.below(WORDS - w0),
                     tb.rng.chance(90), tb.rng.chance(30) ? TG_WIN_REQ : TG_WIN_REMOTE);
        } else if (k < 10) {
            tb.rd(bar(TG_WIN_REMOTE, ctx, tb.rng.below(256), (uint32_t)tb.rng.next() & ~7u));
        } else if (k < 11) {
            tb.rd(bar(TG_WIN_SYNC, ctx, tb.rng.below(256), 0));
        } else if (k < 12) {
            tb.rd(csr(8 * tb.rng.below(TG_PAGE_SIZE / 8)));
        } else if (k < 13) {
            tb.wr(csr(8 * tb.rng.below(TG_PAGE_SIZE / 8)), tb.rng.next());
        } else if (k < 15) {
            uint64_t r = 8 * tb.rng.below(6);
            if (tb.rng.chance(50)) {
                // a write check; one in ten crosses its block or has no length
                unsigned len = tb.rng.chance(90) ? 1 + tb.rng.below(64) : 0;
                uint32_t paddr = tb.random_block() + (len ? tb.rng.below(65 - len) : 0);
                if (len > 1 && tb.rng.chance(10))
                    paddr = tb.random_block() + 65 - len + tb.rng.below(len - 1);   // crosses the block's end
                tb.wr(ctxreg(ctx, TG_CTX_REG_WCHECK), fetch_go(paddr, (uint16_t)tb.rng.next(), len));
            } else if (r == TG_CTX_REG_FETCH_GO) {
                unsigned len = 1 + tb.rng.below(64);
                uint32_t paddr = tb.random_block() + tb.rng.below(65 - len);
                tb.wr(ctxreg(ctx, TG_CTX_REG_FETCH_LADDR), 0x1000 + 64 * tb.rng.below(64) + (paddr & 7));
                tb.wr(ctxreg(ctx, TG_CTX_REG_FETCH_CPL), 0x8000 + 8 * tb.rng.below(64));
                tb.wr(ctxreg(ctx, r), fetch_go(paddr, (uint16_t)tb.rng.next(), tb.rng.chance(90) ? len : 0));
            } else if (tb.rng.below(2)) {
                tb.rd(ctxreg(ctx, r));
            } else {
                tb.wr(ctxreg(ctx, r), tb.reg_value(r));
            }
        } else if (k < 16) {
            tb.wr(bar(TG_WIN_REQ + tb.rng.below(5), ctx, 0, 0), 1);
        } else if (k < 17) {
            tb.rd(bar(TG_WIN_REMOTE + tb.rng.below(7), ctx, 0, 3));
        } else if (k < 20) {
            tb.rd(ctxreg(ctx, TG_CTX_REG_STATUS));
        } else if (k < 22) {
            tb.rd(bar(TG_WIN_FAA + tb.rng.below(4), ctx, tb.rng.below(256), (uint32_t)tb.rng.next() & ~7u));
        } else if (k < 23) {
            tb.wr(bar(TG_WIN_FAA + tb.rng.below(4), ctx, tb.rng.below(256), (uint32_t)tb.rng.next() & ~7u),
                  tb.rng.next(), tb.rng.chance(70) ? 0xFF : tb.random_strobe());
        } else if (k < 25) {
            uint32_t paddr = (uint32_t)tb.rng.next() & ~7u;
            if (tb.rng.chance(10)) paddr |= 1 + tb.rng.below(7);
            tb.wr(ctxreg(ctx, TG_CTX_REG_FETCH_LADDR), 0x1000 + 8 * tb.rng.below(512));
            tb.wr(ctxreg(ctx, TG_CTX_REG_FETCH_CPL), 0x8000 + 8 * tb.rng.below(64) + (tb.rng.chance(5) ? 4 : 0));
            tb.wr(ctxreg(ctx, TG_CTX_REG_ATOMIC_GO), atomic_go(paddr, (uint16_t)tb.rng.next(), tb.rng.below(4)));
        } else {
            uint64_t r = TG_CTX_REG_ATOMIC_GO + 8 * tb.rng.below(8);   // write-only, then nothing
            if (r != TG_CTX_REG_ATOMIC_GO && tb.rng.below(2)) tb.wr(ctxreg(ctx, r), tb.rng.next());
            else tb.rd(ctxreg(ctx, r));
        }
    }
    tb.read_statuses();
    tb.run("random traffic");
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Cfg { unsigned host_gap, resp_stall, txd_stall, ans_min, ans_max, free_pct, stray_pct; };
    const Cfg cfgs[] = {
        {0, 0, 0, 1, 1, 20, 0},
        {30, 30, 30, 1, 20, 10, 2},
        {0, 70, 80, 5, 60, 5, 5},
        {70, 10, 50, 1, 5, 30, 1},
        {10, 50, 0, 20, 100, 2, 10},
    };
    uint64_t seed = 1, descs = 0, resps = 0, cycles = 0, waits = 0, hits = 0, fails = 0, kept = 0, reqs = 0;
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed++ * 0xA54FF53Au);
            tb.host_gap_pct = c.host_gap;
            tb.resp_stall_pct = c.resp_stall;
            tb.txd_stall_pct = c.txd_stall;
            tb.ans_min = c.ans_min;
            tb.ans_max = c.ans_max;
            tb.free_pct = c.free_pct;
            tb.stray_pct = c.stray_pct;
            // how long the path downstream keeps a slot: from the cycle its
            // descriptor is taken to long enough for the buffer to fill
            static const unsigned REL_MAX[] = {0, 8, 40, 1000, 3};
            tb.rel_max = REL_MAX[&c - cfgs];
            tb.ref.mem_size = rep ? 1u << 20 : 0x10000 + 8 * tb.rng.below(0x1000) + tb.rng.below(8);
            tb.reset();

            tb.read_statuses();
            tb.run("statuses after reset");
            csr_phase(tb);
            ctx_phase(tb);
            burst_phase(tb, TG_WIN_REMOTE);
            burst_phase(tb, TG_WIN_REQ);
            interrupt_phase(tb, TG_WIN_REMOTE);
            interrupt_phase(tb, TG_WIN_REQ);
            window_switch_phase(tb, 150);
            failure_phase(tb, 400);
            read_phase(tb, 150);
            wait_phase(tb, 40);
            fetch_phase(tb, 200);
            atomic_phase(tb, 800);
            atomic_go_phase(tb, 500);
            table_full_phase(tb);
            error_phase(tb);
            top_of_memory_phase(tb);
            timeout_phase(tb, 250, 1 + tb.rng.below(3));   // a cycle or three: the first ones count
            timeout_phase(tb, 750, 4 + tb.rng.below(60));
            random_phase(tb, 600);
            if (seed == 2) seq_wrap_phase(tb);

            // reset in the middle of traffic, then traffic again
            for (int k = 0; k < 3; k++) {
                random_phase(tb, 0);
                for (int i = 0; i < 30; i++) {
                    unsigned w0 = tb.rng.below(WORDS);
                    tb.burst(1, 2, tb.random_block(), w0, 1 + tb.rng.below(WORDS - w0), true);
                    if (i % 5 == 0) tb.rd(bar(TG_WIN_REMOTE, 3, 4, 8 * i));
                    if (i % 7 == 0) {
                        tb.wr(ctxreg(5, TG_CTX_REG_FETCH_LADDR), 0x80);
                        tb.wr(ctxreg(5, TG_CTX_REG_FETCH_CPL), 0x100);
                        tb.wr(ctxreg(5, TG_CTX_REG_FETCH_GO), fetch_go(0x40, 4, 8));
                        tb.wr(ctxreg(5, TG_CTX_REG_ATOMIC_GO), atomic_go(0x48, 4, i % 3));
                    }
                    if (i % 6 == 0) tb.rd(bar(TG_WIN_FAA + i % 4, 6, 7, 8 * i));   // operand unknown after a reset
                }
                for (unsigned i = 0, n = 10 + tb.rng.below(100); i < n; i++) tb.tick();
                tb.reset();
                for (int i = 0; i < 20; i++) tb.tick();
                tb.read_statuses();
                tb.run("after reset");
                random_phase(tb, 100);
            }
            descs += tb.n_desc;
            resps += tb.n_resp;
            cycles += tb.cyc;
            waits += tb.n_wait_writes;
            hits += tb.n_lookup_hits;
            fails += tb.n_fail;
            kept += tb.n_fail_kept;
            reqs += tb.n_req_desc;
        }
    }
    std::printf("request buffer: %llu slots taken (%llu with the REQ hold), %llu holds released, %llu compare words "
                "written as their atomic was offered, %llu cycles a request waited for a slot (%llu with all held), "
                "slots used %08x\n", (unsigned long long)cov.pay_takes, (unsigned long long)cov.pay_req_holds,
                (unsigned long long)cov.pay_rels, (unsigned long long)cov.pay_cmp_late,
                (unsigned long long)cov.pay_wait, (unsigned long long)cov.pay_wait_full, cov.pay_slots);
    TB_CHECK(cov.pay_takes > 20000 && cov.pay_req_holds > 1000 && cov.pay_cmp_late > 5000 && cov.pay_wait > 10000 &&
                 cov.pay_wait_full > 3000 && cov.pay_slots == 0xFFFFFFFFu,
             "request buffer: %llu taken, %llu REQ holds, %llu late compare words, %llu waits (%llu all held), "
             "slots %08x", (unsigned long long)cov.pay_takes, (unsigned long long)cov.pay_req_holds,
             (unsigned long long)cov.pay_cmp_late, (unsigned long long)cov.pay_wait,
             (unsigned long long)cov.pay_wait_full, cov.pay_slots);
    std::printf("%llu descriptors (%llu REQ), %llu host responses, %llu table hits, %llu failure reports "
                "in %llu cycles\n", (unsigned long long)descs, (unsigned long long)reqs, (unsigned long long)resps,
                (unsigned long long)hits, (unsigned long long)fails, (unsigned long long)cycles);
    TB_CHECK(waits > 100, "only %llu reads answered after writes overtook them", (unsigned long long)waits);
    TB_CHECK(hits > 1000, "only %llu lookups of live entries", (unsigned long long)hits);
    TB_CHECK(reqs > 1000, "only %llu REQ descriptors", (unsigned long long)reqs);
    TB_CHECK(kept > 500 && fails > kept + 500, "REQ failures: %llu, %llu of them the first since a clear",
             (unsigned long long)fails, (unsigned long long)kept);

    // atomics
    for (unsigned w = 0; w < AW_N; w++) {
        std::printf("blocking %-4s: %llu sent, %llu answered OK, %llu with an error, %llu timed out\n", AW_NAME[w],
                    (unsigned long long)cov.blk_sent[w], (unsigned long long)cov.blk_ok[w],
                    (unsigned long long)cov.blk_err[w], (unsigned long long)cov.blk_tmo[w]);
        TB_CHECK(cov.blk_ok[w] > 600 && cov.blk_err[w] > 100 && cov.blk_tmo[w] > 250,
                 "blocking %s: %llu OK, %llu errors, %llu timeouts", AW_NAME[w], (unsigned long long)cov.blk_ok[w],
                 (unsigned long long)cov.blk_err[w], (unsigned long long)cov.blk_tmo[w]);
    }
    std::printf("atomic descriptors with operand and compare compared: %llu\n", (unsigned long long)cov.payload_known);
    TB_CHECK(cov.payload_known > 5000, "only %llu atomic payloads compared", (unsigned long long)cov.payload_known);
    std::printf("timeouts: %llu reads, %llu fences, %llu late answers, %llu in a cycle a write was taken "
                "(%llu its STATUS cleared)\n", (unsigned long long)cov.read_tmo, (unsigned long long)cov.fence_tmo,
                (unsigned long long)cov.late, (unsigned long long)cov.tmo_write, (unsigned long long)cov.tmo_clear);
    TB_CHECK(cov.read_tmo > 400 && cov.fence_tmo > 200 && cov.late > 1000 && cov.tmo_write > 400 &&
                 cov.tmo_clear > 250,
             "timeouts: %llu reads, %llu fences, %llu late, %llu with a write, %llu with its STATUS cleared",
             (unsigned long long)cov.read_tmo, (unsigned long long)cov.fence_tmo, (unsigned long long)cov.late,
             (unsigned long long)cov.tmo_write, (unsigned long long)cov.tmo_clear);
    std::printf("operand stores: %llu set, %llu partial refused; %llu FINC stores refused; %llu misaligned data "
                "beats set STATUS; %llu writes to unmapped context registers\n",
                (unsigned long long)cov.opnd_set, (unsigned long long)cov.opnd_bad, (unsigned long long)cov.finc_store,
                (unsigned long long)cov.mis_status, (unsigned long long)cov.unknown_reg);
    TB_CHECK(cov.opnd_set > 3000 && cov.opnd_bad > 5000 && cov.finc_store > 2000 && cov.mis_status > 150 &&
                 cov.unknown_reg > 100,
             "operand stores %llu, partial %llu, FINC stores %llu, misaligned STATUS %llu, unmapped writes %llu",
             (unsigned long long)cov.opnd_set, (unsigned long long)cov.opnd_bad, (unsigned long long)cov.finc_store,
             (unsigned long long)cov.mis_status, (unsigned long long)cov.unknown_reg);
    std::printf("REQ_STATE: %llu clears, %llu of them in the cycle a REQ of that context failed\n",
                (unsigned long long)cov.reqst_clear, (unsigned long long)cov.reqst_clear_fail);
    TB_CHECK(cov.reqst_clear > 500 && cov.reqst_clear_fail > 30, "REQ_STATE clears %llu, with a failure %llu",
             (unsigned long long)cov.reqst_clear, (unsigned long long)cov.reqst_clear_fail);
    std::printf("bursts refused for byte enables with holes: %llu\n", (unsigned long long)cov.run_bad);
    TB_CHECK(cov.run_bad > 100, "bursts with holes refused: %llu", (unsigned long long)cov.run_bad);
    std::printf("write checks: %llu sent, %llu refused (no length, or crossing a block)\n",
                (unsigned long long)cov.wcheck_sent, (unsigned long long)cov.wcheck_bad);
    TB_CHECK(cov.wcheck_sent > 150 && cov.wcheck_bad > 40, "write checks: %llu sent, %llu refused",
             (unsigned long long)cov.wcheck_sent, (unsigned long long)cov.wcheck_bad);
    std::printf("LAST_STATUS reads: %llu OK, %llu a failure\n", (unsigned long long)cov.last_ok,
                (unsigned long long)cov.last_err);
    TB_CHECK(cov.last_ok > 200 && cov.last_err > 200, "LAST_STATUS reads: %llu OK, %llu failure",
             (unsigned long long)cov.last_ok, (unsigned long long)cov.last_err);
    std::printf("ATOMIC_GO: %llu FAA, %llu SWAP, %llu CAS started; refused %llu BAD_OP, %llu RANGE, "
                "%llu MISALIGNED (%llu function and more, %llu range and alignment); reasons:",
                (unsigned long long)cov.ago_go[0], (unsigned long long)cov.ago_go[1],
                (unsigned long long)cov.ago_go[2], (unsigned long long)cov.ago_ref_st[0],
                (unsigned long long)cov.ago_ref_st[1], (unsigned long long)cov.ago_ref_st[2],
                (unsigned long long)cov.ago_fn_and_more, (unsigned long long)cov.ago_range_and_mis);
    for (unsigned k = 0; k < WHY_N; k++) std::printf(" %s %llu", WHY_NAME[k], (unsigned long long)cov.ago_why[k]);
    std::printf("\nATOMIC_GO entries: %llu lookups, %llu cycles stalled on a full table; %llu overdue entries "
                "handed over (%llu ATOMIC_GO)\n", (unsigned long long)cov.ago_hits,
                (unsigned long long)cov.ago_stall_full, (unsigned long long)cov.fto,
                (unsigned long long)cov.fto_atomic);
    for (unsigned f = 0; f < 3; f++)
        TB_CHECK(cov.ago_go[f] > 600, "only %llu ATOMIC_GO of function %u started",
                 (unsigned long long)cov.ago_go[f], f);
    for (unsigned k = 0; k < 3; k++)
        TB_CHECK(cov.ago_ref_st[k] > 400, "only %llu ATOMIC_GO refused with status class %u",
                 (unsigned long long)cov.ago_ref_st[k], k);
    for (unsigned k = 0; k < WHY_N; k++)
        TB_CHECK(cov.ago_why[k] > 200, "only %llu ATOMIC_GO refused for %s", (unsigned long long)cov.ago_why[k],
                 WHY_NAME[k]);
    TB_CHECK(cov.ago_fn_and_more > 150 && cov.ago_range_and_mis > 150,
             "ATOMIC_GO priorities: %llu function and more, %llu range and alignment",
             (unsigned long long)cov.ago_fn_and_more, (unsigned long long)cov.ago_range_and_mis);
    TB_CHECK(cov.ago_hits > 5000 && cov.ago_stall_full > 1000 && cov.fto > 400 && cov.fto_atomic > 150,
             "ATOMIC_GO entries: %llu lookups, %llu stalled cycles, %llu overdue (%llu atomic)",
             (unsigned long long)cov.ago_hits, (unsigned long long)cov.ago_stall_full,
             (unsigned long long)cov.fto, (unsigned long long)cov.fto_atomic);
    return tb_finish("tg_host_if");
}
