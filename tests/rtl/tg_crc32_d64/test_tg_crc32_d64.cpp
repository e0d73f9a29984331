// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the one-beat CRC-32 step against the reference
// tg_crc32_update: every keep pattern (a run of ones from bit 0 takes its
// bytes, any other pattern leaves the register as it is), chained beats
// with such patterns between them, the standard check value and the FCS
// residue.
#include "Vtg_crc32_d64.h"
#include "verilated.h"
#include "tb.hpp"

#include <cstring>
#include <memory>

static const uint32_t CRC_INIT = 0xFFFFFFFFu;
static const uint32_t CRC_CHECK = 0xCBF43926u;   // CRC-32 of "123456789"

static uint32_t dut_step(Vtg_crc32_d64 &m, uint32_t crc, uint64_t data, uint8_t keep)
{
    m.crc_in = crc;
    m.data = data;
    m.keep = keep;
    m.eval();
    return m.crc_out;
}

static bool is_run(uint8_t keep)
{
    return (keep & (uint8_t)(keep + 1)) == 0;
}

// Reference: the first n bytes of the beat, lane 0 first, when keep is a
// run of n ones from bit 0; nothing otherwise.
static uint32_t ref_step(uint32_t crc, uint64_t data, uint8_t keep)
{
    if (!is_run(keep)) return crc;
    uint8_t b[8];
    size_t n = 0;
    for (unsigned i = 0; i < 8; i++)
        if (keep & (1u << i)) b[n++] = (uint8_t)(data >> (8 * i));
    return tg_crc32_update(crc, b, n);
}

// Random keep pattern: a run from bit 0 (what a stream's last beat carries)
// or, when `arbitrary`, any pattern including zero and holes.
static uint8_t pick_keep(TbRng &rng, bool arbitrary)
{
    if (arbitrary) return (uint8_t)rng.next();
    unsigned n = rng.below(9);
    return (uint8_t)((1u << n) - 1);
}

// Feed `msg` through the module as a sequence of beats.  With `arbitrary`,
// each beat takes a run of 1 to 8 of the next bytes, and beats whose keep is
// not a run (noise everywhere) come between them; otherwise beats are full
// except the last, as on the network port.
static uint32_t dut_message(Vtg_crc32_d64 &m, TbRng &rng, uint32_t crc, const Bytes &msg, bool arbitrary)
{
    size_t pos = 0;
    while (pos < msg.size()) {
        size_t left = msg.size() - pos;
        size_t n = left >= 8 ? 8 : left;
        if (arbitrary) {
            while (rng.chance(30)) {
                uint8_t k = (uint8_t)rng.next();
                if (!is_run(k)) crc = dut_step(m, crc, rng.next(), k);
            }
            n = 1 + rng.below((unsigned)n);
        }
        uint8_t keep = n >= 8 ? 0xFF : (uint8_t)((1u << n) - 1);
        uint64_t d = rng.next();   // noise in the lanes that are not kept
        for (unsigned i = 0; i < n; i++) {
            d &= ~(0xFFull << (8 * i));
            d |= (uint64_t)msg[pos++] << (8 * i);
        }
        crc = dut_step(m, crc, d, keep);
    }
    return crc;
}

static Bytes random_bytes(TbRng &rng, size_t n)
{
    Bytes b(n);
    for (auto &x : b) x = (uint8_t)rng.next();
    return b;
}

static void append_fcs(Bytes &msg)
{
    uint32_t fcs = ~tg_crc32_update(CRC_INIT, msg.data(), msg.size());
    for (int i = 0; i < 4; i++) msg.push_back((uint8_t)(fcs >> (8 * i)));
}

// Single beats: every keep pattern, from random and edge-case registers.
static void single_beats(Vtg_crc32_d64 &m, TbRng &rng, unsigned rounds)
{
    const uint32_t crcs[] = {CRC_INIT, 0x00000000u, 0x80000000u, 0x00000001u};
    for (unsigned r = 0; r < rounds; r++) {
        for (unsigned keep = 0; keep < 256; keep++) {
            uint32_t crc = r < 4 ? crcs[r] : (uint32_t)rng.next();
            uint64_t d = rng.next();
            if (r == 4) d = 0;
            if (r == 5) d = ~0ull;
            uint32_t got = dut_step(m, crc, d, (uint8_t)keep);
            uint32_t want = ref_step(crc, d, (uint8_t)keep);
            TB_CHECK(got == want, "crc %08x data %016llx keep %02x: %08x, want %08x", crc,
                     (unsigned long long)d, keep, got, want);
        }
    }
    // keep = 0 passes the register through unchanged
    for (unsigned r = 0; r < 64; r++) {
        uint32_t crc = (uint32_t)rng.next();
        TB_CHECK(dut_step(m, crc, rng.next(), 0) == crc, "keep 0 changed the register %08x", crc);
    }
}

