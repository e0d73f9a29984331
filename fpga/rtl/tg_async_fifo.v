// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Clock-domain crossing FIFO: Gray-coded pointers with two-stage
// synchronizers, written in one clock and read in another.
`default_nettype none

module tg_async_fifo #(
    parameter WIDTH  = 10, // bits per entry (1..256)
    parameter ADDR_W = 4   // log2 of the entries (2..8)
) (
    // write side
    input  wire             wr_clk,
    input  wire             wr_en,      // ignored while wr_full
    input  wire [WIDTH-1:0] wr_data,
    output wire             wr_full,    // also set for three write clocks after rst

    // read side; rst (read clock, synchronous) resets both sides
    input  wire             rd_clk,
    input  wire             rst,
    output wire             rd_valid,   // rd_data holds the oldest entry
    input  wire             rd_en,      // pops it when rd_valid
    output wire [WIDTH-1:0] rd_data
);

localparam DEPTH = 1 << ADDR_W;

initial begin
    if (WIDTH < 1 || WIDTH > 256) $error("%m: WIDTH must be 1..256");
    if (ADDR_W < 2 || ADDR_W > 8) $error("%m: ADDR_W must be 2..8");
end

reg [WIDTH-1:0] mem [0:DEPTH-1];
wire [ADDR_W:0] rd_bin, rd_gray;   // read pointer (read side, below)

// ---------------------------------------------------------------- write side
// the reset reaches the write clock through two flops
reg            wr_rst_meta_reg, wr_rst_reg;
wire [ADDR_W:0] wr_bin, wr_gray, wr_gray_inc;
reg  [ADDR_W:0] rd_gray_w1_reg, rd_gray_w2_reg;
reg             wr_full_reg, wr_full_next;

wire wr_push = wr_en && !wr_full_reg;

// the write pointer's value that makes the FIFO full: the synchronized
// read pointer with its two top Gray bits inverted
wire [ADDR_W:0] wr_full_at = {~rd_gray_w2_reg[ADDR_W:ADDR_W-1], rd_gray_w2_reg[ADDR_W-2:0]};

// Full from a register of this FIFO's own: the next write pointer against
// the synchronized read pointer (a clock older than a combinational flag
// would use, so full may last a clock longer).  Both candidates for the
// next pointer are registers (tg_gray_count), so a push only selects
// between two compares.  Also full while the write side is still in
// reset, so no write is lost.
assign wr_full = wr_full_reg;

always @* begin
    wr_full_next = wr_rst_reg || (wr_push ? (wr_gray_inc == wr_full_at) : (wr_gray == wr_full_at));
end

tg_gray_count #(
    .W (ADDR_W + 1)
) tg_gray_count_wr_inst (
    .clk          (wr_clk),
    .rst          (wr_rst_reg),
    .inc          (wr_push),
    .out_bin      (wr_bin),
    .out_gray     (wr_gray),
    .out_gray_inc (wr_gray_inc)
);

always @(posedge wr_clk) begin
    wr_rst_meta_reg <= rst;
    wr_rst_reg      <= wr_rst_meta_reg;
    rd_gray_w1_reg  <= rd_gray;
    rd_gray_w2_reg  <= rd_gray_w1_reg;
    wr_full_reg     <= wr_full_next;
    if (wr_push) mem[wr_bin[ADDR_W-1:0]] <= wr_data;
end

// ---------------------------------------------------------------- read side
// the read pointer steps by selecting its registered successor, so the path
// from the synchronized write pointer through rd_valid and the reader's
// rd_en ends in one multiplexer per pointer bit (tg_gray_count)
reg  [ADDR_W:0] wr_gray_r1_reg, wr_gray_r2_reg;

assign rd_valid = (rd_gray != wr_gray_r2_reg);
assign rd_data  = mem[rd_bin[ADDR_W-1:0]];
/* verilator lint_off UNUSEDSIGNAL */
wire rd_bin_wrap_unused = rd_bin[ADDR_W];   // the wrap bit counts in rd_gray only
wire wr_bin_wrap_unused = wr_bin[ADDR_W];   // and in wr_gray
wire [ADDR_W:0] rd_gray_inc_unused;
/* verilator lint_on UNUSEDSIGNAL */

tg_gray_count #(
    .W (ADDR_W + 1)
) tg_gray_count_rd_inst (
    .clk          (rd_clk),
    .rst          (rst),
    .inc          (rd_en && rd_valid),
    .out_bin      (rd_bin),
    .out_gray     (rd_gray),
    .out_gray_inc (rd_gray_inc_unused)
);

always @(posedge rd_clk) begin
    wr_gray_r1_reg <= wr_gray;
    wr_gray_r2_reg <= wr_gray_r1_reg;
end

endmodule

`default_nettype wire
