// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// FPGA node for small parts: the byte-serial NIC core (tg_nic8) on one
// GMII port through the byte-serial MAC, the memory-bus bridge on the
// other, and the NIC's host memory in block RAM, all in the GMII transmit
// clock. The ports are tg_fpga_node's, without the core clock.
`default_nettype none

module tg_fpga_node8 #(
    parameter        NUM_CTX      = 1,  // NIC process contexts (1..16)
    parameter        MAX_READS    = 0,  // NIC fetches in flight (0..16; 0: none)
    parameter        CNT_W        = 16, // NIC event counter width (16..64)
    parameter        NUM_QUEUES   = 1,  // NIC queue-table entries (1..16)
    parameter        MAX_REQS     = 1,  // NIC REQs awaiting an answer (1..16)
    parameter        NUM_REGIONS  = 0,  // NIC region-table entries (0..32; 0: no protection)
    parameter        BLOCK_BYTES  = 16, // NIC's largest frame payload (16, 32 or 64)
    parameter        BLK_SRC_BITS = 8,  // NIC block-table rows, log2 (1..8)
    parameter        MEM_LOG2     = 12, // bytes of host memory in block RAM, log2 (6..20)
    parameter [47:0] BRIDGE_MAC   = 48'h02_54_47_01_00_00 // MAC of the bridge port
) (
    input  wire        clk,           // 125 MHz GMII transmit clock: everything
    input  wire        rst,           // in clk

    input  wire [15:0] cfg_node_id,

    // network port (GMII-style; receive in its own clock)
    output wire [7:0]  net_txd,
    output wire        net_tx_en,
    output wire        net_tx_er,
    input  wire        net_rx_clk,
    input  wire [7:0]  net_rxd,
    input  wire        net_rx_dv,
    input  wire        net_rx_er,

    // host port (GMII-style; receive in its own clock)
    output wire [7:0]  host_txd,
    output wire        host_tx_en,
    output wire        host_tx_er,
    input  wire        host_rx_clk,
    input  wire [7:0]  host_rxd,
    input  wire        host_rx_dv,
    input  wire        host_rx_er,

    // status
    output wire        irq,
    output wire        ev_bridge_req,  // pulse: a bridge request was accepted
    output wire        ev_drop         // pulse: a frame was dropped (every receive slot held, bridge busy or bad frame)
);

// ---------------------------------------------------------------- resets
// one registered copy of rst per group of blocks, kept apart (see tg_fpga_node)
reg rst_net_reg;     // the network port's sample crossing and MAC
reg rst_host_reg;    // the host port's sample crossing
reg rst_bridge_reg;  // the bridge
reg rst_core_reg;    // the NIC core and the host memory
(* keep *) always @(posedge clk) rst_net_reg    <= rst;
(* keep *) always @(posedge clk) rst_host_reg   <= rst;
(* keep *) always @(posedge clk) rst_bridge_reg <= rst;
(* keep *) always @(posedge clk) rst_core_reg   <= rst;

// ---------------------------------------------------------------- receive clock crossings
// as in tg_fpga_node: each port's samples enter clk through a small FIFO,
// read every cycle, then a register
reg        net_dv_d_reg, host_dv_d_reg;
wire       net_s_valid, host_s_valid;
wire [9:0] net_s_data, host_s_data;
/* verilator lint_off UNUSEDSIGNAL */
wire       net_fifo_full, host_fifo_full, ev_tx_abort;   // cannot fill; tg_eth_tx8 never runs dry in a frame
/* verilator lint_on UNUSEDSIGNAL */

always @(posedge net_rx_clk)  net_dv_d_reg  <= net_rx_dv;
always @(posedge host_rx_clk) host_dv_d_reg <= host_rx_dv;

tg_async_fifo #(
    .WIDTH  (10),
    .ADDR_W (4)
) tg_async_fifo_net_inst (
    .wr_clk   (net_rx_clk),
    .wr_en    (net_rx_dv || net_dv_d_reg),
    .wr_data  ({net_rx_dv, net_rx_er, net_rxd}),
    .wr_full  (net_fifo_full),
    .rd_clk   (clk),
    .rst      (rst_net_reg),
    .rd_valid (net_s_valid),
    .rd_en    (1'b1),
    .rd_data  (net_s_data)
);

tg_async_fifo #(
    .WIDTH  (10),
    .ADDR_W (4)
) tg_async_fifo_host_inst (
    .wr_clk   (host_rx_clk),
    .wr_en    (host_rx_dv || host_dv_d_reg),
    .wr_data  ({host_rx_dv, host_rx_er, host_rxd}),
    .wr_full  (host_fifo_full),
    .rd_clk   (clk),
    .rst      (rst_host_reg),
    .rd_valid (host_s_valid),
    .rd_en    (1'b1),
    .rd_data  (host_s_data)
);

reg        net_q_valid_reg, host_q_valid_reg;
reg [9:0]  net_q_data_reg, host_q_data_reg;
always @(posedge clk) begin
    net_q_data_reg  <= net_s_data;
    host_q_data_reg <= host_s_data;
    if (rst_net_reg) net_q_valid_reg  <= 1'b0;
    else             net_q_valid_reg  <= net_s_valid;
    if (rst_host_reg) host_q_valid_reg <= 1'b0;
    else              host_q_valid_reg <= host_s_valid;
end

// ---------------------------------------------------------------- network MAC
wire [7:0] rx_tdata, tx_tdata;
wire       rx_tvalid, rx_tlast, rx_tuser, tx_tvalid, tx_tready, tx_tlast;

tg_gmii_mac8 tg_gmii_mac8_inst (
    .clk           (clk),
    .rst           (rst_net_reg),
    .gmii_rx_valid (net_q_valid_reg),
    .gmii_rx_dv    (net_q_data_reg[9]),
    .gmii_rx_er    (net_q_data_reg[8]),
    .gmii_rxd      (net_q_data_reg[7:0]),
    .gmii_txd      (net_txd),
    .gmii_tx_en    (net_tx_en),
    .gmii_tx_er    (net_tx_er),
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

// ---------------------------------------------------------------- bridge
wire        host_req_valid, host_req_ready, host_req_write, host_req_last;
wire [46:0] host_req_addr;
wire [63:0] host_req_wdata, host_resp_rdata;
wire [7:0]  host_req_wstrb;
wire        host_resp_valid, host_resp_take;

wire        mem_b_req_valid, mem_b_req_ready, mem_b_req_write, mem_b_resp_valid;
wire [31:0] mem_b_req_addr;
wire [63:0] mem_b_req_wdata, mem_b_resp_rdata;
wire [7:0]  mem_b_req_wstrb;

wire        ev_bridge_drop;
// The responses reach the bridge straight from registers: the host port's
// from tg_host_if8's, held until the bridge takes it, the memory's from
// the block RAM's read register.

tg_bridge #(
    .MAC      (BRIDGE_MAC),
    .MEM_LOG2 (MEM_LOG2)
) tg_bridge_inst (
    .clk               (clk),
    .rst               (rst_bridge_reg),
    .gmii_rx_valid     (host_q_valid_reg),
    .gmii_rx_dv        (host_q_data_reg[9]),
    .gmii_rx_er        (host_q_data_reg[8]),
    .gmii_rxd          (host_q_data_reg[7:0]),
    .gmii_txd          (host_txd),
    .gmii_tx_en        (host_tx_en),
    .gmii_tx_er        (host_tx_er),
    .m_host_req_valid  (host_req_valid),
    .m_host_req_ready  (host_req_ready),
    .m_host_req_write  (host_req_write),
    .m_host_req_addr   (host_req_addr),
    .m_host_req_wdata  (host_req_wdata),
    .m_host_req_wstrb  (host_req_wstrb),
    .m_host_req_last   (host_req_last),
    .s_host_resp_valid (host_resp_valid),
    .s_host_resp_ready (host_resp_take),
    .s_host_resp_rdata (host_resp_rdata),
    .m_mem_req_valid   (mem_b_req_valid),
    .m_mem_req_ready   (mem_b_req_ready),
    .m_mem_req_write   (mem_b_req_write),
    .m_mem_req_addr    (mem_b_req_addr),
    .m_mem_req_wdata   (mem_b_req_wdata),
    .m_mem_req_wstrb   (mem_b_req_wstrb),
    .s_mem_resp_valid  (mem_b_resp_valid),
    .s_mem_resp_rdata  (mem_b_resp_rdata),
    .ev_req            (ev_bridge_req),
    .ev_drop           (ev_bridge_drop)
);

// ---------------------------------------------------------------- NIC core
wire        mem_req_valid, mem_req_ready, mem_req_write, mem_resp_valid;
wire [31:0] mem_req_addr;
wire [63:0] mem_req_wdata, mem_resp_rdata;
wire [7:0]  mem_req_wstrb;
wire        core_irq, ev_drop_busy;

tg_nic8 #(
    .NUM_CTX      (NUM_CTX),
    .MAX_READS    (MAX_READS),
    .CNT_W        (CNT_W),
    .NUM_QUEUES   (NUM_QUEUES),
    .MAX_REQS     (MAX_REQS),
    .NUM_REGIONS  (NUM_REGIONS),
    .BLOCK_BYTES  (BLOCK_BYTES),
    .BLK_SRC_BITS (BLK_SRC_BITS)
) tg_nic8_inst (
    .clk               (clk),
    .rst               (rst_core_reg),
    .cfg_node_id       (cfg_node_id),
    .s_host_req_valid  (host_req_valid),
    .s_host_req_ready  (host_req_ready),
    .s_host_req_write  (host_req_write),
    .s_host_req_addr   (host_req_addr),
    .s_host_req_wdata  (host_req_wdata),
    .s_host_req_wstrb  (host_req_wstrb),
    .s_host_req_last   (host_req_last),
    .m_host_resp_valid (host_resp_valid),
    .m_host_resp_ready (host_resp_take),
    .m_host_resp_rdata (host_resp_rdata),
    .m_mem_req_valid   (mem_req_valid),
    .m_mem_req_ready   (mem_req_ready),
    .m_mem_req_write   (mem_req_write),
    .m_mem_req_addr    (mem_req_addr),
    .m_mem_req_wdata   (mem_req_wdata),
    .m_mem_req_wstrb   (mem_req_wstrb),
    .s_mem_resp_valid  (mem_resp_valid),
    .s_mem_resp_rdata  (mem_resp_rdata),
    .s_rx_tdata        (rx_tdata),
    .s_rx_tvalid       (rx_tvalid),
    .s_rx_tlast        (rx_tlast),
    .s_rx_tuser        (rx_tuser),
    .m_tx_tdata        (tx_tdata),
    .m_tx_tvalid       (tx_tvalid),
    .m_tx_tready       (tx_tready),
    .m_tx_tlast        (tx_tlast),
    .irq               (core_irq),
    .ev_drop_busy      (ev_drop_busy)
);

// ---------------------------------------------------------------- host memory
tg_bram_mem #(
    .MEM_LOG2 (MEM_LOG2)
) tg_bram_mem_inst (
    .clk            (clk),
    .rst            (rst_core_reg),
    .s_a_req_valid  (mem_req_valid),
    .s_a_req_ready  (mem_req_ready),
    .s_a_req_write  (mem_req_write),
    .s_a_req_addr   (mem_req_addr),
    .s_a_req_wdata  (mem_req_wdata),
    .s_a_req_wstrb  (mem_req_wstrb),
    .m_a_resp_valid (mem_resp_valid),
    .m_a_resp_rdata (mem_resp_rdata),
    .s_b_req_valid  (mem_b_req_valid),
    .s_b_req_ready  (mem_b_req_ready),
    .s_b_req_write  (mem_b_req_write),
    .s_b_req_addr   (mem_b_req_addr),
    .s_b_req_wdata  (mem_b_req_wdata),
    .s_b_req_wstrb  (mem_b_req_wstrb),
    .m_b_resp_valid (mem_b_resp_valid),
    .m_b_resp_rdata (mem_b_resp_rdata)
);

assign irq     = core_irq;
assign ev_drop = ev_drop_busy || ev_bridge_drop;

endmodule

`default_nettype wire
