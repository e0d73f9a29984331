// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the REQ spill ring. A host port offers random REQs and
// other requests and holds each until it is taken; a model of the REQ
// sender has a few slots, takes one per REQ it accepts, frees them at
// random and stalls at random; the ring lives in a memory model with
// random wait states and in-order answers. A model of the ring predicts,
// cycle by cycle, what may happen: other requests pass straight through
// and never wait for parked REQs; a REQ passes straight through when the
// ring is empty and a slot is free (or there is no ring), is parked at
// once when the ring is empty and no slot is free, joins the ring whenever
// it holds anything, and waits while it is full; parked REQs come back
// oldest first with the same fields and payload (the words within its
// length: the frame sender sends no more).
// Every ring access lies inside the ring in force, nothing touches memory
// without a ring, a new configuration applies only once the ring is empty,
// log2 sizes above the largest are clamped, the count and the spill event
// agree with the model, outputs hold still while stalled, and a reset in
// the middle of traffic starts afresh.
// Payloads are in payload buffers modelled here. The host port writes a
// request's words into the lowest free slot of the request buffer before
// offering it (the wire hold, and the REQ hold for a REQ; some requests
// carry no payload); the descriptor names the slot, and the payload
// offered is read from the slot named. Parking reads the REQ's words
// through the request buffer's read port (granted at random, data a cycle
// after a granted read, junk otherwise), only from the parked REQ's slot,
// and releases the slot once, after the entry is in the ring. Reading back
// starts only when the spill buffer offers a free slot, writes the
// payload words into that slot and offers the REQ from it, taken (both
// holds) when the REQ sender takes the REQ; the sender's model drops the
// holds when it finishes a REQ. At the end of a run no slot is held but by
// the REQs the sender still has.
#include "Vtg_req_spill.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

static const unsigned OP_REQ = TG_OP_REQ;
static const unsigned MAX_LOG2 = TG_SPILL_MAX_LOG2;
static const uint32_t ENTRY_BYTES = TG_SPILL_ENTRY_BYTES;
static const unsigned PAY_SLOTS = 1u << TG_PAY_SLOT_BITS;   // slots of each payload buffer (PAY_SLOT_W's default)
static const uint8_t HOLD_BOTH = TG_PAY_HOLD_WIRE | TG_PAY_HOLD_REQ;

struct Desc {
    uint8_t op = 0, len = 0, ctx = 0;
    uint16_t dst = 0, tag = 0;
    uint32_t addr = 0;
    uint64_t mask = 0;
    uint8_t src = TG_PAY_NONE, pslot = 0;   // payload buffer and slot (the slot once it has one)
    uint64_t w[8] = {};                     // payload (zeros without a buffer)
    bool req() const { return op == OP_REQ; }
    bool operator==(const Desc &o) const
    {
        if (op != o.op || len != o.len || ctx != o.ctx || dst != o.dst || tag != o.tag || addr != o.addr ||
            mask != o.mask || src != o.src || (src != TG_PAY_NONE && pslot != o.pslot))
            return false;
        for (unsigned i = 0; i < 8; i++)
            if (w[i] != o.w[i]) return false;
        return true;
    }
    // as it comes back from the ring into spill-buffer slot s: the payload
    // words within its length (those past it are not sent)
    Desc parked(uint8_t s) const
    {
        Desc d = *this;
        d.src = TG_PAY_SPILL;
        d.pslot = s;
        for (unsigned i = len / 8; i < 8; i++) d.w[i] = 0;
        return d;
    }
};

// A payload buffer: the holds of each slot (TG_PAY_HOLD_* bits) and its
// words.
struct PayBuf {
    uint8_t hold[PAY_SLOTS] = {};
    uint64_t w[PAY_SLOTS][8] = {};
    int lowest_free() const
    {
        for (unsigned s = 0; s < PAY_SLOTS; s++)
            if (!hold[s]) return (int)s;
        return -1;
    }
    unsigned held() const
    {
        unsigned n = 0;
        for (unsigned s = 0; s < PAY_SLOTS; s++) n += hold[s] != 0;
        return n;
    }
};
struct PaySlot {
    uint8_t src, slot;
};

// Host memory holding the ring: sparse, unwritten words read as junk;
// random ready, in-order answers after a random latency.
struct RingMem {
    std::unordered_map<uint32_t, uint64_t> words;
    std::deque<std::pair<uint64_t, uint64_t>> q;   // due cycle, data
    unsigned stall_pct = 0, lat_max = 1;
    uint64_t last_due = 0, writes = 0, reads = 0;
    bool ready = true;

