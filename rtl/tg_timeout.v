// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Timeouts of N waiting entries (REQ slots, fetches, a blocking read), by
// deadline: one free-running count of cycles, and each entry's deadline
// on it (count + cfg_timeout), loaded in every cycle the entry is not
// waiting. An entry waiting since cycle x0 is overdue from cycle
// x0 + cfg_timeout on, while it waits: the cycle its count of waited
// cycles would reach cfg_timeout. An equality per entry and one shared
// adder, instead of a counter and a magnitude compare per entry.
// cfg_timeout, and whether it is 0 (never), is taken in the cycle before
// the wait starts: a change applies to later waits.
`default_nettype none

module tg_timeout #(
    parameter N = 4             // entries (1..32)
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_timeout,    // cycles (0: never)
    input  wire [N-1:0] in_wait,        // entry e waits for its answer in this cycle
    output wire [N-1:0] m_over,         // entry e is overdue (a register)
    output wire [N-1:0] m_over_next     // ... after this edge: m_over's next value
);

initial begin
    if (N < 1 || N > 32) begin
        $error("%m: N must be in 1..32");
    end
end

// The count is free-running and not advanced by a fast-forward's skipped
// cycles: it is only compared with deadlines loaded from it after them.
reg [31:0]  now_reg;
wire [31:0] dl_load = now_reg + cfg_timeout;
reg [31:0]  dl_reg   [0:N-1];
reg [N-1:0] on_reg;             // the timeout was not 0 when the wait started
reg [N-1:0] over_reg;

assign m_over = over_reg;

genvar e;
generate
    for (e = 0; e < N; e = e + 1) begin : g_entry
        assign m_over_next[e] = in_wait[e] && on_reg[e] && (over_reg[e] || now_reg == dl_reg[e]);
        always @(posedge clk) begin
            if (!in_wait[e]) begin
                dl_reg[e] <= dl_load;
                on_reg[e] <= cfg_timeout != 32'd0;
            end
            over_reg[e] <= m_over_next[e];
            if (rst) begin
                on_reg[e]   <= 1'b0;
                over_reg[e] <= 1'b0;
            end
        end
    end
endgenerate

always @(posedge clk) begin
    now_reg <= now_reg + 32'd1;
    if (rst) begin
        now_reg <= 32'd0;
    end
end

endmodule

`default_nettype wire
