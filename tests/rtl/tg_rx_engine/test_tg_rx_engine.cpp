// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the receive engine against a reference memory: remote
// writes, read requests, host read responses and fetch responses (data,
// then the completion word only once every data write is answered), with
// refusals and stray responses, under random memory wait states and
// transmitter backpressure.
#include "Vtg_rx_engine.h"
#include "verilated.h"
#include "tb.hpp"

#include <cstring>
#include <memory>

static const uint32_t MEM_BYTES = 1u << 16;

struct Rxd {
    uint8_t op, status, len, ctx;
    bool addr_hi;
    uint16_t src, tag;
    uint32_t addr;
    uint64_t mask;
    uint8_t payload[TG_MAX_PAYLOAD];
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
};

struct Tb {
    std::unique_ptr<Vtg_rx_engine> m;
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

    explicit Tb(uint64_t seed) : m(new Vtg_rx_engine), rng(seed), mem(MEM_BYTES), ref(MEM_BYTES, 0) {}

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

    // Work out what the descriptor must do (called when it is first shown).
    void plan(const Rxd &d)
    {
        ex = Exec();
        unsigned words = d.len / 8;
        bool is_fetch = (d.tag & TG_TAG_FETCH) != 0;
        bool misaligned = (d.addr & 7) != 0;
        bool out_of_range = d.addr_hi || (uint64_t)d.addr + d.len > mem_size;
        if (d.op == TG_OP_WRITE) {
            if (misaligned || out_of_range) {
                ex.what = "refused write";
                ex.want_refused = true;
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
            } else {
                ex.what = words ? "read request" : "zero-length read request";
                ex.txd_status = TG_ST_OK;
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
        Vtg_rx_engine &r = *m;
        r.s_rxd_op = d.op;
        r.s_rxd_status = d.status;
        r.s_rxd_src = d.src;
        r.s_rxd_addr = d.addr;
        r.s_rxd_addr_hi = d.addr_hi;
        r.s_rxd_mask = d.mask;
        r.s_rxd_len = d.len;
        r.s_rxd_ctx = d.ctx;
        r.s_rxd_tag = d.tag;
        for (unsigned w = 0; w < 16; w++) {
            uint32_t v = 0;
            for (unsigned b = 0; b < 4; b++) v |= (uint32_t)d.payload[4 * w + b] << (8 * b);
            r.s_rxd_payload[w] = v;
        }
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

    void check_mem_req(Vtg_rx_engine &r, bool active, uint64_t out_after)
    {
        const char *what = active ? ex.what : "idle";
        if (!active) {
            TB_CHECK(false, "cycle %llu: memory request while idle", (unsigned long long)cyc);
            return;
        }
        uint32_t a = r.m_mem_req_addr;
        TB_CHECK((a & 7) == 0, "cycle %llu, %s: memory address %08x not aligned", (unsigned long long)cyc, what, a);
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

    void check_txd(Vtg_rx_engine &r, const Rxd &d)
    {
        TB_CHECK(ex.want_txd && !ex.txd_done, "cycle %llu, %s: unexpected response descriptor",
                 (unsigned long long)cyc, ex.what);
        if (!ex.want_txd) return;
        TB_CHECK(all_reads_done() && outstanding == 0, "cycle %llu, %s: response offered before the data was read",
                 (unsigned long long)cyc, ex.what);
        TB_CHECK(r.m_txd_op == TG_OP_READ_RESP && r.m_txd_status == ex.txd_status && r.m_txd_len == ex.txd_len,
                 "cycle %llu, %s: op %u status %u/%u len %u/%u", (unsigned long long)cyc, ex.what, r.m_txd_op,
                 r.m_txd_status, ex.txd_status, r.m_txd_len, ex.txd_len);
        // back to the requester, with its tag, and the byte mask it asked
        // for (a fetch writes the response's mask ANDed with its own)
        TB_CHECK(r.m_txd_dst == d.src && r.m_txd_tag == d.tag && r.m_txd_mask == d.mask,
                 "cycle %llu, %s: dst %04x/%04x tag %04x/%04x mask %016llx/%016llx", (unsigned long long)cyc,
                 ex.what, r.m_txd_dst, d.src, r.m_txd_tag, d.tag, (unsigned long long)r.m_txd_mask,
                 (unsigned long long)d.mask);
        for (unsigned w = 0; w < ex.txd_len / 8u; w++) {
            uint64_t got = (uint64_t)r.m_txd_payload[2 * w] | ((uint64_t)r.m_txd_payload[2 * w + 1] << 32);
            TB_CHECK(got == ex.txd_words[w], "cycle %llu, %s: response word %u = %016llx, want %016llx",
                     (unsigned long long)cyc, ex.what, w, (unsigned long long)got,
                     (unsigned long long)ex.txd_words[w]);
        }
    }

    void snapshot_txd(Vtg_rx_engine &r, uint32_t *s)
    {
        for (unsigned w = 0; w < 16; w++) s[w] = r.m_txd_payload[w];
        s[16] = r.m_txd_op | (r.m_txd_status << 8) | (r.m_txd_len << 16) | (r.m_txd_ctx << 24);
        s[17] = r.m_txd_dst | (r.m_txd_tag << 16);
        s[18] = r.m_txd_addr;
        s[19] = (uint32_t)r.m_txd_mask;
        s[20] = (uint32_t)(r.m_txd_mask >> 32);
        s[21] = s[22] = s[23] = 0;
    }

    void tick(bool rst = false)
    {
        Vtg_rx_engine &r = *m;
        r.rst = rst;
        r.cfg_mem_size = mem_size;
        bool starting = false;
        if (!showing && !rst && !q.empty() && !rng.chance(gap_pct)) {
            showing = true;
            starting = true;
        }
        r.s_rxd_valid = showing && !rst;
        if (r.s_rxd_valid) {
            if (starting) plan(q.front());
            drive(q.front());
        } else {
            Rxd junk;
            junk.op = (uint8_t)(1 + rng.below(3));
            junk.status = (uint8_t)rng.next(); junk.len = (uint8_t)(8 * rng.below(9)); junk.ctx = 0;
            junk.addr_hi = rng.below(2); junk.src = (uint16_t)rng.next(); junk.tag = (uint16_t)rng.next();
            junk.addr = (uint32_t)rng.next(); junk.mask = rng.next();
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
        r.clk = 0;
        r.eval();
        // the fetch table answers the index the engine looks up
        const FtEntry &e = ft[r.fetch_lookup_idx & 15];
        r.fetch_lookup_valid = e.valid;
        r.fetch_lookup_node = e.node;
        r.fetch_lookup_laddr = e.laddr;
        r.fetch_lookup_cpl = e.cpl;
        r.fetch_lookup_mask = e.mask;
        r.eval();

        if (!rst) {
            bool active = r.s_rxd_valid;
            const char *what = active ? ex.what : "idle";
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
                                 r.m_hrd_data == payload_word(d, 0),
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
                                ex.want_hrd == ex.hrd_done;
                TB_CHECK(complete, "cycle %llu, %s: consumed before its execution was complete "
                         "(writes %u reads %u outstanding %llu refused %u/%u stray %u/%u done %u/%u free %u/%u "
                         "cpl %u/%u txd %u/%u hrd %u/%u)", (unsigned long long)cyc, what, all_writes_done(),
                         all_reads_done(), (unsigned long long)out_after, ex.want_refused, ex.refused_seen,
                         ex.want_stray, ex.stray_seen, ex.want_done, ex.done_seen, ex.want_free, ex.free_seen,
                         ex.want_cpl, ex.cpl_done, ex.want_txd, ex.txd_done, ex.want_hrd, ex.hrd_done);
                if (ex.free_seen) ft[q.front().tag & 15].valid = false;
                q.pop_front();
                showing = false;
                done_descs++;
            }
            if (ex.want_cpl && !ex.cpl_done && all_writes_done() && out_after) cpl_wait++;
            if (req) outstanding++;
            mem.request(cyc, r.m_mem_req_valid, r.m_mem_req_write, r.m_mem_req_addr, r.m_mem_req_wdata,
                        r.m_mem_req_wstrb, rng);
        }
        r.clk = 1;
        r.eval();
        cyc++;
    }

    void run(uint64_t limit = 500000)
    {
        uint64_t end = cyc + limit;
        while (!q.empty() && cyc < end) tick();
        TB_CHECK(q.empty(), "%zu descriptors not consumed (stuck on: %s)", q.size(), ex.what);
        for (int i = 0; i < 30; i++) tick();
        TB_CHECK(outstanding == 0, "%llu memory requests unanswered at the end", (unsigned long long)outstanding);
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
    }

    // ---------------------------------------------------------------- generators
    uint64_t random_mask()
    {
        switch (rng.below(5)) {
        case 0: return ~0ull;
        case 1: return 0;
        case 2: { uint64_t m = 0; for (unsigned w = 0; w < 8; w++) if (rng.below(2)) m |= 0xFFull << (8 * w); return m; }
        case 3: { unsigned lo = rng.below(64), n = 1 + rng.below(64 - lo);
                  return (n == 64 ? ~0ull : ((1ull << n) - 1)) << lo; }
        default: return rng.next();
        }
    }
    Rxd base_rxd(uint8_t op, uint8_t len)
    {
        Rxd d;
        d.op = op;
        d.len = len;
        d.status = TG_ST_OK;
        d.ctx = (uint8_t)rng.next();
        d.addr_hi = false;
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
        case 1: d.addr = in_range_addr(d.len); d.addr_hi = true; break;       // address bits 63:32 set
        case 2: d.addr = in_range_addr(d.len) | (1 + rng.below(7)); break;   // misaligned
        case 3: d.addr = 0xFFFFFFF8u; break;                                   // wraps past 2^32
        default: d.addr = (uint32_t)rng.next() & ~7u; if ((uint64_t)d.addr + d.len <= mem_size) d.addr_hi = true; break;
        }
        q.push_back(d);
    }
    void read_req()
    {
        Rxd d = base_rxd(TG_OP_READ_REQ, (uint8_t)(8 * rng.below(9)));
        unsigned k = rng.below(10);
        if (k < 6) d.addr = in_range_addr(d.len);
        else if (k == 6) { d.len = 0; d.addr = (uint32_t)rng.next() & ~7u; d.addr_hi = rng.below(2); }  // a fence
        else if (k == 7) { d.addr = in_range_addr(d.len) | (1 + rng.below(7)); }
        else if (k == 8) { d.len = (uint8_t)(8 * (1 + rng.below(8))); d.addr = (mem_size & ~7u) - d.len + 8; }
        else { d.len = (uint8_t)(8 * (1 + rng.below(8))); d.addr = in_range_addr(d.len); d.addr_hi = true; }
        q.push_back(d);
    }
    void host_resp()
    {
        Rxd d = base_rxd(TG_OP_READ_RESP, rng.below(2) ? 8 : 0);
        d.tag &= (uint16_t)~TG_TAG_FETCH;
        d.status = rng.chance(20) ? (uint8_t)(1 + rng.below(8)) : TG_ST_OK;
        d.addr = (uint32_t)rng.next();
        q.push_back(d);
    }
    // A fetch entry and its response; `kind` 0 good, 1 error status, 2 no
    // entry, 3 wrong source node.
    void fetch_resp(unsigned kind)
    {
        unsigned idx = rng.below(16);
        FtEntry &e = ft[idx];
        Rxd d = base_rxd(TG_OP_READ_RESP, (uint8_t)(8 * rng.below(9)));
        d.tag = (uint16_t)(TG_TAG_FETCH | (rng.next() & 0x7FF0) | idx);
        if (kind == 2) {
            e.valid = false;
        } else {
            unsigned lo = rng.below(8), len = 1 + rng.below(TG_MAX_PAYLOAD - lo);
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
    for (const Cfg &c : cfgs) {
        for (unsigned rep = 0; rep < 2; rep++) {
            Tb tb(seed++ * 0x3C6EF372u);
            tb.mem.stall_pct = c.mem_stall;
            tb.mem.lat_min = c.lat_min;
            tb.mem.lat_max = c.lat_max;
            tb.txd_stall_pct = c.txd_stall;
            tb.gap_pct = c.gap;
            for (auto &b : tb.mem.mem) b = (uint8_t)tb.rng.next();
            tb.ref = tb.mem.mem;
            tb.mem_size = rep ? MEM_BYTES : MEM_BYTES - 8 * (1 + tb.rng.below(64)) - tb.rng.below(8);
            tb.reset();

            writes_phase(tb, 600);
            reads_phase(tb, 400);
            responses_phase(tb, 400);
            mixed_phase(tb, 800);

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
                for (int i = 0; i < 10; i++) tb.write_ok();
                tb.read_req();
                for (unsigned i = 0, n = 5 + tb.rng.below(60); i < n; i++) tb.tick();
                tb.reset();
                tb.q.clear();
                mixed_phase(tb, 40);
            }
            cpl_wait += tb.cpl_wait;
            cpls += tb.n_cpl;
            descs += tb.done_descs;
            cycles += tb.cyc;
            writes += tb.n_writes;
            reads += tb.n_reads;
        }
    }
    std::printf("%llu descriptors, %llu memory writes, %llu reads, %llu completions in %llu cycles\n",
                (unsigned long long)descs, (unsigned long long)writes, (unsigned long long)reads,
                (unsigned long long)cpls, (unsigned long long)cycles);
    TB_CHECK(cpls > 500, "only %llu completion writes", (unsigned long long)cpls);
    TB_CHECK(cpl_wait > 100, "the completion never had to wait for data-write answers (%llu)",
             (unsigned long long)cpl_wait);
    return tb_finish("tg_rx_engine");
}
