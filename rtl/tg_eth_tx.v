// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Frame transmitter: turns one request descriptor into an Ethernet II frame
// (Telegraphos header, payload, FCS) on a 64-bit AXI-Stream.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_eth_tx (
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
    input  wire [511:0] s_txd_payload,  // payload word k in [64k+63:64k]
    input  wire [31:0]  s_txd_seq,      // link sequence number
    input  wire [31:0]  s_txd_ack,      // link cumulative acknowledgement

    // frame out
    output wire [63:0]  m_axis_tx_tdata,
    output wire [7:0]   m_axis_tx_tkeep,
    output wire         m_axis_tx_tvalid,
    input  wire         m_axis_tx_tready,
    output wire         m_axis_tx_tlast,

    // events
    output wire         ev_tx_start,    // first beat of a frame accepted
    output wire         ev_tx_data_start, // ... of a frame other than ACK or NAK
    output wire         ev_tx_frame     // last beat of a frame accepted
);

// The header is 62 bytes and the payload a multiple of 8, so the data of a
// frame with m payload words ends in lane 5 of beat 7+m: lanes 6-7 of that
// beat carry FCS bytes 0-1 and beat 8+m carries FCS bytes 2-3.
localparam FRAME_W = 1024;  // 128 bytes hold the 126 data bytes of the largest frame

