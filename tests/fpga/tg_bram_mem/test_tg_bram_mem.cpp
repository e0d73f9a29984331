// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the block-RAM host memory: random reads and byte-masked
// writes on both ports at once against a reference memory; one response
// per request on its own port, in order, one cycle later (a read's with
// the word, a write's with no data); neither port starves while the other
// keeps asking.
#include "Vtg_bram_mem.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

static const unsigned WORDS = (1u << 14) / 8;   // MEM_LOG2 = 14 by default

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::unique_ptr<Vtg_bram_mem> m(new Vtg_bram_mem);
    TbRng rng(11);
    std::vector<uint64_t> ref(WORDS, 0);
    struct Exp { bool read; uint64_t word; };
    std::deque<Exp> exp_a, exp_b;
    unsigned served_a = 0, served_b = 0, wait_a = 0, wait_b = 0, max_wait = 0, reads_checked = 0;
    struct Req { bool write; uint32_t addr; uint64_t data; uint8_t strb; };
    Req ra{}, rb{};
    bool va = false, vb = false;
    // the memory starts undefined: write every word first through port a
    unsigned init_word = 0;
    for (unsigned w = 0; w < WORDS + 30000; w++) {
        bool init = init_word < WORDS;
        if (!va && (init || rng.chance(70))) {
            va = true;
            ra = Req{init || rng.chance(50), init ? 8 * init_word++ : rng.below(WORDS) * 8, rng.next(),
                     init ? (uint8_t)0xFF : (uint8_t)rng.next()};
        }
        if (!init && !vb && rng.chance(70)) {
            vb = true;
            rb = Req{rng.chance(50), rng.below(WORDS) * 8, rng.next(), (uint8_t)rng.next()};
        }
        m->rst = w < 2;
        m->s_a_req_valid = va && w >= 2;
        m->s_a_req_write = ra.write, m->s_a_req_addr = ra.addr, m->s_a_req_wdata = ra.data, m->s_a_req_wstrb = ra.strb;
        m->s_b_req_valid = vb && w >= 2;
        m->s_b_req_write = rb.write, m->s_b_req_addr = rb.addr, m->s_b_req_wdata = rb.data, m->s_b_req_wstrb = rb.strb;
        m->clk = 0;
        m->eval();
        bool acc_a = m->s_a_req_valid && m->s_a_req_ready;
        bool acc_b = m->s_b_req_valid && m->s_b_req_ready;
        TB_CHECK(!(acc_a && acc_b), "both ports granted");
        // reference: a read returns the word; a write's response carries no data
        auto apply = [&](const Req &r, std::deque<Exp> &exp) {
            uint64_t &word = ref[r.addr / 8];
            exp.push_back(Exp{!r.write, word});
            if (r.write) word = strb_merge(word, r.data, r.strb);
        };
        if (acc_a) { apply(ra, exp_a); va = false; served_a++; wait_a = 0; } else if (m->s_a_req_valid) wait_a++;
        if (acc_b) { apply(rb, exp_b); vb = false; served_b++; wait_b = 0; } else if (m->s_b_req_valid) wait_b++;
        max_wait = std::max(max_wait, std::max(wait_a, wait_b));
        m->clk = 1;
        m->eval();
        if (m->m_a_resp_valid) {
            TB_CHECK(!exp_a.empty(), "stray response on a");
            if (!exp_a.empty()) {
                TB_CHECK(!exp_a.front().read || m->m_a_resp_rdata == exp_a.front().word, "port a data");
                reads_checked += exp_a.front().read;
                exp_a.pop_front();
            }
        }
        if (m->m_b_resp_valid) {
            TB_CHECK(!exp_b.empty(), "stray response on b");
            if (!exp_b.empty()) {
                TB_CHECK(!exp_b.front().read || m->m_b_resp_rdata == exp_b.front().word, "port b data");
                reads_checked += exp_b.front().read;
                exp_b.pop_front();
            }
        }
        TB_CHECK(exp_a.size() <= 1 && exp_b.size() <= 1, "response later than one cycle");
    }
    TB_CHECK(max_wait <= 1, "a port waited %u cycles", max_wait);
    TB_CHECK(served_a > 10000 && served_b > 5000 && reads_checked > 10000, "served %u / %u, %u reads", served_a,
             served_b, reads_checked);
    return tb_finish("tg_bram_mem");
}
