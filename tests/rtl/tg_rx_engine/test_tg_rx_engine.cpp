// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the receive engine against a reference memory: remote
// writes, read requests, host read responses and fetch responses (data,
// then the completion word only once every data write is answered), remote
// enqueues against a model of the queue table (every REQ outcome, the entry
// zero-filled past the payload, the tail written only once the entry is in
// memory, nothing written on a refusal, the block per source and queue-table
// entry that a refusal sets and only that source's retry to that entry
// clears, so a source blocked at one queue still reaches the others and
// other sources still reach it; the block table cleared after a reset, by
// a sweep of 256 cycles in which the engine takes nothing) and answers to
// this node's REQs, atomics (fetch-and-add, swap and
// compare-and-swap: one read, then the new value written only once the read
// is answered, nothing else in between, the old value answered only once
// the write is complete; refusals for a bad length, alignment or range with
// memory unchanged), with refusals and stray responses, under random memory
// wait states and transmitter backpressure.
// The engine runs beside its response buffer (tb_rx_engine.v): a response
// names a slot (TG_PAY_RSP) exactly when it has a payload (length not 0)
// and none (TG_PAY_NONE) otherwise; a read or an atomic starts only once a
// slot is shown free, its words go into that slot while nobody holds it,
// and the slot is taken (the wire hold) when its response is taken. The
// bench releases each hold some cycles later, shows no free slot for
// stretches, and checks that no slot is left held after a run.
#include "Vtb_rx_engine.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

static const uint32_t MEM_BYTES = 1u << 16;

struct Rxd {
    uint8_t op, flags, status, len, ctx;
    uint16_t src, tag;
    uint32_t addr;
    uint64_t mask;
    uint64_t key = 0;
    bool key_set = false;   // the protection phase gave it a key (else one is drawn)
    uint8_t payload[TG_MAX_PAYLOAD];
    int slot = -1;      // payload-buffer slot, given as the frame comes up (ensure_slots)
    int want_st = -1;   // a REQ: the outcome the generator meant (checks the bench's model)
};

// One entry of the queue table as the engine sees it.
struct QEntry {
    bool en = false, full = false;
    uint32_t base = 0, tail = 0;
    unsigned size_log2 = 0, esize_log2 = 0;
    bool hv = false;     // the table remembers a head the engine read (hc)
    uint32_t hc = 0;
};

struct FtEntry {
    bool valid;
    uint16_t node;
    uint32_t laddr, cpl;
    uint64_t mask;
};

// What the descriptor on s_rxd must do before it is consumed.
struct Exec {
    const char *what = "";
    uint32_t base = 0;                 // address of word 0 of the data writes or reads
    unsigned words = 0;
    uint8_t strb[8] = {};              // data writes: byte enables per word
    uint64_t wdata[8] = {};
    bool written[8] = {};
    bool want_reads = false;
    bool read_done[8] = {};
    bool want_cpl = false, cpl_done = false;
    uint32_t cpl_addr = 0;
    uint64_t cpl_data = 0;
    bool want_txd = false, txd_done = false;
    uint8_t txd_status = 0, txd_len = 0;
    uint64_t txd_words[8] = {};
    bool want_hrd = false, hrd_done = false;
    bool want_refused = false, refused_seen = false;
    bool want_stray = false, stray_seen = false;
    bool want_done = false, done_seen = false;
    bool want_free = false, free_seen = false;
    uint8_t txd_op = TG_OP_READ_RESP;
    // remote enqueue
    bool is_req = false;
    int want_st = -1;                  // outcome the generator meant (a check of the bench)
    unsigned qidx = 0;
    bool want_head = false, head_done = false;
    uint32_t head_addr = 0;
    bool want_entry = false;
    bool want_qtail = false, qtail_done = false;
    uint32_t qtail_addr = 0;
    uint64_t qtail_data = 0;
    bool want_upd_tail = false, upd_tail_seen = false;
    bool want_upd_full = false, upd_full_seen = false;
    bool want_upd_head = false, upd_head_seen = false;
    uint64_t upd_head = 0;
    bool want_acc = false, acc_seen = false, enq_seen = false;
    bool want_req_ref = false, req_ref_seen = false;
    bool want_qresp = false, qresp_done = false;
    // atomic
    bool is_atomic = false;
    bool want_aread = false, aread_done = false;
    bool want_awrite = false, awrite_done = false;
    uint32_t a_addr = 0;
    uint64_t a_new = 0;
    bool want_atomic_ev = false, atomic_ev_seen = false;
};

struct Tb {
    std::unique_ptr<Vtb_rx_engine> m;
    unsigned next_slot = 0;     // slots handed out in turn: the next two frames differ
    uint64_t pay_reg = 0;       // the payload buffer's read register
    int announced = -1;         // the slot told as on offer in this cycle
    TbRng rng;
    MemModel mem;
    Bytes ref;
    uint32_t mem_size = MEM_BYTES;
    std::deque<Rxd> q;
    bool showing = false;
    unsigned gap_pct = 0, txd_stall_pct = 0;
    Exec ex;
    FtEntry ft[16] = {};
    uint64_t cyc = 0, outstanding = 0, done_descs = 0;
    bool prev_txd_stalled = false;
    uint32_t prev_txd[16 + 8];
    uint64_t n_writes = 0, n_reads = 0, n_cpl = 0, cpl_wait = 0;
    // remote enqueue
    QEntry qt[16];
    // bit q of row s: REQs from source s (low 8 bits) to table entry q are
    // refused until s sends one to q with the retry flag
    uint16_t blocked[256] = {};
    // reason a posted write of (source row, context) was refused, returned
    // by that context's next zero-length read
    uint8_t wst[256][16] = {};
    unsigned long long n_fence_reports = 0;
    unsigned long long n_held_refusals = 0;    // writes refused because an earlier one was

    // protection: the region table as tg_prot presents it (looked up by the
    // key's low bits; the bench drives the lookup answer)
    struct Region {
        bool valid = false;
        uint64_t key = 0;
        uint32_t base = 0;
        uint64_t end = 0;    // first byte past the region
        unsigned rights = 0;
    };
    Region rt[TG_REGIONS];
    bool prot_on = false;
    unsigned long long n_prot[16] = {};    // refusals by status, and passes ([0])

    const Region *prot_lookup(uint64_t key) const
    {
        const Region &g = rt[key % TG_REGIONS];
        return g.valid && g.key == key ? &g : nullptr;
    }
    // the status the protection check gives d, 0 to go on
    uint8_t prot_status(const Rxd &d, unsigned right, uint64_t last)
    {
        if (!prot_on) return 0;
        const Region *g = prot_lookup(d.key);
        uint8_t st = !g                                                      ? TG_ST_BAD_KEY
                     : !(g->rights & right)                                  ? TG_ST_NO_RIGHT
                     : d.addr < g->base || last > g->end ? TG_ST_RANGE : 0;
        n_prot[st]++;
        return st;
    }
    // a key for a frame of the protection phase: a region's, one bit off,
    // an invalid entry's, or random
    uint64_t draw_key()
    {
        unsigned i = rng.below(TG_REGIONS);
        switch (rng.below(8)) {
        case 0: return rt[i].key ^ (1ull << (5 + rng.below(59)));
        case 1: return rng.next();
        default: return rt[i].key;
        }
    }
    std::deque<std::vector<uint64_t>> qexp[16];   // entries appended, not yet consumed
    // REQ outcomes, and the block cases that tell a block per (source,
    // entry) from one per source, per entry, or on the wrong entry:
    // PAST_OWN: a non-retry REQ whose source is blocked at other entries
    // only, not refused by the block; PAST_OTHER: likewise while another
    // source is blocked at this entry; RETRY_ELSEWHERE: a retry to one
    // entry from a source blocked at others (they stay blocked);
    // RETRY_NOQ: a retry to no queue from a blocked source (opens nothing)
    enum { RK_OK, RK_NO_QUEUE, RK_BLOCKED, RK_FULL_FLAG, RK_FULL_HEAD, RK_MALFORMED, RK_RETRY_OPEN,
           RK_PAST_OWN, RK_PAST_OTHER, RK_RETRY_ELSEWHERE, RK_RETRY_NOQ, RK_NKINDS };
    uint64_t req_kinds[RK_NKINDS] = {};   // random traffic
    uint64_t dir_kinds[RK_NKINDS] = {};   // the directed sequences
    bool directed = false;
    uint64_t n_qresp = 0, tail_wait = 0, n_zero_words = 0, n_consumed = 0, n_wraps = 0;
    // the remembered head: REQs that skipped the head read, and reads it could not spare
    uint64_t n_head_skip = 0, n_head_forced = 0;
    // atomics: executed per opcode, CAS that failed, refused
    uint64_t n_faa = 0, n_swap = 0, n_cas_hit = 0, n_cas_miss = 0, n_atomic_refused = 0, awrite_wait = 0;
    // after a reset the engine clears its block table, one row (source) a
    // cycle, and takes nothing meanwhile: no frame, no overdue fetch
    static const unsigned SWEEP = 256;
    uint64_t since_rst = 0;            // cycles since the reset was released
    uint64_t first_take = ~0ull;       // since_rst when the first frame after it was consumed
    uint64_t n_resets = 0, n_sweep_cycles = 0, n_sweep_shown = 0, n_sweep_fto = 0;

    // The response buffer, the bench as the response's path downstream:
    // the slots held, the releases due (a hold dropped some cycles after
    // its response is taken), stretches with no slot shown free, and
    // whether a slot was shown free since the frame on offer came up.
    // (Its own generator: the traffic draws stay as they are.)
    TbRng prng;
    unsigned rel_max = 8;          // a hold is released 1..rel_max+1 cycles after its response is taken
    unsigned block_permille = 3;   // chance a cycle starts a stretch with no free slot shown
    uint64_t block_end = 0;
    bool held[32] = {};
    struct Rel {
        uint64_t due;
        unsigned slot;
    };
    std::vector<Rel> rels;
    int rel_idx = -1;              // the release driven in this cycle, an index in rels
    bool slot_seen = false;
    uint64_t n_takes = 0, n_rels = 0, n_slot_wait = 0, n_slot_wait_full = 0;
    uint32_t slots_used = 0;

    explicit Tb(uint64_t seed)
        : m(new Vtb_rx_engine), rng(seed), mem(MEM_BYTES), ref(MEM_BYTES, 0), prng(seed ^ 0x5DEECE66Dull) {}