// ---------------------------------------------------------------- frame image
wire [15:0] ethertype = `TG_ETHERTYPE;
wire [23:0] mac_oui   = `TG_MAC_OUI;
wire [7:0]  proto_ver = `TG_PROTO_VERSION;

wire [FRAME_W-1:0] frame_img;
// Header fields are big-endian: the most significant byte is sent first.
assign frame_img[0*8 +: 48]   = {s_txd_dst[7:0], s_txd_dst[15:8], 8'h00,
                                 mac_oui[7:0], mac_oui[15:8], mac_oui[23:16]};
assign frame_img[6*8 +: 48]   = {cfg_node_id[7:0], cfg_node_id[15:8], 8'h00,
                                 mac_oui[7:0], mac_oui[15:8], mac_oui[23:16]};
assign frame_img[12*8 +: 16]  = {ethertype[7:0], ethertype[15:8]};
assign frame_img[14*8 +: 8]   = proto_ver;
assign frame_img[15*8 +: 8]   = s_txd_op;
assign frame_img[16*8 +: 8]   = s_txd_flags;
assign frame_img[17*8 +: 8]   = s_txd_status;
assign frame_img[18*8 +: 16]  = {cfg_node_id[7:0], cfg_node_id[15:8]};
assign frame_img[20*8 +: 16]  = {s_txd_dst[7:0], s_txd_dst[15:8]};
assign frame_img[22*8 +: 64]  = {s_txd_ack[7:0], s_txd_ack[15:8],
                                 s_txd_ack[23:16], s_txd_ack[31:24],
                                 s_txd_seq[7:0], s_txd_seq[15:8],
                                 s_txd_seq[23:16], s_txd_seq[31:24]};
assign frame_img[30*8 +: 64]  = {s_txd_key[7:0], s_txd_key[15:8],
                                 s_txd_key[23:16], s_txd_key[31:24],
                                 s_txd_key[39:32], s_txd_key[47:40],
                                 s_txd_key[55:48], s_txd_key[63:56]};
assign frame_img[38*8 +: 64]  = {s_txd_addr[7:0], s_txd_addr[15:8],
                                 s_txd_addr[23:16], s_txd_addr[31:24], 32'd0};
assign frame_img[46*8 +: 64]  = {s_txd_mask[7:0], s_txd_mask[15:8],
                                 s_txd_mask[23:16], s_txd_mask[31:24],
                                 s_txd_mask[39:32], s_txd_mask[47:40],
                                 s_txd_mask[55:48], s_txd_mask[63:56]};
assign frame_img[54*8 +: 8]   = s_txd_len;
assign frame_img[55*8 +: 8]   = s_txd_ctx;
assign frame_img[56*8 +: 16]  = {s_txd_tag[7:0], s_txd_tag[15:8]};
assign frame_img[58*8 +: 32]  = 32'd0;                        // reserved
assign frame_img[62*8 +: 512] = s_txd_payload;
assign frame_img[126*8 +: 16] = 16'd0;

// ---------------------------------------------------------------- state
reg                busy_reg,  busy_next;
reg [FRAME_W-1:0]  frame_reg, frame_next;
reg [3:0]          words_reg, words_next;   // payload words of the frame
reg [4:0]          beat_reg,  beat_next;
reg [31:0]         crc_reg,   crc_next;
reg [15:0]         fcs_hi_reg, fcs_hi_next;

wire [4:0]  beat_fcs  = {1'b0, words_reg} + 5'd7;   // beat with FCS bytes 0-1
wire [4:0]  beat_last = {1'b0, words_reg} + 5'd8;   // beat with FCS bytes 2-3
reg  [63:0] beat_data;                              // the frame's word at beat_reg
integer     bw;
always @* begin
    // a plain multiplexer (no shifter on the frame)
    beat_data = 64'd0;
    for (bw = 0; bw < 16; bw = bw + 1) begin
        if (beat_reg[3:0] == bw[3:0]) begin
            beat_data = frame_reg[bw*64 +: 64];
        end
    end
end
wire        at_fcs    = (beat_reg == beat_fcs);
wire        at_last   = (beat_reg == beat_last);
wire [31:0] crc_beat;
wire [31:0] fcs       = ~crc_beat;

tg_crc32_d64 tg_crc32_d64_inst (
    .crc_in  (crc_reg),
    .data    (beat_data),
    .keep    (at_fcs ? 8'h3F : 8'hFF),
    .crc_out (crc_beat)
);

reg [63:0] tdata_out;
reg [7:0]  tkeep_out;

always @* begin
    if (at_last) begin
        tdata_out = {48'd0, fcs_hi_reg};
        tkeep_out = 8'h03;
    end else if (at_fcs) begin
        tdata_out = {fcs[15:0], beat_data[47:0]};
        tkeep_out = 8'hFF;
    end else begin
        tdata_out = beat_data;
        tkeep_out = 8'hFF;
    end
end

assign m_axis_tx_tdata  = tdata_out;
assign m_axis_tx_tkeep  = tkeep_out;
assign m_axis_tx_tvalid = busy_reg;
assign m_axis_tx_tlast  = at_last;
assign s_txd_ready      = !busy_reg;

wire beat_fire = busy_reg && m_axis_tx_tready;
assign ev_tx_start = beat_fire && (beat_reg == 5'd0);
assign ev_tx_frame = beat_fire && at_last;
wire [7:0] cur_op  = frame_reg[15*8 +: 8];
assign ev_tx_data_start = ev_tx_start && (cur_op != `TG_OP_ACK) && (cur_op != `TG_OP_NAK);

always @* begin
    busy_next   = busy_reg;
    frame_next  = frame_reg;
    words_next  = words_reg;
    beat_next   = beat_reg;
    crc_next    = crc_reg;
    fcs_hi_next = fcs_hi_reg;

    if (!busy_reg) begin
        if (s_txd_valid) begin
            busy_next  = 1'b1;
            frame_next = frame_img;
            // a read request names its length but carries no payload;
            // link ACK and NAK frames carry none either
            words_next = (s_txd_op == `TG_OP_READ_REQ || s_txd_op == `TG_OP_ACK ||
                          s_txd_op == `TG_OP_NAK) ? 4'd0 : s_txd_len[6:3];
            beat_next  = 5'd0;
            crc_next   = 32'hFFFFFFFF;
        end
    end else if (m_axis_tx_tready) begin
        beat_next = beat_reg + 5'd1;
        crc_next  = crc_beat;
        if (at_fcs) begin
            fcs_hi_next = fcs[31:16];
        end
        if (at_last) begin
            busy_next = 1'b0;
        end
    end
end

always @(posedge clk) begin
    busy_reg   <= busy_next;
    frame_reg  <= frame_next;
    words_reg  <= words_next;
    beat_reg   <= beat_next;
    crc_reg    <= crc_next;
    fcs_hi_reg <= fcs_hi_next;
    if (rst) begin
        busy_reg <= 1'b0;
        beat_reg <= 5'd0;
    end
end

endmodule

`default_nettype wire
