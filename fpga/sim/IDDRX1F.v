// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Simulation model of the ECP5 input DDR register: D sampled on a rising
// and the following falling edge, both presented as Q0, Q1 on the next
// rising edge.
`default_nettype none

module IDDRX1F (
    input  wire D,
    input  wire SCLK,
    input  wire RST,
    output wire Q0,
    output wire Q1
);

reg rise_reg = 1'b0, fall_reg = 1'b0, q0_reg = 1'b0, q1_reg = 1'b0;

always @(posedge SCLK) begin
    rise_reg <= D;
    q0_reg   <= RST ? 1'b0 : rise_reg;
    q1_reg   <= RST ? 1'b0 : fall_reg;
end

always @(negedge SCLK) fall_reg <= D;

assign Q0 = q0_reg;
assign Q1 = q1_reg;

endmodule

`default_nettype wire
