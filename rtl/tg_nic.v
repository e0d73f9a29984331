// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Telegraphos NIC core: host target (BAR), memory master towards host
// memory, and an Ethernet frame port; remote reads, writes, fetches and
// remote enqueues.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_nic #(
    parameter NUM_CTX   = 16,  // process contexts, one context page each (1..16)
    parameter MAX_READS = 8,   // non-blocking fetches in flight (1..16)
    parameter CNT_W     = 64,  // width of the event counters (16..64)
    parameter NUM_QUEUES = 16, // receive queues in the queue table (1..16)
    parameter MAX_REQS  = 4,   // REQs awaiting their target's answer (1..16)
    parameter NUM_REGIONS = 32, // exported regions in the region table (1..32)
    parameter BLOCK_BYTES = 64, // largest frame payload: 16, 32 or 64 bytes (a narrower node keeps
                                // fewer payload words; bursts and fetches stay in one such block)
    parameter SPILL_RING      = 1,  // 1: the REQ spill ring is built in (SPILL_CFG turns it on); 0: not built,
                                    // REQs that find no free slot wait at the host port (as with SPILL_CFG 0)
    parameter LINK_LAYER      = 1,  // 1: the reliable link layer is built in (LINK_CFG turns it on); 0: not built
    parameter LINK_PEER_BITS  = 8,  // link layer: node ids 0 .. 2^LINK_PEER_BITS-1 are sequenced (1..12)
    parameter LINK_SEQ_W      = 16, // link layer: sequence number bits (4..16)
    parameter LINK_SLOTS_LOG2 = 5   // link layer: log2 of the retransmission buffer slots (1..5)
) (
    input  wire        clk,
    input  wire        rst,

    // configuration straps
    input  wire [15:0] cfg_node_id,
    input  wire [31:0] cfg_clock_khz,   // the clock this core runs at, for CLOCK_KHZ (0: not given)

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

    // network port: whole Ethernet frames without their FCS, which the MAC
    // appends and checks; tuser on a received frame's last beat: the MAC
    // found it bad (its FCS, an error symbol)
    output wire [63:0] m_axis_tx_tdata,
    output wire [7:0]  m_axis_tx_tkeep,
    output wire        m_axis_tx_tvalid,
    input  wire        m_axis_tx_tready,
    output wire        m_axis_tx_tlast,
    input  wire [63:0] s_axis_rx_tdata,
    input  wire [7:0]  s_axis_rx_tkeep,
    input  wire        s_axis_rx_tvalid,
    output wire        s_axis_rx_tready,
    input  wire        s_axis_rx_tlast,
    input  wire        s_axis_rx_tuser,

    // interrupt: queue overflow or armed notification (IRQ_STATUS & IRQ_MASK)
    output wire        irq,

    // fast-forward (simulation; a board ties ff_skip to 0): ff_idle says
    // that no frame, request, answer, timer or table walk is in the NIC,
    // so that with quiet ports a cycle changes nothing but free-running
    // counts; ff_wait says the same of a NIC whose only work is a frame
    // waiting at the network port, for the next beat to come in or for
    // tready to rise, of cycles with quiet ports and m_axis_tx_tready low.
    // An edge from such a state may stand for ff_skip such cycles and its
    // own (whatever its inputs), those counts advancing by ff_skip + 1; one
    // from ff_idle with quiet ports, for its own and ff_skip after it
    output wire        ff_idle,
    output wire        ff_wait,
    input  wire [31:0] ff_skip
);

initial begin
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
    if (SPILL_RING != 0 && SPILL_RING != 1) begin
        $error("%m: SPILL_RING must be 0 or 1");
    end
end

localparam RX_SLOT_W  = 2;                  // payload-buffer slots for received frames: 4
// Slots per transmit payload buffer: with the link layer, a whole
// retransmission buffer's worth (its frames keep their slots until
// acknowledged); without it, the REQs kept for answers and four more, at
// least 8 (a free slot is then always there when a frame needs one).
localparam PAY_SLOTS_NEED = (MAX_REQS + 4 > 8) ? MAX_REQS + 4 : 8;
localparam PAY_SLOT_W_MIN = (PAY_SLOTS_NEED > 16) ? 5 : (PAY_SLOTS_NEED > 8) ? 4 : 3;
localparam PAY_SLOT_W = (LINK_LAYER != 0 && LINK_SLOTS_LOG2 > PAY_SLOT_W_MIN) ? LINK_SLOTS_LOG2 :
                        PAY_SLOT_W_MIN;   // (at most `TG_PAY_SLOT_BITS)
localparam [1:0] PAY_NONE = `TG_PAY_NONE, PAY_REQ = `TG_PAY_REQ, PAY_RSP = `TG_PAY_RSP,
                 PAY_SPILL = `TG_PAY_SPILL;
localparam [1:0] HOLD_WIRE = `TG_PAY_HOLD_WIRE, HOLD_REQ = `TG_PAY_HOLD_REQ;

wire [31:0] cfg_mem_size;
wire [31:0] cfg_read_timeout;
wire [31:0] cfg_req_backoff;
wire [31:0] cfg_spill_base;
wire [4:0]  cfg_spill_log2;
wire [31:0] st_spill_count;
wire [63:0] cycles;
wire        cfg_link_enable;
wire [31:0] cfg_link_rto;
wire [7:0]  cfg_link_max_retries;
wire [15:0] cfg_link_ack_delay;
wire [31:0] cfg_link_rx_wait;
wire        cfg_link_gone_clear;
wire        st_link_gone_any;
wire [15:0] st_link_gone_peer;
reg         link_on_reg, link_on_next;   // frames take the link-layer paths

// ---------------------------------------------------------------- boundary
// Every port is a register: requests, answers and frames cross a register
// slice (one cycle each way), the memory's answers and the node id a
// register. No path runs from a port into the core's logic or out of it
// again, so the core's timing does not depend on what drives its ports, and
// a cycle-based simulator evaluates its logic once per clock.
wire        hq_valid, hq_ready, hq_write, hq_last;
wire [46:0] hq_addr;
wire [63:0] hq_wdata;
wire [7:0]  hq_wstrb;
wire        hr_valid, hr_ready;
wire [63:0] hr_rdata;
wire        mq_valid, mq_ready, mq_write;
wire [31:0] mq_addr;
wire [63:0] mq_wdata;
wire [7:0]  mq_wstrb;
reg         mr_valid_reg;
reg  [63:0] mr_rdata_reg;
wire [63:0] tx_tdata, rx_tdata;
wire [7:0]  tx_tkeep, rx_tkeep;
wire        tx_tvalid, tx_tready, tx_tlast, rx_tvalid, rx_tready, rx_tlast, rx_tuser;
reg  [15:0] node_id_reg;
reg  [31:0] clock_khz_reg;
wire        hq_idle, hr_idle, mq_idle, txs_idle, rxs_idle;   // the port slices are empty
wire        hif_idle, prot_idle, erx_idle, etx_idle, lrx_idle, ltx_idle, spl_idle, arb_idle,
            rqt_idle;                              // the blocks are idle (ff_idle)
wire        erx_wait;                              // ... or waits for a beat (ff_wait)

tg_reg_slice #(.W(121)) host_req_slice (
    .clk     (clk),
    .rst     (rst),
    .s_valid (s_host_req_valid),
    .s_ready (s_host_req_ready),
    .s_data  ({s_host_req_write, s_host_req_addr, s_host_req_wdata, s_host_req_wstrb, s_host_req_last}),
    .m_valid (hq_valid),
    .m_ready (hq_ready),
    .m_data  ({hq_write, hq_addr, hq_wdata, hq_wstrb, hq_last}),
    .st_idle (hq_idle)
);

tg_reg_slice #(.W(64)) host_resp_slice (
    .clk     (clk),
    .rst     (rst),
    .s_valid (hr_valid),
    .s_ready (hr_ready),
    .s_data  (hr_rdata),
    .m_valid (m_host_resp_valid),
    .m_ready (m_host_resp_ready),
    .m_data  (m_host_resp_rdata),
    .st_idle (hr_idle)
);

tg_reg_slice #(.W(105)) mem_req_slice (
    .clk     (clk),
    .rst     (rst),
    .s_valid (mq_valid),
    .s_ready (mq_ready),
    .s_data  ({mq_write, mq_addr, mq_wdata, mq_wstrb}),
    .m_valid (m_mem_req_valid),
    .m_ready (m_mem_req_ready),
    .m_data  ({m_mem_req_write, m_mem_req_addr, m_mem_req_wdata, m_mem_req_wstrb}),
    .st_idle (mq_idle)
);

tg_reg_slice #(.W(73)) tx_slice (
    .clk     (clk),
    .rst     (rst),
    .s_valid (tx_tvalid),
    .s_ready (tx_tready),
    .s_data  ({tx_tdata, tx_tkeep, tx_tlast}),
    .m_valid (m_axis_tx_tvalid),
    .m_ready (m_axis_tx_tready),
    .m_data  ({m_axis_tx_tdata, m_axis_tx_tkeep, m_axis_tx_tlast}),
    .st_idle (txs_idle)
);

tg_reg_slice #(.W(74)) rx_slice (
    .clk     (clk),
    .rst     (rst),
    .s_valid (s_axis_rx_tvalid),
    .s_ready (s_axis_rx_tready),
    .s_data  ({s_axis_rx_tdata, s_axis_rx_tkeep, s_axis_rx_tlast, s_axis_rx_tuser}),
    .m_valid (rx_tvalid),
    .m_ready (rx_tready),
    .m_data  ({rx_tdata, rx_tkeep, rx_tlast, rx_tuser}),
    .st_idle (rxs_idle)
);

always @(posedge clk) begin
    mr_valid_reg <= s_mem_resp_valid;
    mr_rdata_reg <= s_mem_resp_rdata;
    node_id_reg  <= cfg_node_id;
    clock_khz_reg <= cfg_clock_khz;
    if (rst) begin
        mr_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- events
