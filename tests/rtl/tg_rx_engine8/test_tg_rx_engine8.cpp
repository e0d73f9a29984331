// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the byte-serial receive engine, differential: tg_rx_engine8
// between tg_eth_rx8 and tg_eth_tx8 runs beside the 64-bit receive path
// (tg_eth_rx, tg_rx_engine, tg_eth_tx), each with its own host memory,
// queue table, region table and fetch table, under random memory wait
// states and latencies and random transmit backpressure. Both get the same
// frames (writes, reads and fences, remote enqueues to good, full, badly
// configured and missing queues with and without the retry flag, atomics,
// read and atomic answers to the host or to fetches, stray answers, REQ
// answers, ACK and NAK, frames for another node or with a bad FCS), the
// same register writes (queues, regions, protection on and off, memory
// size) and the same overdue fetches, and the consumer moves each queue's
// head in both memories. After every frame both memories must be equal
// byte for byte, and so must the response frames, the answers to the host
// port and to the REQ sender, the fetch table, the queue table and its
// interrupt, and every event count. A second phase sends frames back to
// back, as a MAC delivers them, and prints how many cycles each kind takes.
#include "Vtb_rx_engine8_pair.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

static const uint32_t MEM_BYTES = 8192;
static const unsigned BLK = 16;          // the pair's BLOCK_BYTES
static const unsigned NQ = 2;            // queue-table entries
static const unsigned NR = 2;            // region-table entries
static const unsigned NFT = 4;           // fetch-table entries the bench uses

struct Hrd {
    uint16_t src, tag;
    uint8_t status;
    uint64_t data;
    bool has_data;   // the answer carried a payload word
    bool operator==(const Hrd &o) const
    {
        return src == o.src && tag == o.tag && status == o.status && (!has_data || data == o.data);
    }
};

struct Qr {
    uint16_t src, tag;
    uint8_t status;
    bool operator==(const Qr &o) const { return src == o.src && tag == o.tag && status == o.status; }
};

// what one side did, gathered from its outputs
struct Side {
    MemModel mem;
    TbRng rng;
    std::deque<Bytes> tx;        // response frames out
    Bytes tx_cur;
    std::deque<Hrd> hrd;
    std::deque<Qr> qr;
    std::deque<unsigned> freed;  // fetch entries freed
    uint64_t ev[8] = {0};
    uint64_t rx_ev[5] = {0};
    bool fto_pending = false;
    bool tx_ready = true;
    Side(uint64_t seed) : mem(MEM_BYTES), rng(seed) {}
};

struct QCfg {
    uint32_t base = 0;
    unsigned size_log2 = 0, esize_log2 = 0;
    bool en = false;
};

struct Region {
    bool valid = false;
    uint32_t base = 0, len = 0;
    uint64_t key = 0;
    unsigned rights = 0;
};

struct Ft {
    bool valid = false;
    uint16_t node = 0;
    uint32_t laddr = 0, cpl = 0;
    uint64_t mask = 0;
};

static const char *const EV_NAMES[8] = {"refused", "stray",   "rx_done", "req_accepted",
                                        "req_refused", "enq_done", "atomic", "prot_refused"};

struct Tb {
    std::unique_ptr<Vtb_rx_engine8_pair> m;
    TbRng rng;
    Side ref, dut;
    uint64_t cyc = 0;
    uint16_t node = 5;
    uint32_t mem_size = MEM_BYTES;
    QCfg q[NQ];
    Region reg[NR];
    bool prot_on = false;
    Ft ft[NFT];

    AxisSource ref_src;
    AxisSink ref_sink;
    std::deque<Bytes> dut_frames;  // frames still to feed the byte side
    size_t dut_pos = 0;
    unsigned dut_gap = 0;          // idle cycles before the next frame
    unsigned stall_pct = 0, tx_stall_pct = 0;

    // one-cycle register write, fetch set, overdue fetch
    bool csr_wr = false;
    uint16_t csr_addr = 0;
    uint64_t csr_wdata = 0;
    bool ft_set = false;
    unsigned ft_idx = 0;
    unsigned fto_idx = 0;
    bool fto_with_frame = false;   // the overdue fetch comes as the frame's last byte does

    uint64_t frames = 0, compares = 0, dut_frames_taken = 0, dut_busy = 0;
    uint64_t resp_frames = 0, host_answers = 0, req_answers = 0;
    uint64_t ref_busy = 0, dut_busy_cyc = 0;           // engine cycles out of idle
    uint64_t kind_ref[8] = {0}, kind_dut[8] = {0}, kind_n[8] = {0}, kind_wire[8] = {0};
    uint64_t kind_max[8] = {0}, kind_rmax[8] = {0};
    uint64_t stream_frames = 0, stream_cycles = 0;
    std::vector<uint64_t> kinds = std::vector<uint64_t>(16, 0);