    uint64_t ref64(uint32_t a) const
    {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++) v |= (uint64_t)ref[a + i] << (8 * i);
        return v;
    }
    static uint64_t payload_word(const Rxd &d, unsigned w)
    {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++) v |= (uint64_t)d.payload[8 * w + i] << (8 * i);
        return v;
    }

    // The table as the engine's lookup sees it: lowest enabled index with
    // this base (32 bits: the table holds nothing else).
    int lookup(uint32_t base) const
    {
        for (unsigned i = 0; i < 16; i++)
            if (qt[i].en && qt[i].base == base) return (int)i;
        return -1;
    }
    static bool cfg_bad(const QEntry &e, uint32_t addr)
    {
        if (e.size_log2 < TG_Q_MIN_LOG2 || e.size_log2 > TG_Q_MAX_LOG2) return true;
        if (e.esize_log2 < 3 || e.esize_log2 > 6) return true;
        uint64_t size = 1ull << e.size_log2, esz = 1ull << e.esize_log2;
        return e.tail < TG_Q_SLOTS || e.tail + esz > size || e.tail % esz != 0 || addr % size != 0;
    }

    void plan_req(const Rxd &d)
    {
        ex.is_req = true;
        ex.want_txd = true;
        ex.txd_op = TG_OP_REQ_RESP;
        ex.txd_len = 0;
        ex.want_st = d.want_st;
        uint64_t *rk = directed ? dir_kinds : req_kinds;
        unsigned s8 = d.src & 0xFF;
        bool retry = (d.flags & TG_FLAG_RETRY) != 0;
        // an address with bits 63:32 set is the base of no queue
        int idx = lookup(d.addr);
        ex.qidx = idx < 0 ? 0 : (unsigned)idx;
        ex.want_req_ref = true;
        if (idx < 0) {
            // refused at once: no block is set, and a retry opens nothing
            if (retry && blocked[s8]) rk[RK_RETRY_NOQ]++;
            ex.what = "REQ to no queue";
            ex.txd_status = TG_ST_NO_QUEUE;
            rk[RK_NO_QUEUE]++;
            return;
        }
        QEntry &e = qt[idx];
        const uint16_t bit = (uint16_t)(1u << idx);
        const bool was = (blocked[s8] & bit) != 0;
        if (retry) {
            // a retry opens this entry for its source, no other entry
            if (was) rk[RK_RETRY_OPEN]++;
            if (blocked[s8] & ~bit) rk[RK_RETRY_ELSEWHERE]++;
            blocked[s8] &= (uint16_t)~bit;
        }
        const bool held = was && !retry;
        if (held || e.full) {
            // refused, and this source blocked at this entry (again)
            ex.what = held ? "REQ from a source blocked at this queue" : "REQ to a queue marked full";
            rk[held ? RK_BLOCKED : RK_FULL_FLAG]++;
            ex.txd_status = TG_ST_NOT_READY;
            blocked[s8] |= bit;
            return;
        }
        if (!retry) {
            // past the block check, where a block per source (or per
            // entry) would have refused it
            if (blocked[s8] & ~bit) rk[RK_PAST_OWN]++;
            for (unsigned o = 0; o < 256; o++)
                if (o != s8 && (blocked[o] & bit)) {
                    rk[RK_PAST_OTHER]++;
                    break;
                }
        }
        uint32_t esz = 1u << (e.esize_log2 & 7);
        if (cfg_bad(e, d.addr) || d.len == 0 || d.len > esz || d.len > TG_MAX_PAYLOAD) {
            ex.what = cfg_bad(e, d.addr) ? "REQ to a badly configured queue" : "REQ of a bad length";
            ex.txd_status = TG_ST_MALFORMED;
            rk[RK_MALFORMED]++;
            return;
        }
        uint32_t size = 1u << e.size_log2;
        ex.head_addr = d.addr | (uint32_t)TG_Q_HEAD;
        uint64_t head = ref64(ex.head_addr);
        uint32_t next = e.tail + esz >= size ? (uint32_t)TG_Q_SLOTS : e.tail + esz;
        // a remembered head that the next tail is not proves room: the
        // engine must not read the head then; else it reads it and the
        // table remembers what it read
        bool skip = e.hv && next != e.hc;
        if (skip) {
            TB_CHECK(next != head, "bench: the remembered head %06x is no bound (head %06llx)", e.hc,
                     (unsigned long long)head);
            n_head_skip++;
        } else {
            n_head_forced += e.hv;
            ex.want_head = true;
            ex.want_upd_head = (head >> 24) == 0;
            ex.upd_head = head;
        }
        if (!skip && next == head) {
            ex.what = "REQ to a queue whose buffer is full";
            ex.txd_status = TG_ST_NOT_READY;
            ex.want_upd_full = true;
            blocked[s8] |= bit;
            rk[RK_FULL_HEAD]++;
            return;
        }
        ex.what = "REQ";
        ex.want_req_ref = false;
        ex.txd_status = TG_ST_OK;
        ex.want_entry = true;
        ex.base = d.addr + e.tail;
        ex.words = esz / 8;
        std::vector<uint64_t> entry;
        for (unsigned w = 0; w < ex.words; w++) {
            ex.strb[w] = 0xFF;
            ex.wdata[w] = w < d.len / 8u ? payload_word(d, w) : 0;   // zero past the payload
            n_zero_words += w >= d.len / 8u;
            entry.push_back(ex.wdata[w]);
            for (unsigned b = 0; b < 8; b++) ref[ex.base + 8 * w + b] = (uint8_t)(ex.wdata[w] >> (8 * b));
        }
        qexp[idx].push_back(entry);
        ex.want_qtail = true;
        ex.qtail_addr = d.addr | (uint32_t)TG_Q_TAIL;
        ex.qtail_data = next;
        for (unsigned b = 0; b < 8; b++) ref[ex.qtail_addr + b] = (uint8_t)(ex.qtail_data >> (8 * b));
        ex.want_upd_tail = true;
        ex.want_acc = true;
        n_wraps += next == TG_Q_SLOTS;
        rk[RK_OK]++;
    }

    void plan_atomic(const Rxd &d)
    {
        ex.is_atomic = true;
        ex.want_txd = true;
        ex.txd_op = TG_OP_ATOMIC_RESP;
        if (d.len != TG_ATOMIC_LEN || (d.addr & 7) || (uint64_t)d.addr + 8 > mem_size) {
            ex.what = d.len != TG_ATOMIC_LEN ? "atomic of a bad length"
                      : (d.addr & 7)        ? "misaligned atomic" : "out-of-range atomic";
            ex.txd_status = d.len != TG_ATOMIC_LEN ? TG_ST_MALFORMED
                            : (d.addr & 7)         ? TG_ST_MISALIGNED : TG_ST_RANGE;
            ex.want_refused = true;
            n_atomic_refused++;
            return;
        }
        if (uint8_t p = prot_status(d, TG_RIGHT_ATOMIC, (uint64_t)d.addr + 8)) {
            ex.what = "atomic refused by protection";
            ex.txd_status = p;
            ex.want_refused = true;
            return;
        }
        uint64_t old = ref64(d.addr), operand = payload_word(d, 0), compare = payload_word(d, 1);
        ex.txd_status = TG_ST_OK;
        ex.txd_len = 8;
        ex.txd_words[0] = old;
        ex.a_addr = d.addr;
        ex.want_aread = true;
        ex.want_atomic_ev = true;
        bool write = true;
        if (d.op == TG_OP_FAA) {
            ex.what = "fetch-and-add";
            ex.a_new = old + operand;
            n_faa++;
        } else if (d.op == TG_OP_SWAP) {
            ex.what = "swap";
            ex.a_new = operand;
            n_swap++;
        } else {
            write = old == compare;
            ex.what = write ? "compare-and-swap that matches" : "compare-and-swap that fails";
            ex.a_new = operand;
            (write ? n_cas_hit : n_cas_miss)++;
        }
        ex.want_awrite = write;
        if (write)
            for (unsigned b = 0; b < 8; b++) ref[d.addr + b] = (uint8_t)(ex.a_new >> (8 * b));
    }

    // An atomic's memory requests: the read of the word with nothing else
    // outstanding, then (the read answered) the write of the new value.
    void check_atomic_mem(Vtb_rx_engine &r, uint64_t out_after)
    {
        uint32_t a = r.m_mem_req_addr;
        unsigned long long c = cyc;
        if (!r.m_mem_req_write) {
            n_reads++;
            TB_CHECK(ex.want_aread && !ex.aread_done && a == ex.a_addr, "cycle %llu, %s: unexpected read of %08x", c,
                     ex.what, a);
            TB_CHECK(out_after == 0, "cycle %llu, %s: read with %llu requests unanswered", c, ex.what,
                     (unsigned long long)out_after);
            ex.aread_done = true;
            return;
        }
        n_writes++;
        TB_CHECK(ex.want_awrite && !ex.awrite_done && ex.aread_done && a == ex.a_addr,
                 "cycle %llu, %s: unexpected write to %08x", c, ex.what, a);
        TB_CHECK(out_after == 0, "cycle %llu, %s: new value written before the old one was read", c, ex.what);
        TB_CHECK(r.m_mem_req_wstrb == 0xFF && r.m_mem_req_wdata == ex.a_new,
                 "cycle %llu, %s: wrote %016llx strobes %02x, want %016llx", c, ex.what,
                 (unsigned long long)r.m_mem_req_wdata, r.m_mem_req_wstrb, (unsigned long long)ex.a_new);
        ex.awrite_done = true;
    }

    // Work out what the descriptor must do (called when it is first shown).
    void plan(const Rxd &d)
    {
        ex = Exec();
        if (d.op == TG_OP_FAA || d.op == TG_OP_SWAP || d.op == TG_OP_CAS) {
            plan_atomic(d);
            return;
        }
        if (d.op == TG_OP_REQ) {
            if (uint8_t p = prot_status(d, TG_RIGHT_ENQ, (uint64_t)d.addr + 1)) {
                // refused before the queue table and the block table
                ex.is_req = true;
                ex.want_txd = true;
                ex.txd_op = TG_OP_REQ_RESP;
                ex.txd_len = 0;
                ex.want_req_ref = true;
                ex.txd_status = p;
                ex.what = "REQ refused by protection";
                return;
            }
            plan_req(d);
            if (ex.want_st >= 0)
                TB_CHECK(ex.want_st == ex.txd_status,
                         "cycle %llu: bench: a REQ meant to end %d ends %u (%s): src %04x entry %d len %u flags %02x",
                         (unsigned long long)cyc, ex.want_st, ex.txd_status, ex.what, d.src,
                         lookup(d.addr), d.len, d.flags);
            return;
        }
        if (d.op == TG_OP_REQ_RESP) {
            ex.what = "answer to a REQ";
            ex.want_qresp = true;
            return;
        }
        unsigned words = d.len / 8;
        bool is_fetch = (d.tag & TG_TAG_FETCH) != 0;
        bool misaligned = (d.addr & 7) != 0;
        bool out_of_range = (uint64_t)d.addr + d.len > mem_size;
        if (d.op == TG_OP_WRITE) {
            if (misaligned || out_of_range) {
                ex.what = "refused write";
                ex.want_refused = true;
                wst[d.src & 0xFF][d.ctx & 15] = misaligned ? TG_ST_MISALIGNED : TG_ST_RANGE;
                return;
            }
            if (uint8_t p = prot_status(d, TG_RIGHT_WRITE, (uint64_t)d.addr + d.len)) {
                ex.what = "write refused by protection";
                ex.want_refused = true;
                wst[d.src & 0xFF][d.ctx & 15] = p;
                return;
            }
            if (wst[d.src & 0xFF][d.ctx & 15]) {
                // a write of this source and context was refused and no
                // fence has taken the reason: refused too, reason kept
                ex.what = "write after an unreported refusal";
                ex.want_refused = true;
                n_held_refusals++;
                return;
            }
            ex.what = "write";
            ex.base = d.addr;
            ex.words = words;
            for (unsigned w = 0; w < words; w++) {
                ex.strb[w] = (uint8_t)(d.mask >> (8 * w));
                ex.wdata[w] = payload_word(d, w);
                for (unsigned b = 0; b < 8; b++)
                    if (ex.strb[w] & (1u << b)) ref[d.addr + 8 * w + b] = d.payload[8 * w + b];
            }
            ex.want_done = true;
        } else if (d.op == TG_OP_READ_REQ) {
            ex.want_txd = true;
            if (misaligned) {
                ex.what = "misaligned read request";
                ex.want_refused = true;
                ex.txd_status = TG_ST_MISALIGNED;
            } else if (out_of_range && words) {
                ex.what = "out-of-range read request";
                ex.want_refused = true;
                ex.txd_status = TG_ST_RANGE;
            } else if (uint8_t p = words ? prot_status(d, TG_RIGHT_READ, (uint64_t)d.addr + d.len) : 0) {
                ex.what = "read request refused by protection";
                ex.want_refused = true;
                ex.txd_status = p;
            } else {
                ex.what = words ? "read request" : "zero-length read request";
                ex.txd_status = TG_ST_OK;
                uint8_t &w = wst[d.src & 0xFF][d.ctx & 15];
                if (!words && w) {
                    ex.what = "fence reporting a refused write";
                    ex.txd_status = w;
                    w = 0;
                    n_fence_reports++;
                }
                ex.txd_len = d.len;
                ex.base = d.addr;
                ex.words = words;
                ex.want_reads = true;
                for (unsigned w = 0; w < words; w++) ex.txd_words[w] = ref64(d.addr + 8 * w);
            }
        } else if (!is_fetch) {
            ex.what = "host read response";
            ex.want_hrd = true;
        } else {
            const FtEntry &e = ft[d.tag & 15];
            if (!e.valid || e.node != d.src) {
                ex.what = e.valid ? "fetch response from the wrong node" : "fetch response with no entry";
                ex.want_stray = true;
                return;
            }
            ex.what = d.status == TG_ST_OK ? "fetch response" : "failed fetch response";
            ex.want_cpl = true;
            ex.cpl_addr = e.cpl;
            ex.cpl_data = TG_FETCH_CPL_DONE | ((uint64_t)d.status << 8);
            ex.want_free = true;
            if (d.status == TG_ST_OK) {
                ex.base = e.laddr;
                ex.words = words;
                uint64_t mk = d.mask & e.mask;
                for (unsigned w = 0; w < words; w++) {
                    ex.strb[w] = (uint8_t)(mk >> (8 * w));
                    ex.wdata[w] = payload_word(d, w);
                    for (unsigned b = 0; b < 8; b++)
                        if (ex.strb[w] & (1u << b)) ref[e.laddr + 8 * w + b] = d.payload[8 * w + b];
                }
            }
            for (unsigned b = 0; b < 8; b++) ref[e.cpl + b] = (uint8_t)(ex.cpl_data >> (8 * b));
        }
    }

    void drive(const Rxd &d)
    {
        Vtb_rx_engine &r = *m;
        r.s_rxd_op = d.op;
        r.s_rxd_flags = d.flags;
        r.s_rxd_status = d.status;
        r.s_rxd_src = d.src;
        r.s_rxd_addr = d.addr;
        r.s_rxd_off = tb_run_off(d.mask);
        r.s_rxd_cnt = tb_run_cnt(d.mask);
        r.s_rxd_len = d.len;
        r.s_rxd_ctx = d.ctx;
        r.s_rxd_tag = d.tag;
        r.s_rxd_key = d.key;
        // the region table's answer for the key (tg_prot is combinational)
        const Region &g = rt[d.key % TG_REGIONS];
        r.prot_hit = g.valid && g.key == d.key;
        r.prot_base = g.base;
        r.prot_end = g.end;
        r.prot_rights = g.rights;
    }

    // The payload sits in a slot of the payload buffer (tg_pay_buf), read
    // through a register: the engine names the slot and word it needs
    // next cycle. The bench gives the frame on offer and the one after it
    // distinct slots, tells the engine which is on offer next cycle (after
    // this cycle's transfer), and answers from the frame in that slot.
    void ensure_slots()
    {
        for (size_t i = 0; i < q.size() && i < 2; i++)
            if (q[i].slot < 0) q[i].slot = (int)(next_slot++ & 3);
    }
    uint64_t pay_read()
    {
        Vtb_rx_engine &r = *m;
        ensure_slots();
        int nxt = -1;
        if (!q.empty()) {
            if (r.s_rxd_valid && r.s_rxd_ready)
                nxt = q.size() > 1 ? q[1].slot : -1;
            else
                nxt = q[0].slot;
        }
        r.s_rxd_slot_next = nxt >= 0 ? (unsigned)nxt : (unsigned)rng.below(4);
        announced = nxt;
        r.eval();
        for (size_t i = 0; i < q.size() && i < 2; i++)
            if (q[i].slot == (int)r.m_pay_rd_slot) return payload_word(q[i], r.m_pay_rd_word & 7);
        return rng.next();   // no frame there: junk
    }

    bool all_writes_done() const
    {
        for (unsigned w = 0; w < ex.words; w++)
            if (ex.strb[w] && !ex.written[w]) return false;
        return true;
    }
    bool all_reads_done() const
    {
        if (!ex.want_reads) return true;
        for (unsigned w = 0; w < ex.words; w++)
            if (!ex.read_done[w]) return false;
        return true;
    }

    void check_mem_req(Vtb_rx_engine &r, bool active, uint64_t out_after)
    {
        const char *what = active ? ex.what : "idle";
        if (!active) {
            TB_CHECK(false, "cycle %llu: memory request while idle", (unsigned long long)cyc);
            return;
        }
        uint32_t a = r.m_mem_req_addr;
        TB_CHECK((a & 7) == 0, "cycle %llu, %s: memory address %08x not aligned", (unsigned long long)cyc, what, a);
        if (ex.is_req) {
            check_req_mem(r, out_after);
            return;
        }
        if (ex.is_atomic) {
            check_atomic_mem(r, out_after);
            return;
        }
        if (ex.want_cpl && a == ex.cpl_addr && r.m_mem_req_write) {
            n_cpl++;
            TB_CHECK(!ex.cpl_done, "cycle %llu, %s: second completion write", (unsigned long long)cyc, what);
            TB_CHECK(r.m_mem_req_wstrb == 0xFF && r.m_mem_req_wdata == ex.cpl_data,
                     "cycle %llu, %s: completion word %016llx/%02x, want %016llx", (unsigned long long)cyc, what,
                     (unsigned long long)r.m_mem_req_wdata, r.m_mem_req_wstrb, (unsigned long long)ex.cpl_data);
            TB_CHECK(all_writes_done(), "cycle %llu, %s: completion written before the data",
                     (unsigned long long)cyc, what);
            // the ordering rule: every data write already answered
            TB_CHECK(out_after == 0, "cycle %llu, %s: completion issued with %llu data writes unanswered",
                     (unsigned long long)cyc, what, (unsigned long long)out_after);
            ex.cpl_done = true;
            return;
        }
        bool in = a >= ex.base && a < ex.base + 8 * ex.words;
        unsigned w = in ? (a - ex.base) / 8 : 0;
        if (r.m_mem_req_write) {
            n_writes++;
            bool allowed = in && !ex.want_reads && (ex.want_done || (ex.want_cpl && !ex.cpl_done));
            TB_CHECK(allowed, "cycle %llu, %s: unexpected write to %08x strobes %02x", (unsigned long long)cyc, what,
                     a, r.m_mem_req_wstrb);
            if (!allowed) return;
            TB_CHECK(!ex.written[w], "cycle %llu, %s: word %u written twice", (unsigned long long)cyc, what, w);
            TB_CHECK(r.m_mem_req_wstrb == ex.strb[w], "cycle %llu, %s: word %u strobes %02x, want %02x",
                     (unsigned long long)cyc, what, w, r.m_mem_req_wstrb, ex.strb[w]);
            uint64_t bm = 0;
            for (unsigned b = 0; b < 8; b++)
                if (ex.strb[w] & (1u << b)) bm |= 0xFFull << (8 * b);
            TB_CHECK((r.m_mem_req_wdata & bm) == (ex.wdata[w] & bm), "cycle %llu, %s: word %u data %016llx, want %016llx",
                     (unsigned long long)cyc, what, w, (unsigned long long)(r.m_mem_req_wdata & bm),
                     (unsigned long long)(ex.wdata[w] & bm));
            ex.written[w] = true;
        } else {
            n_reads++;
            bool allowed = in && ex.want_reads;
            TB_CHECK(allowed, "cycle %llu, %s: unexpected read of %08x", (unsigned long long)cyc, what, a);
            if (!allowed) return;
            TB_CHECK(!ex.read_done[w], "cycle %llu, %s: word %u read twice", (unsigned long long)cyc, what, w);
            ex.read_done[w] = true;
        }
    }

    // A memory request while a REQ executes: the head read, then the entry's
    // words, then (every entry write answered) the tail; nothing else.
    void check_req_mem(Vtb_rx_engine &r, uint64_t out_after)
    {
        uint32_t a = r.m_mem_req_addr;
        unsigned long long c = cyc;
        if (!r.m_mem_req_write) {
            n_reads++;
            TB_CHECK(ex.want_head && !ex.head_done && a == ex.head_addr, "cycle %llu, %s: unexpected read of %08x",
                     c, ex.what, a);
            TB_CHECK(out_after == 0, "cycle %llu, %s: head read with %llu requests unanswered", c, ex.what,
                     (unsigned long long)out_after);
            ex.head_done = true;
            return;
        }
        n_writes++;
        if (ex.want_qtail && a == ex.qtail_addr) {
            TB_CHECK(!ex.qtail_done, "cycle %llu, %s: tail written twice", c, ex.what);
            TB_CHECK(all_writes_done(), "cycle %llu, %s: tail written before the whole entry", c, ex.what);
            TB_CHECK(out_after == 0, "cycle %llu, %s: tail written with %llu entry writes unanswered", c, ex.what,
                     (unsigned long long)out_after);
            TB_CHECK(r.m_mem_req_wstrb == 0xFF && r.m_mem_req_wdata == ex.qtail_data,
                     "cycle %llu, %s: tail %016llx strobes %02x, want %016llx", c, ex.what,
                     (unsigned long long)r.m_mem_req_wdata, r.m_mem_req_wstrb, (unsigned long long)ex.qtail_data);
            ex.qtail_done = true;
            return;
        }
        bool in = ex.want_entry && a >= ex.base && a < ex.base + 8 * ex.words;
        TB_CHECK(in && (ex.head_done || !ex.want_head) && !ex.qtail_done,
                 "cycle %llu, %s: unexpected write to %08x strobes %02x", c,
                 ex.what, a, r.m_mem_req_wstrb);
        if (!in) return;
        unsigned w = (a - ex.base) / 8;
        bool first = true;
        for (unsigned k = 0; k < ex.words; k++) first &= !ex.written[k];
        if (first)
            TB_CHECK(out_after == 0, "cycle %llu, %s: entry written before the head read was answered", c, ex.what);
        TB_CHECK(!ex.written[w], "cycle %llu, %s: entry word %u written twice", c, ex.what, w);
        TB_CHECK(r.m_mem_req_wstrb == 0xFF && r.m_mem_req_wdata == ex.wdata[w],
                 "cycle %llu, %s: entry word %u = %016llx strobes %02x, want %016llx", c, ex.what, w,
                 (unsigned long long)r.m_mem_req_wdata, r.m_mem_req_wstrb, (unsigned long long)ex.wdata[w]);
        ex.written[w] = true;
    }

    bool req_complete() const
    {
        return ex.want_head == ex.head_done && ex.want_qtail == ex.qtail_done &&
               ex.want_upd_tail == ex.upd_tail_seen && ex.want_upd_full == ex.upd_full_seen &&
               ex.want_upd_head == ex.upd_head_seen &&
               ex.want_acc == ex.acc_seen && ex.want_acc == ex.enq_seen && ex.want_req_ref == ex.req_ref_seen &&
               ex.want_qresp == ex.qresp_done;
    }

    void check_txd(Vtb_rx_engine &r, const Rxd &d)
    {
        TB_CHECK(ex.want_txd && !ex.txd_done, "cycle %llu, %s: unexpected response descriptor",
                 (unsigned long long)cyc, ex.what);
        if (!ex.want_txd) return;
        TB_CHECK(all_reads_done() && outstanding == 0, "cycle %llu, %s: response offered before the data was read",
                 (unsigned long long)cyc, ex.what);
        TB_CHECK(r.m_txd_op == ex.txd_op && r.m_txd_status == ex.txd_status && r.m_txd_len == ex.txd_len,
                 "cycle %llu, %s: op %u/%u status %u/%u len %u/%u", (unsigned long long)cyc, ex.what, r.m_txd_op,
                 ex.txd_op, r.m_txd_status, ex.txd_status, r.m_txd_len, ex.txd_len);
        TB_CHECK(r.m_txd_flags == 0, "cycle %llu, %s: response flags %02x", (unsigned long long)cyc, ex.what,
                 r.m_txd_flags);
        // a payload in a response-buffer slot exactly when it has one
        unsigned want_src = ex.txd_len ? TG_PAY_RSP : TG_PAY_NONE;
        TB_CHECK(r.m_txd_pay_src == want_src, "cycle %llu, %s: response source %u, want %u", (unsigned long long)cyc,
                 ex.what, r.m_txd_pay_src, want_src);
        if (ex.is_atomic)
            TB_CHECK(ex.want_aread == ex.aread_done && ex.want_awrite == ex.awrite_done &&
                         ex.want_atomic_ev == ex.atomic_ev_seen,
                     "cycle %llu, %s: answered before the read and write were done", (unsigned long long)cyc, ex.what);
        if (ex.is_req) {
            // answered only once the entry and the tail are in memory and
            // the table is updated (or, refused, with nothing done)
            TB_CHECK(req_complete() && all_writes_done() && outstanding == 0,
                     "cycle %llu, %s: answered before its execution was complete", (unsigned long long)cyc, ex.what);
            TB_CHECK(r.m_txd_dst == d.src && r.m_txd_tag == d.tag, "cycle %llu, %s: dst %04x/%04x tag %04x/%04x",
                     (unsigned long long)cyc, ex.what, r.m_txd_dst, d.src, r.m_txd_tag, d.tag);
            return;
        }
        // back to the requester, with its tag, and the byte mask it asked
        // for (a fetch writes the response's mask ANDed with its own)
        TB_CHECK(r.m_txd_dst == d.src && r.m_txd_tag == d.tag && tg_frame_mask(r.m_txd_off, r.m_txd_cnt) == d.mask,
                 "cycle %llu, %s: dst %04x/%04x tag %04x/%04x mask %016llx/%016llx", (unsigned long long)cyc,
                 ex.what, r.m_txd_dst, d.src, r.m_txd_tag, d.tag, (unsigned long long)tg_frame_mask(r.m_txd_off, r.m_txd_cnt),
                 (unsigned long long)d.mask);
        for (unsigned w = 0; w < ex.txd_len / 8u; w++) {
            uint64_t got = (uint64_t)r.m_txd_payload[2 * w] | ((uint64_t)r.m_txd_payload[2 * w + 1] << 32);
            TB_CHECK(got == ex.txd_words[w], "cycle %llu, %s: response word %u = %016llx, want %016llx",
                     (unsigned long long)cyc, ex.what, w, (unsigned long long)got,
                     (unsigned long long)ex.txd_words[w]);
        }
    }

    // ------------------------------------------------------------ response buffer
    uint32_t held_vec() const
    {
        uint32_t v = 0;
        for (unsigned s = 0; s < 32; s++) v |= (uint32_t)held[s] << s;
        return v;
    }
    // before the clock: a stretch with no free slot shown, and a due release
    void pay_drive(bool rst)
    {
        Vtb_rx_engine &r = *m;
        if (!rst && cyc >= block_end && prng.below(1000) < block_permille) block_end = cyc + 1 + prng.below(40);
        r.tb_alloc_block = !rst && cyc < block_end;
        rel_idx = -1;
        for (size_t i = 0; i < rels.size() && !rst && rel_idx < 0; i++)
            if (rels[i].due <= cyc) rel_idx = (int)i;
        r.tb_free_valid = rel_idx >= 0;
        r.tb_free_slot = rel_idx >= 0 ? rels[rel_idx].slot : prng.below(32);
    }
    // after the inputs settle: the buffer's holds are the model's, a slot is
    // taken only when free and as its response is taken, a held slot is
    // never written nor offered, and a read or atomic does nothing before
    // the engine, idle, was shown a free slot
    void pay_check(bool active, bool req)
    {
        Vtb_rx_engine &r = *m;
        unsigned long long c = cyc;
        TB_CHECK(r.st_busy == held_vec(), "cycle %llu: response-buffer holds %08x, want %08x", c, r.st_busy,
                 held_vec());
        TB_CHECK(r.m_txd_pay_src == TG_PAY_NONE || r.m_txd_pay_src == TG_PAY_RSP, "cycle %llu: response source %u",
                 c, r.m_txd_pay_src);
        bool rsp_taken = r.m_txd_valid && r.m_txd_ready && r.m_txd_pay_src == TG_PAY_RSP;
        TB_CHECK(r.m_rsp_take_valid == rsp_taken, "cycle %llu: slot taken %u, response with a payload taken %u", c,
                 r.m_rsp_take_valid, rsp_taken);
        if (r.m_rsp_take_valid)
            TB_CHECK(!held[r.m_rsp_wr_slot] && r.m_rsp_wr_slot == r.m_txd_pay_slot,
                     "cycle %llu: slot %u taken (held %u) for a response from slot %u", c, r.m_rsp_wr_slot,
                     held[r.m_rsp_wr_slot], r.m_txd_pay_slot);
        if (r.m_txd_valid && r.m_txd_pay_src == TG_PAY_RSP)
            TB_CHECK(!held[r.m_txd_pay_slot], "cycle %llu: response offered from slot %u, which is held", c,
                     r.m_txd_pay_slot);
        if (r.m_rsp_we)
            TB_CHECK(!held[r.m_rsp_wr_slot], "cycle %llu: word %u of slot %u written while the slot is held", c,
                     r.m_rsp_wr_word, r.m_rsp_wr_slot);
        if (!active) return;
        const uint8_t op = q.front().op;
        if (op != TG_OP_READ_REQ && op != TG_OP_FAA && op != TG_OP_SWAP && op != TG_OP_CAS) return;
        slot_seen |= r.st_idle && r.rsp_alloc_valid;
        bool acts = req || r.m_txd_valid || r.s_rxd_ready || r.ev_refused || r.m_rsp_we;
        TB_CHECK(slot_seen || !acts, "cycle %llu, %s: started with no response slot shown free", c, ex.what);
        if (!slot_seen) {
            n_slot_wait++;
            n_slot_wait_full += r.st_busy == 0xFFFFFFFFu;
        }
    }
    // the clock edge, as the buffer takes it
    void pay_edge()
    {
        Vtb_rx_engine &r = *m;
        if (rel_idx >= 0) {
            unsigned s = rels[rel_idx].slot;
            TB_CHECK(held[s], "cycle %llu: bench releases slot %u, not held", (unsigned long long)cyc, s);
            held[s] = false;
            rels.erase(rels.begin() + rel_idx);
            n_rels++;
        }
        if (r.m_rsp_take_valid) {
            unsigned s = r.m_rsp_wr_slot;
            held[s] = true;
            rels.push_back(Rel{cyc + 1 + prng.below(rel_max + 1), s});
            n_takes++;
            slots_used |= 1u << s;
        }
    }
    void pay_clear()
    {
        std::fill(held, held + 32, false);
        rels.clear();
        block_end = 0;
    }

    void snapshot_txd(Vtb_rx_engine &r, uint32_t *s)
    {
        for (unsigned w = 0; w < 16; w++) s[w] = r.m_txd_payload[w];
        s[16] = r.m_txd_op | (r.m_txd_status << 8) | (r.m_txd_len << 16) | (r.m_txd_ctx << 24);
        s[17] = r.m_txd_dst | (r.m_txd_tag << 16);
        s[18] = r.m_txd_addr;
        s[19] = (uint32_t)tg_frame_mask(r.m_txd_off, r.m_txd_cnt);
        s[20] = (uint32_t)(tg_frame_mask(r.m_txd_off, r.m_txd_cnt) >> 32);
        s[21] = r.m_txd_pay_src | (r.m_txd_pay_slot << 8);
        s[22] = s[23] = 0;
    }

    void tick(bool rst = false)
    {
        Vtb_rx_engine &r = *m;
        r.rst = rst;
        r.cfg_mem_size = mem_size;
        r.cfg_prot_enable = prot_on;
        bool starting = false;
        // a frame comes up only once the cycle before told its slot, as
        // tg_eth_rx and tg_link_rx do
        if (!showing && !rst && !q.empty() && !rng.chance(gap_pct) && q.front().slot >= 0 &&
            q.front().slot == announced) {
            showing = true;
            starting = true;
            slot_seen = false;
        }
        r.s_rxd_valid = showing && !rst;
        // an overdue fetch offered during the sweep must wait for its end
        // (offered no later: the bench does not model its completion)
        const bool sweeping = !rst && since_rst < SWEEP;
        r.s_fto_valid = sweeping && rng.chance(50);
        r.s_fto_idx = (uint8_t)rng.below(16);
        if (r.s_rxd_valid) {
            if (starting && prot_on && !q.front().key_set) q.front().key = draw_key();
            if (starting) plan(q.front());
            drive(q.front());
        } else {
            Rxd junk;
            junk.op = (uint8_t)(1 + rng.below(7));
            junk.flags = (uint8_t)rng.next();
            junk.status = (uint8_t)rng.next(); junk.len = (uint8_t)(8 * rng.below(9)); junk.ctx = 0;
            junk.src = (uint16_t)rng.next(); junk.tag = (uint16_t)rng.next();
            junk.addr = (uint32_t)rng.next(); junk.mask = tb_random_run(rng);
            for (auto &b : junk.payload) b = (uint8_t)rng.next();
            drive(junk);
        }
        uint64_t rdata = 0;
        bool resp = mem.resp(cyc, rdata);
        if (rst) resp = false;
        r.s_mem_resp_valid = resp;
        r.s_mem_resp_rdata = resp ? rdata : rng.next();
        r.m_mem_req_ready = mem.pick_ready(rng);
        r.m_txd_ready = !rng.chance(txd_stall_pct);
        r.s_pay_rd_data = pay_reg;
        pay_drive(rst);
        r.clk = 0;
        r.eval();
        // the fetch table answers the index the engine looks up
        const FtEntry &e = ft[r.fetch_lookup_idx & 15];
        r.fetch_lookup_valid = e.valid;
        r.fetch_lookup_node = e.node;
        r.fetch_lookup_laddr = e.laddr;
        r.fetch_lookup_cpl = e.cpl;
        r.fetch_lookup_off = tb_run_off(e.mask);
        r.fetch_lookup_cnt = tb_run_cnt(e.mask);
        // the queue table answers the base the engine looks up
        int qi = lookup(r.q_lk_base);
        r.q_lk_hit = qi >= 0;
        if (qi >= 0) {
            const QEntry &q = qt[qi];
            r.q_lk_idx = (uint8_t)qi;
            r.q_lk_size_log2 = (uint8_t)q.size_log2;
            r.q_lk_esize_log2 = (uint8_t)q.esize_log2;
            r.q_lk_tail = q.tail;
            r.q_lk_full = q.full;
            r.q_lk_head_valid = q.hv;
            r.q_lk_head = q.hc;
        } else {   // on a miss the rest means nothing
            r.q_lk_head_valid = rng.below(2);
            r.q_lk_head = (uint32_t)rng.next() & 0xFFFFFF;
            r.q_lk_idx = (uint8_t)rng.below(16);
            r.q_lk_size_log2 = (uint8_t)rng.below(32);
            r.q_lk_esize_log2 = (uint8_t)rng.below(8);
            r.q_lk_tail = (uint32_t)rng.next() & 0xFFFFFF;
            r.q_lk_full = rng.below(2);
        }
        r.eval();
        const uint64_t pay_next = pay_read();

        if (!rst) {
            bool active = r.s_rxd_valid;
            const char *what = active ? ex.what : "idle";
            if (sweeping) {
                bool busy = r.s_rxd_ready || r.m_mem_req_valid || r.m_txd_valid || r.m_hrd_valid ||
                            r.m_qresp_valid || r.fetch_free_valid || r.s_fto_ready || r.q_upd_tail_valid ||
                            r.q_upd_full_valid || r.ev_refused || r.ev_stray || r.ev_rx_done || r.ev_req_accepted ||
                            r.ev_req_refused || r.ev_enq_done || r.ev_atomic;
                TB_CHECK(!busy, "cycle %llu, %s: engine active %llu cycles after the reset, during the block-table "
                         "sweep (rxd_ready %u mem_req %u txd %u fto_ready %u)", (unsigned long long)cyc, what,
                         (unsigned long long)since_rst, r.s_rxd_ready, r.m_mem_req_valid, r.m_txd_valid,
                         r.s_fto_ready);
                n_sweep_cycles++;
                n_sweep_shown += active;
                n_sweep_fto += r.s_fto_valid;
            }
            if (resp) {
                TB_CHECK(outstanding > 0, "cycle %llu: memory response with nothing outstanding", (unsigned long long)cyc);
                outstanding--;
            }
            uint64_t out_after = outstanding;   // this cycle's answer counted
            bool req = r.m_mem_req_valid && r.m_mem_req_ready;
            if (req) check_mem_req(r, active, out_after);

            if (r.ev_refused) {
                TB_CHECK(active && ex.want_refused && !ex.refused_seen, "cycle %llu, %s: unexpected ev_refused",
                         (unsigned long long)cyc, what);
                ex.refused_seen = true;
            }
            if (r.ev_stray) {
                TB_CHECK(active && ex.want_stray && !ex.stray_seen, "cycle %llu, %s: unexpected ev_stray",
                         (unsigned long long)cyc, what);
                ex.stray_seen = true;
            }
            if (r.ev_rx_done) {
                TB_CHECK(active && ex.want_done && !ex.done_seen, "cycle %llu, %s: unexpected ev_rx_done",
                         (unsigned long long)cyc, what);
                TB_CHECK(all_writes_done() && out_after == 0 && !req,
                         "cycle %llu, %s: ev_rx_done before the last write was answered", (unsigned long long)cyc, what);
                ex.done_seen = true;
            }
            if (r.m_hrd_valid) {
                TB_CHECK(active && ex.want_hrd && !ex.hrd_done, "cycle %llu, %s: unexpected m_hrd_valid",
                         (unsigned long long)cyc, what);
                if (active) {
                    const Rxd &d = q.front();
                    TB_CHECK(r.m_hrd_src == d.src && r.m_hrd_tag == d.tag && r.m_hrd_status == d.status &&
                                 r.m_hrd_data == (d.len >= 8 ? payload_word(d, 0) : 0),   // zero past the length
                             "cycle %llu: host answer src %04x tag %04x status %u data %016llx", (unsigned long long)cyc,
                             r.m_hrd_src, r.m_hrd_tag, r.m_hrd_status, (unsigned long long)r.m_hrd_data);
                }
                ex.hrd_done = true;
            }
            if (r.fetch_free_valid) {
                TB_CHECK(active && ex.want_free && !ex.free_seen && ex.cpl_done,
                         "cycle %llu, %s: unexpected fetch_free_valid", (unsigned long long)cyc, what);
                if (active) {
                    unsigned idx = q.front().tag & 15;
                    TB_CHECK(r.fetch_free_idx == idx, "cycle %llu: freed entry %u, want %u", (unsigned long long)cyc,
                             r.fetch_free_idx, idx);
                }
                ex.free_seen = true;
            }
            unsigned long long c = cyc;
            if (r.m_qresp_valid) {
                TB_CHECK(active && ex.want_qresp && !ex.qresp_done, "cycle %llu, %s: unexpected m_qresp_valid", c, what);
                if (active) {
                    const Rxd &d = q.front();
                    TB_CHECK(r.m_qresp_src == d.src && r.m_qresp_tag == d.tag && r.m_qresp_status == d.status,
                             "cycle %llu: REQ answer src %04x/%04x tag %04x/%04x status %u/%u", c, r.m_qresp_src,
                             d.src, r.m_qresp_tag, d.tag, r.m_qresp_status, d.status);
                }
                ex.qresp_done = true;
                n_qresp++;
            }
            if (r.ev_atomic) {
                TB_CHECK(active && ex.want_atomic_ev && !ex.atomic_ev_seen && ex.aread_done && out_after == 0,
                         "cycle %llu, %s: unexpected or early ev_atomic", c, what);
                ex.atomic_ev_seen = true;
            }
            if (r.ev_req_refused) {
                TB_CHECK(active && ex.want_req_ref && !ex.req_ref_seen, "cycle %llu, %s: unexpected ev_req_refused",
                         c, what);
                ex.req_ref_seen = true;
            }
            bool req_done = ex.qtail_done && all_writes_done() && out_after == 0 && !req;
            if (r.ev_req_accepted) {
                TB_CHECK(active && ex.want_acc && !ex.acc_seen && req_done,
                         "cycle %llu, %s: unexpected or early ev_req_accepted", c, what);
                ex.acc_seen = true;
            }
            if (r.ev_enq_done) {
                TB_CHECK(active && ex.want_acc && !ex.enq_seen && req_done,
                         "cycle %llu, %s: unexpected or early ev_enq_done", c, what);
                ex.enq_seen = true;
            }
            if (r.q_upd_tail_valid) {
                TB_CHECK(active && ex.want_upd_tail && !ex.upd_tail_seen && req_done,
                         "cycle %llu, %s: unexpected or early table tail update", c, what);
                TB_CHECK(r.q_upd_idx == ex.qidx && r.q_upd_tail == ex.qtail_data,
                         "cycle %llu, %s: table update of entry %u tail %06x, want entry %u tail %06llx", c, what,
                         r.q_upd_idx, r.q_upd_tail, ex.qidx, (unsigned long long)ex.qtail_data);
                ex.upd_tail_seen = true;
            }
            if (r.q_upd_full_valid) {
                TB_CHECK(active && ex.want_upd_full && !ex.upd_full_seen && ex.head_done && out_after == 0,
                         "cycle %llu, %s: unexpected full mark", c, what);
                TB_CHECK(r.q_upd_idx == ex.qidx, "cycle %llu, %s: entry %u marked full, want %u", c, what,
                         r.q_upd_idx, ex.qidx);
                ex.upd_full_seen = true;
            }
            if (r.q_upd_head_valid) {
                TB_CHECK(active && ex.want_upd_head && !ex.upd_head_seen && ex.head_done && out_after == 0,
                         "cycle %llu, %s: unexpected head for the table", c, what);
                TB_CHECK(r.q_upd_idx == ex.qidx && r.q_upd_head == ex.upd_head,
                         "cycle %llu, %s: head %06x for entry %u, want %06llx for %u", c, what, r.q_upd_head,
                         r.q_upd_idx, (unsigned long long)ex.upd_head, ex.qidx);
                ex.upd_head_seen = true;
            }
            TB_CHECK(!(r.q_upd_tail_valid && r.q_upd_full_valid), "cycle %llu: tail update and full mark at once", c);
            pay_check(active, req);
            uint32_t snap[24];
            snapshot_txd(r, snap);
            if (prev_txd_stalled) {
                TB_CHECK(r.m_txd_valid && std::memcmp(snap, prev_txd, sizeof snap) == 0,
                         "cycle %llu, %s: response descriptor changed or withdrawn before it was taken",
                         (unsigned long long)cyc, what);
            }
            if (r.m_txd_valid) {
                if (active) check_txd(r, q.front());
                else TB_CHECK(false, "cycle %llu: response descriptor while idle", (unsigned long long)cyc);
                if (r.m_txd_ready) ex.txd_done = true;
            }
            prev_txd_stalled = r.m_txd_valid && !r.m_txd_ready;
            std::memcpy(prev_txd, snap, sizeof snap);

            if (active && r.s_rxd_ready) {
                // consumed: everything it had to do is done and answered
                bool complete = all_writes_done() && all_reads_done() && out_after == 0 && !req &&
                                ex.want_refused == ex.refused_seen && ex.want_stray == ex.stray_seen &&
                                ex.want_done == ex.done_seen && ex.want_free == ex.free_seen &&
                                ex.want_cpl == ex.cpl_done && ex.want_txd == ex.txd_done &&
                                ex.want_hrd == ex.hrd_done && req_complete() &&
                                ex.want_aread == ex.aread_done && ex.want_awrite == ex.awrite_done &&
                                ex.want_atomic_ev == ex.atomic_ev_seen;
                TB_CHECK(complete, "cycle %llu, %s: consumed before its execution was complete "
                         "(writes %u reads %u outstanding %llu refused %u/%u stray %u/%u done %u/%u free %u/%u "
                         "cpl %u/%u txd %u/%u hrd %u/%u)", (unsigned long long)cyc, what, all_writes_done(),
                         all_reads_done(), (unsigned long long)out_after, ex.want_refused, ex.refused_seen,
                         ex.want_stray, ex.stray_seen, ex.want_done, ex.done_seen, ex.want_free, ex.free_seen,
                         ex.want_cpl, ex.cpl_done, ex.want_txd, ex.txd_done, ex.want_hrd, ex.hrd_done);
                if (ex.free_seen) ft[q.front().tag & 15].valid = false;
                if (first_take == ~0ull) first_take = since_rst;
                q.pop_front();
                showing = false;
                done_descs++;
            }
            if (ex.want_cpl && !ex.cpl_done && all_writes_done() && out_after) cpl_wait++;
            if (ex.want_qtail && !ex.qtail_done && all_writes_done() && out_after) tail_wait++;
            if (ex.want_awrite && ex.aread_done && !ex.awrite_done && out_after) awrite_wait++;
            // the table takes the engine's updates at the clock edge
            if (r.q_upd_tail_valid) qt[r.q_upd_idx & 15].tail = r.q_upd_tail;
            if (r.q_upd_full_valid) qt[r.q_upd_idx & 15].full = true;
            if (r.q_upd_head_valid) {
                qt[r.q_upd_idx & 15].hv = true;
                qt[r.q_upd_idx & 15].hc = r.q_upd_head;
            }
            if (req) outstanding++;
            mem.request(cyc, r.m_mem_req_valid, r.m_mem_req_write, r.m_mem_req_addr, r.m_mem_req_wdata,
                        r.m_mem_req_wstrb, rng);
            pay_edge();
        } else {
            pay_clear();   // the buffer's holds go with the reset
        }
        pay_reg = pay_next;
        r.clk = 1;
        r.eval();
        cyc++;
        since_rst = rst ? 0 : since_rst + 1;
    }

    void run(uint64_t limit = 500000)
    {
        uint64_t end = cyc + limit;
        while (!q.empty() && cyc < end) tick();
        TB_CHECK(q.empty(), "%zu descriptors not consumed (stuck on: %s)", q.size(), ex.what);
        for (int i = 0; i < 30; i++) tick();
        TB_CHECK(outstanding == 0, "%llu memory requests unanswered at the end", (unsigned long long)outstanding);
        // every hold released once its time comes: no slot is left held
        for (uint64_t e = cyc + rel_max + 100; !rels.empty() && cyc < e;) tick();
        tick();
        TB_CHECK(rels.empty() && m->st_busy == 0, "response buffer busy %08x after every response was taken "
                 "(%zu releases to go)", m->st_busy, rels.size());
    }

    void check_mem(const char *what)
    {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < MEM_BYTES; i++)
            if (mem.mem[i] != ref[i] && bad++ == 0) first = i;
        TB_CHECK(bad == 0, "%s: %zu bytes differ, first at %zx (%02x, want %02x)", what, bad, first, mem.mem[first],
                 ref[first]);
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) {
            mem.q.clear();
            tick(true);
        }
        mem.q.clear();
        outstanding = 0;
        if (showing) q.pop_front();   // the descriptor cut off by the reset
        showing = false;
        prev_txd_stalled = false;
        ex = Exec();
        ref = mem.mem;                 // whatever it had written stays
        for (uint16_t &b : blocked) b = 0;   // no source is blocked anywhere after a reset
        std::memset(wst, 0, sizeof wst);    // nor a refusal kept
        first_take = ~0ull;
        n_resets++;
    }

    // ---------------------------------------------------------------- generators
    uint64_t random_mask()
    {
        switch (rng.below(5)) {
        case 0: return ~0ull;
        case 1: return 0;
        case 2: { unsigned w0 = rng.below(8), n = 1 + rng.below(8 - w0);   // whole words
                  return tg_frame_mask(8 * w0, 8 * n); }
        case 3: { unsigned lo = rng.below(64), n = 1 + rng.below(64 - lo);
                  return (n == 64 ? ~0ull : ((1ull << n) - 1)) << lo; }
        default: return tb_random_run(rng);   // (the wire carries one run of bytes)
        }
    }
    Rxd base_rxd(uint8_t op, uint8_t len)
    {
        Rxd d;
        d.op = op;
        d.flags = (uint8_t)rng.next();   // means nothing but to a REQ
        d.len = len;
        d.status = TG_ST_OK;
        d.ctx = (uint8_t)rng.next();
        d.src = (uint16_t)rng.next();
        d.tag = (uint16_t)rng.next();
        d.mask = random_mask();
        d.addr = 0;
        for (auto &b : d.payload) b = (uint8_t)rng.next();
        return d;
    }
    uint32_t in_range_addr(unsigned len)
    {
        if (mem_size < len + 8u) return 0;
        uint32_t a = 8 * rng.below((mem_size - len) / 8 + 1);
        if (rng.chance(10)) a = (uint32_t)((mem_size - len) & ~7u);   // right at the end
        return a;
    }

    void write_ok()
    {
        Rxd d = base_rxd(TG_OP_WRITE, (uint8_t)(8 * rng.below(9)));
        d.addr = in_range_addr(d.len);
        if ((uint64_t)d.addr + d.len > mem_size) return;
        q.push_back(d);
    }
    void write_refused()
    {
        Rxd d = base_rxd(TG_OP_WRITE, (uint8_t)(8 * (1 + rng.below(8))));
        switch (rng.below(5)) {
        case 0: d.addr = (mem_size & ~7u) - d.len + 8; break;                  // one word past the end
        case 1: d.addr = (mem_size & ~7u) + 8 * rng.below(64); break;          // at or past the end
        case 2: d.addr = in_range_addr(d.len) | (1 + rng.below(7)); break;   // misaligned
        case 3: d.addr = 0xFFFFFFF8u; break;                                   // wraps past 2^32
        default: d.addr = (uint32_t)rng.next() & ~7u; if ((uint64_t)d.addr + d.len <= mem_size) d.addr = 0x80000000u; break;
        }
        q.push_back(d);
    }
    void read_req()
    {
        Rxd d = base_rxd(TG_OP_READ_REQ, (uint8_t)(8 * rng.below(9)));
        unsigned k = rng.below(10);
        if (k < 6) d.addr = in_range_addr(d.len);
        else if (k == 6) { d.len = 0; d.addr = (uint32_t)rng.next() & ~7u; }  // a fence
        else if (k == 7) { d.addr = in_range_addr(d.len) | (1 + rng.below(7)); }
        else if (k == 8) { d.len = (uint8_t)(8 * (1 + rng.below(8))); d.addr = (mem_size & ~7u) - d.len + 8; }
        else { d.len = (uint8_t)(8 * (1 + rng.below(8))); d.addr = 0x80000000u | in_range_addr(d.len); }
        q.push_back(d);
    }
    void host_resp()
    {
        Rxd d = base_rxd(rng.below(2) ? TG_OP_READ_RESP : TG_OP_ATOMIC_RESP, rng.below(2) ? 8 : 0);
        d.tag &= (uint16_t)~TG_TAG_FETCH;
        d.status = rng.chance(20) ? (uint8_t)(1 + rng.below(8)) : TG_ST_OK;
        d.addr = (uint32_t)rng.next();
        q.push_back(d);
    }
    // An atomic on one of a few hot words (mostly), with a CAS compare that
    // matches half the time; `bad` gives a bad length, alignment or range.
    void atomic_op(bool bad)
    {
        static const uint8_t OPS[] = {TG_OP_FAA, TG_OP_SWAP, TG_OP_CAS};
        Rxd d = base_rxd(OPS[rng.below(3)], TG_ATOMIC_LEN);
        d.mask = 0xFF;
        d.addr = rng.chance(70) ? 0x100 + 8 * rng.below(4) : in_range_addr(8);
        if ((uint64_t)d.addr + 8 > mem_size) return;
        if (rng.chance(30)) {   // small operands: counters
            uint64_t v = rng.below(5);
            for (unsigned b = 0; b < 8; b++) d.payload[b] = (uint8_t)(v >> (8 * b));
        }
        if (d.op == TG_OP_CAS && rng.chance(50)) {
            uint64_t cur = ref64(d.addr);
            for (unsigned b = 0; b < 8; b++) d.payload[8 + b] = (uint8_t)(cur >> (8 * b));
        }
        if (bad) {
            switch (rng.below(5)) {
            case 0: do d.len = (uint8_t)(8 * rng.below(9)); while (d.len == TG_ATOMIC_LEN); break;
            case 1: d.addr |= 1 + rng.below(7); break;
            case 2: d.addr = (mem_size & ~7u) - 8 + 8 * (1 + rng.below(4)); break;   // past the end
            case 3: d.addr = 0x80000000u; break;
            default: d.addr = 0xFFFFFFF8u; break;
            }
        }
        q.push_back(d);
    }

    // A fetch entry and its response; `kind` 0 good, 1 error status, 2 no
    // entry, 3 wrong source node.
    void fetch_resp(unsigned kind)
    {
        unsigned idx = rng.below(16);
        FtEntry &e = ft[idx];
        bool atomic = rng.chance(30);   // an atomic's old value: one word
        Rxd d = base_rxd(atomic ? TG_OP_ATOMIC_RESP : TG_OP_READ_RESP, (uint8_t)(atomic ? 8 : 8 * rng.below(9)));
        d.tag = (uint16_t)(TG_TAG_FETCH | (rng.next() & 0x7FF0) | idx);
        if (kind == 2) {
            e.valid = false;
        } else {
            unsigned lo = atomic ? 0 : rng.below(8), len = atomic ? 8 : 1 + rng.below(TG_MAX_PAYLOAD - lo);
            e.valid = true;
            e.node = (uint16_t)rng.next();
            e.laddr = 0x8000 + 64 * rng.below(0x100);
            e.cpl = 0xC000 + 8 * rng.below(0x800);
            e.mask = (len == 64 ? ~0ull : ((1ull << len) - 1)) << lo;
            d.src = e.node;
            if (kind == 3) d.src ^= (uint16_t)(1u << rng.below(16));
            if (kind == 1) d.status = (uint8_t)(1 + rng.below(8));
            if (rng.chance(50)) d.mask = ~0ull;   // what the responder echoes for a plain fetch
            if (d.status != TG_ST_OK && rng.chance(50)) d.len = 0;
            // the completion word starts cleared
            for (unsigned b = 0; b < 8; b++) ref[e.cpl + b] = mem.mem[e.cpl + b] = 0;
        }
        q.push_back(d);
    }
};

