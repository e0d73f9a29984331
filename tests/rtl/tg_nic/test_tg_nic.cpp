// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the NIC core with its network port looped back (the node
// talks to itself) through a model of the MAC, which appends the FCS to
// each frame sent and checks and removes it from each frame received: CSRs, write bursts of every shape, blocking reads,
// fetches, fences, blocking and non-blocking atomics, refusals, and every
// kind of bad frame, under random memory wait states and stream
// backpressure, against a reference memory.  Built a second time with
// TB_BLOCK=16 TB_SPILL=0 against the core with BLOCK_BYTES=16 and no spill
// ring (SPILL_RING=0): the same traffic in 16-byte blocks, longer frames
// and requests refused, and REQs waiting at the host port as with a ring
// switched off. TB_REQ_SLOTS=1 for a core with one REQ slot (MAX_REQS=1):
// one REQ at a time is refused by a full queue, the next waits at the host
// port.
#include "Vtg_nic.h"
typedef Vtg_nic Nic;
static const char *const NAME = "tg_nic";
#include "verilated.h"
#include "tb.hpp"

#include <cstring>
#include <algorithm>
#include <memory>
#include <string>

#ifndef TB_BLOCK
#define TB_BLOCK 64
#endif
#ifndef TB_SPILL
#define TB_SPILL 1     // the core's SPILL_RING
#endif
#ifndef TB_REQ_SLOTS
#define TB_REQ_SLOTS 4   // the core's MAX_REQS
#endif
static const unsigned NODE = 5;
static const unsigned BLK = TB_BLOCK;   // the core's BLOCK_BYTES
static const uint32_t MEM_BYTES = 1u << 20;

struct Beat {
    bool write;
    uint64_t addr;
    uint64_t wdata;
    uint8_t wstrb;
    bool last;
};

static uint64_t bar(unsigned win, unsigned ctx, unsigned node, uint32_t paddr)
{
    return ((uint64_t)win << TG_BAR_WIN_SHIFT) | ((uint64_t)ctx << TG_BAR_CTX_SHIFT) |
           ((uint64_t)node << TG_BAR_NODE_SHIFT) | paddr;
}
static uint64_t csr(uint64_t reg) { return TG_CTRL_CSR_BASE + reg; }
static uint64_t ctxreg(unsigned c, uint64_t reg) { return TG_CTRL_CTX_BASE + c * TG_PAGE_SIZE + reg; }


struct Tb {
    std::unique_ptr<Nic> m;
    TbRng rng;
    MemModel mem;
    AxisSink tx;
    AxisSource rx;
    std::deque<Beat> hq;
    std::deque<uint64_t> resps;
    uint64_t cyc = 0;
    uint64_t tx_frames = 0;
    unsigned host_gap_pct = 0, resp_stall_pct = 0;
    bool loopback = true;
    uint32_t skip = 0;         // ff_skip of the next edge
    uint64_t idle_cycles = 0;  // edges after which ff_idle was high
    uint64_t wait_cycles = 0;  // ... ff_wait high and ff_idle low

    Tb(uint64_t seed) : m(new Nic), rng(seed), mem(MEM_BYTES) {}

    void tick()
    {
        Nic &n = *m;
        n.cfg_node_id = NODE;
        n.cfg_clock_khz = 41667;
        bool show = !hq.empty() && !rng.chance(host_gap_pct);
        n.s_host_req_valid = show;
        if (show) {
            const Beat &b = hq.front();
            n.s_host_req_write = b.write;
            n.s_host_req_addr = b.addr;
            n.s_host_req_wdata = b.wdata;
            n.s_host_req_wstrb = b.wstrb;
            n.s_host_req_last = b.last;
        }
        n.m_host_resp_ready = !rng.chance(resp_stall_pct);
        uint64_t rdata = 0;
        n.s_mem_resp_valid = mem.resp(cyc, rdata);
        n.s_mem_resp_rdata = rdata;
        n.m_mem_req_ready = mem.pick_ready(rng);
        n.m_axis_tx_tready = tx.pick_ready(rng);
        rx.drive(n.s_axis_rx_tdata, n.s_axis_rx_tkeep, n.s_axis_rx_tvalid, n.s_axis_rx_tlast,
                 n.s_axis_rx_tuser, rng);
        n.clk = 0;
        n.eval();

        if (show && n.s_host_req_ready) hq.pop_front();
        if (n.m_host_resp_valid && n.m_host_resp_ready) resps.push_back(n.m_host_resp_rdata);
        mem.request(cyc, n.m_mem_req_valid, n.m_mem_req_write, n.m_mem_req_addr,
                    n.m_mem_req_wdata, n.m_mem_req_wstrb, rng);
        tx.sample(n.m_axis_tx_tdata, n.m_axis_tx_tkeep, n.m_axis_tx_tvalid, n.m_axis_tx_tlast);
        rx.advance(n.s_axis_rx_tvalid && n.s_axis_rx_tready);

        n.ff_skip = skip;
        n.clk = 1;
        n.eval();
        cyc++;
        // idle: nothing offered on any port, every request taken in
        if (n.ff_idle) {
            idle_cycles++;
            TB_CHECK(!n.m_mem_req_valid && !n.m_axis_tx_tvalid && !n.m_host_resp_valid &&
                     n.s_host_req_ready && n.s_axis_rx_tready, "ff_idle with a port busy at cycle %llu",
                     (unsigned long long)cyc);
        }
        // waiting at the network port: the other ports are quiet
        TB_CHECK(!n.ff_idle || n.ff_wait, "ff_idle without ff_wait at cycle %llu", (unsigned long long)cyc);
        if (n.ff_wait && !n.ff_idle) {
            wait_cycles++;
            TB_CHECK(!n.m_mem_req_valid && !n.m_host_resp_valid && n.s_host_req_ready,
                     "ff_wait with a host or memory port busy at cycle %llu", (unsigned long long)cyc);
        }

        while (!tx.frames.empty()) {
            Bytes f = with_fcs(tx.frames.front());   // the MAC appends the FCS
            tx.frames.pop_front();
            tx_frames++;
            tg_frame_hdr h;
            TB_CHECK(tg_frame_decode(f.data(), f.size(), &h) == 0, "frame %zu bytes fails decode", f.size());
            TB_CHECK(f.size() == (size_t)tg_frame_bytes(h.op, h.len) + TG_FCS_BYTES,
                     "frame size %zu, op %u, len %u", f.size(), h.op, h.len);
            TB_CHECK(h.src == NODE && h.ver == TG_PROTO_VERSION, "src %u ver %u", h.src, h.ver);
            if (getenv("TB_TRACE"))
                std::fprintf(stderr, "cyc %llu frame op %u flags %u status %u dst %u addr %llx len %u tag %x\n",
                             (unsigned long long)cyc, h.op, h.flags, h.status, h.dst,
                             (unsigned long long)h.addr, h.len, h.tag);
            if (loopback) rx.push_mac(f);
        }
    }

    // Reset the NIC together with its memory bus (no stale responses).
    void reset()
    {
        m->rst = 1;
        for (int i = 0; i < 4; i++) {
            mem.q.clear();
            tick();
        }
        mem.q.clear();
        m->rst = 0;
    }

    // Run until nothing has moved on any port for 300 cycles.
    void run_until_idle(uint64_t limit = 200000)
    {
        uint64_t end = cyc + limit, quiet = 0;
        while (cyc < end && quiet < 300) {
            uint64_t before = activity();
            tick();
            quiet = (activity() == before && hq.empty() && rx.idle() && mem.q.empty()) ? quiet + 1 : 0;
        }
        TB_CHECK(cyc < end, "did not go idle");
    }
    uint64_t activity() const { return mem.reads + mem.writes + tx_frames + tx.cur.size(); }

    uint64_t read(uint64_t addr)
    {
        size_t before = resps.size();
        hq.push_back(Beat{false, addr, 0, 0, true});
        uint64_t end = cyc + 100000;
        while (resps.size() == before && cyc < end) tick();
        TB_CHECK(resps.size() > before, "no response to read of %llx", (unsigned long long)addr);
        if (resps.size() == before) return ~0ull;
        uint64_t v = resps.back();
        resps.clear();
        return v;
    }

