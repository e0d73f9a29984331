// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the host target's test: tg_host_if with the request buffer
// it writes and takes slots of (32 slots, two holds: the wire and the REQ
// sender). The bench stands for the request's path downstream: it releases
// the holds of a descriptor's slot when it chooses (the wire hold and the
// REQ hold on ports of their own), and it can show no slot free for a while
// (requests that need one must wait). The payload of the descriptor on
// offer is gathered into one vector from a copy of every word written, with
// a word written to its slot in this cycle already in place; a descriptor
// without a payload buffer (TG_PAY_NONE) shows zeros. The buffer's port
// activity and hold state are shown for the bench's checks.
`default_nettype none
`include "tg_hw_defs.vh"

module tb_host_if (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_mem_size,
    input  wire [31:0]  cfg_read_timeout,

    input  wire         s_host_req_valid,
    output wire         s_host_req_ready,
    input  wire         s_host_req_write,
    input  wire [46:0]  s_host_req_addr,
    input  wire [63:0]  s_host_req_wdata,
    input  wire [7:0]   s_host_req_wstrb,
    input  wire         s_host_req_last,

    output wire         m_host_resp_valid,
    input  wire         m_host_resp_ready,
    output wire [63:0]  m_host_resp_rdata,

    output wire [11:0]  csr_addr,
    input  wire [63:0]  csr_rdata,
    output wire         csr_wr_en,
    output wire [63:0]  csr_wdata,

    output wire         m_txd_valid,
    input  wire         m_txd_ready,
    output wire [7:0]   m_txd_op,
    output wire [15:0]  m_txd_dst,
    output wire [31:0]  m_txd_addr,
    output wire [5:0]   m_txd_off,
    output wire [6:0]   m_txd_cnt,
    output wire [7:0]   m_txd_len,
    output wire [7:0]   m_txd_ctx,
    output wire [15:0]  m_txd_tag,
    output wire [63:0]  m_txd_key,
    output wire [1:0]   m_txd_pay_src,
    output wire [4:0]   m_txd_pay_slot,
    output wire [511:0] m_txd_payload,   // the words of the slot on offer (zeros for TG_PAY_NONE)

    // the request buffer as the bench drives and sees it
    input  wire         tb_alloc_block,     // 1: no slot is shown free
    input  wire         tb_free_wire_valid, // release the wire hold of a slot
    input  wire [4:0]   tb_free_wire_slot,
    input  wire         tb_free_req_valid,  // release the REQ hold of a slot
    input  wire [4:0]   tb_free_req_slot,
    output wire         pay_alloc_valid,    // the free slot as the module sees it
    output wire [4:0]   pay_alloc_slot,
    output wire         m_pay_take_valid,
    output wire [4:0]   m_pay_take_slot,
    output wire [1:0]   m_pay_take_mask,
    output wire         m_pay_we,
    output wire [4:0]   m_pay_wr_slot,
    output wire [2:0]   m_pay_wr_word,
    output wire [63:0]  m_pay_wr_data,
    output wire [31:0]  st_busy,            // slots with a hold
    output wire [63:0]  st_held,            // hold h of slot s at [h*32+s]

    input  wire         s_hrd_valid,
    input  wire [15:0]  s_hrd_src,
    input  wire [15:0]  s_hrd_tag,
    input  wire [7:0]   s_hrd_status,
    input  wire [63:0]  s_hrd_data,

    input  wire         s_reqdone_valid,
    input  wire [3:0]   s_reqdone_ctx,
    input  wire [15:0]  s_reqdone_num,
    input  wire [7:0]   s_reqdone_status,

    input  wire [3:0]   fetch_lookup_idx,
    output wire         fetch_lookup_valid,
    output wire [15:0]  fetch_lookup_node,
    output wire [31:0]  fetch_lookup_laddr,
    output wire [31:0]  fetch_lookup_cpl,
    output wire [5:0]   fetch_lookup_off,
    output wire [6:0]   fetch_lookup_cnt,
    input  wire         fetch_free_valid,
    input  wire [3:0]   fetch_free_idx,
    output wire         m_fto_valid,
    input  wire         m_fto_ready,
    output wire [3:0]   m_fto_idx,

    output wire         ev_host_error,
    output wire         ev_host_req,
    output wire         ev_host_resp,
    output wire         ev_stray
);

localparam [1:0] HOLD_WIRE = `TG_PAY_HOLD_WIRE;
localparam [1:0] HOLD_REQ  = `TG_PAY_HOLD_REQ;

wire        alloc_valid;
wire [4:0]  alloc_slot;
/* verilator lint_off UNUSEDSIGNAL */ // (the payload is shown from the copy below)
wire [63:0] rd_data_unused;
/* verilator lint_on UNUSEDSIGNAL */

assign pay_alloc_valid = alloc_valid && !tb_alloc_block;
assign pay_alloc_slot  = alloc_slot;

