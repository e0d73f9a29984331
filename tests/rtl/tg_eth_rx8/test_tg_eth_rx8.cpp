// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the byte-serial frame receiver, against the 64-bit one: both
// get the same frames (good ones of every opcode and length, and bit flips,
// edited header fields, wrong lengths, truncations, extensions, junk), and
// every frame tg_eth_rx8 judges must get tg_eth_rx's verdict. A frame that
// begins while every slot is held, or in the cycle right after the last
// byte of the frame before, is dropped as busy, exactly then; an accepted
// frame's slot holds its bytes until freed; frames are handed over in
// order; a byte in error drops its frame as FCS. Random input gaps, gaps
// between frames of 0 to 21 cycles, and slow readers.
#include "Vtb_eth_rx8_pair.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

enum Verdict { ACCEPT, DROP_FCS, DROP_TYPE, DROP_MALFORMED, DROP_BUSY, NVERDICTS };
static const char *const VERDICT_NAME[] = {"accept", "FCS drop", "type drop", "malformed drop", "busy drop"};

static const uint8_t OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_REQ, TG_OP_REQ_RESP, TG_OP_FAA,
                              TG_OP_SWAP, TG_OP_CAS, TG_OP_ATOMIC_RESP, TG_OP_ACK, TG_OP_NAK};

struct Frame {
    Bytes b;
    int err_at = -1;     // index of the byte marked in error (-1: none)
    const char *kind;
};

struct Tb {
    std::unique_ptr<Vtb_eth_rx8_pair> m;
    TbRng rng;
    uint16_t node = 0;
    uint64_t cyc = 0;

    std::deque<Frame> sent;       // every frame, in order, until both verdicts are in
    AxisSource ref_src;           // the same frames as 64-bit beats
    std::deque<Frame> feed;       // frames still to give the byte receiver
    size_t feed_pos = 0;
    unsigned gap_pct = 0;
    unsigned ifg_left = 0;        // idle cycles still due before the next frame
    bool last_given = false;      // the last cycle gave a frame's last byte

    std::deque<int> ref_verdicts, dut_verdicts;
    std::deque<Frame> accepted;   // accepted by tg_eth_rx8, not yet read and freed
    int held = 0;                 // slots the receiver holds, as the bench counts them
    std::deque<bool> busy_pred;   // per frame begun: every slot held at its first byte, or
                                  // it follows the last frame's last byte at once

    // slot reader
    unsigned hold_pct = 0;
    bool reading = false;
    unsigned rd_next = 0, rd_got = 0, rd_len = 0;
    bool rd_sent = false;         // a read address went out last cycle ...
    unsigned rd_sent_idx = 0;     // ... for this byte
    unsigned rd_slot = 0;

    uint64_t counts[NVERDICTS] = {}, compared = 0, bytes_checked = 0;

    explicit Tb(uint64_t seed) : m(new Vtb_eth_rx8_pair), rng(seed) {}

    // ------------------------------------------------------------ frames
    // A good frame for this node: every header byte random but the fields
    // the receiver checks, a random payload of the opcode's size.
    Bytes good_bytes()
    {
        uint8_t op = OPS[rng.below(sizeof OPS)];
        uint8_t len = (op == TG_OP_ACK || op == TG_OP_NAK) ? 0 : (uint8_t)(8 * rng.below(9));
        if (len && rng.chance(30)) len = TG_MAX_PAYLOAD;
        Bytes b(TG_PAYLOAD_OFF + tg_frame_payload_bytes(op, len) + TG_FCS_BYTES);
        for (auto &x : b) x = (uint8_t)rng.next();
        tg_node_mac(&b[0], node);
        b[12] = (uint8_t)(TG_ETHERTYPE >> 8);
        b[13] = (uint8_t)TG_ETHERTYPE;
        b[TG_HDR_OFF + TG_H_VER] = TG_PROTO_VERSION;
        b[TG_HDR_OFF + TG_H_OP] = op;
        b[TG_HDR_OFF + TG_H_DST] = (uint8_t)(node >> 8);
        b[TG_HDR_OFF + TG_H_DST + 1] = (uint8_t)node;
        b[TG_HDR_OFF + TG_H_LEN] = len;
        tb_refcs(b);
        return b;
    }

