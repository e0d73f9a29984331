// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Board-independent FPGA node: the NIC core on one GMII port (the
// Telegraphos network), the memory-bus bridge on the other (the host), and
// the NIC's host memory in block RAM. The MAC and the bridge run in the
// GMII transmit clock; the NIC core and the memory in their own, slower
// clock, joined to them by clock-crossing FIFOs (or, with ONE_CLOCK, in
// the same clock and joined directly).
`default_nettype none

module tg_fpga_node #(
    parameter        NUM_CTX    = 16, // NIC process contexts (1..16)
    parameter        MAX_READS  = 8,  // NIC fetches in flight (1..16)
    parameter        CNT_W      = 64, // NIC event counter width (16..64)
    parameter        NUM_QUEUES = 16, // NIC queue-table entries (1..16)
    parameter        MAX_REQS   = 4,  // NIC REQs awaiting an answer (1..16)
    parameter        NUM_REGIONS = 32, // NIC region-table entries (1..32)
    parameter        MEM_LOG2   = 14, // bytes of host memory in block RAM, log2 (6..20)
    parameter        RX_FIFO_DIST = 0, // network MAC's receive FIFO in distributed RAM (0..1)
    parameter        BLOCK_BYTES = 64, // NIC's largest frame payload (16, 32 or 64)
    parameter        SPILL_RING = 1,  // NIC's REQ spill ring built in (0..1)
    parameter        LINK_LAYER = 0,  // NIC's reliable link layer built in (0..1)
    parameter [31:0] CORE_KHZ   = 0,  // core_clk in kHz, for the NIC's CLOCK_KHZ (0: not given)
    parameter        LINK_PEER_BITS = 8,  // ... node ids it sequences: 2^n (1..12)
    parameter        LINK_SLOTS_LOG2 = 5, // ... frames it keeps for resends: 2^n (1..5)
    parameter        ONE_CLOCK  = 0,  // 1: core_clk is clk itself, and the buses between the
                                      // bridge, the MAC and the core need no crossing (0..1)
    parameter [47:0] BRIDGE_MAC = 48'h02_54_47_01_00_00 // MAC of the bridge port
) (
    input  wire        clk,           // 125 MHz GMII transmit clock: MAC and bridge
    input  wire        rst,           // in clk
    input  wire        core_clk,      // NIC core and host memory (any rate that carries 8 bytes a
                                      // cycle at the line rate: 15.6 MHz and up for GbE)

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

    // status, in clk
    output wire        irq,
    output wire        ev_bridge_req,  // pulse: a bridge request was accepted
    output wire        ev_drop         // pulse: a frame was dropped (network FIFO full, bridge busy or bad frame)
);

// ---------------------------------------------------------------- resets in clk
// rst is registered twice for each group of blocks it resets: the second
// flop of each copy sits near its group, the first between it and the
// power-on counter, so no copy crosses the device in one clk cycle and no
// flop reaches every reset input of the domain (the copies are kept
// apart: synthesis would otherwise merge identical flops back into one)
reg rst_net_p_reg,    rst_net_reg;     // the network port's sample crossing
reg rst_mac_p_reg,    rst_mac_reg;     // the network MAC and the transmit frame crossing
reg rst_host_p_reg,   rst_host_reg;    // the host port's sample crossing
reg rst_bridge_p_reg, rst_bridge_reg;  // the bridge, its response crossings and registers
(* keep *) always @(posedge clk) {rst_net_reg,    rst_net_p_reg}    <= {rst_net_p_reg,    rst};
(* keep *) always @(posedge clk) {rst_mac_reg,    rst_mac_p_reg}    <= {rst_mac_p_reg,    rst};
(* keep *) always @(posedge clk) {rst_host_reg,   rst_host_p_reg}   <= {rst_host_p_reg,   rst};
(* keep *) always @(posedge clk) {rst_bridge_reg, rst_bridge_p_reg} <= {rst_bridge_p_reg, rst};

// ---------------------------------------------------------------- receive clock crossings
// each port's samples enter a FIFO while rx_dv is high and once more after
// it falls, so the end of a frame crosses too
reg        net_dv_d_reg, host_dv_d_reg;
wire       net_s_valid, host_s_valid;
wire [9:0] net_s_data, host_s_data;
// the FIFOs are read every cycle of the faster-or-equal system clock, so
// they cannot fill; an aborted transmission is visible as rx_er at the peer
/* verilator lint_off UNUSEDSIGNAL */
wire       net_fifo_full, host_fifo_full, ev_tx_abort;
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

// one register stage after each FIFO's read, so its distributed-RAM read
// and the synchronized pointers do not lead straight into the MAC's and
// the bridge's receive logic
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

// ---------------------------------------------------------------- core reset
// rst reaches the core clock through two flops
reg core_rst_meta_reg, core_rst_reg;
always @(posedge core_clk) begin
    core_rst_meta_reg <= rst;
    core_rst_reg      <= core_rst_meta_reg;
end
wire core_rst = core_rst_reg;

// ---------------------------------------------------------------- network MAC
wire [63:0] rx_tdata, tx_tdata, mac_rx_tdata, mac_tx_tdata;
wire [7:0]  rx_tkeep, tx_tkeep, mac_rx_tkeep, mac_tx_tkeep;
wire        rx_tvalid, rx_tready, rx_tlast, rx_tuser, tx_tvalid, tx_tready, tx_tlast;
wire        mac_rx_tvalid, mac_rx_tready, mac_rx_tlast, mac_rx_tuser;
wire        mac_tx_tvalid, mac_tx_tready, mac_tx_tlast;
/* verilator lint_off UNUSEDSIGNAL */
wire        mac_tx_tuser_unused;      // (the core marks no frame it sends)
/* verilator lint_on UNUSEDSIGNAL */
wire        ev_mac_drop, ev_bridge_drop;

tg_gmii_mac #(
    .RX_FIFO_LOG2 (6),
    .RX_FIFO_DIST (RX_FIFO_DIST)
) tg_gmii_mac_inst (
    .clk              (clk),
    .rst              (rst_mac_reg),
    .gmii_rx_valid    (net_q_valid_reg),
    .gmii_rx_dv       (net_q_data_reg[9]),
    .gmii_rx_er       (net_q_data_reg[8]),
    .gmii_rxd         (net_q_data_reg[7:0]),
    .gmii_txd         (net_txd),
    .gmii_tx_en       (net_tx_en),
    .gmii_tx_er       (net_tx_er),
    .m_axis_rx_tdata  (mac_rx_tdata),
    .m_axis_rx_tkeep  (mac_rx_tkeep),
    .m_axis_rx_tvalid (mac_rx_tvalid),
    .m_axis_rx_tready (mac_rx_tready),
    .m_axis_rx_tlast  (mac_rx_tlast),
    .m_axis_rx_tuser  (mac_rx_tuser),
    .s_axis_tx_tdata  (mac_tx_tdata),
    .s_axis_tx_tkeep  (mac_tx_tkeep),
    .s_axis_tx_tvalid (mac_tx_tvalid),
    .s_axis_tx_tready (mac_tx_tready),
    .s_axis_tx_tlast  (mac_tx_tlast),
    .ev_rx_drop       (ev_mac_drop),
    .ev_tx_abort      (ev_tx_abort)
);

// received beats to the core as they come (the core takes gaps inside a
// frame); frames to send are held whole, so the MAC never runs dry
generate
if (ONE_CLOCK != 0) begin : g_rx_direct
    assign rx_tdata      = mac_rx_tdata;
    assign rx_tkeep      = mac_rx_tkeep;
    assign rx_tvalid     = mac_rx_tvalid;
    assign rx_tlast      = mac_rx_tlast;
    assign rx_tuser      = mac_rx_tuser;
    assign mac_rx_tready = rx_tready;
end else begin : g_rx_cross
    tg_axis_async_fifo #(
        .DATA_W (64),
        .ADDR_W (4),
        .FRAME  (0)
    ) tg_axis_async_fifo_rx_inst (
        .s_clk         (clk),
        .s_axis_tdata  (mac_rx_tdata),
        .s_axis_tkeep  (mac_rx_tkeep),
        .s_axis_tvalid (mac_rx_tvalid),
        .s_axis_tready (mac_rx_tready),
        .s_axis_tlast  (mac_rx_tlast),
        .s_axis_tuser  (mac_rx_tuser),
        .m_clk         (core_clk),
        .m_rst         (core_rst),
        .m_axis_tdata  (rx_tdata),
        .m_axis_tkeep  (rx_tkeep),
        .m_axis_tvalid (rx_tvalid),
        .m_axis_tready (rx_tready),
        .m_axis_tlast  (rx_tlast),
        .m_axis_tuser  (rx_tuser)
    );
end
endgenerate

tg_axis_async_fifo #(
    .DATA_W (64),
    .ADDR_W (5),             // a whole frame: at most 17 beats
    .FRAME  (1)
) tg_axis_async_fifo_tx_inst (
    .s_clk         (core_clk),
    .s_axis_tdata  (tx_tdata),
    .s_axis_tkeep  (tx_tkeep),
    .s_axis_tvalid (tx_tvalid),
    .s_axis_tready (tx_tready),
    .s_axis_tlast  (tx_tlast),
    .s_axis_tuser  (1'b0),
    .m_clk         (clk),
    .m_rst         (rst_mac_reg),
    .m_axis_tdata  (mac_tx_tdata),
    .m_axis_tkeep  (mac_tx_tkeep),
    .m_axis_tvalid (mac_tx_tvalid),
    .m_axis_tready (mac_tx_tready),
    .m_axis_tlast  (mac_tx_tlast),
    .m_axis_tuser  (mac_tx_tuser_unused)
);

// ---------------------------------------------------------------- bridge
// the bridge's two buses, in clk, and their ends in the core clock
wire        br_host_req_valid, br_host_req_ready, br_host_req_write, br_host_req_last;
wire [46:0] br_host_req_addr;
wire [63:0] br_host_req_wdata, br_host_resp_rdata;
wire [7:0]  br_host_req_wstrb;
wire        br_host_resp_valid, br_host_resp_ready;

wire        br_mem_req_valid, br_mem_req_ready, br_mem_req_write, br_mem_resp_valid;
wire [31:0] br_mem_req_addr;
wire [63:0] br_mem_req_wdata, br_mem_resp_rdata;
wire [7:0]  br_mem_req_wstrb;

wire        host_req_valid, host_req_ready, host_req_write, host_req_last;
wire [46:0] host_req_addr;
wire [63:0] host_req_wdata, host_resp_rdata;
wire [7:0]  host_req_wstrb;
wire        host_resp_valid, host_resp_ready;

wire        mem_b_req_valid, mem_b_req_ready, mem_b_req_write, mem_b_resp_valid;
wire [31:0] mem_b_req_addr;
wire [63:0] mem_b_req_wdata, mem_b_resp_rdata;
wire [7:0]  mem_b_req_wstrb;

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
    .m_host_req_valid  (br_host_req_valid),
    .m_host_req_ready  (br_host_req_ready),
    .m_host_req_write  (br_host_req_write),
    .m_host_req_addr   (br_host_req_addr),
    .m_host_req_wdata  (br_host_req_wdata),
    .m_host_req_wstrb  (br_host_req_wstrb),
    .m_host_req_last   (br_host_req_last),
    .s_host_resp_valid (br_host_resp_valid),
    .s_host_resp_ready (br_host_resp_ready),
    .s_host_resp_rdata (br_host_resp_rdata),
    .m_mem_req_valid   (br_mem_req_valid),
    .m_mem_req_ready   (br_mem_req_ready),
    .m_mem_req_write   (br_mem_req_write),
    .m_mem_req_addr    (br_mem_req_addr),
    .m_mem_req_wdata   (br_mem_req_wdata),
    .m_mem_req_wstrb   (br_mem_req_wstrb),
    .s_mem_resp_valid  (br_mem_resp_valid),
    .s_mem_resp_rdata  (br_mem_resp_rdata),
    .ev_req            (ev_bridge_req),
    .ev_drop           (ev_bridge_drop)
);

wire        host_resp_x_valid, host_resp_x_take;
wire [63:0] host_resp_x_rdata;
wire        mem_resp_x_valid;
wire [63:0] mem_resp_x_rdata;

generate
if (ONE_CLOCK != 0) begin : g_bus_direct
    // the bridge's request valids come from its state registers, so its
    // requests meet the core's and the memory's readies directly
    assign host_req_valid     = br_host_req_valid;
    assign br_host_req_ready  = host_req_ready;
    assign host_req_write     = br_host_req_write;
    assign host_req_wstrb     = br_host_req_wstrb;
    assign host_req_wdata     = br_host_req_wdata;
    assign host_req_addr      = br_host_req_addr;
    assign host_req_last      = br_host_req_last;
    assign host_resp_x_valid  = host_resp_valid;
    assign host_resp_x_rdata  = host_resp_rdata;
    assign host_resp_ready    = host_resp_x_take;
    assign mem_b_req_valid    = br_mem_req_valid;
    assign br_mem_req_ready   = mem_b_req_ready;
    assign mem_b_req_write    = br_mem_req_write;
    assign mem_b_req_wstrb    = br_mem_req_wstrb;
    assign mem_b_req_wdata    = br_mem_req_wdata;
    assign mem_b_req_addr     = br_mem_req_addr;
    assign mem_resp_x_valid   = mem_b_resp_valid;
    assign mem_resp_x_rdata   = mem_b_resp_rdata;
end else begin : g_bus_cross
    // The bridge has one request outstanding at a time (a burst's beats
    // follow one another) and waits for a
    // memory write's response, so host-memory writes are done before any
    // later host-port request reaches the core; four entries per direction
    // are plenty, and a response FIFO can never be full.
    wire br_host_req_full, host_resp_full, br_mem_req_full;
    /* verilator lint_off UNUSEDSIGNAL */
    wire mem_b_resp_full;
    /* verilator lint_on UNUSEDSIGNAL */
    tg_async_fifo #(
        .WIDTH  (121),
        .ADDR_W (2)
    ) tg_async_fifo_host_req_inst (
        .wr_clk   (clk),
        .wr_en    (br_host_req_valid),
        .wr_data  ({br_host_req_last, br_host_req_write, br_host_req_wstrb, br_host_req_wdata,
                    br_host_req_addr}),
        .wr_full  (br_host_req_full),
        .rd_clk   (core_clk),
        .rst      (core_rst),
        .rd_valid (host_req_valid),
        .rd_en    (host_req_ready),
        .rd_data  ({host_req_last, host_req_write, host_req_wstrb, host_req_wdata, host_req_addr})
    );
    assign br_host_req_ready = !br_host_req_full;

    tg_async_fifo #(
        .WIDTH  (64),
        .ADDR_W (2)
    ) tg_async_fifo_host_resp_inst (
        .wr_clk   (core_clk),
        .wr_en    (host_resp_valid),
        .wr_data  (host_resp_rdata),
        .wr_full  (host_resp_full),
        .rd_clk   (clk),
        .rst      (rst_bridge_reg),
        .rd_valid (host_resp_x_valid),
        .rd_en    (host_resp_x_take),
        .rd_data  (host_resp_x_rdata)
    );
    assign host_resp_ready = !host_resp_full;

    tg_async_fifo #(
        .WIDTH  (105),
        .ADDR_W (2)
    ) tg_async_fifo_mem_req_inst (
        .wr_clk   (clk),
        .wr_en    (br_mem_req_valid),
        .wr_data  ({br_mem_req_write, br_mem_req_wstrb, br_mem_req_wdata, br_mem_req_addr}),
        .wr_full  (br_mem_req_full),
        .rd_clk   (core_clk),
        .rst      (core_rst),
        .rd_valid (mem_b_req_valid),
        .rd_en    (mem_b_req_ready),
        .rd_data  ({mem_b_req_write, mem_b_req_wstrb, mem_b_req_wdata, mem_b_req_addr})
    );
    assign br_mem_req_ready = !br_mem_req_full;

    tg_async_fifo #(
        .WIDTH  (64),
        .ADDR_W (2)
    ) tg_async_fifo_mem_resp_inst (
        .wr_clk   (core_clk),
        .wr_en    (mem_b_resp_valid),
        .wr_data  (mem_b_resp_rdata),
        .wr_full  (mem_b_resp_full),
        .rd_clk   (clk),
        .rst      (rst_bridge_reg),
        .rd_valid (mem_resp_x_valid),
        .rd_en    (1'b1),
        .rd_data  (mem_resp_x_rdata)
    );
end
endgenerate

// the responses reach the bridge from registers (a held one waits for ready)
reg         br_host_resp_valid_reg, br_mem_resp_valid_reg;
reg  [63:0] br_host_resp_rdata_reg, br_mem_resp_rdata_reg;
assign host_resp_x_take = !br_host_resp_valid_reg || br_host_resp_ready;

always @(posedge clk) begin
    if (host_resp_x_take) br_host_resp_rdata_reg <= host_resp_x_rdata;
    br_mem_resp_rdata_reg <= mem_resp_x_rdata;
    if (rst_bridge_reg) begin
        br_host_resp_valid_reg <= 1'b0;
        br_mem_resp_valid_reg  <= 1'b0;
    end else begin
        if (host_resp_x_take) br_host_resp_valid_reg <= host_resp_x_valid;
        br_mem_resp_valid_reg <= mem_resp_x_valid;
    end
end
assign br_host_resp_valid = br_host_resp_valid_reg;
assign br_host_resp_rdata = br_host_resp_rdata_reg;
assign br_mem_resp_valid  = br_mem_resp_valid_reg;
assign br_mem_resp_rdata  = br_mem_resp_rdata_reg;

// ---------------------------------------------------------------- NIC core
wire        mem_req_valid, mem_req_ready, mem_req_write, mem_resp_valid;
wire [31:0] mem_req_addr;
wire [63:0] mem_req_wdata, mem_resp_rdata;
wire [7:0]  mem_req_wstrb;
wire        core_irq;
/* verilator lint_off UNUSEDSIGNAL */
wire        core_ff_idle, core_ff_wait; // (no fast-forward on a board)
/* verilator lint_on UNUSEDSIGNAL */

tg_nic #(
    .NUM_CTX    (NUM_CTX),
    .MAX_READS  (MAX_READS),
    .CNT_W      (CNT_W),
    .NUM_QUEUES (NUM_QUEUES),
    .MAX_REQS   (MAX_REQS),
    .NUM_REGIONS (NUM_REGIONS),
    .BLOCK_BYTES (BLOCK_BYTES),
    .SPILL_RING (SPILL_RING),
    .LINK_LAYER (LINK_LAYER),
    .LINK_PEER_BITS (LINK_PEER_BITS),
    .LINK_SLOTS_LOG2 (LINK_SLOTS_LOG2)
) tg_nic_inst (
    .clk               (core_clk),
    .rst               (core_rst),
    .cfg_node_id       (cfg_node_id),
    .cfg_clock_khz     (CORE_KHZ),
    .s_host_req_valid  (host_req_valid),
    .s_host_req_ready  (host_req_ready),
    .s_host_req_write  (host_req_write),
    .s_host_req_addr   (host_req_addr),
    .s_host_req_wdata  (host_req_wdata),
    .s_host_req_wstrb  (host_req_wstrb),
    .s_host_req_last   (host_req_last),
    .m_host_resp_valid (host_resp_valid),
    .m_host_resp_ready (host_resp_ready),
    .m_host_resp_rdata (host_resp_rdata),
    .m_mem_req_valid   (mem_req_valid),
    .m_mem_req_ready   (mem_req_ready),
    .m_mem_req_write   (mem_req_write),
    .m_mem_req_addr    (mem_req_addr),
    .m_mem_req_wdata   (mem_req_wdata),
    .m_mem_req_wstrb   (mem_req_wstrb),
    .s_mem_resp_valid  (mem_resp_valid),
    .s_mem_resp_rdata  (mem_resp_rdata),
    .m_axis_tx_tdata   (tx_tdata),
    .m_axis_tx_tkeep   (tx_tkeep),
    .m_axis_tx_tvalid  (tx_tvalid),
    .m_axis_tx_tready  (tx_tready),
    .m_axis_tx_tlast   (tx_tlast),
    .s_axis_rx_tdata   (rx_tdata),
    .s_axis_rx_tkeep   (rx_tkeep),
    .s_axis_rx_tvalid  (rx_tvalid),
    .s_axis_rx_tready  (rx_tready),
    .s_axis_rx_tlast   (rx_tlast),
    .s_axis_rx_tuser   (rx_tuser),
    .irq               (core_irq),
    .ff_idle           (core_ff_idle),
    .ff_wait           (core_ff_wait),
    .ff_skip           (32'd0)         // fast-forward is the simulator's
);

// ---------------------------------------------------------------- host memory
tg_bram_mem #(
    .MEM_LOG2 (MEM_LOG2)
) tg_bram_mem_inst (
    .clk            (core_clk),
    .rst            (core_rst),
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

// the interrupt line, a level, reaches clk through two flops
reg irq_meta_reg, irq_reg;
always @(posedge clk) begin
    irq_meta_reg <= core_irq;
    irq_reg      <= irq_meta_reg;
end
assign irq = irq_reg;

assign ev_drop = ev_mac_drop || ev_bridge_drop;

endmodule

`default_nettype wire