    uint64_t load(uint32_t a) const
    {
        auto it = words.find(a);
        if (it != words.end()) return it->second;
        uint64_t x = (uint64_t)a * 0x9E3779B97F4A7C15ull;   // junk
        return x ^ (x >> 29);
    }
    bool resp(uint64_t now, uint64_t &d)
    {
        if (q.empty() || q.front().first > now) return false;
        d = q.front().second;
        q.pop_front();
        return true;
    }
    void take(uint64_t now, bool write, uint32_t addr, uint64_t wdata, uint8_t wstrb, TbRng &rng)
    {
        uint64_t old = load(addr);
        if (write) {
            words[addr] = strb_merge(old, wdata, wstrb);
            writes++;
        } else {
            reads++;
        }
        uint64_t due = now + 1 + rng.below(lat_max);
        if (due <= last_due) due = last_due + 1;
        last_due = due;
        q.push_back(std::make_pair(due, load(addr)));
    }
    void reset()
    {
        q.clear();
        last_due = 0;
    }
};

struct Tb {
    std::unique_ptr<Vtg_req_spill> m;
    TbRng rng;
    RingMem mem;

    // the host port
    std::deque<Desc> items;
    unsigned gap_pct = 0;
    bool showing = false;
    bool claimed = false;                // the request shown has its payload slot
    // the REQ sender: the payload slots of the REQs it has
    unsigned slots = 4, free_pct = 10, stall_pct = 0;
    std::vector<PaySlot> sent;
    // the payload buffers (indexed by TG_PAY_*), their read port's grant
    // (denied for runs of cycles: the frame sender uses it) and the spill
    // buffer's allocation (none free at random)
    PayBuf pb[4];
    unsigned deny_pct = 0, spl_block_pct = 0, deny_left = 0;
    bool rd_next_ok = false;             // a granted read: its word is on s_pay_rd_data next cycle
    uint64_t rd_next_data = 0;
    int park_slot = -1;                  // request-buffer slot of the REQ being parked, until released
    unsigned park_words = 0;             // its payload words
    bool prev_alloc_valid = false;       // the spill buffer's offer in the last cycle
    uint8_t prev_alloc_slot = 0;
    bool rb_on = false;                  // a REQ is being read back (from its first ring read until taken)
    uint8_t rb_slot = 0;                 // ... into this spill-buffer slot
    unsigned rb_written = 0;             // its words written (bit per word)
    // configuration inputs
    uint32_t cfg_base = 0;
    unsigned cfg_log2 = 0;
    // the ring as it should be
    std::deque<Desc> ring;
    uint32_t eff_base = 0;
    unsigned eff_log2 = 0;

    uint64_t cyc = 0;
    bool out_held = false, mem_held = false;
    Desc out_last;
    bool mem_last_write = false;
    uint32_t mem_last_addr = 0;
    uint64_t mem_last_wdata = 0;
    // statistics
    uint64_t reqs_in = 0, reqs_out = 0, reqs_lost = 0, parks = 0, replays = 0, passes = 0, others = 0;
    uint64_t full_waits = 0, others_during_ring = 0;
    uint64_t pay_reads = 0, pay_denied = 0, spl_waits = 0, spl_takes = 0, park_rels = 0;
    size_t max_ring = 0;

    explicit Tb(uint64_t seed) : m(new Vtg_req_spill), rng(seed) {}

    static uint32_t ring_bytes(unsigned log2) { return log2 ? (uint32_t)(1u << log2) * ENTRY_BYTES : 0; }
    static unsigned clamp(unsigned log2) { return log2 > MAX_LOG2 ? MAX_LOG2 : log2; }
    size_t cap() const { return eff_log2 ? (size_t)1 << eff_log2 : 0; }

    void set_cfg(unsigned log2, uint32_t base)
    {
        cfg_log2 = log2;
        cfg_base = base;
    }
    // a base aligned to the ring's size
    uint32_t rand_base(unsigned log2)
    {
        uint32_t b = (uint32_t)rng.next();
        uint32_t sz = ring_bytes(clamp(log2));
        return sz ? b & ~(sz - 1) : b & ~7u;
    }