    explicit Tb(uint64_t seed)
        : m(new Vtb_rx_engine8_pair), rng(seed), ref(seed * 3 + 1), dut(seed * 5 + 2)
    {
    }

    void tick(bool rst = false)
    {
        Vtb_rx_engine8_pair &t = *m;
        t.rst = rst;
        t.cfg_node_id = node;
        t.cfg_mem_size = mem_size;
        t.csr_addr = csr_addr;
        t.csr_wr_en = csr_wr;
        t.csr_wdata = csr_wdata;
        t.ft_set = ft_set;
        t.ft_idx = ft_idx;
        t.ft_node = ft[ft_idx % NFT].node;
        t.ft_laddr = ft[ft_idx % NFT].laddr;
        t.ft_cpl = ft[ft_idx % NFT].cpl;
        t.ft_mask = ft[ft_idx % NFT].mask;
        t.fto_idx = fto_idx;
        t.ref_fto_valid = ref.fto_pending;
        t.dut_fto_valid = dut.fto_pending;

        // frames in
        ref_src.drive(t.ref_rx_tdata, t.ref_rx_tkeep, t.ref_rx_tvalid, t.ref_rx_tlast, rng);
        t.dut_rx_tvalid = 0;
        t.dut_rx_tlast = 0;
        t.dut_rx_tdata = (uint8_t)rng.next();
        if (dut_gap) {
            dut_gap--;
        } else if (!dut_frames.empty()) {
            const Bytes &f = dut_frames.front();
            t.dut_rx_tvalid = 1;
            t.dut_rx_tdata = f[dut_pos];
            t.dut_rx_tlast = dut_pos + 1 == f.size();
        }

        // frames out, memory
        t.ref_tx_tready = ref_sink.pick_ready(rng);
        ref.tx_ready = !rng.chance(tx_stall_pct);
        t.dut_tx_tready = ref.tx_ready;
        dut.tx_ready = ref.tx_ready;
        ref.mem.stall_pct = dut.mem.stall_pct = stall_pct;
        t.ref_mem_req_ready = ref.mem.pick_ready(ref.rng);
        t.dut_mem_req_ready = dut.mem.pick_ready(dut.rng);
        uint64_t d = 0;
        t.ref_mem_resp_valid = ref.mem.resp(cyc, d);
        t.ref_mem_resp_rdata = t.ref_mem_resp_valid ? d : rng.next();
        t.dut_mem_resp_valid = dut.mem.resp(cyc, d);
        t.dut_mem_resp_rdata = t.dut_mem_resp_valid ? d : rng.next();

        t.clk = 0;
        t.eval();
        if (!rst) sample();
        t.clk = 1;
        t.eval();
        cyc++;

        csr_wr = false;
        ft_set = false;
        if (t.dut_rx_tvalid && !dut_frames.empty()) {
            if (++dut_pos == dut_frames.front().size()) {
                if (fto_with_frame) {
                    // the engine takes the overdue fetch first; the frame,
                    // handed over meanwhile, must wait for it and survive it
                    ref.fto_pending = dut.fto_pending = true;
                    fto_with_frame = false;
                }
                dut_frames.pop_front();
                dut_pos = 0;
                dut_gap = 20;            // preamble and gap, as a GMII MAC leaves them
            }
        }
    }