wire ev_tx_start, ev_tx_frame, ev_tx_data_start, ev_rx_data_frame;
wire ev_rx_frame, ev_drop_fcs, ev_drop_type, ev_drop_malformed;
wire ev_refused, ev_rx_stray, ev_rx_done;
wire ev_host_error, ev_host_req, ev_host_resp, ev_host_stray;
wire ev_req_accepted, ev_req_refused, ev_enq_done, ev_req_retry, ev_req_stray;
wire ev_atomic, ev_spill, ev_prot_refused;
wire ev_link_retx, ev_link_dup_drop, ev_link_ooo_drop, ev_link_busy_drop;
wire ev_link_nak_sent, ev_link_ack_sent, ev_link_gone_drop;

// ---------------------------------------------------------------- CSR page
wire [11:0] csr_addr;
wire [63:0] csr_rdata;
wire        csr_wr_en;
wire [63:0] csr_wdata;

wire        qt_hit;
wire [63:0] qt_rdata;
wire        pt_hit;
wire [63:0] pt_rdata;

tg_csr #(
    .NUM_CTX    (NUM_CTX),
    .MAX_READS  (MAX_READS),
    .NUM_QUEUES (NUM_QUEUES),
    .BLOCK_BYTES (BLOCK_BYTES),
    .SPILL_RING (SPILL_RING),
    .LINK_LAYER (LINK_LAYER),
    .CNT_W      (CNT_W)
) tg_csr_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (node_id_reg),
    .cfg_clock_khz     (clock_khz_reg),
    .csr_addr          (csr_addr),
    .csr_rdata         (csr_rdata),
    .csr_wr_en         (csr_wr_en),
    .csr_wdata         (csr_wdata),
    .qt_hit            (qt_hit || pt_hit),
    .qt_rdata          (qt_hit ? qt_rdata : pt_rdata),
    .cfg_mem_size      (cfg_mem_size),
    .cfg_read_timeout  (cfg_read_timeout),
    .cfg_req_backoff   (cfg_req_backoff),
    .cfg_spill_base    (cfg_spill_base),
    .cfg_spill_log2    (cfg_spill_log2),
    .st_spill_count    (st_spill_count),
    .cycles            (cycles),
    .in_skip           (ff_skip),
    .cfg_link_enable      (cfg_link_enable),
    .cfg_link_rto         (cfg_link_rto),
    .cfg_link_max_retries (cfg_link_max_retries),
    .cfg_link_ack_delay   (cfg_link_ack_delay),
    .cfg_link_rx_wait     (cfg_link_rx_wait),
    .cfg_link_gone_clear  (cfg_link_gone_clear),
    .st_link_on           (link_on_reg),
    .st_link_gone_any     (st_link_gone_any),
    .st_link_gone_peer    (st_link_gone_peer),
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
    .ev_host_req       (ev_host_req),
    .ev_tx_start       (ev_tx_data_start),
    .ev_rx_end         (ev_rx_data_frame),
    .ev_rx_done        (ev_rx_done),
    .ev_host_resp      (ev_host_resp),
    .ev_enq_done       (ev_enq_done),
    .ev_atomic         (ev_atomic),
    .ev_spill          (ev_spill),
    .ev_link_retx      (ev_link_retx),
    .ev_link_dup_drop  (ev_link_dup_drop),
    .ev_link_ooo_drop  (ev_link_ooo_drop),
    .ev_link_busy_drop (ev_link_busy_drop),
    .ev_link_nak_sent  (ev_link_nak_sent),
    .ev_link_ack_sent  (ev_link_ack_sent),
    .ev_link_gone_drop (ev_link_gone_drop),
    .ev_prot_refused   (ev_prot_refused)
);

// ---------------------------------------------------------------- queue table
wire [31:0] q_lk_base;
wire        q_lk_hit, q_lk_full, q_lk_head_valid;
wire [23:0] q_lk_head, q_upd_head;
wire        q_upd_head_valid;
wire [3:0]  q_lk_idx;
wire [4:0]  q_lk_size_log2;
wire [2:0]  q_lk_esize_log2;
wire [23:0] q_lk_tail;
wire        q_upd_tail_valid, q_upd_full_valid;
wire [3:0]  q_upd_idx;
wire [23:0] q_upd_tail;

tg_qtable #(
    .NUM_QUEUES (NUM_QUEUES)
) tg_qtable_inst (
    .clk            (clk),
    .rst            (rst),
    .csr_addr       (csr_addr),
    .csr_wr_en      (csr_wr_en),
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

// ---------------------------------------------------------------- region table
wire        cfg_prot_enable;
wire        prot_hit;
wire [31:0] prot_base;
wire [32:0] prot_end;
wire [3:0]  prot_rights;
wire        rxe_idle;
wire [63:0] prot_key;

tg_prot #(
    .NUM_REGIONS (NUM_REGIONS)
) tg_prot_inst (
    .clk        (clk),
    .rst        (rst),
    .csr_addr   (csr_addr),
    .csr_wr_en  (csr_wr_en),
    .csr_wdata  (csr_wdata),
    .csr_rdata  (pt_rdata),
    .csr_hit    (pt_hit),
    .cfg_enable (cfg_prot_enable),
    .lk_key     (prot_key),
    .lk_hit     (prot_hit),
    .lk_base    (prot_base),
    .lk_end     (prot_end),
    .lk_rights  (prot_rights),
    .in_rx_idle (rxe_idle),
    .st_idle    (prot_idle)
);

// ---------------------------------------------------------------- host port
wire         loc_txd_valid, loc_txd_ready;
wire [7:0]   loc_txd_op;
wire [15:0]  loc_txd_dst;
wire [31:0]  loc_txd_addr;
wire [5:0]   loc_txd_off;
wire [6:0]   loc_txd_cnt;
wire [7:0]   loc_txd_len;
wire [7:0]   loc_txd_ctx;
wire [15:0]  loc_txd_tag;
wire [63:0]  loc_txd_key;
wire [1:0]   loc_txd_pay_src;
wire [PAY_SLOT_W-1:0] loc_txd_pay_slot;

// the transmit payload buffers (below): the request buffer's allocation,
// taking and write port (the host port), its hold and release ports
wire                  rqp_alloc_valid, rqp_take_valid, rqp_we;
wire [PAY_SLOT_W-1:0] rqp_alloc_slot, rqp_take_slot, rqp_wr_slot;
wire [1:0]            rqp_take_mask;
wire [2:0]            rqp_wr_word;
wire [63:0]           rqp_wr_data;

// A blocking read's answer goes from the receive engine to the host port
// through a register, as a REQ's answer goes to the REQ slots: the
// engine's decision on the frame on offer and the host port's context
// status would otherwise lie on one path.
wire         rxe_hrd_valid;
wire [15:0]  rxe_hrd_src, rxe_hrd_tag;
wire [7:0]   rxe_hrd_status;
wire [63:0]  rxe_hrd_data;
reg          hrd_valid;
reg  [15:0]  hrd_src, hrd_tag;
reg  [7:0]   hrd_status;
reg  [63:0]  hrd_data;
always @(posedge clk) begin
    hrd_src    <= rxe_hrd_src;
    hrd_tag    <= rxe_hrd_tag;
    hrd_status <= rxe_hrd_status;
    hrd_data   <= rxe_hrd_data;
    hrd_valid  <= rxe_hrd_valid && !rst;
end

wire         reqdone_valid;
wire [3:0]   reqdone_ctx;
wire [15:0]  reqdone_num;
wire [7:0]   reqdone_status;

wire [3:0]   fetch_lookup_idx;
wire         fetch_lookup_valid;
wire [15:0]  fetch_lookup_node;
wire [31:0]  fetch_lookup_laddr, fetch_lookup_cpl;
wire [5:0]   fetch_lookup_off;
wire [6:0]   fetch_lookup_cnt;
wire         fetch_free_valid;
wire [3:0]   fetch_free_idx;
wire         fto_valid, fto_ready;
wire [3:0]   fto_idx;

tg_host_if #(
    .NUM_CTX     (NUM_CTX),
    .MAX_READS   (MAX_READS),
    .BLOCK_BYTES (BLOCK_BYTES),
    .PAY_SLOT_W  (PAY_SLOT_W)
) tg_host_if_inst (
    .clk                (clk),
    .rst                (rst),
    .cfg_mem_size       (cfg_mem_size),
    .cfg_read_timeout   (cfg_read_timeout),
    .s_host_req_valid   (hq_valid),
    .s_host_req_ready   (hq_ready),
    .s_host_req_write   (hq_write),
    .s_host_req_addr    (hq_addr),
    .s_host_req_wdata   (hq_wdata),
    .s_host_req_wstrb   (hq_wstrb),
    .s_host_req_last    (hq_last),
    .m_host_resp_valid  (hr_valid),
    .m_host_resp_ready  (hr_ready),
    .m_host_resp_rdata  (hr_rdata),
    .csr_addr           (csr_addr),
    .csr_rdata          (csr_rdata),
    .csr_wr_en          (csr_wr_en),
    .csr_wdata          (csr_wdata),
    .m_txd_valid        (loc_txd_valid),
    .m_txd_ready        (loc_txd_ready),
    .m_txd_op           (loc_txd_op),
    .m_txd_dst          (loc_txd_dst),
    .m_txd_addr         (loc_txd_addr),
    .m_txd_off          (loc_txd_off),
    .m_txd_cnt          (loc_txd_cnt),
    .m_txd_len          (loc_txd_len),
    .m_txd_ctx          (loc_txd_ctx),
    .m_txd_tag          (loc_txd_tag),
    .m_txd_key          (loc_txd_key),
    .m_txd_pay_src      (loc_txd_pay_src),
    .m_txd_pay_slot     (loc_txd_pay_slot),
    .s_pay_alloc_valid  (rqp_alloc_valid),
    .s_pay_alloc_slot   (rqp_alloc_slot),
    .m_pay_take_valid   (rqp_take_valid),
    .m_pay_take_slot    (rqp_take_slot),
    .m_pay_take_mask    (rqp_take_mask),
    .m_pay_we           (rqp_we),
    .m_pay_wr_slot      (rqp_wr_slot),
    .m_pay_wr_word      (rqp_wr_word),
    .m_pay_wr_data      (rqp_wr_data),
    .s_hrd_valid        (hrd_valid),
    .s_hrd_src          (hrd_src),
    .s_hrd_tag          (hrd_tag),
    .s_hrd_status       (hrd_status),
    .s_hrd_data         (hrd_data),
    .s_reqdone_valid    (reqdone_valid),
    .s_reqdone_ctx      (reqdone_ctx),
    .s_reqdone_num      (reqdone_num),
    .s_reqdone_status   (reqdone_status),
    .fetch_lookup_idx   (fetch_lookup_idx),
    .fetch_lookup_valid (fetch_lookup_valid),
    .fetch_lookup_node  (fetch_lookup_node),
    .fetch_lookup_laddr (fetch_lookup_laddr),
    .fetch_lookup_cpl   (fetch_lookup_cpl),
    .fetch_lookup_off   (fetch_lookup_off),
    .fetch_lookup_cnt   (fetch_lookup_cnt),
    .fetch_free_valid   (fetch_free_valid),
    .fetch_free_idx     (fetch_free_idx),
    .m_fto_valid        (fto_valid),
    .m_fto_ready        (fto_ready),
    .m_fto_idx          (fto_idx),
    .ev_host_error      (ev_host_error),
    .ev_host_req        (ev_host_req),
    .ev_host_resp       (ev_host_resp),
    .ev_stray           (ev_host_stray),
    .st_idle            (hif_idle)
);

