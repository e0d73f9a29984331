// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Unit test of the ECP5 RGMII I/O (with the simulation models of ODDRX1F,
// IDDRX1F and DELAYG): the transmit pins looped to the receive pins with
// the receive clock a quarter cycle late; random bytes with TX_EN and
// TX_ER patterns come back in order as bytes with RX_DV and RX_ER, and
// TXC toggles with the transmit clock.
#include "Vtg_rgmii_ecp5.h"
#include "verilated.h"
#include "tb.hpp"

#include <memory>

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::unique_ptr<Vtg_rgmii_ecp5> m(new Vtg_rgmii_ecp5);
    TbRng rng(5);
    struct Sym { uint8_t d, en, er; };
    std::deque<Sym> sent;
    unsigned matched = 0, txc_hi = 0, txc_lo = 0;
    m->rst = 1;
    for (unsigned c = 0; c < 5000; c++) {
        if (c == 4) m->rst = 0;
        Sym s{(uint8_t)rng.next(), (uint8_t)rng.chance(80), (uint8_t)rng.chance(10)};
        m->gmii_txd = s.d, m->gmii_tx_en = s.en, m->gmii_tx_er = s.er;
        m->clk = 1;
        m->eval();
        txc_hi += m->rgmii_txc;
        m->rgmii_rxd = m->rgmii_txd;
        m->rgmii_rx_ctl = m->rgmii_tx_ctl;
        m->rgmii_rxc = 1;
        m->eval();
        // a received byte is present after the rising receive edge
        uint8_t d = m->gmii_rxd, dv = m->gmii_rx_dv, er = m->gmii_rx_er;
        m->clk = 0;
        m->eval();
        txc_lo += !m->rgmii_txc;
        m->rgmii_rxd = m->rgmii_txd;
        m->rgmii_rx_ctl = m->rgmii_tx_ctl;
        m->rgmii_rxc = 0;
        m->eval();
        // the symbol given before rising edge c comes out after rising edge c + 1
        if (c < 6) {
            sent.clear();
            sent.push_back(s);
            continue;
        }
        Sym f = sent.front();
        sent.pop_front();
        TB_CHECK(f.d == d && f.en == dv && f.er == er, "cycle %u: sent %02x/%u/%u got %02x/%u/%u", c, f.d, f.en,
                 f.er, d, dv, er);
        matched++;
        sent.push_back(s);
    }
    TB_CHECK(matched > 4990, "matched %u", matched);
    TB_CHECK(txc_hi > 4900 && txc_lo > 4900, "TXC did not follow the clock");
    TB_CHECK(m->rx_clk == m->rgmii_rxc, "rx_clk is the receive clock");
    return tb_finish("tg_rgmii_ecp5");
}