    void write(uint64_t addr, uint64_t data, uint8_t strb = 0xFF)
    {
        hq.push_back(Beat{true, addr, data, strb, true});
    }
};

// Reference memory, updated as the host issues writes.
struct Ref {
    std::vector<uint8_t> mem = std::vector<uint8_t>(MEM_BYTES, 0);
    uint64_t load64(uint32_t a) const
    {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++) v |= (uint64_t)mem[a + i] << (8 * i);
        return v;
    }
};

static unsigned cfg_no;

static void check_mem(Tb &tb, const Ref &ref, const char *what)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < MEM_BYTES; i++)
        if (tb.mem.mem[i] != ref.mem[i] && bad++ == 0) first = i;
    TB_CHECK(bad == 0, "config %u, %s: %zu bytes differ, first at %zx (%02x, want %02x)", cfg_no, what, bad, first,
             tb.mem.mem[first], ref.mem[first]);
}

// A write burst of `beats` words starting at word `w0` of block `blk`, with
// random strobes (holes allowed), issued through the remote window.
static void random_burst(Tb &tb, Ref &ref, uint32_t region, uint32_t region_len)
{
    uint32_t blk = region + BLK * tb.rng.below(region_len / BLK);
    unsigned w0 = tb.rng.below(BLK / 8);
    unsigned beats = 1 + tb.rng.below(BLK / 8 - w0);
    // the byte enables of a burst are one run (the host port refuses holes)
    unsigned lo = tb.rng.below(4) ? 0 : tb.rng.below(8 * beats);
    unsigned hi = tb.rng.below(4) ? 8 * beats : lo + tb.rng.below(8 * beats - lo + 1);
    for (unsigned i = 0; i < beats; i++) {
        uint32_t a = blk + 8 * (w0 + i);
        uint64_t d = tb.rng.next();
        uint8_t s = 0;
        for (unsigned b = 0; b < 8; b++)
            s |= (uint8_t)((8 * i + b >= lo && 8 * i + b < hi) << b);
        for (unsigned b = 0; b < 8; b++)
            if (s & (1u << b)) ref.mem[a + b] = (uint8_t)(d >> (8 * b));
        tb.hq.push_back(Beat{true, bar(TG_WIN_REMOTE, 1, NODE, a), d, s, i == beats - 1});
    }
}

static void fetch(Tb &tb, Ref &ref, unsigned ctx, uint32_t raddr, uint32_t laddr, unsigned len, uint32_t cpl)
{
    tb.mem.mem[cpl] = 0; // completion word cleared by the host
    std::memset(&ref.mem[cpl], 0, 8);
    std::memset(&tb.mem.mem[cpl], 0, 8);
    tb.write(ctxreg(ctx, TG_CTX_REG_FETCH_LADDR), laddr);
    tb.write(ctxreg(ctx, TG_CTX_REG_FETCH_CPL), cpl);
    tb.write(ctxreg(ctx, TG_CTX_REG_FETCH_GO),
             raddr | ((uint64_t)NODE << 32) | ((uint64_t)len << 48));
    uint64_t end = tb.cyc + 100000;
    while (tb.mem.load64(cpl) == 0 && tb.cyc < end) tb.tick();
    uint64_t w = tb.mem.load64(cpl);
    TB_CHECK(w == TG_FETCH_CPL_DONE, "fetch completion word %llx", (unsigned long long)w);
    for (unsigned i = 0; i < len; i++) ref.mem[laddr + i] = ref.mem[raddr + i];
    ref.mem[cpl] = (uint8_t)TG_FETCH_CPL_DONE;
}

static void random_phase(Tb &tb, Ref &ref, unsigned ops)
{
    const uint32_t region = 0x1000, region_len = 0x4000;
    for (unsigned op = 0; op < ops; op++) {
        unsigned kind = tb.rng.below(10);
        if (kind < 6) {
            random_burst(tb, ref, region, region_len);
        } else if (kind < 8) {
            uint32_t a = region + 8 * tb.rng.below(region_len / 8);
            uint64_t v = tb.read(bar(TG_WIN_REMOTE, 2, NODE, a));
            TB_CHECK(v == ref.load64(a), "read %x = %016llx, want %016llx", a,
                     (unsigned long long)v, (unsigned long long)ref.load64(a));
        } else if (kind < 9) {
            uint64_t v = tb.read(bar(TG_WIN_SYNC, 1, NODE, 0));
            TB_CHECK(v == TG_ST_OK, "fence status %llu", (unsigned long long)v);
        } else {
            unsigned len = 1 + tb.rng.below(BLK);
            uint32_t blk = region + BLK * tb.rng.below(region_len / BLK);
            unsigned off = tb.rng.below(BLK - len + 1);
            uint32_t raddr = blk + off;
            uint32_t laddr = 0x8000 + 64 * tb.rng.below(64) + 8 * tb.rng.below(8) + (raddr & 7);
            fetch(tb, ref, tb.rng.below(16), raddr, laddr, len, 0xC000 + 8 * tb.rng.below(16));
        }
    }
    tb.run_until_idle();
    check_mem(tb, ref, "after random traffic");
}

// Every write size 1..BLK at every alignment, written through bursts of
// single-byte-granular strobes, then read back with fetches.
static void sizes_phase(Tb &tb, Ref &ref)
{
    uint32_t base = 0x20000;
    for (unsigned len = 1; len <= BLK; len++) {
        for (unsigned al = 0; al < 8; al++) {
            uint32_t a = base + 64 * ((len * 8 + al) % 512);
            uint32_t start = a + al;
            if ((start & (BLK - 1)) + len > BLK) start = a + (BLK - len > al ? al : 0);
            unsigned w0 = (start & (BLK - 1)) / 8, w1 = ((start & (BLK - 1)) + len - 1) / 8;
            for (unsigned w = w0; w <= w1; w++) {
                uint64_t d = tb.rng.next();
                uint8_t s = 0;
                for (unsigned b = 0; b < 8; b++) {
                    uint32_t x = (a & ~63u) + 8 * w + b;
                    if (x >= start && x < start + len) {
                        s |= (uint8_t)(1u << b);
                        ref.mem[x] = (uint8_t)(d >> (8 * b));
                    }
                }
                tb.hq.push_back(Beat{true, bar(TG_WIN_REMOTE, 0, NODE, (a & ~63u) + 8 * w), d, s, w == w1});
            }
        }
    }
    tb.run_until_idle();
    check_mem(tb, ref, "after every size and alignment");
}