// ---------------------------------------------------------------- remote enqueue
static const uint16_t REQ_SRCS[] = {0x03, 0x07, 0x20, 0xFE};
static const uint32_t Q_AREA = 0x4000;        // queue buffers live in [Q_AREA, 2 * Q_AREA)
static const uint32_t Q_BAD_AREA = 0x7000;    // bases of badly configured entries

struct ReqGen {
    Tb &tb;
    std::vector<uint32_t> good;      // bases of usable queues
    std::vector<uint32_t> bad;       // bases whose entry is badly configured
    std::vector<uint32_t> none;      // bases of disabled entries only

    explicit ReqGen(Tb &t) : tb(t) {}

    void put64(uint32_t a, uint64_t v)
    {
        for (unsigned b = 0; b < 8; b++) tb.mem.mem[a + b] = tb.ref[a + b] = (uint8_t)(v >> (8 * b));
    }

    // A fresh table: six usable queues (two of them with a second, enabled
    // entry of the same base at a higher index, one shadowed by a disabled
    // entry at a lower index), six badly configured entries, a disabled one.
    void setup()
    {
        for (unsigned i = 0; i < 16; i++) {
            tb.qt[i] = QEntry();
            tb.qexp[i].clear();
        }
        good.clear();
        bad.clear();
        none.clear();
        unsigned perm[16];
        for (unsigned i = 0; i < 16; i++) perm[i] = i;
        for (unsigned i = 15; i > 0; i--) std::swap(perm[i], perm[tb.rng.below(i + 1)]);
        unsigned n = 0;
        for (unsigned k = 0; k < 6; k++) {
            QEntry e;
            e.en = true;
            e.base = Q_AREA + 0x800 * k;
            e.size_log2 = TG_Q_MIN_LOG2 + tb.rng.below(4);
            e.esize_log2 = 3 + tb.rng.below(4);
            if (k == 0) { e.size_log2 = 8; e.esize_log2 = 6; }   // room for one entry
            if (k == 1) { e.size_log2 = 8; e.esize_log2 = 3; }   // fifteen, wraps often
            if (k == 5) e.size_log2 = 11;                        // room for at least 29
            e.tail = TG_Q_SLOTS;
            tb.qt[perm[n++]] = e;
            put64(e.base | (uint32_t)TG_Q_HEAD, TG_Q_SLOTS);
            put64(e.base | (uint32_t)TG_Q_TAIL, TG_Q_SLOTS);
            if (k == 2 || k == 3) {
                // the same base again, enabled, another shape: never used
                // while the first one (lower index) is enabled
                QEntry d = e;
                d.esize_log2 = e.esize_log2 == 3 ? 4 : 3;
                d.tail = TG_Q_SLOTS + 64;
                unsigned a = perm[n++];
                unsigned lo = std::min(a, perm[n - 2]), hi = std::max(a, perm[n - 2]);
                tb.qt[hi] = d;
                tb.qt[lo] = e;
            }
            if (k == 4) {
                // a disabled entry of the same base, at a lower index
                unsigned a = perm[n++], b = perm[n - 2];
                QEntry d = e;
                d.en = false;
                d.size_log2 = 5;
                tb.qt[std::max(a, b)] = e;
                tb.qt[std::min(a, b)] = d;
            }
            good.push_back(e.base);
        }
        for (unsigned k = 0; k < 6; k++) {
            QEntry e;
            e.en = true;
            e.base = Q_BAD_AREA + 0x100 * k;
            e.size_log2 = 8;
            e.esize_log2 = 4;
            e.tail = TG_Q_SLOTS;
            switch (k) {
            case 0: e.size_log2 = tb.rng.below(2) ? TG_Q_MIN_LOG2 - 1 - tb.rng.below(TG_Q_MIN_LOG2)
                                                  : TG_Q_MAX_LOG2 + 1 + tb.rng.below(31 - TG_Q_MAX_LOG2); break;
            case 1: e.esize_log2 = tb.rng.below(2) ? tb.rng.below(3) : 7; break;
            case 2: e.tail = 8 * tb.rng.below(TG_Q_SLOTS / 8); break;               // inside the header
            case 3: e.tail = 256; break;                                            // entry past the end
            case 4: e.tail = TG_Q_SLOTS + 8; break;                                 // not a whole slot
            default: e.size_log2 = 9 + tb.rng.below(3); break;                       // base not aligned
            }
            tb.qt[perm[n++]] = e;
            bad.push_back(e.base);
        }
        QEntry d;
        d.base = Q_BAD_AREA + 0x800;
        d.size_log2 = 8;
        d.esize_log2 = 3;
        d.tail = TG_Q_SLOTS;
        tb.qt[perm[n++]] = d;   // disabled: its base is no queue
        none.push_back(d.base);
        for (uint32_t b : good) TB_CHECK(tb.lookup(b) >= 0, "bench: queue %08x not in the table", b);
    }

