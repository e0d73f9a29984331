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
        // one bit a step: shift out bit 0, and add the polynomial when it
        // was set (a mask, not a branch)
        for (bit_idx = 0; bit_idx < 8; bit_idx = bit_idx + 1) begin
            acc = {1'b0, acc[31:1]} ^ (32'hEDB88320 & {32{acc[0]}});
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

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// C2: four bytes (lanes 0 to 3) after register value R leave the residue
// exactly when they are ~R, least significant byte first: the FCS a
// sender appends, and no other value, passes the receiver's residue test.
always @* begin
    if (keep == 8'h0F) begin
        assert((crc_out == 32'hDEBB20E3) == (data[31:0] == ~crc_in));
    end
end
`endif

endmodule

`ifdef FORMAL
// Reference for C1 (scripts/formal.sh checks that tg_crc32_d64 computes
// the same function): the enabled bytes, lane 0 first, taken bit by bit,
// least significant bit first, through a serial shift register whose
// outgoing bit is XORed with the data bit; when that is one the
// polynomial is added.
module tg_crc32_d64_ref (
    input  wire [31:0] crc_in,
    input  wire [63:0] data,
    input  wire [7:0]  keep,
    output reg  [31:0] crc_out
);

integer lane;
integer b;

always @* begin
    crc_out = crc_in;
    for (lane = 0; lane < 8; lane = lane + 1) begin
        for (b = 0; b < 8; b = b + 1) begin
            if (keep[lane]) begin
                crc_out = {1'b0, crc_out[31:1]} ^
                          ((crc_out[0] ^ data[lane*8 + b]) ? 32'hEDB88320 : 32'd0);
            end
        end
    end
end

endmodule
`endif

`default_nettype wire
