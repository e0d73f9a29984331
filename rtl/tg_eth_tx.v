// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Frame transmitter: turns one request descriptor into an Ethernet II frame
// (Telegraphos header and payload; the MAC appends the FCS) on a 64-bit
// AXI-Stream. The header
// comes from the descriptor's fields; the payload words are read one at a
// time from the payload buffer slot the descriptor names, as they are
// sent.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_eth_tx #(
    parameter PAY_SLOT_W = 5    // payload-buffer slot number bits
) (
    input  wire         clk,
    input  wire         rst,

    // configuration
    input  wire [15:0]  cfg_node_id,

    // request descriptor in
    input  wire         s_txd_valid,
    output wire         s_txd_ready,
    input  wire [7:0]   s_txd_op,
    input  wire [7:0]   s_txd_flags,
    input  wire [7:0]   s_txd_status,
    input  wire [15:0]  s_txd_dst,
    input  wire [31:0]  s_txd_addr,
    input  wire [63:0]  s_txd_mask,
    input  wire [7:0]   s_txd_len,      // payload bytes: 0, 8, ... 64
    input  wire [7:0]   s_txd_ctx,
    input  wire [15:0]  s_txd_tag,
    input  wire [63:0]  s_txd_key,      // protection key
    input  wire [1:0]   s_txd_pay_src,  // payload buffer (TG_PAY_NONE: the payload is zeros)
    input  wire [PAY_SLOT_W-1:0] s_txd_pay_slot,
    input  wire         s_txd_pay_rel,  // release the slot's wire hold once sent
    input  wire [31:0]  s_txd_seq,      // link sequence number
    input  wire [31:0]  s_txd_ack,      // link cumulative acknowledgement

    // payload read port (the buffer m_pay_src names answers a cycle later
    // on s_pay_rd_data); the port is in use while m_pay_rd_valid
    output wire         m_pay_rd_valid,
    output wire [1:0]   m_pay_src,
    output wire [PAY_SLOT_W-1:0] m_pay_rd_slot,
    output wire [2:0]   m_pay_rd_word,
    input  wire [63:0]  s_pay_rd_data,

    // the slot being sent (not to be handed out again meanwhile), and the
    // release of its wire hold after the last beat
    output wire         m_pay_pin_valid,
    output wire         m_pay_rel_valid,

    // frame out
    output wire [63:0]  m_axis_tx_tdata,
    output wire [7:0]   m_axis_tx_tkeep,
    output wire         m_axis_tx_tvalid,
    input  wire         m_axis_tx_tready,
    output wire         m_axis_tx_tlast,

    // events
    output wire         ev_tx_start,    // first beat of a frame accepted
    output wire         ev_tx_data_start, // ... of a frame other than ACK or NAK
    output wire         ev_tx_frame,    // last beat of a frame accepted

    output wire         st_idle         // no frame in hand
);

// The header is 62 bytes and the payload a multiple of 8, so a frame with
// m payload words ends in lane 5 of beat 7+m, its last. Payload word k
// goes out in lanes 6-7 of beat 7+k (its bytes 0-1) and lanes 0-5 of beat
// 8+k (bytes 2-7): the word is read in the cycle before beat 7+k (the
// address follows the beat register alone: the word for the next beat),
// kept while the beat waits, and its bytes 2-7 kept for the next beat.

// ---------------------------------------------------------------- state
reg                  busy_reg,   busy_next;
reg [15:0]           node_reg,   node_next;    // this node's id, taken with the frame
reg [7:0]            op_reg,     op_next;
reg [7:0]            flags_reg,  flags_next;
reg [7:0]            status_reg, status_next;
reg [15:0]           dst_reg,    dst_next;
reg [31:0]           addr_reg,   addr_next;
reg [63:0]           mask_reg,   mask_next;
reg [7:0]            len_reg,    len_next;
reg [7:0]            ctx_reg,    ctx_next;
reg [15:0]           tag_reg,    tag_next;
reg [63:0]           key_reg,    key_next;
reg [31:0]           seq_reg,    seq_next;
reg [31:0]           ack_reg,    ack_next;
reg [1:0]            src_reg,    src_next;
reg [PAY_SLOT_W-1:0] slot_reg,   slot_next;
reg                  rel_reg,    rel_next;
reg [3:0]            words_reg,  words_next;   // payload words of the frame
reg [4:0]            beat_reg,   beat_next;
reg [47:0]           carry_reg,  carry_next;   // bytes 2-7 of the last payload word
reg                  adv_reg,    adv_next;     // the beat moved on in the last cycle
reg [63:0]           word_reg,   word_next;    // the payload word of this beat