    uint32_t no_queue_addr()
    {
        switch (tb.rng.below(3)) {
        case 0: return none[tb.rng.below((unsigned)none.size())];
        case 1: return good[tb.rng.below((unsigned)good.size())] + 8 * (1 + tb.rng.below(31));
        default: {
            uint32_t a;
            do a = 8 * tb.rng.below(MEM_BYTES / 8); while (tb.lookup(a) >= 0);
            return a;
        }
        }
    }

    void req_to(uint16_t src, uint32_t addr, uint8_t len, uint8_t flags, int want = -1)
    {
        Rxd d = tb.base_rxd(TG_OP_REQ, len);
        d.src = src;
        d.addr = addr;
        d.flags = flags;
        d.want_st = want;
        tb.q.push_back(d);
    }

    // A REQ from one of a few sources: mostly to a usable queue, some to a
    // badly configured entry or to no queue, some of a bad length.
    void random_req()
    {
        uint16_t src = REQ_SRCS[tb.rng.below(4)];
        uint8_t flags = (uint8_t)((tb.rng.chance(15) ? TG_FLAG_RETRY : 0) |
                                  (tb.rng.chance(30) ? (tb.rng.next() & 0xFE) : 0));
        unsigned k = tb.rng.below(100);
        if (k < 78) {
            uint32_t base = good[tb.rng.below((unsigned)good.size())];
            unsigned words = 1u << (tb.qt[tb.lookup(base)].esize_log2 - 3);
            unsigned j = tb.rng.below(25);
            unsigned w = j == 0 ? 0 : (j == 1 && words < 8) ? words + 1 + tb.rng.below(8 - words)
                                                           : 1 + tb.rng.below(words);
            req_to(src, base, (uint8_t)(8 * w), flags);
        } else if (k < 88) {
            req_to(src, bad[tb.rng.below((unsigned)bad.size())], (uint8_t)(8 * tb.rng.below(9)), flags);
        } else {
            req_to(src, no_queue_addr(), (uint8_t)(8 * tb.rng.below(9)), flags);
        }
    }

