// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Host memory in block RAM, shared by two request ports (the NIC's memory
// master and the bridge) with alternating priority; one response per
// request, one cycle after it is accepted (a read's with the word, a
// write's with no data).
`default_nettype none

module tg_bram_mem #(
    parameter MEM_LOG2 = 14 // bytes of memory, log2 (6..20); addresses wrap
) (
    input  wire        clk,
    input  wire        rst,

    // port a
    input  wire        s_a_req_valid,
    output wire        s_a_req_ready,
    input  wire        s_a_req_write,
    input  wire [31:0] s_a_req_addr,
    input  wire [63:0] s_a_req_wdata,
    input  wire [7:0]  s_a_req_wstrb,
    output wire        m_a_resp_valid,
    output wire [63:0] m_a_resp_rdata,

    // port b
    input  wire        s_b_req_valid,
    output wire        s_b_req_ready,
    input  wire        s_b_req_write,
    input  wire [31:0] s_b_req_addr,
    input  wire [63:0] s_b_req_wdata,
    input  wire [7:0]  s_b_req_wstrb,
    output wire        m_b_resp_valid,
    output wire [63:0] m_b_resp_rdata
);

localparam WORDS_LOG2 = MEM_LOG2 - 3;

initial begin
    if (MEM_LOG2 < 6 || MEM_LOG2 > 20) $error("%m: MEM_LOG2 must be 6..20");
end

reg [63:0] mem [0:(1 << WORDS_LOG2)-1];

reg        prio_b_reg, prio_b_next;   // port b wins a tie
reg        a_resp_reg, b_resp_reg;
reg [63:0] rdata_reg;

// port a's ready does not look at its own valid, so a master whose valid
// follows its ready closes no combinational loop
wire ready_a = !(s_b_req_valid && prio_b_reg);
wire grant_a = s_a_req_valid && ready_a;
wire grant_b = s_b_req_valid && !grant_a;

wire        sel_write = grant_a ? s_a_req_write : s_b_req_write;
wire [31:0] sel_addr  = grant_a ? s_a_req_addr  : s_b_req_addr;
wire [63:0] sel_wdata = grant_a ? s_a_req_wdata : s_b_req_wdata;
wire [7:0]  sel_wstrb = grant_a ? s_a_req_wstrb : s_b_req_wstrb;
wire        sel_en    = grant_a || grant_b;
wire [WORDS_LOG2-1:0] word = sel_addr[MEM_LOG2-1:3];

always @* begin
    prio_b_next = prio_b_reg;
    if (grant_a) prio_b_next = 1'b1;
    if (grant_b) prio_b_next = 1'b0;
end

integer i;
always @(posedge clk) begin
    if (sel_en) begin
        for (i = 0; i < 8; i = i + 1)
            if (sel_write && sel_wstrb[i]) mem[word][8*i +: 8] <= sel_wdata[8*i +: 8];
        // a write's response carries no data: the RAM is read for reads
        // alone, so no logic has to order a read after a write of one word
        if (!sel_write) rdata_reg <= mem[word];
    end
    if (rst) begin
        prio_b_reg <= 1'b0;
        a_resp_reg <= 1'b0;
        b_resp_reg <= 1'b0;
    end else begin
        prio_b_reg <= prio_b_next;
        a_resp_reg <= grant_a;
        b_resp_reg <= grant_b;
    end
end

assign s_a_req_ready  = ready_a;
assign s_b_req_ready  = grant_b;
assign m_a_resp_valid = a_resp_reg;
assign m_b_resp_valid = b_resp_reg;
assign m_a_resp_rdata = rdata_reg;
assign m_b_resp_rdata = rdata_reg;

/* verilator lint_off UNUSEDSIGNAL */
wire [34-MEM_LOG2:0] unused_addr = {sel_addr[31:MEM_LOG2], sel_addr[2:0]};
/* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