    Frame make()
    {
        Frame f{good_bytes(), -1, "good frame"};
        Bytes &b = f.b;
        switch (rng.below(16)) {
        case 0:
            b[rng.below((unsigned)b.size())] ^= (uint8_t)(1u << rng.below(8));
            f.kind = "bit flip";
            break;
        case 1:
            b[rng.below(TG_PAYLOAD_OFF)] = (uint8_t)rng.next();
            tb_refcs(b);
            f.kind = "header byte changed";
            break;
        case 2:
            b[TG_HDR_OFF + TG_H_LEN] = (uint8_t)(rng.chance(50) ? 8 * rng.below(12) : rng.next());
            tb_refcs(b);
            f.kind = "length field changed";
            break;
        case 3:
            b[TG_HDR_OFF + TG_H_OP] = (uint8_t)(rng.chance(50) ? rng.below(16) : rng.next());
            tb_refcs(b);
            f.kind = "opcode changed";
            break;
        case 4: {
            size_t at = rng.chance(50) ? rng.below(6) : TG_HDR_OFF + TG_H_DST + rng.below(2);
            if (rng.chance(30)) at = 12 + rng.below(3);
            b[at] ^= (uint8_t)(1u << rng.below(8));
            tb_refcs(b);
            f.kind = "destination, EtherType or version changed";
            break;
        }
        case 5:
            // any size below the frame's, often just under the smallest frame
            b.resize(rng.chance(50) ? 1 + rng.below((unsigned)b.size() - 1) : 60 + rng.below(6));
            if (rng.chance(40)) b[rng.below(6)] ^= 0x10;   // and to another node
            if (rng.chance(70)) tb_refcs(b);
            f.kind = "truncated";
            break;
        case 6:
            b.insert(b.end() - TG_FCS_BYTES, 1 + rng.below(rng.chance(50) ? 16 : 200), (uint8_t)rng.next());
            // sizes near the longest frame kept, with a wrong destination:
            // type drop up to 136 bytes, malformed beyond
            if (rng.chance(40)) b[rng.below(6)] ^= 0x10;
            if (rng.chance(80)) tb_refcs(b);
            f.kind = "extended";
            break;
        case 7:
            b.resize(1 + rng.below(300));
            for (auto &x : b) x = (uint8_t)rng.next();
            f.kind = "junk";
            break;
        case 8:
            f.err_at = (int)rng.below((unsigned)b.size());
            f.kind = "byte in error";
            break;
        default: break;
        }
        return f;
    }

    void send(const Frame &f)
    {
        sent.push_back(f);
        feed.push_back(f);
        ref_src.frames.push_back(f.b);
    }

    // ------------------------------------------------------------ one cycle
    void tick(bool rst = false)
    {
        Vtb_eth_rx8_pair &r = *m;

        // outputs registered at the last edge
        if (!rst) observe(r);

        r.rst = rst;
        r.cfg_node_id = node;
        r.ref_ready = 1;

        // tg_eth_rx: 64-bit beats
        if (rst) r.ref_tvalid = 0;
        else ref_src.drive(r.ref_tdata, r.ref_tkeep, r.ref_tvalid, r.ref_tlast, rng);

        // tg_eth_rx8: one byte, or a gap
        bool give = !rst && !feed.empty() && ifg_left == 0 && !rng.chance(gap_pct);
        if (!rst && !give && ifg_left > 0) ifg_left--;
        r.s_rx_tvalid = give;
        r.s_rx_tdata = (uint8_t)rng.next();
        r.s_rx_tlast = rng.below(2);
        r.s_rx_tuser = rng.below(2);
        if (give) {
            const Frame &f = feed.front();
            if (feed_pos == 0) busy_pred.push_back(held == 4 || last_given);
            r.s_rx_tdata = f.b[feed_pos];
            r.s_rx_tlast = feed_pos + 1 == f.b.size();
            r.s_rx_tuser = (int)feed_pos == f.err_at;
        }

        // slot reader: one address a cycle, then free the slot
        r.m_frm_ready = !r.m_frm_valid && rng.below(2);   // ready without valid frees nothing
        r.frm_rd_addr = (uint16_t)(rng.next() & 0x1FF);
        rd_sent = false;
        if (!rst && r.m_frm_valid && !rng.chance(hold_pct)) {
            if (!reading) {
                TB_CHECK(!accepted.empty(), "cycle %llu: a slot offered with no frame accepted",
                         (unsigned long long)cyc);
                reading = !accepted.empty();
                rd_next = rd_got = 0;
                rd_slot = r.m_frm_slot;
                rd_len = reading ? (unsigned)std::min<size_t>(accepted.front().b.size(), 128) : 0;
            }
            TB_CHECK(r.m_frm_slot == rd_slot, "cycle %llu: offered slot changed while held", (unsigned long long)cyc);
            if (reading && rd_next < rd_len) {
                r.frm_rd_addr = (uint16_t)(rd_slot << 7 | rd_next);
                rd_sent = true;
                rd_sent_idx = rd_next++;
            } else if (reading && rd_got == rd_len) {
                r.m_frm_ready = 1;
                reading = false;
                accepted.pop_front();
                held--;
            }
        }

        r.clk = 0;
        r.eval();
        r.clk = 1;
        r.eval();
        cyc++;
        last_given = false;
        if (give) {
            if (++feed_pos == feed.front().b.size()) {
                feed.pop_front();
                feed_pos = 0;
                last_given = true;
                // mostly the gap a MAC leaves, sometimes none at all
                unsigned r = rng.below(10);
                ifg_left = r == 0 ? 0 : r < 7 ? 1 : 2 + rng.below(20);
            }
        }
        if (!rst) ref_src.advance(r.ref_tvalid && r.ref_tready);
    }

