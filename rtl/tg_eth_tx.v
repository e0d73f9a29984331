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
    input  wire [5:0]   s_txd_off,      // the bytes written or asked for: cnt from off
    input  wire [6:0]   s_txd_cnt,
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

// The frame is the Ethernet header, the 24-byte Telegraphos header and the
// payload, zero-padded to TG_MIN_FRAME_BYTES. The payload starts in lane
// PAY_LANE of beat PAY_BEAT: payload word k goes out in lanes PAY_LANE-7
// of beat PAY_BEAT+k (its low bytes) and lanes 0 to PAY_LANE-1 of beat
// PAY_BEAT+k+1 (the rest). The word is read in the cycle before beat
// PAY_BEAT+k (the address follows the beat register alone: the word for
// the next beat), kept while the beat waits, and its high bytes kept for
// the next beat.
localparam H         = `TG_HDR_OFF;
localparam PAY_BEAT  = `TG_PAYLOAD_OFF / 8;
localparam PAY_LANE  = `TG_PAYLOAD_OFF % 8;
localparam LO_W      = 8 * (8 - PAY_LANE);              // payload bits in the first beat
localparam MIN_BYTES = `TG_MIN_FRAME_BYTES;
localparam PAD_END_I = (MIN_BYTES - 1) / 8;
localparam [4:0] PAD_END  = PAD_END_I[4:0];             // the last beat of a padded frame
localparam PAD_KEEP_I = MIN_BYTES - 8 * PAD_END_I;
localparam [3:0] PAD_KEEP = PAD_KEEP_I[3:0];            // ... and its bytes

initial begin
    if (PAY_LANE == 0) begin
        $error("%m: the payload must not start on a beat boundary");
    end
end

// ---------------------------------------------------------------- state
reg                  busy_reg,   busy_next;
reg [15:0]           node_reg,   node_next;    // this node's id, taken with the frame
reg [3:0]            op_reg,     op_next;
reg [3:0]            flags_reg,  flags_next;
reg [3:0]            status_reg, status_next;
reg [15:0]           dst_reg,    dst_next;
reg [31:0]           addr_reg,   addr_next;
reg [5:0]            off_reg,    off_next;
reg [6:0]            cnt_reg,    cnt_next;
reg [7:0]            len_reg,    len_next;
reg [3:0]            ctx_reg,    ctx_next;
reg [15:0]           tag_reg,    tag_next;
reg [63:0]           key_reg,    key_next;
reg [15:0]           seq_reg,    seq_next;
reg [15:0]           ack_reg,    ack_next;
reg [1:0]            src_reg,    src_next;
reg [PAY_SLOT_W-1:0] slot_reg,   slot_next;
reg                  rel_reg,    rel_next;
reg [3:0]            words_reg,  words_next;   // payload words of the frame
reg [4:0]            end_reg,    end_next;     // the last beat
reg                  pad_reg,    pad_next;     // the frame is padded
reg [4:0]            beat_reg,   beat_next;
reg [63-LO_W:0]      carry_reg,  carry_next;   // the high bytes of the last payload word
reg                  adv_reg,    adv_next;     // the beat moved on in the last cycle
reg [63:0]           word_reg,   word_next;    // the payload word of this beat

// the descriptor's fields are wider than the wire's (the link layer's
// numbers are cut to 16 bits, which its window never exceeds)
/* verilator lint_off UNUSEDSIGNAL */
wire [47:0] unused_txd_hi = {s_txd_flags[7:4], s_txd_status[7:4], s_txd_ctx[7:4],
                             s_txd_seq[31:16], s_txd_ack[31:16], s_txd_op[7:4]};
/* verilator lint_on UNUSEDSIGNAL */