    void sample()
    {
        Vtb_rx_engine8_pair &t = *m;
        ref_src.advance(t.ref_rx_tvalid && t.ref_rx_tready);
        ref_sink.sample(t.ref_tx_tdata, t.ref_tx_tkeep, t.ref_tx_tvalid, t.ref_tx_tlast);
        while (!ref_sink.frames.empty()) {
            ref.tx.push_back(ref_sink.frames.front());
            ref_sink.frames.pop_front();
        }
        if (t.dut_tx_tvalid && dut.tx_ready) {
            dut.tx_cur.push_back(t.dut_tx_tdata);
            if (t.dut_tx_tlast) {
                dut.tx.push_back(dut.tx_cur);
                dut.tx_cur.clear();
            }
        }
        ref.mem.request(cyc, t.ref_mem_req_valid, t.ref_mem_req_write, t.ref_mem_req_addr, t.ref_mem_req_wdata,
                        t.ref_mem_req_wstrb, ref.rng);
        dut.mem.request(cyc, t.dut_mem_req_valid, t.dut_mem_req_write, t.dut_mem_req_addr, t.dut_mem_req_wdata,
                        t.dut_mem_req_wstrb, dut.rng);
        if (t.ref_hrd_valid)
            ref.hrd.push_back(Hrd{t.ref_hrd_src, t.ref_hrd_tag, t.ref_hrd_status, t.ref_hrd_data, true});
        if (t.dut_hrd_valid)
            dut.hrd.push_back(Hrd{t.dut_hrd_src, t.dut_hrd_tag, t.dut_hrd_status, t.dut_hrd_data, true});
        if (t.ref_qresp_valid) ref.qr.push_back(Qr{t.ref_qresp_src, t.ref_qresp_tag, t.ref_qresp_status});
        if (t.dut_qresp_valid) dut.qr.push_back(Qr{t.dut_qresp_src, t.dut_qresp_tag, t.dut_qresp_status});
        for (int i = 0; i < 8; i++) {
            ref.ev[i] += (t.ref_ev >> i) & 1;
            dut.ev[i] += (t.dut_ev >> i) & 1;
        }
        for (int i = 0; i < 4; i++) ref.rx_ev[i] += (t.ref_rx_ev >> i) & 1;
        for (int i = 0; i < 5; i++) dut.rx_ev[i] += (t.dut_rx_ev >> i) & 1;
        dut_busy += (t.dut_rx_ev >> 4) & 1;
        ref_busy += t.ref_busy;
        dut_busy_cyc += t.dut_busy;
        dut_frames_taken += t.dut_frm_taken;
        if (t.ref_fto_valid && t.ref_fto_ready) ref.fto_pending = false;
        if (t.dut_fto_valid && t.dut_fto_ready) dut.fto_pending = false;
    }

    void csr_write(uint16_t a, uint64_t v)
    {
        csr_wr = true;
        csr_addr = a;
        csr_wdata = v;
        tick();
    }

    // both sides' reading of a table register
    void csr_compare(uint16_t a, const char *what)
    {
        csr_addr = a;
        m->csr_addr = a;
        m->clk = 0;
        m->eval();
        TB_CHECK(m->ref_csr_rdata == m->dut_csr_rdata, "%s (register %u): %016llx, byte side %016llx", what, a,
                 (unsigned long long)m->ref_csr_rdata, (unsigned long long)m->dut_csr_rdata);
        compares++;
    }

    // ------------------------------------------------------------ configuration
    void set_queue(unsigned i)
    {
        QCfg &c = q[i];
        c.size_log2 = 8 + rng.below(3);
        c.esize_log2 = 3 + rng.below(4);
        c.base = (uint32_t)((2048 + rng.below(MEM_BYTES - 2048)) & ~((1u << c.size_log2) - 1));
        c.en = !rng.chance(5);
        unsigned sl = c.size_log2, esl = c.esize_log2;
        if (rng.chance(5)) sl = rng.chance(50) ? 7 : 25;   // malformed sizes
        if (rng.chance(5)) esl = rng.chance(50) ? rng.below(3) : 7;
        // larger sizes on base 0, which each would allow: 2 and 4 KiB
        // buffers (all the bench's memory can hold) and sizes past the
        // largest, TG_Q_MAX_LOG2, which only the size's own check refuses;
        // and a base off its size's alignment (only the base's own check
        // refuses that)
        if (rng.chance(6)) {
            sl = rng.chance(50) ? 11 + rng.below(2) : 25 + rng.below(7);
            c.base = 0;
        } else if (rng.chance(3)) {
            c.base += 8u << rng.below(c.size_log2 - 3);
        }
        uint32_t tail = TG_Q_SLOTS;
        if (rng.chance(5)) tail = rng.chance(50) ? 8 : TG_Q_SLOTS + 4;
        csr_write(TG_CSR_REG_QSEL, i);
        csr_write(TG_CSR_REG_QBASE, c.base);
        csr_write(TG_CSR_REG_QCFG, sl | (esl << 8) | (c.en ? TG_QCFG_ENABLE : 0) |
                                       (rng.chance(5) ? TG_QCFG_FULL : 0));
        csr_write(TG_CSR_REG_QTAIL, tail);
        // the consumer: an empty buffer
        ref.mem.store64(c.base + TG_Q_HEAD, TG_Q_SLOTS);
        dut.mem.store64(c.base + TG_Q_HEAD, TG_Q_SLOTS);
    }

