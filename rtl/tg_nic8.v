// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Telegraphos NIC core for small FPGAs: tg_nic's host port (its host
// target built for the byte clock, tg_host_if8) and memory master, with a
// byte-serial network side. Frames come in and go out a byte a cycle (a
// GMII MAC's stream); received frames wait in block-RAM slots, where the
// byte-serial receive engine executes them and builds their responses in
// the transmitter's slots; the host port's requests are written into
// those slots a byte at a time too. Built without the REQ spill ring and
// the link layer.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_nic8 #(
    parameter NUM_CTX      = 1,   // process contexts (1..16)
    parameter MAX_READS    = 1,   // non-blocking fetches in flight (0..16; 0: none, FETCH_GO and ATOMIC_GO refused)
    parameter CNT_W        = 16,  // width of the event counters (16..64)
    parameter NUM_QUEUES   = 1,   // receive queues in the queue table (1..16)
    parameter MAX_REQS     = 1,   // REQs awaiting their target's answer (1..16)
    parameter NUM_REGIONS  = 1,   // exported regions in the region table (0..32; 0: no protection)
    parameter BLOCK_BYTES  = 16,  // largest frame payload: 16, 32 or 64 bytes
    parameter BLK_SRC_BITS = 8    // low source-node bits that select a block-table row (1..8)
) (
    input  wire        clk,
    input  wire        rst,

    // configuration straps
    input  wire [15:0] cfg_node_id,

    // host target (MMIO)
    input  wire        s_host_req_valid,
    output wire        s_host_req_ready,
    input  wire        s_host_req_write,
    input  wire [46:0] s_host_req_addr,
    input  wire [63:0] s_host_req_wdata,
    input  wire [7:0]  s_host_req_wstrb,
    input  wire        s_host_req_last,
    output wire        m_host_resp_valid,
    input  wire        m_host_resp_ready,
    output wire [63:0] m_host_resp_rdata,

    // memory master (host memory)
    output wire        m_mem_req_valid,
    input  wire        m_mem_req_ready,
    output wire        m_mem_req_write,
    output wire [31:0] m_mem_req_addr,
    output wire [63:0] m_mem_req_wdata,
    output wire [7:0]  m_mem_req_wstrb,
    input  wire        s_mem_resp_valid,
    input  wire [63:0] s_mem_resp_rdata,

    // network port: whole Ethernet frames with FCS, a byte a cycle
    input  wire [7:0]  s_rx_tdata,      // never stalled
    input  wire        s_rx_tvalid,
    input  wire        s_rx_tlast,
    input  wire        s_rx_tuser,      // the byte was received in error
    output wire [7:0]  m_tx_tdata,      // a byte every cycle inside a frame
    output wire        m_tx_tvalid,
    input  wire        m_tx_tready,
    output wire        m_tx_tlast,

    // interrupt: queue overflow or armed notification (IRQ_STATUS & IRQ_MASK)
    output wire        irq,
    // a received frame dropped because every slot was held
    output wire        ev_drop_busy
);

initial begin
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
end

// ---------------------------------------------------------------- events
wire ev_tx_start, ev_tx_frame, ev_rx_frame, ev_rx_data_frame;
wire ev_drop_fcs, ev_drop_type, ev_drop_malformed;
wire ev_refused, ev_rx_stray, ev_rx_done, ev_req_accepted, ev_req_refused;
wire ev_enq_done, ev_atomic, ev_prot_refused;
wire ev_host_error, ev_host_req, ev_host_resp, ev_host_stray;
wire ev_req_retry, ev_req_stray;

// ---------------------------------------------------------------- host port
// tg_host_if8 keeps tg_csr8's rules itself: it strobes a CSR-page read
// (csr_rd_en) with the address steady since the cycle before and takes the
// data in the next cycle, and never accesses the page in two consecutive
// cycles.
wire [11:0] csr_addr;
wire        csr_rd_en, csr_wr_en;
wire [63:0] csr_wdata;
wire        csr_copy;                  // the access is to a context register's copy in tg_csr8
wire [5:0]  csr_copy_idx;
wire        csr_pg_wr = csr_wr_en && !csr_copy;   // a write to the CSR page's registers
wire [63:0] csr8_rdata;

