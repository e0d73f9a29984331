// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Verilator driver of bench/tb_tg_pair.v: toggles the clock until the bench calls $finish.
#include <memory>

#include "Vtb_tg_pair.h"
#include "verilated.h"

int main(int argc, char **argv)
{
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<Vtb_tg_pair>(ctx.get());

    while (!ctx->gotFinish()) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->final();
    return 0;
}
