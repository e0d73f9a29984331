// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the receive engine's test: tg_rx_engine with the response
// buffer it writes read data and atomics' old values into (32 slots, one
// hold: the wire). The bench stands for the response's path downstream: it
// releases a slot's hold when it chooses, and it can show no slot free for
// a while (a read request or an atomic must wait for one). The payload of
// the response on offer is gathered into one vector from a copy of every
// word written, with a word written to its slot in this cycle already in
// place; a response without a payload buffer (TG_PAY_NONE) shows zeros.
// The receive payload buffer stays the bench's own (it answers the
// engine's reads itself).
`default_nettype none
`include "tg_hw_defs.vh"

module tb_rx_engine (
    input  wire         clk,
    input  wire         rst,
    input  wire [31:0]  cfg_mem_size,
    input  wire         s_rxd_valid,
    output wire         s_rxd_ready,
    input  wire [7:0]   s_rxd_op,
    input  wire [7:0]   s_rxd_flags,
    input  wire [7:0]   s_rxd_status,
    input  wire [15:0]  s_rxd_src,
    input  wire [31:0]  s_rxd_addr,
    input  wire [63:0]  s_rxd_mask,
    input  wire [7:0]   s_rxd_len,
    input  wire [7:0]   s_rxd_ctx,
    input  wire [15:0]  s_rxd_tag,
    input  wire [63:0]  s_rxd_key,
    input  wire [1:0]   s_rxd_slot_next,
    output wire [1:0]   m_pay_rd_slot,
    output wire [2:0]   m_pay_rd_word,
    input  wire [63:0]  s_pay_rd_data,
    input  wire         cfg_prot_enable,
    output wire [63:0]  prot_key,
    input  wire         prot_hit,
    input  wire [31:0]  prot_base,
    input  wire [32:0]  prot_end,
    input  wire [3:0]   prot_rights,
    output wire         st_idle,
    output wire         m_mem_req_valid,
    input  wire         m_mem_req_ready,
    output wire         m_mem_req_write,
    output wire [31:0]  m_mem_req_addr,
    output wire [63:0]  m_mem_req_wdata,
    output wire [7:0]   m_mem_req_wstrb,
    input  wire         s_mem_resp_valid,
    input  wire [63:0]  s_mem_resp_rdata,
    output wire         m_txd_valid,
    input  wire         m_txd_ready,
    output wire [7:0]   m_txd_op,
    output wire [7:0]   m_txd_flags,
    output wire [7:0]   m_txd_status,
    output wire [15:0]  m_txd_dst,
    output wire [31:0]  m_txd_addr,
    output wire [63:0]  m_txd_mask,
    output wire [7:0]   m_txd_len,
    output wire [7:0]   m_txd_ctx,
    output wire [15:0]  m_txd_tag,
    output wire [1:0]   m_txd_pay_src,
    output wire [4:0]   m_txd_pay_slot,
    output wire [511:0] m_txd_payload,   // the words of the slot on offer (zeros for TG_PAY_NONE)

    // the response buffer as the bench drives and sees it
    input  wire         tb_alloc_block,  // 1: no slot is shown free
    input  wire         tb_free_valid,   // release the wire hold of a slot
    input  wire [4:0]   tb_free_slot,
    output wire         rsp_alloc_valid, // the free slot as the engine sees it
    output wire [4:0]   rsp_alloc_slot,
    output wire         m_rsp_take_valid,
    output wire         m_rsp_we,
    output wire [4:0]   m_rsp_wr_slot,
    output wire [2:0]   m_rsp_wr_word,
    output wire [63:0]  m_rsp_wr_data,
    output wire [31:0]  st_busy,         // slots held

    output wire         m_hrd_valid,
    output wire [15:0]  m_hrd_src,
    output wire [15:0]  m_hrd_tag,
    output wire [7:0]   m_hrd_status,
    output wire [63:0]  m_hrd_data,
    output wire [31:0]  q_lk_base,
    input  wire         q_lk_hit,
    input  wire [3:0]   q_lk_idx,
    input  wire [4:0]   q_lk_size_log2,
    input  wire [2:0]   q_lk_esize_log2,
    input  wire [23:0]  q_lk_tail,
    input  wire         q_lk_full,
    input  wire         q_lk_head_valid,
    input  wire [23:0]  q_lk_head,
    output wire         q_upd_tail_valid,
    output wire [3:0]   q_upd_idx,
    output wire [23:0]  q_upd_tail,
    output wire         q_upd_full_valid,
    output wire         q_upd_head_valid,
    output wire [23:0]  q_upd_head,
    output wire         m_qresp_valid,
    output wire [15:0]  m_qresp_src,
    output wire [15:0]  m_qresp_tag,
    output wire [7:0]   m_qresp_status,
    output wire [3:0]   fetch_lookup_idx,
    input  wire         fetch_lookup_valid,
    input  wire [15:0]  fetch_lookup_node,
    input  wire [31:0]  fetch_lookup_laddr,
    input  wire [31:0]  fetch_lookup_cpl,
    input  wire [63:0]  fetch_lookup_mask,
    output wire         fetch_free_valid,
    output wire [3:0]   fetch_free_idx,
    input  wire         s_fto_valid,
    output wire         s_fto_ready,
    input  wire [3:0]   s_fto_idx,
    output wire         ev_refused,
    output wire         ev_stray,
    output wire         ev_rx_done,
    output wire         ev_req_accepted,
    output wire         ev_req_refused,
    output wire         ev_enq_done,
    output wire         ev_atomic,
    output wire         ev_prot_refused
);

