// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Board top for the Colorlight 5A-75B v8.0 (LFE5U-25F-6BG256C): PLL to
// 125 MHz for the Ethernet side and 41.67 MHz for the NIC core, power-on
// reset, the FPGA node with the Telegraphos network on Ethernet port 0
// (U11) and the host bridge on port 1 (U13).
`default_nettype none

module tg_colorlight_5a75b #(
    parameter NODE_ID    = 0,  // this node's id (0..65535); MACs 02:54:47:00:nn:nn (network), 02:54:47:01:nn:nn (bridge)
    parameter NUM_CTX    = 4,  // NIC process contexts (1..16)
    parameter MAX_READS  = 4,  // NIC fetches in flight (1..16)
    parameter CNT_W      = 16, // NIC event counter width (16..64)
    parameter NUM_QUEUES = 4,  // NIC queue-table entries (1..16)
    parameter NUM_REGIONS = 8, // NIC region-table entries (1..32)
    parameter MAX_REQS   = 4,  // NIC REQs awaiting an answer (1..16)
    parameter BLOCK_BYTES = 64, // NIC's largest frame payload (16, 32 or 64)
    parameter MEM_LOG2   = 14, // bytes of host memory in block RAM, log2 (6..20)
    parameter LINK_LAYER = 1,  // NIC's reliable link layer built in (0..1; docs/fpga.md)
    parameter LINK_PEER_BITS = 4,  // ... node ids it sequences: 2^n (1..12)
    parameter LINK_SLOTS_LOG2 = 3, // ... frames it keeps for resends: 2^n (1..5)
    parameter RX_DELAY   = 0   // DELAYG taps on the RGMII receive pins (0..127)
) (
    input  wire       clk25,        // 25 MHz from the PHY (P6)
    output wire       led_n,        // user LED, active low (T6)
    output wire       phy_rst_n,    // both PHYs' reset (R6), held released

    // port 0: the Telegraphos network
    output wire       eth0_txc,
    output wire [3:0] eth0_txd,
    output wire       eth0_tx_ctl,
    input  wire       eth0_rxc,
    input  wire [3:0] eth0_rxd,
    input  wire       eth0_rx_ctl,

    // port 1: the host, through the memory-bus bridge
    output wire       eth1_txc,
    output wire [3:0] eth1_txd,
    output wire       eth1_tx_ctl,
    input  wire       eth1_rxc,
    input  wire [3:0] eth1_rxd,
    input  wire       eth1_rx_ctl
);

initial begin
    if (NODE_ID < 0 || NODE_ID > 65535) $error("%m: NODE_ID must be 0..65535");
end

localparam [15:0] NODE = NODE_ID;

// ---------------------------------------------------------------- clock and reset
// VCO 625 MHz = 25 MHz x 25: CLKOP / 5 = 125 MHz (MACs, bridge, GMII
// transmit), CLKOS / 15 = 41.67 MHz, a third of it (NIC core and host
// memory: its 64-bit datapath needs 15.6 MHz for the line rate, and the
// core's latencies shrink with its clock)
wire clk, core_clk;
wire pll_lock;
localparam PLL_FB_DIV = 5, PLL_OP_DIV = 5, PLL_OS_DIV = 15;
// core_clk in kHz, rounded, for the NIC's CLOCK_KHZ: 41 667
localparam CORE_KHZ = (25000 * PLL_FB_DIV * PLL_OP_DIV + PLL_OS_DIV / 2) / PLL_OS_DIV;

EHXPLLL #(
    .CLKI_DIV     (1),
    .CLKFB_DIV    (PLL_FB_DIV),
    .CLKOP_DIV    (PLL_OP_DIV),
    .CLKOP_CPHASE (2),
    .CLKOP_FPHASE (0),
    .CLKOP_ENABLE ("ENABLED"),
    .CLKOS_DIV    (PLL_OS_DIV),
    .CLKOS_CPHASE (7),
    .CLKOS_FPHASE (0),
    .CLKOS_ENABLE ("ENABLED"),
    .FEEDBK_PATH  ("CLKOP")
) pll_inst (
    .CLKI  (clk25),
    .CLKFB (clk),
    .RST   (1'b0),
    .CLKOP (clk),
    .CLKOS (core_clk),
    .LOCK  (pll_lock)
);

// reset held for 256 cycles after the PLL locks
reg [8:0] por_reg = 9'd0;
always @(posedge clk) begin
    if (!pll_lock) por_reg <= 9'd0;
    else if (!por_reg[8]) por_reg <= por_reg + 1'b1;
end
wire rst = !por_reg[8];

// ---------------------------------------------------------------- Ethernet I/O
wire [7:0] net_txd, host_txd, net_rxd, host_rxd;
wire       net_tx_en, net_tx_er, host_tx_en, host_tx_er;
wire       net_rx_clk, net_rx_dv, net_rx_er, host_rx_clk, host_rx_dv, host_rx_er;

tg_rgmii_ecp5 #(
    .RX_DELAY (RX_DELAY)
) tg_rgmii_ecp5_net_inst (
    .clk          (clk),
    .rst          (rst),
    .gmii_txd     (net_txd),
    .gmii_tx_en   (net_tx_en),
    .gmii_tx_er   (net_tx_er),
    .rx_clk       (net_rx_clk),
    .gmii_rxd     (net_rxd),
    .gmii_rx_dv   (net_rx_dv),
    .gmii_rx_er   (net_rx_er),
    .rgmii_txc    (eth0_txc),
    .rgmii_txd    (eth0_txd),
    .rgmii_tx_ctl (eth0_tx_ctl),
    .rgmii_rxc    (eth0_rxc),
    .rgmii_rxd    (eth0_rxd),
    .rgmii_rx_ctl (eth0_rx_ctl)
);

tg_rgmii_ecp5 #(
    .RX_DELAY (RX_DELAY)
) tg_rgmii_ecp5_host_inst (
    .clk          (clk),
    .rst          (rst),
    .gmii_txd     (host_txd),
    .gmii_tx_en   (host_tx_en),
    .gmii_tx_er   (host_tx_er),
    .rx_clk       (host_rx_clk),
    .gmii_rxd     (host_rxd),
    .gmii_rx_dv   (host_rx_dv),
    .gmii_rx_er   (host_rx_er),
    .rgmii_txc    (eth1_txc),
    .rgmii_txd    (eth1_txd),
    .rgmii_tx_ctl (eth1_tx_ctl),
    .rgmii_rxc    (eth1_rxc),
    .rgmii_rxd    (eth1_rxd),
    .rgmii_rx_ctl (eth1_rx_ctl)
);

// ---------------------------------------------------------------- node
wire irq, ev_bridge_req, ev_drop;

tg_fpga_node #(
    .NUM_CTX    (NUM_CTX),
    .MAX_READS  (MAX_READS),
    .CNT_W      (CNT_W),
    .NUM_QUEUES (NUM_QUEUES),
    .NUM_REGIONS (NUM_REGIONS),
    .MAX_REQS   (MAX_REQS),
    .BLOCK_BYTES (BLOCK_BYTES),
    .MEM_LOG2   (MEM_LOG2),
    .LINK_LAYER (LINK_LAYER),
    .CORE_KHZ   (CORE_KHZ),
    .LINK_PEER_BITS (LINK_PEER_BITS),
    .LINK_SLOTS_LOG2 (LINK_SLOTS_LOG2),
    .RX_FIFO_DIST (1),         // its read register starts the receive CRC path (docs/fpga.md)
    .BRIDGE_MAC ({32'h02_54_47_01, NODE})
) tg_fpga_node_inst (
    .clk           (clk),
    .rst           (rst),
    .core_clk      (core_clk),
    .cfg_node_id   (NODE),
    .net_txd       (net_txd),
    .net_tx_en     (net_tx_en),
    .net_tx_er     (net_tx_er),
    .net_rx_clk    (net_rx_clk),
    .net_rxd       (net_rxd),
    .net_rx_dv     (net_rx_dv),
    .net_rx_er     (net_rx_er),
    .host_txd      (host_txd),
    .host_tx_en    (host_tx_en),
    .host_tx_er    (host_tx_er),
    .host_rx_clk   (host_rx_clk),
    .host_rxd      (host_rxd),
    .host_rx_dv    (host_rx_dv),
    .host_rx_er    (host_rx_er),
    .irq           (irq),
    .ev_bridge_req (ev_bridge_req),
    .ev_drop       (ev_drop)
);

// ---------------------------------------------------------------- LED
// slow heartbeat; each bridge request, drop or a pending interrupt flips it
// for about 8 ms
reg [26:0] beat_reg = 27'd0;
reg [19:0] flash_reg = 20'd0;
always @(posedge clk) begin
    beat_reg <= beat_reg + 1'b1;
    if (ev_bridge_req || ev_drop || irq) flash_reg <= 20'hFFFFF;
    else if (flash_reg != 20'd0) flash_reg <= flash_reg - 1'b1;
end

assign led_n     = ~(beat_reg[26] ^ (flash_reg != 20'd0));
assign phy_rst_n = 1'b1;

endmodule

`default_nettype wire