    // An answer to one of this node's REQs: passed on, nothing else done.
    void qresp()
    {
        Rxd d = tb.base_rxd(TG_OP_REQ_RESP, 0);
        d.tag = (uint16_t)(TG_TAG_REQ | (tb.rng.next() & 0x3FFF));
        d.status = tb.rng.chance(50) ? TG_ST_OK : (uint8_t)tb.rng.next();
        tb.q.push_back(d);
    }

    // A remote write below the queue area.
    void write_low()
    {
        Rxd d = tb.base_rxd(TG_OP_WRITE, (uint8_t)(8 * tb.rng.below(9)));
        uint32_t top = std::min<uint32_t>(Q_AREA, tb.mem_size);
        if (top < d.len + 8u) return;
        d.addr = 8 * tb.rng.below((top - d.len) / 8 + 1);
        tb.q.push_back(d);
    }

    // The host consumes up to `max_n` entries of the queue at `base` (idle
    // engine only): each must be what the REQs carried, in order.
    void consume(uint32_t base, unsigned max_n)
    {
        int idx = tb.lookup(base);
        if (idx < 0) return;
        QEntry &e = tb.qt[idx];
        uint32_t size = 1u << e.size_log2, esz = 1u << e.esize_log2;
        uint64_t head = tb.mem.load64(base | (uint32_t)TG_Q_HEAD), tail = tb.mem.load64(base | (uint32_t)TG_Q_TAIL);
        TB_CHECK(tail == e.tail, "queue %08x: tail %llx in memory, %x in the table", base, (unsigned long long)tail,
                 e.tail);
        for (unsigned n = 0; n < max_n && head != tail; n++) {
            TB_CHECK(!tb.qexp[idx].empty(), "queue %08x: entry at %llx was never sent", base, (unsigned long long)head);
            if (tb.qexp[idx].empty()) break;
            const std::vector<uint64_t> &want = tb.qexp[idx].front();
            for (unsigned w = 0; w < esz / 8; w++) {
                uint64_t got = tb.mem.load64(base + (uint32_t)head + 8 * w);
                TB_CHECK(got == want[w], "queue %08x entry at %llx word %u = %016llx, want %016llx", base,
                         (unsigned long long)head, w, (unsigned long long)got, (unsigned long long)want[w]);
            }
            tb.qexp[idx].pop_front();
            tb.n_consumed++;
            head += esz;
            if (head >= size) head = TG_Q_SLOTS;
        }
        put64(base | (uint32_t)TG_Q_HEAD, head);
    }
    // The driver empties a queue marked full and opens it again.
    void reopen(uint32_t base)
    {
        int idx = tb.lookup(base);
        if (idx < 0 || !tb.qt[idx].full) return;
        consume(base, ~0u);
        tb.qt[idx].full = false;
        tb.qt[idx].hv = false;   // the driver's table writes forget the head
    }
    void consume_all()
    {
        for (uint32_t b : good) {
            consume(b, ~0u);
            TB_CHECK(tb.qexp[tb.lookup(b)].empty(), "queue %08x: %zu entries sent never arrived", b,
                     tb.qexp[tb.lookup(b)].size());
        }
    }
};

