// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Request descriptor to byte frame: writes the Telegraphos header and the
// payload of a descriptor (as tg_eth_tx lays them out, with no link-layer
// fields) a byte a cycle into tg_eth_tx8's free slot, then hands the slot
// over and takes the descriptor. It begins a frame only while it is
// granted the slot writer. With RETRY_SLOTS set, it keeps a copy of each
// REQ frame it writes, by the REQ's slot (the tag's low bits), and a REQ
// whose tag is the kept frame's is a resend of it: the copy goes out
// again with the resend's flags. (tg_req_tx gives a slot's REQ a new tag
// generation whenever the slot is freed, and resends with the same tag;
// it must not park new REQs, which holds with MAX_REQS = 1.)
`default_nettype none
`include "tg_hw_defs.vh"

module tg_txd8 #(
    parameter BLOCK_BYTES = 16, // payload bytes a descriptor carries: 16, 32 or 64
    parameter RETRY_SLOTS = 0   // REQ frames kept for resends (0..16; 0: none)
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [15:0]  cfg_node_id,

    // request descriptor in (held until ready)
    input  wire         s_txd_valid,
    output reg          s_txd_ready,
    input  wire [7:0]   s_txd_op,
    input  wire [7:0]   s_txd_flags,
    input  wire [15:0]  s_txd_dst,
    input  wire [31:0]  s_txd_addr,
    input  wire [BLOCK_BYTES-1:0] s_txd_mask,       // byte enables of the block
    input  wire [7:0]   s_txd_len,
    input  wire [7:0]   s_txd_ctx,
    input  wire [15:0]  s_txd_tag,
    input  wire [63:0]  s_txd_key,
    input  wire [8*BLOCK_BYTES-1:0] s_txd_payload, // payload byte i in [8i+7:8i]

    // the slot writer (tg_eth_tx8)
    input  wire         in_grant,                  // a frame may be begun now
    output reg          m_wr_en,       // registered: a byte's write a cycle after
    output reg  [6:0]   m_wr_off,      // its position is counted
    output reg  [7:0]   m_wr_data,
    output reg          m_tfrm_valid,
    input  wire         m_tfrm_ready,
    output wire [3:0]   m_tfrm_words,
    output wire         st_busy                    // a frame is being written
);

initial begin
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
    if (RETRY_SLOTS < 0 || RETRY_SLOTS > 16) begin
        $error("%m: RETRY_SLOTS must be in 0..16");
    end
end

localparam [6:0] H     = `TG_HDR_OFF;
localparam [6:0] O_PAY = `TG_PAYLOAD_OFF;
localparam [6:0] O_FLAGS = H + `TG_H_FLAGS;
localparam integer HDR_OFF = `TG_HDR_OFF;      // the same, as integers for byte numbers
localparam integer PAY_OFF = `TG_PAYLOAD_OFF;

// ---------------------------------------------------------------- state
reg        busy_reg,  busy_next;
reg        done_reg,  done_next;   // every byte's position counted ...
reg        done1_reg;              // ... a cycle ago: the last write goes out now
reg [6:0]  off_reg,   off_next;    // slot byte written this cycle
reg        wr_en_next;             // the byte at off_reg is written (a cycle later)
reg [3:0]  words_reg;              // payload words of the frame, and ...
reg [6:0]  last_reg;               // ... its last slot byte, kept from its start
/* verilator lint_off UNUSEDSIGNAL */ // read only where RETRY_SLOTS > 0
reg        keep_reg;               // the frame is a new REQ: its bytes are kept ...
reg [3:0]  kidx_reg;               // ... in this slot of the copies, or resent from it
reg [15:0] ktag_reg;               // ... and its tag
/* verilator lint_on UNUSEDSIGNAL */
reg        resend_reg;             // the frame is a resend: its bytes come from the copy

// payload words the frame carries: a read request names a length but
// carries none
wire [3:0] words = (s_txd_op == `TG_OP_READ_REQ || s_txd_op == `TG_OP_ACK ||
                    s_txd_op == `TG_OP_NAK) ? 4'd0 : s_txd_len[6:3];
