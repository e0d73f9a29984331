// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Simulation-speed bench: two tg_nic cores with cross-connected network ports and simple host memories; node 0 streams 64-byte remote writes to node 1.

`timescale 1ns / 1ps
`include "tg_hw_defs.vh"

module tb_tg_pair (
    input  wire clk
);

// memory words per node (64 KiB) and response latency in cycles
localparam MEM_WORDS = 8192;
localparam MEM_LAT   = 4;
localparam RST_CYC   = 16;

reg  [63:0] cyc = 64'd0;
reg  [63:0] limit = 64'd20000;
reg  [63:0] writes1 = 64'd0;
wire        rst = cyc < RST_CYC;

initial begin
    if (!$value$plusargs("cycles=%d", limit))
        limit = 64'd20000;
end

// ---------------------------------------------------------------- NICs
wire        h_ready   [0:1];
wire        h_valid   [0:1];
wire [46:0] h_addr    [0:1];
wire [63:0] h_wdata   [0:1];
wire        h_last    [0:1];
wire        h_rvalid  [0:1];
wire [63:0] h_rdata   [0:1];
wire        m_valid   [0:1];
wire        m_write   [0:1];
wire [31:0] m_addr    [0:1];
wire [63:0] m_wdata   [0:1];
wire [7:0]  m_wstrb   [0:1];
reg         r_valid   [0:1];
reg  [63:0] r_rdata   [0:1];
wire [63:0] tx_tdata  [0:1];
wire [7:0]  tx_tkeep  [0:1];
wire        tx_tvalid [0:1];
wire        tx_tlast  [0:1];
wire        rx_tready [0:1];
wire        irq       [0:1];
/* verilator lint_off UNUSEDSIGNAL */
wire        ff_idle   [0:1];   // (every cycle is run here)
wire        ff_wait   [0:1];
/* verilator lint_on UNUSEDSIGNAL */

genvar n;
generate
for (n = 0; n < 2; n = n + 1) begin : node
    tg_nic tg_nic_inst (
        .clk(clk), .rst(rst),
        .cfg_node_id(n[15:0]), .cfg_clock_khz(32'd125000),
        .s_host_req_valid(h_valid[n]), .s_host_req_ready(h_ready[n]),
        .s_host_req_write(1'b1), .s_host_req_addr(h_addr[n]),
        .s_host_req_wdata(h_wdata[n]), .s_host_req_wstrb(8'hff),
        .s_host_req_last(h_last[n]),
        .m_host_resp_valid(h_rvalid[n]), .m_host_resp_ready(1'b1),
        .m_host_resp_rdata(h_rdata[n]),
        .m_mem_req_valid(m_valid[n]), .m_mem_req_ready(1'b1),
        .m_mem_req_write(m_write[n]), .m_mem_req_addr(m_addr[n]),
        .m_mem_req_wdata(m_wdata[n]), .m_mem_req_wstrb(m_wstrb[n]),
        .s_mem_resp_valid(r_valid[n]), .s_mem_resp_rdata(r_rdata[n]),
        // node n's frames go straight to the other node
        .m_axis_tx_tdata(tx_tdata[n]), .m_axis_tx_tkeep(tx_tkeep[n]),
        .m_axis_tx_tvalid(tx_tvalid[n]), .m_axis_tx_tready(rx_tready[1 - n]),
        .m_axis_tx_tlast(tx_tlast[n]),
        .s_axis_rx_tdata(tx_tdata[1 - n]), .s_axis_rx_tkeep(tx_tkeep[1 - n]),
        .s_axis_rx_tvalid(tx_tvalid[1 - n]), .s_axis_rx_tready(rx_tready[n]),
        .s_axis_rx_tlast(tx_tlast[1 - n]), .s_axis_rx_tuser(1'b0),   // no FCS on this wire
        .irq(irq[n]),
        .ff_idle(ff_idle[n]), .ff_wait(ff_wait[n]), .ff_skip(32'd0)
    );

    // host memory: always ready, one response MEM_LAT cycles after each
    // request, in order
    reg [63:0] mem [0:MEM_WORDS-1];
    reg [MEM_LAT-1:0] pipe_v = {MEM_LAT{1'b0}};
    reg [63:0] pipe_d [0:MEM_LAT-1];
    integer i;
    always @(posedge clk) begin
        pipe_v <= {pipe_v[MEM_LAT-2:0], m_valid[n]};
        pipe_d[0] <= mem[m_addr[n][15:3]];
        for (i = 1; i < MEM_LAT; i = i + 1)
            pipe_d[i] <= pipe_d[i-1];
        r_valid[n] <= pipe_v[MEM_LAT-2];
        r_rdata[n] <= pipe_d[MEM_LAT-2];
        if (m_valid[n] && m_write[n]) begin
            for (i = 0; i < 8; i = i + 1)
                if (m_wstrb[n][i])
                    mem[m_addr[n][15:3]][8*i +: 8] <= m_wdata[n][8*i +: 8];
        end
    end
end
endgenerate

// ---------------------------------------------------------------- host programs
// node 1: set MEM_SIZE once; node 0: 8-beat bursts to node 1's memory
reg        cfg_done = 1'b0;
reg [2:0]  beat = 3'd0;
reg [9:0]  blk = 10'd0;

assign h_valid[1] = !rst && !cfg_done;
assign h_addr[1]  = 47'(`TG_CSR_REG_MEM_SIZE);
assign h_wdata[1] = 64'd65536;
assign h_last[1]  = 1'b1;

assign h_valid[0] = !rst && cfg_done;
assign h_addr[0]  = (47'(`TG_WIN_REMOTE) << `TG_BAR_WIN_SHIFT) | (47'd1 << `TG_BAR_NODE_SHIFT) |
                    47'({blk, beat, 3'd0});
assign h_wdata[0] = cyc;
assign h_last[0]  = beat == 3'd7;

always @(posedge clk) begin
    cyc <= cyc + 64'd1;
    if (m_valid[1] && m_write[1])
        writes1 <= writes1 + 64'd1;
    if (h_valid[1] && h_ready[1])
        cfg_done <= 1'b1;
    if (h_valid[0] && h_ready[0]) begin
        beat <= beat + 3'd1;
        if (beat == 3'd7)
            blk <= blk + 10'd1;
    end
    if (cyc == limit) begin
        $display("tb_tg_pair: cycles %0d, node 1 memory writes %0d", cyc, writes1);
        if (writes1 == 64'd0)
            $fatal(1, "tb_tg_pair: no write reached node 1");
        $finish;
    end
end

endmodule

// Icarus top: the clock (Verilator drives clk from C++)
module tb_tg_pair_top;
reg clk = 1'b0;
always #4 clk = ~clk;
tb_tg_pair tb_tg_pair_inst (.clk(clk));
endmodule