// Random REQs from a few sources, answers to this node's REQs, writes and
// reads, with a host consuming entries and reopening full queues between.
static void req_phase(Tb &tb, unsigned n)
{
    ReqGen g(tb);
    tb.run();
    g.setup();
    for (unsigned i = 0; i < n; i++) {
        unsigned k = tb.rng.below(20);
        if (k < 12) g.random_req();
        else if (k < 14) g.qresp();
        else if (k < 15) g.write_low();
        else if (k < 16) tb.read_req();
        else if (k < 17) {
            tb.run();
            for (uint32_t b : g.good) {
                if (tb.rng.chance(40)) g.consume(b, tb.rng.below(6));
                // the table forgets the head (the driver wrote the entry),
                // or has just read the current one
                QEntry &qe = tb.qt[tb.lookup(b)];
                if (tb.rng.chance(10)) qe.hv = false;
                else if (tb.rng.chance(10)) {
                    qe.hv = true;
                    qe.hc = (uint32_t)tb.mem.load64(b | (uint32_t)TG_Q_HEAD);
                }
                if (tb.rng.chance(50)) g.reopen(b);
            }
        }
    }
    tb.run();
    g.consume_all();
    tb.check_mem("after remote enqueues");
}

// The block, step by step: a refusal blocks its source at that queue-table
// entry only; the source still reaches its other queues and other sources
// still reach that one; only the source's retry to that entry opens it
// again (not a retry to another queue, to no queue, nor another source's);
// a retry refused by a full queue leaves it blocked; the block comes before
// a bad configuration, a MALFORMED refusal sets none.  A probe (a REQ of no
// length, not a retry) shows a block without changing anything: NOT_READY
// if its source is blocked at the queue (or the queue is marked full), else
// MALFORMED.
static void block_phase(Tb &tb)
{
    ReqGen g(tb);
    tb.run();
    g.setup();
    tb.directed = true;
    const uint16_t S = REQ_SRCS[0], T = REQ_SRCS[1], U = REQ_SRCS[2];
    // A holds one entry, B at least 29, C fifteen; X is badly configured
    const uint32_t A = g.good[0], B = g.good[5], C = g.good[1], X = g.bad[tb.rng.below(6)];
    const uint8_t R = TG_FLAG_RETRY;
    const int OK = TG_ST_OK, NR = TG_ST_NOT_READY, NQ = TG_ST_NO_QUEUE, MF = TG_ST_MALFORMED;
    {
        int a = tb.lookup(A), b = tb.lookup(B), c = tb.lookup(C), x = tb.lookup(X);
        TB_CHECK(a != b && a != c && a != x && b != c && b != x && c != x && a >= 0 && b >= 0 && c >= 0 && x >= 0,
                 "bench: block sequence entries %d %d %d %d", a, b, c, x);
    }
    auto blocked_at = [&](uint16_t s, uint32_t q) { g.req_to(s, q, 0, 0, NR); };
    auto open_at = [&](uint16_t s, uint32_t q) { g.req_to(s, q, 0, 0, MF); };
    // the table's full mark, raised or cleared between frames
    auto mark = [&](uint32_t q, bool full) {
        tb.run();
        tb.qt[tb.lookup(q)].full = full;
    };

    // open S, T and U at each of these queues, whatever came before (a
    // retry refused as MALFORMED stays open)
    for (uint16_t s : {S, T, U})
        for (uint32_t q : {A, B, C, X}) g.req_to(s, q, 0, R, MF);
    for (uint16_t s : {S, T, U})
        for (uint32_t q : {A, B, C, X}) open_at(s, q);

    // a refusal blocks its source at that queue only
    g.req_to(S, A, 8, 0, OK);       // the one entry A holds
    g.req_to(S, A, 16, 0, NR);      // no room: A marked full, S blocked at A
    g.req_to(S, B, 8, 0, OK);       // S still reaches B ...
    open_at(S, C);                  // ... and C
    g.req_to(T, A, 8, 0, NR);       // A marked full: T blocked at A as well
    g.req_to(T, C, 8, 0, OK);
    tb.run();
    g.reopen(A);                    // A has room again and is not marked
    g.req_to(S, A, 8, 0, NR);       // S still blocked at A, though it has room
    g.req_to(T, A, 8, 0, NR);       // and T
    g.req_to(U, A, 8, 0, OK);       // U never was: it takes A's one entry
    g.req_to(U, A, 8, 0, NR);       // no room: A marked, U blocked at A
    open_at(U, B);
    tb.run();
    g.reopen(A);

    // only the source's own retry to the queue opens it
    g.req_to(S, g.none[0], 8, R, NQ);   // a retry to no queue opens nothing
    blocked_at(S, A);
    g.req_to(S, B, 8, R, OK);       // nor a retry to B
    blocked_at(S, A);
    g.req_to(S, X, 8, R, MF);       // nor one to a badly configured queue
    blocked_at(S, A);
    g.req_to(T, A, 8, R, OK);       // T's retry opens T at A, not S nor U
    blocked_at(S, A);
    blocked_at(U, A);
    open_at(T, A);
    g.req_to(T, A, 8, 0, NR);       // found full: T blocked again, A marked
    tb.run();
    g.reopen(A);
    blocked_at(T, A);
    g.req_to(S, A, 8, R, OK);       // S's retry opens S at A
    open_at(S, A);
    blocked_at(U, A);
    g.req_to(U, A, 8, R, NR);       // U's retry opens U, but no room: blocked again, A marked
    g.req_to(S, A, 8, R, NR);       // a retry refused by the full mark blocks again too
    tb.run();
    g.reopen(A);
    blocked_at(S, A);
    blocked_at(U, A);
    blocked_at(T, A);
    g.req_to(U, A, 8, R, OK);
    g.req_to(S, A, 8, R, NR);       // found full: still blocked
    tb.run();
    g.reopen(A);

    // one source blocked at several queues: each retry opens its own
    mark(B, true);
    mark(C, true);
    g.req_to(S, B, 8, 0, NR);
    g.req_to(S, C, 64, 0, NR);      // the full mark comes before a bad length
    g.req_to(T, C, 8, 0, NR);
    mark(B, false);
    mark(C, false);
    blocked_at(S, B);
    blocked_at(S, C);
    blocked_at(S, A);
    blocked_at(T, C);
    open_at(T, B);
    open_at(U, B);
    open_at(U, C);
    g.req_to(U, C, 8, 0, OK);       // others reach the queues S is blocked at
    g.req_to(T, B, 8, 0, OK);
    g.req_to(S, C, 8, R, OK);       // opens S at C only
    blocked_at(S, B);
    blocked_at(S, A);
    blocked_at(T, C);
    g.req_to(S, C, 8, 0, OK);
    g.req_to(S, B, 8, R, OK);       // opens S at B
    g.req_to(S, B, 8, 0, OK);
    blocked_at(S, A);
    g.req_to(S, A, 0, R, MF);       // opens S at A; the empty entry is refused
    open_at(S, A);
    g.req_to(S, A, 8, 0, OK);
    g.req_to(T, C, 8, R, OK);
    tb.run();
    g.reopen(A);

    // the block (and the full mark) before a bad configuration; MALFORMED
    // sets no block
    mark(X, true);
    g.req_to(S, X, 8, 0, NR);
    mark(X, false);
    g.req_to(S, X, 8, 0, NR);       // S blocked at X
    g.req_to(T, X, 8, 0, MF);       // T is not
    g.req_to(S, B, 8, 0, OK);
    g.req_to(S, X, 8, R, MF);       // the retry opens S; the configuration refuses it
    g.req_to(S, X, 8, 0, MF);
    g.req_to(S, B, 0, 0, MF);       // an empty entry: refused, no block
    g.req_to(S, B, 8, 0, OK);
    g.req_to(S, C, 16, 0, MF);      // longer than C's entries: refused, no block
    g.req_to(S, C, 8, 0, OK);
    g.req_to(S, B, 8, 0, OK);
    tb.run();
    tb.directed = false;
    g.consume_all();
    tb.check_mem("after the block sequence");
}

