// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Ethernet CRC-32 (reflected, polynomial 0xEDB88320) advanced over the
// first n bytes of one 64-bit beat, byte 0 first, where keep is a run of n
// ones from bit 0 (n = 0..8; what a stream's beats carry); any other keep
// leaves the register as it is. Purely combinational.
//
// The register after each run length is computed whole, from the register
// and its bytes, and keep chooses among them: no byte step waits for the
// choice of the one before it (a chain of byte steps, each skipped or not,
// was thirty cells deep).
`default_nettype none

module tg_crc32_d64 #(
    parameter [7:0] RUNS = 8'hFF  // bit n-1 set: a run of n bytes is built (others leave the register)
) (
    input  wire [31:0] crc_in,    // running CRC register (0xFFFFFFFF at frame start)
    input  wire [63:0] data,      // byte i in data[8i+7:8i]
    input  wire [7:0]  keep,      // a run of ones from bit 0: the bytes included
    output reg  [31:0] crc_out    // register after the included bytes
);

// one byte through the register: shift out bit 0 and add the polynomial
// when it was set (a mask, not a branch)
function [31:0] crc_byte;
    input [31:0] crc;
    input [7:0]  octet;
    integer      bit_idx;
    reg   [31:0] acc;
    begin
        acc = crc ^ {24'd0, octet};
        for (bit_idx = 0; bit_idx < 8; bit_idx = bit_idx + 1) begin
            acc = {1'b0, acc[31:1]} ^ (32'hEDB88320 & {32{acc[0]}});
        end
        crc_byte = acc;
    end
endfunction

// the register after the first n bytes of d
function [31:0] crc_bytes;
    input [31:0] crc;
    input [63:0] d;
    input integer n;
    integer      lane;
    reg   [31:0] acc;
    begin
        acc = crc;
        for (lane = 0; lane < n; lane = lane + 1) begin
            acc = crc_byte(acc, d[lane*8 +: 8]);
        end
        crc_bytes = acc;
    end
endfunction

wire [31:0] crc_n [1:8];   // the register after n bytes

genvar gn;
generate
    for (gn = 1; gn <= 8; gn = gn + 1) begin : g_n
        if (RUNS[gn-1]) begin : g_built
            assign crc_n[gn] = crc_bytes(crc_in, data, gn);
        end else begin : g_none
            assign crc_n[gn] = crc_in;
        end
    end
endgenerate

always @* begin
    case (keep)
        8'h01:   crc_out = crc_n[1];
        8'h03:   crc_out = crc_n[2];
        8'h07:   crc_out = crc_n[3];
        8'h0F:   crc_out = crc_n[4];
        8'h1F:   crc_out = crc_n[5];
        8'h3F:   crc_out = crc_n[6];
        8'h7F:   crc_out = crc_n[7];
        8'hFF:   crc_out = crc_n[8];
        default: crc_out = crc_in;
    endcase
end

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
// polynomial is added. A keep that is not a run of ones from bit 0 takes
// no byte.
module tg_crc32_d64_ref (
    input  wire [31:0] crc_in,
    input  wire [63:0] data,
    input  wire [7:0]  keep,
    output reg  [31:0] crc_out
);

integer lane;
integer b;
wire    run = (keep & (keep + 8'd1)) == 8'd0;   // ones from bit 0, then zeros

always @* begin
    crc_out = crc_in;
    for (lane = 0; lane < 8; lane = lane + 1) begin
        for (b = 0; b < 8; b = b + 1) begin
            if (run && keep[lane]) begin
                crc_out = {1'b0, crc_out[31:1]} ^
                          ((crc_out[0] ^ data[lane*8 + b]) ? 32'hEDB88320 : 32'd0);
            end
        end
    end
end

endmodule
`endif

`default_nettype wire
