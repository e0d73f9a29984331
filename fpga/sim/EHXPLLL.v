// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Simulation model of the ECP5 PLL as used by the board tops: CLKOP
// follows CLKI (the bench supplies the system clock directly) and LOCK
// rises a few input cycles after reset.
`default_nettype none

// the parameters only configure the real cell
/* verilator lint_off UNUSEDPARAM */
module EHXPLLL #(
    parameter CLKI_DIV     = 1,
    parameter CLKFB_DIV    = 1,
    parameter CLKOP_DIV    = 8,
    parameter CLKOP_CPHASE = 0,
    parameter CLKOP_FPHASE = 0,
    parameter CLKOP_ENABLE = "ENABLED",
    parameter FEEDBK_PATH  = "CLKOP"
) (
/* verilator lint_on UNUSEDPARAM */
    input  wire CLKI,
    input  wire CLKFB,
    input  wire RST,
    output wire CLKOP,
    output wire LOCK
);

reg [3:0] lock_cnt_reg = 4'd0;

always @(posedge CLKI) begin
    if (RST) lock_cnt_reg <= 4'd0;
    else if (lock_cnt_reg != 4'hF) lock_cnt_reg <= lock_cnt_reg + 1'b1;
end

assign CLKOP = CLKI;
assign LOCK  = (lock_cnt_reg == 4'hF);

/* verilator lint_off UNUSEDSIGNAL */
wire unused_fb = CLKFB;
/* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
