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

`ifdef TG_TESTBUG_001
wire sel = !s0_valid;                        // deliberate bug: the grant is not held
`else
wire sel = lock_reg ? sel_reg : !s0_valid;
`endif

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

`ifdef FORMAL
// ---------------------------------------------------------------- properties
reg f_past_valid = 1'b0;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    // a grant goes to one input at most, and only with the output's ready
    assert(!(s0_ready && s1_ready));
    assert(!s0_ready || m_ready);
    assert(!s1_ready || m_ready);
end

always @(posedge clk) begin
    if (f_past_valid && !$past(rst)) begin
        // environment: an offered descriptor stays, unchanged, until taken
        if ($past(s0_valid && !s0_ready)) begin
            assume(s0_valid && s0_data == $past(s0_data));
        end
        if ($past(s1_valid && !s1_ready)) begin
            assume(s1_valid && s1_data == $past(s1_data));
        end
        // contract: so does the output
        if ($past(m_valid && !m_ready)) begin
            assert(m_valid);
            assert(m_data == $past(m_data));
        end
    end
end
`endif

endmodule

`default_nettype wire