static void error_phase(Tb &tb, Ref &ref)
{
    uint64_t refused0 = tb.read(csr(TG_CSR_REG_RX_REFUSED));
    uint64_t herr0 = tb.read(csr(TG_CSR_REG_HOST_ERRORS));

    // remote read past the exported memory: all ones and a sticky status
    uint64_t v = tb.read(bar(TG_WIN_REMOTE, 3, NODE, MEM_BYTES));
    TB_CHECK(v == ~0ull, "read past the end gave %llx", (unsigned long long)v);
    TB_CHECK(tb.read(ctxreg(3, TG_CTX_REG_STATUS)) == TG_ST_RANGE, "status after range error");
    tb.write(ctxreg(3, TG_CTX_REG_STATUS), 0);
    TB_CHECK(tb.read(ctxreg(3, TG_CTX_REG_STATUS)) == TG_ST_OK, "status after clear");

    // a burst straddling the end of the exported memory is refused whole,
    // and so is one wholly past it; memory is unchanged
    tb.write(csr(TG_CSR_REG_MEM_SIZE), MEM_BYTES - 32);
    for (unsigned w = 0; w < 8; w++)
        tb.hq.push_back(Beat{true, bar(TG_WIN_REMOTE, 0, NODE, MEM_BYTES - 64 + 8 * w), ~0ull, 0xFF, w == 7});
    tb.hq.push_back(Beat{true, bar(TG_WIN_REMOTE, 0, NODE, MEM_BYTES - 16), ~0ull, 0x01, true});
    tb.run_until_idle();
    tb.write(csr(TG_CSR_REG_MEM_SIZE), MEM_BYTES);
    // until context 0's fence reports the refusal, its writes there are
    // refused too, even inside memory
    tb.write(bar(TG_WIN_REMOTE, 0, NODE, 0x2000), 0x5a5a5a5a5a5a5a5aull);
    tb.run_until_idle();
    check_mem(tb, ref, "after refused write");
    // the read past the end, the two writes and the one held back
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_REFUSED)) == refused0 + 4, "refused counter");
    v = tb.read(bar(TG_WIN_SYNC, 0, NODE, 0));
    TB_CHECK(v == TG_ST_RANGE, "fence after refused writes: status %llu", (unsigned long long)v);
    TB_CHECK(tb.read(ctxreg(0, TG_CTX_REG_STATUS)) == TG_ST_RANGE, "status after the fence");
    tb.write(ctxreg(0, TG_CTX_REG_STATUS), 0);
    TB_CHECK(tb.read(bar(TG_WIN_SYNC, 0, NODE, 0)) == TG_ST_OK, "the refusal is reported once");
    tb.write(bar(TG_WIN_REMOTE, 0, NODE, 0x2000), 0x5a5a5a5a5a5a5a5aull);
    for (unsigned b = 0; b < 8; b++) ref.mem[0x2000 + b] = 0x5a;
    TB_CHECK(tb.read(bar(TG_WIN_SYNC, 0, NODE, 0)) == TG_ST_OK, "fence after the write");
    check_mem(tb, ref, "a write after the fence lands");

    // misaligned host access, unmapped window, bad fetch arguments
    tb.write(bar(TG_WIN_REMOTE, 0, NODE, 0x1003), 1);
    tb.write(bar(7, 0, NODE, 0x1000), 1);
    uint64_t sent = tb.tx_frames;
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_LADDR), 0x8001);
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_CPL), 0xC000);
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_GO), 0x1000 | ((uint64_t)NODE << 32) | (8ull << 48));
    tb.run_until_idle();
    TB_CHECK(tb.tx_frames == sent, "refused requests sent %llu frames", (unsigned long long)(tb.tx_frames - sent));
    TB_CHECK(tb.read(ctxreg(2, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "fetch misaligned status");
    // the first failure is kept: the misaligned store, not the bad window
    TB_CHECK(tb.read(ctxreg(0, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "misaligned store status");
    tb.write(ctxreg(0, TG_CTX_REG_STATUS), 0);
    tb.write(bar(TG_WIN_FINC, 0, NODE, 0x1000), 1);   // fetch-and-increment is a load only
    TB_CHECK(tb.read(ctxreg(0, TG_CTX_REG_STATUS)) == TG_ST_BAD_OP, "store to the FINC window status");
    TB_CHECK(tb.read(csr(TG_CSR_REG_HOST_ERRORS)) == herr0 + 4, "host error counter");
    check_mem(tb, ref, "after refused host requests");

    // a node that never answers: the read fails after READ_TIMEOUT cycles
    // (the loopback drops frames for other nodes), and the port recovers
    TB_CHECK(tb.read(csr(TG_CSR_REG_READ_TIMEOUT)) == TG_READ_TIMEOUT_RESET, "timeout reset value");
    const unsigned tmo = 500;
    tb.write(csr(TG_CSR_REG_READ_TIMEOUT), tmo);
    tb.write(ctxreg(4, TG_CTX_REG_STATUS), 0);
    uint64_t t0 = tb.cyc;
    TB_CHECK(tb.read(bar(TG_WIN_REMOTE, 4, NODE + 4, 0x1000)) == ~0ull, "read of a silent node");
    TB_CHECK(tb.cyc - t0 >= tmo && tb.cyc - t0 < tmo + 1500, "timed out after %llu cycles",
             (unsigned long long)(tb.cyc - t0));
    TB_CHECK(tb.read(ctxreg(4, TG_CTX_REG_STATUS)) == TG_ST_PEER_GONE, "status after timeout");
    TB_CHECK(tb.read(bar(TG_WIN_SYNC, 4, NODE + 4, 0)) == TG_ST_PEER_GONE, "fence to a silent node");
    TB_CHECK(tb.read(bar(TG_WIN_REMOTE, 4, NODE, 0x1000)) == ref.load64(0x1000), "read after timeouts");

    // fetches from a silent node: every table entry (and one more doorbell,
    // which waits for a free entry) completes with PEER_GONE, none hangs,
    // nothing is written but the completion words
    const unsigned nf = 9;
    for (unsigned i = 0; i < nf; i++) {
        uint32_t cpl = 0xD000 + 8 * i;
        std::memset(&tb.mem.mem[cpl], 0, 8);
        std::memset(&ref.mem[cpl], 0, 8);
        tb.write(ctxreg(4, TG_CTX_REG_FETCH_LADDR), 0xE000 + 64 * i);
        tb.write(ctxreg(4, TG_CTX_REG_FETCH_CPL), cpl);
        tb.write(ctxreg(4, TG_CTX_REG_FETCH_GO), 0x1000 | ((uint64_t)(NODE + 4) << 32) | (16ull << 48));
    }
    // (silence is longer than run_until_idle waits for: poll the words)
    uint64_t end = tb.cyc + 20000;
    while (tb.cyc < end && (tb.mem.load64(0xD000 + 8 * (nf - 1)) == 0 || !tb.hq.empty())) tb.tick();
    tb.run_until_idle();
    uint64_t want = TG_FETCH_CPL_DONE | ((uint64_t)TG_ST_PEER_GONE << 8);
    for (unsigned i = 0; i < nf; i++) {
        uint64_t w = tb.mem.load64(0xD000 + 8 * i);
        TB_CHECK(w == want, "silent fetch %u completion %llx", i, (unsigned long long)w);
        std::memcpy(&ref.mem[0xD000 + 8 * i], &want, 8);
    }
    check_mem(tb, ref, "after fetches that timed out");
    uint32_t cpl = 0xD100;
    fetch(tb, ref, 4, 0x1008, 0xE800, 24, cpl);   // a good fetch afterwards
    tb.write(csr(TG_CSR_REG_READ_TIMEOUT), TG_READ_TIMEOUT_RESET);
    tb.run_until_idle();
}

// a whole-block WRITE of 64 bytes to this node from node 9
static tg_frame_hdr write_hdr(uint64_t addr)
{
    tg_frame_hdr h{};
    h.ver = TG_PROTO_VERSION;
    h.op = TG_OP_WRITE;
    h.src = 9;
    h.dst = NODE;
    h.addr = addr;
    h.off = 0;
    h.cnt = 64;
    h.len = 64;
    return h;
}

static void bad_frames_phase(Tb &tb, Ref &ref)
{
    uint64_t fcs0 = tb.read(csr(TG_CSR_REG_RX_DROP_FCS));
    uint64_t type0 = tb.read(csr(TG_CSR_REG_RX_DROP_TYPE));
    uint64_t mal0 = tb.read(csr(TG_CSR_REG_RX_DROP_MALFORMED));
    uint64_t stray0 = tb.read(csr(TG_CSR_REG_RX_STRAY));
    uint64_t rx0 = tb.read(csr(TG_CSR_REG_RX_FRAMES));

    uint8_t payload[64];
    for (auto &b : payload) b = 0xA5;
    tg_frame_hdr h = write_hdr(0x3000);
    Bytes good = tb_frame(h, payload);

    Bytes f;
    f = good; f[70] ^= 0x10; tb.rx.push_mac(f);                   // bit flip
    f = good; f.back() ^= 0x01; tb.rx.push_mac(f);                // FCS byte flip
    tg_frame_hdr t = h; t.ver = 1; tb.rx.push_mac(tb_frame(t, payload));
    t = h; t.dst = NODE + 1; tb.rx.push_mac(tb_frame(t, payload));
    f = good; f[12] = 0x08; f[13] = 0x00;                                  // IPv4 EtherType, good FCS
    tb_refcs(f);
    tb.rx.push_mac(f);
    t = h; t.op = 0xF; tb.rx.push_mac(tb_frame(t, payload));        // unknown opcode
    t = h; t.len = 12; tb.rx.push_mac(tb_frame(t, payload));        // not a word multiple
    t = h; t.len = 64; { Bytes g = tb_frame(t, payload);                    // length field says 64, frame carries 56
      g.erase(g.begin() + TG_PAYLOAD_OFF + 56, g.end());
      tb.rx.push_mac(with_fcs(g)); }
    tb.rx.push_mac(with_fcs(Bytes(good.begin(), good.begin() + 40)));   // truncated header
    { Bytes g = good; g.insert(g.end() - 4, 80, 0x00);                      // oversized
      tb_refcs(g);
      tb.rx.push_mac(g); }
    t = h; t.op = TG_OP_READ_RESP; t.tag = TG_TAG_FETCH | 3;                // response nobody asked for
    tb.rx.push_mac(tb_frame(t, payload));
    t = h; t.op = TG_OP_READ_RESP; t.tag = 0x1234;
    tb.rx.push_mac(tb_frame(t, payload));
    tb.run_until_idle();

    check_mem(tb, ref, "after bad frames");
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_DROP_FCS)) == fcs0 + 2, "FCS drops");
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_DROP_TYPE)) == type0 + 3, "type drops");
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_DROP_MALFORMED)) == mal0 + 5, "malformed drops");
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_STRAY)) == stray0 + 2, "stray responses");
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_FRAMES)) == rx0 + 2, "accepted frames");

    // the good frame still works afterwards
    tb.rx.push_mac(good);
    tb.run_until_idle();
    for (unsigned i = 0; i < 64; i++) ref.mem[0x3000 + i] = 0xA5;
    check_mem(tb, ref, "after a good frame");
}