    Desc out_desc(const Vtg_req_spill &a) const
    {
        Desc d;
        d.op = a.m_txd_op;
        d.dst = a.m_txd_dst;
        d.addr = a.m_txd_addr;
        d.mask = tg_frame_mask(a.m_txd_off, a.m_txd_cnt);
        d.len = a.m_txd_len;
        d.ctx = a.m_txd_ctx;
        d.tag = a.m_txd_tag;
        d.src = a.m_txd_pay_src;
        d.pslot = a.m_txd_pay_slot;
        // the payload: the words of the slot named
        for (unsigned i = 0; i < 8; i++) d.w[i] = d.src == TG_PAY_NONE ? 0 : pb[d.src].w[d.pslot % PAY_SLOTS][i];
        return d;
    }

    // The host port writes a request's payload into the lowest free slot
    // of the request buffer before offering it; false: none is free.
    bool claim(Desc &d)
    {
        if (claimed || d.src == TG_PAY_NONE) return claimed = true;
        int s = pb[TG_PAY_REQ].lowest_free();
        if (s < 0) return false;
        pb[TG_PAY_REQ].hold[s] = d.req() ? HOLD_BOTH : TG_PAY_HOLD_WIRE;
        std::memcpy(pb[TG_PAY_REQ].w[s], d.w, sizeof d.w);
        d.pslot = (uint8_t)s;
        return claimed = true;
    }

    void drive_in(bool rst)
    {
        Vtg_req_spill &a = *m;
        if (!showing && !rst) showing = !items.empty() && !rng.chance(gap_pct) && claim(items.front());
        Desc d;
        if (showing && !rst) {
            d = items.front();
        } else {   // junk on an idle port
            d.op = (uint8_t)rng.below(16);
            d.dst = (uint16_t)rng.next();
            d.addr = (uint32_t)rng.next();
            d.mask = tb_random_run(rng);
            d.len = (uint8_t)rng.next();
            d.ctx = (uint8_t)rng.next();
            d.tag = (uint16_t)rng.next();
            d.src = (uint8_t)rng.below(4);
            d.pslot = (uint8_t)rng.below(PAY_SLOTS);
        }
        a.s_txd_valid = showing && !rst;
        a.s_txd_op = d.op;
        a.s_txd_dst = d.dst;
        a.s_txd_addr = d.addr;
        a.s_txd_off = tb_run_off(d.mask);
        a.s_txd_cnt = tb_run_cnt(d.mask);
        a.s_txd_len = d.len;
        a.s_txd_ctx = d.ctx;
        a.s_txd_tag = d.tag;
        a.s_txd_pay_src = d.src;
        a.s_txd_pay_slot = d.pslot;
    }

    void tick(bool rst = false)
    {
        Vtg_req_spill &a = *m;
        a.rst = rst;
        a.cfg_spill_base = cfg_base;
        a.cfg_spill_log2 = cfg_log2;
        drive_in(rst);
        bool slot_free = sent.size() < slots;
        a.in_req_slot_free = slot_free;
        // the request buffer's read port: the word of last cycle's granted
        // read, else another reader's; granted unless in a run of denials
        a.s_pay_rd_data = rd_next_ok ? rd_next_data : rng.next();
        if (!deny_left && rng.chance(deny_pct)) deny_left = 1 + rng.below(12);
        bool grant = !deny_left;
        if (deny_left) deny_left--;
        a.in_pay_rd_grant = grant;
        // the spill buffer's lowest free slot, or none
        int sf = pb[TG_PAY_SPILL].lowest_free();
        bool alloc = sf >= 0 && !rng.chance(spl_block_pct);
        a.s_spl_alloc_valid = alloc;
        a.s_spl_alloc_slot = alloc ? (uint8_t)sf : (uint8_t)rng.below(PAY_SLOTS);
        a.m_mem_req_ready = mem.ready = !rng.chance(mem.stall_pct);
        uint64_t rd = 0;
        bool rv = !rst && mem.resp(cyc, rd);
        a.s_mem_resp_valid = rv;
        a.s_mem_resp_rdata = rv ? rd : rng.next();
        // the sender takes a REQ only into a free slot
        bool stall = rng.chance(stall_pct);
        a.m_txd_ready = !stall;
        a.clk = 0;
        a.eval();
        if (a.m_txd_valid && a.m_txd_op == OP_REQ && !slot_free) {
            a.m_txd_ready = 0;
            a.eval();
        }

        rd_next_ok = false;
        if (rst) {
            ring.clear();
            mem.reset();
            showing = false;
            eff_base = 0;
            eff_log2 = 0;
            out_held = mem_held = false;
            // the payload buffers are reset too
            for (PayBuf &b : pb) b = PayBuf();
            sent.clear();
            claimed = false;
            park_slot = -1;
            rb_on = false;
            deny_left = 0;
            alloc = false;
        } else {
            step(a, slot_free, rv, grant);
        }
        prev_alloc_valid = alloc;
        prev_alloc_slot = (uint8_t)a.s_spl_alloc_slot;
        a.clk = 1;
        a.eval();
        cyc++;
    }

