// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench of the byte-serial network port with its GMII transmit looped back
// to its receive: frames the writer builds in the transmit slots (from the
// C encoder: every opcode and payload length, random header fields) go out
// through the MAC and come back through the receiver. A frame for this
// node arrives in a receive slot byte for byte and is accepted; one for
// another node is dropped for its type; one damaged on the wire (a bit
// flipped after the start delimiter, or rx_er) is dropped for its FCS.
// Every frame gets exactly that verdict, in order, none is lost to a full
// slot while the reader keeps up, and the counts of the port's events
// agree.
#include "Vtg_net_port8.h"
#include "verilated.h"
#include "gmii.hpp"

#include <memory>

static const uint8_t OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_REQ,  TG_OP_REQ_RESP, TG_OP_FAA,
                              TG_OP_SWAP,  TG_OP_CAS,      TG_OP_ATOMIC_RESP, TG_OP_ACK, TG_OP_NAK};

enum Verdict { ACCEPT, DROP_FCS, DROP_TYPE };
static const char *const VERDICT_NAME[] = {"accept", "FCS drop", "type drop"};

struct Frame {
    Bytes b;          // the encoder's frame, FCS included
    unsigned words;   // payload words
    int want;         // verdict
    int damage;       // 0 none, 1 bit flip, 2 rx_er
};

struct Tb {
    std::unique_ptr<Vtg_net_port8> m{new Vtg_net_port8};
    TbRng rng{5};
    uint16_t node = 0x0102;
    uint64_t cyc = 0;

    std::deque<Frame> todo;       // still to write and hand over
    std::deque<Frame> wire;       // handed over, verdict not yet seen
    size_t wr_pos = TG_HDR_OFF;
    std::deque<Frame> held;       // accepted, not yet read back

    // the loop: last cycle's transmit outputs, and the frame on the wire
    uint8_t l_txd = 0, l_en = 0, l_er = 0;
    unsigned wire_pos = 0;        // GMII bytes of the current frame so far
    int wire_hit = -1;            // GMII byte to damage in it
    std::deque<Frame> on_wire;    // handed-over frames in wire order, for the damage

    // reader
    bool reading = false;
    unsigned rd_next = 0, rd_got = 0, rd_len = 0, rd_slot = 0;
    bool rd_sent = false;
    unsigned rd_sent_idx = 0;

    uint64_t counts[3] = {}, bytes_checked = 0, ev_accept = 0, ev_data = 0, ev_fcs = 0, ev_type = 0,
             ev_other = 0, ev_start = 0, ev_end = 0;

    Frame make()
    {
        tg_frame_hdr h{};
        h.ver = TG_PROTO_VERSION;
        h.op = OPS[rng.below(sizeof OPS)];
        h.flags = (uint8_t)rng.next();
        h.status = (uint8_t)rng.next();
        h.src = node;
        h.dst = rng.chance(80) ? node : (uint16_t)(node ^ (1u << rng.below(16)));
        h.seq = (uint32_t)rng.next();
        h.ack = (uint32_t)rng.next();
        h.key = rng.next();
        h.addr = rng.next();
        h.mask = rng.next();
        h.len = (h.op == TG_OP_ACK || h.op == TG_OP_NAK) ? 0 : (uint8_t)(8 * rng.below(9));
        h.ctx = (uint8_t)rng.next();
        h.tag = (uint16_t)rng.next();
        uint8_t pl[TG_MAX_PAYLOAD];
        for (auto &x : pl) x = (uint8_t)rng.next();
        Frame f{tb_frame(h, pl), tg_frame_payload_bytes(h.op, h.len) / 8, ACCEPT, 0};
        if (h.dst != node) f.want = DROP_TYPE;
        if (rng.chance(10)) {
            f.damage = 1 + rng.below(2);
            f.want = DROP_FCS;
        }
        return f;
    }