wire        alloc_valid;
wire [4:0]  alloc_slot;
/* verilator lint_off UNUSEDSIGNAL */ // (the payload is shown from the copy below)
wire [63:0] rd_data_unused;
wire [31:0] held_unused;   // (one hold: the same as st_busy)
/* verilator lint_on UNUSEDSIGNAL */

assign rsp_alloc_valid = alloc_valid && !tb_alloc_block;
assign rsp_alloc_slot  = alloc_slot;

tg_pay_buf #(
    .SLOTS_LOG2  (5),
    .BLOCK_BYTES (64),
    .HOLDERS     (1),
    .FREE_PORTS  (1)
) tg_rsp_pay_inst (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (alloc_valid),
    .m_alloc_slot  (alloc_slot),
    .s_take_valid  (m_rsp_take_valid),
    .s_take_slot   (m_rsp_wr_slot),
    .s_take_mask   (1'b1),
    .s_hold_valid  (1'b0),
    .s_hold_slot   (5'd0),
    .s_hold_mask   (1'b0),
    .s_free_valid  (tb_free_valid),
    .s_free_slot   (tb_free_slot),
    .s_free_mask   (1'b1),
    .s_pin_valid   (1'b0),
    .s_pin_slot    (5'd0),
    .s_wr_en       (m_rsp_we),
    .s_wr_slot     (m_rsp_wr_slot),
    .s_wr_word     (m_rsp_wr_word),
    .s_wr_data     (m_rsp_wr_data),
    .s_rd_slot     (5'd0),
    .s_rd_word     (3'd0),
    .m_rd_data     (rd_data_unused),
    .st_busy       (st_busy),
    .st_held       (held_unused)
);

tg_rx_engine #(
    .BLK_SRC_BITS (8),
    .BLOCK_BYTES  (64),
    .SLOT_W       (2),
    .PAY_SLOT_W   (5)
) dut (
    .clk                (clk),
    .rst                (rst),
    .cfg_mem_size       (cfg_mem_size),
    .s_rxd_valid        (s_rxd_valid),
    .s_rxd_ready        (s_rxd_ready),
    .s_rxd_op           (s_rxd_op),
    .s_rxd_flags        (s_rxd_flags),
    .s_rxd_status       (s_rxd_status),
    .s_rxd_src          (s_rxd_src),
    .s_rxd_addr         (s_rxd_addr),
    .s_rxd_mask         (s_rxd_mask),
    .s_rxd_len          (s_rxd_len),
    .s_rxd_ctx          (s_rxd_ctx),
    .s_rxd_tag          (s_rxd_tag),
    .s_rxd_key          (s_rxd_key),
    .s_rxd_slot_next    (s_rxd_slot_next),
    .m_pay_rd_slot      (m_pay_rd_slot),
    .m_pay_rd_word      (m_pay_rd_word),
    .s_pay_rd_data      (s_pay_rd_data),
    .cfg_prot_enable    (cfg_prot_enable),
    .prot_key           (prot_key),
    .prot_hit           (prot_hit),
    .prot_base          (prot_base),
    .prot_end           (prot_end),
    .prot_rights        (prot_rights),
    .st_idle            (st_idle),
    .m_mem_req_valid    (m_mem_req_valid),
    .m_mem_req_ready    (m_mem_req_ready),
    .m_mem_req_write    (m_mem_req_write),
    .m_mem_req_addr     (m_mem_req_addr),
    .m_mem_req_wdata    (m_mem_req_wdata),
    .m_mem_req_wstrb    (m_mem_req_wstrb),
    .s_mem_resp_valid   (s_mem_resp_valid),
    .s_mem_resp_rdata   (s_mem_resp_rdata),
    .m_txd_valid        (m_txd_valid),
    .m_txd_ready        (m_txd_ready),
    .m_txd_op           (m_txd_op),
    .m_txd_flags        (m_txd_flags),
    .m_txd_status       (m_txd_status),
    .m_txd_dst          (m_txd_dst),
    .m_txd_addr         (m_txd_addr),
    .m_txd_mask         (m_txd_mask),
    .m_txd_len          (m_txd_len),
    .m_txd_ctx          (m_txd_ctx),
    .m_txd_tag          (m_txd_tag),
    .m_txd_pay_src      (m_txd_pay_src),
    .m_txd_pay_slot     (m_txd_pay_slot),
    .s_rsp_alloc_valid  (rsp_alloc_valid),
    .s_rsp_alloc_slot   (rsp_alloc_slot),
    .m_rsp_take_valid   (m_rsp_take_valid),
    .m_rsp_we           (m_rsp_we),
    .m_rsp_wr_slot      (m_rsp_wr_slot),
    .m_rsp_wr_word      (m_rsp_wr_word),
    .m_rsp_wr_data      (m_rsp_wr_data),
    .m_hrd_valid        (m_hrd_valid),
    .m_hrd_src          (m_hrd_src),
    .m_hrd_tag          (m_hrd_tag),
    .m_hrd_status       (m_hrd_status),
    .m_hrd_data         (m_hrd_data),
    .q_lk_base          (q_lk_base),
    .q_lk_hit           (q_lk_hit),
    .q_lk_idx           (q_lk_idx),
    .q_lk_size_log2     (q_lk_size_log2),
    .q_lk_esize_log2    (q_lk_esize_log2),
    .q_lk_tail          (q_lk_tail),
    .q_lk_full          (q_lk_full),
    .q_lk_head_valid    (q_lk_head_valid),
    .q_lk_head          (q_lk_head),
    .q_upd_tail_valid   (q_upd_tail_valid),
    .q_upd_idx          (q_upd_idx),
    .q_upd_tail         (q_upd_tail),
    .q_upd_full_valid   (q_upd_full_valid),
    .q_upd_head_valid   (q_upd_head_valid),
    .q_upd_head         (q_upd_head),
    .m_qresp_valid      (m_qresp_valid),
    .m_qresp_src        (m_qresp_src),
    .m_qresp_tag        (m_qresp_tag),
    .m_qresp_status     (m_qresp_status),
    .fetch_lookup_idx   (fetch_lookup_idx),
    .fetch_lookup_valid (fetch_lookup_valid),
    .fetch_lookup_node  (fetch_lookup_node),
    .fetch_lookup_laddr (fetch_lookup_laddr),
    .fetch_lookup_cpl   (fetch_lookup_cpl),
    .fetch_lookup_mask  (fetch_lookup_mask),
    .fetch_free_valid   (fetch_free_valid),
    .fetch_free_idx     (fetch_free_idx),
    .s_fto_valid        (s_fto_valid),
    .s_fto_ready        (s_fto_ready),
    .s_fto_idx          (s_fto_idx),
    .ev_refused         (ev_refused),
    .ev_stray           (ev_stray),
    .ev_rx_done         (ev_rx_done),
    .ev_req_accepted    (ev_req_accepted),
    .ev_req_refused     (ev_req_refused),
    .ev_enq_done        (ev_enq_done),
    .ev_atomic          (ev_atomic),
    .ev_prot_refused    (ev_prot_refused)
);

// a copy of every payload word written, to show a slot's words at once
tb_pay_shadow tb_pay_shadow_inst (
    .clk         (clk),
    .s_wr_en     (m_rsp_we),
    .s_wr_slot   (m_rsp_wr_slot),
    .s_wr_word   (m_rsp_wr_word),
    .s_wr_data   (m_rsp_wr_data),
    .s_show_src  (m_txd_pay_src),
    .s_show_slot (m_txd_pay_slot),
    .m_payload   (m_txd_payload)
);

endmodule

`default_nettype wire