wire [6:0] last_off = O_PAY + {words, 3'd0} - 7'd1;
assign m_tfrm_words = words_reg;
assign st_busy      = busy_reg;

// The frame image from slot byte 0: the header as tg_eth_tx sends it
// (big-endian fields, no status, sequence or acknowledgement, the
// address's upper word zero), then the payload; byte n in img[8n +: 8].
function [63:0] bswap64;
    input [63:0] v;
    integer      i;
    begin
        for (i = 0; i < 8; i = i + 1) begin
            bswap64[8*i +: 8] = v[8*(7-i) +: 8];
        end
    end
endfunction
wire [63:0]  mask64  = {{(64 - BLOCK_BYTES){1'b0}}, s_txd_mask};
wire [383:0] hdr_img = {
    32'd0,                                          // 44-47 reserved
    s_txd_tag[7:0], s_txd_tag[15:8],                // 42-43 tag
    s_txd_ctx, s_txd_len,                           // 41 ctx, 40 len
    bswap64(mask64),                                // 32-39 mask
    bswap64({32'd0, s_txd_addr}),                   // 24-31 address
    bswap64(s_txd_key),                             // 16-23 key
    64'd0,                                          // 8-15 seq, ack
    s_txd_dst[7:0], s_txd_dst[15:8],                // 6-7 dst
    cfg_node_id[7:0], cfg_node_id[15:8],            // 4-5 src
    8'd0, s_txd_flags, s_txd_op, 8'd`TG_PROTO_VERSION  // 3 status, 2 flags, 1 op, 0 ver
};
localparam NGRP = (PAY_OFF + BLOCK_BYTES + 7) / 8; // groups of 8 slot bytes that hold frame bytes
wire [64*NGRP-1:0] img = {{(64*NGRP - 8*(PAY_OFF + BLOCK_BYTES)){1'b0}}, s_txd_payload, hdr_img,
                          {(8*HDR_OFF){1'b0}}};

// The byte at off_reg is picked in two registered steps (the byte clock
// leaves room for few LUT levels): within each group of 8 slot bytes by
// off_reg[2:0], then the group by off_reg[6:3], a cycle later.
reg [7:0] grp_byte [0:NGRP-1];
reg [7:0] grp_reg  [0:NGRP-1];
reg       en1_reg;                                 // the first step holds a byte to write ...
reg [6:0] off1_reg;                                // ... and where
reg       kept1_reg;                               // ... and that it is the copy's byte kp_rd_reg
wire [7:0] kp_rd;                                  // byte of the copy read at off_reg, a cycle later
wire       kp_slot;                                // the descriptor's tag names a slot of the copies ...
wire       kp_same;                                // ... and is that of the frame kept there
reg [7:0] wr_byte;
integer   g, k;
always @* begin
    for (g = 0; g < NGRP; g = g + 1) begin
        grp_byte[g] = 8'd0;
        for (k = 0; k < 8; k = k + 1) begin
            if (off_reg[2:0] == k[2:0]) begin
                grp_byte[g] = img[64*g + 8*k +: 8];
            end
        end
    end
    wr_byte = 8'd0;
    for (g = 0; g < NGRP; g = g + 1) begin
        if (off1_reg[6:3] == g[3:0]) begin
            wr_byte = grp_reg[g];
        end
    end
    if (kept1_reg) begin
        wr_byte = kp_rd;
    end
end

// The copies of the REQ frames, a slot of 128 bytes each, written with
// the frame's bytes as they go to the transmitter and read a byte a
// cycle in the first step of a resend (block RAM on an FPGA).
generate
if (RETRY_SLOTS > 0) begin : g_keep
    localparam integer SW = (RETRY_SLOTS > 1) ? $clog2(RETRY_SLOTS) : 1;      // slot number bits
    localparam integer KA = ((RETRY_SLOTS > 1) ? SW : 0) + 7;                    // address bits
    reg [7:0] kp_mem [0:(1 << KA) - 1];
    reg [7:0] kp_rd_reg;
    /* verilator lint_off UNUSEDSIGNAL */ // slot bits past RETRY_SLOTS's
    wire [10:0] kwr_addr = {kidx_reg, m_wr_off};
    wire [10:0] krd_addr = {kidx_reg, off_reg};
    /* verilator lint_on UNUSEDSIGNAL */
    // the tag of the frame each slot holds (none after reset)
    reg [15:0] kp_tag_reg [0:(1 << SW) - 1];
    reg [(1 << SW) - 1:0] kp_valid_reg;
    wire [3:0] sidx = s_txd_tag[3:0];
    wire [SW-1:0] sn = sidx[SW-1:0];
    assign kp_slot = ({1'b0, sidx} < RETRY_SLOTS[4:0]);
    assign kp_same = kp_slot && kp_valid_reg[sn] && (kp_tag_reg[sn] == s_txd_tag);
    always @(posedge clk) begin
        if (m_wr_en && keep_reg) begin
            kp_mem[kwr_addr[KA-1:0]] <= m_wr_data;
        end
        kp_rd_reg <= kp_mem[krd_addr[KA-1:0]];
        // a kept frame's tag, written while its frame is (kidx_reg and
        // ktag_reg hold from its start)
        if (busy_reg && keep_reg) begin
            kp_tag_reg[kidx_reg[SW-1:0]]   <= ktag_reg;
            kp_valid_reg[kidx_reg[SW-1:0]] <= 1'b1;
        end
        if (rst) begin
            kp_valid_reg <= {(1 << SW){1'b0}};
        end
    end
    assign kp_rd = kp_rd_reg;
end else begin : g_no_keep
    assign kp_rd   = 8'd0;
    assign kp_slot = 1'b0;
    assign kp_same = 1'b0;
end
endgenerate

always @* begin
    busy_next    = busy_reg;
    done_next    = done_reg;
    off_next     = off_reg;
    s_txd_ready  = 1'b0;
    wr_en_next   = 1'b0;
    m_tfrm_valid = 1'b0;
    if (!busy_reg) begin
        off_next = H;
        if (s_txd_valid && in_grant) begin
            busy_next = 1'b1;
            done_next = 1'b0;
        end
    end else if (!done_reg) begin
        wr_en_next = 1'b1;
        off_next = off_reg + 7'd1;
        if (off_reg == last_reg) begin
            done_next = 1'b1;
        end
    end else if (done1_reg) begin
        m_tfrm_valid = 1'b1;
        if (m_tfrm_ready) begin
            s_txd_ready = 1'b1;
            busy_next   = 1'b0;
        end
    end
end

// A byte is written two cycles after its position; the hand-over comes
// with the last byte's write, which still goes to the slot handed over.
always @(posedge clk) begin
    busy_reg  <= busy_next;
    done_reg  <= done_next;
    done1_reg <= done_reg;
    off_reg   <= off_next;
    for (g = 0; g < NGRP; g = g + 1) begin
        grp_reg[g] <= grp_byte[g];
    end
    en1_reg   <= wr_en_next;
    off1_reg  <= off_reg;
    kept1_reg <= resend_reg && (off_reg != O_FLAGS);
    m_wr_en   <= en1_reg;
    m_wr_off  <= off1_reg;
    m_wr_data <= wr_byte;
    if (!busy_reg) begin
        words_reg  <= words;
        last_reg   <= last_off;
        keep_reg   <= (s_txd_op == `TG_OP_REQ) && kp_slot && !kp_same;
        resend_reg <= (s_txd_op == `TG_OP_REQ) && kp_same;
        kidx_reg   <= s_txd_tag[3:0];
        ktag_reg   <= s_txd_tag;
    end
    if (rst) begin
        busy_reg <= 1'b0;
        done_reg <= 1'b0;
        off_reg  <= H;
        en1_reg  <= 1'b0;
        m_wr_en  <= 1'b0;
        keep_reg   <= 1'b0;
        resend_reg <= 1'b0;
    end
end

endmodule

`default_nettype wire