wire [31:0] cfg_mem_size, cfg_read_timeout, cfg_req_backoff;
/* verilator lint_off UNUSEDSIGNAL */
wire [63:0] cycles;            // read through the CSR page only
/* verilator lint_on UNUSEDSIGNAL */

wire         loc_txd_valid, loc_txd_ready;
wire [7:0]   loc_txd_op, loc_txd_len, loc_txd_ctx;
wire [15:0]  loc_txd_dst, loc_txd_tag;
wire [31:0]  loc_txd_addr;
wire [63:0]  loc_txd_mask, loc_txd_key;
/* verilator lint_off UNUSEDSIGNAL */ // payload past the block means nothing
wire [511:0] loc_txd_payload;
/* verilator lint_on UNUSEDSIGNAL */

wire         hrd_valid;
wire [15:0]  hrd_src, hrd_tag;
wire [7:0]   hrd_status;
wire [63:0]  hrd_data;
wire         err_valid;
wire [3:0]   err_ctx;
wire [7:0]   err_status;
wire [3:0]   fetch_lookup_idx, fetch_free_idx, fto_idx;
wire         fetch_lookup_valid, fetch_free_valid, fto_valid, fto_ready;
wire [15:0]  fetch_lookup_node;
wire [31:0]  fetch_lookup_laddr, fetch_lookup_cpl;
wire [63:0]  fetch_lookup_mask;

tg_host_if8 #(
    .NUM_CTX     (NUM_CTX),
    .MAX_READS   (MAX_READS),
    .BLOCK_BYTES (BLOCK_BYTES)
) tg_host_if8_inst (
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
    .csr_rd_en          (csr_rd_en),
    .csr_rdata          (csr8_rdata),
    .csr_wr_en          (csr_wr_en),
    .csr_wdata          (csr_wdata),
    .csr_copy           (csr_copy),
    .csr_copy_idx       (csr_copy_idx),
    .m_txd_valid        (loc_txd_valid),
    .m_txd_ready        (loc_txd_ready),
    .m_txd_op           (loc_txd_op),
    .m_txd_dst          (loc_txd_dst),
    .m_txd_addr         (loc_txd_addr),
    .m_txd_mask         (loc_txd_mask),
    .m_txd_len          (loc_txd_len),
    .m_txd_ctx          (loc_txd_ctx),
    .m_txd_tag          (loc_txd_tag),
    .m_txd_key          (loc_txd_key),
    .m_txd_payload      (loc_txd_payload),
    .s_hrd_valid        (hrd_valid),
    .s_hrd_src          (hrd_src),
    .s_hrd_tag          (hrd_tag),
    .s_hrd_status       (hrd_status),
    .s_hrd_data         (hrd_data),
    .s_err_valid        (err_valid),
    .s_err_ctx          (err_ctx),
    .s_err_status       (err_status),
    .fetch_lookup_idx   (fetch_lookup_idx),
    .fetch_lookup_valid (fetch_lookup_valid),
    .fetch_lookup_node  (fetch_lookup_node),
    .fetch_lookup_laddr (fetch_lookup_laddr),
    .fetch_lookup_cpl   (fetch_lookup_cpl),
    .fetch_lookup_mask  (fetch_lookup_mask),
    .fetch_free_valid   (fetch_free_valid),
    .fetch_free_idx     (fetch_free_idx),
    .m_fto_valid        (fto_valid),
    .m_fto_ready        (fto_ready),
    .m_fto_idx          (fto_idx),
    .ev_host_error      (ev_host_error),
    .ev_host_req        (ev_host_req),
    .ev_host_resp       (ev_host_resp),
    .ev_stray           (ev_host_stray)
);

