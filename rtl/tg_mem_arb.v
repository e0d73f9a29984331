// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Shares the host-memory master port between two requesters: round robin
// per request through a registered grant, and every answer (the memory
// answers in order) goes back to the requester of the oldest unanswered
// request.
`default_nettype none

module tg_mem_arb #(
    parameter OUT_LOG2 = 6     // log2 of the requests that may await an answer
) (
    input  wire        clk,
    input  wire        rst,

    // requester 0
    input  wire        s0_mem_req_valid,
    output reg         s0_mem_req_ready,
    input  wire        s0_mem_req_write,
    input  wire [31:0] s0_mem_req_addr,
    input  wire [63:0] s0_mem_req_wdata,
    input  wire [7:0]  s0_mem_req_wstrb,
    output reg         m0_mem_resp_valid,
    output wire [63:0] m0_mem_resp_rdata,

    // requester 1
    input  wire        s1_mem_req_valid,
    output reg         s1_mem_req_ready,
    input  wire        s1_mem_req_write,
    input  wire [31:0] s1_mem_req_addr,
    input  wire [63:0] s1_mem_req_wdata,
    input  wire [7:0]  s1_mem_req_wstrb,
    output reg         m1_mem_resp_valid,
    output wire [63:0] m1_mem_resp_rdata,

    // to host memory
    output reg         m_mem_req_valid,
    input  wire        m_mem_req_ready,
    output reg         m_mem_req_write,
    output reg  [31:0] m_mem_req_addr,
    output reg  [63:0] m_mem_req_wdata,
    output reg  [7:0]  m_mem_req_wstrb,
    input  wire        s_mem_resp_valid,
    input  wire [63:0] s_mem_resp_rdata,

    output wire        st_idle           // no request unanswered
);

localparam DEPTH = 1 << OUT_LOG2;

// ---------------------------------------------------------------- state
reg [DEPTH-1:0]  own_reg,  own_next;     // requester of each unanswered request
reg [OUT_LOG2:0] wr_reg,   wr_next;
reg [OUT_LOG2:0] rd_reg,   rd_next;
reg              grant_reg, grant_next;  // the requester on the port: 0 or 1

wire [OUT_LOG2:0] used = wr_reg - rd_reg;
wire              room = (used != DEPTH[OUT_LOG2:0]);
wire              head_own = own_reg[rd_reg[OUT_LOG2-1:0]];

// The grant is a register: the port shows the granted requester's request,
// and each ready is made of registers and m_mem_req_ready alone, never of
// the other requester's valid. The grant moves to the other requester when
// it waits and the granted one has no request or was just served (round
// robin per request); a request waiting on a stalled port keeps it. A move
// to a requester that was not granted costs it one cycle.
wire cur_valid = grant_reg ? s1_mem_req_valid : s0_mem_req_valid;
wire oth_valid = grant_reg ? s0_mem_req_valid : s1_mem_req_valid;

always @* begin
    m_mem_req_valid  = room && cur_valid;
    m_mem_req_write  = grant_reg ? s1_mem_req_write : s0_mem_req_write;
    m_mem_req_addr   = grant_reg ? s1_mem_req_addr  : s0_mem_req_addr;
    m_mem_req_wdata  = grant_reg ? s1_mem_req_wdata : s0_mem_req_wdata;
    m_mem_req_wstrb  = grant_reg ? s1_mem_req_wstrb : s0_mem_req_wstrb;
    s0_mem_req_ready = room && m_mem_req_ready && !grant_reg;
    s1_mem_req_ready = room && m_mem_req_ready && grant_reg;

    m0_mem_resp_valid = s_mem_resp_valid && !head_own;
    m1_mem_resp_valid = s_mem_resp_valid && head_own;
end

assign m0_mem_resp_rdata = s_mem_resp_rdata;
assign st_idle           = (wr_reg == rd_reg);
assign m1_mem_resp_rdata = s_mem_resp_rdata;

always @* begin
    own_next   = own_reg;
    wr_next    = wr_reg;
    rd_next    = rd_reg;
    grant_next = grant_reg;
    if (m_mem_req_valid && m_mem_req_ready) begin
        own_next[wr_reg[OUT_LOG2-1:0]] = grant_reg;
        wr_next = wr_reg + 1'b1;
    end
    if (oth_valid && (!cur_valid || (m_mem_req_valid && m_mem_req_ready))) begin
        grant_next = !grant_reg;
    end
    if (s_mem_resp_valid) begin
        rd_next = rd_reg + 1'b1;
    end
end

always @(posedge clk) begin
    own_reg   <= own_next;
    wr_reg    <= wr_next;
    rd_reg    <= rd_next;
    grant_reg <= grant_next;
    if (rst) begin
        own_reg   <= {DEPTH{1'b0}};
        wr_reg    <= {(OUT_LOG2+1){1'b0}};
        rd_reg    <= {(OUT_LOG2+1){1'b0}};
        grant_reg <= 1'b0;
    end
end

endmodule

`default_nettype wire
