// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// iCE40-HX8K top for area and timing studies: the byte-serial FPGA node
// (tg_fpga_node8) at its narrowest useful configuration, with both
// Ethernet ports as GMII pins.
`default_nettype none

module tg_ice40_hx8k #(
    parameter NODE_ID    = 0,  // this node's id (0..65535)
    parameter NUM_CTX    = 1,  // NIC process contexts (1..16)
    parameter MAX_READS  = 0,  // NIC fetches in flight (0..16; 0: none)
    parameter CNT_W      = 16, // NIC event counter width (16..64)
    parameter NUM_QUEUES = 1,  // NIC queue-table entries (1..16)
    parameter NUM_REGIONS = 0, // NIC region-table entries (0..32; 0: no protection)
    parameter MAX_REQS   = 1,  // NIC REQs awaiting an answer (1..16)
    parameter BLOCK_BYTES = 16, // NIC's largest frame payload (16, 32 or 64)
    parameter BLK_SRC_BITS = 8, // NIC block-table rows, log2 (1..8)
    parameter MEM_LOG2   = 12  // bytes of host memory in block RAM, log2 (6..20)
) (
    input  wire       clk,          // 125 MHz, also the GMII transmit clock
    output wire       led,

    // port 0: the Telegraphos network
    output wire [7:0] net_txd,
    output wire       net_tx_en,
    output wire       net_tx_er,
    input  wire       net_rx_clk,
    input  wire [7:0] net_rxd,
    input  wire       net_rx_dv,
    input  wire       net_rx_er,

    // port 1: the host, through the memory-bus bridge
    output wire [7:0] host_txd,
    output wire       host_tx_en,
    output wire       host_tx_er,
    input  wire       host_rx_clk,
    input  wire [7:0] host_rxd,
    input  wire       host_rx_dv,
    input  wire       host_rx_er
);

initial begin
    if (NODE_ID < 0 || NODE_ID > 65535) $error("%m: NODE_ID must be 0..65535");
end

localparam [15:0] NODE = NODE_ID;

// reset held for 256 cycles after configuration
reg [8:0] por_reg = 9'd0;
always @(posedge clk) begin
    if (!por_reg[8]) por_reg <= por_reg + 1'b1;
end
wire rst = !por_reg[8];

wire irq, ev_bridge_req, ev_drop;

tg_fpga_node8 #(
    .NUM_CTX      (NUM_CTX),
    .MAX_READS    (MAX_READS),
    .CNT_W        (CNT_W),
    .NUM_QUEUES   (NUM_QUEUES),
    .NUM_REGIONS  (NUM_REGIONS),
    .MAX_REQS     (MAX_REQS),
    .BLOCK_BYTES  (BLOCK_BYTES),
    .BLK_SRC_BITS (BLK_SRC_BITS),
    .MEM_LOG2     (MEM_LOG2),
    .BRIDGE_MAC   ({32'h02_54_47_01, NODE})
) tg_fpga_node8_inst (
    .clk           (clk),
    .rst           (rst),
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

// on while an interrupt is pending or a frame was dropped recently
reg [19:0] flash_reg = 20'd0;
always @(posedge clk) begin
    if (ev_drop || irq) flash_reg <= 20'hFFFFF;
    else if (flash_reg != 20'd0) flash_reg <= flash_reg - 1'b1;
end

assign led = (flash_reg != 20'd0) || ev_bridge_req;

endmodule

`default_nettype wire
