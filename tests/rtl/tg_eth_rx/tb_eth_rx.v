// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the receiver's test: tg_eth_rx with the payload buffer that
// hands it slots (the bench frees each slot when it chooses, so several
// are busy and the offered slot varies; it can also show none free), and
// the payload of the slot on offer gathered into one vector from a copy
// of every word written.
`default_nettype none

module tb_eth_rx (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_node_id,
    input  wire         tb_slot_block,   // 1: no slot is free (frames must wait)
    input  wire         tb_free_valid,   // the bench is done with this slot's frame
    input  wire [1:0]   tb_free_slot,

    input  wire [63:0]  s_axis_rx_tdata,
    input  wire [7:0]   s_axis_rx_tkeep,
    input  wire         s_axis_rx_tvalid,
    output wire         s_axis_rx_tready,
    input  wire         s_axis_rx_tlast,
    input  wire         s_axis_rx_tuser,

    output wire         m_rxd_valid,
    input  wire         m_rxd_ready,
    output wire [7:0]   m_rxd_op,
    output wire [7:0]   m_rxd_flags,
    output wire [7:0]   m_rxd_status,
    output wire [15:0]  m_rxd_src,
    output wire [31:0]  m_rxd_addr,
    output wire [5:0]   m_rxd_off,
    output wire [6:0]   m_rxd_cnt,
    output wire [7:0]   m_rxd_len,
    output wire [7:0]   m_rxd_ctx,
    output wire [15:0]  m_rxd_tag,
    output wire [63:0]  m_rxd_key,
    output wire [1:0]   m_rxd_slot,
    output wire [1:0]   m_rxd_slot_next,
    output wire [511:0] m_rxd_payload,
    output wire [31:0]  m_rxd_seq,
    output wire [31:0]  m_rxd_ack,
    output wire [3:0]   st_busy,        // slots the buffer holds

    output wire         ev_rx_frame,
    output wire         ev_rx_data_frame,
    output wire         ev_drop_fcs,
    output wire         ev_drop_type,
    output wire         ev_drop_malformed
);

wire        alloc_valid;
wire [1:0]  alloc_slot;
wire        pay_we;
wire [1:0]  pay_slot;
wire [2:0]  pay_word;
wire [63:0] pay_wdata;
wire [63:0] rd_data_unused;
wire [3:0]  st_held_unused;   // (one hold: the same as st_busy)

tg_pay_buf #(
    .SLOTS_LOG2  (2),
    .BLOCK_BYTES (64),
    .HOLDERS     (1),
    .FREE_PORTS  (1)
) tg_pay_buf_inst (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (alloc_valid),
    .m_alloc_slot  (alloc_slot),
    .s_take_valid  (ev_rx_frame),
    .s_take_slot   (m_rxd_slot),
    .s_take_mask   (1'b1),
    .s_hold_valid  (1'b0),
    .s_hold_slot   (2'd0),
    .s_hold_mask   (1'b0),
    .s_free_valid  (tb_free_valid),
    .s_free_slot   (tb_free_slot),
    .s_free_mask   (1'b1),
    .s_pin_valid   (1'b0),
    .s_pin_slot    (2'd0),
    .s_wr_en       (pay_we),
    .s_wr_slot     (pay_slot),
    .s_wr_word     (pay_word),
    .s_wr_data     (pay_wdata),
    .s_rd_slot     (2'd0),
    .s_rd_word     (3'd0),
    .m_rd_data     (rd_data_unused),
    .st_busy       (st_busy),
    .st_held       (st_held_unused)
);

tg_eth_rx #(
    .BLOCK_BYTES (64),
    .SLOT_W      (2)
) dut (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .s_axis_rx_tdata   (s_axis_rx_tdata),
    .s_axis_rx_tkeep   (s_axis_rx_tkeep),
    .s_axis_rx_tvalid  (s_axis_rx_tvalid),
    .s_axis_rx_tready  (s_axis_rx_tready),
    .s_axis_rx_tlast   (s_axis_rx_tlast),
    .s_axis_rx_tuser   (s_axis_rx_tuser),
    .s_slot_valid      (alloc_valid && !tb_slot_block),
    .s_slot_idx        (alloc_slot),
    .m_pay_we          (pay_we),
    .m_pay_slot        (pay_slot),
    .m_pay_word        (pay_word),
    .m_pay_wdata       (pay_wdata),
    .m_rxd_valid       (m_rxd_valid),
    .m_rxd_ready       (m_rxd_ready),
    .m_rxd_op          (m_rxd_op),
    .m_rxd_flags       (m_rxd_flags),
    .m_rxd_status      (m_rxd_status),
    .m_rxd_src         (m_rxd_src),
    .m_rxd_addr        (m_rxd_addr),
    .m_rxd_off (m_rxd_off),
    .m_rxd_cnt (m_rxd_cnt),
    .m_rxd_len         (m_rxd_len),
    .m_rxd_ctx         (m_rxd_ctx),
    .m_rxd_tag         (m_rxd_tag),
    .m_rxd_key         (m_rxd_key),
    .m_rxd_slot        (m_rxd_slot),
    .m_rxd_slot_next   (m_rxd_slot_next),
    .m_rxd_seq         (m_rxd_seq),
    .m_rxd_ack         (m_rxd_ack),
    .ev_rx_frame       (ev_rx_frame),
    .ev_rx_data_frame  (ev_rx_data_frame),
    .ev_drop_fcs       (ev_drop_fcs),
    .ev_drop_type      (ev_drop_type),
    .ev_drop_malformed (ev_drop_malformed)
);

// a copy of every payload word written, to show a slot's words at once
reg [63:0] shadow [0:31];
always @(posedge clk) begin
    if (pay_we) begin
        shadow[{pay_slot, pay_word}] <= pay_wdata;
    end
end

genvar w;
generate
for (w = 0; w < 8; w = w + 1) begin : g_word
    assign m_rxd_payload[w*64 +: 64] = shadow[{m_rxd_slot, w[2:0]}];
end
endgenerate

endmodule

`default_nettype wire
