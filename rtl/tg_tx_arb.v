// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Two-input fixed-priority arbiter for single-beat descriptors: input 0
// (responses) wins, and a granted input keeps the grant until its
// descriptor is taken, so the output stays stable while it waits.
`default_nettype none

module tg_tx_arb #(
    parameter DATA_W = 8    // descriptor width in bits (>= 1)
) (
    input  wire              clk,
    input  wire              rst,

    // input 0: high priority
    input  wire              s0_valid,
    output wire              s0_ready,
    input  wire [DATA_W-1:0] s0_data,

    // input 1: low priority
    input  wire              s1_valid,
    output wire              s1_ready,
    input  wire [DATA_W-1:0] s1_data,

    // output
    output wire              m_valid,
    input  wire              m_ready,
    output wire [DATA_W-1:0] m_data
);

initial begin
    if (DATA_W < 1) begin
        $error("%m: DATA_W must be at least 1");
    end
end

// lock_reg: an offer is on the output and has not been taken yet
reg lock_reg, lock_next;
reg sel_reg,  sel_next;   // input that holds the lock

wire sel = lock_reg ? sel_reg : !s0_valid;

assign m_valid  = sel ? s1_valid : s0_valid;
assign m_data   = sel ? s1_data  : s0_data;
assign s0_ready = m_ready && !sel;
assign s1_ready = m_ready && sel;

always @* begin
    lock_next = lock_reg;
    sel_next  = sel_reg;
    if (m_valid && !m_ready) begin
        lock_next = 1'b1;
        sel_next  = sel;
    end else begin
        lock_next = 1'b0;
    end
end

always @(posedge clk) begin
    lock_reg <= lock_next;
    sel_reg  <= sel_next;
    if (rst) begin
        lock_reg <= 1'b0;
        sel_reg  <= 1'b0;
    end
end

endmodule

`default_nettype wire
