// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Shared pieces of the RTL unit tests: checks, a seeded PRNG, AXI-Stream
// frame source and sink, and a host-memory model with random wait states.
#ifndef TG_TB_HPP
#define TG_TB_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

extern "C" {
#include "tg/tg_hw.h"
#include "tg/tg_frame.h"
}

static int tb_failures = 0;
static int tb_checks = 0;

#define TB_CHECK(cond, ...)                                                   \
    do {                                                                      \
        tb_checks++;                                                          \
        if (!(cond)) {                                                        \
            tb_failures++;                                                    \
            std::fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,       \
                         __LINE__, #cond);                                    \
            std::fprintf(stderr, __VA_ARGS__);                                \
            std::fprintf(stderr, "\n");                                       \
            if (tb_failures > 20) std::exit(1);                               \
        }                                                                     \
    } while (0)

// Print the verdict and return the exit code (0 pass, 1 fail).
static inline int tb_finish(const char *name)
{
    std::printf("%s: %d checks, %d failed\n", name, tb_checks, tb_failures);
    return tb_failures ? 1 : 0;
}

struct TbRng {
    uint64_t s;
    explicit TbRng(uint64_t seed) : s(seed ? seed : 0x9E3779B97F4A7C15ull) {}
    uint64_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    unsigned below(unsigned n) { return (unsigned)(next() % n); }
    bool chance(unsigned pct) { return below(100) < pct; }
};

// The bits of a 64-bit word that the byte enables strb select.
static inline uint64_t strb_mask(uint8_t strb)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < 8; i++)
        if (strb & (1u << i)) m |= 0xFFull << (8 * i);
    return m;
}

// old with the bytes strb enables taken from data: a write with byte enables.
static inline uint64_t strb_merge(uint64_t old, uint64_t data, uint8_t strb)
{
    uint64_t m = strb_mask(strb);
    return (old & ~m) | (data & m);
}

typedef std::vector<uint8_t> Bytes;

// Drives whole frames onto an AXI-Stream, with random idle cycles.
struct AxisSource {
    std::deque<Bytes> frames;
    std::deque<bool> users;   // frames queued by push_mac: tuser on the last beat
    size_t pos = 0;
    unsigned gap_pct = 0;
    bool showing = false;

    // Queue a frame as a MAC offers it: given as on the wire, FCS included;
    // offered without its FCS, tuser set on its last beat when the FCS is
    // wrong (a frame no longer than an FCS is offered whole, marked bad).
    // Queue every frame of a source this way, or none.
    void push_mac(const Bytes &wire)
    {
        const size_t fcs = TG_FCS_BYTES;
        bool bad = wire.size() <= fcs || tg_crc32_update(0xFFFFFFFFu, wire.data(), wire.size()) != TG_FCS_RESIDUE;
        frames.push_back(wire.size() <= fcs ? wire : Bytes(wire.begin(), wire.end() - (ptrdiff_t)fcs));
        users.push_back(bad);
    }
    void clear()
    {
        frames.clear();
        users.clear();
        pos = 0;
        showing = false;
    }

    // Set the stream outputs for this cycle (call before eval with clk low).
    template <class M>
    void drive(M &tdata, uint8_t &tkeep, uint8_t &tvalid, uint8_t &tlast, TbRng &rng)
    {
        if (!showing) showing = !frames.empty() && !rng.chance(gap_pct);
        if (!showing) {
            tvalid = 0;
            return;
        }
        const Bytes &f = frames.front();
        uint64_t d = 0;
        uint8_t k = 0;
        for (unsigned i = 0; i < 8 && pos + i < f.size(); i++) {
            d |= (uint64_t)f[pos + i] << (8 * i);
            k |= (uint8_t)(1u << i);
        }
        tdata = d;
        tkeep = k;
        tvalid = 1;
        tlast = pos + 8 >= f.size();
    }
    template <class M>
    void drive(M &tdata, uint8_t &tkeep, uint8_t &tvalid, uint8_t &tlast, uint8_t &tuser, TbRng &rng)
    {
        drive(tdata, tkeep, tvalid, tlast, rng);
        tuser = tvalid && tlast && !users.empty() && users.front();
    }
    // Account for a handshake seen in this cycle.
    void advance(bool fired)
    {
        if (!showing || !fired) return;
        pos += 8;
        showing = false;
        if (pos >= frames.front().size()) {
            frames.pop_front();
            if (!users.empty()) users.pop_front();
            pos = 0;
        }
    }
    bool idle() const { return frames.empty(); }
};

// Collects frames from an AXI-Stream, with random backpressure, and checks
// that tkeep is all ones except on the last beat.
struct AxisSink {
    std::deque<Bytes> frames;
    std::deque<bool> bad;   // per frame: tuser on its last beat
    Bytes cur;
    unsigned stall_pct = 0;
    bool ready = true;