    void step(Vtg_req_spill &a, bool slot_free, bool rv, bool grant)
    {
        const unsigned long long c = cyc;
        Desc in = showing ? items.front() : Desc();
        bool in_v = a.s_txd_valid, in_req = in_v && in.req();
        bool in_hs = in_v && a.s_txd_ready;
        Desc out = out_desc(a);
        bool out_v = a.m_txd_valid, out_hs = out_v && a.m_txd_ready;
        bool empty = ring.empty();
        bool full = eff_log2 && ring.size() >= cap();

        TB_CHECK(a.st_spill_count == ring.size(), "cycle %llu: st_spill_count %u, ring holds %zu", c,
                 (unsigned)a.st_spill_count, ring.size());
        // outputs hold still while stalled
        if (out_held) {
            TB_CHECK(out_v && out == out_last,
                     "cycle %llu: stalled m_txd changed (valid %u, op %u -> %u; ring %zu of %zu, slot free %u)", c,
                     out_v, out_last.op, out.op, ring.size(), cap(), slot_free);
        }

        // what m_txd shows
        bool park = false, pass = false, replay = false;
        if (out_v && out.op == OP_REQ && !empty) {
            // a parked REQ comes back, oldest first
            replay = true;
            Desc got = out;
            for (unsigned i = got.len / 8; i < 8; i++) got.w[i] = 0;
            TB_CHECK(rb_on && got == ring.front().parked(rb_slot),
                     "cycle %llu: replayed REQ tag %04x (payload %u/%u, word 0 %016llx) differs from the oldest parked "
                     "one, tag %04x (spill slot %u, word 0 %016llx)", c, out.tag, out.src, out.pslot,
                     (unsigned long long)got.w[0], ring.front().tag, rb_slot, (unsigned long long)ring.front().w[0]);
            TB_CHECK(rb_written == 0xFF, "cycle %llu: replayed REQ offered with payload words %02x of its spill slot "
                     "written", c, rb_written);
            TB_CHECK(!a.s_txd_ready, "cycle %llu: host port ready while a parked REQ is offered", c);
        } else if (out_v) {
            // straight through
            TB_CHECK(in_v && out == in, "cycle %llu: m_txd (op %u) is not the host port's request", c, out.op);
            TB_CHECK(a.s_txd_ready == a.m_txd_ready, "cycle %llu: s_txd_ready %u with m_txd_ready %u", c,
                     a.s_txd_ready, a.m_txd_ready);
            if (out.op == OP_REQ) {
                TB_CHECK(empty, "cycle %llu: new REQ passed %zu parked ones", c, ring.size());
                TB_CHECK(slot_free || !eff_log2, "cycle %llu: REQ passed with no free slot and a ring", c);
            }
            pass = in_hs;
        } else {
            TB_CHECK(!in_v || in_req, "cycle %llu: op %u waits with m_txd idle", c, in.op);
            if (in_hs) {
                TB_CHECK(in_req, "cycle %llu: op %u taken without going out", c, in.op);
                park = true;
            }
        }
        if (in_hs && !pass) park = true;
        TB_CHECK(!(in_hs && !in_req && !pass), "cycle %llu: non-REQ taken without passing", c);

        if (in_req) {
            if (empty && (slot_free || !eff_log2)) {
                TB_CHECK(out_v && !replay && out == in, "cycle %llu: REQ not offered straight through", c);
            } else if (empty) {
                TB_CHECK(a.s_txd_ready && !out_v, "cycle %llu: REQ not parked at once (ready %u, m_txd_valid %u)",
                         c, a.s_txd_ready, out_v);
            }
            if (full) {
                full_waits++;
                TB_CHECK(!a.s_txd_ready, "cycle %llu: REQ taken with the ring full (%zu)", c, ring.size());
            }
        }
        if (in_v && !in_req && !empty) others_during_ring++;
        if (park) {
            TB_CHECK(eff_log2 != 0, "cycle %llu: REQ parked with no ring", c);
            TB_CHECK(!(empty && slot_free), "cycle %llu: REQ parked with an empty ring and a free slot", c);
            TB_CHECK(ring.size() < cap(), "cycle %llu: REQ parked into a full ring (%zu)", c, ring.size());
        }
        TB_CHECK(a.ev_spill == (park ? 1 : 0), "cycle %llu: ev_spill %u, parked %u", c, a.ev_spill, park);

        // the ring's memory traffic
        if (mem_held) {
            TB_CHECK(a.m_mem_req_valid && a.m_mem_req_write == mem_last_write && a.m_mem_req_addr == mem_last_addr &&
                         (!mem_last_write || a.m_mem_req_wdata == mem_last_wdata),
                     "cycle %llu: stalled memory request changed", c);
        }
        if (a.m_mem_req_valid) {
            uint32_t lo = eff_base, sz = ring_bytes(eff_log2);
            TB_CHECK(eff_log2 != 0, "cycle %llu: memory access %08x with no ring", c, a.m_mem_req_addr);
            TB_CHECK(a.m_mem_req_addr - lo < sz && (a.m_mem_req_addr & 7) == 0,
                     "cycle %llu: memory access %08x outside the ring %08x + %x", c, a.m_mem_req_addr, lo, sz);
            if (a.m_mem_req_ready)
                mem.take(cyc, a.m_mem_req_write, a.m_mem_req_addr, a.m_mem_req_wdata, a.m_mem_req_wstrb, rng);
        }
        mem_held = a.m_mem_req_valid && !a.m_mem_req_ready;
        mem_last_write = a.m_mem_req_write;
        mem_last_addr = a.m_mem_req_addr;
        mem_last_wdata = a.m_mem_req_wdata;
        (void)rv;

        // parking reads the parked REQ's payload words from its slot (the
        // word on s_pay_rd_data a cycle after a granted read), and releases
        // the slot once the entry is in the ring
        if (a.m_pay_rd_valid && grant) {
            pay_reads++;
            TB_CHECK(park_slot >= 0 && a.m_pay_rd_slot == park_slot && a.m_pay_rd_word < park_words,
                     "cycle %llu: payload read of request slot %u word %u; the REQ being parked has slot %d (%u words)",
                     c, a.m_pay_rd_slot, a.m_pay_rd_word, park_slot, park_words);
            rd_next_ok = true;
            rd_next_data = pb[TG_PAY_REQ].w[a.m_pay_rd_slot][a.m_pay_rd_word];
        }
        pay_denied += a.m_pay_rd_valid && !grant;
        if (a.m_pay_rel_valid) {
            TB_CHECK(park_slot >= 0 && a.m_pay_rd_slot == park_slot && !mem_held && mem.q.empty(),
                     "cycle %llu: request slot %u released; the REQ being parked has slot %d (%s)", c,
                     a.m_pay_rd_slot, park_slot, mem.q.empty() ? "its entry written" : "its entry not yet written");
            pb[TG_PAY_REQ].hold[a.m_pay_rd_slot] = 0;
            park_slot = -1;
            park_rels++;
        }
        // reading back starts with the spill buffer's free slot and writes
        // the payload words into it
        if (a.m_mem_req_valid && !a.m_mem_req_write && !rb_on) {
            TB_CHECK(prev_alloc_valid, "cycle %llu: reading back began with no free spill-buffer slot", c);
            rb_on = true;
            rb_slot = prev_alloc_slot;
            rb_written = 0;
        }
        spl_waits += !a.s_spl_alloc_valid && !rb_on && !empty && slot_free && park_slot < 0;
        if (a.m_spl_we) {
            TB_CHECK(rb_on && a.m_spl_wr_slot == rb_slot && !pb[TG_PAY_SPILL].hold[rb_slot] &&
                         !(rb_written >> a.m_spl_wr_word & 1),
                     "cycle %llu: spill slot %u word %u written; reading back %s into slot %u (words %02x written, "
                     "holds %u)", c, a.m_spl_wr_slot, a.m_spl_wr_word, rb_on ? "a REQ" : "nothing", rb_slot,
                     rb_written, pb[TG_PAY_SPILL].hold[rb_slot]);
            pb[TG_PAY_SPILL].w[a.m_spl_wr_slot][a.m_spl_wr_word] = a.m_spl_wr_data;
            rb_written |= 1u << a.m_spl_wr_word;
        }
        // the slot is taken (both holds) when the sender takes the REQ
        bool take = replay && out_hs;
        TB_CHECK(a.m_spl_take_valid == take && (!take || a.m_spl_take_slot == rb_slot),
                 "cycle %llu: spill slot %u taken %u; want %s, slot %u", c, a.m_spl_take_slot, a.m_spl_take_valid,
                 take ? "taken" : "none", rb_slot);

        // bookkeeping
        if (out_hs) {
            if (out.op == OP_REQ) {
                TB_CHECK(sent.size() < slots, "cycle %llu: REQ sent with no free slot", c);
                reqs_out++;
            }
            if (replay) {
                TB_CHECK(!pb[TG_PAY_SPILL].hold[rb_slot], "cycle %llu: spill slot %u taken while held", c, rb_slot);
                pb[TG_PAY_SPILL].hold[rb_slot] = HOLD_BOTH;
                sent.push_back(PaySlot{TG_PAY_SPILL, rb_slot});
                rb_on = false;
                spl_takes++;
                ring.pop_front();
                replays++;
            } else if (out.op == OP_REQ) {
                sent.push_back(PaySlot{out.src, out.pslot});
                passes++;
            } else {
                // the wire is done with it at once
                if (out.src != TG_PAY_NONE) pb[out.src].hold[out.pslot % PAY_SLOTS] = 0;
                others++;
            }
        }
        if (in_hs) {
            if (in_req) reqs_in++;
            if (park) {
                TB_CHECK(park_slot < 0, "cycle %llu: REQ parked before the slot %d of the one before was released", c,
                         park_slot);
                park_slot = in.pslot;
                park_words = std::min(8u, std::max(1u, in.len / 8u));
                ring.push_back(in);
                parks++;
                if (ring.size() > max_ring) max_ring = ring.size();
            }
            items.pop_front();
            showing = false;
            claimed = false;
        }
        out_held = out_v && !a.m_txd_ready;
        out_last = out;
        // the configuration in force follows the inputs while the ring is
        // empty, unless a REQ that finds no free slot is offered
        if (empty && !park && !(in_req && !slot_free)) {
            eff_base = cfg_base;
            eff_log2 = clamp(cfg_log2);
        }
        // the sender finishes REQs at random: both holds of the slot go
        for (size_t i = sent.size(); i > 0; i--) {
            if (rng.chance(free_pct)) {
                pb[sent[i - 1].src].hold[sent[i - 1].slot] = 0;
                sent.erase(sent.begin() + (long)(i - 1));
            }
        }
    }

