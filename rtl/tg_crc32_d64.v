// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Ethernet CRC-32 (reflected, polynomial 0xEDB88320) advanced over the
// enabled bytes of one 64-bit beat, byte 0 first; purely combinational.
`default_nettype none

module tg_crc32_d64 (
    input  wire [31:0] crc_in,    // running CRC register (0xFFFFFFFF at frame start)
    input  wire [63:0] data,      // byte i in data[8i+7:8i]
    input  wire [7:0]  keep,      // byte i is included when keep[i] is set
    output wire [31:0] crc_out    // register after the enabled bytes
);

function [31:0] crc_byte;
    input [31:0] crc;
    input [7:0]  octet;
    integer      bit_idx;
    reg   [31:0] acc;
    begin
        acc = crc ^ {24'd0, octet};
        for (bit_idx = 0; bit_idx < 8; bit_idx = bit_idx + 1) begin
            if (acc[0]) begin
                acc = {1'b0, acc[31:1]} ^ 32'hEDB88320;
            end else begin
                acc = {1'b0, acc[31:1]};
            end
        end
        crc_byte = acc;
    end
endfunction

reg [31:0] crc_acc;
integer    lane;

always @* begin
    crc_acc = crc_in;
    for (lane = 0; lane < 8; lane = lane + 1) begin
        if (keep[lane]) begin
            crc_acc = crc_byte(crc_acc, data[lane*8 +: 8]);
        end
    end
end

assign crc_out = crc_acc;

endmodule

`default_nettype wire
