// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Word i of a 64-byte payload as a plain multiplexer: a part-select at a
// computed offset (v[i*64 +: 64]) is built by Yosys as a shifter across
// the whole vector.  Included inside the modules that select payload
// words (tg_rx_engine, tg_req_spill).
function [63:0] payload_word;
    input [511:0] v;
    input [2:0]   i;
    integer       k;
    begin
        payload_word = 64'd0;
        for (k = 0; k < 8; k = k + 1) begin
            if (i == k[2:0]) begin
                payload_word = v[k*64 +: 64];
            end
        end
    end
endfunction
