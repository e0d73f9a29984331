// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// RGMII to GMII-style bytes on ECP5 I/O registers: ODDRX1F for TXD, TX_CTL
// and the transmit clock, DELAYG then IDDRX1F for RXD and RX_CTL.
`default_nettype none

module tg_rgmii_ecp5 #(
    parameter RX_DELAY = 0 // DELAYG taps (about 25 ps each, 0..127) on RXD/RX_CTL;
                           // 0 when the PHY delays its receive clock itself
) (
    input  wire       clk,          // transmit clock (125 MHz); TXC follows it
    input  wire       rst,          // synchronous to clk

    // GMII-style transmit, in clk
    input  wire [7:0] gmii_txd,
    input  wire       gmii_tx_en,
    input  wire       gmii_tx_er,

    // GMII-style receive, in rx_clk
    output wire       rx_clk,
    output wire [7:0] gmii_rxd,
    output wire       gmii_rx_dv,
    output wire       gmii_rx_er,

    // RGMII pins
    output wire       rgmii_txc,
    output wire [3:0] rgmii_txd,
    output wire       rgmii_tx_ctl,
    input  wire       rgmii_rxc,
    input  wire [3:0] rgmii_rxd,
    input  wire       rgmii_rx_ctl
);

initial begin
    if (RX_DELAY < 0 || RX_DELAY > 127) $error("%m: RX_DELAY must be 0..127");
end

// ---------------------------------------------------------------- transmit
// rising edge: bits 3:0 and TX_EN; falling edge: bits 7:4 and TX_EN ^ TX_ER
genvar i;
generate
for (i = 0; i < 4; i = i + 1) begin : g_tx
    ODDRX1F oddr_txd_inst (
        .D0   (gmii_txd[i]),
        .D1   (gmii_txd[i+4]),
        .SCLK (clk),
        .RST  (rst),
        .Q    (rgmii_txd[i])
    );
end
endgenerate

ODDRX1F oddr_tx_ctl_inst (
    .D0   (gmii_tx_en),
    .D1   (gmii_tx_en ^ gmii_tx_er),
    .SCLK (clk),
    .RST  (rst),
    .Q    (rgmii_tx_ctl)
);

// TXC edges coincide with data changes: the PHY's internal TX delay
// (RTL8211F TXDLY strap) provides the setup time
ODDRX1F oddr_txc_inst (
    .D0   (1'b1),
    .D1   (1'b0),
    .SCLK (clk),
    .RST  (1'b0),
    .Q    (rgmii_txc)
);

// ---------------------------------------------------------------- receive
wire [4:0] rx_pin = {rgmii_rx_ctl, rgmii_rxd};
wire [4:0] rx_del;
wire [4:0] rx_rise, rx_fall;

generate
for (i = 0; i < 5; i = i + 1) begin : g_rx
    DELAYG #(
        .DEL_MODE  ("USER_DEFINED"),
        .DEL_VALUE (RX_DELAY)
    ) delayg_inst (
        .A (rx_pin[i]),
        .Z (rx_del[i])
    );
    IDDRX1F iddr_inst (
        .D    (rx_del[i]),
        .SCLK (rgmii_rxc),
        .RST  (1'b0),
        .Q0   (rx_rise[i]),
        .Q1   (rx_fall[i])
    );
end
endgenerate

assign rx_clk     = rgmii_rxc;
assign gmii_rxd   = {rx_fall[3:0], rx_rise[3:0]};
assign gmii_rx_dv = rx_rise[4];
assign gmii_rx_er = rx_rise[4] ^ rx_fall[4];

endmodule

`default_nettype wire
