// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the byte-serial node's CSR page: tg_csr8 beside tg_csr
// built for a node without spill ring and link layer, with 16 contexts,
// given the same register accesses and events. tg_csr8's accesses to the contexts'
// copies (csr_copy) do not reach tg_csr.
`default_nettype none

module tb_csr8_pair (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] cfg_node_id,
    input  wire [11:0] csr_addr,
    input  wire        csr_rd_en,
    input  wire        csr_wr_en,
    input  wire [63:0] csr_wdata,
    input  wire        csr_copy,
    input  wire [5:0]  csr_copy_idx,
    input  wire        qt_hit,
    input  wire [63:0] qt_rdata,
    input  wire [13:0] ev_cnt,      // the counted events, in tg_csr8's order (13: tg_csr8's alone)
    input  wire [5:0]  ev_ts,       // the timestamped events
    output wire [63:0] ref_rdata,   // tg_csr: in the cycle of the read
    output wire [63:0] dut_rdata,   // tg_csr8: the cycle after
    output wire [31:0] ref_mem_size,
    output wire [31:0] dut_mem_size,
    output wire [31:0] ref_read_timeout,
    output wire [31:0] dut_read_timeout,
    output wire [31:0] ref_req_backoff,
    output wire [31:0] dut_req_backoff,
    output wire [63:0] ref_cycles,
    output wire [63:0] dut_cycles
);

tg_csr #(
    .NUM_CTX     (16),
    .MAX_READS   (1),
    .NUM_QUEUES  (1),
    .BLOCK_BYTES (16),
    .SPILL_RING  (0),
    .LINK_LAYER  (0),
    .CNT_W       (16)
) tg_csr_inst (
    .clk                  (clk),
    .rst                  (rst),
    .cfg_node_id          (cfg_node_id),
    .csr_addr             (csr_addr),
    .csr_rdata            (ref_rdata),
    .csr_wr_en            (csr_wr_en && !csr_copy),
    .csr_wdata            (csr_wdata),
    .qt_hit               (qt_hit),
    .qt_rdata             (qt_rdata),
    .cfg_mem_size         (ref_mem_size),
    .cfg_read_timeout     (ref_read_timeout),
    .cfg_req_backoff      (ref_req_backoff),
    .cfg_spill_base       (),
    .cfg_spill_log2       (),
    .st_spill_count       (32'd0),
    .cycles               (ref_cycles),
    .cfg_link_enable      (),
    .cfg_link_rto         (),
    .cfg_link_max_retries (),
    .cfg_link_ack_delay   (),
    .cfg_link_rx_wait     (),
    .cfg_link_gone_clear  (),
    .st_link_on           (1'b0),
    .st_link_gone_any     (1'b0),
    .st_link_gone_peer    (16'd0),
    .ev_tx_frame          (ev_cnt[0]),
    .ev_rx_frame          (ev_cnt[1]),
    .ev_drop_fcs          (ev_cnt[2]),
    .ev_drop_type         (ev_cnt[3]),
    .ev_drop_malformed    (ev_cnt[4]),
    .ev_refused           (ev_cnt[5]),
    .ev_host_error        (ev_cnt[6]),
    .ev_stray             (ev_cnt[7]),
    .ev_req_accepted      (ev_cnt[8]),
    .ev_req_refused       (ev_cnt[9]),
    .ev_req_retry         (ev_cnt[10]),
    .ev_atomic            (ev_cnt[11]),
    .ev_prot_refused      (ev_cnt[12]),
    .ev_host_req          (ev_ts[0]),
    .ev_tx_start          (ev_ts[1]),
    .ev_rx_end            (ev_ts[2]),
    .ev_rx_done           (ev_ts[3]),
    .ev_host_resp         (ev_ts[4]),
    .ev_enq_done          (ev_ts[5]),
    .ev_spill             (1'b0),
    .ev_link_retx         (1'b0),
    .ev_link_dup_drop     (1'b0),
    .ev_link_ooo_drop     (1'b0),
    .ev_link_busy_drop    (1'b0),
    .ev_link_nak_sent     (1'b0),
    .ev_link_ack_sent     (1'b0),
    .ev_link_gone_drop    (1'b0)
);

tg_csr8 #(
    .NUM_CTX     (16),
    .MAX_READS   (1),
    .NUM_QUEUES  (1),
    .BLOCK_BYTES (16),
    .CNT_W       (16)
) tg_csr8_inst (
    .clk               (clk),
    .rst               (rst),
    .cfg_node_id       (cfg_node_id),
    .csr_addr          (csr_addr),
    .csr_rd_en         (csr_rd_en),
    .csr_rdata         (dut_rdata),
    .csr_wr_en         (csr_wr_en),
    .csr_wdata         (csr_wdata),
    .csr_copy          (csr_copy),
    .csr_copy_idx      (csr_copy_idx),
    .qt_hit            (qt_hit),
    .qt_rdata          (qt_rdata),
    .cfg_mem_size      (dut_mem_size),
    .cfg_read_timeout  (dut_read_timeout),
    .cfg_req_backoff   (dut_req_backoff),
    .cycles            (dut_cycles),
    .ev_tx_frame       (ev_cnt[0]),
    .ev_rx_frame       (ev_cnt[1]),
    .ev_drop_fcs       (ev_cnt[2]),
    .ev_drop_type      (ev_cnt[3]),
    .ev_drop_malformed (ev_cnt[4]),
    .ev_refused        (ev_cnt[5]),
    .ev_host_error     (ev_cnt[6]),
    .ev_stray          (ev_cnt[7]),
    .ev_req_accepted   (ev_cnt[8]),
    .ev_req_refused    (ev_cnt[9]),
    .ev_req_retry      (ev_cnt[10]),
    .ev_atomic         (ev_cnt[11]),
    .ev_prot_refused   (ev_cnt[12]),
    .ev_drop_busy      (ev_cnt[13]),
    .ev_host_req       (ev_ts[0]),
    .ev_tx_start       (ev_ts[1]),
    .ev_rx_end         (ev_ts[2]),
    .ev_rx_done        (ev_ts[3]),
    .ev_host_resp      (ev_ts[4]),
    .ev_enq_done       (ev_ts[5])
);

endmodule

`default_nettype wire