// ---------------------------------------------------------------- header image
wire [15:0] ethertype = `TG_ETHERTYPE;
wire [23:0] mac_oui   = `TG_MAC_OUI;
wire [7:0]  proto_ver = `TG_PROTO_VERSION;

// the header beats, 0 to PAY_BEAT (fields are big-endian: the most
// significant byte is sent first); the payload's lanes of beat PAY_BEAT
// are left zero here
localparam HDR_W = (PAY_BEAT + 1) * 64;
reg [HDR_W-1:0] hdr_img;
always @* begin
    hdr_img = {HDR_W{1'b0}};
    hdr_img[0*8 +: 48]  = {dst_reg[7:0], dst_reg[15:8], 8'h00,
                           mac_oui[7:0], mac_oui[15:8], mac_oui[23:16]};
    hdr_img[6*8 +: 48]  = {node_reg[7:0], node_reg[15:8], 8'h00,
                           mac_oui[7:0], mac_oui[15:8], mac_oui[23:16]};
    hdr_img[12*8 +: 16] = {ethertype[7:0], ethertype[15:8]};
    hdr_img[(H + `TG_H_VER)*8 +: 8] = proto_ver;
    hdr_img[(H + `TG_H_OP)*8 + `TG_H_OP_LSB +: `TG_H_OP_BITS] = op_reg;
    hdr_img[(H + `TG_H_FLAGS)*8 + `TG_H_FLAGS_LSB +: `TG_H_FLAGS_BITS] = flags_reg;
    hdr_img[(H + `TG_H_STATUS)*8 + `TG_H_STATUS_LSB +: `TG_H_STATUS_BITS] = status_reg;
    hdr_img[(H + `TG_H_CTX)*8 + `TG_H_CTX_LSB +: `TG_H_CTX_BITS] = ctx_reg;
    hdr_img[(H + `TG_H_LEN)*8 +: 8]  = len_reg;
    hdr_img[(H + `TG_H_OFF)*8 +: 8]  = {2'd0, off_reg};
    hdr_img[(H + `TG_H_CNT)*8 +: 8]  = {1'b0, cnt_reg};
    hdr_img[(H + `TG_H_SEQ)*8 +: 16] = {seq_reg[7:0], seq_reg[15:8]};
    hdr_img[(H + `TG_H_ACK)*8 +: 16] = {ack_reg[7:0], ack_reg[15:8]};
    hdr_img[(H + `TG_H_TAG)*8 +: 16] = {tag_reg[7:0], tag_reg[15:8]};
    hdr_img[(H + `TG_H_ADDR)*8 +: 32] = {addr_reg[7:0], addr_reg[15:8], addr_reg[23:16],
                                         addr_reg[31:24]};
    hdr_img[(H + `TG_H_KEY)*8 +: 64] = {key_reg[7:0], key_reg[15:8], key_reg[23:16],
                                        key_reg[31:24], key_reg[39:32], key_reg[47:40],
                                        key_reg[55:48], key_reg[63:56]};
end

// ---------------------------------------------------------------- beat data
wire        has_pay   = (src_reg != `TG_PAY_NONE);
// this beat starts payload word beat_reg - PAY_BEAT: from the read port in
// a beat's first cycle, kept after that; zeros past the last word (the
// padding) and without a slot
wire        pay_here  = has_pay && (beat_reg >= PAY_BEAT[4:0]) &&
                        (beat_reg < PAY_BEAT[4:0] + {1'b0, words_reg});
wire [63:0] pay_word  = !pay_here ? 64'd0 : adv_reg ? s_pay_rd_data : word_reg;
reg  [63:0] beat_data;                              // the frame's word at beat_reg
integer     bw;
always @* begin
    // a plain multiplexer over the header's beats (no shifter)
    beat_data = {pay_word[LO_W-1:0], carry_reg};
    for (bw = 0; bw < PAY_BEAT; bw = bw + 1) begin
        if (beat_reg == bw[4:0]) begin
            beat_data = hdr_img[bw*64 +: 64];
        end
    end
    if (beat_reg == PAY_BEAT[4:0]) begin
        beat_data = {pay_word[LO_W-1:0], hdr_img[PAY_BEAT*64 +: 64-LO_W]};
    end
end

wire        at_end    = (beat_reg == end_reg);
wire [7:0]  end_keep  = pad_reg ? ((8'd1 << PAD_KEEP) - 8'd1) : ((8'd1 << PAY_LANE) - 8'd1);
reg  [63:0] end_data;
integer     kl;
always @* begin
    for (kl = 0; kl < 8; kl = kl + 1) begin
        end_data[kl*8 +: 8] = end_keep[kl] ? beat_data[kl*8 +: 8] : 8'h00;
    end
end

assign m_axis_tx_tdata  = at_end ? end_data : beat_data;
assign m_axis_tx_tkeep  = at_end ? end_keep : 8'hFF;
assign m_axis_tx_tvalid = busy_reg;
assign m_axis_tx_tlast  = at_end;
assign s_txd_ready      = !busy_reg;
assign st_idle          = !busy_reg;

wire beat_fire = busy_reg && m_axis_tx_tready;
assign ev_tx_start = beat_fire && (beat_reg == 5'd0);
assign ev_tx_frame = beat_fire && at_end;
assign ev_tx_data_start = ev_tx_start && (op_reg != `TG_OP_ACK) && (op_reg != `TG_OP_NAK);

// the word the next beat carries (read a cycle ahead); the port is
// claimed from beat PAY_BEAT-1 on, a cycle before its first answer is used
wire [2:0] rd_idx  = beat_reg[2:0] + 3'd1 - PAY_BEAT[2:0];
assign m_pay_rd_valid  = busy_reg && has_pay && (beat_reg >= PAY_BEAT[4:0] - 5'd1);
assign m_pay_src       = src_reg;
assign m_pay_rd_slot   = slot_reg;
assign m_pay_rd_word   = rd_idx;
assign m_pay_pin_valid = busy_reg && has_pay;
assign m_pay_rel_valid = beat_fire && at_end && has_pay && rel_reg;

// payload words of the descriptor on offer: a read request names its
// length but carries no payload; link ACK and NAK frames carry none either
wire [3:0] txd_words = (s_txd_op == `TG_OP_READ_REQ || s_txd_op == `TG_OP_ACK ||
                        s_txd_op == `TG_OP_NAK) ? 4'd0 : s_txd_len[6:3];
wire       txd_pad   = (`TG_PAYLOAD_OFF + 8 * {28'd0, txd_words}) < MIN_BYTES;

always @* begin
    busy_next   = busy_reg;
    node_next   = node_reg;
    op_next     = op_reg;
    flags_next  = flags_reg;
    status_next = status_reg;
    dst_next    = dst_reg;
    addr_next   = addr_reg;
    off_next    = off_reg;
    cnt_next    = cnt_reg;
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
    end_next    = end_reg;
    pad_next    = pad_reg;
    beat_next   = beat_reg;
    carry_next  = carry_reg;
    adv_next    = 1'b0;
    word_next   = pay_word;

    if (!busy_reg) begin
        if (s_txd_valid) begin
            busy_next   = 1'b1;
            node_next   = cfg_node_id;
            op_next     = s_txd_op[3:0];
            flags_next  = s_txd_flags[3:0];
            status_next = s_txd_status[3:0];
            dst_next    = s_txd_dst;
            addr_next   = s_txd_addr;
            off_next    = s_txd_off;
            cnt_next    = s_txd_cnt;
            len_next    = s_txd_len;
            ctx_next    = s_txd_ctx[3:0];
            tag_next    = s_txd_tag;
            key_next    = s_txd_key;
            seq_next    = s_txd_seq[15:0];
            ack_next    = s_txd_ack[15:0];
            src_next    = s_txd_pay_src;
            slot_next   = s_txd_pay_slot;
            rel_next    = s_txd_pay_rel;
            words_next  = txd_words;
            pad_next    = txd_pad;
            end_next    = txd_pad ? PAD_END : PAY_BEAT[4:0] + {1'b0, txd_words};
            beat_next   = 5'd0;
        end
    end else if (m_axis_tx_tready) begin
        adv_next   = 1'b1;
        beat_next  = beat_reg + 5'd1;
        carry_next = pay_word[63:LO_W];
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
    off_reg    <= off_next;
    cnt_reg    <= cnt_next;
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
    end_reg    <= end_next;
    pad_reg    <= pad_next;
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
