// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the descriptor-to-byte-frame writer: random request
// descriptors (every opcode the host port sends, and the others, with
// every length up to the block, random fields and payloads) written by
// tg_txd8 into tg_eth_tx8's slots, with the writer granted at random and
// the output stalled at random; every frame on the wire must equal the C
// encoder's for the same fields (no status, sequence or acknowledgement),
// in order and once; a frame is begun only while granted, and the
// descriptor is taken only with its frame's hand-over. Every REQ frame is
// kept by its slot (the tag's low bits); a REQ with the kept frame's tag
// is a resend: with new flags and every other field of the descriptor
// random, it must give the kept frame with the new flags.
#include "Vtb_txd8.h"
#include "verilated.h"
#include "tb.hpp"

#include <algorithm>
#include <memory>

static const unsigned BLK = 16;
static const uint8_t OPS[] = {TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_REQ, TG_OP_FAA, TG_OP_SWAP, TG_OP_CAS,
                              TG_OP_READ_RESP, TG_OP_ATOMIC_RESP, TG_OP_REQ_RESP};

struct Desc {
    tg_frame_hdr h;
    uint8_t pl[TG_MAX_PAYLOAD];
    bool resend;
    Bytes frame;
};

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::unique_ptr<Vtb_txd8> m(new Vtb_txd8);
    TbRng rng(0x7A5D8);
    uint64_t cyc = 0, frames = 0, bytes = 0;
    std::deque<Desc> sent;   // taken, not yet seen whole
    Desc cur{};
    bool have = false;
    Bytes out;
    uint16_t node = 0;
    unsigned grant_pct = 50, stall_pct = 0;
    bool was_busy = false;
    bool offered = false;
    Desc kept[16];          // the REQ frame each slot of copies holds
    bool kept_valid[16] = {};
    uint16_t old_tag[16];   // ... held before the last reset, which forgets it
    bool old_valid[16] = {};
    uint64_t resends = 0;

    auto make = [&](Desc &d) {
        unsigned ks = (unsigned)rng.below(16);
        if (kept_valid[ks] && rng.chance(25)) {
            // a resend: flags and length from the descriptor, the rest
            // of the frame from the copy; the other fields are noise
            Desc k = kept[ks];
            k.h.flags = (uint8_t)rng.next();
            k.resend = true;
            k.frame = tb_frame(k.h, k.pl);
            d = k;
            d.h.dst = (uint16_t)rng.next();
            d.h.key = rng.next();
            d.h.addr = (uint32_t)rng.next();
            d.h.mask = rng.next() & ((1ull << BLK) - 1);
            d.h.ctx = (uint8_t)rng.next();
            for (unsigned i = 0; i < BLK; i++) d.pl[i] = (uint8_t)rng.next();
            return;
        }
        d.resend = false;
        tg_frame_hdr &h = d.h;
        h = tg_frame_hdr{};
        h.ver = TG_PROTO_VERSION;
        h.op = OPS[rng.below(sizeof OPS)];
        h.flags = (uint8_t)rng.next();
        h.src = node;
        h.dst = (uint16_t)rng.next();
        h.key = rng.next();
        h.addr = (uint32_t)rng.next();
        h.mask = rng.next() & ((1ull << BLK) - 1);
        h.len = (uint8_t)(8 * rng.below(BLK / 8 + 1));
        h.ctx = (uint8_t)rng.next();
        h.tag = (uint16_t)rng.next();
        // a new REQ never has the tag of the frame kept in its slot; it may
        // have that of a frame kept before the last reset
        if (h.op == TG_OP_REQ && old_valid[h.tag & 15] && rng.chance(30)) {
            h.tag = old_tag[h.tag & 15];
            old_valid[h.tag & 15] = false;
        }
        if (h.op == TG_OP_REQ && kept_valid[h.tag & 15] && kept[h.tag & 15].h.tag == h.tag) h.tag ^= 0x10;
        for (auto &x : d.pl) x = 0;
        for (unsigned i = 0; i < BLK; i++) d.pl[i] = (uint8_t)rng.next();
        d.frame = tb_frame(h, d.pl);
    };

    auto tick = [&](bool rst) {
        Vtb_txd8 &t = *m;
        t.rst = rst;
        t.cfg_node_id = node;
        if (!have) {
            make(cur);
            have = true;
        }
        // valid, once raised, stays until the descriptor is taken
        if (!offered) offered = !rst && !rng.chance(20);
        t.s_txd_valid = offered;
        t.s_txd_op = cur.h.op;
        t.s_txd_flags = cur.h.flags;
        t.s_txd_dst = cur.h.dst;
        t.s_txd_addr = (uint32_t)cur.h.addr;
        t.s_txd_mask = (uint16_t)cur.h.mask;
        t.s_txd_len = cur.h.len;
        t.s_txd_ctx = cur.h.ctx;
        t.s_txd_tag = cur.h.tag;
        t.s_txd_key = cur.h.key;
        for (unsigned w = 0; w < BLK / 4; w++) {
            uint32_t v = 0;
            for (unsigned k = 0; k < 4; k++) v |= (uint32_t)cur.pl[4 * w + k] << (8 * k);
            t.s_txd_payload[w] = v;
        }
        t.grant = rng.chance(grant_pct);
        bool ready = !rng.chance(stall_pct);
        t.m_tx_tready = ready;
        t.clk = 0;
        t.eval();
        if (!rst) {
            // a frame begins only while granted and a slot is free
            if (t.s_txd_valid && t.s_txd_ready) {
                if (cur.resend) {
                    resends++;
                } else if (cur.h.op == TG_OP_REQ) {
                    kept[cur.h.tag & 15] = cur;
                    kept_valid[cur.h.tag & 15] = true;
                }
                sent.push_back(cur);
                have = false;
                offered = false;
            }
            if (t.m_tx_tvalid && ready) {
                out.push_back(t.m_tx_tdata);
                bytes++;
                if (t.m_tx_tlast) {
                    TB_CHECK(!sent.empty(), "a frame out with no descriptor taken");
                    if (!sent.empty()) {
                        const Bytes &e = sent.front().frame;
                        TB_CHECK(out == e, "frame %llu (op %u, len %u, %zu bytes) differs from the encoder's at byte %zu",
                                 (unsigned long long)frames, sent.front().h.op, sent.front().h.len, out.size(),
                                 (size_t)(std::mismatch(out.begin(), out.begin() + std::min(out.size(), e.size()),
                                                        e.begin()).first - out.begin()));
                        sent.pop_front();
                    }
                    out.clear();
                    frames++;
                }
            }
        }
        bool granted_now = t.grant && t.slot_free;
        t.clk = 1;
        t.eval();
        cyc++;
        // busy after this edge must have come from a grant in the cycle before
        if (!rst && t.st_busy && !was_busy) {
            TB_CHECK(granted_now, "cycle %llu: a frame begun without the grant", (unsigned long long)cyc);
        }
        was_busy = t.st_busy;
    };

    const unsigned grants[] = {100, 50, 5};
    const unsigned stalls[] = {0, 40, 90};
    for (unsigned g : grants) {
        for (unsigned s : stalls) {
            grant_pct = g;
            stall_pct = s;
            node = (uint16_t)rng.next();
            for (int i = 0; i < 3; i++) tick(true);
            sent.clear();
            out.clear();
            for (unsigned k = 0; k < 16; k++) {   // the reset forgets every copy
                old_tag[k] = kept[k].h.tag;
                old_valid[k] = kept_valid[k];
                kept_valid[k] = false;
            }
            have = false;
            offered = false;
            was_busy = false;
            uint64_t f0 = frames;
            while (frames - f0 < 400 && cyc < 50000000) tick(false);
            for (int i = 0; i < 2000 && !sent.empty(); i++) tick(false);
        }
    }
    std::printf("tg_txd8: %llu frames (%llu bytes, %llu resends of kept REQs) equal to the encoder's\n",
                (unsigned long long)frames, (unsigned long long)bytes, (unsigned long long)resends);
    TB_CHECK(frames >= 3600, "only %llu frames", (unsigned long long)frames);
    TB_CHECK(resends >= 300, "only %llu resends", (unsigned long long)resends);
    return tb_finish("tg_txd8");
}