    // the consumer takes some entries: head moves towards the tail
    void move_head(unsigned i)
    {
        const QCfg &c = q[i];
        uint64_t tail = ref.mem.load64(c.base + TG_Q_TAIL);
        uint64_t head = ref.mem.load64(c.base + TG_Q_HEAD);
        uint64_t nh = rng.chance(50) ? tail : head;
        if (rng.chance(10)) nh = rng.next();             // a broken head word
        if (rng.chance(10)) {
            // broken above bit 23, its low bits the slot after the tail:
            // not a head that stops the queue
            uint64_t next = tail + (1u << c.esize_log2);
            if (next >= (1u << c.size_log2)) next = TG_Q_SLOTS;
            nh = ((rng.next() | 1) << 32) | next;
        }
        if (rng.chance(10)) nh = TG_Q_SLOTS + (rng.below(1u << c.size_log2) & ~7u);
        ref.mem.store64(c.base + TG_Q_HEAD, nh);
        dut.mem.store64(c.base + TG_Q_HEAD, nh);
        if (rng.chance(30)) {
            // the driver clears the full state and reopens the queue
            csr_write(TG_CSR_REG_QSEL, i);
            csr_write(TG_CSR_REG_QCFG, c.size_log2 | (c.esize_log2 << 8) | (c.en ? TG_QCFG_ENABLE : 0));
        }
    }

    void set_region(unsigned i)
    {
        Region &r = reg[i];
        csr_write(TG_CSR_REG_RSEL, i);
        csr_write(TG_CSR_REG_RCFG, 0);
        r.base = i == 0 ? 0 : (uint32_t)(rng.below(MEM_BYTES) & ~7u);
        r.len = i == 0 ? MEM_BYTES : 8 + rng.below(MEM_BYTES / 2);
        r.key = (rng.next() << TG_KEY_IDX_BITS) | i;
        r.rights = rng.chance(70) ? 15 : rng.below(16);
        r.valid = !rng.chance(10);
        csr_write(TG_CSR_REG_RBASE, r.base);
        csr_write(TG_CSR_REG_RLEN, r.len);
        csr_write(TG_CSR_REG_RKEY, r.key);
        csr_write(TG_CSR_REG_RCFG, (r.valid ? TG_RCFG_VALID : 0) | r.rights);
    }

    void set_fetch(unsigned i)
    {
        Ft &f = ft[i];
        f.node = (uint16_t)rng.below(8);
        f.laddr = (uint32_t)(rng.below(MEM_BYTES - BLK) & ~7u);
        f.cpl = (uint32_t)(rng.below(MEM_BYTES - 8) & ~7u);
        f.mask = rng.chance(50) ? ~0ull : rng.next();
        f.valid = true;
        ft_set = true;
        ft_idx = i;
        tick();
    }

    void reconfigure()
    {
        switch (rng.below(8)) {
        case 0: set_queue(rng.below(NQ)); break;
        case 1:
        case 2: move_head(rng.below(NQ)); break;
        case 3: set_region(rng.below(NR)); break;
        case 4:
            prot_on = rng.chance(40);
            csr_write(TG_CSR_REG_PROT_CFG, prot_on ? TG_PROT_CFG_ENABLE : 0);
            break;
        case 5: mem_size = rng.chance(80) ? MEM_BYTES : (uint32_t)rng.below(MEM_BYTES + 1); break;
        case 6:
            csr_write(TG_CSR_REG_QARM, rng.below(4));
            csr_write(TG_CSR_REG_IRQ_MASK, rng.next());
            if (rng.chance(50)) csr_write(TG_CSR_REG_IRQ_STATUS, rng.next());
            break;
        default: set_fetch(rng.below(NFT)); break;
        }
    }

    // ------------------------------------------------------------ frames
    uint64_t some_key()
    {
        if (rng.chance(80)) return reg[rng.below(NR)].key;
        return rng.chance(50) ? rng.next() : (rng.next() << TG_KEY_IDX_BITS) | 7;
    }

    uint32_t some_addr(unsigned len)
    {
        if (rng.chance(4)) return (uint32_t)rng.next();                           // anywhere
        if (rng.chance(4)) return (uint32_t)(rng.below(MEM_BYTES) | 1 + rng.below(7));  // misaligned
        if (rng.chance(5)) return (uint32_t)((mem_size - len + 8 * rng.below(3)) & ~7u);  // at the end
        return (uint32_t)(rng.below(MEM_BYTES - len + 1) & ~7u);
    }

