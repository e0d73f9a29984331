// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the FPGA node: two nodes (ids 1 and 2) with their network
// GMII ports crossed, each host port driven by the bench with bridge
// frames. Remote writes, reads, fences and a fetch-and-add from node 1 to
// node 2's block RAM, checked through node 2's bridge; write bursts of 2
// to 8 words, each one request and one frame on the network; bridge refusals;
// then the line rate: the bench sends node 2 write frames back to back at
// the GbE frame rate (12-byte gaps), shortest and longest, and every one
// must land without a drop; a write with a bit flipped after its FCS was
// made and one with rx_er are dropped (the MAC marks them, the core counts
// them under RX_DROP_FCS) and write nothing.
// The NIC core runs on its own clock, 5 times slower than the GMII clock
// (the Colorlight top runs it 3 times slower), so its edges fall on
// either edge of that clock. Built a second time with TB_ONE_CLOCK=1
// against the node with ONE_CLOCK=1: the core on the GMII clock itself,
// its buses joined without crossings.
// With --bench it measures instead, with the core clock 3 times slower as
// on the Colorlight board, how long each kind of bridge request takes from
// its first preamble byte into the bridge to its response's last byte out,
// and prints a table (make bench-fpga).
#include "Vtg_fpga_node.h"
typedef Vtg_fpga_node NodeTop;
static const char *const NAME = "tg_fpga_node";
#include "verilated.h"
#include "gmii.hpp"

#include <memory>

struct Node {
    std::unique_ptr<NodeTop> m;
    uint16_t id;
    GmiiSource host_tx;
    GmiiSink host_rx;
    GmiiSink net_mon;
    GmiiSource net_inj;   // frames the bench puts on this node's network input
    unsigned drops = 0;   // ev_drop pulses
    uint8_t n_txd = 0, n_en = 0, n_er = 0;
    uint16_t seq = 1;
    explicit Node(uint16_t i) : m(new NodeTop), id(i) {}
};

#ifndef TB_ONE_CLOCK
#define TB_ONE_CLOCK 0
#endif

// core_clk's half period in half periods of clk: its period in clk periods
static const unsigned CORE_HALF = TB_ONE_CLOCK ? 1 : 5;

struct Tb {
    Node a{1}, b{2};
    uint64_t cyc = 0;
    unsigned core_half = CORE_HALF;
    uint64_t last_cycles = 0;   // the last call's, request in to response out

    uint8_t core_clk_at(unsigned half_step) const
    {
        if (TB_ONE_CLOCK) return half_step == 0;   // clk itself
        return ((2 * cyc + half_step) / core_half) % 2 == 0;
    }

    void tick()
    {
        Node *ns[2] = {&a, &b};
        for (int i = 0; i < 2; i++) {
            Node &n = *ns[i], &o = *ns[1 - i];
            NodeTop &v = *n.m;
            v.cfg_node_id = n.id;
            v.rst = cyc < 64;
            if (n.net_inj.busy()) {
                uint8_t dv, er, d;
                n.net_inj.next(dv, er, d);
                v.net_rxd = d, v.net_rx_dv = dv, v.net_rx_er = er;
            } else {
                v.net_rxd = o.n_txd;
                v.net_rx_dv = o.n_en;
                v.net_rx_er = o.n_er;
            }
            uint8_t dv, er, d;
            n.host_tx.next(dv, er, d);
            v.host_rxd = d;
            v.host_rx_dv = dv;
            v.host_rx_er = er;
        }
        for (Node *n : ns) {
            n->m->clk = 1;
            n->m->net_rx_clk = 1;
            n->m->host_rx_clk = 1;
            n->m->core_clk = core_clk_at(0);
            n->m->eval();
        }
        for (Node *n : ns) {
            NodeTop &v = *n->m;
            n->n_txd = v.net_txd, n->n_en = v.net_tx_en, n->n_er = v.net_tx_er;
            n->net_mon.sample(v.net_tx_en, v.net_tx_er, v.net_txd);
            n->host_rx.sample(v.host_tx_en, v.host_tx_er, v.host_txd);
            v.clk = 0;
            v.net_rx_clk = 0;
            v.host_rx_clk = 0;
            v.core_clk = core_clk_at(1);
            v.eval();
            n->drops += v.ev_drop;
        }
        cyc++;
    }

