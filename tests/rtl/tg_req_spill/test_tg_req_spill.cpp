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
// oldest first with the same fields (payload words past the length zero).
// Every ring access lies inside the ring in force, nothing touches memory
// without a ring, a new configuration applies only once the ring is empty,
// log2 sizes above the largest are clamped, the count and the spill event
// agree with the model, outputs hold still while stalled, and a reset in
// the middle of traffic starts afresh.
#include "Vtg_req_spill.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>
#include <unordered_map>

static const unsigned OP_REQ = TG_OP_REQ;
static const unsigned MAX_LOG2 = TG_SPILL_MAX_LOG2;
static const uint32_t ENTRY_BYTES = TG_SPILL_ENTRY_BYTES;

struct Desc {
    uint8_t op = 0, len = 0, ctx = 0;
    uint16_t dst = 0, tag = 0;
    uint32_t addr = 0;
    uint64_t mask = 0;
    uint64_t w[8] = {};
    bool req() const { return op == OP_REQ; }
    bool operator==(const Desc &o) const
    {
        if (op != o.op || len != o.len || ctx != o.ctx || dst != o.dst || tag != o.tag || addr != o.addr ||
            mask != o.mask)
            return false;
        for (unsigned i = 0; i < 8; i++)
            if (w[i] != o.w[i]) return false;
        return true;
    }
    // as it comes back from the ring: payload words past the length are zero
    Desc parked() const
    {
        Desc d = *this;
        for (unsigned i = len / 8; i < 8; i++) d.w[i] = 0;
        return d;
    }
};

template <class W> static void put_payload(W &p, const uint64_t *w)
{
    for (unsigned i = 0; i < 8; i++) {
        p[2 * i] = (uint32_t)w[i];
        p[2 * i + 1] = (uint32_t)(w[i] >> 32);
    }
}
template <class W> static void get_payload(const W &p, uint64_t *w)
{
    for (unsigned i = 0; i < 8; i++) w[i] = (uint64_t)p[2 * i] | ((uint64_t)p[2 * i + 1] << 32);
}

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
    // the REQ sender
    unsigned slots = 4, busy = 0, free_pct = 10, stall_pct = 0;
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
        d.mask = a.m_txd_mask;
        d.len = a.m_txd_len;
        d.ctx = a.m_txd_ctx;
        d.tag = a.m_txd_tag;
        get_payload(a.m_txd_payload, d.w);
        return d;
    }

    void drive_in(bool rst)
    {
        Vtg_req_spill &a = *m;
        if (!showing && !rst) showing = !items.empty() && !rng.chance(gap_pct);
        Desc d;
        if (showing && !rst) {
            d = items.front();
        } else {   // junk on an idle port
            d.op = (uint8_t)rng.below(16);
            d.dst = (uint16_t)rng.next();
            d.addr = (uint32_t)rng.next();
            d.mask = rng.next();
            d.len = (uint8_t)rng.next();
            d.ctx = (uint8_t)rng.next();
            d.tag = (uint16_t)rng.next();
            for (unsigned i = 0; i < 8; i++) d.w[i] = rng.next();
        }
        a.s_txd_valid = showing && !rst;
        a.s_txd_op = d.op;
        a.s_txd_dst = d.dst;
        a.s_txd_addr = d.addr;
        a.s_txd_mask = d.mask;
        a.s_txd_len = d.len;
        a.s_txd_ctx = d.ctx;
        a.s_txd_tag = d.tag;
        put_payload(a.s_txd_payload, d.w);
    }

    void tick(bool rst = false)
    {
        Vtg_req_spill &a = *m;
        a.rst = rst;
        a.cfg_spill_base = cfg_base;
        a.cfg_spill_log2 = cfg_log2;
        drive_in(rst);
        bool slot_free = busy < slots;
        a.in_req_slot_free = slot_free;
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

        if (rst) {
            ring.clear();
            busy = 0;
            mem.reset();
            showing = false;
            eff_base = 0;
            eff_log2 = 0;
            out_held = mem_held = false;
        } else {
            step(a, slot_free, rv);
        }
        a.clk = 1;
        a.eval();
        cyc++;
    }

    void step(Vtg_req_spill &a, bool slot_free, bool rv)
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
            TB_CHECK(out == ring.front().parked(), "cycle %llu: replayed REQ tag %04x, expected the oldest, tag %04x",
                     c, out.tag, ring.front().tag);
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

        // bookkeeping
        if (out_hs) {
            if (out.op == OP_REQ) {
                TB_CHECK(busy < slots, "cycle %llu: REQ sent with no free slot", c);
                busy++;
                reqs_out++;
            }
            if (replay) {
                ring.pop_front();
                replays++;
            } else if (out.op == OP_REQ) {
                passes++;
            } else {
                others++;
            }
        }
        if (in_hs) {
            if (in_req) reqs_in++;
            if (park) {
                ring.push_back(in);
                parks++;
                if (ring.size() > max_ring) max_ring = ring.size();
            }
            items.pop_front();
            showing = false;
        }
        out_held = out_v && !a.m_txd_ready;
        out_last = out;
        // the configuration in force follows the inputs while the ring is
        // empty, unless a REQ that finds no free slot is offered
        if (empty && !park && !(in_req && !slot_free)) {
            eff_base = cfg_base;
            eff_log2 = clamp(cfg_log2);
        }
        // the sender finishes REQs at random
        for (unsigned s = busy; s > 0; s--)
            if (rng.chance(free_pct)) busy--;
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
            d.mask = rng.next();
            d.ctx = (uint8_t)rng.next();
            d.tag = (uint16_t)rng.next();
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
    }
};