// ---------------------------------------------------------------- receive path
wire         erx_valid, erx_ready;
wire [7:0]   erx_op, erx_flags, erx_status, erx_len, erx_ctx;
wire [15:0]  erx_src, erx_tag;
wire [31:0]  erx_addr, erx_seq, erx_ack;
wire [63:0]  erx_key;
wire [5:0]   erx_off;
wire [6:0]   erx_cnt;
wire [RX_SLOT_W-1:0] erx_slot;

wire                      lack_valid, lack_nak, lowe_valid, lnak_valid;
wire [LINK_PEER_BITS-1:0] lack_peer, lowe_peer, lnak_peer;
wire [LINK_SEQ_W-1:0]     lack_seq, lowe_seq, lnak_seq;
wire                      link_rsv_valid, link_rsv_room, link_rsv_room2;

wire         lrx_s_valid, lrx_s_ready;
wire         lrx_valid, lrx_ready;
wire [7:0]   lrx_op, lrx_flags, lrx_status, lrx_len, lrx_ctx;
wire [15:0]  lrx_src, lrx_tag;
wire [31:0]  lrx_addr;
wire [63:0]  lrx_key;
wire [5:0]   lrx_off;
wire [6:0]   lrx_cnt;
wire [RX_SLOT_W-1:0] lrx_slot;
wire         lrx_free_valid;
wire [RX_SLOT_W-1:0] lrx_free_slot;

wire         rxd_valid, rxd_ready;
wire [7:0]   rxd_op, rxd_flags, rxd_status, rxd_len, rxd_ctx;
wire [15:0]  rxd_src, rxd_tag;
wire [31:0]  rxd_addr;
wire [63:0]  rxd_key;
wire [5:0]   rxd_off;
wire [6:0]   rxd_cnt;
wire [RX_SLOT_W-1:0] rxd_slot, rxd_slot_next;
wire [RX_SLOT_W-1:0] erx_slot_next, lrx_slot_next;

// Received payloads: in the payload buffer, a slot per frame from its
// first beat until the receive engine is done with it (or the frame is
// dropped or was an ACK or NAK). At most three slots are in use: the two
// of the link layer's FIFO (tg_link_rx's FIFO_LOG2 1) and the frame
// tg_eth_rx receives or holds, so a frame never waits at the port for a
// slot.
wire                 pay_alloc_valid;
wire [RX_SLOT_W-1:0] pay_alloc_slot;
wire                 pay_we;
wire [RX_SLOT_W-1:0] pay_wr_slot;
wire [2:0]           pay_wr_word;
wire [63:0]          pay_wr_data;
wire [RX_SLOT_W-1:0] pay_rd_slot;
wire [2:0]           pay_rd_word;
wire [63:0]          pay_rd_data;
wire                 pay_free0_valid, pay_free1_valid;
wire [RX_SLOT_W-1:0] pay_free1_slot;
wire [(1<<RX_SLOT_W)-1:0] pay_busy;
/* verilator lint_off UNUSEDSIGNAL */
wire [(1<<RX_SLOT_W)-1:0] unused_rx_held;   // (one hold: the same as pay_busy)
/* verilator lint_on UNUSEDSIGNAL */

