// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Payload buffer: the payload words of frames in flight, in slots of one
// block each, in a RAM written by index (one word a cycle) and read by
// index through a register (so that it maps to block RAM), so that
// descriptors carry a slot number instead of the payload.
// A pool hands out the lowest free slot to the one writer; the writer
// takes it once its frame is complete, naming who holds it (up to two
// holders, say the path to the wire and the REQ sender), a second port
// adds a hold again (a resend), and FREE_PORTS release ports drop holds.
// A slot is free when nobody holds it and it is not pinned (being read).
`default_nettype none

module tg_pay_buf #(
    parameter SLOTS_LOG2  = 2,  // log2 of the slots (1..5)
    parameter BLOCK_BYTES = 64, // bytes per slot: 16, 32 or 64 (2, 4 or 8 words)
    parameter HOLDERS     = 1,  // holds a slot can have at once (1..2)
    parameter FREE_PORTS  = 1   // release ports (1..4)
) (
    input  wire                  clk,
    input  wire                  rst,

    // allocation: the lowest free slot, and its taking by the writer
    output wire                  m_alloc_valid,
    output wire [SLOTS_LOG2-1:0] m_alloc_slot,
    input  wire                  s_take_valid,
    input  wire [SLOTS_LOG2-1:0] s_take_slot,
    input  wire [HOLDERS-1:0]    s_take_mask,   // the holds it starts with

    // a hold added to a slot in use (a holder sends its frame again)
    input  wire                  s_hold_valid,
    input  wire [SLOTS_LOG2-1:0] s_hold_slot,
    input  wire [HOLDERS-1:0]    s_hold_mask,

    // holds released (any ports at once, of one slot or several), port p
    // at bit p, bits [p*SLOTS_LOG2 +: SLOTS_LOG2], bits [p*HOLDERS +:
    // HOLDERS]; a hold taken or added in the same cycle as a release of
    // the same hold stays
    input  wire [FREE_PORTS-1:0]            s_free_valid,
    input  wire [FREE_PORTS*SLOTS_LOG2-1:0] s_free_slot,
    input  wire [FREE_PORTS*HOLDERS-1:0]    s_free_mask,

    // a slot being read out: not handed out even once its holds are gone
    input  wire                  s_pin_valid,
    input  wire [SLOTS_LOG2-1:0] s_pin_slot,

    // write port: one payload word
    input  wire                  s_wr_en,
    input  wire [SLOTS_LOG2-1:0] s_wr_slot,
    input  wire [2:0]            s_wr_word,    // (bits past the block's words ignored)
    input  wire [63:0]           s_wr_data,

    // read port (synchronous): the word addressed in one cycle is on
    // m_rd_data in the next (a word written in the same cycle reads old)
    input  wire [SLOTS_LOG2-1:0] s_rd_slot,
    input  wire [2:0]            s_rd_word,
    output wire [63:0]           m_rd_data,

    // status
    output wire [(1<<SLOTS_LOG2)-1:0]         st_busy,  // slots with a hold
    output wire [(1<<SLOTS_LOG2)*HOLDERS-1:0] st_held   // hold h of slot s at [h*2^SLOTS_LOG2+s]
);

localparam SLOTS      = 1 << SLOTS_LOG2;
localparam WORDS_LOG2 = (BLOCK_BYTES == 16) ? 1 : (BLOCK_BYTES == 32) ? 2 : 3;
localparam WORDS      = 1 << WORDS_LOG2;
localparam OH_N       = SLOTS;
localparam OH_LOG2    = SLOTS_LOG2;
`include "tg_onehot.vh"

initial begin
    if (SLOTS_LOG2 < 1 || SLOTS_LOG2 > 5) begin
        $error("%m: SLOTS_LOG2 must be in 1..5");
    end
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
    if (HOLDERS < 1 || HOLDERS > 2) begin
        $error("%m: HOLDERS must be 1 or 2");
    end
    if (FREE_PORTS < 1 || FREE_PORTS > 4) begin
        $error("%m: FREE_PORTS must be in 1..4");
    end
end

// ---------------------------------------------------------------- storage
// In block RAM (DP16KD, SB_RAM40_4K). A word read in the cycle it is
// written reads undefined data (no logic is spent on it): only a
// look-ahead read does that (a reader asks for a slot its writer is still
// filling), and its word is read again before it is used.
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
/* verilator lint_off UNUSEDSIGNAL */ // word bits past the block's words (a narrower block)
wire [5:0] unused_word = {s_wr_word, s_rd_word};
/* verilator lint_on UNUSEDSIGNAL */

// ---------------------------------------------------------------- pool
// One vector of slots per hold; every port is a one-hot decoder (a
// constant shifted by the slot number) and the update is whole-vector
// logic (an assignment to held_next[index] would be synthesized as a
// shifter across the vector, and simulated bit by bit).
localparam [SLOTS-1:0] ONE = {{(SLOTS-1){1'b0}}, 1'b1};

// each port's slot decoded once, then masked per hold
wire [SLOTS-1:0] dec_take  = ONE << s_take_slot;
wire [SLOTS-1:0] dec_hold  = ONE << s_hold_slot;
wire [SLOTS-1:0] dec_pin   = ONE << s_pin_slot;

// the slots each hold loses this cycle: every release port's decoded slot
// where the port is valid and names the hold
reg  [SLOTS-1:0] freed [0:HOLDERS-1];
integer          fp, fh;
always @* begin
    for (fh = 0; fh < HOLDERS; fh = fh + 1) begin
        freed[fh] = {SLOTS{1'b0}};
        for (fp = 0; fp < FREE_PORTS; fp = fp + 1) begin
            freed[fh] = freed[fh] | ((ONE << s_free_slot[fp*SLOTS_LOG2 +: SLOTS_LOG2]) &
                                     {SLOTS{s_free_valid[fp] && s_free_mask[fp*HOLDERS + fh]}});
        end
    end
end

reg  [SLOTS-1:0]      held_reg  [0:HOLDERS-1];
reg  [SLOTS-1:0]      held_next [0:HOLDERS-1];
reg  [SLOTS-1:0]      busy;
reg  [SLOTS*HOLDERS-1:0] held_flat;   // the holds' vectors side by side
integer               h;

always @* begin
    busy = {SLOTS{1'b0}};
    for (h = 0; h < HOLDERS; h = h + 1) begin
        busy = busy | held_reg[h];
        held_flat[h*SLOTS +: SLOTS] = held_reg[h];
    end
end

always @* begin
    for (h = 0; h < HOLDERS; h = h + 1) begin
        held_next[h] = (held_reg[h] & ~freed[h]) |
                       (dec_take & {SLOTS{s_take_valid && s_take_mask[h]}}) |
                       (dec_hold & {SLOTS{s_hold_valid && s_hold_mask[h]}});
    end
end

// the lowest free slot: the lowest set bit of the free vector, and its number
wire [SLOTS-1:0]      free_vec    = ~busy & ~(dec_pin & {SLOTS{s_pin_valid}});
wire [SLOTS-1:0]      free_lowest = oh_lowest(free_vec);
wire [SLOTS_LOG2-1:0] alloc_idx   = oh_index(free_lowest);

assign m_alloc_valid = (free_vec != {SLOTS{1'b0}});
assign m_alloc_slot  = alloc_idx;
assign st_busy       = busy;
assign st_held       = held_flat;

always @(posedge clk) begin
    for (h = 0; h < HOLDERS; h = h + 1) begin
        held_reg[h] <= held_next[h];
        if (rst) begin
            held_reg[h] <= {SLOTS{1'b0}};
        end
    end
end

endmodule

`default_nettype wire
