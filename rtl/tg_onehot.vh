// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// The lowest set bit of a vector, and the number of a one-hot vector's set
// bit, as whole-vector logic (no loop over the bits at run time). Included
// inside a module (no include guard: each module gets its own copy) after
// it declares localparams OH_N, the vector width, and OH_LOG2, the bits of
// a number below OH_N (at least 1).

// the vector with only v's lowest set bit (zero if none)
function [OH_N-1:0] oh_lowest;
    input [OH_N-1:0] v;
    begin
        oh_lowest = v & (~v + {{(OH_N-1){1'b0}}, 1'b1});
    end
endfunction

// the bits whose number has bit b set
function [OH_N-1:0] oh_num_bit;
    input integer b;
    integer k;
    begin
        for (k = 0; k < OH_N; k = k + 1) begin
            oh_num_bit[k] = ((k >> b) & 1) == 1;
        end
    end
endfunction

// the number of a one-hot vector's set bit: bit b of the number is set
// when the set bit is among those whose number has bit b
function [OH_LOG2-1:0] oh_index;
    input [OH_N-1:0] oh;
    integer b;
    begin
        for (b = 0; b < OH_LOG2; b = b + 1) begin
            oh_index[b] = (oh & oh_num_bit(b)) != {OH_N{1'b0}};
        end
    end
endfunction
