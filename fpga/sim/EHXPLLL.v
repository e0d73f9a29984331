// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Simulation model of the ECP5 PLL as used by the board tops: CLKOP
// follows CLKI (the bench supplies the system clock directly), CLKOS is
// CLKI divided by CLKOS_DIV / CLKOP_DIV (1 to 64: a rising edge every
// that many CLKI edges, high for the second half of them, the longer
// half of an odd ratio), and LOCK rises a few input cycles after reset.
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
    parameter CLKOS_DIV    = 8,
    parameter CLKOS_CPHASE = 0,
    parameter CLKOS_FPHASE = 0,
    parameter CLKOS_ENABLE = "DISABLED",
    parameter FEEDBK_PATH  = "CLKOP"
) (
/* verilator lint_on UNUSEDPARAM */
    input  wire CLKI,
    input  wire CLKFB,
    input  wire RST,
    output wire CLKOP,
    output wire CLKOS,
    output wire LOCK
);

localparam RATIO = CLKOS_DIV / CLKOP_DIV;

initial begin
    if (CLKOS_DIV % CLKOP_DIV != 0 || RATIO < 1 || RATIO > 64)
        $error("%m: the model needs CLKOS_DIV / CLKOP_DIV to be a whole number, 1 to 64");
end

reg [3:0] lock_cnt_reg = 4'd0;

always @(posedge CLKI) begin
    if (RST) lock_cnt_reg <= 4'd0;
    else if (lock_cnt_reg != 4'hF) lock_cnt_reg <= lock_cnt_reg + 1'b1;
end

assign CLKOP = CLKI;
assign LOCK  = (lock_cnt_reg == 4'hF);

generate
if (RATIO > 1) begin : g_div
    // CLKI edges since CLKOS last rose, counted modulo RATIO
    reg  [5:0] div_cnt_reg = 6'd0;
    reg        clkos_reg = 1'b0;
    wire [5:0] div_cnt_next = (div_cnt_reg == RATIO - 1) ? 6'd0 : div_cnt_reg + 6'd1;
    always @(posedge CLKI) begin
        div_cnt_reg <= div_cnt_next;
        clkos_reg   <= (div_cnt_next >= RATIO / 2);
    end
    assign CLKOS = clkos_reg;
end else begin : g_same
    assign CLKOS = CLKI;
end
endgenerate

/* verilator lint_off UNUSEDSIGNAL */
wire unused_fb = CLKFB;
/* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