    void tick(bool rst = false)
    {
        Vtg_net_port8 &v = *m;
        v.rst = rst;
        v.cfg_node_id = node;

        // the wire: last cycle's transmit byte, perhaps damaged
        uint8_t d = l_txd, er = 0;
        if (l_en) {
            if (wire_pos == 0) {
                TB_CHECK(!on_wire.empty(), "cycle %llu: a frame on the wire that was not sent",
                         (unsigned long long)cyc);
                wire_hit = -1;
                if (!on_wire.empty() && on_wire.front().damage)
                    wire_hit = 8 + (int)rng.below((unsigned)on_wire.front().b.size());
            }
            if ((int)wire_pos == wire_hit) {
                if (on_wire.front().damage == 1) d ^= (uint8_t)(1u << rng.below(8));
                else er = 1;
            }
            wire_pos++;
        } else if (wire_pos) {
            if (!on_wire.empty()) on_wire.pop_front();
            wire_pos = 0;
        }
        v.gmii_rx_valid = !rst;
        v.gmii_rx_dv = l_en;
        v.gmii_rx_er = er || l_er;
        v.gmii_rxd = d;

        // writer: the next frame's bytes 14 on, then the hand-over
        v.s_wr_en = 0;
        v.s_frm_valid = 0;
        v.s_wr_off = 0;
        v.s_wr_data = 0;
        v.s_frm_words = 0;
        bool handed = false;
        if (!rst && !todo.empty() && v.s_frm_ready) {
            const Frame &f = todo.front();
            size_t end = f.b.size() - TG_FCS_BYTES;
            if (wr_pos < end) {
                v.s_wr_en = 1;
                v.s_wr_off = (uint8_t)wr_pos;
                v.s_wr_data = f.b[wr_pos];
                wr_pos++;
            }
            if (wr_pos == end) {
                v.s_frm_valid = 1;
                v.s_frm_words = (uint8_t)f.words;
                handed = true;
            }
        }

        // reader of the receive slots
        v.m_frm_ready = 0;
        v.frm_rd_addr = (uint16_t)(rng.next() & 0x1FF);
        rd_sent = false;
        if (!rst && v.m_frm_valid) {
            if (!reading) {
                TB_CHECK(!held.empty(), "cycle %llu: a slot offered with no frame accepted", (unsigned long long)cyc);
                reading = !held.empty();
                rd_next = rd_got = 0;
                rd_slot = v.m_frm_slot;
                rd_len = reading ? (unsigned)std::min<size_t>(held.front().b.size(), 128) : 0;
            }
            if (reading && rd_next < rd_len) {
                v.frm_rd_addr = (uint16_t)(rd_slot << 7 | rd_next);
                rd_sent = true;
                rd_sent_idx = rd_next++;
            } else if (reading && rd_got == rd_len) {
                v.m_frm_ready = 1;
                reading = false;
                held.pop_front();
            }
        }

        v.clk = 0;
        v.eval();
        v.clk = 1;
        v.eval();
        cyc++;
        l_txd = v.gmii_txd, l_en = v.gmii_tx_en, l_er = v.gmii_tx_er;
        if (rst) return;
        if (handed) {
            wire.push_back(todo.front());
            on_wire.push_back(todo.front());
            todo.pop_front();
            wr_pos = TG_HDR_OFF;
        }
        if (rd_sent && !held.empty()) {
            const Bytes &b = held.front().b;
            TB_CHECK(v.frm_rd_data == b[rd_sent_idx], "cycle %llu: slot byte %u is %02x, frame has %02x",
                     (unsigned long long)cyc, rd_sent_idx, v.frm_rd_data, b[rd_sent_idx]);
            rd_got++;
            bytes_checked++;
        }
        observe(v);
    }

    void observe(Vtg_net_port8 &v)
    {
        ev_start += v.ev_tx_start;
        ev_end += v.ev_tx_frame;
        TB_CHECK(!v.ev_tx_abort, "cycle %llu: transmit abort", (unsigned long long)cyc);
        unsigned n = v.ev_rx_frame + v.ev_drop_fcs + v.ev_drop_type + v.ev_drop_malformed + v.ev_drop_busy;
        TB_CHECK(n <= 1, "cycle %llu: several verdicts at once", (unsigned long long)cyc);
        if (n == 0) return;
        int got = v.ev_rx_frame ? ACCEPT : v.ev_drop_fcs ? DROP_FCS : v.ev_drop_type ? DROP_TYPE : -1;
        ev_accept += v.ev_rx_frame;
        ev_data += v.ev_rx_data_frame;
        ev_fcs += v.ev_drop_fcs;
        ev_type += v.ev_drop_type;
        ev_other += v.ev_drop_malformed + v.ev_drop_busy;
        TB_CHECK(!wire.empty(), "cycle %llu: a verdict with no frame sent", (unsigned long long)cyc);
        if (wire.empty()) return;
        Frame f = wire.front();
        wire.pop_front();
        TB_CHECK(got == f.want, "cycle %llu: frame of %zu bytes: %s, want %s", (unsigned long long)cyc, f.b.size(),
                 got < 0 ? (v.ev_drop_busy ? "busy drop" : "malformed drop") : VERDICT_NAME[got], VERDICT_NAME[f.want]);
        if (got >= 0) counts[got]++;
        if (got == ACCEPT) held.push_back(f);
    }

    void settle()
    {
        uint64_t end = cyc + 1000000;
        while ((!todo.empty() || !wire.empty() || !held.empty()) && cyc < end) tick();
        for (int i = 0; i < 40; i++) tick();
        TB_CHECK(todo.empty() && wire.empty() && held.empty(), "not drained: %zu to send, %zu on the wire, %zu held",
                 todo.size(), wire.size(), held.size());
    }
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb t;
    for (int i = 0; i < 4; i++) t.tick(true);
    for (int batch = 0; batch < 10; batch++) {
        for (int i = 0; i < 200; i++) t.todo.push_back(t.make());
        t.settle();
    }
    uint64_t sent = t.counts[ACCEPT] + t.counts[DROP_FCS] + t.counts[DROP_TYPE];
    TB_CHECK(t.ev_start == sent && t.ev_end == sent, "%llu frames started and %llu ended for %llu sent",
             (unsigned long long)t.ev_start, (unsigned long long)t.ev_end, (unsigned long long)sent);
    TB_CHECK(t.ev_other == 0, "%llu frames dropped as malformed or busy", (unsigned long long)t.ev_other);
    for (int v = 0; v < 3; v++)
        TB_CHECK(t.counts[v] >= 100, "only %llu frames got %s", (unsigned long long)t.counts[v], VERDICT_NAME[v]);
    std::printf("tg_net_port8: %llu frames looped back: %llu accepted (%llu data frames, %llu bytes read back), "
                "%llu FCS drops, %llu type drops\n",
                (unsigned long long)sent, (unsigned long long)t.counts[ACCEPT], (unsigned long long)t.ev_data,
                (unsigned long long)t.bytes_checked, (unsigned long long)t.counts[DROP_FCS],
                (unsigned long long)t.counts[DROP_TYPE]);
    return tb_finish("tg_net_port8");
}
