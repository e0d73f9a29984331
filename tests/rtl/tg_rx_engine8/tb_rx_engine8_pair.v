// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the byte-serial receive engine: the 64-bit receive path
// (tg_eth_rx, tg_rx_engine, tg_eth_tx, as tg_nic joins them without the
// link layer) beside the byte-serial one (tg_eth_rx8, tg_rx_engine8,
// tg_eth_tx8), each with its own queue table, region table, fetch table
// and host memory, given the same frames, register writes and fetches.
// ONE_ENTRY is the byte-serial engine's: built with 1, it reads the
// tables' answers straight, as the one-entry tables of the iCE40 node let
// it, while the bench's tables keep several entries.
`default_nettype none

module tb_rx_engine8_pair #(
    parameter BLOCK_BYTES  = 16,
    parameter BLK_SRC_BITS = 2,
    parameter NUM_QUEUES   = 2,
    parameter NUM_REGIONS  = 2,
    parameter ONE_ENTRY    = 0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] cfg_node_id,
    input  wire [31:0] cfg_mem_size,

    // register writes and reads of the queue and region tables (both sides)
    input  wire [11:0] csr_addr,
    input  wire        csr_wr_en,
    input  wire [63:0] csr_wdata,
    output wire [63:0] ref_csr_rdata,
    output wire [63:0] dut_csr_rdata,
    output wire        ref_irq,
    output wire        dut_irq,

    // frames in
    input  wire [63:0] ref_rx_tdata,
    input  wire [7:0]  ref_rx_tkeep,
    input  wire        ref_rx_tvalid,
    output wire        ref_rx_tready,
    input  wire        ref_rx_tlast,
    input  wire [7:0]  dut_rx_tdata,
    input  wire        dut_rx_tvalid,
    input  wire        dut_rx_tlast,

    // frames out
    output wire [63:0] ref_tx_tdata,
    output wire [7:0]  ref_tx_tkeep,
    output wire        ref_tx_tvalid,
    input  wire        ref_tx_tready,
    output wire        ref_tx_tlast,
    output wire [7:0]  dut_tx_tdata,
    output wire        dut_tx_tvalid,
    input  wire        dut_tx_tready,
    output wire        dut_tx_tlast,

    // host memory of each side
    output wire        ref_mem_req_valid,
    input  wire        ref_mem_req_ready,
    output wire        ref_mem_req_write,
    output wire [31:0] ref_mem_req_addr,
    output wire [63:0] ref_mem_req_wdata,
    output wire [7:0]  ref_mem_req_wstrb,
    input  wire        ref_mem_resp_valid,
    input  wire [63:0] ref_mem_resp_rdata,
    output wire        dut_mem_req_valid,
    input  wire        dut_mem_req_ready,
    output wire        dut_mem_req_write,
    output wire [31:0] dut_mem_req_addr,
    output wire [63:0] dut_mem_req_wdata,
    output wire [7:0]  dut_mem_req_wstrb,
    input  wire        dut_mem_resp_valid,
    input  wire [63:0] dut_mem_resp_rdata,

    // fetch table: an entry set in both copies; each side frees its own
    input  wire        ft_set,
    input  wire [3:0]  ft_idx,
    input  wire [15:0] ft_node,
    input  wire [31:0] ft_laddr,
    input  wire [31:0] ft_cpl,
    input  wire [63:0] ft_mask,
    output reg  [15:0] ref_ft_valid,
    output reg  [15:0] dut_ft_valid,
    input  wire        ref_fto_valid,
    input  wire        dut_fto_valid,
    input  wire [3:0]  fto_idx,
    output wire        ref_fto_ready,
    output wire        dut_fto_ready,

    // answers to blocking reads
    output wire        ref_hrd_valid,
    output wire [15:0] ref_hrd_src,
    output wire [15:0] ref_hrd_tag,
    output wire [7:0]  ref_hrd_status,
    output wire [63:0] ref_hrd_data,
    output wire        dut_hrd_valid,
    output wire [15:0] dut_hrd_src,
    output wire [15:0] dut_hrd_tag,
    output wire [7:0]  dut_hrd_status,
    output wire [63:0] dut_hrd_data,

    // answers to REQs
    output wire        ref_qresp_valid,
    output wire [15:0] ref_qresp_src,
    output wire [15:0] ref_qresp_tag,
    output wire [7:0]  ref_qresp_status,
    output wire        dut_qresp_valid,
    output wire [15:0] dut_qresp_src,
    output wire [15:0] dut_qresp_tag,
    output wire [7:0]  dut_qresp_status,

    // engine events: refused, stray, rx_done, req_accepted, req_refused,
    // enq_done, atomic, prot_refused (bit 0 first)
    output wire [7:0]  ref_ev,
    output wire [7:0]  dut_ev,
    // verdicts: accepted, FCS, type, malformed (and busy for the byte side)
    output wire [3:0]  ref_rx_ev,
    output wire [4:0]  dut_rx_ev,
    output wire        ref_idle,
    output wire        dut_idle,
    output wire        ref_busy,          // the engine is not in its idle state
    output wire        dut_busy,
    output wire        dut_frm_taken      // tg_rx_engine8 freed a receive slot
);

localparam [63:0]  MSK_MASK = {64{1'b1}} >> (64 - BLOCK_BYTES);

// ---------------------------------------------------------------- fetch tables
reg [15:0] ft_node_mem  [0:15];
reg [31:0] ft_laddr_mem [0:15];
reg [31:0] ft_cpl_mem   [0:15];
reg [63:0] ft_mask_mem  [0:15];
wire       ref_ft_free, dut_ft_free;
wire [3:0] ref_ft_free_idx, dut_ft_free_idx, ref_ft_idx, dut_ft_idx;
always @(posedge clk) begin
    if (ref_ft_free) ref_ft_valid[ref_ft_free_idx] <= 1'b0;
    if (dut_ft_free) dut_ft_valid[dut_ft_free_idx] <= 1'b0;
    if (ft_set) begin
        ft_node_mem[ft_idx]  <= ft_node;
        ft_laddr_mem[ft_idx] <= ft_laddr;
        ft_cpl_mem[ft_idx]   <= ft_cpl;
        ft_mask_mem[ft_idx]  <= ft_mask;
        ref_ft_valid[ft_idx] <= 1'b1;
        dut_ft_valid[ft_idx] <= 1'b1;
    end
    if (rst) begin
        ref_ft_valid <= 16'd0;
        dut_ft_valid <= 16'd0;
    end
end

// ---------------------------------------------------------------- reference
wire         erx_valid, erx_ready;
wire [7:0]   erx_op, erx_flags, erx_status, erx_len, erx_ctx;
wire [15:0]  erx_src, erx_tag;
wire [31:0]  erx_addr;
wire         erx_addr_hi;
wire [63:0]  erx_mask, erx_key;
wire [1:0]   erx_slot, erx_slot_next;
wire         pay_alloc_valid, pay_we;
wire [1:0]   pay_alloc_slot, pay_wr_slot, pay_rd_slot;
wire [2:0]   pay_wr_word, pay_rd_word;
wire [63:0]  pay_wr_data, pay_rd_data;
/* verilator lint_off UNUSEDSIGNAL */
wire [3:0]   pay_busy;
wire [31:0]  erx_seq, erx_ack;
wire         ref_ev_data_frame, ref_ev_tx_start, ref_ev_tx_data_start, ref_ev_tx_frame;
/* verilator lint_on UNUSEDSIGNAL */

tg_eth_rx #(
    .BLOCK_BYTES (BLOCK_BYTES),
    .SLOT_W      (2)
) ref_rx (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id),
    .s_slot_valid (pay_alloc_valid), .s_slot_idx (pay_alloc_slot), .m_pay_we (pay_we),
    .m_pay_slot (pay_wr_slot), .m_pay_word (pay_wr_word), .m_pay_wdata (pay_wr_data),
    .s_axis_rx_tdata (ref_rx_tdata), .s_axis_rx_tkeep (ref_rx_tkeep), .s_axis_rx_tvalid (ref_rx_tvalid),
    .s_axis_rx_tready (ref_rx_tready), .s_axis_rx_tlast (ref_rx_tlast),
    .m_rxd_valid (erx_valid), .m_rxd_ready (erx_ready), .m_rxd_op (erx_op), .m_rxd_flags (erx_flags),
    .m_rxd_status (erx_status), .m_rxd_src (erx_src), .m_rxd_addr (erx_addr), .m_rxd_addr_hi (erx_addr_hi),
    .m_rxd_mask (erx_mask), .m_rxd_len (erx_len), .m_rxd_ctx (erx_ctx), .m_rxd_tag (erx_tag),
    .m_rxd_key (erx_key), .m_rxd_slot (erx_slot), .m_rxd_slot_next (erx_slot_next), .m_rxd_seq (erx_seq), .m_rxd_ack (erx_ack),
    .ev_rx_frame (ref_rx_ev[0]), .ev_rx_data_frame (ref_ev_data_frame), .ev_drop_fcs (ref_rx_ev[1]),
    .ev_drop_type (ref_rx_ev[2]), .ev_drop_malformed (ref_rx_ev[3])
);

// without the link layer, ACK and NAK are taken and ignored (as in tg_nic)
wire erx_is_link = (erx_op == `TG_OP_ACK) || (erx_op == `TG_OP_NAK);
wire rxd_valid = erx_valid && !erx_is_link;
wire rxd_ready;
assign erx_ready = erx_is_link || rxd_ready;

// the received payloads, as tg_nic keeps them
/* verilator lint_off UNUSEDSIGNAL */
wire [3:0]  ref_pay_held;
wire [31:0] ref_rsp_busy, ref_rsp_held;
/* verilator lint_on UNUSEDSIGNAL */
tg_pay_buf #(
    .SLOTS_LOG2 (2),
    .BLOCK_BYTES (BLOCK_BYTES),
    .HOLDERS    (1)
) ref_pay (
    .clk (clk), .rst (rst),
    .m_alloc_valid (pay_alloc_valid), .m_alloc_slot (pay_alloc_slot),
    .s_take_valid (ref_rx_ev[0]), .s_take_slot (erx_slot), .s_take_mask (1'b1),
    .s_hold_valid (1'b0), .s_hold_slot (2'd0), .s_hold_mask (1'b0),
    .s_free0_valid (rxd_valid && rxd_ready), .s_free0_slot (erx_slot), .s_free0_mask (1'b1),
    .s_free1_valid (erx_valid && erx_ready && erx_is_link), .s_free1_slot (erx_slot), .s_free1_mask (1'b1),
    .s_free2_valid (1'b0), .s_free2_slot (2'd0), .s_free2_mask (1'b0),
    .s_free3_valid (1'b0), .s_free3_slot (2'd0), .s_free3_mask (1'b0),
    .s_pin_valid (1'b0), .s_pin_slot (2'd0),
    .s_wr_en (pay_we), .s_wr_slot (pay_wr_slot), .s_wr_word (pay_wr_word), .s_wr_data (pay_wr_data),
    .s_rd_slot (pay_rd_slot), .s_rd_word (pay_rd_word), .m_rd_data (pay_rd_data),
    .st_busy (pay_busy), .st_held (ref_pay_held)
);

// the responses' payloads, as tg_nic keeps them (the transmitter reads
// the slot it sends from and releases it after the frame)
wire         rsp_alloc_valid, rsp_take_valid, rsp_we;
wire [4:0]   rsp_alloc_slot, rsp_wr_slot;
wire [2:0]   rsp_wr_word;
wire [63:0]  rsp_wr_data, rsp_rd_data;
wire         rtx_pin, rtx_rel;
/* verilator lint_off UNUSEDSIGNAL */
wire [1:0]   rtx_src;
/* verilator lint_on UNUSEDSIGNAL */
wire [4:0]   rtx_rd_slot;
wire [2:0]   rtx_rd_word;
tg_pay_buf #(
    .SLOTS_LOG2 (5),
    .BLOCK_BYTES (BLOCK_BYTES),
    .HOLDERS    (1)
) ref_rsp (
    .clk (clk), .rst (rst),
    .m_alloc_valid (rsp_alloc_valid), .m_alloc_slot (rsp_alloc_slot),
    .s_take_valid (rsp_take_valid), .s_take_slot (rsp_wr_slot), .s_take_mask (1'b1),
    .s_hold_valid (1'b0), .s_hold_slot (5'd0), .s_hold_mask (1'b0),
    .s_free0_valid (rtx_rel), .s_free0_slot (rtx_rd_slot), .s_free0_mask (1'b1),
    .s_free1_valid (1'b0), .s_free1_slot (5'd0), .s_free1_mask (1'b0),
    .s_free2_valid (1'b0), .s_free2_slot (5'd0), .s_free2_mask (1'b0),
    .s_free3_valid (1'b0), .s_free3_slot (5'd0), .s_free3_mask (1'b0),
    .s_pin_valid (rtx_pin), .s_pin_slot (rtx_rd_slot),
    .s_wr_en (rsp_we), .s_wr_slot (rsp_wr_slot), .s_wr_word (rsp_wr_word), .s_wr_data (rsp_wr_data),
    .s_rd_slot (rtx_rd_slot), .s_rd_word (rtx_rd_word), .m_rd_data (rsp_rd_data),
    .st_busy (ref_rsp_busy), .st_held (ref_rsp_held)
);

wire         rsp_valid, rsp_ready;
wire [7:0]   rsp_op, rsp_flags, rsp_status, rsp_len, rsp_ctx;
wire [15:0]  rsp_dst, rsp_tag;
wire [31:0]  rsp_addr;
wire [63:0]  rsp_mask;
wire [1:0]   rsp_pay_src;
wire [4:0]   rsp_pay_slot;

wire [63:0]  ref_prot_key;
wire         ref_prot_hit, ref_prot_en, ref_q_hit, ref_p_hit;
wire [31:0]  ref_prot_base;
wire [32:0]  ref_prot_end;
wire [3:0]   ref_prot_rights;
wire [63:0]  ref_q_rdata, ref_p_rdata;
wire [31:0]  ref_lk_base;
wire         ref_lk_hit, ref_lk_full, ref_lk_hv, ref_upd_tail, ref_upd_full, ref_upd_head;
wire [3:0]   ref_lk_idx, ref_upd_idx;
wire [4:0]   ref_lk_sl;
wire [2:0]   ref_lk_esl;
wire [23:0]  ref_lk_tail, ref_lk_head, ref_upd_tail_v, ref_upd_head_v;
wire         ref_eng_idle;

tg_rx_engine #(
    .BLK_SRC_BITS (BLK_SRC_BITS),
    .BLOCK_BYTES  (BLOCK_BYTES),
    .SLOT_W       (2)
) ref_eng (
    .clk (clk), .rst (rst), .cfg_mem_size (cfg_mem_size),
    .s_rxd_valid (rxd_valid), .s_rxd_ready (rxd_ready), .s_rxd_op (erx_op), .s_rxd_flags (erx_flags),
    .s_rxd_status (erx_status), .s_rxd_src (erx_src), .s_rxd_addr (erx_addr), .s_rxd_addr_hi (erx_addr_hi),
    .s_rxd_mask (erx_mask & MSK_MASK), .s_rxd_len (erx_len), .s_rxd_ctx (erx_ctx), .s_rxd_tag (erx_tag),
    .s_rxd_key (erx_key), .s_rxd_slot_next (erx_slot_next),
    .m_pay_rd_slot (pay_rd_slot), .m_pay_rd_word (pay_rd_word), .s_pay_rd_data (pay_rd_data),
    .cfg_prot_enable (ref_prot_en), .prot_key (ref_prot_key), .prot_hit (ref_prot_hit),
    .prot_base (ref_prot_base), .prot_end (ref_prot_end), .prot_rights (ref_prot_rights), .st_idle (ref_eng_idle),
    .m_mem_req_valid (ref_mem_req_valid), .m_mem_req_ready (ref_mem_req_ready), .m_mem_req_write (ref_mem_req_write),
    .m_mem_req_addr (ref_mem_req_addr), .m_mem_req_wdata (ref_mem_req_wdata), .m_mem_req_wstrb (ref_mem_req_wstrb),
    .s_mem_resp_valid (ref_mem_resp_valid), .s_mem_resp_rdata (ref_mem_resp_rdata),
    .m_txd_valid (rsp_valid), .m_txd_ready (rsp_ready), .m_txd_op (rsp_op), .m_txd_flags (rsp_flags),
    .m_txd_status (rsp_status), .m_txd_dst (rsp_dst), .m_txd_addr (rsp_addr), .m_txd_mask (rsp_mask),
    .m_txd_len (rsp_len), .m_txd_ctx (rsp_ctx), .m_txd_tag (rsp_tag),
    .m_txd_pay_src (rsp_pay_src), .m_txd_pay_slot (rsp_pay_slot),
    .s_rsp_alloc_valid (rsp_alloc_valid), .s_rsp_alloc_slot (rsp_alloc_slot), .m_rsp_take_valid (rsp_take_valid),
    .m_rsp_we (rsp_we), .m_rsp_wr_slot (rsp_wr_slot), .m_rsp_wr_word (rsp_wr_word), .m_rsp_wr_data (rsp_wr_data),
    .m_hrd_valid (ref_hrd_valid), .m_hrd_src (ref_hrd_src), .m_hrd_tag (ref_hrd_tag),
    .m_hrd_status (ref_hrd_status), .m_hrd_data (ref_hrd_data),
    .q_lk_base (ref_lk_base), .q_lk_hit (ref_lk_hit), .q_lk_idx (ref_lk_idx), .q_lk_size_log2 (ref_lk_sl),
    .q_lk_esize_log2 (ref_lk_esl), .q_lk_tail (ref_lk_tail), .q_lk_full (ref_lk_full),
    .q_lk_head_valid (ref_lk_hv), .q_lk_head (ref_lk_head),
    .q_upd_tail_valid (ref_upd_tail), .q_upd_idx (ref_upd_idx), .q_upd_tail (ref_upd_tail_v),
    .q_upd_full_valid (ref_upd_full), .q_upd_head_valid (ref_upd_head), .q_upd_head (ref_upd_head_v),
    .m_qresp_valid (ref_qresp_valid), .m_qresp_src (ref_qresp_src), .m_qresp_tag (ref_qresp_tag),
    .m_qresp_status (ref_qresp_status),
    .fetch_lookup_idx (ref_ft_idx), .fetch_lookup_valid (ref_ft_valid[ref_ft_idx]),
    .fetch_lookup_node (ft_node_mem[ref_ft_idx]), .fetch_lookup_laddr (ft_laddr_mem[ref_ft_idx]),
    .fetch_lookup_cpl (ft_cpl_mem[ref_ft_idx]), .fetch_lookup_mask (ft_mask_mem[ref_ft_idx] & MSK_MASK),
    .fetch_free_valid (ref_ft_free), .fetch_free_idx (ref_ft_free_idx),
    .s_fto_valid (ref_fto_valid), .s_fto_ready (ref_fto_ready), .s_fto_idx (fto_idx),
    .ev_refused (ref_ev[0]), .ev_stray (ref_ev[1]), .ev_rx_done (ref_ev[2]), .ev_req_accepted (ref_ev[3]),
    .ev_req_refused (ref_ev[4]), .ev_enq_done (ref_ev[5]), .ev_atomic (ref_ev[6]), .ev_prot_refused (ref_ev[7])
);
assign ref_idle = ref_eng_idle && !erx_valid;
assign ref_busy = !ref_eng_idle;

tg_eth_tx ref_tx (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id),
    .s_txd_valid (rsp_valid), .s_txd_ready (rsp_ready), .s_txd_op (rsp_op), .s_txd_flags (rsp_flags),
    .s_txd_status (rsp_status), .s_txd_dst (rsp_dst), .s_txd_addr (rsp_addr), .s_txd_mask (rsp_mask & MSK_MASK),
    .s_txd_len (rsp_len), .s_txd_ctx (rsp_ctx), .s_txd_tag (rsp_tag), .s_txd_key (64'd0),
    .s_txd_pay_src (rsp_pay_src), .s_txd_pay_slot (rsp_pay_slot), .s_txd_pay_rel (1'b1),
    .s_txd_seq (32'd0), .s_txd_ack (32'd0),
    .m_pay_rd_valid (), .m_pay_src (rtx_src), .m_pay_rd_slot (rtx_rd_slot), .m_pay_rd_word (rtx_rd_word),
    .s_pay_rd_data (rsp_rd_data), .m_pay_pin_valid (rtx_pin), .m_pay_rel_valid (rtx_rel),
    .m_axis_tx_tdata (ref_tx_tdata), .m_axis_tx_tkeep (ref_tx_tkeep), .m_axis_tx_tvalid (ref_tx_tvalid),
    .m_axis_tx_tready (ref_tx_tready), .m_axis_tx_tlast (ref_tx_tlast),
    .ev_tx_start (ref_ev_tx_start), .ev_tx_data_start (ref_ev_tx_data_start), .ev_tx_frame (ref_ev_tx_frame)
);

tg_qtable #(.NUM_QUEUES (NUM_QUEUES)) ref_qt (
    .clk (clk), .rst (rst), .csr_addr (csr_addr), .csr_wr_en (csr_wr_en), .csr_wdata (csr_wdata),
    .csr_rdata (ref_q_rdata), .csr_hit (ref_q_hit),
    .lk_base (ref_lk_base), .lk_hit (ref_lk_hit), .lk_idx (ref_lk_idx), .lk_size_log2 (ref_lk_sl),
    .lk_esize_log2 (ref_lk_esl), .lk_tail (ref_lk_tail), .lk_full (ref_lk_full),
    .lk_head_valid (ref_lk_hv), .lk_head (ref_lk_head),
    .upd_tail_valid (ref_upd_tail), .upd_idx (ref_upd_idx), .upd_tail (ref_upd_tail_v),
    .upd_full_valid (ref_upd_full), .upd_head_valid (ref_upd_head), .upd_head (ref_upd_head_v),
    .irq (ref_irq)
);

tg_prot #(.NUM_REGIONS (NUM_REGIONS)) ref_pt (
    .clk (clk), .rst (rst), .csr_addr (csr_addr), .csr_wr_en (csr_wr_en), .csr_wdata (csr_wdata),
    .csr_rdata (ref_p_rdata), .csr_hit (ref_p_hit), .cfg_enable (ref_prot_en),
    .lk_key (ref_prot_key), .lk_hit (ref_prot_hit), .lk_base (ref_prot_base), .lk_end (ref_prot_end),
    .lk_rights (ref_prot_rights), .in_rx_idle (ref_eng_idle)
);
assign ref_csr_rdata = ref_q_hit ? ref_q_rdata : ref_p_hit ? ref_p_rdata : 64'd0;

// ---------------------------------------------------------------- byte-serial
wire        frm_valid, frm_ready;
wire [1:0]  frm_slot;
wire [8:0]  frm_rd_addr;
wire [7:0]  frm_rd_data;
/* verilator lint_off UNUSEDSIGNAL */
wire        dut_ev_data_frame, dut_ev_tx_start, dut_ev_tx_frame;
/* verilator lint_on UNUSEDSIGNAL */

tg_eth_rx8 dut_rx (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id),
    .s_rx_tdata (dut_rx_tdata), .s_rx_tvalid (dut_rx_tvalid), .s_rx_tlast (dut_rx_tlast), .s_rx_tuser (1'b0),
    .m_frm_valid (frm_valid), .m_frm_ready (frm_ready), .m_frm_slot (frm_slot),
    .frm_rd_addr (frm_rd_addr), .frm_rd_data (frm_rd_data),
    .ev_rx_frame (dut_rx_ev[0]), .ev_rx_data_frame (dut_ev_data_frame), .ev_drop_fcs (dut_rx_ev[1]),
    .ev_drop_type (dut_rx_ev[2]), .ev_drop_malformed (dut_rx_ev[3]), .ev_drop_busy (dut_rx_ev[4])
);
assign dut_frm_taken = frm_valid && frm_ready;

wire        wr_en, tfrm_valid, tfrm_ready;
wire [6:0]  wr_off;
wire [7:0]  wr_data;
wire [3:0]  tfrm_words;

wire [63:0] dut_prot_key;
wire        dut_prot_hit, dut_prot_en, dut_q_hit, dut_p_hit;
wire [31:0] dut_prot_base;
wire [32:0] dut_prot_end;
wire [3:0]  dut_prot_rights;
wire [63:0] dut_q_rdata, dut_p_rdata;
wire [31:0] dut_lk_base;
wire        dut_lk_hit, dut_lk_full, dut_lk_hv, dut_upd_tail, dut_upd_full, dut_upd_head;
wire [3:0]  dut_lk_idx, dut_upd_idx;
wire [4:0]  dut_lk_sl;
wire [2:0]  dut_lk_esl;
wire [23:0] dut_lk_tail, dut_lk_head, dut_upd_tail_v, dut_upd_head_v;
wire        dut_eng_idle;

tg_rx_engine8 #(
    .BLK_SRC_BITS (BLK_SRC_BITS),
    .BLOCK_BYTES  (BLOCK_BYTES),
    .ONE_ENTRY    (ONE_ENTRY)
) dut_eng (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id), .cfg_mem_size (cfg_mem_size),
    .s_frm_valid (frm_valid), .s_frm_ready (frm_ready), .s_frm_slot (frm_slot),
    .m_frm_rd_addr (frm_rd_addr), .s_frm_rd_data (frm_rd_data),
    .m_wr_en (wr_en), .m_wr_off (wr_off), .m_wr_data (wr_data),
    .m_tfrm_valid (tfrm_valid), .m_tfrm_ready (tfrm_ready), .m_tfrm_words (tfrm_words),
    .cfg_prot_enable (dut_prot_en), .prot_key (dut_prot_key), .prot_hit (dut_prot_hit),
    .prot_base (dut_prot_base), .prot_end (dut_prot_end), .prot_rights (dut_prot_rights), .st_idle (dut_eng_idle),
    .m_mem_req_valid (dut_mem_req_valid), .m_mem_req_ready (dut_mem_req_ready), .m_mem_req_write (dut_mem_req_write),
    .m_mem_req_addr (dut_mem_req_addr), .m_mem_req_wdata (dut_mem_req_wdata), .m_mem_req_wstrb (dut_mem_req_wstrb),
    .s_mem_resp_valid (dut_mem_resp_valid), .s_mem_resp_rdata (dut_mem_resp_rdata),
    .m_hrd_valid (dut_hrd_valid), .m_hrd_src (dut_hrd_src), .m_hrd_tag (dut_hrd_tag),
    .m_hrd_status (dut_hrd_status), .m_hrd_data (dut_hrd_data),
    .q_lk_base (dut_lk_base), .q_lk_hit (dut_lk_hit), .q_lk_idx (dut_lk_idx), .q_lk_size_log2 (dut_lk_sl),
    .q_lk_esize_log2 (dut_lk_esl), .q_lk_tail (dut_lk_tail), .q_lk_full (dut_lk_full),
    .q_lk_head_valid (dut_lk_hv), .q_lk_head (dut_lk_head),
    .q_upd_tail_valid (dut_upd_tail), .q_upd_idx (dut_upd_idx), .q_upd_tail (dut_upd_tail_v),
    .q_upd_full_valid (dut_upd_full), .q_upd_head_valid (dut_upd_head), .q_upd_head (dut_upd_head_v),
    .m_qresp_valid (dut_qresp_valid), .m_qresp_src (dut_qresp_src), .m_qresp_tag (dut_qresp_tag),
    .m_qresp_status (dut_qresp_status),
    .fetch_lookup_idx (dut_ft_idx), .fetch_lookup_valid (dut_ft_valid[dut_ft_idx]),
    .fetch_lookup_node (ft_node_mem[dut_ft_idx]), .fetch_lookup_laddr (ft_laddr_mem[dut_ft_idx]),
    .fetch_lookup_cpl (ft_cpl_mem[dut_ft_idx]), .fetch_lookup_mask (ft_mask_mem[dut_ft_idx] & MSK_MASK),
    .fetch_free_valid (dut_ft_free), .fetch_free_idx (dut_ft_free_idx),
    .s_fto_valid (dut_fto_valid), .s_fto_ready (dut_fto_ready), .s_fto_idx (fto_idx),
    .ev_refused (dut_ev[0]), .ev_stray (dut_ev[1]), .ev_rx_done (dut_ev[2]), .ev_req_accepted (dut_ev[3]),
    .ev_req_refused (dut_ev[4]), .ev_enq_done (dut_ev[5]), .ev_atomic (dut_ev[6]), .ev_prot_refused (dut_ev[7])
);
assign dut_idle = dut_eng_idle && !frm_valid;
assign dut_busy = !dut_eng_idle;

tg_eth_tx8 dut_tx (
    .clk (clk), .rst (rst), .cfg_node_id (cfg_node_id),
    .s_wr_en (wr_en), .s_wr_off (wr_off), .s_wr_data (wr_data),
    .s_frm_valid (tfrm_valid), .s_frm_ready (tfrm_ready), .s_frm_words (tfrm_words),
    .m_tx_tdata (dut_tx_tdata), .m_tx_tvalid (dut_tx_tvalid), .m_tx_tready (dut_tx_tready),
    .m_tx_tlast (dut_tx_tlast), .ev_tx_start (dut_ev_tx_start), .ev_tx_frame (dut_ev_tx_frame)
);

tg_qtable #(.NUM_QUEUES (NUM_QUEUES)) dut_qt (
    .clk (clk), .rst (rst), .csr_addr (csr_addr), .csr_wr_en (csr_wr_en), .csr_wdata (csr_wdata),
    .csr_rdata (dut_q_rdata), .csr_hit (dut_q_hit),
    .lk_base (dut_lk_base), .lk_hit (dut_lk_hit), .lk_idx (dut_lk_idx), .lk_size_log2 (dut_lk_sl),
    .lk_esize_log2 (dut_lk_esl), .lk_tail (dut_lk_tail), .lk_full (dut_lk_full),
    .lk_head_valid (dut_lk_hv), .lk_head (dut_lk_head),
    .upd_tail_valid (dut_upd_tail), .upd_idx (dut_upd_idx), .upd_tail (dut_upd_tail_v),
    .upd_full_valid (dut_upd_full), .upd_head_valid (dut_upd_head), .upd_head (dut_upd_head_v),
    .irq (dut_irq)
);

tg_prot #(.NUM_REGIONS (NUM_REGIONS)) dut_pt (
    .clk (clk), .rst (rst), .csr_addr (csr_addr), .csr_wr_en (csr_wr_en), .csr_wdata (csr_wdata),
    .csr_rdata (dut_p_rdata), .csr_hit (dut_p_hit), .cfg_enable (dut_prot_en),
    .lk_key (dut_prot_key), .lk_hit (dut_prot_hit), .lk_base (dut_prot_base), .lk_end (dut_prot_end),
    .lk_rights (dut_prot_rights), .in_rx_idle (dut_eng_idle)
);
assign dut_csr_rdata = dut_q_hit ? dut_q_rdata : dut_p_hit ? dut_p_rdata : 64'd0;

endmodule

`default_nettype wire