    // a frame and what it is; len is its length field
    Bytes make(unsigned &kind, unsigned &len)
    {
        tg_frame_hdr h{};
        h.ver = TG_PROTO_VERSION;
        h.src = (uint16_t)rng.below(8);
        h.dst = node;
        h.seq = (uint32_t)rng.next();
        h.ack = (uint32_t)rng.next();
        h.key = some_key();
        h.ctx = (uint8_t)(rng.chance(90) ? rng.below(4) : rng.next());
        h.tag = (uint16_t)rng.next() & ~(TG_TAG_FETCH | TG_TAG_REQ);
        h.flags = (uint8_t)(rng.chance(80) ? 0 : rng.next() & ~TG_FLAG_SEQ);
        h.status = (uint8_t)(rng.chance(80) ? 0 : rng.below(10));
        h.rsvd = 0;
        uint8_t pl[TG_MAX_PAYLOAD];
        for (auto &x : pl) x = (uint8_t)rng.next();
        unsigned blen = 8 * (1 + rng.below(BLK / 8));
        if (rng.chance(5)) blen = 8 * (1 + rng.below(8));                        // longer than the block
        unsigned r = rng.below(100);
        if (r < 22) {
            kind = 0;
            h.op = TG_OP_WRITE;
            h.len = (uint8_t)blen;
            h.addr = some_addr(blen);
            h.mask = rng.chance(50) ? ~0ull : rng.next();
        } else if (r < 36) {
            kind = 1;
            h.op = TG_OP_READ_REQ;
            h.len = (uint8_t)(rng.chance(50) ? 0 : blen);   // a fence reports and clears a refusal
            h.addr = some_addr(h.len);
            h.mask = rng.chance(50) ? ~0ull : rng.next();
        } else if (r < 60) {
            kind = 2;
            h.op = TG_OP_REQ;
            const QCfg &c = q[rng.below(NQ)];
            h.addr = rng.chance(92) ? c.base : some_addr(8);
            if (rng.chance(3)) h.addr |= 1ull << 40;
            unsigned es = 1u << c.esize_log2;
            h.len = (uint8_t)(8 * (1 + rng.below(std::min(es, BLK) / 8)));
            if (rng.chance(5)) h.len = rng.chance(50) ? 0 : (uint8_t)blen;
            h.flags = (uint8_t)(rng.chance(30) ? TG_FLAG_RETRY : 0);
            h.tag = (uint16_t)(TG_TAG_REQ | rng.below(4));
            h.mask = ~0ull;
        } else if (r < 76) {
            kind = 3;
            static const uint8_t AOPS[] = {TG_OP_FAA, TG_OP_SWAP, TG_OP_CAS};
            h.op = AOPS[rng.below(3)];
            h.len = (uint8_t)(rng.chance(95) ? TG_ATOMIC_LEN : 8);
            h.addr = some_addr(8);
            h.mask = 0xFF;
            uint64_t cur = (h.addr + 8 <= MEM_BYTES && !(h.addr & 7)) ? ref.mem.load64((uint32_t)h.addr) : 0;
            // a CAS compare equal to the word, one byte off (any of the
            // eight: the byte-serial compare must look at every byte), or
            // random; an FAA operand that carries through every byte (the
            // word's negation: the sum wraps to 0), none (its complement),
            // or random
            unsigned cmp_kind = rng.below(10);
            uint64_t cmp = cmp_kind < 4 ? cur : cmp_kind < 8 ? cur ^ (1ull << (8 * rng.below(8) + rng.below(8)))
                                                             : rng.next();
            std::memcpy(pl + 8, &cmp, 8);
            unsigned opnd_kind = rng.below(10);
            if (opnd_kind < 3) {
                uint64_t opnd = opnd_kind == 0 ? 0 - cur : opnd_kind == 1 ? ~cur : 1;
                std::memcpy(pl, &opnd, 8);
            }
        } else if (r < 90) {
            kind = 4;
            h.op = rng.chance(70) ? TG_OP_READ_RESP : TG_OP_ATOMIC_RESP;
            if (h.op == TG_OP_READ_RESP) {
                h.len = (uint8_t)(rng.chance(20) ? 0 : blen);
            } else {
                h.len = h.status ? 0 : 8;
            }
            if (rng.chance(65)) {
                unsigned i = rng.below(NFT);
                h.tag = (uint16_t)(TG_TAG_FETCH | i);
                if (rng.chance(85)) h.src = ft[i].node;
            }
            h.addr = rng.next() & 0xFFFFFFF8u;
            h.mask = rng.chance(50) ? ~0ull : rng.next();
        } else if (r < 96) {
            kind = 5;
            h.op = TG_OP_REQ_RESP;
            h.tag = (uint16_t)(TG_TAG_REQ | rng.below(4));
            h.len = 0;
        } else {
            kind = 6;
            h.op = rng.chance(50) ? TG_OP_ACK : TG_OP_NAK;
            h.len = 0;
        }
        len = h.len;
        Bytes f = tb_frame(h, pl);
        if (rng.chance(2)) {
            kind = 7;
            f[TG_HDR_OFF + 20 + rng.below(20)] ^= (uint8_t)(1u << rng.below(8));   // damaged on the wire
        } else if (rng.chance(2)) {
            kind = 7;
            f[TG_HDR_OFF + TG_H_DST + 1] ^= 0x40;                               // another node's
            tb_refcs(f);
        }
        return f;
    }