    bool call(Node &n, uint8_t op, uint64_t addr, uint64_t data, uint8_t strb, BridgeMsg &r)
    {
        BridgeMsg q;
        q.op = op, q.seq = n.seq++, q.addr = addr, q.data = data, q.strb = strb;
        // BRIDGE_MAC is the node's default: 02:54:47:01:00:00
        return call(n, bridge_request(0, q), r);
    }
    bool call(Node &n, const Bytes &req, BridgeMsg &r)
    {
        BridgeMsg q = bridge_fields(req);
        uint8_t op = q.op;
        uint64_t start = cyc;
        n.host_tx.push(gmii_wire(with_fcs(req)));
        for (unsigned i = 0; i < 20000 && n.host_rx.frames.empty(); i++) tick();
        last_cycles = cyc - start;
        TB_CHECK(!n.host_rx.frames.empty(), "node %u: no response to op %u", n.id, op);
        if (n.host_rx.frames.empty()) return false;
        Bytes f = n.host_rx.frames.front();
        n.host_rx.frames.pop_front();
        bool ok = bridge_response(0, f, r);
        TB_CHECK(ok, "malformed response");
        TB_CHECK(r.op == (op | TG_BRIDGE_OP_RESP) && r.seq == q.seq, "response op %02x", r.op);
        return ok;
    }
    uint64_t rd(Node &n, uint8_t op, uint64_t addr, uint8_t want = TG_BRIDGE_ST_OK)
    {
        BridgeMsg r;
        if (!call(n, op, addr, 0, 0, r)) return ~0ull;
        TB_CHECK(r.strb == want, "status %u at %llx, expected %u", r.strb, (unsigned long long)addr, want);
        return r.data;
    }
    void wr(Node &n, uint8_t op, uint64_t addr, uint64_t data, uint8_t strb = 0xFF,
            uint8_t want = TG_BRIDGE_ST_OK)
    {
        BridgeMsg r;
        if (call(n, op, addr, data, strb, r))
            TB_CHECK(r.strb == want, "write status %u at %llx", r.strb, (unsigned long long)addr);
    }
};

// One row of the bridge table: cycles of clk for `reqs` requests in all.
static void row(const char *what, unsigned reqs, uint64_t cycles)
{
    std::printf("%-44s %8u %10llu %10.2f\n", what, reqs, (unsigned long long)cycles, cycles * 8.0 / 1000.0);
}