    void reset()
    {
        reqs_lost += ring.size();
        for (int i = 0; i < 3; i++) tick(true);
    }

    void add(unsigned n, unsigned req_pct)
    {
        for (unsigned k = 0; k < n; k++) {
            Desc d;
            if (rng.chance(req_pct)) {
                d.op = OP_REQ;
                d.len = (uint8_t)(8 * (1 + rng.below(8)));
            } else {
                d.op = (uint8_t)(1 + rng.below(11));
                if (d.op == OP_REQ) d.op = TG_OP_REQ_RESP;
                d.len = (uint8_t)rng.next();
            }
            d.dst = (uint16_t)rng.next();
            d.addr = (uint32_t)rng.next();
            d.mask = tb_random_run(rng);
            d.ctx = (uint8_t)rng.next();
            d.tag = (uint16_t)rng.next();
            // REQs carry their words in the request buffer, other requests
            // there too or none at all
            d.src = d.req() || rng.chance(50) ? TG_PAY_REQ : TG_PAY_NONE;
            if (d.src != TG_PAY_NONE)
                for (unsigned i = 0; i < 8; i++) d.w[i] = rng.next();   // junk past the length too
            items.push_back(d);
        }
    }

    bool busy_tb() const { return !items.empty() || !ring.empty(); }