    uint8_t pick_ready(TbRng &rng)
    {
        ready = !rng.chance(stall_pct);
        return ready;
    }
    void sample(uint64_t tdata, uint8_t tkeep, bool tvalid, bool tlast, bool tuser = false)
    {
        if (!(tvalid && ready)) return;
        TB_CHECK(tlast || tkeep == 0xFF, "tkeep %02x before the last beat", tkeep);
        TB_CHECK(tkeep != 0 && ((tkeep + 1) & tkeep) == 0, "tkeep %02x not a run from bit 0", tkeep);
        for (unsigned i = 0; i < 8; i++)
            if (tkeep & (1u << i)) cur.push_back((uint8_t)(tdata >> (8 * i)));
        if (tlast) {
            frames.push_back(cur);
            bad.push_back(tuser);
            cur.clear();
        }
    }
    void clear()
    {
        frames.clear();
        bad.clear();
    }
};

// Host memory behind the memory-master port: random ready, in-order
// responses after a random latency.
struct MemModel {
    std::vector<uint8_t> mem;
    struct Pending {
        uint64_t due;
        uint64_t data;
    };
    std::deque<Pending> q;
    unsigned stall_pct = 0;
    unsigned lat_min = 1, lat_max = 1;
    uint64_t writes = 0, reads = 0;
    bool ready = true;
    uint64_t last_due = 0;

    explicit MemModel(size_t bytes) : mem(bytes, 0) {}

    uint8_t pick_ready(TbRng &rng)
    {
        ready = !rng.chance(stall_pct);
        return ready;
    }
    // Response for this cycle, if any is due.
    bool resp(uint64_t now, uint64_t &data)
    {
        if (q.empty() || q.front().due > now) return false;
        data = q.front().data;
        q.pop_front();
        return true;
    }
    // Take the request seen in this cycle.
    void request(uint64_t now, bool valid, bool write, uint32_t addr, uint64_t wdata,
                 uint8_t wstrb, TbRng &rng)
    {
        if (!(valid && ready)) return;
        TB_CHECK((addr & 7) == 0, "memory address %08x not aligned", addr);
        TB_CHECK(addr + 8 <= mem.size(), "memory address %08x outside the model", addr);
        uint64_t rdata = 0;
        if ((addr & 7) == 0 && addr + 8 <= mem.size()) {
            for (unsigned i = 0; i < 8; i++) {
                if (write && (wstrb & (1u << i))) mem[addr + i] = (uint8_t)(wdata >> (8 * i));
                rdata |= (uint64_t)mem[addr + i] << (8 * i);
            }
        }
        if (write) writes++;
        else reads++;
        uint64_t due = now + lat_min + (lat_max > lat_min ? rng.below(lat_max - lat_min + 1) : 0);
        if (due <= last_due) due = last_due + 1;   // in order, at most one a cycle
        last_due = due;
        // a write's response carries no data: a core that used it gets
        // the word's complement
        q.push_back(Pending{due, write ? ~rdata : rdata});
    }
    uint64_t load64(uint32_t addr) const
    {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++) v |= (uint64_t)mem[addr + i] << (8 * i);
        return v;
    }
    // the host's own store (bypasses the request port)
    void store64(uint32_t addr, uint64_t v)
    {
        for (unsigned i = 0; i < 8; i++) mem[addr + i] = (uint8_t)(v >> (8 * i));
    }
};

// Build a frame from header fields and payload bytes.
// A descriptor's bytes travel as a run (off, cnt); the benches keep them
// as byte masks. The off and cnt of a mask that must be one run.
static inline uint8_t tb_run_off(uint64_t mask)
{
    uint8_t off = 0, cnt = 0;
    TB_CHECK(tg_frame_run(mask, &off, &cnt) == 0, "byte mask %016llx is not one run", (unsigned long long)mask);
    return off;
}
static inline uint8_t tb_run_cnt(uint64_t mask)
{
    uint8_t off = 0, cnt = 0;
    TB_CHECK(tg_frame_run(mask, &off, &cnt) == 0, "byte mask %016llx is not one run", (unsigned long long)mask);
    return cnt;
}
// a random run of bytes inside the first `bytes` (empty a tenth of the time)
template <class Rng> static inline uint64_t tb_random_run(Rng &rng, unsigned bytes = 64)
{
    if (bytes == 0 || rng.below(10) == 0) return 0;
    unsigned off = rng.below(bytes);
    return tg_frame_mask(off, 1 + rng.below(bytes - off));
}

static inline Bytes tb_frame(const tg_frame_hdr &h, const uint8_t *payload)
{
    Bytes b(TG_MAX_FRAME_BYTES + 8);
    size_t n = tg_frame_encode(b.data(), &h, payload);
    b.resize(n);
    return b;
}

// Recompute the FCS (the last four bytes) of a frame after it was edited.
static inline void tb_refcs(Bytes &f)
{
    if (f.size() < TG_FCS_BYTES) return;
    size_t n = f.size() - TG_FCS_BYTES;
    uint32_t c = ~tg_crc32_update(0xFFFFFFFFu, f.data(), n);
    for (int i = 0; i < 4; i++) f[n + i] = (uint8_t)(c >> (8 * i));
}

// Frame bytes with their FCS appended.
static inline Bytes with_fcs(Bytes f)
{
    f.resize(f.size() + TG_FCS_BYTES);
    tb_refcs(f);
    return f;
}

#endif // TG_TB_HPP
