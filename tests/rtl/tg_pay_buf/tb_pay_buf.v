// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the payload buffer's test: tg_pay_buf as the transmit
// buffers build it (32 slots of 64 bytes, two holds per slot).
`default_nettype none

module tb_pay_buf (
    input  wire        clk,
    input  wire        rst,
    output wire        m_alloc_valid,
    output wire [4:0]  m_alloc_slot,
    input  wire        s_take_valid,
    input  wire [4:0]  s_take_slot,
    input  wire [1:0]  s_take_mask,
    input  wire        s_hold_valid,
    input  wire [4:0]  s_hold_slot,
    input  wire [1:0]  s_hold_mask,
    input  wire        s_free0_valid,
    input  wire [4:0]  s_free0_slot,
    input  wire [1:0]  s_free0_mask,
    input  wire        s_free1_valid,
    input  wire [4:0]  s_free1_slot,
    input  wire [1:0]  s_free1_mask,
    input  wire        s_free2_valid,
    input  wire [4:0]  s_free2_slot,
    input  wire [1:0]  s_free2_mask,
    input  wire        s_free3_valid,
    input  wire [4:0]  s_free3_slot,
    input  wire [1:0]  s_free3_mask,
    input  wire        s_pin_valid,
    input  wire [4:0]  s_pin_slot,
    input  wire        s_wr_en,
    input  wire [4:0]  s_wr_slot,
    input  wire [2:0]  s_wr_word,
    input  wire [63:0] s_wr_data,
    input  wire [4:0]  s_rd_slot,
    input  wire [2:0]  s_rd_word,
    output wire [63:0] m_rd_data,
    output wire [31:0] st_busy,
    output wire [63:0] st_held
);

tg_pay_buf #(
    .SLOTS_LOG2  (5),
    .BLOCK_BYTES (64),
    .HOLDERS     (2),
    .FREE_PORTS  (4)
) dut (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (m_alloc_valid),
    .m_alloc_slot  (m_alloc_slot),
    .s_take_valid  (s_take_valid),
    .s_take_slot   (s_take_slot),
    .s_take_mask   (s_take_mask),
    .s_hold_valid  (s_hold_valid),
    .s_hold_slot   (s_hold_slot),
    .s_hold_mask   (s_hold_mask),
    .s_free_valid  ({s_free3_valid, s_free2_valid, s_free1_valid, s_free0_valid}),
    .s_free_slot   ({s_free3_slot, s_free2_slot, s_free1_slot, s_free0_slot}),
    .s_free_mask   ({s_free3_mask, s_free2_mask, s_free1_mask, s_free0_mask}),
    .s_pin_valid   (s_pin_valid),
    .s_pin_slot    (s_pin_slot),
    .s_wr_en       (s_wr_en),
    .s_wr_slot     (s_wr_slot),
    .s_wr_word     (s_wr_word),
    .s_wr_data     (s_wr_data),
    .s_rd_slot     (s_rd_slot),
    .s_rd_word     (s_rd_word),
    .m_rd_data     (m_rd_data),
    .st_busy       (st_busy),
    .st_held       (st_held)
);

endmodule

`default_nettype wire