    void run(uint64_t limit)
    {
        uint64_t end = cyc + limit;
        while (busy_tb() && cyc < end) tick();
        TB_CHECK(!busy_tb(), "not drained: %zu requests waiting, %zu parked", items.size(), ring.size());
        for (int i = 0; i < 20; i++) tick();
        TB_CHECK(mem.q.empty(), "memory answers left over");
        TB_CHECK(reqs_in == reqs_out + reqs_lost, "%llu REQs in, %llu out, %llu lost to resets",
                 (unsigned long long)reqs_in, (unsigned long long)reqs_out, (unsigned long long)reqs_lost);
        // no slot held but by the REQs the sender has
        unsigned own[4] = {};
        for (const PaySlot &p : sent) own[p.src]++;
        TB_CHECK(park_slot < 0 && !rb_on && pb[TG_PAY_REQ].held() == own[TG_PAY_REQ] &&
                     pb[TG_PAY_SPILL].held() == own[TG_PAY_SPILL],
                 "slots left held: request slot %d of a parked REQ not released, %s, %u request and %u spill slots "
                 "held, %u and %u by the sender", park_slot, rb_on ? "a REQ half read back" : "nothing read back",
                 pb[TG_PAY_REQ].held(), pb[TG_PAY_SPILL].held(), own[TG_PAY_REQ], own[TG_PAY_SPILL]);
    }
};