    static int verdict_of(unsigned ev, bool busy)
    {
        if (busy) return DROP_BUSY;
        return (ev & 1) ? ACCEPT : (ev & 4) ? DROP_FCS : (ev & 8) ? DROP_TYPE : DROP_MALFORMED;
    }

    void observe(Vtb_eth_rx8_pair &r)
    {
        unsigned rev = r.ref_ev, dev = r.dut_ev;
        unsigned nref = (rev & 1) + (rev >> 2 & 1) + (rev >> 3 & 1) + (rev >> 4 & 1);
        unsigned ndut = (dev & 1) + (dev >> 2 & 1) + (dev >> 3 & 1) + (dev >> 4 & 1) + (dev >> 5 & 1);
        TB_CHECK(nref <= 1 && ndut <= 1, "cycle %llu: several verdicts at once (%02x %02x)",
                 (unsigned long long)cyc, rev, dev);
        if (nref == 1) ref_verdicts.push_back(verdict_of(rev, false));
        if (ndut == 1) {
            size_t k = dut_verdicts.size();
            int v = verdict_of(dev, dev & 32);
            dut_verdicts.push_back(v);
            counts[v]++;
            TB_CHECK(k < sent.size(), "cycle %llu: verdict with no frame sent", (unsigned long long)cyc);
            if (k < sent.size()) {
                const Frame &f = sent[k];
                bool data = (dev & 2) != 0;
                uint8_t op = f.b.size() > TG_HDR_OFF + TG_H_OP ? f.b[TG_HDR_OFF + TG_H_OP] : 0;
                TB_CHECK(data == (v == ACCEPT && op != TG_OP_ACK && op != TG_OP_NAK),
                         "cycle %llu: data-frame event %u for a %s of op %u", (unsigned long long)cyc, data,
                         VERDICT_NAME[v], op);
                if (v == ACCEPT) {
                    accepted.push_back(f);
                    held++;
                }
            }
        }
        TB_CHECK(r.m_frm_valid == (held > 0), "cycle %llu: slot offered %u with %d frames held",
                 (unsigned long long)cyc, r.m_frm_valid, held);
        if (rd_sent && reading) {
            const Bytes &b = accepted.front().b;
            TB_CHECK(r.frm_rd_data == b[rd_sent_idx], "cycle %llu: slot byte %u is %02x, frame has %02x",
                     (unsigned long long)cyc, rd_sent_idx, r.frm_rd_data, b[rd_sent_idx]);
            rd_got++;
            bytes_checked++;
        }
    }