    bool quiet()
    {
        const Vtb_rx_engine8_pair &t = *m;
        return t.ref_idle && t.dut_idle && ref.mem.q.empty() && dut.mem.q.empty() && !t.ref_tx_tvalid &&
               !t.dut_tx_tvalid && !ref.fto_pending && !dut.fto_pending && ref_src.idle() &&
               dut_frames.empty() && t.dut_rx_tvalid == 0;
    }

    // run until both sides have done everything
    void settle()
    {
        unsigned calm = 0;
        uint64_t end = cyc + 200000;
        while (calm < 40 && cyc < end) {
            tick();
            calm = quiet() ? calm + 1 : 0;
        }
        TB_CHECK(calm >= 40, "cycle %llu: the two sides did not come to rest", (unsigned long long)cyc);
    }

    void compare(const char *when)
    {
        compares++;
        size_t at = 0;
        while (at < MEM_BYTES && ref.mem.mem[at] == dut.mem.mem[at]) at++;
        TB_CHECK(at == MEM_BYTES, "%s: memories differ at byte %zu (%02x, byte side %02x)", when, at,
                 at < MEM_BYTES ? ref.mem.mem[at] : 0, at < MEM_BYTES ? dut.mem.mem[at] : 0);
        TB_CHECK(ref.tx.size() == dut.tx.size(), "%s: %zu response frames, byte side %zu", when, ref.tx.size(),
                 dut.tx.size());
        while (!ref.tx.empty() && !dut.tx.empty()) {
            const Bytes &a = ref.tx.front(), &b = dut.tx.front();
            size_t n = std::min(a.size(), b.size());
            size_t d = (size_t)(std::mismatch(a.begin(), a.begin() + n, b.begin()).first - a.begin());
            TB_CHECK(a == b, "%s: response frame differs (%zu and %zu bytes) at byte %zu: %02x, byte side %02x",
                     when, a.size(), b.size(), d, d < a.size() ? a[d] : 0, d < b.size() ? b[d] : 0);
            ref.tx.pop_front();
            dut.tx.pop_front();
            resp_frames++;
        }
        ref.tx.clear();
        dut.tx.clear();
        TB_CHECK(ref.hrd.size() == dut.hrd.size(), "%s: %zu host answers, byte side %zu", when, ref.hrd.size(),
                 dut.hrd.size());
        while (!ref.hrd.empty() && !dut.hrd.empty()) {
            const Hrd &a = ref.hrd.front(), &b = dut.hrd.front();
            TB_CHECK(a == b, "%s: host answer src %u tag %04x status %u data %016llx, byte side %u %04x %u %016llx",
                     when, a.src, a.tag, a.status, (unsigned long long)a.data, b.src, b.tag, b.status,
                     (unsigned long long)b.data);
            ref.hrd.pop_front();
            dut.hrd.pop_front();
            host_answers++;
        }
        ref.hrd.clear();
        dut.hrd.clear();
        TB_CHECK(ref.qr == dut.qr, "%s: REQ answers differ (%zu, byte side %zu)", when, ref.qr.size(),
                 dut.qr.size());
        req_answers += ref.qr.size();
        ref.qr.clear();
        dut.qr.clear();
        for (int i = 0; i < 8; i++)
            TB_CHECK(ref.ev[i] == dut.ev[i], "%s: %s events %llu, byte side %llu", when, EV_NAMES[i],
                     (unsigned long long)ref.ev[i], (unsigned long long)dut.ev[i]);
        for (int i = 0; i < 4; i++)
            TB_CHECK(ref.rx_ev[i] == dut.rx_ev[i], "%s: verdict %d events %llu, byte side %llu", when, i,
                     (unsigned long long)ref.rx_ev[i], (unsigned long long)dut.rx_ev[i]);
        TB_CHECK(m->ref_ft_valid == m->dut_ft_valid, "%s: fetch table %04x, byte side %04x", when,
                 m->ref_ft_valid, m->dut_ft_valid);
        TB_CHECK(m->ref_irq == m->dut_irq, "%s: irq %u, byte side %u", when, m->ref_irq, m->dut_irq);
        for (unsigned i = 0; i < NQ; i++)
            for (unsigned f = 0; f < 32; f += 8)
                csr_compare((uint16_t)(TG_CSR_QVIEW_BASE + i * TG_CSR_QVIEW_STRIDE + f), "queue table");
        csr_compare(TG_CSR_REG_IRQ_STATUS, "IRQ_STATUS");
    }

