// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the byte-serial receiver's test: tg_eth_rx8 beside the
// 64-bit tg_eth_rx, so the bench can give both the same frames and compare
// their verdicts.
`default_nettype none

module tb_eth_rx8_pair (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] cfg_node_id,

    // tg_eth_rx: 64-bit frame beats, descriptor handshake, verdicts
    input  wire [63:0] ref_tdata,
    input  wire [7:0]  ref_tkeep,
    input  wire        ref_tvalid,
    output wire        ref_tready,
    input  wire        ref_tlast,
    output wire        ref_valid,
    input  wire        ref_ready,
    output wire [4:0]  ref_ev,    // accept, data frame, FCS, type, malformed

    // tg_eth_rx8
    input  wire [7:0]  s_rx_tdata,
    input  wire        s_rx_tvalid,
    input  wire        s_rx_tlast,
    input  wire        s_rx_tuser,
    output wire        m_frm_valid,
    input  wire        m_frm_ready,
    output wire [1:0]  m_frm_slot,
    input  wire [8:0]  frm_rd_addr,
    output wire [7:0]  frm_rd_data,
    output wire [5:0]  dut_ev     // accept, data frame, FCS, type, malformed, busy
);

tg_eth_rx tg_eth_rx_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .s_axis_rx_tdata   (ref_tdata),
    .s_axis_rx_tkeep   (ref_tkeep),
    .s_axis_rx_tvalid  (ref_tvalid),
    .s_axis_rx_tready  (ref_tready),
    .s_axis_rx_tlast   (ref_tlast),
    .s_slot_valid      (1'b1),      // one frame at a time: slot 0 always free
    .s_slot_idx        (2'd0),
    .m_pay_we          (),
    .m_pay_slot        (),
    .m_pay_word        (),
    .m_pay_wdata       (),
    .m_rxd_valid       (ref_valid),
    .m_rxd_ready       (ref_ready),
    .m_rxd_op          (),
    .m_rxd_flags       (),
    .m_rxd_status      (),
    .m_rxd_src         (),
    .m_rxd_addr        (),
    .m_rxd_addr_hi     (),
    .m_rxd_mask        (),
    .m_rxd_len         (),
    .m_rxd_ctx         (),
    .m_rxd_tag         (),
    .m_rxd_key         (),
    .m_rxd_slot        (),
    .m_rxd_slot_next   (),
    .m_rxd_seq         (),
    .m_rxd_ack         (),
    .ev_rx_frame       (ref_ev[0]),
    .ev_rx_data_frame  (ref_ev[1]),
    .ev_drop_fcs       (ref_ev[2]),
    .ev_drop_type      (ref_ev[3]),
    .ev_drop_malformed (ref_ev[4])
);

tg_eth_rx8 tg_eth_rx8_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .s_rx_tdata        (s_rx_tdata),
    .s_rx_tvalid       (s_rx_tvalid),
    .s_rx_tlast        (s_rx_tlast),
    .s_rx_tuser        (s_rx_tuser),
    .m_frm_valid       (m_frm_valid),
    .m_frm_ready       (m_frm_ready),
    .m_frm_slot        (m_frm_slot),
    .frm_rd_addr       (frm_rd_addr),
    .frm_rd_data       (frm_rd_data),
    .ev_rx_frame       (dut_ev[0]),
    .ev_rx_data_frame  (dut_ev[1]),
    .ev_drop_fcs       (dut_ev[2]),
    .ev_drop_type      (dut_ev[3]),
    .ev_drop_malformed (dut_ev[4]),
    .ev_drop_busy      (dut_ev[5])
);

endmodule

`default_nettype wire