// Blocks set before a reset are gone after it: every source (all 256 rows
// of the block table) blocked at a queue and some at a second one; a reset,
// again in the middle of the sweep that clears the table, during which the
// engine takes nothing for exactly 256 cycles, then the first frame at once;
// then every source reaches both queues.
static void block_reset_phase(Tb &tb)
{
    ReqGen g(tb);
    tb.run();
    g.setup();
    tb.directed = true;
    const uint32_t P = g.good[tb.rng.below(6)], Q = g.bad[tb.rng.below(6)];
    const int NR = TG_ST_NOT_READY, MF = TG_ST_MALFORMED;
    bool both[256];
    // open every source at both, whatever came before
    for (unsigned s = 0; s < 256; s++) {
        g.req_to((uint16_t)s, P, 0, TG_FLAG_RETRY, MF);
        g.req_to((uint16_t)s, Q, 0, TG_FLAG_RETRY, MF);
    }
    tb.run();
    tb.qt[tb.lookup(P)].full = true;
    tb.qt[tb.lookup(Q)].full = true;
    for (unsigned s = 0; s < 256; s++) {
        g.req_to((uint16_t)s, P, 8, (uint8_t)(tb.rng.next() & 0xFE), NR);
        both[s] = tb.rng.chance(50);
        if (both[s]) g.req_to((uint16_t)s, Q, 8, tb.rng.chance(50) ? TG_FLAG_RETRY : 0, NR);
    }
    tb.run();
    tb.qt[tb.lookup(P)].full = false;
    tb.qt[tb.lookup(Q)].full = false;
    for (unsigned s = 0; s < 256; s++) {
        g.req_to((uint16_t)s, P, 0, 0, NR);
        g.req_to((uint16_t)s, Q, 0, 0, both[s] ? NR : MF);
    }
    tb.run();
    // the reset cuts into more probes (they change nothing in memory)
    for (unsigned i = 0; i < 20; i++) g.req_to((uint16_t)tb.rng.below(256), P, 0, 0, NR);
    for (unsigned i = 0, n = tb.rng.below(100); i < n; i++) tb.tick();
    tb.reset();
    tb.q.clear();
    for (unsigned i = 0, n = 1 + tb.rng.below(Tb::SWEEP - 1); i < n; i++) tb.tick();   // in the sweep
    tb.reset();
    // the first frame, shown from the first cycle, is taken right after the sweep
    const unsigned gap = tb.gap_pct;
    tb.gap_pct = 0;
    g.qresp();
    tb.run();
    tb.gap_pct = gap;
    TB_CHECK(tb.first_take == Tb::SWEEP, "the first frame after a reset was taken %llu cycles after it, want %u",
             (unsigned long long)tb.first_take, Tb::SWEEP);
    for (unsigned s = 0; s < 256; s++) {
        g.req_to((uint16_t)s, P, 0, 0, MF);
        g.req_to((uint16_t)s, Q, 8, 0, MF);
    }
    g.req_to(REQ_SRCS[tb.rng.below(4)], P, 8, 0, TG_ST_OK);
    tb.run();
    tb.directed = false;
    g.consume_all();
    tb.check_mem("after blocks and a reset");
}

static void writes_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (tb.rng.chance(80)) tb.write_ok();
        else tb.write_refused();
    }
    tb.run();
    tb.check_mem("after writes");
}

static void reads_phase(Tb &tb, unsigned n)
{
    // fill memory with something to read first
    for (unsigned i = 0; i < 40; i++) tb.write_ok();
    for (unsigned i = 0; i < n; i++) tb.read_req();
    tb.run();
    tb.check_mem("after read requests");
}

static void responses_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned k = tb.rng.below(10);
        if (k < 2) tb.host_resp();
        else if (k < 6) tb.fetch_resp(0);        // good
        else tb.fetch_resp(k - 6);               // good, error status, no entry, wrong node
        // one descriptor at a time: the table entry of the next may reuse an index
        tb.run();
    }
    tb.check_mem("after read responses");
}

// Atomics alone, then among writes and reads of the same words: each one's
// old value and the memory after it follow from executing them in order.
static void atomics_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) tb.atomic_op(tb.rng.chance(15));
    tb.run();
    tb.check_mem("after atomics");
    for (unsigned i = 0; i < n; i++) {
        switch (tb.rng.below(6)) {
        case 0: {
            Rxd d = tb.base_rxd(TG_OP_WRITE, 8);
            d.addr = 0x100 + 8 * tb.rng.below(4);
            tb.q.push_back(d);
            break;
        }
        case 1: tb.read_req(); break;
        default: tb.atomic_op(tb.rng.chance(5)); break;
        }
    }
    tb.run();
    tb.check_mem("after atomics among writes and reads");
}

static void mixed_phase(Tb &tb, unsigned n);

// Protection on: a region table of whole-memory, small, odd-sized and
// 4 GiB regions with random rights, some invalid; every frame carries a
// key (a region's, one bit off, or random).  Refused frames touch nothing
// and answer with the reason; refused writes are reported by the next
// fence of their source and context.
static void prot_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < TG_REGIONS; i++) {
        Tb::Region &g = tb.rt[i];
        g.valid = tb.rng.below(5) != 0;
        g.key = (tb.rng.next() & ~(uint64_t)(TG_REGIONS - 1)) | i;
        uint32_t ms = tb.mem_size ? tb.mem_size : 8;
        switch (tb.rng.below(4)) {
        case 0: g.base = 0; g.end = tb.mem_size; break;
        case 1: g.base = 8 * tb.rng.below(ms / 8); g.end = g.base + 8 * (1 + tb.rng.below(16)); break;
        case 2: g.base = tb.rng.below(ms); g.end = g.base + tb.rng.below(ms); break;
        default: g.base = 0; g.end = 1ull << 32; break;
        }
        g.rights = tb.rng.below(2) ? 0xF : tb.rng.below(16);
    }
    tb.prot_on = true;
    // at the edges of the regions: the first and last bytes, one word
    // before and past them, bursts that cross the end
    for (unsigned k = 0; k < n; k++) {
        unsigned i = tb.rng.below(TG_REGIONS);
        const Tb::Region &g = tb.rt[i];
        unsigned kind = tb.rng.below(4);
        uint8_t op = kind == 0 ? TG_OP_WRITE : kind == 1 ? TG_OP_READ_REQ
                   : kind == 2 ? (uint8_t)(tb.rng.below(2) ? TG_OP_FAA : TG_OP_CAS) : TG_OP_REQ;
        uint8_t len = kind >= 2 ? (kind == 2 ? TG_ATOMIC_LEN : 8) : (uint8_t)(8 * (1 + tb.rng.below(8)));
        Rxd d = tb.base_rxd(op, len);
        uint64_t span = kind == 2 ? 8 : kind == 3 ? 1 : len;
        int64_t at = tb.rng.below(2) ? (int64_t)g.end - (int64_t)span + 8 * ((int)tb.rng.below(3) - 1)
                                     : (int64_t)g.base + 8 * ((int)tb.rng.below(3) - 1);
        at &= ~(int64_t)7;
        if (at < 0 || at >= (int64_t)tb.mem_size) continue;
        d.addr = (uint32_t)at;
        d.key = g.key;
        d.key_set = true;
        tb.q.push_back(d);
    }
    tb.run();
    tb.check_mem("after accesses at region edges");
    mixed_phase(tb, n);
    atomics_phase(tb, n / 2);
    req_phase(tb, n);
    tb.prot_on = false;
    tb.run();
    tb.check_mem("after traffic with protection");
}

static void mixed_phase(Tb &tb, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        switch (tb.rng.below(8)) {
        case 0: case 1: case 2: tb.write_ok(); break;
        case 3: tb.write_refused(); break;
        case 4: case 5: tb.read_req(); break;
        case 6: tb.host_resp(); break;
        default: tb.run(); tb.fetch_resp(tb.rng.below(4)); tb.run(); break;
        }
    }
    tb.run();
    tb.check_mem("after mixed traffic");
}