static void csr_phase(Tb &tb)
{
    uint64_t id = tb.read(csr(TG_CSR_REG_ID));
    TB_CHECK((id >> 32) == TG_ID_MAGIC, "ID magic %llx", (unsigned long long)id);
    TB_CHECK(((id >> 16) & 0xFFFF) == TG_VERSION_MAJOR && (id & 0xFFFF) == TG_VERSION_MINOR, "version");
    TB_CHECK(tb.read(csr(TG_CSR_REG_NODE_ID)) == NODE, "node id");
    uint64_t config = tb.read(csr(TG_CSR_REG_CONFIG));
    TB_CHECK(((config >> 24) & 0xFF) == BLK, "CONFIG %llx: block of %u bytes expected",
             (unsigned long long)config, BLK);
    TB_CHECK(!!(config & TG_CONFIG_SPILL) == TB_SPILL, "CONFIG %llx: spill ring built %d expected",
             (unsigned long long)config, TB_SPILL);
    TB_CHECK(config & TG_CONFIG_LINK, "CONFIG %llx: the link layer is built", (unsigned long long)config);
    TB_CHECK(((config >> 8) & 0xFF) != 0, "CONFIG %llx: fetches in flight", (unsigned long long)config);
    TB_CHECK(!(config & TG_CONFIG_NO_PROT), "CONFIG %llx: a region table expected", (unsigned long long)config);
    // PROT_CFG turns protection on only where there is a region table; off again
    // (bit 63, busy, is not looked at: it follows the receive engine)
    tb.write(csr(TG_CSR_REG_PROT_CFG), TG_PROT_CFG_ENABLE);
    uint64_t pcfg = tb.read(csr(TG_CSR_REG_PROT_CFG)) & ~TG_PROT_CFG_BUSY;
    TB_CHECK(pcfg == TG_PROT_CFG_ENABLE, "PROT_CFG %llx after turning protection on",
             (unsigned long long)pcfg);
    tb.write(csr(TG_CSR_REG_PROT_CFG), 0);
    pcfg = tb.read(csr(TG_CSR_REG_PROT_CFG)) & ~TG_PROT_CFG_BUSY;
    TB_CHECK(pcfg == 0, "PROT_CFG %llx after turning protection off", (unsigned long long)pcfg);
    // the spill registers hold a ring only where one is built; back to none
    tb.write(csr(TG_CSR_REG_SPILL_BASE), 0x8000);
    tb.write(csr(TG_CSR_REG_SPILL_CFG), 4);
    uint64_t sbase = tb.read(csr(TG_CSR_REG_SPILL_BASE)), scfg = tb.read(csr(TG_CSR_REG_SPILL_CFG));
    TB_CHECK(sbase == (TB_SPILL ? 0x8000u : 0u) && scfg == (TB_SPILL ? 4u : 0u),
             "SPILL_BASE %llx SPILL_CFG %llx after writing a ring", (unsigned long long)sbase,
             (unsigned long long)scfg);
    tb.write(csr(TG_CSR_REG_SPILL_CFG), 0);
    tb.write(csr(TG_CSR_REG_SPILL_BASE), 0);
    TB_CHECK(tb.read(csr(TG_CSR_REG_SPILL_CFG)) == 0, "no ring again");
    TB_CHECK(tb.read(csr(TG_CSR_REG_CLOCK_KHZ)) == 41667, "CLOCK_KHZ");
    uint64_t mac = tb.read(csr(TG_CSR_REG_MAC));
    TB_CHECK(mac == ((uint64_t)TG_MAC_OUI << 24 | NODE), "mac %llx", (unsigned long long)mac);
    uint64_t c0 = tb.read(csr(TG_CSR_REG_CYCLES));
    uint64_t c1 = tb.read(csr(TG_CSR_REG_CYCLES));
    TB_CHECK(c1 > c0 && c1 - c0 < 100, "cycle counter %llu -> %llu", (unsigned long long)c0, (unsigned long long)c1);
    TB_CHECK(tb.read(csr(TG_CSR_REG_MEM_SIZE)) == 0, "memory size after reset");

    // with no memory exported every remote read is refused
    TB_CHECK(tb.read(bar(TG_WIN_REMOTE, 0, NODE, 0)) == ~0ull, "read with no exported memory");
    tb.write(ctxreg(0, TG_CTX_REG_STATUS), 0);
    tb.write(csr(TG_CSR_REG_MEM_SIZE), MEM_BYTES);
    tb.write(csr(TG_CSR_REG_SCRATCH), 0x0123456789ABCDEFull);
    TB_CHECK(tb.read(csr(TG_CSR_REG_SCRATCH)) == 0x0123456789ABCDEFull, "scratch");
    TB_CHECK(tb.read(csr(TG_CSR_REG_MEM_SIZE)) == MEM_BYTES, "memory size");
}

static void latency_phase(Tb &tb)
{
    tb.write(bar(TG_WIN_REMOTE, 0, NODE, 0x40), 42);
    tb.run_until_idle();
    uint64_t req = tb.read(csr(TG_CSR_REG_TS_HOST_REQ));
    uint64_t txs = tb.read(csr(TG_CSR_REG_TS_TX_START));
    uint64_t rxe = tb.read(csr(TG_CSR_REG_TS_RX_END));
    uint64_t done = tb.read(csr(TG_CSR_REG_TS_RX_DONE));
    TB_CHECK(req < txs && txs < rxe && rxe < done, "timestamps %llu %llu %llu %llu",
             (unsigned long long)req, (unsigned long long)txs, (unsigned long long)rxe, (unsigned long long)done);
    std::printf("loopback 8-byte write: host->tx %llu, tx->rx end %llu, rx end->memory %llu cycles\n",
                (unsigned long long)(txs - req), (unsigned long long)(rxe - txs),
                (unsigned long long)(done - rxe));
    uint64_t frames = tb.read(csr(TG_CSR_REG_TX_FRAMES));
    TB_CHECK(frames == tb.tx_frames, "TX_FRAMES %llu, seen %llu", (unsigned long long)frames,
             (unsigned long long)tb.tx_frames);
}