    void feed(const Bytes &f)
    {
        ref_src.frames.push_back(f);
        dut_frames.push_back(f);
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        m->rst = 0;
        // the block and refusal tables are cleared after reset (2^BLK_SRC_BITS * 16 cycles)
        for (int i = 0; i < 80; i++) tick();
        for (unsigned i = 0; i < MEM_BYTES; i++) {
            uint8_t b = (uint8_t)rng.next();
            ref.mem.mem[i] = b;
            dut.mem.mem[i] = b;
        }
        for (unsigned i = 0; i < NQ; i++) set_queue(i);
        for (unsigned i = 0; i < NR; i++) set_region(i);
        for (unsigned i = 0; i < NFT; i++) set_fetch(i);
    }

    // one frame or overdue fetch at a time; everything compared after each
    void lockstep(unsigned rounds)
    {
        for (unsigned n = 0; n < rounds; n++) {
            while (rng.chance(30)) reconfigure();
            if (rng.chance(3)) {
                unsigned i = rng.below(NFT);
                if (ft[i].valid && (m->ref_ft_valid >> i & 1)) {
                    fto_idx = i;
                    kinds[8]++;
                    unsigned kind = 4, len;
                    Bytes f;
                    while (kind == 4 || kind == 7) f = make(kind, len);   // not an answer to a fetch
                    if (rng.chance(50)) {
                        fto_with_frame = true;
                        kinds[kind]++;
                        feed(f);
                        frames++;
                    } else {
                        ref.fto_pending = dut.fto_pending = true;
                    }
                }
            } else {
                unsigned kind, len;
                Bytes f = make(kind, len);
                kinds[kind]++;
                feed(f);
                frames++;
                uint64_t rb = ref_busy, db = dut_busy_cyc;
                settle();
                kind_n[kind]++;
                kind_ref[kind] += ref_busy - rb;
                kind_dut[kind] += dut_busy_cyc - db;
                kind_max[kind] = std::max(kind_max[kind], dut_busy_cyc - db);
                kind_rmax[kind] = std::max(kind_rmax[kind], ref_busy - rb);
                kind_wire[kind] += f.size() + 20;
                // an answer without payload carries no data word
                if (len < 8) {
                    for (Hrd &h : ref.hrd) h.has_data = false;
                    for (Hrd &h : dut.hrd) h.has_data = false;
                }
            }
            settle();
            compare("lockstep");
        }
    }

