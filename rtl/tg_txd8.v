// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Request descriptor to byte frame: writes the Telegraphos header and the
// payload of a descriptor (as tg_eth_tx lays them out, with no link-layer
// fields) a byte a cycle into tg_eth_tx8's free slot, then hands the slot
// over and takes the descriptor. It begins a frame only while it is
// granted the slot writer.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_txd8 #(
    parameter BLOCK_BYTES = 16  // payload bytes a descriptor carries: 16, 32 or 64
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
end

localparam [6:0] H     = `TG_HDR_OFF;
localparam [6:0] O_PAY = `TG_PAYLOAD_OFF;
localparam       HB    = `TG_HDR_BYTES;

// ---------------------------------------------------------------- state
reg        busy_reg,  busy_next;
reg        done_reg,  done_next;   // every byte written: hand over
reg [6:0]  off_reg,   off_next;    // slot byte written this cycle
reg        wr_en_next;             // the byte at off_reg is written (a cycle later)
reg [3:0]  words_reg;              // payload words of the frame, and ...
reg [6:0]  last_reg;               // ... its last slot byte, kept from its start

// payload words the frame carries: a read request names a length but
// carries none
wire [3:0] words = (s_txd_op == `TG_OP_READ_REQ || s_txd_op == `TG_OP_ACK ||
                    s_txd_op == `TG_OP_NAK) ? 4'd0 : s_txd_len[6:3];
wire [6:0] last_off = O_PAY + {words, 3'd0} - 7'd1;
assign m_tfrm_words = words_reg;
assign st_busy      = busy_reg;

// the header as tg_eth_tx sends it: big-endian fields, no status, sequence
// or acknowledgement, the address's upper word zero
wire [63:0] mask64 = {{(64 - BLOCK_BYTES){1'b0}}, s_txd_mask};
function [7:0] hdr_byte;
    input integer i;   // header byte, 0 = ver
    begin
        case (i)
            `TG_H_VER:       hdr_byte = `TG_PROTO_VERSION;
            `TG_H_OP:        hdr_byte = s_txd_op;
            `TG_H_FLAGS:     hdr_byte = s_txd_flags;
            `TG_H_SRC:       hdr_byte = cfg_node_id[15:8];
            `TG_H_SRC + 1:   hdr_byte = cfg_node_id[7:0];
            `TG_H_DST:       hdr_byte = s_txd_dst[15:8];
            `TG_H_DST + 1:   hdr_byte = s_txd_dst[7:0];
            `TG_H_LEN:       hdr_byte = s_txd_len;
            `TG_H_CTX:       hdr_byte = s_txd_ctx;
            `TG_H_TAG:       hdr_byte = s_txd_tag[15:8];
            `TG_H_TAG + 1:   hdr_byte = s_txd_tag[7:0];
            default: begin
                if (i >= `TG_H_KEY && i < `TG_H_KEY + 8) begin
                    hdr_byte = s_txd_key[8 * (`TG_H_KEY + 7 - i) +: 8];
                end else if (i >= `TG_H_ADDR + 4 && i < `TG_H_ADDR + 8) begin
                    hdr_byte = s_txd_addr[8 * (`TG_H_ADDR + 7 - i) +: 8];
                end else if (i >= `TG_H_MASK && i < `TG_H_MASK + 8) begin
                    hdr_byte = mask64[8 * (`TG_H_MASK + 7 - i) +: 8];
                end else begin
                    hdr_byte = 8'd0;                   // status, seq, ack, upper address, reserved
                end
            end
        endcase
    end
endfunction

// the byte written at off_reg
reg [7:0] wr_byte;
integer   b;
always @* begin
    wr_byte = 8'd0;
    for (b = 0; b < HB; b = b + 1) begin
        if (off_reg == H + b[6:0]) begin
            wr_byte = hdr_byte(b);
        end
    end
    for (b = 0; b < BLOCK_BYTES; b = b + 1) begin
        if (off_reg == O_PAY + b[6:0]) begin
            wr_byte = s_txd_payload[8*b +: 8];
        end
    end
end

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
    end else begin
        m_tfrm_valid = 1'b1;
        if (m_tfrm_ready) begin
            s_txd_ready = 1'b1;
            busy_next   = 1'b0;
        end
    end
end

// The hand-over comes in the cycle after the last byte's position: with
// that byte's write, which still goes to the slot handed over.
always @(posedge clk) begin
    busy_reg  <= busy_next;
    done_reg  <= done_next;
    off_reg   <= off_next;
    m_wr_en   <= wr_en_next;
    m_wr_off  <= off_reg;
    m_wr_data <= wr_byte;
    if (!busy_reg) begin
        words_reg <= words;
        last_reg  <= last_off;
    end
    if (rst) begin
        busy_reg <= 1'b0;
        done_reg <= 1'b0;
        off_reg  <= H;
        m_wr_en  <= 1'b0;
    end
end

endmodule

`default_nettype wire
