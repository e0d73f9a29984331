// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the descriptor-to-byte-frame writer: tg_txd8 filling
// tg_eth_tx8's slots, granted the writer when the bench says so and a
// slot is free, keeping copies of REQ frames for resends.
`default_nettype none

module tb_txd8 #(
    parameter BLOCK_BYTES = 16,
    parameter RETRY_SLOTS = 16
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_node_id,
    input  wire         s_txd_valid,
    output wire         s_txd_ready,
    input  wire [7:0]   s_txd_op,
    input  wire [7:0]   s_txd_flags,
    input  wire [15:0]  s_txd_dst,
    input  wire [31:0]  s_txd_addr,
    input  wire [BLOCK_BYTES-1:0] s_txd_mask,
    input  wire [7:0]   s_txd_len,
    input  wire [7:0]   s_txd_ctx,
    input  wire [15:0]  s_txd_tag,
    input  wire [63:0]  s_txd_key,
    input  wire [8*BLOCK_BYTES-1:0] s_txd_payload,
    input  wire         grant,
    output wire         st_busy,
    output wire         wr_en,
    output wire         slot_free,
    output wire [7:0]   m_tx_tdata,
    output wire         m_tx_tvalid,
    input  wire         m_tx_tready,
    output wire         m_tx_tlast
);

wire       tfrm_valid;
wire [6:0] wr_off;
wire [7:0] wr_data;
wire [3:0] tfrm_words;
/* verilator lint_off UNUSEDSIGNAL */
wire       ev_tx_start, ev_tx_frame;
/* verilator lint_on UNUSEDSIGNAL */

tg_txd8 #(.BLOCK_BYTES (BLOCK_BYTES), .RETRY_SLOTS (RETRY_SLOTS)) dut (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id),
    .s_txd_valid (s_txd_valid), .s_txd_ready (s_txd_ready), .s_txd_op (s_txd_op), .s_txd_flags (s_txd_flags),
    .s_txd_dst (s_txd_dst), .s_txd_addr (s_txd_addr), .s_txd_mask (s_txd_mask), .s_txd_len (s_txd_len),
    .s_txd_ctx (s_txd_ctx), .s_txd_tag (s_txd_tag), .s_txd_key (s_txd_key), .s_txd_payload (s_txd_payload),
    .in_grant (grant && slot_free),
    .m_wr_en (wr_en), .m_wr_off (wr_off), .m_wr_data (wr_data),
    .m_tfrm_valid (tfrm_valid), .m_tfrm_ready (slot_free), .m_tfrm_words (tfrm_words), .st_busy (st_busy)
);

tg_eth_tx8 tx (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id),
    .s_wr_en (wr_en), .s_wr_off (wr_off), .s_wr_data (wr_data),
    .s_frm_valid (tfrm_valid), .s_frm_ready (slot_free), .s_frm_words (tfrm_words),
    .m_tx_tdata (m_tx_tdata), .m_tx_tvalid (m_tx_tvalid), .m_tx_tready (m_tx_tready), .m_tx_tlast (m_tx_tlast),
    .ev_tx_start (ev_tx_start), .ev_tx_frame (ev_tx_frame)
);

endmodule

`default_nettype wire
