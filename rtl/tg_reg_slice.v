// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// A register slice for a valid/ready channel: both sides see registers only.
// m_valid and m_data come from the output register, s_ready from a register
// too, so that no path runs through the slice combinationally in either
// direction. A beat takes one cycle to cross; the slice passes one beat per
// cycle while m_ready stays high, and a skid register keeps the beat taken
// in the cycle m_ready fell.
`default_nettype none

module tg_reg_slice #(
    parameter W = 64
) (
    input  wire         clk,
    input  wire         rst,

    input  wire         s_valid,
    output wire         s_ready,
    input  wire [W-1:0] s_data,

    output wire         m_valid,
    input  wire         m_ready,
    output wire [W-1:0] m_data,

    output wire         st_idle     // empty, and out of reset: no cycle changes it
);

// ---------------------------------------------------------------- state
reg         out_valid_reg,  out_valid_next;    // m side
reg [W-1:0] out_data_reg;
reg         skid_valid_reg, skid_valid_next;   // taken while the m side stalled
reg [W-1:0] skid_data_reg;
reg         ready_reg,      ready_next;        // the skid is empty (low in reset)
// the data registers load only when a beat moves (a cycle-based simulator
// then copies no data in the cycles it does not)
reg         out_load;                          // the output register takes a beat (the
                                               // skid's, else the one arriving)
reg         skid_load;                         // the skid takes the beat arriving

wire s_fire = s_valid && ready_reg;
wire m_free = !out_valid_reg || m_ready;       // the output register may load

// ---------------------------------------------------------------- next state
always @* begin
    out_valid_next  = out_valid_reg;
    skid_valid_next = skid_valid_reg;
    out_load        = 1'b0;
    skid_load       = 1'b0;

    if (m_free) begin
        // the oldest beat moves out: the skid's, else the one arriving
        if (skid_valid_reg) begin
            out_valid_next  = 1'b1;
            out_load        = 1'b1;
            skid_valid_next = 1'b0;
        end else begin
            out_valid_next = s_fire;
            out_load       = s_fire;
        end
    end else if (s_fire) begin
        // the output holds: the beat waits in the skid (empty, as s_ready
        // was high)
        skid_valid_next = 1'b1;
        skid_load       = 1'b1;
    end
    ready_next = !skid_valid_next;
end

// ---------------------------------------------------------------- registers
always @(posedge clk) begin
    out_valid_reg  <= out_valid_next;
    skid_valid_reg <= skid_valid_next;
    ready_reg      <= ready_next;
    if (out_load) begin
        out_data_reg <= skid_valid_reg ? skid_data_reg : s_data;
    end
    if (skid_load) begin
        skid_data_reg <= s_data;
    end
    if (rst) begin
        out_valid_reg  <= 1'b0;
        skid_valid_reg <= 1'b0;
        ready_reg      <= 1'b0;
    end
end

assign s_ready = ready_reg;
assign m_valid = out_valid_reg;
assign m_data  = out_data_reg;
assign st_idle = !out_valid_reg && !skid_valid_reg && ready_reg;

endmodule

`default_nettype wire