struct Cfg {
    unsigned log2, slots, free_pct, stall_pct, mem_stall, lat_max, gap_pct;
    unsigned deny, sblock;   // % of cycles a run of read-port denials starts; % with no spill slot offered
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const Cfg cfgs[] = {
        // ring  slots free stall mstall lat gap deny sblock
        {1, 1, 5, 10, 10, 4, 10, 5, 10},   {1, 4, 3, 50, 50, 12, 0, 20, 0},  {2, 1, 10, 0, 0, 1, 30, 0, 30},
        {2, 4, 2, 20, 30, 6, 5, 10, 5},    {6, 1, 2, 5, 20, 8, 0, 30, 50},   {6, 4, 1, 60, 60, 20, 20, 3, 0},
        {6, 1, 20, 30, 5, 3, 50, 15, 20},  {0, 1, 5, 20, 20, 4, 10, 10, 10}, {0, 4, 2, 50, 0, 1, 0, 0, 0},
        {20, 1, 3, 10, 40, 10, 5, 8, 3},   {31, 4, 2, 30, 10, 5, 10, 12, 8}, {4, 1, 1, 0, 80, 30, 0, 40, 0},
    };
    uint64_t seed = 1, parks = 0, replays = 0, passes = 0, others = 0, full_waits = 0, others_during = 0;
    uint64_t no_ring_writes = 0, pay_reads = 0, pay_denied = 0, spl_waits = 0, park_rels = 0, spl_takes = 0;
    for (const Cfg &k : cfgs) {
        for (unsigned rep = 0; rep < 3; rep++) {
            Tb tb(seed++ * 0xD1B54A32D192ED03ull);
            tb.slots = k.slots;
            tb.free_pct = k.free_pct;
            tb.stall_pct = k.stall_pct;
            tb.mem.stall_pct = k.mem_stall;
            tb.mem.lat_max = k.lat_max;
            tb.gap_pct = k.gap_pct;
            tb.deny_pct = k.deny;
            tb.spl_block_pct = k.sblock;
            tb.set_cfg(k.log2, tb.rand_base(k.log2));
            tb.reset();

            // steady configuration
            tb.add(1500, 70);
            tb.run(2000000);
            if (k.log2 == 0) no_ring_writes += tb.mem.writes + tb.mem.reads;
            if (k.log2 >= 1 && k.log2 <= 2 && k.slots == 1)
                TB_CHECK(tb.max_ring == tb.cap(), "ring of %zu entries held at most %zu", tb.cap(), tb.max_ring);

            // the configuration changes at random times, also while the
            // ring holds entries (to another size, to none, above the
            // largest); it applies only once the ring is empty
            tb.add(2500, 70);
            {
                uint64_t end = tb.cyc + 3000000;
                while (tb.busy_tb() && tb.cyc < end) {
                    if (tb.rng.chance(2)) {
                        static const unsigned sizes[] = {0, 1, 2, 3, 6, 16, 17, 31};
                        unsigned l = sizes[tb.rng.below(8)];
                        tb.set_cfg(l, tb.rand_base(l));
                    }
                    tb.tick();
                }
            }
            tb.set_cfg(k.log2, tb.rand_base(k.log2));
            tb.run(2000000);

            // reset in the middle of traffic
            tb.add(300, 70);
            for (unsigned i = 0, n = 50 + tb.rng.below(400); i < n; i++) tb.tick();
            tb.reset();
            tb.run(2000000);

            parks += tb.parks;
            replays += tb.replays;
            passes += tb.passes;
            others += tb.others;
            full_waits += tb.full_waits;
            others_during += tb.others_during_ring;
            pay_reads += tb.pay_reads;
            pay_denied += tb.pay_denied;
            spl_waits += tb.spl_waits;
            park_rels += tb.park_rels;
            spl_takes += tb.spl_takes;
        }
    }