struct Cfg {
    unsigned log2, slots, free_pct, stall_pct, mem_stall, lat_max, gap_pct;
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const Cfg cfgs[] = {
        // ring  slots free stall mstall lat gap
        {1, 1, 5, 10, 10, 4, 10},   {1, 4, 3, 50, 50, 12, 0},  {2, 1, 10, 0, 0, 1, 30},
        {2, 4, 2, 20, 30, 6, 5},    {6, 1, 2, 5, 20, 8, 0},    {6, 4, 1, 60, 60, 20, 20},
        {6, 1, 20, 30, 5, 3, 50},   {0, 1, 5, 20, 20, 4, 10},  {0, 4, 2, 50, 0, 1, 0},
        {20, 1, 3, 10, 40, 10, 5},  {31, 4, 2, 30, 10, 5, 10}, {4, 1, 1, 0, 80, 30, 0},
    };
    uint64_t seed = 1, parks = 0, replays = 0, passes = 0, others = 0, full_waits = 0, others_during = 0;
    uint64_t no_ring_writes = 0;
    for (const Cfg &k : cfgs) {
        for (unsigned rep = 0; rep < 3; rep++) {
            Tb tb(seed++ * 0xD1B54A32D192ED03ull);
            tb.slots = k.slots;
            tb.free_pct = k.free_pct;
            tb.stall_pct = k.stall_pct;
            tb.mem.stall_pct = k.mem_stall;
            tb.mem.lat_max = k.lat_max;
            tb.gap_pct = k.gap_pct;
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
    TB_CHECK(no_ring_writes == 0, "%llu memory accesses with no ring", (unsigned long long)no_ring_writes);
    TB_CHECK(parks > 20000 && replays > 20000, "few REQs parked (%llu) or replayed (%llu)",
             (unsigned long long)parks, (unsigned long long)replays);
    TB_CHECK(full_waits > 10000, "REQs waited on a full ring only %llu cycles", (unsigned long long)full_waits);
    TB_CHECK(others_during > 10000, "other requests met a non-empty ring only %llu times",
             (unsigned long long)others_during);
    return tb_finish("tg_req_spill");
}