// Bridge requests of each kind from node 1 (a) to node 2 (b), each timed
// from its first byte into the bridge to its response's last byte out.
static int bench(Tb &t, TbRng &rng)
{
    const uint64_t rw = bar_addr(TG_WIN_REMOTE, 0, 2, 0x400);
    BridgeMsg r;
    uint64_t c;
    std::printf("bridge requests, %s; cycles of the 125 MHz clock, the wire's byte times included\n",
                TB_ONE_CLOCK ? "core on the GMII clock" : "core clock 3 times slower");
    std::printf("%-44s %8s %10s %10s\n", "operation", "requests", "cycles", "us");
    t.rd(t.a, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_ID);
    row("BAR read of a CSR (ID)", 1, t.last_cycles);
    t.wr(t.a, TG_BRIDGE_OP_MEM_WRITE, 0x100, 1);
    row("host-memory write, 1 word", 1, t.last_cycles);
    t.rd(t.a, TG_BRIDGE_OP_MEM_READ, 0x100);
    row("host-memory read, 1 word", 1, t.last_cycles);
    t.wr(t.a, TG_BRIDGE_OP_BAR_WRITE, rw, 7);
    row("remote write, 1 word (answered when taken)", 1, t.last_cycles);
    t.rd(t.a, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_SYNC, 0, 2, 0));
    row("fence (read of the sync window)", 1, t.last_cycles);
    t.rd(t.a, TG_BRIDGE_OP_BAR_READ, rw);
    row("remote read, 1 word", 1, t.last_cycles);
    t.wr(t.a, TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CTX_BASE + TG_CTX_REG_OPERAND, 1);
    t.rd(t.a, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_FAA, 0, 2, 0x800));
    row("fetch-and-add (operand already set)", 1, t.last_cycles);
    c = 0;
    for (unsigned i = 0; i < 8; i++) {
        t.wr(t.a, TG_BRIDGE_OP_BAR_WRITE, rw + 8 * i, rng.next());
        c += t.last_cycles;
    }
    row("remote write, 64 bytes as 8 single words", 8, c);
    std::vector<uint64_t> w(8);
    for (auto &x : w) x = rng.next();
    if (t.call(t.a, bridge_burst(0, t.a.seq++, rw, w, std::vector<uint8_t>(8, 0xFF)), r))
        TB_CHECK(r.strb == TG_BRIDGE_ST_OK, "burst status %u", r.strb);
    row("remote write, 64 bytes as one burst", 1, t.last_cycles);
    t.rd(t.a, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_SYNC, 0, 2, 0));
    for (unsigned i = 0; i < 8; i++)
        TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_MEM_READ, 0x400 + 8 * i) == w[i], "burst word %u", i);
    return tb_finish("tg_fpga_node bench");
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    TbRng rng(7);
    bool bench_mode = argc > 1 && !std::strcmp(argv[argc - 1], "--bench");
    if (bench_mode && !TB_ONE_CLOCK) t.core_half = 3;   // the Colorlight's 125 / 41.67 MHz
    // past the reset, and the 256 core cycles in which each receive engine
    // clears its block table (frames arriving then wait, and a backlog of
    // them would be dropped by the MAC)
    for (unsigned i = 0; i < 200 + 256 * CORE_HALF; i++) t.tick();

    const uint64_t MEM_SIZE = 1u << 14;   // the node's default MEM_LOG2
    t.wr(t.b, TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CSR_BASE + TG_CSR_REG_MEM_SIZE, MEM_SIZE);
    TB_CHECK(t.rd(t.a, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_NODE_ID) == 1, "node id a");
    TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_NODE_ID) == 2, "node id b");
    if (bench_mode) return bench(t, rng);

    // remote writes from a into b's memory, with byte enables (one run of
    // bytes: the wire's form)
    uint64_t ref[16] = {0};
    for (unsigned k = 0; k < 16; k++) {
        uint64_t v = rng.next();
        unsigned lo = (unsigned)rng.below(8), n = 1 + (unsigned)rng.below(8 - lo);
        uint8_t strb = (k % 3) ? 0xFF : (uint8_t)(((1u << n) - 1) << lo);
        t.wr(t.a, TG_BRIDGE_OP_BAR_WRITE, bar_addr(TG_WIN_REMOTE, 0, 2, 0x400 + 8 * k), v, strb);
        ref[k] = strb_merge(ref[k], v, strb);
    }
    TB_CHECK(t.rd(t.a, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_SYNC, 0, 2, 0)) == 0, "fence");
    for (unsigned k = 0; k < 16; k++) {
        uint64_t got = t.rd(t.b, TG_BRIDGE_OP_MEM_READ, 0x400 + 8 * k);
        TB_CHECK(got == ref[k], "word %u in b's memory: %016llx, expected %016llx", k, (unsigned long long)got,
                 (unsigned long long)ref[k]);
        if (k % 5 == 0)
            TB_CHECK(t.rd(t.a, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_REMOTE, 0, 2, 0x400 + 8 * k)) == ref[k],
                     "remote read of word %u", k);
    }

    // bursts of 2 to 8 words from a into b's memory: one bridge request
    // each, its beats crossing into the core with last on the final one,
    // so each is one write frame, sent without waiting for a's next request
    // (b's memory is read through b's bridge while a's host port is idle)
    for (unsigned k = 0; k < 8; k++) {
        unsigned n = 2 + k % 7, o = (unsigned)rng.below(9 - n);
        std::vector<uint64_t> w(n);
        std::vector<uint8_t> st(n, 0xFF);
        for (unsigned i = 0; i < n; i++) w[i] = rng.next();
        uint64_t f0 = t.rd(t.a, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_TX_FRAMES);
        BridgeMsg r;
        uint32_t pa = 0xC00 + 64 * k + 8 * o;
        if (t.call(t.a, bridge_burst(0, t.a.seq++, bar_addr(TG_WIN_REMOTE, 0, 2, pa), w, st), r))
            TB_CHECK(r.strb == TG_BRIDGE_ST_OK, "burst of %u: status %u", n, r.strb);
        for (unsigned i = 0; i < 1000; i++) t.tick();
        for (unsigned i = 0; i < n; i++) {
            uint64_t got = t.rd(t.b, TG_BRIDGE_OP_MEM_READ, pa + 8 * i);
            TB_CHECK(got == w[i], "burst of %u, word %u in b's memory: %016llx, expected %016llx", n, i,
                     (unsigned long long)got, (unsigned long long)w[i]);
        }
        uint64_t f1 = t.rd(t.a, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_TX_FRAMES);
        TB_CHECK((uint16_t)(f1 - f0) == 1, "burst of %u: %llu frames sent", n,
                 (unsigned long long)(uint16_t)(f1 - f0));
    }

    // fetch-and-add on b's memory from a
    t.wr(t.b, TG_BRIDGE_OP_MEM_WRITE, 0x800, 1000);
    t.wr(t.a, TG_BRIDGE_OP_BAR_WRITE, TG_CTRL_CTX_BASE + TG_CTX_REG_OPERAND, 5);
    for (unsigned k = 0; k < 3; k++)
        TB_CHECK(t.rd(t.a, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_FAA, 0, 2, 0x800)) == 1000 + 5 * k, "FAA %u", k);
    TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_MEM_READ, 0x800) == 1015, "FAA result");

    // a's MEM_SIZE is still 0: a remote read of a's memory is refused
    t.rd(t.b, TG_BRIDGE_OP_BAR_READ, bar_addr(TG_WIN_REMOTE, 0, 1, 0x0));
    TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CTX_BASE + TG_CTX_REG_LAST_STATUS) == TG_ST_RANGE,
             "refused remote read");

    // bridge refusals
    t.rd(t.a, TG_BRIDGE_OP_MEM_READ, MEM_SIZE, TG_BRIDGE_ST_RANGE);
    t.rd(t.a, TG_BRIDGE_OP_MEM_READ, 0x404, TG_BRIDGE_ST_RANGE);
    t.rd(t.a, TG_BRIDGE_OP_BAR_READ, 1ull << 47, TG_BRIDGE_ST_RANGE);
    t.rd(t.a, 9, 0, TG_BRIDGE_ST_BAD_OP);

    // line rate into node 2: 48 shortest writes (8 bytes, 94 byte times on
    // the wire with preamble and gap), then 16 longest (64 bytes, 150)
    unsigned drops0 = t.b.drops;
    uint64_t lr[64];
    for (unsigned k = 0; k < 64; k++) {
        struct tg_frame_hdr h = {};
        uint8_t buf[TG_MAX_FRAME_BYTES], pay[TG_MAX_PAYLOAD];
        h.ver = TG_PROTO_VERSION, h.op = TG_OP_WRITE, h.src = 1, h.dst = 2;
        h.len = k < 48 ? 8 : 64;
        h.off = 0, h.cnt = h.len;
        h.addr = 0x1000 + 64 * k;
        for (unsigned i = 0; i < h.len; i++) pay[i] = (uint8_t)rng.next();
        std::memcpy(&lr[k], pay + h.len - 8, 8);
        size_t n = tg_frame_encode(buf, &h, pay);
        t.b.net_inj.push(gmii_wire(Bytes(buf, buf + n)));
    }
    uint64_t lr_start = t.cyc;
    while (t.b.net_inj.busy()) t.tick();
    uint64_t lr_cycles = t.cyc - lr_start;
    for (unsigned i = 0; i < 2000; i++) t.tick();
    TB_CHECK(t.b.drops == drops0, "%u frames dropped at line rate", t.b.drops - drops0);
    for (unsigned k = 0; k < 64; k++) {
        uint64_t a = 0x1000 + 64 * k + (k < 48 ? 0 : 56);
        uint64_t got = t.rd(t.b, TG_BRIDGE_OP_MEM_READ, a);
        TB_CHECK(got == lr[k], "line-rate write %u: %016llx, expected %016llx", k, (unsigned long long)got,
                 (unsigned long long)lr[k]);
    }
    if (TB_ONE_CLOCK)
        std::printf("%s: 64 writes at line rate in %llu cycles, core on the GMII clock\n", NAME,
                    (unsigned long long)lr_cycles);
    else
        std::printf("%s: 64 writes at line rate in %llu cycles, core clock %u times slower\n", NAME,
                    (unsigned long long)lr_cycles, CORE_HALF);

    TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_RX_DROP_FCS) == 0, "FCS drops");

    // a corrupted write and one with rx_er: dropped, counted, nothing written
    for (unsigned k = 0; k < 2; k++) {
        struct tg_frame_hdr h = {};
        uint8_t buf[TG_MAX_FRAME_BYTES], pay[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        h.ver = TG_PROTO_VERSION, h.op = TG_OP_WRITE, h.src = 1, h.dst = 2;
        h.len = 8, h.off = 0, h.cnt = 8, h.addr = 0x3000;
        size_t n = tg_frame_encode(buf, &h, pay);
        Bytes f(buf, buf + n);
        if (k == 0) f[TG_PAYLOAD_OFF + 3] ^= 0x08;
        t.b.net_inj.push(gmii_wire(f), k == 1 ? 8 + TG_PAYLOAD_OFF + 2 : -1);
    }
    while (t.b.net_inj.busy()) t.tick();
    for (unsigned i = 0; i < 500; i++) t.tick();
    TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_BAR_READ, TG_CTRL_CSR_BASE + TG_CSR_REG_RX_DROP_FCS) == 2,
             "FCS drops after two bad frames");
    TB_CHECK(t.rd(t.b, TG_BRIDGE_OP_MEM_READ, 0x3000) == 0, "a bad frame wrote memory");

    TB_CHECK(t.a.net_mon.bad == 0 && t.b.net_mon.bad == 0, "bad frames on the network");
    TB_CHECK(t.a.net_mon.min_gap >= 12 && t.b.net_mon.min_gap >= 12, "inter-frame gap");
    std::printf("%s: %llu cycles, %zu + %zu frames on the network\n", NAME, (unsigned long long)t.cyc,
                t.a.net_mon.frames.size(), t.b.net_mon.frames.size());
    return tb_finish(NAME);
}
