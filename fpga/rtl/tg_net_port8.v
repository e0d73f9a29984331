// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Network port of the byte-serial node: the byte-serial MAC, receiver and
// transmitter between GMII and the block-RAM frame slots.
`default_nettype none

module tg_net_port8 (
    input  wire       clk,
    input  wire       rst,

    // configuration
    input  wire [15:0] cfg_node_id,

    // GMII receive samples, already in this clock (one per cycle at most)
    input  wire       gmii_rx_valid,
    input  wire       gmii_rx_dv,
    input  wire       gmii_rx_er,
    input  wire [7:0] gmii_rxd,

    // GMII transmit, one byte per cycle
    output wire [7:0] gmii_txd,
    output wire       gmii_tx_en,
    output wire       gmii_tx_er,

    // accepted frames (tg_eth_rx8): oldest first, freed by ready with
    // valid; byte rd_addr[6:0] of slot rd_addr[8:7] a cycle after rd_addr
    output wire       m_frm_valid,
    input  wire       m_frm_ready,
    output wire [1:0] m_frm_slot,
    input  wire [8:0] frm_rd_addr,
    output wire [7:0] frm_rd_data,

    // frames to send (tg_eth_tx8): bytes 14 on into the free slot, then
    // its hand-over with the payload words
    input  wire       s_wr_en,
    input  wire [6:0] s_wr_off,
    input  wire [7:0] s_wr_data,
    input  wire       s_frm_valid,
    output wire       s_frm_ready,
    input  wire [3:0] s_frm_words,

    // events
    output wire       ev_rx_frame,
    output wire       ev_rx_data_frame,
    output wire       ev_drop_fcs,
    output wire       ev_drop_type,
    output wire       ev_drop_malformed,
    output wire       ev_drop_busy,
    output wire       ev_tx_start,
    output wire       ev_tx_frame,
    output wire       ev_tx_abort
);

wire [7:0] rx_tdata;
wire       rx_tvalid, rx_tlast, rx_tuser;
wire [7:0] tx_tdata;
wire       tx_tvalid, tx_tready, tx_tlast;

tg_gmii_mac8 tg_gmii_mac8_inst (
    .clk           (clk),
    .rst           (rst),
    .gmii_rx_valid (gmii_rx_valid),
    .gmii_rx_dv    (gmii_rx_dv),
    .gmii_rx_er    (gmii_rx_er),
    .gmii_rxd      (gmii_rxd),
    .gmii_txd      (gmii_txd),
    .gmii_tx_en    (gmii_tx_en),
    .gmii_tx_er    (gmii_tx_er),
    .m_rx_tdata    (rx_tdata),
    .m_rx_tvalid   (rx_tvalid),
    .m_rx_tlast    (rx_tlast),
    .m_rx_tuser    (rx_tuser),
    .s_tx_tdata    (tx_tdata),
    .s_tx_tvalid   (tx_tvalid),
    .s_tx_tready   (tx_tready),
    .s_tx_tlast    (tx_tlast),
    .ev_tx_abort   (ev_tx_abort)
);

tg_eth_rx8 tg_eth_rx8_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .s_rx_tdata        (rx_tdata),
    .s_rx_tvalid       (rx_tvalid),
    .s_rx_tlast        (rx_tlast),
    .s_rx_tuser        (rx_tuser),
    .m_frm_valid       (m_frm_valid),
    .m_frm_ready       (m_frm_ready),
    .m_frm_slot        (m_frm_slot),
    .frm_rd_addr       (frm_rd_addr),
    .frm_rd_data       (frm_rd_data),
    .ev_rx_frame       (ev_rx_frame),
    .ev_rx_data_frame  (ev_rx_data_frame),
    .ev_drop_fcs       (ev_drop_fcs),
    .ev_drop_type      (ev_drop_type),
    .ev_drop_malformed (ev_drop_malformed),
    .ev_drop_busy      (ev_drop_busy)
);

tg_eth_tx8 tg_eth_tx8_inst (
    .clk          (clk),
    .rst          (rst),
    .cfg_node_id  (cfg_node_id),
    .s_wr_en      (s_wr_en),
    .s_wr_off     (s_wr_off),
    .s_wr_data    (s_wr_data),
    .s_frm_valid  (s_frm_valid),
    .s_frm_ready  (s_frm_ready),
    .s_frm_words  (s_frm_words),
    .m_tx_tdata   (tx_tdata),
    .m_tx_tvalid  (tx_tvalid),
    .m_tx_tready  (tx_tready),
    .m_tx_tlast   (tx_tlast),
    .ev_tx_start  (ev_tx_start),
    .ev_tx_frame  (ev_tx_frame)
);

endmodule

`default_nettype wire
