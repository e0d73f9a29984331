// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Shared pieces of the FPGA benches: GMII byte-stream source and sink,
// and encoding and decoding of memory-bus bridge frames.
#ifndef TG_GMII_HPP
#define TG_GMII_HPP

#include "tb.hpp"

#include <cstring>

// Frame bytes (FCS included) with preamble and start delimiter in front.
static inline Bytes gmii_wire(const Bytes &frame)
{
    Bytes w(7, 0x55);
    w.push_back(0xD5);
    w.insert(w.end(), frame.begin(), frame.end());
    return w;
}

// Drives whole frames (preamble included) onto GMII, one byte a cycle,
// with at least `gap` idle cycles between frames.
struct GmiiSource {
    std::deque<Bytes> frames;
    std::deque<int> err_at;   // per frame: byte index with rx_er set, or -1
    size_t pos = 0;
    unsigned idle = 12;
    unsigned gap = 12;

    void push(const Bytes &wire, int err = -1)
    {
        frames.push_back(wire);
        err_at.push_back(err);
    }
    bool busy() const { return !frames.empty() || idle < gap; }
    // Outputs for the next cycle.
    void next(uint8_t &dv, uint8_t &er, uint8_t &d)
    {
        dv = 0, er = 0, d = 0;
        if (idle < gap || frames.empty()) {
            idle++;
            return;
        }
        const Bytes &f = frames.front();
        dv = 1;
        d = f[pos];
        er = (err_at.front() == (int)pos);
        if (++pos == f.size()) {
            frames.pop_front();
            err_at.pop_front();
            pos = 0;
            idle = 0;
        }
    }
};

// Collects GMII frames: checks preamble, start delimiter and FCS, and
// measures the gap before each frame.
struct GmiiSink {
    std::deque<Bytes> frames;   // without preamble and FCS
    Bytes cur;
    bool in = false;
    bool err = false;
    unsigned idle = 1000;
    unsigned min_gap = 1000;
    unsigned bad = 0;

    void sample(bool en, bool er, uint8_t d)
    {
        if (en) {
            if (!in) {
                if (idle < min_gap) min_gap = idle;
                in = true;
                cur.clear();
                err = false;
            }
            cur.push_back(d);
            err |= er;
            return;
        }
        idle = in ? 1 : idle + 1;
        if (!in) return;
        in = false;
        bool ok = cur.size() >= 12 && !err;
        for (unsigned i = 0; ok && i < 7; i++) ok = cur[i] == 0x55;
        ok = ok && cur[7] == 0xD5;
        Bytes f(cur.begin() + (ok ? 8 : 0), cur.end());
        ok = ok && tg_crc32_update(0xFFFFFFFFu, f.data(), f.size()) == TG_FCS_RESIDUE;
        if (!ok) {
            bad++;
            return;
        }
        f.resize(f.size() - 4);
        frames.push_back(f);
    }
};

// ---------------------------------------------------------------- bridge frames
static inline void bridge_mac(uint8_t mac[6], uint16_t node)
{
    tg_bridge_mac(mac, node);
}

static const uint8_t HOST_MAC[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x42};

struct BridgeMsg {
    uint8_t op = 0;
    uint16_t seq = 0;
    uint64_t addr = 0;
    uint8_t strb = 0;   // a request's byte enables, a response's status
    uint64_t data = 0;
};

// A request frame (without FCS) to the bridge of `node`.
static inline Bytes bridge_request(uint16_t node, const BridgeMsg &m,
                                   uint16_t ethertype = TG_BRIDGE_ETHERTYPE)
{
    Bytes f(TG_BRIDGE_FRAME_BYTES, 0);
    bridge_mac(&f[0], node);
    std::memcpy(&f[6], HOST_MAC, 6);
    __tg_put_be(&f[12], ethertype, 2);
    f[TG_BRIDGE_OFF_VER] = TG_BRIDGE_VERSION;
    f[TG_BRIDGE_OFF_OP] = m.op;
    __tg_put_be(&f[TG_BRIDGE_OFF_SEQ], m.seq, 2);
    __tg_put_be(&f[TG_BRIDGE_OFF_ADDR], m.addr, 8);
    f[TG_BRIDGE_OFF_STRB] = m.strb;
    for (unsigned i = 0; i < 8; i++) f[TG_BRIDGE_OFF_DATA + i] = (uint8_t)(m.data >> (8 * i));
    return f;
}

// A host-port write burst (BRIDGE_OP_BAR_BURST | extra op bits): the word
// count in strb, word i's byte enables in data byte i, the words from
// BRIDGE_OFF_WORDS. `n` may differ from words.size() to make bad requests.
static inline Bytes bridge_burst(uint16_t node, uint16_t seq, uint64_t addr,
                                 const std::vector<uint64_t> &words,
                                 const std::vector<uint8_t> &strb, int n = -1, uint8_t op_bits = 0)
{
    BridgeMsg m;
    m.op = (uint8_t)(TG_BRIDGE_OP_BAR_BURST | op_bits), m.seq = seq, m.addr = addr;
    m.strb = (uint8_t)(n < 0 ? (int)words.size() : n);
    for (size_t i = 0; i < strb.size() && i < 8; i++) m.data |= (uint64_t)strb[i] << (8 * i);
    Bytes f = bridge_request(node, m);
    size_t end = TG_BRIDGE_OFF_WORDS + 8 * words.size();
    if (f.size() < end) f.resize(end, 0);
    for (size_t w = 0; w < words.size(); w++)
        for (unsigned i = 0; i < 8; i++) f[TG_BRIDGE_OFF_WORDS + 8 * w + i] = (uint8_t)(words[w] >> (8 * i));
    return f;
}

// The fields of a request or response frame at least TG_BRIDGE_FRAME_BYTES
// long, unchecked.
static inline BridgeMsg bridge_fields(const Bytes &f)
{
    BridgeMsg m;
    m.op = f[TG_BRIDGE_OFF_OP];
    m.seq = (uint16_t)__tg_get_be(&f[TG_BRIDGE_OFF_SEQ], 2);
    m.addr = __tg_get_be(&f[TG_BRIDGE_OFF_ADDR], 8);
    m.strb = f[TG_BRIDGE_OFF_STRB];
    for (unsigned i = 0; i < 8; i++) m.data |= (uint64_t)f[TG_BRIDGE_OFF_DATA + i] << (8 * i);
    return m;
}

// Decode a response frame (FCS removed) from the bridge of `node`.
static inline bool bridge_response(uint16_t node, const Bytes &f, BridgeMsg &m)
{
    uint8_t mac[6];
    bridge_mac(mac, node);
    if (f.size() != TG_BRIDGE_FRAME_BYTES) return false;
    if (std::memcmp(&f[0], HOST_MAC, 6) || std::memcmp(&f[6], mac, 6)) return false;
    if (__tg_get_be(&f[12], 2) != TG_BRIDGE_ETHERTYPE || f[TG_BRIDGE_OFF_VER] != TG_BRIDGE_VERSION)
        return false;
    m = bridge_fields(f);
    for (unsigned i = TG_BRIDGE_OFF_DATA + 8; i < TG_BRIDGE_FRAME_BYTES; i++)
        if (f[i]) return false;
    return true;
}

static inline uint64_t bar_addr(unsigned win, unsigned ctx, unsigned node, uint32_t paddr)
{
    return ((uint64_t)win << TG_BAR_WIN_SHIFT) | ((uint64_t)ctx << TG_BAR_CTX_SHIFT) |
           ((uint64_t)node << TG_BAR_NODE_SHIFT) | paddr;
}

#endif // TG_GMII_HPP