// ---------------------------------------------------------------- header image
wire [15:0] ethertype = `TG_ETHERTYPE;
wire [23:0] mac_oui   = `TG_MAC_OUI;
wire [7:0]  proto_ver = `TG_PROTO_VERSION;

// bytes 0-61 of the frame (header fields are big-endian: the most
// significant byte is sent first); bytes 62-63 are payload
wire [511:0] hdr_img;
assign hdr_img[0*8 +: 48]   = {dst_reg[7:0], dst_reg[15:8], 8'h00,
                               mac_oui[7:0], mac_oui[15:8], mac_oui[23:16]};
assign hdr_img[6*8 +: 48]   = {node_reg[7:0], node_reg[15:8], 8'h00,
                               mac_oui[7:0], mac_oui[15:8], mac_oui[23:16]};
assign hdr_img[12*8 +: 16]  = {ethertype[7:0], ethertype[15:8]};
assign hdr_img[14*8 +: 8]   = proto_ver;
assign hdr_img[15*8 +: 8]   = op_reg;
assign hdr_img[16*8 +: 8]   = flags_reg;
assign hdr_img[17*8 +: 8]   = status_reg;
assign hdr_img[18*8 +: 16]  = {node_reg[7:0], node_reg[15:8]};
assign hdr_img[20*8 +: 16]  = {dst_reg[7:0], dst_reg[15:8]};
assign hdr_img[22*8 +: 64]  = {ack_reg[7:0], ack_reg[15:8], ack_reg[23:16], ack_reg[31:24],
                               seq_reg[7:0], seq_reg[15:8], seq_reg[23:16], seq_reg[31:24]};
assign hdr_img[30*8 +: 64]  = {key_reg[7:0], key_reg[15:8], key_reg[23:16], key_reg[31:24],
                               key_reg[39:32], key_reg[47:40], key_reg[55:48], key_reg[63:56]};
assign hdr_img[38*8 +: 64]  = {addr_reg[7:0], addr_reg[15:8], addr_reg[23:16], addr_reg[31:24],
                               32'd0};
assign hdr_img[46*8 +: 64]  = {mask_reg[7:0], mask_reg[15:8], mask_reg[23:16], mask_reg[31:24],
                               mask_reg[39:32], mask_reg[47:40], mask_reg[55:48], mask_reg[63:56]};
assign hdr_img[54*8 +: 8]   = len_reg;
assign hdr_img[55*8 +: 8]   = ctx_reg;
assign hdr_img[56*8 +: 16]  = {tag_reg[7:0], tag_reg[15:8]};
assign hdr_img[58*8 +: 32]  = 32'd0;                        // reserved
assign hdr_img[62*8 +: 16]  = 16'd0;

// ---------------------------------------------------------------- beat data
wire        has_pay   = (src_reg != `TG_PAY_NONE);
// the payload word of this beat (bytes 0-1 in lanes 6-7): zeros without a slot
// (on the read port in a beat's first cycle, kept after that)
wire [63:0] pay_word  = !has_pay ? 64'd0 : adv_reg ? s_pay_rd_data : word_reg;
reg  [63:0] beat_data;                              // the frame's word at beat_reg
integer     bw;
always @* begin
    // a plain multiplexer over the header's beats (no shifter)
    beat_data = {pay_word[15:0], carry_reg};
    for (bw = 0; bw < 8; bw = bw + 1) begin
        if (beat_reg == bw[4:0]) begin
            beat_data = hdr_img[bw*64 +: 64];
        end
    end
    if (beat_reg == 5'd7) begin
        beat_data[63:48] = pay_word[15:0];
    end
end

wire [4:0]  beat_end  = {1'b0, words_reg} + 5'd7;   // the last beat: lanes 0-5
wire        at_end    = (beat_reg == beat_end);

assign m_axis_tx_tdata  = at_end ? {16'd0, beat_data[47:0]} : beat_data;
assign m_axis_tx_tkeep  = at_end ? 8'h3F : 8'hFF;
assign m_axis_tx_tvalid = busy_reg;
assign m_axis_tx_tlast  = at_end;
assign s_txd_ready      = !busy_reg;
assign st_idle          = !busy_reg;

wire beat_fire = busy_reg && m_axis_tx_tready;
assign ev_tx_start = beat_fire && (beat_reg == 5'd0);
assign ev_tx_frame = beat_fire && at_end;
assign ev_tx_data_start = ev_tx_start && (op_reg != `TG_OP_ACK) && (op_reg != `TG_OP_NAK);

// the word the next beat carries (read a cycle ahead); the port is
// claimed from beat 6 on, a cycle before its first answer is used
wire [2:0] rd_word = beat_reg[2:0] - 3'd6;    // (beat_reg + 1 - 7) mod 8
assign m_pay_rd_valid  = busy_reg && has_pay && (beat_reg >= 5'd6);
assign m_pay_src       = src_reg;
assign m_pay_rd_slot   = slot_reg;
assign m_pay_rd_word   = rd_word;
assign m_pay_pin_valid = busy_reg && has_pay;
assign m_pay_rel_valid = beat_fire && at_end && has_pay && rel_reg;

always @* begin
    busy_next   = busy_reg;
    node_next   = node_reg;
    op_next     = op_reg;
    flags_next  = flags_reg;
    status_next = status_reg;
    dst_next    = dst_reg;
    addr_next   = addr_reg;
    mask_next   = mask_reg;
    len_next    = len_reg;
    ctx_next    = ctx_reg;
    tag_next    = tag_reg;
    key_next    = key_reg;
    seq_next    = seq_reg;
    ack_next    = ack_reg;
    src_next    = src_reg;
    slot_next   = slot_reg;
    rel_next    = rel_reg;
    words_next  = words_reg;
    beat_next   = beat_reg;
    carry_next  = carry_reg;
    adv_next    = 1'b0;
    word_next   = pay_word;

    if (!busy_reg) begin
        if (s_txd_valid) begin
            busy_next   = 1'b1;
            node_next   = cfg_node_id;
            op_next     = s_txd_op;
            flags_next  = s_txd_flags;
            status_next = s_txd_status;
            dst_next    = s_txd_dst;
            addr_next   = s_txd_addr;
            mask_next   = s_txd_mask;
            len_next    = s_txd_len;
            ctx_next    = s_txd_ctx;
            tag_next    = s_txd_tag;
            key_next    = s_txd_key;
            seq_next    = s_txd_seq;
            ack_next    = s_txd_ack;
            src_next    = s_txd_pay_src;
            slot_next   = s_txd_pay_slot;
            rel_next    = s_txd_pay_rel;
            // a read request names its length but carries no payload;
            // link ACK and NAK frames carry none either
            words_next  = (s_txd_op == `TG_OP_READ_REQ || s_txd_op == `TG_OP_ACK ||
                           s_txd_op == `TG_OP_NAK) ? 4'd0 : s_txd_len[6:3];
            beat_next   = 5'd0;
        end
    end else if (m_axis_tx_tready) begin
        adv_next   = 1'b1;
        beat_next  = beat_reg + 5'd1;
        carry_next = pay_word[63:16];
        if (at_end) begin
            busy_next = 1'b0;
        end
    end
end

always @(posedge clk) begin
    busy_reg   <= busy_next;
    node_reg   <= node_next;
    op_reg     <= op_next;
    flags_reg  <= flags_next;
    status_reg <= status_next;
    dst_reg    <= dst_next;
    addr_reg   <= addr_next;
    mask_reg   <= mask_next;
    len_reg    <= len_next;
    ctx_reg    <= ctx_next;
    tag_reg    <= tag_next;
    key_reg    <= key_next;
    seq_reg    <= seq_next;
    ack_reg    <= ack_next;
    src_reg    <= src_next;
    slot_reg   <= slot_next;
    rel_reg    <= rel_next;
    words_reg  <= words_next;
    beat_reg   <= beat_next;
    carry_reg  <= carry_next;
    adv_reg    <= adv_next;
    word_reg   <= word_next;
    if (rst) begin
        busy_reg <= 1'b0;
        beat_reg <= 5'd0;
        src_reg  <= 2'd0;
    end
end

endmodule

`default_nettype wire
