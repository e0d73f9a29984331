// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Payload buffer: the payload words of frames in flight, in slots of one
// block each, in a RAM written by index (one word a cycle) and read by
// index through a register (so that it maps to block RAM), so that
// descriptors carry a slot number instead of the payload.
// A pool of busy bits hands out the lowest free slot; the writer takes
// it once its frame is accepted, and whoever is done with a frame frees
// it (two free ports: frames leave by two paths).
`default_nettype none

module tg_pay_buf #(
    parameter SLOTS_LOG2 = 2,  // log2 of the slots (1..4)
    parameter WORDS_LOG2 = 3   // log2 of the 64-bit words per slot (1..3: 16, 32 or 64-byte blocks)
) (
    input  wire                  clk,
    input  wire                  rst,

    // allocation: the lowest free slot, and its taking by the writer
    output wire                  m_alloc_valid,
    output wire [SLOTS_LOG2-1:0] m_alloc_slot,
    input  wire                  s_take_valid,
    input  wire [SLOTS_LOG2-1:0] s_take_slot,

    // release of a slot whose frame is done (either port, or both at once)
    input  wire                  s_free0_valid,
    input  wire [SLOTS_LOG2-1:0] s_free0_slot,
    input  wire                  s_free1_valid,
    input  wire [SLOTS_LOG2-1:0] s_free1_slot,

    // write port: one payload word
    input  wire                  s_wr_en,
    input  wire [SLOTS_LOG2-1:0] s_wr_slot,
    input  wire [2:0]            s_wr_word,    // (bits past WORDS_LOG2 ignored)
    input  wire [63:0]           s_wr_data,

    // read port (synchronous): the word addressed in one cycle is on
    // m_rd_data in the next (a word written in the same cycle reads old)
    input  wire [SLOTS_LOG2-1:0] s_rd_slot,
    input  wire [2:0]            s_rd_word,
    output wire [63:0]           m_rd_data,

    // status
    output wire [(1<<SLOTS_LOG2)-1:0] st_busy   // slots holding an accepted frame
);

localparam SLOTS = 1 << SLOTS_LOG2;
localparam WORDS = 1 << WORDS_LOG2;

initial begin
    if (SLOTS_LOG2 < 1 || SLOTS_LOG2 > 4) begin
        $error("%m: SLOTS_LOG2 must be in 1..4");
    end
    if (WORDS_LOG2 < 1 || WORDS_LOG2 > 3) begin
        $error("%m: WORDS_LOG2 must be in 1..3");
    end
end

// ---------------------------------------------------------------- storage
// In block RAM (DP16KD, SB_RAM40_4K). A word read in the cycle it is
// written reads undefined data (no logic is spent on it): only a
// look-ahead read does that (the receive engine asks for the slot
// tg_eth_rx is filling while no frame is on offer), and its word is
// read again before the frame comes up.
(* ram_style = "block", no_rw_check *)
reg [63:0] pay_mem [0:SLOTS*WORDS-1];
reg [63:0] rd_data_reg;

always @(posedge clk) begin
    if (s_wr_en) begin
        pay_mem[{s_wr_slot, s_wr_word[WORDS_LOG2-1:0]}] <= s_wr_data;
    end
    rd_data_reg <= pay_mem[{s_rd_slot, s_rd_word[WORDS_LOG2-1:0]}];
end

assign m_rd_data = rd_data_reg;
/* verilator lint_off UNUSEDSIGNAL */ // word bits past WORDS_LOG2 (a narrower block)
wire [5:0] unused_word = {s_wr_word, s_rd_word};
/* verilator lint_on UNUSEDSIGNAL */

// ---------------------------------------------------------------- pool
reg [SLOTS-1:0]      busy_reg, busy_next;
reg                  alloc_found;
reg [SLOTS_LOG2-1:0] alloc_idx;
integer              i;

always @* begin
    alloc_found = 1'b0;
    alloc_idx   = {SLOTS_LOG2{1'b0}};
    for (i = SLOTS - 1; i >= 0; i = i - 1) begin
        if (!busy_reg[i]) begin
            alloc_found = 1'b1;
            alloc_idx   = i[SLOTS_LOG2-1:0];
        end
    end
end

assign m_alloc_valid = alloc_found;
assign m_alloc_slot  = alloc_idx;
assign st_busy       = busy_reg;

// a decoder per slot (an assignment to busy_next[index] would be
// synthesized as a shifter across the vector)
always @* begin
    for (i = 0; i < SLOTS; i = i + 1) begin
        busy_next[i] = (busy_reg[i] || (s_take_valid && s_take_slot == i[SLOTS_LOG2-1:0])) &&
                       !(s_free0_valid && s_free0_slot == i[SLOTS_LOG2-1:0]) &&
                       !(s_free1_valid && s_free1_slot == i[SLOTS_LOG2-1:0]);
    end
end

always @(posedge clk) begin
    busy_reg <= busy_next;
    if (rst) begin
        busy_reg <= {SLOTS{1'b0}};
    end
end

endmodule

`default_nettype wire
