// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// AXI-Stream clock-domain crossing: beats {tuser, tlast, tkeep, tdata} through
// tg_async_fifo. In frame mode the output offers a frame only once its
// last beat has been written, so a byte-paced consumer (a MAC) never runs
// dry inside a frame however slow the writing clock is.
`default_nettype none

module tg_axis_async_fifo #(
    parameter DATA_W = 64, // tdata bits (8..128, a multiple of 8)
    parameter ADDR_W = 5,  // log2 of the beats held (2..8); in frame mode a
                           // frame longer than this never comes out
    parameter USER_W = 1,  // tuser bits (1..8)
    parameter FRAME  = 0   // 1: store whole frames before offering them
) (
    // input side
    input  wire                s_clk,
    input  wire [DATA_W-1:0]   s_axis_tdata,
    input  wire [DATA_W/8-1:0] s_axis_tkeep,
    input  wire                s_axis_tvalid,
    output wire                s_axis_tready,
    input  wire                s_axis_tlast,
    input  wire [USER_W-1:0]   s_axis_tuser,

    // output side; m_rst (m_clk, synchronous) resets both sides
    input  wire                m_clk,
    input  wire                m_rst,
    output wire [DATA_W-1:0]   m_axis_tdata,
    output wire [DATA_W/8-1:0] m_axis_tkeep,
    output wire                m_axis_tvalid,
    input  wire                m_axis_tready,
    output wire                m_axis_tlast,
    output wire [USER_W-1:0]   m_axis_tuser
);

localparam KEEP_W = DATA_W / 8;
localparam WIDTH  = DATA_W + KEEP_W + 1 + USER_W;

initial begin
    if (DATA_W < 8 || DATA_W > 128 || DATA_W % 8 != 0) $error("%m: DATA_W must be 8..128, a multiple of 8");
    if (USER_W < 1 || USER_W > 8) $error("%m: USER_W must be 1..8");
    if (FRAME < 0 || FRAME > 1) $error("%m: FRAME must be 0 or 1");
end

wire             wr_full, rd_valid;
wire [WIDTH-1:0] rd_data;
wire             m_pop  = m_axis_tvalid && m_axis_tready;

tg_async_fifo #(
    .WIDTH  (WIDTH),
    .ADDR_W (ADDR_W)
) tg_async_fifo_inst (
    .wr_clk   (s_clk),
    .wr_en    (s_axis_tvalid),
    .wr_data  ({s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
    .wr_full  (wr_full),
    .rd_clk   (m_clk),
    .rst      (m_rst),
    .rd_valid (rd_valid),
    .rd_en    (m_pop),
    .rd_data  (rd_data)
);

assign s_axis_tready = !wr_full;
assign m_axis_tdata  = rd_data[DATA_W-1:0];
assign m_axis_tkeep  = rd_data[DATA_W +: KEEP_W];
assign m_axis_tlast  = rd_data[DATA_W + KEEP_W];
assign m_axis_tuser  = rd_data[WIDTH-1 -: USER_W];

generate
if (FRAME != 0) begin : g_frame
    // Frames written, counted in Gray code one input clock after the
    // pointer that holds their last beat moved; synchronized like the
    // pointers, the count can run at most one output clock ahead of the
    // last beat, which the reader reaches no sooner than one beat later.
    reg            s_rst_meta_reg, s_rst_reg;
    reg            s_last_reg;                // a last beat went in the cycle before
    reg [ADDR_W:0] s_frames_reg, s_frames_next;
    reg [ADDR_W:0] s_frames_gray_reg;
    reg [ADDR_W:0] m_frames_g1_reg, m_frames_g2_reg;
    // frames whose last beat went out, in Gray code (tg_gray_count: a last
    // beat going out only selects the registered successor)
    wire [ADDR_W:0] m_frames_gray;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ADDR_W:0] m_frames_bin_unused, m_frames_gray_inc_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire           s_push = s_axis_tvalid && !wr_full;

    always @* begin
        s_frames_next = s_frames_reg;
        if (s_last_reg) s_frames_next = s_frames_reg + 1'b1;
    end

    tg_gray_count #(
        .W (ADDR_W + 1)
    ) tg_gray_count_frames_inst (
        .clk          (m_clk),
        .rst          (m_rst),
        .inc          (m_pop && m_axis_tlast),
        .out_bin      (m_frames_bin_unused),
        .out_gray     (m_frames_gray),
        .out_gray_inc (m_frames_gray_inc_unused)
    );

    always @(posedge s_clk) begin
        s_rst_meta_reg <= m_rst;
        s_rst_reg      <= s_rst_meta_reg;
        if (s_rst_reg) begin
            s_last_reg        <= 1'b0;
            s_frames_reg      <= {(ADDR_W+1){1'b0}};
            s_frames_gray_reg <= {(ADDR_W+1){1'b0}};
        end else begin
            s_last_reg        <= s_push && s_axis_tlast;
            s_frames_reg      <= s_frames_next;
            s_frames_gray_reg <= s_frames_next ^ (s_frames_next >> 1);
        end
    end

    always @(posedge m_clk) begin
        m_frames_g1_reg <= s_frames_gray_reg;
        m_frames_g2_reg <= m_frames_g1_reg;
    end

    // a frame is complete while the synchronized count is ahead of ours
    wire m_frame_in = (m_frames_g2_reg != m_frames_gray);
    assign m_axis_tvalid = rd_valid && m_frame_in;
end else begin : g_stream
    assign m_axis_tvalid = rd_valid;
end
endgenerate

endmodule

`default_nettype wire