tg_pay_buf #(
    .SLOTS_LOG2  (5),
    .BLOCK_BYTES (64),
    .HOLDERS     (2),
    .FREE_PORTS  (2)
) tg_req_pay_inst (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (alloc_valid),
    .m_alloc_slot  (alloc_slot),
    .s_take_valid  (m_pay_take_valid),
    .s_take_slot   (m_pay_take_slot),
    .s_take_mask   (m_pay_take_mask),
    .s_hold_valid  (1'b0),
    .s_hold_slot   (5'd0),
    .s_hold_mask   (2'd0),
    .s_free_valid  ({tb_free_req_valid, tb_free_wire_valid}),
    .s_free_slot   ({tb_free_req_slot, tb_free_wire_slot}),
    .s_free_mask   ({HOLD_REQ, HOLD_WIRE}),
    .s_pin_valid   (1'b0),
    .s_pin_slot    (5'd0),
    .s_wr_en       (m_pay_we),
    .s_wr_slot     (m_pay_wr_slot),
    .s_wr_word     (m_pay_wr_word),
    .s_wr_data     (m_pay_wr_data),
    .s_rd_slot     (5'd0),
    .s_rd_word     (3'd0),
    .m_rd_data     (rd_data_unused),
    .st_busy       (st_busy),
    .st_held       (st_held)
);

tg_host_if #(
    .NUM_CTX     (16),
    .MAX_READS   (8),
    .BLOCK_BYTES (64),
    .PAY_SLOT_W  (5)
) dut (
    .clk                (clk),
    .rst                (rst),
    .cfg_mem_size       (cfg_mem_size),
    .cfg_read_timeout   (cfg_read_timeout),
    .s_host_req_valid   (s_host_req_valid),
    .s_host_req_ready   (s_host_req_ready),
    .s_host_req_write   (s_host_req_write),
    .s_host_req_addr    (s_host_req_addr),
    .s_host_req_wdata   (s_host_req_wdata),
    .s_host_req_wstrb   (s_host_req_wstrb),
    .s_host_req_last    (s_host_req_last),
    .m_host_resp_valid  (m_host_resp_valid),
    .m_host_resp_ready  (m_host_resp_ready),
    .m_host_resp_rdata  (m_host_resp_rdata),
    .csr_addr           (csr_addr),
    .csr_rdata          (csr_rdata),
    .csr_wr_en          (csr_wr_en),
    .csr_wdata          (csr_wdata),
    .m_txd_valid        (m_txd_valid),
    .m_txd_ready        (m_txd_ready),
    .m_txd_op           (m_txd_op),
    .m_txd_dst          (m_txd_dst),
    .m_txd_addr         (m_txd_addr),
    .m_txd_off (m_txd_off),
    .m_txd_cnt (m_txd_cnt),
    .m_txd_len          (m_txd_len),
    .m_txd_ctx          (m_txd_ctx),
    .m_txd_tag          (m_txd_tag),
    .m_txd_key          (m_txd_key),
    .m_txd_pay_src      (m_txd_pay_src),
    .m_txd_pay_slot     (m_txd_pay_slot),
    .s_pay_alloc_valid  (pay_alloc_valid),
    .s_pay_alloc_slot   (pay_alloc_slot),
    .m_pay_take_valid   (m_pay_take_valid),
    .m_pay_take_slot    (m_pay_take_slot),
    .m_pay_take_mask    (m_pay_take_mask),
    .m_pay_we           (m_pay_we),
    .m_pay_wr_slot      (m_pay_wr_slot),
    .m_pay_wr_word      (m_pay_wr_word),
    .m_pay_wr_data      (m_pay_wr_data),
    .s_hrd_valid        (s_hrd_valid),
    .s_hrd_src          (s_hrd_src),
    .s_hrd_tag          (s_hrd_tag),
    .s_hrd_status       (s_hrd_status),
    .s_hrd_data         (s_hrd_data),
    .s_reqdone_valid    (s_reqdone_valid),
    .s_reqdone_ctx      (s_reqdone_ctx),
    .s_reqdone_num      (s_reqdone_num),
    .s_reqdone_status   (s_reqdone_status),
    .fetch_lookup_idx   (fetch_lookup_idx),
    .fetch_lookup_valid (fetch_lookup_valid),
    .fetch_lookup_node  (fetch_lookup_node),
    .fetch_lookup_laddr (fetch_lookup_laddr),
    .fetch_lookup_cpl   (fetch_lookup_cpl),
    .fetch_lookup_off (fetch_lookup_off),
    .fetch_lookup_cnt (fetch_lookup_cnt),
    .fetch_free_valid   (fetch_free_valid),
    .fetch_free_idx     (fetch_free_idx),
    .m_fto_valid        (m_fto_valid),
    .m_fto_ready        (m_fto_ready),
    .m_fto_idx          (m_fto_idx),
    .ev_host_error      (ev_host_error),
    .ev_host_req        (ev_host_req),
    .ev_host_resp       (ev_host_resp),
    .ev_stray           (ev_stray)
);

// a copy of every payload word written, to show a slot's words at once
tb_pay_shadow tb_pay_shadow_inst (
    .clk         (clk),
    .s_wr_en     (m_pay_we),
    .s_wr_slot   (m_pay_wr_slot),
    .s_wr_word   (m_pay_wr_word),
    .s_wr_data   (m_pay_wr_data),
    .s_show_src  (m_txd_pay_src),
    .s_show_slot (m_txd_pay_slot),
    .m_payload   (m_txd_payload)
);

endmodule

`default_nettype wire
