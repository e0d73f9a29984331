// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the memory-bus bridge alone: a model host port (a register
// file answering reads after a random delay) and the host-memory model of
// tb.hpp with wait states. Every operation and status, broadcast and
// unicast addressing, and frames that must get no answer: bad FCS, other
// EtherType, other destination, short, rx_er, and a request that arrives
// while one is executing. Resends: one that repeats the last request
// executed is answered again from the kept response and not executed.
// Bursts: 1 to 8 words with their byte enables become consecutive beats
// with last on the final one, only once the whole frame has been checked.
// Receive samples come with random gaps, as from the node's crossing.
#include "Vtg_bridge.h"
#include "verilated.h"
#include "gmii.hpp"

#include <map>
#include <memory>

struct Tb {
    std::unique_ptr<Vtg_bridge> m{new Vtg_bridge};
    TbRng rng{9};
    GmiiSource src;
    GmiiSink out;
    MemModel mem{1u << 14};
    std::map<uint64_t, uint64_t> bar;
    std::deque<uint64_t> host_writes;
    struct Beat {
        uint64_t addr, data;
        uint8_t strb;
        bool last;
    };
    std::vector<Beat> beats;   // every host-port write beat
    int host_due = -1;
    uint64_t host_data = 0;
    unsigned reqs = 0, drops = 0, host_reads = 0;
    uint64_t cyc = 0;

    void tick()
    {
        Vtg_bridge &v = *m;
        v.rst = cyc < 4;
        // samples come with gaps, as from the node's receive crossing
        bool valid = rng.chance(85);
        uint8_t dv = 0, er = 0, d = 0;
        if (valid) src.next(dv, er, d);
        v.gmii_rx_valid = valid;
        v.gmii_rx_dv = dv, v.gmii_rx_er = er, v.gmii_rxd = d;
        v.m_host_req_ready = rng.chance(60);
        bool hresp = host_due == 0;
        v.s_host_resp_valid = hresp;
        v.s_host_resp_rdata = host_data;
        uint64_t md = 0;
        bool mresp = mem.resp(cyc, md);
        v.s_mem_resp_valid = mresp;
        v.s_mem_resp_rdata = md;
        v.m_mem_req_ready = mem.pick_ready(rng);
        v.clk = 0;
        v.eval();
        if (hresp) TB_CHECK(v.s_host_resp_ready, "host response not taken");
        if (hresp) host_due = -1;
        else if (host_due > 0) host_due--;
        if (v.m_host_req_valid && v.m_host_req_ready) {
            if (v.m_host_req_write) {
                uint64_t &w = bar[v.m_host_req_addr];
                w = strb_merge(w, v.m_host_req_wdata, v.m_host_req_wstrb);
                host_writes.push_back(v.m_host_req_addr);
                beats.push_back({v.m_host_req_addr, v.m_host_req_wdata, v.m_host_req_wstrb,
                                 (bool)v.m_host_req_last});
            } else {
                TB_CHECK(v.m_host_req_last, "read without last");
                TB_CHECK(host_due < 0, "second outstanding host read");
                host_reads++;
                host_due = 1 + (int)rng.below(40);
                host_data = bar.count(v.m_host_req_addr) ? bar[v.m_host_req_addr] : 0xDEAD;
            }
        }
        mem.request(cyc, v.m_mem_req_valid, v.m_mem_req_write, v.m_mem_req_addr, v.m_mem_req_wdata,
                    v.m_mem_req_wstrb, rng);
        v.clk = 1;
        v.eval();
        out.sample(v.gmii_tx_en, v.gmii_tx_er, v.gmii_txd);
        reqs += v.ev_req;
        drops += v.ev_drop;
        cyc++;
    }
    void settle(unsigned n = 400)
    {
        while (src.busy()) tick();
        for (unsigned i = 0; i < n; i++) tick();
    }
    BridgeMsg call(const BridgeMsg &q) { return call(bridge_request(0, q)); }
    BridgeMsg call(const Bytes &f)
    {
        BridgeMsg q = bridge_fields(f);
        src.push(gmii_wire(with_fcs(f)));
        settle();
        BridgeMsg r;
        TB_CHECK(out.frames.size() == 1, "%zu responses to op %u", out.frames.size(), q.op);
        if (!out.frames.empty()) {
            TB_CHECK(bridge_response(0, out.frames.front(), r), "malformed response");
            TB_CHECK(r.op == (q.op | TG_BRIDGE_OP_RESP) && r.seq == q.seq && r.addr == q.addr, "echoed fields");
            out.frames.clear();
        }
        return r;
    }
};