// ---------------------------------------------------------------- fast-forward
// ff_idle falls while a request is in the NIC and rises once it is done;
// an idle edge with ff_skip = k moves the cycle counter by k + 1 and
// changes nothing else that a later request sees.
static void ff_phase(Tb &tb)
{
    // CSR reads of fixed latency: no host-port gaps or answer stalls
    unsigned gap = tb.host_gap_pct, stall = tb.resp_stall_pct;
    tb.host_gap_pct = tb.resp_stall_pct = 0;
    tb.run_until_idle();
    TB_CHECK(tb.m->ff_idle, "not idle once the traffic stopped");
    uint64_t c0 = tb.read(csr(TG_CSR_REG_CYCLES)), k0 = tb.cyc;
    for (unsigned i = 0; i < 50 && !tb.m->ff_idle; i++) tb.tick();
    TB_CHECK(tb.m->ff_idle, "not idle after a CSR read");
    tb.skip = 100000;
    tb.tick();
    tb.skip = 0;
    uint64_t c1 = tb.read(csr(TG_CSR_REG_CYCLES));
    TB_CHECK(c1 - c0 == tb.cyc - k0 + 100000, "cycle counter moved by %llu over %llu cycles and a skip of 100000",
             (unsigned long long)(c1 - c0), (unsigned long long)(tb.cyc - k0));
    // a remote write: busy until its frame came back and was written,
    // waiting at the network port for some of that time
    uint64_t busy = 0, w0 = tb.wait_cycles;
    tb.write(bar(TG_WIN_REMOTE, 0, NODE, 0x48), 0x5151);
    for (unsigned i = 0; i < 20000 && (tb.mem.load64(0x48) != 0x5151 || !tb.m->ff_idle); i++) {
        tb.tick();
        busy += !tb.m->ff_idle;
    }
    TB_CHECK(busy > 20, "idle for all but %llu cycles of a remote write", (unsigned long long)busy);
    TB_CHECK(tb.m->ff_idle && tb.mem.load64(0x48) == 0x5151, "the write did not end idle");
    TB_CHECK(tb.wait_cycles > w0 && tb.wait_cycles - w0 < busy,
             "waited at the network port for %llu of %llu busy cycles",
             (unsigned long long)(tb.wait_cycles - w0), (unsigned long long)busy);
    tb.host_gap_pct = gap;
    tb.resp_stall_pct = stall;
}

// ---------------------------------------------------------------- atomics
// Start a non-blocking atomic of context `ctx`; returns once it is handed
// to the NIC.
static void atomic_go(Tb &tb, unsigned ctx, unsigned fn, uint32_t raddr, uint32_t laddr, uint32_t cpl)
{
    tb.write(ctxreg(ctx, TG_CTX_REG_FETCH_LADDR), laddr);
    tb.write(ctxreg(ctx, TG_CTX_REG_FETCH_CPL), cpl);
    tb.write(ctxreg(ctx, TG_CTX_REG_ATOMIC_GO), raddr | ((uint64_t)NODE << 32) | ((uint64_t)fn << 56));
}

static uint64_t wait_cpl(Tb &tb, uint32_t cpl)
{
    uint64_t end = tb.cyc + 200000;
    while (tb.mem.load64(cpl) == 0 && tb.cyc < end) tb.tick();
    return tb.mem.load64(cpl);
}