    // ------------------------------------------------------------ compare
    void settle()
    {
        uint64_t end = cyc + 4000000;
        while ((!feed.empty() || !ref_src.idle() || dut_verdicts.size() < sent.size() ||
                ref_verdicts.size() < sent.size() || !accepted.empty()) &&
               cyc < end)
            tick();
        TB_CHECK(dut_verdicts.size() == sent.size() && ref_verdicts.size() == sent.size() && accepted.empty(),
                 "not drained: %zu frames, %zu and %zu verdicts, %zu slots unread", sent.size(),
                 ref_verdicts.size(), dut_verdicts.size(), accepted.size());
        for (int i = 0; i < 5; i++) tick();
        TB_CHECK(!m->m_frm_valid && held == 0, "a slot still offered after every frame was read");
        for (size_t k = 0; k < sent.size() && k < dut_verdicts.size() && k < ref_verdicts.size(); k++) {
            const Frame &f = sent[k];
            int d = dut_verdicts[k], rv = ref_verdicts[k];
            bool busy = k < busy_pred.size() && busy_pred[k];
            TB_CHECK((d == DROP_BUSY) == busy, "frame %zu (%s): %s, but %s at its start", k, f.kind,
                     VERDICT_NAME[d], busy ? "every slot was held or no gap came before it" : "a slot was free");
            if (d == DROP_BUSY) continue;
            int want = f.err_at >= 0 ? DROP_FCS : rv;
            TB_CHECK(d == want, "frame %zu (%s, %zu bytes): %s, tg_eth_rx says %s", k, f.kind, f.b.size(),
                     VERDICT_NAME[d], VERDICT_NAME[want]);
            compared++;
        }
        sent.clear();
        ref_verdicts.clear();
        dut_verdicts.clear();
        busy_pred.clear();
    }

    void reset()
    {
        for (int i = 0; i < 3; i++) tick(true);
        feed.clear();
        feed_pos = 0;
        ifg_left = 0;
        last_given = false;
        unsigned ref_gap = ref_src.gap_pct;
        ref_src = AxisSource();
        ref_src.gap_pct = ref_gap;
        sent.clear();
        ref_verdicts.clear();
        dut_verdicts.clear();
        busy_pred.clear();
        accepted.clear();
        held = 0;
        reading = false;
        rd_sent = false;
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    const unsigned gaps[] = {0, 40};
    const unsigned holds[] = {0, 60, 97};
    uint64_t seed = 1, compared = 0, busy = 0, checked = 0, accepted = 0;
    uint64_t kinds[NVERDICTS] = {};
    for (unsigned gp : gaps) {
        for (unsigned hp : holds) {
            Tb tb(seed * 0x3C6EF372u + 7);
            tb.node = seed == 1 ? 0xFFFF : seed == 2 ? 0 : (uint16_t)tb.rng.next();
            seed++;
            tb.gap_pct = gp;
            tb.hold_pct = hp;
            tb.ref_src.gap_pct = 50;
            tb.reset();
            for (int batch = 0; batch < 12; batch++) {
                for (int i = 0; i < 300; i++) tb.send(tb.make());
                tb.settle();
            }
            // reset with a frame half in and a slot held: nothing survives it
            for (int i = 0; i < 3; i++) tb.send(tb.make());
            for (unsigned i = 0, n = 100 + tb.rng.below(150); i < n; i++) tb.tick();
            tb.reset();
            for (int i = 0; i < 4; i++) tb.tick();
            TB_CHECK(!tb.m->m_frm_valid && tb.m->dut_ev == 0, "slot offered or verdict after reset");
            for (int i = 0; i < 200; i++) tb.send(tb.make());
            tb.settle();

            compared += tb.compared;
            busy += tb.counts[DROP_BUSY];
            checked += tb.bytes_checked;
            accepted += tb.counts[ACCEPT];
            for (int v = 0; v < NVERDICTS; v++) kinds[v] += tb.counts[v];
        }
    }
    std::printf("tg_eth_rx8: %llu verdicts compared with tg_eth_rx, %llu busy drops, %llu frames and %llu slot "
                "bytes read back\n",
                (unsigned long long)compared, (unsigned long long)busy, (unsigned long long)accepted,
                (unsigned long long)checked);
    for (int v = 0; v < NVERDICTS; v++)
        TB_CHECK(kinds[v] >= 100, "only %llu frames got %s", (unsigned long long)kinds[v], VERDICT_NAME[v]);
    return tb_finish("tg_eth_rx8");
}