static BridgeMsg msg(uint8_t op, uint16_t seq, uint64_t addr, uint64_t data = 0, uint8_t strb = 0xFF)
{
    BridgeMsg q;
    q.op = op, q.seq = seq, q.addr = addr, q.data = data, q.strb = strb;
    return q;
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    t.mem.stall_pct = 40;
    t.mem.lat_min = 1, t.mem.lat_max = 12;
    t.settle(10);

    // host port
    BridgeMsg r = t.call(msg(TG_BRIDGE_OP_BAR_WRITE, 1, 0x1230, 0xABCDEF));
    TB_CHECK(r.strb == TG_BRIDGE_ST_OK && t.bar[0x1230] == 0xABCDEF, "BAR write");
    r = t.call(msg(TG_BRIDGE_OP_BAR_READ, 2, 0x1230));
    TB_CHECK(r.strb == TG_BRIDGE_ST_OK && r.data == 0xABCDEF, "BAR read %llx", (unsigned long long)r.data);
    uint64_t top = (1ull << TG_BAR_ADDR_BITS) - 8;
    t.call(msg(TG_BRIDGE_OP_BAR_WRITE, 3, top, 7));
    TB_CHECK(t.bar[top] == 7, "top of the BAR");

    // host memory, byte enables
    for (unsigned k = 0; k < 20; k++) {
        uint64_t a = 8 * t.rng.below(2048), v = t.rng.next();
        uint8_t s = (uint8_t)t.rng.next();
        uint64_t before = t.mem.load64((uint32_t)a);
        r = t.call(msg(TG_BRIDGE_OP_MEM_WRITE, (uint16_t)(10 + k), a, v, s));
        TB_CHECK(r.strb == TG_BRIDGE_ST_OK, "memory write status");
        uint64_t want = strb_merge(before, v, s);
        r = t.call(msg(TG_BRIDGE_OP_MEM_READ, (uint16_t)(40 + k), a));
        TB_CHECK(r.data == want && t.mem.load64((uint32_t)a) == want, "memory word %llx", (unsigned long long)a);
    }

    // refusals: no bus traffic, a status
    size_t hw = t.host_writes.size();
    uint64_t mw = t.mem.writes;
    TB_CHECK(t.call(msg(TG_BRIDGE_OP_MEM_WRITE, 70, 1u << 14, 1)).strb == TG_BRIDGE_ST_RANGE, "memory range");
    TB_CHECK(t.call(msg(TG_BRIDGE_OP_MEM_WRITE, 71, 0x13, 1)).strb == TG_BRIDGE_ST_RANGE, "memory alignment");
    TB_CHECK(t.call(msg(TG_BRIDGE_OP_BAR_WRITE, 72, 1ull << 47, 1)).strb == TG_BRIDGE_ST_RANGE, "BAR range");
    TB_CHECK(t.call(msg(TG_BRIDGE_OP_BAR_READ, 73, 0x1234)).strb == TG_BRIDGE_ST_RANGE, "BAR alignment");
    TB_CHECK(t.call(msg(0x55, 74, 0)).strb == TG_BRIDGE_ST_BAD_OP, "bad op");
    TB_CHECK(t.host_writes.size() == hw && t.mem.writes == mw, "a refused request reached a bus");

    // resends: the last request executed is answered again, not executed
    const uint8_t RESEND = TG_BRIDGE_OP_RESEND;
    hw = t.host_writes.size();
    t.call(msg(TG_BRIDGE_OP_BAR_WRITE, 300, 0x3000, 11));
    TB_CHECK(t.host_writes.size() == hw + 1 && t.bar[0x3000] == 11, "write before its resends");
    for (unsigned k = 0; k < 2; k++) {
        r = t.call(msg(TG_BRIDGE_OP_BAR_WRITE | RESEND, 300, 0x3000, 11));
        TB_CHECK(r.strb == TG_BRIDGE_ST_OK && t.host_writes.size() == hw + 1, "resent write executed again");
    }
    // the same seq without the resend bit is a new request
    t.call(msg(TG_BRIDGE_OP_BAR_WRITE, 300, 0x3000, 11));
    TB_CHECK(t.host_writes.size() == hw + 2, "a plain repeat was not executed");
    // a resend of another seq, or of another operation, is executed
    t.call(msg(TG_BRIDGE_OP_BAR_WRITE | RESEND, 301, 0x3008, 12));
    TB_CHECK(t.host_writes.size() == hw + 3 && t.bar[0x3008] == 12, "resend of a new seq not executed");
    unsigned hr = t.host_reads;
    r = t.call(msg(TG_BRIDGE_OP_BAR_READ | RESEND, 301, 0x3008));
    TB_CHECK(t.host_reads == hr + 1 && r.data == 12, "resend with another operation not executed");
    // a read's answer is the value read then, not a new read
    t.bar[0x3008] = 99;
    r = t.call(msg(TG_BRIDGE_OP_BAR_READ | RESEND, 301, 0x3008));
    TB_CHECK(t.host_reads == hr + 1 && r.strb == TG_BRIDGE_ST_OK && r.data == 12,
             "read resend: %u reads, value %llx", t.host_reads - hr, (unsigned long long)r.data);
    r = t.call(msg(TG_BRIDGE_OP_BAR_READ, 302, 0x3008));
    TB_CHECK(t.host_reads == hr + 2 && r.data == 99, "read after the resend");
    // memory: a resent write is not written twice, a refusal keeps its status
    mw = t.mem.writes;
    t.call(msg(TG_BRIDGE_OP_MEM_WRITE, 303, 0x40, 5));
    r = t.call(msg(TG_BRIDGE_OP_MEM_WRITE | RESEND, 303, 0x40, 5));
    TB_CHECK(r.strb == TG_BRIDGE_ST_OK && t.mem.writes == mw + 1, "memory writes %llu",
             (unsigned long long)(t.mem.writes - mw));
    t.call(msg(TG_BRIDGE_OP_MEM_READ, 304, 1u << 14));
    r = t.call(msg(TG_BRIDGE_OP_MEM_READ | RESEND, 304, 1u << 14));
    TB_CHECK(r.strb == TG_BRIDGE_ST_RANGE, "resent refusal: status %u", r.strb);
    // a resend arriving while its request executes is dropped; one after it is answered
    hr = t.host_reads;
    t.src.push(gmii_wire(with_fcs(bridge_request(0, msg(TG_BRIDGE_OP_BAR_READ, 305, 0x3008)))));
    t.src.push(gmii_wire(with_fcs(bridge_request(0, msg(TG_BRIDGE_OP_BAR_READ | RESEND, 305, 0x3008)))));
    t.settle();
    TB_CHECK(t.out.frames.size() == 1, "%zu answers to a read and its resend while busy", t.out.frames.size());
    t.out.frames.clear();
    t.bar[0x3008] = 100;
    r = t.call(msg(TG_BRIDGE_OP_BAR_READ | RESEND, 305, 0x3008));
    TB_CHECK(t.host_reads == hr + 1 && r.data == 99, "late resend: %u reads, value %llx", t.host_reads - hr,
             (unsigned long long)r.data);

    // bursts: n words at word offset o of a 64-byte block, random data and
    // byte enables, become n consecutive beats, last on the n-th only
    for (unsigned k = 0; k < 40; k++) {
        unsigned n = 1 + k % 8, o = (unsigned)t.rng.below(9 - n);
        uint64_t a = bar_addr(TG_WIN_REQ, 0, 1, 0x4000) + 64 * t.rng.below(64) + 8 * o;
        std::vector<uint64_t> w(n);
        std::vector<uint8_t> st(n);
        for (unsigned i = 0; i < n; i++) {
            w[i] = t.rng.next();
            st[i] = k < 16 ? 0xFF : (uint8_t)t.rng.next();
        }
        t.beats.clear();
        r = t.call(bridge_burst(0, (uint16_t)(400 + k), a, w, st));
        TB_CHECK(r.strb == TG_BRIDGE_ST_OK && r.data == 0, "burst of %u: status %u", n, r.strb);
        TB_CHECK(t.beats.size() == n, "burst of %u: %zu beats", n, t.beats.size());
        for (unsigned i = 0; i < n && i < t.beats.size(); i++) {
            const Tb::Beat &b = t.beats[i];
            TB_CHECK(b.addr == a + 8 * i && b.data == w[i] && b.strb == st[i] && b.last == (i + 1 == n),
                     "burst of %u, beat %u: addr %llx data %llx strb %02x last %d", n, i,
                     (unsigned long long)b.addr, (unsigned long long)b.data, b.strb, b.last);
        }
    }
    // single beats after bursts: their own data, byte enables and last
    t.beats.clear();
    r = t.call(msg(TG_BRIDGE_OP_BAR_WRITE, 449, 0x5010, 0x1122334455667788ull, 0x0F));
    TB_CHECK(r.strb == TG_BRIDGE_ST_OK && t.beats.size() == 1 && t.beats[0].addr == 0x5010 &&
                 t.beats[0].data == 0x1122334455667788ull && t.beats[0].strb == 0x0F && t.beats[0].last,
             "single write after bursts");
    uint64_t m0 = t.mem.load64(0x80);
    t.call(msg(TG_BRIDGE_OP_MEM_WRITE, 448, 0x80, ~0ull, 0x3C));
    const uint64_t mask = 0x0000FFFFFFFF0000ull;   // bytes 2..5
    TB_CHECK(t.call(msg(TG_BRIDGE_OP_MEM_READ, 447, 0x80)).data == ((m0 & ~mask) | mask),
             "memory write after bursts");
    // a burst to the top block of the BAR
    t.beats.clear();
    r = t.call(bridge_burst(0, 450, (1ull << TG_BAR_ADDR_BITS) - 64, std::vector<uint64_t>(8, 5),
                            std::vector<uint8_t>(8, 0xFF)));
    TB_CHECK(r.strb == TG_BRIDGE_ST_OK && t.beats.size() == 8 && t.beats.back().last, "burst at the BAR's top");
    // refused bursts: no beat at all
    t.beats.clear();
    std::vector<uint64_t> w4 = {1, 2, 3, 4};
    std::vector<uint8_t> s4(4, 0xFF);
    TB_CHECK(t.call(bridge_burst(0, 451, 0x5028, w4, s4)).strb == TG_BRIDGE_ST_RANGE, "burst across a block");
    TB_CHECK(t.call(bridge_burst(0, 452, 0x5004, w4, s4)).strb == TG_BRIDGE_ST_RANGE, "misaligned burst");
    TB_CHECK(t.call(bridge_burst(0, 453, 1ull << 47, w4, s4)).strb == TG_BRIDGE_ST_RANGE, "burst past the BAR");
    TB_CHECK(t.call(bridge_burst(0, 454, 0x5000, w4, s4, 0)).strb == TG_BRIDGE_ST_BAD_OP, "burst of 0 words");
    std::vector<uint64_t> w9(9, 7);
    TB_CHECK(t.call(bridge_burst(0, 455, 0x5000, w9, std::vector<uint8_t>(8, 0xFF))).strb == TG_BRIDGE_ST_BAD_OP,
             "burst of 9 words");
    TB_CHECK(t.beats.empty(), "a refused burst made %zu beats", t.beats.size());
    // a resent burst is answered again, not executed again
    std::vector<uint64_t> w8 = {11, 12, 13, 14, 15, 16, 17, 18};
    std::vector<uint8_t> s8(8, 0xFF);
    t.call(bridge_burst(0, 456, 0x6000, w8, s8));
    r = t.call(bridge_burst(0, 456, 0x6000, w8, s8, -1, TG_BRIDGE_OP_RESEND));
    TB_CHECK(r.strb == TG_BRIDGE_ST_OK && t.beats.size() == 8, "resent burst: %zu beats", t.beats.size());
    // a burst frame shorter than its words, or with a bad FCS, runs nothing
    t.beats.clear();
    unsigned reqs0 = t.reqs, drops0 = t.drops;
    Bytes cut = bridge_burst(0, 457, 0x6000, w8, s8);
    cut.resize(TG_BRIDGE_OFF_WORDS + 8 * 8 - 1);
    t.src.push(gmii_wire(with_fcs(cut)));
    Bytes bad = with_fcs(bridge_burst(0, 458, 0x6000, w8, s8));
    bad[TG_BRIDGE_OFF_WORDS + 60] ^= 0x10;
    t.src.push(gmii_wire(bad));
    t.settle();
    TB_CHECK(t.out.frames.empty() && t.beats.empty() && t.reqs == reqs0 && t.drops == drops0 + 2,
             "short or corrupt burst: %zu answers, %zu beats, %u drops", t.out.frames.size(), t.beats.size(),
             t.drops - drops0);
    // a burst arriving while one executes is dropped and leaves the
    // executing burst's words as they were
    std::vector<uint64_t> wb = {21, 22, 23, 24, 25, 26, 27, 28};
    t.src.push(gmii_wire(with_fcs(bridge_burst(0, 459, 0x7000, w8, s8))));
    t.src.push(gmii_wire(with_fcs(bridge_burst(0, 460, 0x7000, wb, s8))));
    t.settle();
    TB_CHECK(t.out.frames.size() == 1 && t.beats.size() == 8, "two bursts back to back: %zu answers, %zu beats",
             t.out.frames.size(), t.beats.size());
    for (unsigned i = 0; i < t.beats.size(); i++)
        TB_CHECK(t.beats[i].data == w8[i], "burst word %u overwritten: %llx", i, (unsigned long long)t.beats[i].data);
    t.out.frames.clear();

    // broadcast destination is answered
    Bytes f = bridge_request(0, msg(TG_BRIDGE_OP_MEM_READ, 80, 0));
    for (unsigned i = 0; i < 6; i++) f[i] = 0xFF;
    t.src.push(gmii_wire(with_fcs(f)));
    t.settle();
    TB_CHECK(t.out.frames.size() == 1, "broadcast request unanswered");
    t.out.frames.clear();

    // frames that get no answer
    unsigned reqs = t.reqs, drops = t.drops;
    Bytes good = with_fcs(bridge_request(0, msg(TG_BRIDGE_OP_BAR_WRITE, 90, 0x2000, 1)));
    Bytes badfcs = good;
    badfcs[20] ^= 1;
    t.src.push(gmii_wire(badfcs));
    t.src.push(gmii_wire(with_fcs(bridge_request(0, msg(TG_BRIDGE_OP_BAR_WRITE, 91, 0x2000, 1), 0x88B5))));
    Bytes other = bridge_request(0, msg(TG_BRIDGE_OP_BAR_WRITE, 92, 0x2000, 1));
    other[5] ^= 1;
    t.src.push(gmii_wire(with_fcs(other)));
    Bytes shortf = bridge_request(0, msg(TG_BRIDGE_OP_BAR_WRITE, 93, 0x2000, 1));
    shortf.resize(TG_BRIDGE_OFF_DATA + 4);
    t.src.push(gmii_wire(with_fcs(shortf)));
    t.src.push(gmii_wire(good), 30);   // rx_er inside
    t.settle();
    TB_CHECK(t.out.frames.empty() && !t.bar.count(0x2000), "a bad frame was executed");
    TB_CHECK(t.reqs == reqs && t.drops == drops + 3, "drops %u (bad FCS, short, rx_er count)", t.drops - drops);

    // a request arriving while one executes is dropped; the first completes
    t.src.gap = 12;
    t.src.push(gmii_wire(with_fcs(bridge_request(0, msg(TG_BRIDGE_OP_BAR_READ, 100, 0x1230)))));
    t.src.push(gmii_wire(with_fcs(bridge_request(0, msg(TG_BRIDGE_OP_BAR_READ, 101, 0x1230)))));
    t.settle();
    TB_CHECK(t.out.frames.size() >= 1, "no answer to the first of two");
    TB_CHECK(t.out.bad == 0 && t.out.min_gap >= 12, "response frames: %u bad, gap %u", t.out.bad, t.out.min_gap);
    return tb_finish("tg_bridge");
}