    // the ring is switched off in the very cycle that parks its first REQ:
    // that REQ and the ones after it still go through the ring in force
    for (unsigned rep = 0; rep < 4; rep++) {
        Tb tb(0xABCDEF + rep);
        tb.slots = 1;
        tb.free_pct = 0;
        tb.set_cfg(2, tb.rand_base(2));
        tb.reset();
        tb.add(1, 100);          // takes the only slot
        tb.run(1000);
        tb.add(1, 100);          // parked in the next cycle, as the ring goes away
        tb.set_cfg(rep & 1 ? 0 : 3, tb.rand_base(3));
        tb.tick();
        TB_CHECK(tb.parks == 1, "switch-off: the REQ was not parked at once");
        tb.add(3, 100);
        for (int i = 0; i < 300; i++) tb.tick();
        tb.free_pct = 20;
        tb.run(10000);
        TB_CHECK(tb.parks == 4 && tb.replays == 4, "switch-off: parked %llu, replayed %llu REQs",
                 (unsigned long long)tb.parks, (unsigned long long)tb.replays);
    }

    // a ring asked for above the largest holds exactly 2^MAX_LOG2 entries
    {
        Tb tb(0xC0FFEE);
        tb.slots = 1;
        tb.free_pct = 0;
        tb.set_cfg(31, tb.rand_base(31));
        tb.reset();
        tb.add((1u << MAX_LOG2) + 2, 100);
        for (auto &d : tb.items) d.len = 8;
        uint64_t end = tb.cyc + 20 * (1u << MAX_LOG2);
        while (tb.ring.size() < (1u << MAX_LOG2) && tb.cyc < end) tb.tick();
        for (int i = 0; i < 200; i++) tb.tick();
        TB_CHECK(tb.ring.size() == (1u << MAX_LOG2), "clamped ring holds %zu entries", tb.ring.size());
        TB_CHECK(tb.m->st_spill_count == (1u << MAX_LOG2), "clamped ring: st_spill_count %u",
                 (unsigned)tb.m->st_spill_count);
        TB_CHECK(tb.full_waits > 100, "clamped ring: REQs waited on the full ring only %llu cycles",
                 (unsigned long long)tb.full_waits);
        tb.free_pct = 50;
        tb.run(40 * (1u << MAX_LOG2));
    }

    std::printf("parked %llu, replayed %llu, passed %llu REQs and %llu others; %llu cycles full\n",
                (unsigned long long)parks, (unsigned long long)replays, (unsigned long long)passes,
                (unsigned long long)others, (unsigned long long)full_waits);
    std::printf("payloads: %llu words read from the request buffer, %llu reads denied, %llu request slots released "
                "by parking; %llu spill slots taken, %llu cycles a read-back waited for one\n",
                (unsigned long long)pay_reads, (unsigned long long)pay_denied, (unsigned long long)park_rels,
                (unsigned long long)spl_takes, (unsigned long long)spl_waits);
    TB_CHECK(pay_denied > 10000 && spl_waits > 10000 && park_rels > 20000 && spl_takes > 20000,
             "few denied payload reads (%llu), waits for a spill slot (%llu), released request slots (%llu) or "
             "taken spill slots (%llu)", (unsigned long long)pay_denied, (unsigned long long)spl_waits,
             (unsigned long long)park_rels, (unsigned long long)spl_takes);
    TB_CHECK(no_ring_writes == 0, "%llu memory accesses with no ring", (unsigned long long)no_ring_writes);
    TB_CHECK(parks > 20000 && replays > 20000, "few REQs parked (%llu) or replayed (%llu)",
             (unsigned long long)parks, (unsigned long long)replays);
    TB_CHECK(full_waits > 10000, "REQs waited on a full ring only %llu cycles", (unsigned long long)full_waits);
    TB_CHECK(others_during > 10000, "other requests met a non-empty ring only %llu times",
             (unsigned long long)others_during);
    return tb_finish("tg_req_spill");
}
