// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Simulation model of the ECP5 fixed input/output delay: a wire (the
// benches apply the skew it compensates as a phase of their own clocks).
`default_nettype none

// the parameters only configure the real cell
/* verilator lint_off UNUSEDPARAM */
module DELAYG #(
    parameter DEL_MODE  = "USER_DEFINED", // only "USER_DEFINED" is modelled
    parameter DEL_VALUE = 0               // taps of about 25 ps (0..127)
) (
/* verilator lint_on UNUSEDPARAM */
    input  wire A,
    output wire Z
);

assign Z = A;

endmodule

`default_nettype wire
