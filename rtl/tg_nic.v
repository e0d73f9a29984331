// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// STUB: port list only; the real core replaces this file.
`default_nettype none
module tg_nic #(
    parameter NUM_CTX   = 16,
    parameter MAX_READS = 8
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] cfg_node_id,
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
    output wire        m_mem_req_valid,
    input  wire        m_mem_req_ready,
    output wire        m_mem_req_write,
    output wire [31:0] m_mem_req_addr,
    output wire [63:0] m_mem_req_wdata,
    output wire [7:0]  m_mem_req_wstrb,
    input  wire        s_mem_resp_valid,
    input  wire [63:0] s_mem_resp_rdata,
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
    output wire        irq
);
assign s_host_req_ready = 1'b1;
assign m_host_resp_valid = 1'b0;
assign m_host_resp_rdata = 64'd0;
assign m_mem_req_valid = 1'b0;
assign m_mem_req_write = 1'b0;
assign m_mem_req_addr = 32'd0;
assign m_mem_req_wdata = 64'd0;
assign m_mem_req_wstrb = 8'd0;
assign m_axis_tx_tdata = 64'd0;
assign m_axis_tx_tkeep = 8'd0;
assign m_axis_tx_tvalid = 1'b0;
assign m_axis_tx_tlast = 1'b0;
assign s_axis_rx_tready = 1'b1;
assign irq = 1'b0;
endmodule
`default_nettype wire
