// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Byte-serial gigabit MAC between a GMII-style interface and byte streams:
// preamble and start delimiter removed on receive (FCS left in place, a
// byte received in error flagged), added on transmit with the gap after
// each frame. No FIFO: the byte-serial receiver and transmitter
// (tg_eth_rx8, tg_eth_tx8) keep whole frames in block RAM.
`default_nettype none

module tg_gmii_mac8 (
    input  wire       clk,
    input  wire       rst,

    // GMII receive samples, already in this clock (one per cycle at most)
    input  wire       gmii_rx_valid,  // a sample is present this cycle
    input  wire       gmii_rx_dv,
    input  wire       gmii_rx_er,
    input  wire [7:0] gmii_rxd,

    // GMII transmit, one byte per cycle
    output wire [7:0] gmii_txd,
    output wire       gmii_tx_en,
    output wire       gmii_tx_er,

    // received frame bytes (FCS included), never stalled; a frame's last
    // byte is followed by at least one cycle without a byte
    output wire [7:0] m_rx_tdata,
    output wire       m_rx_tvalid,
    output wire       m_rx_tlast,
    output wire       m_rx_tuser,     // the byte was received in error

    // frame bytes to send (FCS included, at least 1 byte); once a frame's
    // first byte is taken, the source must offer one every cycle
    input  wire [7:0] s_tx_tdata,
    input  wire       s_tx_tvalid,
    output wire       s_tx_tready,
    input  wire       s_tx_tlast,

    // status pulse
    output wire       ev_tx_abort     // the source ran dry inside a frame
);

localparam [7:0] PRE = 8'h55, SFD = 8'hD5;

// ================================================================ receive
// A data byte is held until the next sample tells whether it was the
// frame's last: the next data byte, or the end of rx_dv.
localparam [1:0] R_IDLE = 2'd0, R_PRE = 2'd1, R_DATA = 2'd2, R_SKIP = 2'd3;

reg [1:0] r_state_reg, r_state_next;
reg [7:0] r_hold_reg,  r_hold_next;     // the last data byte received
reg       r_held_reg,  r_held_next;     // ... is there
reg       r_herr_reg,  r_herr_next;     // ... came with rx_er
reg [7:0] rx_data_reg, rx_data_next;
reg       rx_valid_reg, rx_valid_next;
reg       rx_last_reg, rx_last_next;
reg       rx_user_reg, rx_user_next;

always @* begin
    r_state_next  = r_state_reg;
    r_hold_next   = r_hold_reg;
    r_held_next   = r_held_reg;
    r_herr_next   = r_herr_reg;
    rx_data_next  = r_hold_reg;
    rx_valid_next = 1'b0;
    rx_last_next  = 1'b0;
    rx_user_next  = r_herr_reg;

    if (gmii_rx_valid) begin
        case (r_state_reg)
        R_IDLE: begin
            if (gmii_rx_dv && gmii_rxd == PRE && !gmii_rx_er) r_state_next = R_PRE;
            else if (gmii_rx_dv) r_state_next = R_SKIP;
        end
        R_PRE: begin
            r_held_next = 1'b0;
            if (!gmii_rx_dv) begin
                r_state_next = R_IDLE;
            end else if (gmii_rxd == SFD) begin
                r_state_next = R_DATA;
            end else if (gmii_rxd != PRE) begin
                r_state_next = R_SKIP;
            end
        end
        R_DATA: begin
            // the held byte goes out: the last one when rx_dv ends
            rx_valid_next = r_held_reg;
            if (gmii_rx_dv) begin
                r_hold_next = gmii_rxd;
                r_held_next = 1'b1;
                r_herr_next = gmii_rx_er;
            end else begin
                rx_last_next = 1'b1;
                r_held_next  = 1'b0;
                r_state_next = R_IDLE;
            end
        end
        default: begin // R_SKIP: ignore the rest of the frame
            if (!gmii_rx_dv) r_state_next = R_IDLE;
        end
        endcase
    end
end

always @(posedge clk) begin
    r_hold_reg  <= r_hold_next;
    r_herr_reg  <= r_herr_next;
    rx_data_reg <= rx_data_next;
    rx_last_reg <= rx_last_next;
    rx_user_reg <= rx_user_next;
    if (rst) begin
        r_state_reg  <= R_IDLE;
        r_held_reg   <= 1'b0;
        rx_valid_reg <= 1'b0;
    end else begin
        r_state_reg  <= r_state_next;
        r_held_reg   <= r_held_next;
        rx_valid_reg <= rx_valid_next;
    end
end

assign m_rx_tdata  = rx_data_reg;
assign m_rx_tvalid = rx_valid_reg;
assign m_rx_tlast  = rx_last_reg;
assign m_rx_tuser  = rx_user_reg;

// ================================================================ transmit
localparam [2:0] T_IDLE = 3'd0, T_PRE = 3'd1, T_DATA = 3'd2, T_DRAIN = 3'd3, T_GAP = 3'd4;

reg [2:0] t_state_reg, t_state_next;
reg [3:0] t_cnt_reg,   t_cnt_next;      // preamble bytes sent / gap cycles left
reg [7:0] txd_reg,     txd_next;
reg       tx_en_reg,   tx_en_next;
reg       tx_er_reg,   tx_er_next;
reg       abort_reg,   abort_next;
reg       ready_reg;                    // the state is T_DATA or T_DRAIN

assign s_tx_tready = ready_reg;

always @* begin
    t_state_next = t_state_reg;
    t_cnt_next   = t_cnt_reg;
    txd_next     = 8'd0;
    tx_en_next   = 1'b0;
    tx_er_next   = 1'b0;
    abort_next   = 1'b0;

    case (t_state_reg)
    T_IDLE: begin
        t_cnt_next = 4'd0;
        if (s_tx_tvalid) t_state_next = T_PRE;
    end
    T_PRE: begin
        tx_en_next = 1'b1;
        txd_next   = (t_cnt_reg == 4'd7) ? SFD : PRE;
        t_cnt_next = t_cnt_reg + 4'd1;
        if (t_cnt_reg == 4'd7) t_state_next = T_DATA;
    end
    T_DATA: begin
        tx_en_next = 1'b1;
        if (s_tx_tvalid) begin
            txd_next = s_tx_tdata;
            if (s_tx_tlast) begin
                t_state_next = T_GAP;
                t_cnt_next   = 4'd11;
            end
        end else begin
            // the source ran dry: send an error byte, end the frame and
            // drop the rest of it
            tx_er_next   = 1'b1;
            abort_next   = 1'b1;
            t_state_next = T_DRAIN;
        end
    end
    T_DRAIN: begin
        if (s_tx_tvalid && s_tx_tlast) begin
            t_state_next = T_GAP;
            t_cnt_next   = 4'd11;
        end
    end
    default: begin // T_GAP: 12 idle byte times (this one included)
        t_cnt_next = t_cnt_reg - 4'd1;
        if (t_cnt_reg == 4'd0) t_state_next = T_IDLE;
    end
    endcase
end

always @(posedge clk) begin
    t_cnt_reg <= t_cnt_next;
    txd_reg   <= txd_next;
    if (rst) begin
        t_state_reg <= T_IDLE;
        ready_reg   <= 1'b0;
        tx_en_reg   <= 1'b0;
        tx_er_reg   <= 1'b0;
        abort_reg   <= 1'b0;
    end else begin
        t_state_reg <= t_state_next;
        ready_reg   <= (t_state_next == T_DATA) || (t_state_next == T_DRAIN);
        tx_en_reg   <= tx_en_next;
        tx_er_reg   <= tx_er_next;
        abort_reg   <= abort_next;
    end
end

assign gmii_txd    = txd_reg;
assign gmii_tx_en  = tx_en_reg;
assign gmii_tx_er  = tx_er_reg;
assign ev_tx_abort = abort_reg;

endmodule

`default_nettype wire