int main(int argc, char **argv)
{
    // every register and RAM bit starts random (the block table too: the
    // sweep after reset must clear it), from a fixed seed
    Verilated::randReset(2);
    Verilated::randSeed(0x7E1E);
    Verilated::commandArgs(argc, argv);
    struct Cfg { unsigned mem_stall, lat_min, lat_max, txd_stall, gap; };
    const Cfg cfgs[] = {
        {0, 1, 1, 0, 0},
        {30, 1, 6, 50, 30},
        {70, 3, 30, 90, 0},
        {10, 10, 40, 20, 60},
        {50, 1, 3, 70, 80},
    };
    uint64_t seed = 1, cpl_wait = 0, cpls = 0, descs = 0, cycles = 0, writes = 0, reads = 0;
    uint64_t fence_reports = 0, held_refusals = 0, prot[16] = {};
    uint64_t dkinds[Tb::RK_NKINDS] = {}, resets = 0, sweep_cycles = 0, sweep_shown = 0, sweep_fto = 0;
    uint64_t kinds[Tb::RK_NKINDS] = {}, qresps = 0, tail_wait = 0, zero_words = 0, consumed = 0, wraps = 0;
    uint64_t head_skip = 0, head_forced = 0;
    uint64_t faa = 0, swaps = 0, cas_hit = 0, cas_miss = 0, a_refused = 0, awrite_wait = 0;
    uint64_t rsp_takes = 0, rsp_rels = 0, slot_wait = 0, slot_wait_full = 0;
    uint32_t slots_used = 0;
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed++ * 0x3C6EF372u);
            tb.mem.stall_pct = c.mem_stall;
            tb.mem.lat_min = c.lat_min;
            tb.mem.lat_max = c.lat_max;
            tb.txd_stall_pct = c.txd_stall;
            tb.gap_pct = c.gap;
            // how long the path downstream keeps a slot: long enough for
            // the buffer to fill (the traffic without stalls), down to a cycle
            static const unsigned REL_MAX[] = {1000, 8, 40, 0, 3};
            tb.rel_max = REL_MAX[&c - cfgs];
            for (auto &b : tb.mem.mem) b = (uint8_t)tb.rng.next();
            tb.ref = tb.mem.mem;
            tb.mem_size = rep ? MEM_BYTES : MEM_BYTES - 8 * (1 + tb.rng.below(64)) - tb.rng.below(8);
            tb.reset();

            writes_phase(tb, 600);
            reads_phase(tb, 400);
            responses_phase(tb, 400);
            mixed_phase(tb, 800);
            atomics_phase(tb, 400);
            req_phase(tb, 1500);
            block_phase(tb);
            block_reset_phase(tb);
            req_phase(tb, 300);
            prot_phase(tb, 400);

            // a smaller exported window, then none at all
            tb.mem_size = 0x2000 + tb.rng.below(0x1000);
            writes_phase(tb, 60);
            reads_phase(tb, 40);
            tb.mem_size = 0;
            writes_phase(tb, 20);
            reads_phase(tb, 20);
            // the largest window: ranges that end past 2^32 are refused,
            // not wrapped round to the bottom of memory
            tb.mem_size = 0xFFFFFFFFu;
            for (int i = 0; i < 40; i++) {
                Rxd d = tb.base_rxd(tb.rng.below(2) ? TG_OP_WRITE : TG_OP_READ_REQ, (uint8_t)(8 * (1 + tb.rng.below(8))));
                d.addr = (uint32_t)(0x100000000ull - 8 * (1 + tb.rng.below(d.len / 8)));
                tb.q.push_back(d);
            }
            tb.run();
            tb.check_mem("after ranges past 2^32");
            tb.mem_size = MEM_BYTES;

            // reset in the middle of execution, then traffic again
            for (int k = 0; k < 3; k++) {
                ReqGen g(tb);
                g.setup();
                for (int i = 0; i < 10; i++) {
                    tb.write_ok();
                    g.random_req();
                }
                tb.read_req();
                for (unsigned i = 0, n = 5 + tb.rng.below(60); i < n; i++) tb.tick();
                tb.reset();
                tb.q.clear();
                mixed_phase(tb, 40);
                req_phase(tb, 60);
            }
            cpl_wait += tb.cpl_wait;
            cpls += tb.n_cpl;
            descs += tb.done_descs;
            cycles += tb.cyc;
            writes += tb.n_writes;
            reads += tb.n_reads;
            for (unsigned k = 0; k < Tb::RK_NKINDS; k++) {
                kinds[k] += tb.req_kinds[k];
                dkinds[k] += tb.dir_kinds[k];
            }
            resets += tb.n_resets;
            fence_reports += tb.n_fence_reports;
            held_refusals += tb.n_held_refusals;
            for (unsigned k = 0; k < 16; k++) prot[k] += tb.n_prot[k];
            sweep_cycles += tb.n_sweep_cycles;
            sweep_shown += tb.n_sweep_shown;
            sweep_fto += tb.n_sweep_fto;
            qresps += tb.n_qresp;
            tail_wait += tb.tail_wait;
            head_skip += tb.n_head_skip;
            head_forced += tb.n_head_forced;
            zero_words += tb.n_zero_words;
            consumed += tb.n_consumed;
            wraps += tb.n_wraps;
            faa += tb.n_faa;
            swaps += tb.n_swap;
            cas_hit += tb.n_cas_hit;
            cas_miss += tb.n_cas_miss;
            a_refused += tb.n_atomic_refused;
            awrite_wait += tb.awrite_wait;
            rsp_takes += tb.n_takes;
            rsp_rels += tb.n_rels;
            slot_wait += tb.n_slot_wait;
            slot_wait_full += tb.n_slot_wait_full;
            slots_used |= tb.slots_used;
        }
    }
    std::printf("REQs (random traffic): %llu appended (%llu zero-filled words, %llu wrapped, %llu consumed), "
                "%llu no queue, %llu blocked, %llu to a full mark, %llu found full, %llu malformed; retries: %llu "
                "opened their queue, %llu from a source blocked at other queues, %llu to no queue from a blocked "
                "source; past the block check: %llu from a source blocked at other queues, %llu while another "
                "source was blocked at the queue; %llu answers passed on; the tail waited %llu cycles for entry "
                "writes\n",
                (unsigned long long)kinds[Tb::RK_OK], (unsigned long long)zero_words, (unsigned long long)wraps,
                (unsigned long long)consumed, (unsigned long long)kinds[Tb::RK_NO_QUEUE],
                (unsigned long long)kinds[Tb::RK_BLOCKED], (unsigned long long)kinds[Tb::RK_FULL_FLAG],
                (unsigned long long)kinds[Tb::RK_FULL_HEAD], (unsigned long long)kinds[Tb::RK_MALFORMED],
                (unsigned long long)kinds[Tb::RK_RETRY_OPEN], (unsigned long long)kinds[Tb::RK_RETRY_ELSEWHERE],
                (unsigned long long)kinds[Tb::RK_RETRY_NOQ], (unsigned long long)kinds[Tb::RK_PAST_OWN],
                (unsigned long long)kinds[Tb::RK_PAST_OTHER], (unsigned long long)qresps,
                (unsigned long long)tail_wait);
    std::printf("REQs (directed block sequences): %llu appended, %llu no queue, %llu blocked, %llu to a full mark, "
                "%llu found full, %llu malformed, %llu retries opening, %llu retries elsewhere, %llu retries to no "
                "queue, %llu past a block elsewhere, %llu past another source's block\n",
                (unsigned long long)dkinds[Tb::RK_OK], (unsigned long long)dkinds[Tb::RK_NO_QUEUE],
                (unsigned long long)dkinds[Tb::RK_BLOCKED], (unsigned long long)dkinds[Tb::RK_FULL_FLAG],
                (unsigned long long)dkinds[Tb::RK_FULL_HEAD], (unsigned long long)dkinds[Tb::RK_MALFORMED],
                (unsigned long long)dkinds[Tb::RK_RETRY_OPEN], (unsigned long long)dkinds[Tb::RK_RETRY_ELSEWHERE],
                (unsigned long long)dkinds[Tb::RK_RETRY_NOQ], (unsigned long long)dkinds[Tb::RK_PAST_OWN],
                (unsigned long long)dkinds[Tb::RK_PAST_OTHER]);
    static const char *const KIND[] = {"appended", "no queue", "blocked", "full mark", "found full", "malformed",
                                       "retry opening its queue", "past a block at another queue",
                                       "past another source's block", "retry from a source blocked elsewhere",
                                       "retry to no queue from a blocked source"};
    static const unsigned KIND_MIN[] = {2000, 500, 700, 150, 150, 500, 130, 1500, 300, 400, 60};
    static_assert(sizeof KIND / sizeof KIND[0] == Tb::RK_NKINDS && sizeof KIND_MIN / sizeof KIND_MIN[0] == Tb::RK_NKINDS,
                  "one name and one threshold per kind");
    for (unsigned k = 0; k < Tb::RK_NKINDS; k++)
        TB_CHECK(kinds[k] > KIND_MIN[k], "only %llu REQs %s in random traffic (want more than %u)",
                 (unsigned long long)kinds[k], KIND[k], KIND_MIN[k]);
    std::printf("%llu resets: %llu cycles of block-table sweep, %llu of them with a frame waiting, %llu with an "
                "overdue fetch offered\n", (unsigned long long)resets, (unsigned long long)sweep_cycles,
                (unsigned long long)sweep_shown, (unsigned long long)sweep_fto);
    TB_CHECK(resets >= 50 && sweep_shown > 5000 && sweep_fto > 5000,
             "sweep coverage: %llu resets, %llu cycles, %llu with a frame, %llu with an overdue fetch",
             (unsigned long long)resets, (unsigned long long)sweep_cycles, (unsigned long long)sweep_shown,
             (unsigned long long)sweep_fto);
    std::printf("remembered head: %llu REQs skipped the head read, %llu read it though a head was remembered\n",
                (unsigned long long)head_skip, (unsigned long long)head_forced);
    TB_CHECK(head_skip > 1000 && head_forced > 200, "remembered head: %llu skips, %llu forced reads",
             (unsigned long long)head_skip, (unsigned long long)head_forced);
    TB_CHECK(zero_words > 1000 && wraps > 100 && consumed > 1000 && qresps > 1000 && tail_wait > 100,
             "REQ coverage: %llu zero-filled words, %llu wraps, %llu consumed, %llu answers, tail waited %llu",
             (unsigned long long)zero_words, (unsigned long long)wraps, (unsigned long long)consumed,
             (unsigned long long)qresps, (unsigned long long)tail_wait);
    std::printf("atomics: %llu fetch-and-add, %llu swap, %llu CAS matched, %llu CAS failed, %llu refused; "
                "the write waited %llu cycles for the read\n", (unsigned long long)faa, (unsigned long long)swaps,
                (unsigned long long)cas_hit, (unsigned long long)cas_miss, (unsigned long long)a_refused,
                (unsigned long long)awrite_wait);
    TB_CHECK(faa > 500 && swaps > 500 && cas_hit > 200 && cas_miss > 300 && a_refused > 200 && awrite_wait > 100,
             "atomic coverage too thin");
    std::printf("%llu descriptors, %llu memory writes, %llu reads, %llu completions in %llu cycles\n",
                (unsigned long long)descs, (unsigned long long)writes, (unsigned long long)reads,
                (unsigned long long)cpls, (unsigned long long)cycles);
    TB_CHECK(cpls > 500, "only %llu completion writes", (unsigned long long)cpls);
    std::printf("%llu fences answered with the reason of a refused write; %llu writes refused after an "
                "unreported refusal\n", (unsigned long long)fence_reports, (unsigned long long)held_refusals);
    std::printf("protection: %llu requests passed, refused %llu bad key, %llu no right, %llu out of the region\n",
                (unsigned long long)prot[0], (unsigned long long)prot[TG_ST_BAD_KEY],
                (unsigned long long)prot[TG_ST_NO_RIGHT], (unsigned long long)prot[TG_ST_RANGE]);
    TB_CHECK(prot[0] > 1000 && prot[TG_ST_BAD_KEY] > 300 && prot[TG_ST_NO_RIGHT] > 300 && prot[TG_ST_RANGE] > 300,
             "protection coverage");
    TB_CHECK(fence_reports > 20, "refused writes reported by fences: only %llu", (unsigned long long)fence_reports);
    TB_CHECK(held_refusals > 20, "writes refused after an unreported refusal: only %llu",
             (unsigned long long)held_refusals);
    TB_CHECK(cpl_wait > 100, "the completion never had to wait for data-write answers (%llu)",
             (unsigned long long)cpl_wait);
    std::printf("response buffer: %llu slots taken, %llu released, %llu cycles a read or atomic waited for a slot "
                "(%llu with all held), slots used %08x\n", (unsigned long long)rsp_takes, (unsigned long long)rsp_rels,
                (unsigned long long)slot_wait, (unsigned long long)slot_wait_full, slots_used);
    TB_CHECK(rsp_takes > 5000 && slot_wait > 10000 && slot_wait_full > 4000 && slots_used == 0xFFFFFFFFu,
             "response buffer: %llu taken, %llu waits (%llu all held), slots %08x", (unsigned long long)rsp_takes,
             (unsigned long long)slot_wait, (unsigned long long)slot_wait_full, slots_used);
    return tb_finish("tg_rx_engine");
}