    // frames as a MAC delivers them, the next one while the last is
    // executed and responses held up by the transmitter; the feed waits
    // while three frames wait in the byte side's slots, so none is dropped
    // as busy, and the results must still agree
    void stream(unsigned count)
    {
        uint64_t fed = 0, dropped0 = dut.rx_ev[1] + dut.rx_ev[2] + dut.rx_ev[3] + dut.rx_ev[4];
        uint64_t taken0 = dut_frames_taken, busy0 = dut_busy, c0 = cyc;
        for (unsigned n = 0; n < count;) {
            uint64_t dropped = dut.rx_ev[1] + dut.rx_ev[2] + dut.rx_ev[3] + dut.rx_ev[4] - dropped0;
            uint64_t held = fed - dropped - (dut_frames_taken - taken0);
            if (dut_frames.empty() && held < 3) {
                unsigned kind, len;
                Bytes f = make(kind, len);
                if (kind == 4 && len < 8) continue;   // no data word to compare
                feed(f);
                fed++;
                n++;
            }
            tick();
        }
        settle();
        TB_CHECK(dut_busy == busy0, "%llu frames dropped as busy in the stream", (unsigned long long)(dut_busy - busy0));
        stream_frames += fed;
        stream_cycles += cyc - c0;
        compare("stream");
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    struct Run {
        unsigned stall, tx_stall, lat;
    } runs[] = {{0, 0, 1}, {30, 20, 4}, {60, 50, 12}};
    uint64_t seed = 7, frames = 0, compares = 0, resp = 0, hosts = 0, reqs = 0, wr = 0, rd = 0;
    uint64_t sframes = 0, scycles = 0, kn[8] = {0}, kd[8] = {0}, kr[8] = {0}, kw[8] = {0}, kx[8] = {0}, krx[8] = {0};
    bool first = true;
    std::vector<uint64_t> kinds(16, 0), ev(8, 0);
    for (const Run &r : runs) {
        Tb tb(seed++ * 0x9E3779B1u);
        tb.node = (uint16_t)(1 + tb.rng.below(0xFFFE));
        tb.stall_pct = r.stall;
        tb.tx_stall_pct = r.tx_stall;
        tb.ref_sink.stall_pct = 0;
        tb.ref.mem.lat_max = tb.dut.mem.lat_max = r.lat;
        tb.reset();
        tb.lockstep(3000);
        tb.stream(1500);
        tb.lockstep(200);
        frames += tb.frames;
        compares += tb.compares;
        resp += tb.resp_frames;
        hosts += tb.host_answers;
        reqs += tb.req_answers;
        wr += tb.dut.mem.writes;
        sframes += tb.stream_frames;
        scycles += tb.stream_cycles;
        if (first) {
            // the run without wait states gives the figures per kind
            for (int k = 0; k < 8; k++) {
                kn[k] = tb.kind_n[k];
                kd[k] = tb.kind_dut[k];
                kr[k] = tb.kind_ref[k];
                kw[k] = tb.kind_wire[k];
                kx[k] = tb.kind_max[k];
                krx[k] = tb.kind_rmax[k];
            }
            first = false;
        }
        rd += tb.dut.mem.reads;
        for (int i = 0; i < 16; i++) kinds[i] += tb.kinds[i];
        for (int i = 0; i < 8; i++) ev[i] += tb.ref.ev[i];
    }
    std::printf("tg_rx_engine8: %llu frames and overdue fetches, each side compared %llu times: "
                "%llu writes, %llu reads, %llu REQs, %llu atomics, %llu answers, %llu REQ answers, "
                "%llu ACK/NAK, %llu dropped, %llu overdue\n",
                (unsigned long long)frames, (unsigned long long)compares, (unsigned long long)kinds[0],
                (unsigned long long)kinds[1], (unsigned long long)kinds[2], (unsigned long long)kinds[3],
                (unsigned long long)kinds[4], (unsigned long long)kinds[5], (unsigned long long)kinds[6],
                (unsigned long long)kinds[7], (unsigned long long)kinds[8]);
    std::printf("tg_rx_engine8: equal on both sides: %llu response frames, %llu host answers, %llu REQ answers; "
                "byte side's memory requests: %llu writes, %llu reads\n",
                (unsigned long long)resp, (unsigned long long)hosts, (unsigned long long)reqs,
                (unsigned long long)wr, (unsigned long long)rd);
    std::printf("tg_rx_engine8: stream: %llu frames back to back in %llu cycles, none dropped as busy\n",
                (unsigned long long)sframes, (unsigned long long)scycles);
    static const char *const KN[6] = {"write", "read or fence", "REQ", "atomic", "answer", "REQ answer"};
    std::printf("tg_rx_engine8: engine cycles per frame, memory answering in 1 cycle, refusals included: "
                "byte side mean / most, 64-bit engine mean / most, the frame on the wire (bytes with preamble "
                "and gap) mean\n");
    for (int k = 0; k < 6; k++)
        if (kn[k])
            std::printf("  %-14s %6.1f / %3llu   %5.1f / %3llu   wire %6.1f\n", KN[k], (double)kd[k] / kn[k],
                        (unsigned long long)kx[k], (double)kr[k] / kn[k], (unsigned long long)krx[k],
                        (double)kw[k] / kn[k]);
    std::printf("tg_rx_engine8: events on both sides:");
    for (int i = 0; i < 8; i++) std::printf(" %s %llu", EV_NAMES[i], (unsigned long long)ev[i]);
    std::printf("\n");
    // every outcome the engine has must have been reached
    for (int i = 0; i < 8; i++) TB_CHECK(ev[i] >= 20, "only %llu %s events", (unsigned long long)ev[i], EV_NAMES[i]);
    return tb_finish("tg_rx_engine8");
}