// Chains of beats, each step checked against the reference register.
static void chains(Vtg_crc32_d64 &m, TbRng &rng, unsigned count, bool arbitrary)
{
    for (unsigned c = 0; c < count; c++) {
        unsigned beats = 1 + rng.below(40);
        uint32_t crc = CRC_INIT, ref = CRC_INIT;
        for (unsigned b = 0; b < beats; b++) {
            uint64_t d = rng.next();
            uint8_t keep = (b + 1 == beats || arbitrary) ? pick_keep(rng, arbitrary) : 0xFF;
            crc = dut_step(m, crc, d, keep);
            ref = ref_step(ref, d, keep);
            TB_CHECK(crc == ref, "chain %u beat %u keep %02x: %08x, want %08x", c, b, keep, crc, ref);
            if (crc != ref) return;
        }
    }
}

// Whole messages of every length: the FCS matches the reference, and the
// register after data + FCS is the residue; a flipped bit breaks it.
static void messages(Vtg_crc32_d64 &m, TbRng &rng, bool arbitrary)
{
    for (size_t n = 0; n <= 140; n++) {
        Bytes msg = random_bytes(rng, n);
        uint32_t got = dut_message(m, rng, CRC_INIT, msg, arbitrary);
        uint32_t want = tg_crc32_update(CRC_INIT, msg.data(), msg.size());
        TB_CHECK(got == want, "message of %zu bytes: %08x, want %08x", n, got, want);

        Bytes framed = msg;
        append_fcs(framed);
        uint32_t res = dut_message(m, rng, CRC_INIT, framed, arbitrary);
        TB_CHECK(res == TG_FCS_RESIDUE, "residue after %zu bytes + FCS: %08x", n, res);

        size_t bit = rng.below((unsigned)framed.size() * 8);
        framed[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        res = dut_message(m, rng, CRC_INIT, framed, arbitrary);
        TB_CHECK(res != TG_FCS_RESIDUE, "residue survives a flip of bit %zu of %zu bytes", bit, framed.size());
    }
}

static void check_value(Vtg_crc32_d64 &m, TbRng &rng)
{
    const char *s = "123456789";
    Bytes msg(s, s + std::strlen(s));
    // the reference itself, so the two cannot agree on a wrong polynomial
    TB_CHECK(~tg_crc32_update(CRC_INIT, msg.data(), msg.size()) == CRC_CHECK, "reference check value");

    // "12345678" then "9"
    uint64_t w0 = 0;
    for (unsigned i = 0; i < 8; i++) w0 |= (uint64_t)msg[i] << (8 * i);
    uint32_t crc = dut_step(m, CRC_INIT, w0, 0xFF);
    crc = dut_step(m, crc, (uint64_t)msg[8] | 0xA5A5A5A5A5A5A500ull, 0x01);
    TB_CHECK(~crc == CRC_CHECK, "check value as 8+1 bytes: %08x", ~crc);

    // one byte a beat, in lane 0
    crc = CRC_INIT;
    for (uint8_t c : msg) crc = dut_step(m, crc, c, 0x01);
    TB_CHECK(~crc == CRC_CHECK, "check value one byte a beat: %08x", ~crc);

    // every split into a first beat of k bytes and the rest
    for (unsigned k = 0; k <= 8; k++) {
        uint64_t a = 0, b = 0;
        for (unsigned i = 0; i < k; i++) a |= (uint64_t)msg[i] << (8 * i);
        for (unsigned i = k; i < 9 && i < k + 8; i++) b |= (uint64_t)msg[i] << (8 * (i - k));
        unsigned rest = 9 - k;
        uint8_t kb = rest >= 8 ? 0xFF : (uint8_t)((1u << rest) - 1);
        crc = dut_step(m, CRC_INIT, a, (uint8_t)((1u << k) - 1));
        crc = dut_step(m, crc, b, kb);
        if (rest > 8) crc = dut_step(m, crc, msg[8], 0x01);
        TB_CHECK(~crc == CRC_CHECK, "check value split %u+%u: %08x", k, rest, ~crc);
    }

    // in runs of random lengths, with beats that are not runs between them
    for (unsigned r = 0; r < 50; r++) {
        crc = dut_message(m, rng, CRC_INIT, msg, true);
        TB_CHECK(~crc == CRC_CHECK, "check value in random runs: %08x", ~crc);
    }

    // and with its FCS appended, the residue
    Bytes framed = msg;
    append_fcs(framed);
    crc = dut_message(m, rng, CRC_INIT, framed, false);
    TB_CHECK(crc == TG_FCS_RESIDUE, "residue after the check string: %08x", crc);
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::unique_ptr<Vtg_crc32_d64> m(new Vtg_crc32_d64);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        TbRng rng(seed * 0x51ED27u);
        single_beats(*m, rng, 40);
        chains(*m, rng, 500, false);
        chains(*m, rng, 500, true);
        messages(*m, rng, false);
        messages(*m, rng, true);
        check_value(*m, rng);
    }
    m->final();
    return tb_finish("tg_crc32_d64");
}
