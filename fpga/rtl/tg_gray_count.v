// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Counter in binary and Gray code for a clock-crossing pointer. The count
// one ahead is kept in registers too, so a step only selects between two
// registered values: whatever decides `inc` ends in one multiplexer per
// bit, not in an adder and a Gray coder.
`default_nettype none

module tg_gray_count #(
    parameter W = 5  // counter bits (2..16)
) (
    input  wire         clk,
    input  wire         rst,       // synchronous: back to 0
    input  wire         inc,       // count one up this clock
    output wire [W-1:0] out_bin,   // the count
    output wire [W-1:0] out_gray,  // its Gray code
    output wire [W-1:0] out_gray_inc // the Gray code of the count plus one (from a register)
);

initial begin
    if (W < 2 || W > 16) $error("%m: W must be 2..16");
end

localparam [W-1:0] ONE = 1;

reg [W-1:0] bin_reg, bin_next;
reg [W-1:0] gray_reg, gray_next;
reg [W-1:0] bin_inc_reg, bin_inc_next;    // bin_reg + 1
reg [W-1:0] gray_inc_reg, gray_inc_next;  // its Gray code

wire [W-1:0] bin_inc2 = bin_inc_reg + ONE;

always @* begin
    bin_next      = bin_reg;
    gray_next     = gray_reg;
    bin_inc_next  = bin_inc_reg;
    gray_inc_next = gray_inc_reg;
    if (inc) begin
        bin_next      = bin_inc_reg;
        gray_next     = gray_inc_reg;
        bin_inc_next  = bin_inc2;
        gray_inc_next = bin_inc2 ^ (bin_inc2 >> 1);
    end
end

always @(posedge clk) begin
    if (rst) begin
        bin_reg      <= {W{1'b0}};
        gray_reg     <= {W{1'b0}};
        bin_inc_reg  <= ONE;
        gray_inc_reg <= ONE;
    end else begin
        bin_reg      <= bin_next;
        gray_reg     <= gray_next;
        bin_inc_reg  <= bin_inc_next;
        gray_inc_reg <= gray_inc_next;
    end
end

assign out_bin  = bin_reg;
assign out_gray = gray_reg;
assign out_gray_inc = gray_inc_reg;

endmodule

`default_nettype wire