// ---------------------------------------------------------------- REQ sender
wire         qresp_valid;
wire [15:0]  qresp_src, qresp_tag;
wire [7:0]   qresp_status;
wire         req_txd_valid, req_txd_ready;
wire [7:0]   req_txd_op, req_txd_flags, req_txd_len, req_txd_ctx;
wire [15:0]  req_txd_dst, req_txd_tag;
wire [31:0]  req_txd_addr;
/* verilator lint_off UNUSEDSIGNAL */ // mask bits and payload past the block mean nothing (as in tg_nic)
wire [63:0]  req_txd_mask, req_txd_key;
/* verilator lint_on UNUSEDSIGNAL */
wire [1:0]   req_txd_pay_src;
/* verilator lint_off UNUSEDSIGNAL */ // (slot numbers below REQ_ROWS)
wire [4:0]   req_txd_pay_slot;
/* verilator lint_on UNUSEDSIGNAL */

// tg_req_tx keeps a REQ's payload as a slot number: here, a row of
// REQ_ROWS (one per REQ slot) taken when a REQ enters tg_req_tx and given
// back when tg_req_tx is done with it (its answer, or its failure)
localparam REQ_ROWS = (MAX_REQS > 1) ? MAX_REQS : 1;
localparam RQW      = (REQ_ROWS > 1) ? $clog2(REQ_ROWS) : 1;
reg  [8*BLOCK_BYTES-1:0] rq8_mem [0:REQ_ROWS-1];
reg  [15:0]  rq8_busy_reg, rq8_busy_next;
reg  [4:0]   rq8_free;
wire         rqt_rel_valid;
wire [1:0]   rqt_rel_src;
wire [4:0]   rqt_rel_slot;
wire         loc_is_req = (loc_txd_op == `TG_OP_REQ);
wire         rq8_take   = loc_txd_valid && loc_txd_ready && loc_is_req && (TXD_KEEP == 0);
integer      rq;
always @* begin
    rq8_free = 5'd0;
    for (rq = REQ_ROWS - 1; rq >= 0; rq = rq - 1) begin
        if (!rq8_busy_reg[rq]) begin
            rq8_free = rq[4:0];
        end
    end
    for (rq = 0; rq < 16; rq = rq + 1) begin
        rq8_busy_next[rq] = (rq < REQ_ROWS) &&
                            ((rq8_busy_reg[rq] && !(rqt_rel_valid && rqt_rel_slot == rq[4:0])) ||
                             (rq8_take && rq8_free == rq[4:0]));
    end
end
always @(posedge clk) begin
    rq8_busy_reg <= rq8_busy_next;
    if (rst) begin
        rq8_busy_reg <= 16'd0;
    end
    if (rq8_take) begin
        rq8_mem[rq8_free[RQW-1:0]] <= loc_txd_payload[8*BLOCK_BYTES-1:0];
    end
end
/* verilator lint_off UNUSEDSIGNAL */
wire [1:0]   unused_rqt_rel_src = rqt_rel_src;
wire         unused_rqt_hold;
wire [1:0]   unused_rqt_hold_src;
wire [4:0]   unused_rqt_hold_slot;
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_off UNUSEDSIGNAL */
wire         req_slot_free;    // for a spill ring, which this core does not have
/* verilator lint_on UNUSEDSIGNAL */

tg_req_tx #(
    .MAX_REQS   (MAX_REQS),
    .PAY_SLOT_W (5)
) tg_req_tx_inst (
    .clk            (clk),
    .rst            (rst),
    .cfg_backoff    (cfg_req_backoff),
    .cfg_timeout    (cfg_read_timeout),
    .s_txd_valid    (loc_txd_valid),
    .s_txd_ready    (loc_txd_ready),
    .s_txd_op       (loc_txd_op),
    .s_txd_dst      (loc_txd_dst),
    .s_txd_addr     (loc_txd_addr),
    .s_txd_mask     (loc_txd_mask),
    .s_txd_len      (loc_txd_len),
    .s_txd_ctx      (loc_txd_ctx),
    .s_txd_tag      (loc_txd_tag),
    .s_txd_key      (loc_txd_key),
    .s_txd_pay_src  (loc_is_req ? 2'd`TG_PAY_REQ : 2'd`TG_PAY_NONE),
    .s_txd_pay_slot (rq8_free),
    .m_txd_valid    (req_txd_valid),
    .m_txd_ready    (req_txd_ready),
    .m_txd_op       (req_txd_op),
    .m_txd_flags    (req_txd_flags),
    .m_txd_dst      (req_txd_dst),
    .m_txd_addr     (req_txd_addr),
    .m_txd_mask     (req_txd_mask),
    .m_txd_len      (req_txd_len),
    .m_txd_ctx      (req_txd_ctx),
    .m_txd_tag      (req_txd_tag),
    .m_txd_key      (req_txd_key),
    .m_txd_pay_src  (req_txd_pay_src),
    .m_txd_pay_slot (req_txd_pay_slot),
    .in_req_wire_held   (32'd0),
    .in_spill_wire_held (32'd0),
    .m_pay_hold_valid (unused_rqt_hold),
    .m_pay_hold_src   (unused_rqt_hold_src),
    .m_pay_hold_slot  (unused_rqt_hold_slot),
    .m_pay_rel_valid  (rqt_rel_valid),
    .m_pay_rel_src    (rqt_rel_src),
    .m_pay_rel_slot   (rqt_rel_slot),
    .s_qresp_valid  (qresp_valid),
    .s_qresp_src    (qresp_src),
    .s_qresp_tag    (qresp_tag),
    .s_qresp_status (qresp_status),
    .m_err_valid    (err_valid),
    .m_err_ctx      (err_ctx),
    .m_err_status   (err_status),
    .st_slot_free   (req_slot_free),
    .ev_req_retry   (ev_req_retry),
    .ev_req_stray   (ev_req_stray)
);

// ---------------------------------------------------------------- transmit slots
// One writer at a time fills tg_eth_tx8's free slot: the receive engine
// (responses) whenever it takes a frame, the request writer only while the
// engine is idle with no frame waiting; either holds it until its hand-over.
wire        tx_slot_free;
wire        eng_idle, frm_valid;
wire        txd_busy;
wire        eng_wr_en, txd_wr_en, eng_tfrm_valid, txd_tfrm_valid;
wire [6:0]  eng_wr_off, txd_wr_off;
wire [7:0]  eng_wr_data, txd_wr_data;
wire [3:0]  eng_tfrm_words, txd_tfrm_words;

wire        eng_tfrm_ready = tx_slot_free && !txd_busy;
wire        txd_grant      = tx_slot_free && eng_idle && !frm_valid;

// With one REQ slot (where tg_req_tx never parks a new REQ), tg_txd8 keeps
// a copy of the REQ's frame and resends it from there: a new request's
// mask, key and payload come straight from the host port's descriptor,
// which tg_req_tx passes on unchanged, and tg_req_tx's own copies of them
// are read by nothing (synthesis leaves them out). With more slots, every
// field comes through tg_req_tx.
localparam integer TXD_KEEP = (MAX_REQS == 1) ? 1 : 0;
wire [BLOCK_BYTES-1:0]   txd_mask    = (TXD_KEEP != 0) ? loc_txd_mask[BLOCK_BYTES-1:0] : req_txd_mask[BLOCK_BYTES-1:0];
wire [63:0]              txd_key     = (TXD_KEEP != 0) ? loc_txd_key : req_txd_key;
// (a REQ that tg_req_tx passes on as it takes it: from the host port;
// a resend: from its row)
wire [8*BLOCK_BYTES-1:0] txd_payload = ((TXD_KEEP != 0) || req_txd_pay_src != `TG_PAY_REQ ||
                                        (loc_txd_valid && loc_txd_ready)) ?
                                       loc_txd_payload[8*BLOCK_BYTES-1:0] :
                                       rq8_mem[req_txd_pay_slot[RQW-1:0]];

tg_txd8 #(
    .BLOCK_BYTES (BLOCK_BYTES),
    .RETRY_SLOTS (TXD_KEEP)
) tg_txd8_inst (
    .clk           (clk),
    .rst           (rst),
    .cfg_node_id   (cfg_node_id),
    .s_txd_valid   (req_txd_valid),
    .s_txd_ready   (req_txd_ready),
    .s_txd_op      (req_txd_op),
    .s_txd_flags   (req_txd_flags),
    .s_txd_dst     (req_txd_dst),
    .s_txd_addr    (req_txd_addr),
    .s_txd_mask    (txd_mask),
    .s_txd_len     (req_txd_len),
    .s_txd_ctx     (req_txd_ctx),
    .s_txd_tag     (req_txd_tag),
    .s_txd_key     (txd_key),
    .s_txd_payload (txd_payload),
    .in_grant      (txd_grant),
    .m_wr_en       (txd_wr_en),
    .m_wr_off      (txd_wr_off),
    .m_wr_data     (txd_wr_data),
    .m_tfrm_valid  (txd_tfrm_valid),
    .m_tfrm_ready  (tx_slot_free),
    .m_tfrm_words  (txd_tfrm_words),
    .st_busy       (txd_busy)
);

tg_eth_tx8 tg_eth_tx8_inst (
    .clk          (clk),
    .rst          (rst),
    .cfg_node_id  (cfg_node_id),
    .s_wr_en      (txd_busy ? txd_wr_en      : eng_wr_en),
    .s_wr_off     (txd_busy ? txd_wr_off     : eng_wr_off),
    .s_wr_data    (txd_busy ? txd_wr_data    : eng_wr_data),
    .s_frm_valid  (txd_busy ? txd_tfrm_valid : eng_tfrm_valid),
    .s_frm_ready  (tx_slot_free),
    .s_frm_words  (txd_busy ? txd_tfrm_words : eng_tfrm_words),
    .m_tx_tdata   (m_tx_tdata),
    .m_tx_tvalid  (m_tx_tvalid),
    .m_tx_tready  (m_tx_tready),
    .m_tx_tlast   (m_tx_tlast),
    .ev_tx_start  (ev_tx_start),
    .ev_tx_frame  (ev_tx_frame)
);

// ---------------------------------------------------------------- receive path
wire        frm_ready;
wire [1:0]  frm_slot;
wire [8:0]  frm_rd_addr;
wire [7:0]  frm_rd_data;

tg_eth_rx8 tg_eth_rx8_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .s_rx_tdata        (s_rx_tdata),
    .s_rx_tvalid       (s_rx_tvalid),
    .s_rx_tlast        (s_rx_tlast),
    .s_rx_tuser        (s_rx_tuser),
    .m_frm_valid       (frm_valid),
    .m_frm_ready       (frm_ready),
    .m_frm_slot        (frm_slot),
    .frm_rd_addr       (frm_rd_addr),
    .frm_rd_data       (frm_rd_data),
    .ev_rx_frame       (ev_rx_frame),
    .ev_rx_data_frame  (ev_rx_data_frame),
    .ev_drop_fcs       (ev_drop_fcs),
    .ev_drop_type      (ev_drop_type),
    .ev_drop_malformed (ev_drop_malformed),
    .ev_drop_busy      (ev_drop_busy)
);

// queue table
wire [31:0] q_lk_base;
wire        q_lk_hit, q_lk_full, q_lk_head_valid;
wire [3:0]  q_lk_idx, q_upd_idx;
wire [4:0]  q_lk_size_log2;
wire [2:0]  q_lk_esize_log2;
wire [23:0] q_lk_tail, q_lk_head, q_upd_tail, q_upd_head;
wire        q_upd_tail_valid, q_upd_full_valid, q_upd_head_valid;
wire        qt_hit, pt_hit;
wire [63:0] qt_rdata, pt_rdata;

tg_qtable #(
    .NUM_QUEUES (NUM_QUEUES)
) tg_qtable_inst (
    .clk            (clk),
    .rst            (rst),
    .csr_addr       (csr_addr),
    .csr_wr_en      (csr_pg_wr),
    .csr_wdata      (csr_wdata),
    .csr_rdata      (qt_rdata),
    .csr_hit        (qt_hit),
    .lk_base        (q_lk_base),
    .lk_hit         (q_lk_hit),
    .lk_idx         (q_lk_idx),
    .lk_size_log2   (q_lk_size_log2),
    .lk_esize_log2  (q_lk_esize_log2),
    .lk_tail        (q_lk_tail),
    .lk_full        (q_lk_full),
    .lk_head_valid  (q_lk_head_valid),
    .lk_head        (q_lk_head),
    .upd_tail_valid (q_upd_tail_valid),
    .upd_idx        (q_upd_idx),
    .upd_tail       (q_upd_tail),
    .upd_full_valid (q_upd_full_valid),
    .upd_head_valid (q_upd_head_valid),
    .upd_head       (q_upd_head),
    .irq            (irq)
);

// region table
wire        cfg_prot_enable, prot_hit;
wire [63:0] prot_key;
wire [31:0] prot_base;
wire [32:0] prot_end;
wire [3:0]  prot_rights;

// Without a region table (NUM_REGIONS = 0) protection stays off: PROT_CFG
// and the region registers read 0 and ignore writes (CONFIG bit 34).
generate
if (NUM_REGIONS > 0) begin : g_prot
    tg_prot #(
        .NUM_REGIONS (NUM_REGIONS)
    ) tg_prot_inst (
        .clk        (clk),
        .rst        (rst),
        .csr_addr   (csr_addr),
        .csr_wr_en  (csr_pg_wr),
        .csr_wdata  (csr_wdata),
        .csr_rdata  (pt_rdata),
        .csr_hit    (pt_hit),
        .cfg_enable (cfg_prot_enable),
        .lk_key     (prot_key),
        .lk_hit     (prot_hit),
        .lk_base    (prot_base),
        .lk_end     (prot_end),
        .lk_rights  (prot_rights),
        .in_rx_idle (eng_idle)
    );
end else begin : g_no_prot
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_key = ^prot_key;   // the engine's lookup key: nothing to look up
    /* verilator lint_on UNUSEDSIGNAL */
    assign pt_rdata        = 64'd0;
    assign pt_hit          = 1'b0;
    assign cfg_prot_enable = 1'b0;
    assign prot_hit        = 1'b0;
    assign prot_base       = 32'd0;
    assign prot_end        = 33'd0;
    assign prot_rights     = 4'd0;
end
endgenerate

// with one-entry tables the engine reads their answers straight
localparam integer ENG_ONE_ENTRY = (NUM_QUEUES == 1 && NUM_REGIONS <= 1 && MAX_READS <= 1) ? 1 : 0;

tg_rx_engine8 #(
    .BLK_SRC_BITS (BLK_SRC_BITS),
    .BLOCK_BYTES  (BLOCK_BYTES),
    .ONE_ENTRY    (ENG_ONE_ENTRY)
) tg_rx_engine8_inst (
    .clk                (clk),
    .rst                (rst),
    .cfg_node_id        (cfg_node_id),
    .cfg_mem_size       (cfg_mem_size),
    .s_frm_valid        (frm_valid),
    .s_frm_ready        (frm_ready),
    .s_frm_slot         (frm_slot),
    .m_frm_rd_addr      (frm_rd_addr),
    .s_frm_rd_data      (frm_rd_data),
    .m_wr_en            (eng_wr_en),
    .m_wr_off           (eng_wr_off),
    .m_wr_data          (eng_wr_data),
    .m_tfrm_valid       (eng_tfrm_valid),
    .m_tfrm_ready       (eng_tfrm_ready),
    .m_tfrm_words       (eng_tfrm_words),
    .cfg_prot_enable    (cfg_prot_enable),
    .prot_key           (prot_key),
    .prot_hit           (prot_hit),
    .prot_base          (prot_base),
    .prot_end           (prot_end),
    .prot_rights        (prot_rights),
    .st_idle            (eng_idle),
    .m_mem_req_valid    (m_mem_req_valid),
    .m_mem_req_ready    (m_mem_req_ready),
    .m_mem_req_write    (m_mem_req_write),
    .m_mem_req_addr     (m_mem_req_addr),
    .m_mem_req_wdata    (m_mem_req_wdata),
    .m_mem_req_wstrb    (m_mem_req_wstrb),
    .s_mem_resp_valid   (s_mem_resp_valid),
    .s_mem_resp_rdata   (s_mem_resp_rdata),
    .m_hrd_valid        (hrd_valid),
    .m_hrd_src          (hrd_src),
    .m_hrd_tag          (hrd_tag),
    .m_hrd_status       (hrd_status),
    .m_hrd_data         (hrd_data),
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
    .m_qresp_valid      (qresp_valid),
    .m_qresp_src        (qresp_src),
    .m_qresp_tag        (qresp_tag),
    .m_qresp_status     (qresp_status),
    .fetch_lookup_idx   (fetch_lookup_idx),
    .fetch_lookup_valid (fetch_lookup_valid),
    .fetch_lookup_node  (fetch_lookup_node),
    .fetch_lookup_laddr (fetch_lookup_laddr),
    .fetch_lookup_cpl   (fetch_lookup_cpl),
    .fetch_lookup_mask  (fetch_lookup_mask),
    .fetch_free_valid   (fetch_free_valid),
    .fetch_free_idx     (fetch_free_idx),
    .s_fto_valid        (fto_valid),
    .s_fto_ready        (fto_ready),
    .s_fto_idx          (fto_idx),
    .ev_refused         (ev_refused),
    .ev_stray           (ev_rx_stray),
    .ev_rx_done         (ev_rx_done),
    .ev_req_accepted    (ev_req_accepted),
    .ev_req_refused     (ev_req_refused),
    .ev_enq_done        (ev_enq_done),
    .ev_atomic          (ev_atomic),
    .ev_prot_refused    (ev_prot_refused)
);

// ---------------------------------------------------------------- CSR page
tg_csr8 #(
    .NUM_CTX     (NUM_CTX),
    .MAX_READS   (MAX_READS),
    .NUM_QUEUES  (NUM_QUEUES),
    .NUM_REGIONS (NUM_REGIONS),
    .BLOCK_BYTES (BLOCK_BYTES),
    .CNT_W       (CNT_W)
) tg_csr8_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .csr_addr          (csr_addr),
    .csr_rd_en         (csr_rd_en),
    .csr_rdata         (csr8_rdata),
    .csr_wr_en         (csr_wr_en),
    .csr_wdata         (csr_wdata),
    .csr_copy          (csr_copy),
    .csr_copy_idx      (csr_copy_idx),
    .qt_hit            (qt_hit || pt_hit),
    .qt_rdata          (qt_hit ? qt_rdata : pt_rdata),
    .cfg_mem_size      (cfg_mem_size),
    .cfg_read_timeout  (cfg_read_timeout),
    .cfg_req_backoff   (cfg_req_backoff),
    .cycles            (cycles),
    .ev_tx_frame       (ev_tx_frame),
    .ev_rx_frame       (ev_rx_frame),
    .ev_drop_fcs       (ev_drop_fcs),
    .ev_drop_type      (ev_drop_type),
    .ev_drop_malformed (ev_drop_malformed),
    .ev_refused        (ev_refused),
    .ev_host_error     (ev_host_error),
    .ev_stray          (ev_rx_stray || ev_host_stray || ev_req_stray),
    .ev_req_accepted   (ev_req_accepted),
    .ev_req_refused    (ev_req_refused),
    .ev_req_retry      (ev_req_retry),
    .ev_atomic         (ev_atomic),
    .ev_prot_refused   (ev_prot_refused),
    .ev_drop_busy      (ev_drop_busy),
    .ev_host_req       (ev_host_req),
    .ev_tx_start       (ev_tx_start),
    .ev_rx_end         (ev_rx_data_frame),
    .ev_rx_done        (ev_rx_done),
    .ev_host_resp      (ev_host_resp),
    .ev_enq_done       (ev_enq_done)
);

endmodule

`default_nettype wire