// Blocking atomics through the shadow windows and non-blocking ones
// through ATOMIC_GO, on a few words at once, against the reference; then
// a counter that many atomics in flight increment; then refusals.
static void atomic_phase(Tb &tb, Ref &ref)
{
    const uint32_t words = 0x30000;   // 8 hot words
    uint64_t atomics0 = tb.read(csr(TG_CSR_REG_ATOMICS));
    unsigned executed = 0;
    for (unsigned c = 0; c < 16; c++) tb.write(ctxreg(c, TG_CTX_REG_STATUS), 0);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t v = tb.rng.next();
        tb.write(bar(TG_WIN_REMOTE, 0, NODE, words + 8 * i), v);
        for (unsigned b = 0; b < 8; b++) ref.mem[words + 8 * i + b] = (uint8_t)(v >> (8 * b));
    }
    // An operand store's address is any in the window: the stores go to
    // offsets that name CSR-page registers, which must not change (the
    // store passes its address to the page's copy of OPERAND, not to the
    // page's registers).
    static const uint64_t GUARD[] = {TG_CSR_REG_QSEL, TG_CSR_REG_QBASE, TG_CSR_REG_QCFG, TG_CSR_REG_QTAIL,
                                     TG_CSR_REG_IRQ_MASK, TG_CSR_REG_SCRATCH, TG_CSR_REG_MEM_SIZE,
                                     TG_CSR_REG_READ_TIMEOUT, TG_CSR_REG_REQ_BACKOFF, TG_CSR_REG_PROT_CFG,
                                     TG_CSR_REG_RSEL, TG_CSR_REG_RBASE, TG_CSR_REG_RLEN, TG_CSR_REG_RKEY,
                                     TG_CSR_REG_RCFG};
    const unsigned NGUARD = sizeof GUARD / sizeof GUARD[0];
    uint64_t guard0[NGUARD];
    for (unsigned i = 0; i < NGUARD; i++) guard0[i] = tb.read(csr(GUARD[i]));
    for (unsigned n = 0; n < 300; n++) {
        unsigned ctx = tb.rng.below(16), kind = tb.rng.below(4);
        uint32_t a = words + 8 * tb.rng.below(8);
        uint64_t old = ref.load64(a), operand = tb.rng.chance(50) ? tb.rng.below(10) : tb.rng.next();
        uint64_t compare = tb.rng.chance(50) ? old : tb.rng.next(), nv = old;
        unsigned win = TG_WIN_FAA + kind;
        if (kind != 3) tb.write(bar(win, ctx, NODE, (uint32_t)GUARD[tb.rng.below(NGUARD)]), operand);   // the operand
        if (kind == 2) tb.write(ctxreg(ctx, TG_CTX_REG_COMPARE), compare);
        uint64_t got;
        bool blocking = tb.rng.chance(60);
        if (blocking || kind == 3) {
            got = tb.read(bar(win, ctx, NODE, a));
        } else {
            static const unsigned FN[] = {TG_AOP_FAA, TG_AOP_SWAP, TG_AOP_CAS};
            uint32_t res = 0x31000 + 16 * tb.rng.below(16), cpl = res + 8;
            for (unsigned b = 0; b < 16; b++) tb.mem.mem[res + b] = 0;
            atomic_go(tb, ctx, FN[kind], a, res, cpl);
            uint64_t w = wait_cpl(tb, cpl);
            TB_CHECK(w == TG_FETCH_CPL_DONE, "atomic completion word %llx", (unsigned long long)w);
            got = tb.mem.load64(res);
            for (unsigned b = 0; b < 8; b++) {
                ref.mem[res + b] = (uint8_t)(old >> (8 * b));
                ref.mem[cpl + b] = (uint8_t)(w >> (8 * b));
            }
        }
        switch (kind) {
        case 0: nv = old + operand; break;
        case 1: nv = operand; break;
        case 2: nv = old == compare ? operand : old; break;
        default: nv = old + 1; break;
        }
        TB_CHECK(got == old, "atomic %u (%s) at %x returned %016llx, want %016llx", kind,
                 blocking ? "blocking" : "non-blocking", a, (unsigned long long)got, (unsigned long long)old);
        for (unsigned b = 0; b < 8; b++) ref.mem[a + b] = (uint8_t)(nv >> (8 * b));
        executed++;
        TB_CHECK(tb.read(ctxreg(ctx, TG_CTX_REG_STATUS)) == TG_ST_OK, "atomic status");
    }
    tb.run_until_idle();
    check_mem(tb, ref, "after atomics");
    for (unsigned i = 0; i < NGUARD; i++) {
        uint64_t v = tb.read(csr(GUARD[i]));
        TB_CHECK(v == guard0[i], "CSR %03llx changed under operand stores: %016llx, was %016llx",
                 (unsigned long long)GUARD[i], (unsigned long long)v, (unsigned long long)guard0[i]);
    }

    // a counter: 8 fetch-and-adds in flight at a time, each old value unique
    const uint32_t ctr = words + 0x100;
    tb.write(bar(TG_WIN_REMOTE, 0, NODE, ctr), 0);
    tb.write(bar(TG_WIN_FAA, 1, NODE, 0), 1);
    std::vector<bool> seen(200, false);
    for (unsigned round = 0; round < 25; round++) {
        for (unsigned k = 0; k < 8; k++)
            atomic_go(tb, 1, TG_AOP_FAA, ctr, 0x32000 + 16 * k, 0x32000 + 16 * k + 8);
        for (unsigned k = 0; k < 8; k++) {
            uint32_t res = 0x32000 + 16 * k;
            uint64_t w = wait_cpl(tb, res + 8);
            uint64_t old = tb.mem.load64(res);
            TB_CHECK(w == TG_FETCH_CPL_DONE && old < 200 && !seen[old], "counter: completion %llx old %llu",
                     (unsigned long long)w, (unsigned long long)old);
            if (old < 200) seen[old] = true;
            tb.mem.store64(res, 0);
            tb.mem.store64(res + 8, 0);
        }
        executed += 8;
    }
    TB_CHECK(tb.read(bar(TG_WIN_REMOTE, 0, NODE, ctr)) == 200, "counter after 200 fetch-and-adds");
    TB_CHECK(tb.read(csr(TG_CSR_REG_ATOMICS)) == atomics0 + executed, "ATOMICS counter %llu, want %llu",
             (unsigned long long)(tb.read(csr(TG_CSR_REG_ATOMICS)) - atomics0), (unsigned long long)executed);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t v = tb.read(bar(TG_WIN_REMOTE, 0, NODE, 0x32000 + 8 * i));
        for (unsigned b = 0; b < 8; b++) ref.mem[0x32000 + 8 * i + b] = (uint8_t)(v >> (8 * b));
    }
    for (unsigned b = 0; b < 8; b++) ref.mem[ctr + b] = b == 0 ? 200 : 0;

    // refusals: nothing changes at the target, the old value is all ones
    // and the context says why
    uint64_t herr0 = tb.read(csr(TG_CSR_REG_HOST_ERRORS));
    uint64_t v = tb.read(bar(TG_WIN_FAA, 4, NODE, words + 4));                  // misaligned: never sent
    TB_CHECK(v == ~0ull && tb.read(ctxreg(4, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "misaligned atomic");
    tb.write(ctxreg(4, TG_CTX_REG_STATUS), 0);
    v = tb.read(bar(TG_WIN_SWAP, 4, NODE, MEM_BYTES - 4 + 4));                   // past the end: refused there
    TB_CHECK(v == ~0ull && tb.read(ctxreg(4, TG_CTX_REG_STATUS)) == TG_ST_RANGE, "atomic past the end");
    tb.write(ctxreg(4, TG_CTX_REG_STATUS), 0);
    atomic_go(tb, 4, 3, words, 0x33000, 0x33008);                                // no such function
    TB_CHECK(tb.read(ctxreg(4, TG_CTX_REG_STATUS)) == TG_ST_BAD_OP, "ATOMIC_GO function 3");
    tb.write(ctxreg(4, TG_CTX_REG_STATUS), 0);
    atomic_go(tb, 4, TG_AOP_FAA, words + 1, 0x33000, 0x33008);                   // misaligned remote
    TB_CHECK(tb.read(ctxreg(4, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "ATOMIC_GO misaligned");
    tb.write(ctxreg(4, TG_CTX_REG_STATUS), 0);
    atomic_go(tb, 4, TG_AOP_FAA, words, MEM_BYTES - 4, 0x33008);                 // result past local memory
    TB_CHECK(tb.read(ctxreg(4, TG_CTX_REG_STATUS)) == TG_ST_RANGE, "ATOMIC_GO range");
    tb.write(ctxreg(4, TG_CTX_REG_STATUS), 0);
    atomic_go(tb, 4, TG_AOP_CAS, MEM_BYTES, 0x33000, 0x33008);                   // refused by the target
    uint64_t w = wait_cpl(tb, 0x33008);
    TB_CHECK(w == (TG_FETCH_CPL_DONE | (TG_ST_RANGE << 8)), "ATOMIC_GO past the target's end: %llx",
             (unsigned long long)w);
    for (unsigned b = 0; b < 8; b++) ref.mem[0x33008 + b] = (uint8_t)(w >> (8 * b));
    TB_CHECK(tb.read(csr(TG_CSR_REG_HOST_ERRORS)) == herr0 + 4, "host errors after refused atomics");
    tb.run_until_idle();
    check_mem(tb, ref, "after refused atomics");
}

// ---------------------------------------------------------------- remote enqueue
struct Queue {
    uint32_t base;
    unsigned size_log2, esize_log2;
    unsigned idx;
};

static void queue_setup(Tb &tb, const Queue &q)
{
    uint32_t size = 1u << q.size_log2;
    std::memset(&tb.mem.mem[q.base], 0, size);
    auto put = [&](uint32_t off, uint64_t v) { std::memcpy(&tb.mem.mem[q.base + off], &v, 8); };
    put(TG_Q_TAIL, TG_Q_SLOTS);
    put(TG_Q_HEAD, TG_Q_SLOTS);
    put(TG_Q_SIZE, q.size_log2 | (q.esize_log2 << 8));
    tb.write(csr(TG_CSR_REG_QSEL), q.idx);
    tb.write(csr(TG_CSR_REG_QBASE), q.base);
    tb.write(csr(TG_CSR_REG_QTAIL), TG_Q_SLOTS);
    tb.write(csr(TG_CSR_REG_QCFG), q.size_log2 | (q.esize_log2 << 8) | TG_QCFG_ENABLE);
}

// Consumer in host memory: takes every entry between head and tail.
static void queue_drain(Tb &tb, const Queue &q, std::vector<std::vector<uint64_t>> &got)
{
    uint32_t size = 1u << q.size_log2, esz = 1u << q.esize_log2;
    uint64_t head = tb.mem.load64(q.base + TG_Q_HEAD), tail = tb.mem.load64(q.base + TG_Q_TAIL);
    TB_CHECK(head >= TG_Q_SLOTS && head < size && tail >= TG_Q_SLOTS && tail < size,
             "head %llx tail %llx", (unsigned long long)head, (unsigned long long)tail);
    while (head != tail) {
        std::vector<uint64_t> e;
        for (unsigned w = 0; w < esz / 8; w++) e.push_back(tb.mem.load64(q.base + (uint32_t)head + 8 * w));
        got.push_back(e);
        head += esz;
        if (head >= size) head = TG_Q_SLOTS;
    }
    std::memcpy(&tb.mem.mem[q.base + TG_Q_HEAD], &head, 8);
}

// The driver's overflow handler: take the entries out (as a grown buffer
// would hold them), reset the buffer, reopen the queue.
static void queue_overflow(Tb &tb, const Queue &q, std::vector<std::vector<uint64_t>> &got)
{
    uint64_t st = tb.read(csr(TG_CSR_REG_IRQ_STATUS));
    TB_CHECK(st & (1u << q.idx), "overflow cause for queue %u: %llx", q.idx, (unsigned long long)st);
    tb.write(csr(TG_CSR_REG_QSEL), q.idx);
    uint64_t cfg = tb.read(csr(TG_CSR_REG_QCFG));
    TB_CHECK(cfg & TG_QCFG_FULL, "queue %u not marked full: %llx", q.idx, (unsigned long long)cfg);
    queue_drain(tb, q, got);
    uint64_t slots = TG_Q_SLOTS;
    std::memcpy(&tb.mem.mem[q.base + TG_Q_HEAD], &slots, 8);
    std::memcpy(&tb.mem.mem[q.base + TG_Q_TAIL], &slots, 8);
    tb.write(csr(TG_CSR_REG_QTAIL), TG_Q_SLOTS);
    tb.write(csr(TG_CSR_REG_QCFG), q.size_log2 | (q.esize_log2 << 8) | TG_QCFG_ENABLE);
    tb.write(csr(TG_CSR_REG_IRQ_STATUS), 1u << q.idx);
}

static void enq(Tb &tb, const Queue &q, const std::vector<uint64_t> &words, unsigned node = NODE)
{
    for (size_t w = 0; w < words.size(); w++)
        tb.hq.push_back(Beat{true, bar(TG_WIN_REQ, 1, node, q.base + 8 * (uint32_t)w), words[w], 0xFF,
                             w + 1 == words.size()});
}

static void check_entries(const std::vector<std::vector<uint64_t>> &got,
                          const std::vector<std::vector<uint64_t>> &sent, unsigned j)
{
    TB_CHECK(got.size() == sent.size(), "queue %u: %zu entries arrived, %zu sent", j, got.size(), sent.size());
    size_t n = std::min(got.size(), sent.size()), bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != sent[i] && bad++ < 3) {
            std::string g, w;
            for (size_t k = 0; k < got[i].size(); k++) {
                char buf[40];
                std::snprintf(buf, sizeof buf, " %llx", (unsigned long long)got[i][k]);
                g += buf;
                std::snprintf(buf, sizeof buf, " %llx", (unsigned long long)(k < sent[i].size() ? sent[i][k] : 0));
                w += buf;
            }
            TB_CHECK(false, "queue %u entry %zu: got%s, sent%s", j, i, g.c_str(), w.c_str());
        }
}

// Tick until the host port has taken every queued request.
static void drain_host(Tb &tb, const char *what)
{
    uint64_t end = tb.cyc + 200000;
    while (!tb.hq.empty() && tb.cyc < end) tb.tick();
    TB_CHECK(tb.hq.empty(), "%s: host port stalled", what);
    if (!tb.hq.empty()) std::exit(tb_finish("tg_nic"));
}

static std::vector<uint64_t> make_entry(Tb &tb, const Queue &q, unsigned k, unsigned i,
                                        std::vector<std::vector<uint64_t>> &sent)
{
    std::vector<uint64_t> e;
    unsigned words = 1 + tb.rng.below(1u << (q.esize_log2 - 3));
    for (unsigned w = 0; w < words; w++) e.push_back(((uint64_t)k << 60) | ((uint64_t)i << 8) | w);
    std::vector<uint64_t> full = e;
    full.resize(1u << (q.esize_log2 - 3), 0);   // a short entry is zero-filled
    sent.push_back(full);
    return e;
}

static void req_phase(Tb &tb)
{
    const Queue qs[2] = {{0x40000, 10, 3, 0}, {0x48000, 9, 6, 5}};   // 8-byte and 64-byte entries
    for (const Queue &q : qs) queue_setup(tb, q);
    tb.write(csr(TG_CSR_REG_IRQ_MASK), 0xFFFF);
    tb.write(csr(TG_CSR_REG_REQ_BACKOFF), 64);
    uint64_t acc0 = tb.read(csr(TG_CSR_REG_REQ_ACCEPTED));
    uint64_t retry0 = tb.read(csr(TG_CSR_REG_REQ_RETRIES));
    uint64_t rs0 = tb.read(ctxreg(1, TG_CTX_REG_REQ_STATE));
    std::vector<std::vector<uint64_t>> sent[2], got[2];
    unsigned seq = 0;

    // A consumer that keeps up: entries interleaved with remote writes to
    // other memory, the queue drained after each one.
    for (unsigned i = 0; i < 300; i++) {
        unsigned k = tb.rng.below(2);
        enq(tb, qs[k], make_entry(tb, qs[k], k, seq++, sent[k]));
        if (tb.rng.chance(30)) tb.write(bar(TG_WIN_REMOTE, 2, NODE, 0x2000 + 8 * tb.rng.below(64)), tb.rng.next());
        drain_host(tb, "entries with a consumer");
        // take what has arrived (each queue holds at least 5 entries and at
        // most 4 REQs are unanswered, so neither can fill)
        for (unsigned j = 0; j < 2; j++) queue_drain(tb, qs[j], got[j]);
    }
    tb.run_until_idle();
    TB_CHECK(!tb.m->irq, "overflow while the consumer keeps up");

    // Overflow: more entries than fit, back to back, nobody consuming. The
    // extra ones are refused (nothing written), the overflow interrupt
    // rises, the driver takes the entries out and reopens the queue, and
    // the sender's retries land in order.
    for (unsigned round = 0; round < 3; round++) {
        for (unsigned k = 0; k < 2; k++) {
            const Queue &q = qs[k];
            unsigned cap = ((1u << q.size_log2) - TG_Q_SLOTS) / (1u << q.esize_log2) - 1;
            unsigned extra = 1 + tb.rng.below(TB_REQ_SLOTS < 3 ? TB_REQ_SLOTS : 3);
            queue_drain(tb, q, got[k]);
            for (unsigned i = 0; i < cap + extra; i++) {
                enq(tb, q, make_entry(tb, q, k, seq++, sent[k]));
                drain_host(tb, "entries into a full queue");
            }
            uint64_t end = tb.cyc + 200000;
            while (!tb.m->irq && tb.cyc < end) tb.tick();
            TB_CHECK(tb.m->irq, "no overflow interrupt for queue %u", k);
            // other traffic while the refused REQs wait for their resend
            tb.write(bar(TG_WIN_REMOTE, 2, NODE, 0x2000 + 8 * tb.rng.below(64)), tb.rng.next());
            queue_overflow(tb, q, got[k]);
            tb.run_until_idle();
            TB_CHECK(!tb.m->irq, "interrupt still raised");
        }
    }
    for (unsigned j = 0; j < 2; j++) {
        queue_drain(tb, qs[j], got[j]);
        check_entries(got[j], sent[j], j);
    }
    uint64_t acc = tb.read(csr(TG_CSR_REG_REQ_ACCEPTED)) - acc0;
    uint64_t retries = tb.read(csr(TG_CSR_REG_REQ_RETRIES)) - retry0;
    TB_CHECK(acc == sent[0].size() + sent[1].size(), "REQ_ACCEPTED %llu", (unsigned long long)acc);
    TB_CHECK(retries > 0, "no retries");
    std::printf("REQ: %zu entries, %llu retries\n", sent[0].size() + sent[1].size(), (unsigned long long)retries);
    // every REQ numbered and finished, none failed (refusals of full
    // queues are retried, not failures)
    uint64_t rs = tb.read(ctxreg(1, TG_CTX_REG_REQ_STATE));
    TB_CHECK((uint16_t)(rs - rs0) == (uint16_t)(sent[0].size() + sent[1].size()) &&
                 (uint16_t)(rs >> TG_REQST_DONE_LSB) == (uint16_t)rs && (rs >> TG_REQST_FAIL_NUM_LSB) == 0,
             "REQ_STATE %016llx after %zu REQs (before: %016llx)", (unsigned long long)rs,
             sent[0].size() + sent[1].size(), (unsigned long long)rs0);

    // a REQ to an address that is no queue: refused, nothing written; its
    // number and reason in REQ_STATE, STATUS untouched
    Ref before;
    std::memcpy(before.mem.data(), tb.mem.mem.data(), MEM_BYTES);
    tb.write(ctxreg(1, TG_CTX_REG_STATUS), 0);
    enq(tb, qs[0], {0xDEAD}, NODE);
    tb.hq.back().addr += 0x100;   // not the base of any queue
    tb.run_until_idle();
    check_mem(tb, before, "after a REQ to no queue");
    TB_CHECK(tb.read(ctxreg(1, TG_CTX_REG_STATUS)) == TG_ST_OK, "STATUS after a REQ to no queue");
    uint64_t want = (uint64_t)1 << TG_REQST_FAIL_CNT_LSB | (uint64_t)TG_ST_NO_QUEUE << TG_REQST_FAIL_ST_LSB |
                    (uint64_t)(uint16_t)(rs + 1) << TG_REQST_FAIL_NUM_LSB |
                    (uint64_t)(uint16_t)(rs + 1) << TG_REQST_DONE_LSB | (uint16_t)(rs + 1);
    uint64_t got_rs = tb.read(ctxreg(1, TG_CTX_REG_REQ_STATE));
    TB_CHECK(got_rs == want, "REQ_STATE after a REQ to no queue: %016llx, want %016llx",
             (unsigned long long)got_rs, (unsigned long long)want);
    // an entry longer than the queue's entry size: refused; the first
    // failure stays, the count goes up, until REQ_STATE is written
    enq(tb, qs[0], {1, 2});
    tb.run_until_idle();
    check_mem(tb, before, "after an oversized entry");
    want = (want & ~((uint64_t)0xFF << TG_REQST_FAIL_CNT_LSB) & ~(uint64_t)0xFFFFFFFF) |
           (uint64_t)2 << TG_REQST_FAIL_CNT_LSB | (uint64_t)(uint16_t)(rs + 2) << TG_REQST_DONE_LSB |
           (uint16_t)(rs + 2);
    got_rs = tb.read(ctxreg(1, TG_CTX_REG_REQ_STATE));
    TB_CHECK(got_rs == want, "REQ_STATE after an oversized entry: %016llx, want %016llx",
             (unsigned long long)got_rs, (unsigned long long)want);
    tb.write(ctxreg(1, TG_CTX_REG_REQ_STATE), 0);
    enq(tb, qs[0], {1, 2});
    tb.run_until_idle();
    want = (uint64_t)1 << TG_REQST_FAIL_CNT_LSB | (uint64_t)TG_ST_MALFORMED << TG_REQST_FAIL_ST_LSB |
           (uint64_t)(uint16_t)(rs + 3) << TG_REQST_FAIL_NUM_LSB |
           (uint64_t)(uint16_t)(rs + 3) << TG_REQST_DONE_LSB | (uint16_t)(rs + 3);
    got_rs = tb.read(ctxreg(1, TG_CTX_REG_REQ_STATE));
    TB_CHECK(got_rs == want, "REQ_STATE after a clear and an oversized entry: %016llx, want %016llx",
             (unsigned long long)got_rs, (unsigned long long)want);
    TB_CHECK(tb.read(ctxreg(1, TG_CTX_REG_STATUS)) == TG_ST_OK, "STATUS after oversized entries");
    tb.write(ctxreg(1, TG_CTX_REG_REQ_STATE), 0);

    // latency of one REQ into an empty queue
    queue_drain(tb, qs[0], got[0]);
    tb.write(bar(TG_WIN_REQ, 0, NODE, qs[0].base), 77);
    tb.run_until_idle();
    uint64_t req = tb.read(csr(TG_CSR_REG_TS_HOST_REQ)), done = tb.read(csr(TG_CSR_REG_TS_ENQ_DONE));
    TB_CHECK(done > req, "enqueue timestamps %llu %llu", (unsigned long long)req, (unsigned long long)done);
    std::printf("loopback REQ: store to entry and tail in memory %llu cycles\n", (unsigned long long)(done - req));
    for (const Queue &q : qs) {
        tb.write(csr(TG_CSR_REG_QSEL), q.idx);
        tb.write(csr(TG_CSR_REG_QCFG), 0);
    }
}

// A core built with a block narrower than 64 bytes: a burst of 8 words
// leaves as one frame per block; longer frames from a wider node, and
// fetches and write checks longer than the block, are refused and change
// nothing.
static void block_phase(Tb &tb, Ref &ref)
{
    uint64_t refused0 = tb.read(csr(TG_CSR_REG_RX_REFUSED));
    uint64_t req_refused0 = tb.read(csr(TG_CSR_REG_REQ_REFUSED));
    uint64_t herr0 = tb.read(csr(TG_CSR_REG_HOST_ERRORS));
    tb.run_until_idle();

    // 8 words from the host in one burst: 64 / BLK write frames
    uint64_t sent = tb.tx_frames;
    for (unsigned w = 0; w < 8; w++) {
        uint64_t d = tb.rng.next();
        for (unsigned b = 0; b < 8; b++) ref.mem[0x5000 + 8 * w + b] = (uint8_t)(d >> (8 * b));
        tb.hq.push_back(Beat{true, bar(TG_WIN_REMOTE, 1, NODE, 0x5000 + 8 * w), d, 0xFF, w == 7});
    }
    tb.run_until_idle();
    TB_CHECK(tb.tx_frames - sent == 64 / BLK, "an 8-word burst left as %llu frames, want %u",
             (unsigned long long)(tb.tx_frames - sent), 64 / BLK);
    check_mem(tb, ref, "after a burst of several blocks");

    // a 64-byte write and a REQ of 64 bytes from a node with 64-byte blocks
    uint8_t payload[64];
    for (auto &b : payload) b = 0x3C;
    tg_frame_hdr h = write_hdr(0x5040);
    tb.rx.push_mac(tb_frame(h, payload));
    const Queue q = {0x50000, 10, 6, 2};
    queue_setup(tb, q);
    std::memcpy(&ref.mem[q.base], &tb.mem.mem[q.base], 1u << q.size_log2);
    tg_frame_hdr r = h;
    r.op = TG_OP_REQ;
    r.addr = q.base;
    r.ctx = 1;
    tb.rx.push_mac(tb_frame(r, payload));
    tb.run_until_idle();
    check_mem(tb, ref, "after frames longer than the block");
    TB_CHECK(tb.mem.load64(q.base + TG_Q_TAIL) == TG_Q_SLOTS, "a refused REQ moved the tail");
    TB_CHECK(tb.read(csr(TG_CSR_REG_RX_REFUSED)) == refused0 + 1, "long write refused");
    TB_CHECK(tb.read(csr(TG_CSR_REG_REQ_REFUSED)) == req_refused0 + 1, "long REQ refused");
    tb.write(csr(TG_CSR_REG_QSEL), q.idx);
    tb.write(csr(TG_CSR_REG_QCFG), 0);

    // a fetch and a write check one word longer than the block: refused at
    // the host port, nothing sent
    sent = tb.tx_frames;
    tb.write(ctxreg(2, TG_CTX_REG_STATUS), 0);
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_LADDR), 0x8000);
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_CPL), 0xC000);
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_GO), 0x5000 | ((uint64_t)NODE << 32) | ((uint64_t)(BLK + 8) << 48));
    TB_CHECK(tb.read(ctxreg(2, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "long fetch status");
    tb.write(ctxreg(2, TG_CTX_REG_STATUS), 0);
    tb.write(ctxreg(2, TG_CTX_REG_WCHECK), 0x5000 | ((uint64_t)NODE << 32) | ((uint64_t)(BLK + 8) << 48));
    TB_CHECK(tb.read(ctxreg(2, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "long write check status");
    tb.write(ctxreg(2, TG_CTX_REG_STATUS), 0);
    // a fetch crossing into the next block, though no longer than one
    tb.write(ctxreg(2, TG_CTX_REG_FETCH_GO), (0x5000 + BLK - 8) | ((uint64_t)NODE << 32) | (16ull << 48));
    TB_CHECK(tb.read(ctxreg(2, TG_CTX_REG_STATUS)) == TG_ST_MISALIGNED, "fetch across blocks status");
    tb.write(ctxreg(2, TG_CTX_REG_STATUS), 0);
    tb.run_until_idle();
    TB_CHECK(tb.tx_frames == sent, "refused requests sent %llu frames", (unsigned long long)(tb.tx_frames - sent));
    TB_CHECK(tb.read(csr(TG_CSR_REG_HOST_ERRORS)) == herr0 + 3, "host errors");

    // a whole block still goes and comes back
    fetch(tb, ref, 2, 0x5000 + BLK, 0x8000 + BLK, BLK, 0xC000);
    tb.run_until_idle();
    check_mem(tb, ref, "after a fetch of one block");
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Cfg { unsigned mem_stall, lat_min, lat_max, tx_stall, gap, host_gap, resp_stall; };
    const Cfg cfgs[] = {
        {0, 1, 1, 0, 0, 0, 0},
        {30, 1, 12, 30, 30, 30, 30},
        {60, 4, 40, 70, 10, 5, 60},
    };
    unsigned seed = 1;
    for (const Cfg &c : cfgs) {
        cfg_no = seed;
        Tb tb(seed++ * 7919);
        Ref ref;
        tb.mem.stall_pct = c.mem_stall;
        tb.mem.lat_min = c.lat_min;
        tb.mem.lat_max = c.lat_max;
        tb.tx.stall_pct = c.tx_stall;
        tb.rx.gap_pct = c.gap;
        tb.host_gap_pct = c.host_gap;
        tb.resp_stall_pct = c.resp_stall;
        tb.reset();
        csr_phase(tb);
        sizes_phase(tb, ref);
        random_phase(tb, ref, 4000);
        if (BLK < 64) {
            // the phases below send 64-byte frames and entries
            block_phase(tb, ref);
            atomic_phase(tb, ref);
            continue;
        }
        error_phase(tb, ref);
        bad_frames_phase(tb, ref);
        atomic_phase(tb, ref);
        latency_phase(tb);
        ff_phase(tb);
        req_phase(tb);
        // reset in the middle of traffic, then traffic again
        random_burst(tb, ref, 0x1000, 0x1000);
        for (int i = 0; i < 7; i++) tb.tick();
        tb.hq.clear();
        tb.reset();
        tb.rx.clear();
        tb.tx.cur.clear();
        tb.resps.clear();
        for (int i = 0; i < 100; i++) tb.tick();
        std::memcpy(ref.mem.data(), tb.mem.mem.data(), MEM_BYTES);
        tb.write(csr(TG_CSR_REG_MEM_SIZE), MEM_BYTES);
        random_phase(tb, ref, 300);
    }
    return tb_finish(NAME);
}
