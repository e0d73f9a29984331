// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench helper: a copy of every word written into a payload buffer of 32
// slots, showing one slot's eight words at once (a word written in the
// same cycle shows its new value; no payload source shows zeros), so a
// C++ bench can compare a descriptor's whole payload.
`default_nettype none
`include "tg_hw_defs.vh"

module tb_pay_shadow (
    input  wire         clk,
    input  wire         s_wr_en,
    input  wire [4:0]   s_wr_slot,
    input  wire [2:0]   s_wr_word,
    input  wire [63:0]  s_wr_data,
    input  wire [1:0]   s_show_src,    // TG_PAY_NONE: zeros
    input  wire [4:0]   s_show_slot,
    output wire [511:0] m_payload
);

reg [63:0] shadow [0:255];
always @(posedge clk) begin
    if (s_wr_en) begin
        shadow[{s_wr_slot, s_wr_word}] <= s_wr_data;
    end
end

wire has_pay = (s_show_src != `TG_PAY_NONE);

genvar w;
generate
for (w = 0; w < 8; w = w + 1) begin : g_word
    wire [2:0] wi  = w;
    wire       now = s_wr_en && (s_wr_slot == s_show_slot) && (s_wr_word == wi);
    assign m_payload[w*64 +: 64] = !has_pay ? 64'd0 :
                                   now      ? s_wr_data : shadow[{s_show_slot, wi}];
end
endgenerate

endmodule

`default_nettype wire
