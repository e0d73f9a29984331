// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Simulation model of the ECP5 output DDR register: D0 and D1 sampled on
// the rising edge, D0 driven while SCLK is high and D1 while it is low.
`default_nettype none

module ODDRX1F (
    input  wire D0,
    input  wire D1,
    input  wire SCLK,
    input  wire RST,
    output wire Q
);

reg d0_reg = 1'b0, d1_reg = 1'b0, d1_low_reg = 1'b0;

always @(posedge SCLK) begin
    d0_reg <= RST ? 1'b0 : D0;
    d1_reg <= RST ? 1'b0 : D1;
end

always @(negedge SCLK) d1_low_reg <= d1_reg;

assign Q = SCLK ? d0_reg : d1_low_reg;

endmodule

`default_nettype wire