tg_pay_buf #(
    .SLOTS_LOG2  (RX_SLOT_W),
    .BLOCK_BYTES (BLOCK_BYTES),
    .HOLDERS     (1),
    .FREE_PORTS  (2)
) tg_rx_pay_inst (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (pay_alloc_valid),
    .m_alloc_slot  (pay_alloc_slot),
    .s_take_valid  (ev_rx_frame),
    .s_take_slot   (erx_slot),
    .s_take_mask   (1'b1),
    .s_hold_valid  (1'b0),
    .s_hold_slot   ({RX_SLOT_W{1'b0}}),
    .s_hold_mask   (1'b0),
    .s_free_valid  ({pay_free1_valid, pay_free0_valid}),
    .s_free_slot   ({pay_free1_slot, rxd_slot}),
    .s_free_mask   ({1'b1, 1'b1}),
    .s_pin_valid   (1'b0),
    .s_pin_slot    ({RX_SLOT_W{1'b0}}),
    .s_wr_en       (pay_we),
    .s_wr_slot     (pay_wr_slot),
    .s_wr_word     (pay_wr_word),
    .s_wr_data     (pay_wr_data),
    .s_rd_slot     (pay_rd_slot),
    .s_rd_word     (pay_rd_word),
    .m_rd_data     (pay_rd_data),
    .st_busy       (pay_busy),
    .st_held       (unused_rx_held)
);

tg_eth_rx #(
    .BLOCK_BYTES (BLOCK_BYTES),
    .SLOT_W      (RX_SLOT_W)
) tg_eth_rx_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (node_id_reg),
    .s_slot_valid      (pay_alloc_valid),
    .s_slot_idx        (pay_alloc_slot),
    .m_pay_we          (pay_we),
    .m_pay_slot        (pay_wr_slot),
    .m_pay_word        (pay_wr_word),
    .m_pay_wdata       (pay_wr_data),
    .s_axis_rx_tdata   (rx_tdata),
    .s_axis_rx_tkeep   (rx_tkeep),
    .s_axis_rx_tvalid  (rx_tvalid),
    .s_axis_rx_tready  (rx_tready),
    .s_axis_rx_tlast   (rx_tlast),
    .s_axis_rx_tuser   (rx_tuser),
    .m_rxd_valid       (erx_valid),
    .m_rxd_ready       (erx_ready),
    .m_rxd_op          (erx_op),
    .m_rxd_flags       (erx_flags),
    .m_rxd_status      (erx_status),
    .m_rxd_src         (erx_src),
    .m_rxd_addr        (erx_addr),
    .m_rxd_off         (erx_off),
    .m_rxd_cnt         (erx_cnt),
    .m_rxd_len         (erx_len),
    .m_rxd_ctx         (erx_ctx),
    .m_rxd_tag         (erx_tag),
    .m_rxd_key         (erx_key),
    .m_rxd_slot        (erx_slot),
    .m_rxd_slot_next   (erx_slot_next),
    .m_rxd_seq         (erx_seq),
    .m_rxd_ack         (erx_ack),
    .ev_rx_frame       (ev_rx_frame),
    .ev_rx_data_frame  (ev_rx_data_frame),
    .ev_drop_fcs       (ev_drop_fcs),
    .ev_drop_type      (ev_drop_type),
    .ev_drop_malformed (ev_drop_malformed),
    .st_idle           (erx_idle),
    .st_wait           (erx_wait)
);

generate
if (LINK_LAYER != 0) begin : g_link_rx
    tg_link_rx #(
        .PEER_BITS (LINK_PEER_BITS),
        .SEQ_W     (LINK_SEQ_W),
        .SLOT_W    (RX_SLOT_W)
    ) tg_link_rx_inst (
        .clk           (clk),
        .rst           (rst),
        .cfg_enable    (link_on_reg),
        .cfg_rx_wait   (cfg_link_rx_wait),
        .s_rxd_valid   (lrx_s_valid),
        .s_rxd_ready   (lrx_s_ready),
        .s_rxd_op      (erx_op),
        .s_rxd_flags   (erx_flags),
        .s_rxd_status  (erx_status),
        .s_rxd_src     (erx_src),
        .s_rxd_addr    (erx_addr),
        .s_rxd_off     (erx_off),
        .s_rxd_cnt     (erx_cnt),
        .s_rxd_len     (erx_len),
        .s_rxd_ctx     (erx_ctx),
        .s_rxd_tag     (erx_tag),
        .s_rxd_key     (erx_key),
        .s_rxd_slot    (erx_slot),
        .s_rxd_seq     (erx_seq),
        .s_rxd_ack     (erx_ack),
        .m_rxd_valid   (lrx_valid),
        .m_rxd_ready   (lrx_ready),
        .m_rxd_op      (lrx_op),
        .m_rxd_flags   (lrx_flags),
        .m_rxd_status  (lrx_status),
        .m_rxd_src     (lrx_src),
        .m_rxd_addr    (lrx_addr),
        .m_rxd_off     (lrx_off),
        .m_rxd_cnt     (lrx_cnt),
        .m_rxd_len     (lrx_len),
        .m_rxd_ctx     (lrx_ctx),
        .m_rxd_tag     (lrx_tag),
        .m_rxd_key     (lrx_key),
        .m_rxd_slot    (lrx_slot),
        .m_rxd_slot_next (lrx_slot_next),
        .m_free_valid  (lrx_free_valid),
        .m_free_slot   (lrx_free_slot),
        .m_lack_valid  (lack_valid),
        .m_lack_nak    (lack_nak),
        .m_lack_peer   (lack_peer),
        .m_lack_seq    (lack_seq),
        .m_lowe_valid  (lowe_valid),
        .m_lowe_peer   (lowe_peer),
        .m_lowe_seq    (lowe_seq),
        .m_rsv_valid   (link_rsv_valid),
        .in_rsv_room   (link_rsv_room),
        .in_rsv_room2  (link_rsv_room2),
        .m_lnak_valid  (lnak_valid),
        .m_lnak_peer   (lnak_peer),
        .m_lnak_seq    (lnak_seq),
        .ev_dup_drop   (ev_link_dup_drop),
        .ev_ooo_drop   (ev_link_ooo_drop),
        .ev_busy_drop  (ev_link_busy_drop),
        .st_idle       (lrx_idle)
    );
end else begin : g_no_link_rx
    // built without the link layer: frames take the direct path only
    assign lrx_s_ready    = 1'b0;
    assign lrx_valid      = 1'b0;
    assign lrx_op         = 8'd0;
    assign lrx_flags      = 8'd0;
    assign lrx_status     = 8'd0;
    assign lrx_src        = 16'd0;
    assign lrx_addr       = 32'd0;
    assign lrx_off        = 6'd0;
    assign lrx_cnt        = 7'd0;
    assign lrx_len        = 8'd0;
    assign lrx_ctx        = 8'd0;
    assign lrx_tag        = 16'd0;
    assign lrx_key        = 64'd0;
    assign lrx_slot       = {RX_SLOT_W{1'b0}};
    assign lrx_slot_next  = {RX_SLOT_W{1'b0}};
    assign lrx_free_valid = 1'b0;
    assign lrx_free_slot  = {RX_SLOT_W{1'b0}};
    assign lack_valid     = 1'b0;
    assign lack_nak       = 1'b0;
    assign lack_peer      = {LINK_PEER_BITS{1'b0}};
    assign lack_seq       = {LINK_SEQ_W{1'b0}};
    assign lowe_valid     = 1'b0;
    assign lowe_peer      = {LINK_PEER_BITS{1'b0}};
    assign lowe_seq       = {LINK_SEQ_W{1'b0}};
    assign link_rsv_valid = 1'b0;
    assign lnak_valid     = 1'b0;
    assign lnak_peer      = {LINK_PEER_BITS{1'b0}};
    assign lnak_seq       = {LINK_SEQ_W{1'b0}};
    assign ev_link_dup_drop  = 1'b0;
    assign ev_link_ooo_drop  = 1'b0;
    assign ev_link_busy_drop = 1'b0;
    assign lrx_idle          = 1'b1;
end
endgenerate

// Without the link layer, frames go from tg_eth_rx straight to the receive
// engine (as if tg_link_rx were not there: no cycle added); ACK and NAK
// frames are taken and ignored.
wire erx_is_link = (erx_op == `TG_OP_ACK) || (erx_op == `TG_OP_NAK);

assign lrx_s_valid = erx_valid && link_on_reg;
assign erx_ready   = link_on_reg ? lrx_s_ready : (erx_is_link || rxd_ready);
assign lrx_ready   = rxd_ready && link_on_reg;
assign rxd_valid   = link_on_reg ? lrx_valid   : (erx_valid && !erx_is_link);
assign rxd_op      = link_on_reg ? lrx_op      : erx_op;
assign rxd_flags   = link_on_reg ? lrx_flags   : erx_flags;
assign rxd_status  = link_on_reg ? lrx_status  : erx_status;
assign rxd_src     = link_on_reg ? lrx_src     : erx_src;
assign rxd_addr    = link_on_reg ? lrx_addr    : erx_addr;
assign rxd_off     = link_on_reg ? lrx_off     : erx_off;
assign rxd_cnt     = link_on_reg ? lrx_cnt     : erx_cnt;
assign rxd_len     = link_on_reg ? lrx_len     : erx_len;
assign rxd_ctx     = link_on_reg ? lrx_ctx     : erx_ctx;
assign rxd_tag     = link_on_reg ? lrx_tag     : erx_tag;
assign rxd_key     = link_on_reg ? lrx_key     : erx_key;
assign rxd_slot    = link_on_reg ? lrx_slot    : erx_slot;
assign rxd_slot_next = link_on_reg ? lrx_slot_next : erx_slot_next;

// a slot is free again once the engine is done with its frame, or when a
// frame is taken without being executed (the link layer dropped it, or
// an ACK or NAK)
assign pay_free0_valid = rxd_valid && rxd_ready;
assign pay_free1_valid = link_on_reg ? lrx_free_valid : (erx_valid && erx_ready && erx_is_link);
assign pay_free1_slot  = link_on_reg ? lrx_free_slot  : erx_slot;

wire         rsp_txd_valid, rsp_txd_ready;
wire [7:0]   rsp_txd_op, rsp_txd_flags, rsp_txd_status, rsp_txd_len, rsp_txd_ctx;

wire         qresp_valid;
wire [15:0]  qresp_src, qresp_tag;
wire [7:0]   qresp_status;
// A REQ's answer goes from the receive engine to the REQ slots through a
// register: the engine decides on a received frame in the same cycle as
// the fetch table's overdue entry, and the slots' answer logic drives the
// request buffer's holds, so a path through both would cross four blocks.
reg          qresp_valid_reg;
reg  [15:0]  qresp_src_reg, qresp_tag_reg;
reg  [7:0]   qresp_status_reg;
always @(posedge clk) begin
    qresp_src_reg    <= qresp_src;
    qresp_tag_reg    <= qresp_tag;
    qresp_status_reg <= qresp_status;
    qresp_valid_reg  <= qresp_valid && !rst;
end
wire [15:0]  rsp_txd_dst, rsp_txd_tag;
wire [31:0]  rsp_txd_addr;
wire [5:0]   rsp_txd_off;
wire [6:0]   rsp_txd_cnt;
wire [1:0]   rsp_txd_pay_src;
wire [PAY_SLOT_W-1:0] rsp_txd_pay_slot;
// the response buffer's allocation, taking and write port (the receive engine)
wire                  rsp_alloc_valid, rsp_take_valid, rsp_we;
wire [PAY_SLOT_W-1:0] rsp_alloc_slot, rsp_wr_slot;
wire [2:0]            rsp_wr_word;
wire [63:0]           rsp_wr_data;

wire         rxe_mem_req_valid, rxe_mem_req_ready, rxe_mem_req_write, rxe_mem_resp_valid;
wire [31:0]  rxe_mem_req_addr;
wire [63:0]  rxe_mem_req_wdata, rxe_mem_resp_rdata;
wire [7:0]   rxe_mem_req_wstrb;

tg_rx_engine #(
    .BLOCK_BYTES (BLOCK_BYTES),
    .SLOT_W      (RX_SLOT_W),
    .PAY_SLOT_W  (PAY_SLOT_W)
) tg_rx_engine_inst (
    .clk                (clk),
    .rst                (rst),
    .cfg_mem_size       (cfg_mem_size),
    .s_rxd_valid        (rxd_valid),
    .s_rxd_ready        (rxd_ready),
    .s_rxd_op           (rxd_op),
    .s_rxd_flags        (rxd_flags),
    .s_rxd_status       (rxd_status),
    .s_rxd_src          (rxd_src),
    .s_rxd_addr         (rxd_addr),
    .s_rxd_off          (rxd_off),
    .s_rxd_cnt          (rxd_cnt),
    .s_rxd_len          (rxd_len),
    .s_rxd_ctx          (rxd_ctx),
    .s_rxd_tag          (rxd_tag),
    .s_rxd_key          (rxd_key),
    .cfg_prot_enable    (cfg_prot_enable),
    .prot_key           (prot_key),
    .prot_hit           (prot_hit),
    .prot_base          (prot_base),
    .prot_end           (prot_end),
    .prot_rights        (prot_rights),
    .st_idle            (rxe_idle),
    .s_rxd_slot_next    (rxd_slot_next),
    .m_pay_rd_slot      (pay_rd_slot),
    .m_pay_rd_word      (pay_rd_word),
    .s_pay_rd_data      (pay_rd_data),
    .m_mem_req_valid    (rxe_mem_req_valid),
    .m_mem_req_ready    (rxe_mem_req_ready),
    .m_mem_req_write    (rxe_mem_req_write),
    .m_mem_req_addr     (rxe_mem_req_addr),
    .m_mem_req_wdata    (rxe_mem_req_wdata),
    .m_mem_req_wstrb    (rxe_mem_req_wstrb),
    .s_mem_resp_valid   (rxe_mem_resp_valid),
    .s_mem_resp_rdata   (rxe_mem_resp_rdata),
    .m_txd_valid        (rsp_txd_valid),
    .m_txd_ready        (rsp_txd_ready),
    .m_txd_op           (rsp_txd_op),
    .m_txd_flags        (rsp_txd_flags),
    .m_txd_status       (rsp_txd_status),
    .m_txd_dst          (rsp_txd_dst),
    .m_txd_addr         (rsp_txd_addr),
    .m_txd_off          (rsp_txd_off),
    .m_txd_cnt          (rsp_txd_cnt),
    .m_txd_len          (rsp_txd_len),
    .m_txd_ctx          (rsp_txd_ctx),
    .m_txd_tag          (rsp_txd_tag),
    .m_txd_pay_src      (rsp_txd_pay_src),
    .m_txd_pay_slot     (rsp_txd_pay_slot),
    .s_rsp_alloc_valid  (rsp_alloc_valid),
    .s_rsp_alloc_slot   (rsp_alloc_slot),
    .m_rsp_take_valid   (rsp_take_valid),
    .m_rsp_we           (rsp_we),
    .m_rsp_wr_slot      (rsp_wr_slot),
    .m_rsp_wr_word      (rsp_wr_word),
    .m_rsp_wr_data      (rsp_wr_data),
    .m_hrd_valid        (rxe_hrd_valid),
    .m_hrd_src          (rxe_hrd_src),
    .m_hrd_tag          (rxe_hrd_tag),
    .m_hrd_status       (rxe_hrd_status),
    .m_hrd_data         (rxe_hrd_data),
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
    .fetch_lookup_off   (fetch_lookup_off),
    .fetch_lookup_cnt   (fetch_lookup_cnt),
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

// ---------------------------------------------------------------- transmit payload buffers
// Three buffers of 2^PAY_SLOT_W slots, one writer each: requests (the host
// port), responses (the receive engine) and REQs read back from the spill
// ring. A descriptor names a buffer and a slot, and tg_eth_tx reads the
// words as it sends them. A slot is held by the wire (released by
// tg_eth_tx once the frame is out, or by tg_link_tx once it is
// acknowledged) and by a REQ's sender (released by tg_req_tx once the REQ
// is answered or has failed); it is free when neither holds it.
wire                  etx_pay_rd_valid, etx_pay_pin_valid, etx_pay_rel_valid;
wire [1:0]            etx_pay_src;
wire [PAY_SLOT_W-1:0] etx_pay_rd_slot;
wire [2:0]            etx_pay_rd_word;
wire                  ltx_pay_rel_valid;
wire [1:0]            ltx_pay_rel_src;
wire [PAY_SLOT_W-1:0] ltx_pay_rel_slot;
wire                  rqt_pay_hold_valid, rqt_pay_rel_valid;
wire [1:0]            rqt_pay_hold_src, rqt_pay_rel_src;
wire [PAY_SLOT_W-1:0] rqt_pay_hold_slot, rqt_pay_rel_slot;
wire [63:0]           rqp_rd_data, rsp_rd_data, spp_rd_data;
wire [(1<<PAY_SLOT_W)-1:0] rqp_wire_held, spp_wire_held;
wire [(2<<PAY_SLOT_W)-1:0] rqp_held;
// the spill ring reads a parked REQ's words through the request buffer's
// read port while tg_eth_tx does not use it, and releases the slot
/* verilator lint_off UNUSEDSIGNAL */ // (the port is the spill ring's whenever it is free)
wire                  spl_pay_rd_valid;
/* verilator lint_on UNUSEDSIGNAL */
wire                  spl_pay_rel_valid;
wire [PAY_SLOT_W-1:0] spl_pay_rd_slot;
wire [2:0]            spl_pay_rd_word;
wire                  etx_reads_rqp    = etx_pay_rd_valid && (etx_pay_src == PAY_REQ);
wire                  spl_pay_rd_grant = !etx_reads_rqp;
wire                  etx_pin_rqp      = etx_pay_pin_valid && (etx_pay_src == PAY_REQ);
wire                  etx_pin_rsp      = etx_pay_pin_valid && (etx_pay_src == PAY_RSP);
wire                  etx_pin_spp      = etx_pay_pin_valid && (etx_pay_src == PAY_SPILL);
wire [63:0]           etx_pay_rd_data  = (etx_pay_src == PAY_REQ) ? rqp_rd_data :
                                         (etx_pay_src == PAY_RSP) ? rsp_rd_data : spp_rd_data;

tg_pay_buf #(
    .SLOTS_LOG2  (PAY_SLOT_W),
    .BLOCK_BYTES (BLOCK_BYTES),
    .HOLDERS     (2),
    .FREE_PORTS  (4)
) tg_req_pay_inst (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (rqp_alloc_valid),
    .m_alloc_slot  (rqp_alloc_slot),
    .s_take_valid  (rqp_take_valid),
    .s_take_slot   (rqp_take_slot),
    .s_take_mask   (rqp_take_mask),
    .s_hold_valid  (rqt_pay_hold_valid && rqt_pay_hold_src == PAY_REQ),
    .s_hold_slot   (rqt_pay_hold_slot),
    .s_hold_mask   (HOLD_WIRE),
    .s_free_valid  ({spl_pay_rel_valid,                                   // 3: the spill ring parked it
                     rqt_pay_rel_valid && rqt_pay_rel_src == PAY_REQ,     // 2: REQ done
                     ltx_pay_rel_valid && ltx_pay_rel_src == PAY_REQ,     // 1: acknowledged
                     etx_pay_rel_valid && etx_pay_src == PAY_REQ}),       // 0: sent
    .s_free_slot   ({spl_pay_rd_slot, rqt_pay_rel_slot, ltx_pay_rel_slot, etx_pay_rd_slot}),
    .s_free_mask   ({HOLD_WIRE | HOLD_REQ, HOLD_REQ, HOLD_WIRE, HOLD_WIRE}),
    .s_pin_valid   (etx_pin_rqp),
    .s_pin_slot    (etx_pay_rd_slot),
    .s_wr_en       (rqp_we),
    .s_wr_slot     (rqp_wr_slot),
    .s_wr_word     (rqp_wr_word),
    .s_wr_data     (rqp_wr_data),
    .s_rd_slot     (etx_reads_rqp ? etx_pay_rd_slot : spl_pay_rd_slot),
    .s_rd_word     (etx_reads_rqp ? etx_pay_rd_word : spl_pay_rd_word),
    .m_rd_data     (rqp_rd_data),
    .st_busy       (rqp_busy),
    .st_held       (rqp_held)
);

assign rqp_wire_held = rqp_held[(1<<PAY_SLOT_W)-1:0];   // (hold 0: the wire)
/* verilator lint_off UNUSEDSIGNAL */ // (the REQ holds are tg_req_tx's own business)
wire [(2<<PAY_SLOT_W)-1:0] unused_rqp_held = rqp_held;
wire [(1<<PAY_SLOT_W)-1:0] unused_rsp_held;
/* verilator lint_on UNUSEDSIGNAL */
wire [(1<<PAY_SLOT_W)-1:0] rqp_busy, rsp_busy;   // slots with a hold

tg_pay_buf #(
    .SLOTS_LOG2  (PAY_SLOT_W),
    .BLOCK_BYTES (BLOCK_BYTES),
    .HOLDERS     (1),
    .FREE_PORTS  (2)
) tg_rsp_pay_inst (
    .clk           (clk),
    .rst           (rst),
    .m_alloc_valid (rsp_alloc_valid),
    .m_alloc_slot  (rsp_alloc_slot),
    .s_take_valid  (rsp_take_valid),
    .s_take_slot   (rsp_wr_slot),
    .s_take_mask   (1'b1),
    .s_hold_valid  (1'b0),
    .s_hold_slot   ({PAY_SLOT_W{1'b0}}),
    .s_hold_mask   (1'b0),
    .s_free_valid  ({ltx_pay_rel_valid && ltx_pay_rel_src == PAY_RSP,     // 1: acknowledged
                     etx_pay_rel_valid && etx_pay_src == PAY_RSP}),       // 0: sent
    .s_free_slot   ({ltx_pay_rel_slot, etx_pay_rd_slot}),
    .s_free_mask   ({1'b1, 1'b1}),
    .s_pin_valid   (etx_pin_rsp),
    .s_pin_slot    (etx_pay_rd_slot),
    .s_wr_en       (rsp_we),
    .s_wr_slot     (rsp_wr_slot),
    .s_wr_word     (rsp_wr_word),
    .s_wr_data     (rsp_wr_data),
    .s_rd_slot     (etx_pay_rd_slot),
    .s_rd_word     (etx_pay_rd_word),
    .m_rd_data     (rsp_rd_data),
    .st_busy       (rsp_busy),
    .st_held       (unused_rsp_held)
);

// ---------------------------------------------------------------- REQ spill ring
wire         spl_txd_valid, spl_txd_ready;
wire [7:0]   spl_txd_op, spl_txd_len, spl_txd_ctx;
wire [15:0]  spl_txd_dst, spl_txd_tag;
wire [63:0]  spl_txd_key;
wire [31:0]  spl_txd_addr;
wire [5:0]   spl_txd_off;
wire [6:0]   spl_txd_cnt;
wire [1:0]   spl_txd_pay_src;
wire [PAY_SLOT_W-1:0] spl_txd_pay_slot;
wire         req_slot_free;

wire         spl_mem_req_valid, spl_mem_req_ready, spl_mem_req_write, spl_mem_resp_valid;
wire [31:0]  spl_mem_req_addr;
wire [63:0]  spl_mem_req_wdata, spl_mem_resp_rdata;
wire [7:0]   spl_mem_req_wstrb;

generate
if (SPILL_RING != 0) begin : g_spill
    wire                  spp_alloc_valid, spp_take_valid, spp_we;
    wire [PAY_SLOT_W-1:0] spp_alloc_slot, spp_take_slot, spp_wr_slot;
    wire [2:0]            spp_wr_word;
    wire [63:0]           spp_wr_data;
    wire [(2<<PAY_SLOT_W)-1:0] spp_held;

    tg_req_spill #(
        .PAY_SLOT_W (PAY_SLOT_W)
    ) tg_req_spill_inst (
        .clk              (clk),
        .rst              (rst),
        .cfg_spill_base   (cfg_spill_base),
        .cfg_spill_log2   (cfg_spill_log2),
        .st_spill_count   (st_spill_count),
        .s_txd_valid      (loc_txd_valid),
        .s_txd_ready      (loc_txd_ready),
        .s_txd_op         (loc_txd_op),
        .s_txd_dst        (loc_txd_dst),
        .s_txd_addr       (loc_txd_addr),
        .s_txd_off        (loc_txd_off),
        .s_txd_cnt        (loc_txd_cnt),
        .s_txd_len        (loc_txd_len),
        .s_txd_ctx        (loc_txd_ctx),
        .s_txd_tag        (loc_txd_tag),
        .s_txd_key        (loc_txd_key),
        .s_txd_pay_src    (loc_txd_pay_src),
        .s_txd_pay_slot   (loc_txd_pay_slot),
        .m_txd_valid      (spl_txd_valid),
        .m_txd_ready      (spl_txd_ready),
        .m_txd_op         (spl_txd_op),
        .m_txd_dst        (spl_txd_dst),
        .m_txd_addr       (spl_txd_addr),
        .m_txd_off        (spl_txd_off),
        .m_txd_cnt        (spl_txd_cnt),
        .m_txd_len        (spl_txd_len),
        .m_txd_ctx        (spl_txd_ctx),
        .m_txd_tag        (spl_txd_tag),
        .m_txd_key        (spl_txd_key),
        .m_txd_pay_src    (spl_txd_pay_src),
        .m_txd_pay_slot   (spl_txd_pay_slot),
        .in_req_slot_free (req_slot_free),
        .m_pay_rd_valid   (spl_pay_rd_valid),
        .in_pay_rd_grant  (spl_pay_rd_grant),
        .m_pay_rd_slot    (spl_pay_rd_slot),
        .m_pay_rd_word    (spl_pay_rd_word),
        .s_pay_rd_data    (rqp_rd_data),
        .m_pay_rel_valid  (spl_pay_rel_valid),
        .s_spl_alloc_valid (spp_alloc_valid),
        .s_spl_alloc_slot (spp_alloc_slot),
        .m_spl_take_valid (spp_take_valid),
        .m_spl_take_slot  (spp_take_slot),
        .m_spl_we         (spp_we),
        .m_spl_wr_slot    (spp_wr_slot),
        .m_spl_wr_word    (spp_wr_word),
        .m_spl_wr_data    (spp_wr_data),
        .m_mem_req_valid  (spl_mem_req_valid),
        .m_mem_req_ready  (spl_mem_req_ready),
        .m_mem_req_write  (spl_mem_req_write),
        .m_mem_req_addr   (spl_mem_req_addr),
        .m_mem_req_wdata  (spl_mem_req_wdata),
        .m_mem_req_wstrb  (spl_mem_req_wstrb),
        .s_mem_resp_valid (spl_mem_resp_valid),
        .s_mem_resp_rdata (spl_mem_resp_rdata),
        .ev_spill         (ev_spill),
        .st_idle          (spl_st_idle)
    );

    tg_pay_buf #(
        .SLOTS_LOG2  (PAY_SLOT_W),
        .BLOCK_BYTES (BLOCK_BYTES),
        .HOLDERS     (2),
        .FREE_PORTS  (3)
    ) tg_spill_pay_inst (
        .clk           (clk),
        .rst           (rst),
        .m_alloc_valid (spp_alloc_valid),
        .m_alloc_slot  (spp_alloc_slot),
        .s_take_valid  (spp_take_valid),
        .s_take_slot   (spp_take_slot),
        .s_take_mask   (HOLD_WIRE | HOLD_REQ),
        .s_hold_valid  (rqt_pay_hold_valid && rqt_pay_hold_src == PAY_SPILL),
        .s_hold_slot   (rqt_pay_hold_slot),
        .s_hold_mask   (HOLD_WIRE),
        .s_free_valid  ({rqt_pay_rel_valid && rqt_pay_rel_src == PAY_SPILL,   // 2: REQ done
                         ltx_pay_rel_valid && ltx_pay_rel_src == PAY_SPILL,   // 1: acknowledged
                         etx_pay_rel_valid && etx_pay_src == PAY_SPILL}),     // 0: sent
        .s_free_slot   ({rqt_pay_rel_slot, ltx_pay_rel_slot, etx_pay_rd_slot}),
        .s_free_mask   ({HOLD_REQ, HOLD_WIRE, HOLD_WIRE}),
        .s_pin_valid   (etx_pin_spp),
        .s_pin_slot    (etx_pay_rd_slot),
        .s_wr_en       (spp_we),
        .s_wr_slot     (spp_wr_slot),
        .s_wr_word     (spp_wr_word),
        .s_wr_data     (spp_wr_data),
        .s_rd_slot     (etx_pay_rd_slot),
        .s_rd_word     (etx_pay_rd_word),
        .m_rd_data     (spp_rd_data),
        .st_busy       (spp_busy),
        .st_held       (spp_held)
    );

    assign spp_wire_held = spp_held[(1<<PAY_SLOT_W)-1:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [(2<<PAY_SLOT_W)-1:0] unused_spp_held = spp_held;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [(1<<PAY_SLOT_W)-1:0] spp_busy;
    wire                       spl_st_idle;
    assign spl_idle = spl_st_idle && (spp_busy == {(1<<PAY_SLOT_W){1'b0}});
end else begin : g_no_spill
    // REQs and other requests go straight to the sender, which holds a REQ
    // at the host port until a slot is free
    assign spl_txd_valid     = loc_txd_valid;
    assign loc_txd_ready     = spl_txd_ready;
    assign spl_txd_op        = loc_txd_op;
    assign spl_txd_dst       = loc_txd_dst;
    assign spl_txd_addr      = loc_txd_addr;
    assign spl_txd_off       = loc_txd_off;
    assign spl_txd_cnt       = loc_txd_cnt;
    assign spl_txd_len       = loc_txd_len;
    assign spl_txd_ctx       = loc_txd_ctx;
    assign spl_txd_tag       = loc_txd_tag;
    assign spl_txd_key       = loc_txd_key;
    assign spl_txd_pay_src   = loc_txd_pay_src;
    assign spl_txd_pay_slot  = loc_txd_pay_slot;
    assign spl_pay_rd_valid  = 1'b0;
    assign spl_pay_rd_slot   = {PAY_SLOT_W{1'b0}};
    assign spl_pay_rd_word   = 3'd0;
    assign spl_pay_rel_valid = 1'b0;
    assign spp_rd_data       = 64'd0;
    assign spp_wire_held     = {(1<<PAY_SLOT_W){1'b0}};
    assign st_spill_count    = 32'd0;
    assign ev_spill          = 1'b0;
    assign spl_idle          = 1'b1;
    assign spl_mem_req_valid = 1'b0;
    assign spl_mem_req_write = 1'b0;
    assign spl_mem_req_addr  = 32'd0;
    assign spl_mem_req_wdata = 64'd0;
    assign spl_mem_req_wstrb = 8'd0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_spill = &{1'b0, req_slot_free, cfg_spill_base, cfg_spill_log2,
                          spl_mem_req_ready, spl_mem_resp_valid, spl_mem_resp_rdata,
                          spl_pay_rd_grant, etx_pin_spp};
    /* verilator lint_on UNUSEDSIGNAL */
end
endgenerate

// ---------------------------------------------------------------- host memory
tg_mem_arb tg_mem_arb_inst (
    .clk               (clk),
    .rst               (rst),
    .s0_mem_req_valid  (rxe_mem_req_valid),
    .s0_mem_req_ready  (rxe_mem_req_ready),
    .s0_mem_req_write  (rxe_mem_req_write),
    .s0_mem_req_addr   (rxe_mem_req_addr),
    .s0_mem_req_wdata  (rxe_mem_req_wdata),
    .s0_mem_req_wstrb  (rxe_mem_req_wstrb),
    .m0_mem_resp_valid (rxe_mem_resp_valid),
    .m0_mem_resp_rdata (rxe_mem_resp_rdata),
    .s1_mem_req_valid  (spl_mem_req_valid),
    .s1_mem_req_ready  (spl_mem_req_ready),
    .s1_mem_req_write  (spl_mem_req_write),
    .s1_mem_req_addr   (spl_mem_req_addr),
    .s1_mem_req_wdata  (spl_mem_req_wdata),
    .s1_mem_req_wstrb  (spl_mem_req_wstrb),
    .m1_mem_resp_valid (spl_mem_resp_valid),
    .m1_mem_resp_rdata (spl_mem_resp_rdata),
    .m_mem_req_valid   (mq_valid),
    .m_mem_req_ready   (mq_ready),
    .m_mem_req_write   (mq_write),
    .m_mem_req_addr    (mq_addr),
    .m_mem_req_wdata   (mq_wdata),
    .m_mem_req_wstrb   (mq_wstrb),
    .s_mem_resp_valid  (mr_valid_reg),
    .s_mem_resp_rdata  (mr_rdata_reg),
    .st_idle           (arb_idle)
);

// ---------------------------------------------------------------- REQ sender
wire         req_txd_valid, req_txd_ready;
wire [7:0]   req_txd_op, req_txd_flags, req_txd_len, req_txd_ctx;
wire [15:0]  req_txd_dst, req_txd_tag;
wire [63:0]  req_txd_key;
wire [31:0]  req_txd_addr;
wire [5:0]   req_txd_off;
wire [6:0]   req_txd_cnt;
wire [1:0]   req_txd_pay_src;
wire [PAY_SLOT_W-1:0] req_txd_pay_slot;

tg_req_tx #(
    .MAX_REQS   (MAX_REQS),
    .PAY_SLOT_W (PAY_SLOT_W)
) tg_req_tx_inst (
    .clk            (clk),
    .rst            (rst),
    .cfg_backoff    (cfg_req_backoff),
    .cfg_timeout    (cfg_read_timeout),
    .s_txd_valid    (spl_txd_valid),
    .s_txd_ready    (spl_txd_ready),
    .s_txd_op       (spl_txd_op),
    .s_txd_dst      (spl_txd_dst),
    .s_txd_addr     (spl_txd_addr),
    .s_txd_off      (spl_txd_off),
    .s_txd_cnt      (spl_txd_cnt),
    .s_txd_len      (spl_txd_len),
    .s_txd_ctx      (spl_txd_ctx),
    .s_txd_tag      (spl_txd_tag),
    .s_txd_key      (spl_txd_key),
    .s_txd_pay_src  (spl_txd_pay_src),
    .s_txd_pay_slot (spl_txd_pay_slot),
    .m_txd_valid    (req_txd_valid),
    .m_txd_ready    (req_txd_ready),
    .m_txd_op       (req_txd_op),
    .m_txd_flags    (req_txd_flags),
    .m_txd_dst      (req_txd_dst),
    .m_txd_addr     (req_txd_addr),
    .m_txd_off      (req_txd_off),
    .m_txd_cnt      (req_txd_cnt),
    .m_txd_len      (req_txd_len),
    .m_txd_ctx      (req_txd_ctx),
    .m_txd_tag      (req_txd_tag),
    .m_txd_key      (req_txd_key),
    .m_txd_pay_src  (req_txd_pay_src),
    .m_txd_pay_slot (req_txd_pay_slot),
    .in_req_wire_held   (rqp_wire_held),
    .in_spill_wire_held (spp_wire_held),
    .m_pay_hold_valid (rqt_pay_hold_valid),
    .m_pay_hold_src   (rqt_pay_hold_src),
    .m_pay_hold_slot  (rqt_pay_hold_slot),
    .m_pay_rel_valid  (rqt_pay_rel_valid),
    .m_pay_rel_src    (rqt_pay_rel_src),
    .m_pay_rel_slot   (rqt_pay_rel_slot),
    .s_qresp_valid  (qresp_valid_reg),
    .s_qresp_src    (qresp_src_reg),
    .s_qresp_tag    (qresp_tag_reg),
    .s_qresp_status (qresp_status_reg),
    .m_done_valid   (reqdone_valid),
    .m_done_ctx     (reqdone_ctx),
    .m_done_tag     (reqdone_num),
    .m_done_status  (reqdone_status),
    .st_slot_free   (req_slot_free),
    .st_idle        (rqt_idle),
    .ev_req_retry   (ev_req_retry),
    .ev_req_stray   (ev_req_stray)
);

// ---------------------------------------------------------------- transmit path
// Two paths to tg_eth_tx, one in use at a time. Without the link layer,
// tg_tx_arb picks responses first, and a descriptor goes out in the cycle
// it is offered. With it, tg_link_tx takes responses and requests on
// separate ports (a request waiting for a retransmission slot must not hold
// up the responses that free slots), numbers them and keeps them for
// retransmission.
localparam TXD_W = `TG_DESC_BITS + 2 + PAY_SLOT_W;   // header fields, payload buffer and slot

wire             arb_s0_valid, arb_s0_ready, arb_s1_valid, arb_s1_ready;
wire             arb_valid, arb_ready;
wire [TXD_W-1:0] arb_data;

assign arb_s0_valid = rsp_txd_valid && !link_on_reg;
assign arb_s1_valid = req_txd_valid && !link_on_reg;

tg_tx_arb #(
    .DATA_W (TXD_W)
) tg_tx_arb_inst (
    .clk      (clk),
    .rst      (rst),
    .s0_valid (arb_s0_valid),
    .s0_ready (arb_s0_ready),
    .s0_data  ({rsp_txd_op, rsp_txd_flags, rsp_txd_status, rsp_txd_dst, rsp_txd_addr,
                rsp_txd_off, rsp_txd_cnt, rsp_txd_len, rsp_txd_ctx, rsp_txd_tag, 64'd0, rsp_txd_pay_src,
                rsp_txd_pay_slot}),
    .s1_valid (arb_s1_valid),
    .s1_ready (arb_s1_ready),
    .s1_data  ({req_txd_op, req_txd_flags, 8'd0, req_txd_dst, req_txd_addr,
                req_txd_off, req_txd_cnt, req_txd_len, req_txd_ctx, req_txd_tag, req_txd_key, req_txd_pay_src,
                req_txd_pay_slot}),
    .m_valid  (arb_valid),
    .m_ready  (arb_ready),
    .m_data   (arb_data)
);

wire         ltx_rsp_valid, ltx_rsp_ready, ltx_req_valid, ltx_req_ready;
wire         ltx_busy;
wire         ltx_valid, ltx_ready;
wire [7:0]   ltx_op, ltx_flags, ltx_status, ltx_len, ltx_ctx;
wire [15:0]  ltx_dst, ltx_tag;
wire [31:0]  ltx_addr, ltx_seq, ltx_ack;
wire [63:0]  ltx_key;
wire [5:0]   ltx_off;
wire [6:0]   ltx_cnt;
wire [1:0]   ltx_pay_src;
wire [PAY_SLOT_W-1:0] ltx_pay_slot;
wire         ltx_pay_rel;

assign ltx_rsp_valid = rsp_txd_valid && link_on_reg;
assign ltx_req_valid = req_txd_valid && link_on_reg;
assign rsp_txd_ready = link_on_reg ? ltx_rsp_ready : arb_s0_ready;
assign req_txd_ready = link_on_reg ? ltx_req_ready : arb_s1_ready;

generate
if (LINK_LAYER != 0) begin : g_link_tx
    tg_link_tx #(
        .PEER_BITS  (LINK_PEER_BITS),
        .SEQ_W      (LINK_SEQ_W),
        .SLOTS_LOG2 (LINK_SLOTS_LOG2),
        .PAY_SLOT_W (PAY_SLOT_W)
    ) tg_link_tx_inst (
        .clk             (clk),
        .rst             (rst),
        .cfg_enable      (link_on_reg),
        .cfg_rto         (cfg_link_rto),
        .cfg_max_retries (cfg_link_max_retries),
        .cfg_ack_delay   (cfg_link_ack_delay),
        .cfg_gone_clear  (cfg_link_gone_clear),
        .in_skip         (ff_skip),
        .s_rsv_valid     (link_rsv_valid),
        .st_rsv_room     (link_rsv_room),
        .st_rsv_room2    (link_rsv_room2),
        .st_gone_any     (st_link_gone_any),
        .st_gone_peer    (st_link_gone_peer),
        .st_busy         (ltx_busy),
        .s_rsp_txd_valid   (ltx_rsp_valid),
        .s_rsp_txd_ready   (ltx_rsp_ready),
        .s_rsp_txd_op      (rsp_txd_op),
        .s_rsp_txd_flags   (rsp_txd_flags),
        .s_rsp_txd_status  (rsp_txd_status),
        .s_rsp_txd_dst     (rsp_txd_dst),
        .s_rsp_txd_addr    (rsp_txd_addr),
        .s_rsp_txd_off     (rsp_txd_off),
        .s_rsp_txd_cnt     (rsp_txd_cnt),
        .s_rsp_txd_len     (rsp_txd_len),
        .s_rsp_txd_ctx     (rsp_txd_ctx),
        .s_rsp_txd_tag     (rsp_txd_tag),
        .s_rsp_txd_key     (64'd0),
        .s_rsp_txd_pay_src  (rsp_txd_pay_src),
        .s_rsp_txd_pay_slot (rsp_txd_pay_slot),
        .s_req_txd_valid   (ltx_req_valid),
        .s_req_txd_ready   (ltx_req_ready),
        .s_req_txd_op      (req_txd_op),
        .s_req_txd_flags   (req_txd_flags),
        .s_req_txd_status  (8'd0),
        .s_req_txd_dst     (req_txd_dst),
        .s_req_txd_addr    (req_txd_addr),
        .s_req_txd_off     (req_txd_off),
        .s_req_txd_cnt     (req_txd_cnt),
        .s_req_txd_len     (req_txd_len),
        .s_req_txd_ctx     (req_txd_ctx),
        .s_req_txd_tag     (req_txd_tag),
        .s_req_txd_key     (req_txd_key),
        .s_req_txd_pay_src  (req_txd_pay_src),
        .s_req_txd_pay_slot (req_txd_pay_slot),
        .m_txd_valid     (ltx_valid),
        .m_txd_ready     (ltx_ready),
        .m_txd_op        (ltx_op),
        .m_txd_flags     (ltx_flags),
        .m_txd_status    (ltx_status),
        .m_txd_dst       (ltx_dst),
        .m_txd_addr      (ltx_addr),
        .m_txd_off       (ltx_off),
        .m_txd_cnt       (ltx_cnt),
        .m_txd_len       (ltx_len),
        .m_txd_ctx       (ltx_ctx),
        .m_txd_tag       (ltx_tag),
        .m_txd_key       (ltx_key),
        .m_txd_pay_src   (ltx_pay_src),
        .m_txd_pay_slot  (ltx_pay_slot),
        .m_txd_pay_rel   (ltx_pay_rel),
        .m_pay_rel_valid (ltx_pay_rel_valid),
        .m_pay_rel_src   (ltx_pay_rel_src),
        .m_pay_rel_slot  (ltx_pay_rel_slot),
        .m_txd_seq       (ltx_seq),
        .m_txd_ack       (ltx_ack),
        .s_lack_valid    (lack_valid),
        .s_lack_nak      (lack_nak),
        .s_lack_peer     (lack_peer),
        .s_lack_seq      (lack_seq),
        .s_lowe_valid    (lowe_valid),
        .s_lowe_peer     (lowe_peer),
        .s_lowe_seq      (lowe_seq),
        .s_lnak_valid    (lnak_valid),
        .s_lnak_peer     (lnak_peer),
        .s_lnak_seq      (lnak_seq),
        .ev_retx         (ev_link_retx),
        .ev_nak_sent     (ev_link_nak_sent),
        .ev_ack_sent     (ev_link_ack_sent),
        .ev_gone_drop    (ev_link_gone_drop),
        .st_idle         (ltx_idle)
    );
end else begin : g_no_link_tx
    assign ltx_rsp_ready     = 1'b0;
    assign ltx_req_ready     = 1'b0;
    assign link_rsv_room     = 1'b0;
    assign link_rsv_room2    = 1'b0;
    assign st_link_gone_any  = 1'b0;
    assign st_link_gone_peer = 16'd0;
    assign ltx_busy          = 1'b0;
    assign ltx_valid         = 1'b0;
    assign ltx_op            = 8'd0;
    assign ltx_flags         = 8'd0;
    assign ltx_status        = 8'd0;
    assign ltx_dst           = 16'd0;
    assign ltx_addr          = 32'd0;
    assign ltx_off           = 6'd0;
    assign ltx_cnt           = 7'd0;
    assign ltx_len           = 8'd0;
    assign ltx_ctx           = 8'd0;
    assign ltx_tag           = 16'd0;
    assign ltx_key           = 64'd0;
    assign ltx_pay_src       = PAY_NONE;
    assign ltx_pay_slot      = {PAY_SLOT_W{1'b0}};
    assign ltx_pay_rel       = 1'b0;
    assign ltx_pay_rel_valid = 1'b0;
    assign ltx_pay_rel_src   = PAY_NONE;
    assign ltx_pay_rel_slot  = {PAY_SLOT_W{1'b0}};
    assign ltx_seq           = 32'd0;
    assign ltx_ack           = 32'd0;
    assign ev_link_retx      = 1'b0;
    assign ev_link_nak_sent  = 1'b0;
    assign ev_link_ack_sent  = 1'b0;
    assign ev_link_gone_drop = 1'b0;
    assign ltx_idle          = 1'b1;
    // what only the link layer would read
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_link = &{1'b0, cfg_link_rto, cfg_link_max_retries, cfg_link_ack_delay,
                         cfg_link_rx_wait, cfg_link_gone_clear, erx_seq, erx_ack,
                         lack_valid, lack_nak, lack_peer, lack_seq, lowe_valid, lowe_peer,
                         lowe_seq, lnak_valid, lnak_peer, lnak_seq, link_rsv_valid,
                         link_rsv_room, link_rsv_room2, lrx_s_valid, lrx_ready,
                         ltx_rsp_valid, ltx_req_valid, ltx_ready};
    /* verilator lint_on UNUSEDSIGNAL */
end
endgenerate

wire [7:0]   arb_op, arb_flags, arb_status, arb_len, arb_ctx;
wire [15:0]  arb_dst, arb_tag;
wire [31:0]  arb_addr;
wire [63:0]  arb_key;
wire [5:0]   arb_off;
wire [6:0]   arb_cnt;
wire [1:0]   arb_pay_src;
wire [PAY_SLOT_W-1:0] arb_pay_slot;

assign {arb_op, arb_flags, arb_status, arb_dst, arb_addr, arb_off, arb_cnt,
        arb_len, arb_ctx, arb_tag, arb_key, arb_pay_src, arb_pay_slot} = arb_data;

wire         etx_valid   = link_on_reg ? ltx_valid   : arb_valid;
wire         etx_ready;
wire [7:0]   etx_op      = link_on_reg ? ltx_op      : arb_op;
wire [7:0]   etx_flags   = link_on_reg ? ltx_flags   : arb_flags;
wire [7:0]   etx_status  = link_on_reg ? ltx_status  : arb_status;
wire [15:0]  etx_dst     = link_on_reg ? ltx_dst     : arb_dst;
wire [31:0]  etx_addr    = link_on_reg ? ltx_addr    : arb_addr;
wire [5:0]   etx_off     = link_on_reg ? ltx_off     : arb_off;
wire [6:0]   etx_cnt     = link_on_reg ? ltx_cnt     : arb_cnt;
wire [7:0]   etx_len     = link_on_reg ? ltx_len     : arb_len;
wire [7:0]   etx_ctx     = link_on_reg ? ltx_ctx     : arb_ctx;
wire [15:0]  etx_tag     = link_on_reg ? ltx_tag     : arb_tag;
wire [63:0]  etx_key     = link_on_reg ? ltx_key     : arb_key;
wire [1:0]   etx_src     = link_on_reg ? ltx_pay_src : arb_pay_src;
wire [PAY_SLOT_W-1:0] etx_slot = link_on_reg ? ltx_pay_slot : arb_pay_slot;
wire         etx_rel     = link_on_reg ? ltx_pay_rel : 1'b1;   // (without it, nothing is kept)
wire [31:0]  etx_seq     = link_on_reg ? ltx_seq     : 32'd0;
wire [31:0]  etx_ack     = link_on_reg ? ltx_ack     : 32'd0;

assign ltx_ready = etx_ready && link_on_reg;
assign arb_ready = etx_ready && !link_on_reg;

// The path changes with LINK_CFG.enable only in a cycle when neither path
// holds a frame, so no frame is lost or sent twice by the change.
wire link_quiet = !erx_valid && !lrx_valid && !rsp_txd_valid && !req_txd_valid &&
                  !arb_valid && !ltx_busy;

always @* begin
    link_on_next = link_on_reg;
    if (link_quiet) begin
        link_on_next = cfg_link_enable && (LINK_LAYER != 0);
    end
end

always @(posedge clk) begin
    link_on_reg <= link_on_next;
    if (rst) begin
        link_on_reg <= 1'b0;
    end
end

tg_eth_tx #(
    .PAY_SLOT_W (PAY_SLOT_W)
) tg_eth_tx_inst (
    .clk              (clk),
    .rst              (rst),
    .cfg_node_id      (node_id_reg),
    .s_txd_valid      (etx_valid),
    .s_txd_ready      (etx_ready),
    .s_txd_op         (etx_op),
    .s_txd_flags      (etx_flags),
    .s_txd_status     (etx_status),
    .s_txd_dst        (etx_dst),
    .s_txd_addr       (etx_addr),
    .s_txd_off        (etx_off),
    .s_txd_cnt        (etx_cnt),
    .s_txd_len        (etx_len),
    .s_txd_ctx        (etx_ctx),
    .s_txd_tag        (etx_tag),
    .s_txd_key        (etx_key),
    .s_txd_pay_src    (etx_src),
    .s_txd_pay_slot   (etx_slot),
    .s_txd_pay_rel    (etx_rel),
    .s_txd_seq        (etx_seq),
    .s_txd_ack        (etx_ack),
    .m_pay_rd_valid   (etx_pay_rd_valid),
    .m_pay_src        (etx_pay_src),
    .m_pay_rd_slot    (etx_pay_rd_slot),
    .m_pay_rd_word    (etx_pay_rd_word),
    .s_pay_rd_data    (etx_pay_rd_data),
    .m_pay_pin_valid  (etx_pay_pin_valid),
    .m_pay_rel_valid  (etx_pay_rel_valid),
    .m_axis_tx_tdata  (tx_tdata),
    .m_axis_tx_tkeep  (tx_tkeep),
    .m_axis_tx_tvalid (tx_tvalid),
    .m_axis_tx_tready (tx_tready),
    .m_axis_tx_tlast  (tx_tlast),
    .ev_tx_start      (ev_tx_start),
    .ev_tx_data_start (ev_tx_data_start),
    .ev_tx_frame      (ev_tx_frame),
    .st_idle          (etx_idle)
);

// ---------------------------------------------------------------- fast-forward
// What ff_idle and ff_wait both ask, away from the network port: the host
// and memory slices and the receive slice empty, no memory or queue answer
// held, every block but tg_eth_rx and tg_eth_tx idle, the link-layer path
// settled on its setting.
wire ff_core_idle = hq_idle && hr_idle && mq_idle && rxs_idle && !mr_valid_reg &&
                    !qresp_valid_reg && !hrd_valid &&
                    hif_idle && prot_idle && rxe_idle && lrx_idle && ltx_idle && spl_idle &&
                    arb_idle && rqt_idle &&
                    (link_on_reg == (cfg_link_enable && (LINK_LAYER != 0)));
// Idle: every block between operations with no timer running, every port
// slice empty, no payload slot held, the link-layer path settled on its
// setting. With quiet ports (no request, frame or memory answer coming
// in) every register then keeps its value from one cycle to the next,
// except free-running counts: the cycle counter (tg_csr) and tg_link_tx's
// clock and timer scan, which ff_skip advances, and tg_link_rx's claim
// age, which is read only while a slot is claimed (not idle), and the
// counts of the tg_timeout blocks, which are only compared with deadlines
// loaded from them after the idle time.
// (made of registers only: read after an edge, it describes the state the
// next edge starts from)
assign ff_idle = ff_core_idle && txs_idle && erx_idle && etx_idle &&
                 (pay_busy == {(1<<RX_SLOT_W){1'b0}}) && (rqp_busy == {(1<<PAY_SLOT_W){1'b0}}) &&
                 (rsp_busy == {(1<<PAY_SLOT_W){1'b0}});
// Waiting at the network port: the same, but tg_eth_rx may be between a
// frame's beats, the transmit slice may hold beats, and tg_eth_tx may hold
// a frame whose next beat cannot move (the slice not ready), with the
// payload slots they hold. No other block holds a slot, so none is taken
// or released. With no beat coming in and m_axis_tx_tready low, the
// receive slice stays empty and the transmit slice keeps its beats. In the
// first such cycle after a beat moved, tg_eth_tx still takes the payload
// word of the beat now on offer into its register and reads the next one
// (as after a frame's last beat under ff_idle); after it every register
// keeps its value but the free-running counts, so that one edge makes up
// any number of such cycles. (ff_idle implies ff_wait.)
assign ff_wait = ff_core_idle && erx_wait &&
                 (etx_idle ? (txs_idle || m_axis_tx_tvalid) : !tx_tready);

// the cycle counter is read through the CSR page; the timestamps follow
// data frames only, not every frame's start
/* verilator lint_off UNUSEDSIGNAL */
wire [63:0] unused_cycles = cycles;
wire        unused_tx_start = ev_tx_start;
/* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
