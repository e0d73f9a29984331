// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Gigabit MAC between a byte-wide GMII-style interface and the NIC's 64-bit
// AXI-Stream frame port. Transmit: preamble, start delimiter, the frame,
// its FCS and the gap. Receive: preamble removal, the FCS checked and
// removed, packing and a frame FIFO; a frame whose FCS is wrong, that
// carried rx_er or that was cut short leaves with tuser set on its last
// beat. The FCS is computed a byte a cycle, where the wire is a byte wide.
`default_nettype none

module tg_gmii_mac #(
    parameter RX_FIFO_LOG2 = 6, // log2 of the receive FIFO in 8-byte beats (5..10);
                                // frames longer than half of it are cut short
    parameter RX_FIFO_DIST = 0  // 1: the receive FIFO in distributed (LUT) RAM, whose
                                // read lands in a fabric register with a tenth of a
                                // block RAM's clock-to-output (ECP5); 0: block RAM
) (
    input  wire        clk,
    input  wire        rst,

    // GMII receive samples, already in this clock (one per cycle at most)
    input  wire        gmii_rx_valid,  // a sample is present this cycle
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,
    input  wire [7:0]  gmii_rxd,

    // GMII transmit, one byte per cycle
    output wire [7:0]  gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,

    // frames towards the NIC (without FCS); tuser on the last beat: the
    // frame is bad (FCS, rx_er, cut short)
    output wire [63:0] m_axis_rx_tdata,
    output wire [7:0]  m_axis_rx_tkeep,
    output wire        m_axis_rx_tvalid,
    input  wire        m_axis_rx_tready,
    output wire        m_axis_rx_tlast,
    output wire        m_axis_rx_tuser,

    // frames from the NIC (without FCS, at least 1 byte)
    input  wire [63:0] s_axis_tx_tdata,
    input  wire [7:0]  s_axis_tx_tkeep,
    input  wire        s_axis_tx_tvalid,
    output wire        s_axis_tx_tready,
    input  wire        s_axis_tx_tlast,

    // status pulses
    output wire        ev_rx_drop,     // a frame was dropped: FIFO without room, or no byte before its FCS
    output wire        ev_tx_abort     // the frame source ran dry inside a frame
);

localparam DEPTH     = 1 << RX_FIFO_LOG2;
localparam MAX_BEATS = DEPTH / 2;
localparam [7:0] PRE = 8'h55, SFD = 8'hD5;
localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;  // register after data + a good FCS
// beats pushed before the one that cuts an overlong frame short
localparam [RX_FIFO_LOG2-1:0] CUT_AT = MAX_BEATS - 2;

initial begin
    if (RX_FIFO_LOG2 < 5 || RX_FIFO_LOG2 > 10) $error("%m: RX_FIFO_LOG2 must be 5..10");
    if (RX_FIFO_DIST < 0 || RX_FIFO_DIST > 1) $error("%m: RX_FIFO_DIST must be 0 or 1");
end

// ================================================================ receive
localparam [1:0] R_IDLE = 2'd0, R_PRE = 2'd1, R_DATA = 2'd2, R_SKIP = 2'd3;

reg [1:0]  r_state_reg, r_state_next;
reg [63:0] r_beat_reg, r_beat_next;       // bytes of the beat being packed
reg [3:0]  r_cnt_reg, r_cnt_next;         // bytes in r_beat_reg (0..8)
reg [RX_FIFO_LOG2-1:0] r_beats_reg, r_beats_next; // beats of this frame pushed
reg        r_err_reg, r_err_next;         // rx_er seen inside this frame
reg        drop_reg, drop_next;
// The last four bytes of a frame are its FCS, known as such only when the
// frame ends: each byte waits in a four-byte delay line and is packed as
// the fourth byte after it arrives.
reg [31:0] r_dl_reg, r_dl_next;           // delay line, oldest byte at [7:0]
reg [2:0]  r_dn_reg, r_dn_next;           // bytes in it (0..4)
reg [31:0] r_crc_reg, r_crc_next;         // CRC over every byte of the frame so far
wire [31:0] r_crc_step;                   // ... and the byte arriving
wire [7:0] r_byte = r_dl_reg[7:0];        // the byte packed when the line is full
wire       r_bad  = r_err_reg || (r_crc_reg != CRC_RESIDUE);

tg_crc32_d64 #(
    .RUNS    (8'h01)
) tg_crc32_d64_rx_inst (
    .crc_in  (r_crc_reg),
    .data    ({56'd0, gmii_rxd}),
    .keep    (8'h01),
    .crc_out (r_crc_step)
);

// FIFO of beats {user, last, keep, data} (the memory itself is below)
// (read by synthesis through the attribute on fifo_mem, which Verilator does not count as a use)
/* verilator lint_off UNUSEDPARAM */
localparam RX_FIFO_STYLE = (RX_FIFO_DIST != 0) ? "distributed" : "block";
/* verilator lint_on UNUSEDPARAM */
reg [RX_FIFO_LOG2:0] wr_ptr_reg, rd_ptr_reg;
reg        push;
reg [73:0] push_data;
// the beat goes into the FIFO a cycle after it is packed, from registers,
// so the write enable follows a flop rather than the receive decode (the
// room asked at a frame's start leaves two beats to spare for it)
reg        push_reg;
reg [73:0] push_data_reg;
reg [73:0] out_reg;
reg        out_valid_reg;

wire [RX_FIFO_LOG2:0] used = wr_ptr_reg - rd_ptr_reg;
wire                  room = (used <= DEPTH - MAX_BEATS - 1);
// empty by equality, not by the difference: no carry chain in front of the
// pop, which enables every bit of the output register
wire                  fifo_empty = (wr_ptr_reg == rd_ptr_reg);
wire                  pop = !fifo_empty && (!out_valid_reg || m_axis_rx_tready);

function [7:0] keep_of;
    input [3:0] n;
    begin
        keep_of = 8'hFF >> (4'd8 - n);
    end
endfunction

always @* begin
    r_state_next = r_state_reg;
    r_beat_next  = r_beat_reg;
    r_cnt_next   = r_cnt_reg;
    r_beats_next = r_beats_reg;
    r_err_next   = r_err_reg;
    r_dl_next    = r_dl_reg;
    r_dn_next    = r_dn_reg;
    r_crc_next   = r_crc_reg;
    drop_next    = 1'b0;
    push         = 1'b0;
    push_data    = {2'b00, 8'hFF, r_beat_reg};

    if (gmii_rx_valid) begin
        case (r_state_reg)
        R_IDLE: begin
            if (gmii_rx_dv && gmii_rxd == PRE && !gmii_rx_er) r_state_next = R_PRE;
            else if (gmii_rx_dv) r_state_next = R_SKIP;
        end
        R_PRE: begin
            r_cnt_next   = 4'd0;
            r_beats_next = {RX_FIFO_LOG2{1'b0}};
            r_err_next   = 1'b0;
            r_dn_next    = 3'd0;
            r_crc_next   = 32'hFFFFFFFF;
            if (!gmii_rx_dv) begin
                r_state_next = R_IDLE;
            end else if (gmii_rxd == SFD) begin
                if (room) begin
                    r_state_next = R_DATA;
                end else begin
                    r_state_next = R_SKIP;
                    drop_next    = 1'b1;
                end
            end else if (gmii_rxd != PRE) begin
                r_state_next = R_SKIP;
            end
        end
        R_DATA: begin
            if (gmii_rx_dv) begin
                if (gmii_rx_er) r_err_next = 1'b1;
                r_crc_next = r_crc_step;
                r_dl_next  = {gmii_rxd, r_dl_reg[31:8]};
                if (r_dn_reg != 3'd4) begin
                    r_dn_next = r_dn_reg + 3'd1;
                end else if (r_cnt_reg == 4'd8) begin
                    // the packed beat is not the last one: hand it on
                    push         = 1'b1;
                    push_data    = {2'b00, 8'hFF, r_beat_reg};
                    r_beats_next = r_beats_reg + 1'b1;
                    r_beat_next  = {56'd0, r_byte};
                    r_cnt_next   = 4'd1;
                    if (r_beats_reg == CUT_AT) begin
                        // too long for a Telegraphos frame: end it here, bad
                        push_data    = {2'b11, 8'hFF, r_beat_reg};
                        r_state_next = R_SKIP;
                    end
                end else begin
                    r_beat_next[8*r_cnt_reg[2:0] +: 8] = r_byte;
                    r_cnt_next = r_cnt_reg + 1'b1;
                end
            end else begin
                // end of frame: the delay line holds the FCS, and the
                // packed beat is the last one
                r_state_next = R_IDLE;
                if (r_cnt_reg != 4'd0) begin
                    push      = 1'b1;
                    push_data = {r_bad, 1'b1, keep_of(r_cnt_reg), r_beat_reg};
                end else begin
                    drop_next = 1'b1;
                end
            end
        end
        default: begin // R_SKIP: ignore the rest of the frame
            if (!gmii_rx_dv) r_state_next = R_IDLE;
        end
        endcase
    end
end

(* ram_style = RX_FIFO_STYLE *)
reg [73:0] fifo_mem [0:DEPTH-1];
always @(posedge clk) begin
    if (push_reg) fifo_mem[wr_ptr_reg[RX_FIFO_LOG2-1:0]] <= push_data_reg;
    if (pop)  out_reg <= fifo_mem[rd_ptr_reg[RX_FIFO_LOG2-1:0]];
end

always @(posedge clk) begin
    r_beat_reg  <= r_beat_next;
    r_cnt_reg   <= r_cnt_next;
    r_beats_reg <= r_beats_next;
    r_err_reg   <= r_err_next;
    r_dl_reg    <= r_dl_next;
    r_dn_reg    <= r_dn_next;
    r_crc_reg   <= r_crc_next;
    push_data_reg <= push_data;
    if (rst) begin
        r_state_reg   <= R_IDLE;
        drop_reg      <= 1'b0;
        push_reg      <= 1'b0;
        wr_ptr_reg    <= {(RX_FIFO_LOG2+1){1'b0}};
        rd_ptr_reg    <= {(RX_FIFO_LOG2+1){1'b0}};
        out_valid_reg <= 1'b0;
    end else begin
        r_state_reg <= r_state_next;
        drop_reg    <= drop_next;
        push_reg    <= push;
        if (push_reg) wr_ptr_reg <= wr_ptr_reg + 1'b1;
        if (pop)  rd_ptr_reg <= rd_ptr_reg + 1'b1;
        if (pop) out_valid_reg <= 1'b1;
        else if (m_axis_rx_tready) out_valid_reg <= 1'b0;
    end
end

assign m_axis_rx_tdata  = out_reg[63:0];
assign m_axis_rx_tkeep  = out_reg[71:64];
assign m_axis_rx_tlast  = out_reg[72];
assign m_axis_rx_tuser  = out_reg[73];
assign m_axis_rx_tvalid = out_valid_reg;
assign ev_rx_drop       = drop_reg;

// ================================================================ transmit
localparam [2:0] T_IDLE = 3'd0, T_PRE = 3'd1, T_DATA = 3'd2, T_FCS = 3'd3, T_GAP = 3'd4;

reg [2:0]  t_state_reg, t_state_next;
reg [63:0] t_sh_reg, t_sh_next;     // bytes of the current beat, next one at [7:0]
reg [7:0]  t_keep_reg, t_keep_next; // which of them remain
reg        t_last_reg, t_last_next; // the current beat ends the frame
reg [3:0]  t_cnt_reg, t_cnt_next;   // preamble or FCS bytes sent / gap cycles left
reg [31:0] t_crc_reg, t_crc_next;   // CRC over the frame's bytes sent (FCS: the rest of it)
wire [31:0] t_crc_step;             // ... and the byte going out

tg_crc32_d64 #(
    .RUNS    (8'h01)
) tg_crc32_d64_tx_inst (
    .crc_in  (t_crc_reg),
    .data    ({56'd0, t_sh_reg[7:0]}),
    .keep    (8'h01),
    .crc_out (t_crc_step)
);
reg [7:0]  txd_reg, txd_next;
reg        tx_en_reg, tx_en_next;
reg        tx_er_reg, tx_er_next;
reg        abort_reg, abort_next;
reg        t_take;                  // the current beat's last byte goes out now
// t_take is a register: the same function of the next state, computed a
// cycle ahead, so that the source's pop (t_nx_load, a crossing FIFO's
// pointer step) follows a flop rather than the byte counter's compares
reg        t_take_reg, t_take_next;
// The next beat waits in a holding register, taken from the source a beat
// ahead: the source's handshake loads it, and t_take only moves it on, so
// the source's valid flag (a crossing FIFO's empty compare) reaches no more
// than its own pop and one flag, and a source may pause for up to a beat's
// byte times inside a frame without running the MAC dry.
reg [63:0] t_nx_data_reg;
reg [7:0]  t_nx_keep_reg;
reg        t_nx_last_reg;
reg        t_nx_valid_reg;
wire       t_nx_load;               // the holding register takes the source's beat
wire       t_nx_valid_next;

always @* begin
    t_state_next = t_state_reg;
    t_sh_next    = t_sh_reg;
    t_keep_next  = t_keep_reg;
    t_last_next  = t_last_reg;
    t_cnt_next   = t_cnt_reg;
    t_crc_next   = t_crc_reg;
    txd_next     = 8'd0;
    tx_en_next   = 1'b0;
    tx_er_next   = 1'b0;
    abort_next   = 1'b0;
    t_take       = t_take_reg;

    case (t_state_reg)
    T_IDLE: begin
        t_cnt_next = 4'd0;
        if (t_nx_valid_reg) t_state_next = T_PRE;
    end
    T_PRE: begin
        tx_en_next = 1'b1;
        txd_next   = (t_cnt_reg == 4'd7) ? SFD : PRE;
        t_cnt_next = t_cnt_reg + 1'b1;
        t_crc_next = 32'hFFFFFFFF;
        if (t_cnt_reg == 4'd7) begin
            t_state_next = T_DATA;
        end
    end
    T_DATA: begin
        tx_en_next  = 1'b1;
        txd_next    = t_sh_reg[7:0];
        t_sh_next   = {8'd0, t_sh_reg[63:8]};
        t_keep_next = {1'b0, t_keep_reg[7:1]};
        t_crc_next  = t_crc_step;
        if (!t_keep_reg[1]) begin
            // the byte sent now is the beat's last
            if (t_last_reg) begin
                t_state_next = T_FCS;
                t_cnt_next   = 4'd0;
            end
        end
    end
    T_FCS: begin
        // the register's complement, low byte first
        tx_en_next = 1'b1;
        txd_next   = ~t_crc_reg[7:0];
        t_crc_next = {8'd0, t_crc_reg[31:8]};
        t_cnt_next = t_cnt_reg + 1'b1;
        if (t_cnt_reg == 4'd3) begin
            t_state_next = T_GAP;
            t_cnt_next   = 4'd11;
        end
    end
    default: begin // T_GAP: 12 idle byte times (this one included)
        t_cnt_next = t_cnt_reg - 1'b1;
        if (t_cnt_reg == 4'd0) t_state_next = T_IDLE;
    end
    endcase

    if (t_take) begin
        if (t_nx_valid_reg) begin
            t_sh_next   = t_nx_data_reg;
            t_keep_next = t_nx_keep_reg;
            t_last_next = t_nx_last_reg;
        end else begin
            // the source ran dry: mark the frame bad and end it
            t_keep_next = 8'h01;
            t_last_next = 1'b1;
            tx_er_next  = 1'b1;
            abort_next  = 1'b1;
        end
    end

    // next cycle's t_take: the preamble's last byte, or a beat's last byte
    // in a frame that goes on. Written from the registers rather than the
    // next state (the byte counter's compares and the state decode would
    // come before it): the preamble's seventh byte goes out now; or a beat
    // is taken now (t_take is set only at the preamble's last byte or in
    // T_DATA) whose second byte does not exist and which is not the last;
    // or in T_DATA, with no beat taken, the byte after next is missing
    // from a beat that is not the last.
    t_take_next = (t_state_reg == T_PRE && t_cnt_reg == 4'd6) ||
                  (t_take_reg && t_nx_valid_reg && !t_nx_keep_reg[1] && !t_nx_last_reg) ||
                  (t_state_reg == T_DATA && !t_take_reg && !t_keep_reg[2] && !t_last_reg);
end

assign t_nx_load        = !rst && (!t_nx_valid_reg || t_take);
assign t_nx_valid_next  = t_nx_load ? s_axis_tx_tvalid : t_nx_valid_reg;
assign s_axis_tx_tready = t_nx_load;

always @(posedge clk) begin
    if (t_nx_load) begin
        t_nx_data_reg <= s_axis_tx_tdata;
        t_nx_keep_reg <= s_axis_tx_tkeep;
        t_nx_last_reg <= s_axis_tx_tlast;
    end
    t_sh_reg   <= t_sh_next;
    t_keep_reg <= t_keep_next;
    t_last_reg <= t_last_next;
    t_cnt_reg  <= t_cnt_next;
    t_crc_reg  <= t_crc_next;
    txd_reg    <= txd_next;
    if (rst) begin
        t_state_reg    <= T_IDLE;
        t_take_reg     <= 1'b0;
        t_nx_valid_reg <= 1'b0;
        tx_en_reg      <= 1'b0;
        tx_er_reg      <= 1'b0;
        abort_reg      <= 1'b0;
    end else begin
        t_state_reg    <= t_state_next;
        t_take_reg     <= t_take_next;
        t_nx_valid_reg <= t_nx_valid_next;
        tx_en_reg      <= tx_en_next;
        tx_er_reg      <= tx_er_next || (abort_reg && tx_en_next);
        abort_reg      <= abort_next;
    end
end

assign gmii_txd    = txd_reg;
assign gmii_tx_en  = tx_en_reg;
assign gmii_tx_er  = tx_er_reg;
assign ev_tx_abort = abort_reg;

endmodule

`default_nettype wire
