// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Memory-bus bridge over raw Ethernet (EtherType 0x88B6): executes one
// host-port (BAR) or host-memory read or write, or one host-port write
// burst of up to 8 words, per request frame and answers each with a
// response frame; see docs/fpga.md for the format. A burst's words wait
// in a 64-byte buffer until the frame's FCS has been checked.
// A request marked as a resend that repeats the last request executed
// (same seq and operation) is answered again from the kept response and
// not executed a second time, so a host may resend any request whose
// answer was lost.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_bridge #(
    parameter [47:0] MAC      = 48'h02_54_47_01_00_00, // this end's MAC address
    parameter        MEM_LOG2 = 14                     // bytes of host memory, log2 (6..31)
) (
    input  wire        clk,
    input  wire        rst,

    // GMII receive samples in this clock (one per cycle at most)
    input  wire        gmii_rx_valid,
    input  wire        gmii_rx_dv,
    input  wire        gmii_rx_er,
    input  wire [7:0]  gmii_rxd,

    // GMII transmit
    output wire [7:0]  gmii_txd,
    output wire        gmii_tx_en,
    output wire        gmii_tx_er,

    // host target of the NIC (the BAR)
    output wire        m_host_req_valid,
    input  wire        m_host_req_ready,
    output wire        m_host_req_write,
    output wire [46:0] m_host_req_addr,
    output wire [63:0] m_host_req_wdata,
    output wire [7:0]  m_host_req_wstrb,
    output wire        m_host_req_last,
    input  wire        s_host_resp_valid,
    output wire        s_host_resp_ready,
    input  wire [63:0] s_host_resp_rdata,

    // host memory (one response per request, in order)
    output wire        m_mem_req_valid,
    input  wire        m_mem_req_ready,
    output wire        m_mem_req_write,
    output wire [31:0] m_mem_req_addr,
    output wire [63:0] m_mem_req_wdata,
    output wire [7:0]  m_mem_req_wstrb,
    input  wire        s_mem_resp_valid,
    input  wire [63:0] s_mem_resp_rdata,

    // status pulses
    output wire        ev_req,        // a request was accepted
    output wire        ev_drop        // a frame was dropped: bridge EtherType with bad FCS or format, or any frame while busy
);

initial begin
    if (MEM_LOG2 < 6 || MEM_LOG2 > 31) $error("%m: MEM_LOG2 must be 6..31");
end

localparam [15:0] ETHERTYPE    = `TG_BRIDGE_ETHERTYPE;
localparam [7:0]  VERSION      = `TG_BRIDGE_VERSION;
localparam [7:0]  OP_BAR_WRITE = `TG_BRIDGE_OP_BAR_WRITE, OP_BAR_READ = `TG_BRIDGE_OP_BAR_READ,
                  OP_MEM_WRITE = `TG_BRIDGE_OP_MEM_WRITE, OP_MEM_READ = `TG_BRIDGE_OP_MEM_READ,
                  OP_BAR_BURST = `TG_BRIDGE_OP_BAR_BURST,
                  OP_RESP      = `TG_BRIDGE_OP_RESP, OP_RESEND = `TG_BRIDGE_OP_RESEND;
localparam [7:0]  ST_OK = `TG_BRIDGE_ST_OK, ST_BAD_OP = `TG_BRIDGE_ST_BAD_OP,
                  ST_RANGE = `TG_BRIDGE_ST_RANGE;
// frame byte offsets
localparam [6:0]  O_VER  = `TG_BRIDGE_OFF_VER,  O_OP   = `TG_BRIDGE_OFF_OP,
                  O_SEQ  = `TG_BRIDGE_OFF_SEQ,  O_ADDR = `TG_BRIDGE_OFF_ADDR,
                  O_STRB = `TG_BRIDGE_OFF_STRB, O_DATA = `TG_BRIDGE_OFF_DATA,
                  O_WORDS = `TG_BRIDGE_OFF_WORDS, O_END  = `TG_BRIDGE_FRAME_BYTES;
localparam [7:0]  BURST_WORDS = `TG_BRIDGE_BURST_WORDS;
localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;
// request bytes after the start delimiter: the fields and the FCS at least
localparam [6:0]  MIN_LEN = O_DATA + 7'd12;
// response: 8 bytes of preamble, the frame, 4 of FCS
localparam [6:0]  TX_BYTES = O_END + 7'd12;

// ================================================================ receive
localparam [1:0] R_IDLE = 2'd0, R_PRE = 2'd1, R_DATA = 2'd2, R_SKIP = 2'd3;

reg [1:0]  r_state_reg, r_state_next;
reg [6:0]  r_idx_reg, r_idx_next;      // frame byte index, saturating at 127
reg [31:0] r_crc_reg, r_crc_next;
reg        r_err_reg, r_err_next;
reg        r_uni_reg, r_uni_next;      // destination is our MAC so far
reg        r_bc_reg, r_bc_next;        // destination is broadcast so far
reg        go_reg, ev_drop_reg;        // go a cycle later: execution starts from it
reg [15:0] r_type_reg, r_type_next;
reg [7:0]  r_ver_reg, r_ver_next;
reg [47:0] f_src_reg, f_src_next;      // fields of the request being received
reg [7:0]  f_op_reg, f_op_next;
reg [15:0] f_seq_reg, f_seq_next;
reg [63:0] f_addr_reg, f_addr_next;
reg [7:0]  f_strb_reg, f_strb_next;
reg [63:0] f_data_reg, f_data_next;
reg        go;                          // a well-formed request has ended
reg        drop;

// Which field the byte at r_idx_reg belongs to, kept in flags that move
// with the index, so a sample's write enables come from these flags and
// the sample's own bits instead of compares on the index.
localparam S_DST = 0, S_SRC = 1, S_TYPE = 2, S_VER = 3, S_OP = 4,
           S_SEQ = 5, S_ADDR = 6, S_STRB = 7, S_DATA = 8, S_WORDS = 9;
reg [9:0]  r_sel_reg, r_sel_next;
// the next byte's flags, ready in a register: a byte's flags come from
// it, and it takes those of the byte after from the index, so no clk
// path runs from the index through the compares into the fields
reg [9:0]  r_sel1_reg, r_sel1_next;

// The flags of byte idx + ahead (ahead 0 to 2, a constant at each use),
// taken on idx itself: each field's range moved down by ahead, so the
// flags of a later byte need no adder (from byte 100 on, the index's
// saturation at 127 included, every field's flags are 0).
function [9:0] sel_of(input [6:0] idx, input [6:0] ahead);
    begin
        sel_of         = 10'd0;
        sel_of[S_DST]  = idx < 7'd6 - ahead;
        sel_of[S_SRC]  = idx >= 7'd6 - ahead && idx < 7'd12 - ahead;
        sel_of[S_TYPE] = idx == 7'd12 - ahead || idx == 7'd13 - ahead;
        sel_of[S_VER]  = idx == O_VER - ahead;
        sel_of[S_OP]   = idx == O_OP - ahead;
        sel_of[S_SEQ]  = idx >= O_SEQ - ahead && idx < O_SEQ + 7'd2 - ahead;
        sel_of[S_ADDR] = idx >= O_ADDR - ahead && idx < O_ADDR + 7'd8 - ahead;
        sel_of[S_STRB] = idx == O_STRB - ahead;
        sel_of[S_DATA] = idx >= O_DATA - ahead && idx < O_DATA + 7'd8 - ahead;
        sel_of[S_WORDS] = idx >= O_WORDS - ahead && idx < O_WORDS + 7'd64 - ahead;
    end
endfunction

wire [6:0] r_idx_inc = (r_idx_reg != 7'd127) ? r_idx_reg + 1'b1 : r_idx_reg;
wire [9:0] r_sel_inc = r_sel1_reg;

wire [31:0] crc_rx_out;

// A burst's words, byte by byte as they arrive (byte i of the burst at i),
// read back a byte a cycle once the frame has proved whole.
reg  [7:0] b_mem [0:63];
reg  [5:0] b_wptr_reg, b_wptr_next;
reg        b_we;
wire [5:0] b_raddr;
reg  [7:0] b_rdata_reg;
// the bytes a request needs before its FCS ends (a burst: its words)
reg  [6:0] r_need_reg;

tg_crc32_d64 #(
    .RUNS    (8'h01)   // one byte a step
) tg_crc32_d64_rx_inst (
    .crc_in  (r_crc_reg),
    .data    ({56'd0, gmii_rxd}),
    .keep    (8'h01),
    .crc_out (crc_rx_out)
);

// ================================================================ execute
localparam [2:0] X_IDLE = 3'd0, X_HOST = 3'd1, X_HOST_WAIT = 3'd2,
                 X_MEM = 3'd3, X_MEM_WAIT = 3'd4, X_SEND = 3'd5, X_LOAD = 3'd6;

reg [2:0]  x_state_reg, x_state_next;
// the last request executed, whose response x_status_reg and x_rdata_reg keep
reg        l_valid_reg, l_valid_next;
reg [15:0] l_seq_reg, l_seq_next;
reg [7:0]  l_op_reg, l_op_next;      // without the resend bit
reg [7:0]  x_status_reg, x_status_next;
reg [63:0] x_rdata_reg, x_rdata_next;
// the beat offered to the host port or memory: a single write's data and
// byte enables, or a burst word loaded from the buffer (X_LOAD)
reg [63:0] x_word_reg, x_word_next;
reg [7:0]  x_strb_reg, x_strb_next;
reg        x_last_reg, x_last_next;
reg [2:0]  x_beat_reg, x_beat_next;  // burst word offered or being loaded
reg [3:0]  x_cnt_reg, x_cnt_next;    // X_LOAD: buffer bytes read so far
reg [6:0]  t_idx_reg, t_idx_next;      // response byte index (preamble included)
reg [3:0]  t_gap_reg, t_gap_next;
reg [31:0] t_crc_reg, t_crc_next;   // CRC of the frame bytes sent before txd_reg
reg        t_crc_en_reg, t_crc_en_next; // txd_reg holds a frame byte, not yet in t_crc_reg
reg [7:0]  txd_reg, txd_next;
reg        t_fcs_reg, t_fcs_next;     // the byte out now is an FCS byte: ~t_crc_reg[7:0]
reg        tx_en_reg, tx_en_next;
reg [63:0] t_word_reg, t_word_next;  // the response's 8-byte word being sent, byte t_idx_reg at [7:0]
reg [3:0]  t_widx_reg, t_widx_next;  // the word to load next (8 and up: zeros)

// a new request may start arriving once the response's fields have been
// sent (FCS and gap remain): it takes longer than they do, so execution is
// idle again when it ends (registered: it gates the field registers' enables).
// Sending only starts at t_idx 0 and only stops at TX_BYTES, past the
// fields, so "the next index is past the fields" is "this one is past the
// field's last byte", taken from the register rather than after its adder.
// Whether execution is out of X_IDLE next cycle is taken from registers
// alone, not from x_state_next (whose inputs are the host port's and the
// memory's handshakes): the FSM below leaves X_IDLE exactly on go_reg and
// returns to it only at the end of X_SEND (or of an unused encoding).
reg  busy_reg;
wire busy = busy_reg;
wire x_active_next = (x_state_reg == X_IDLE) ? go_reg :
                     (x_state_reg == X_SEND || x_state_reg == 3'd7) ?
                         !(t_idx_reg == TX_BYTES && t_gap_reg == 4'd0) : 1'b1;
wire busy_next = x_active_next &&
                 !(x_state_reg == X_SEND && t_idx_reg >= O_END + 7'd7);

always @* begin
    r_state_next = r_state_reg;
    r_idx_next   = r_idx_reg;
    r_sel_next   = r_sel_reg;
    r_sel1_next  = r_sel1_reg;
    r_crc_next   = r_crc_reg;
    r_err_next   = r_err_reg;
    r_uni_next   = r_uni_reg;
    r_bc_next    = r_bc_reg;
    r_type_next  = r_type_reg;
    r_ver_next   = r_ver_reg;
    f_src_next   = f_src_reg;
    f_op_next    = f_op_reg;
    f_seq_next   = f_seq_reg;
    f_addr_next  = f_addr_reg;
    f_strb_next  = f_strb_reg;
    f_data_next  = f_data_reg;
    b_wptr_next  = b_wptr_reg;
    b_we         = 1'b0;
    go           = 1'b0;
    drop         = 1'b0;

    if (gmii_rx_valid) begin
        case (r_state_reg)
        R_IDLE: begin
            if (gmii_rx_dv && gmii_rxd == 8'h55 && !gmii_rx_er) r_state_next = R_PRE;
            else if (gmii_rx_dv) r_state_next = R_SKIP;
        end
        R_PRE: begin
            r_idx_next  = 7'd0;
            r_sel_next  = sel_of(7'd0, 7'd0);
            r_sel1_next = sel_of(7'd0, 7'd1);
            b_wptr_next = 6'd0;
            r_crc_next  = 32'hFFFFFFFF;
            r_err_next  = 1'b0;
            r_uni_next  = 1'b1;
            r_bc_next   = 1'b1;
            if (!gmii_rx_dv) r_state_next = R_IDLE;
            else if (gmii_rxd == 8'hD5 && busy) begin
                // one request at a time: a frame arriving meanwhile is lost
                r_state_next = R_SKIP;
                drop         = 1'b1;
            end else if (gmii_rxd == 8'hD5) r_state_next = R_DATA;
            else if (gmii_rxd != 8'h55) r_state_next = R_SKIP;
        end
        R_DATA: begin
            if (gmii_rx_dv) begin
                r_crc_next = crc_rx_out;
                if (gmii_rx_er) r_err_next = 1'b1;
                r_idx_next = r_idx_inc;
                r_sel_next = r_sel_inc;
                r_sel1_next = sel_of(r_idx_reg, 7'd2);
                if (r_sel_reg[S_DST] && gmii_rxd != MAC[8*(5-r_idx_reg[2:0]) +: 8])
                    r_uni_next = 1'b0;
                if (r_sel_reg[S_DST] && gmii_rxd != 8'hFF)
                    r_bc_next = 1'b0;
                if (r_sel_reg[S_SRC])  f_src_next  = {f_src_reg[39:0], gmii_rxd};
                if (r_sel_reg[S_TYPE]) r_type_next = {r_type_reg[7:0], gmii_rxd};
                if (r_sel_reg[S_VER])  r_ver_next  = gmii_rxd;
                if (r_sel_reg[S_OP])   f_op_next   = gmii_rxd;
                if (r_sel_reg[S_SEQ])  f_seq_next  = {f_seq_reg[7:0], gmii_rxd};
                if (r_sel_reg[S_ADDR]) f_addr_next = {f_addr_reg[55:0], gmii_rxd};
                if (r_sel_reg[S_STRB]) f_strb_next = gmii_rxd;
                if (r_sel_reg[S_DATA]) f_data_next = {gmii_rxd, f_data_reg[63:8]};
                if (r_sel_reg[S_WORDS]) begin
                    b_we        = !busy;
                    b_wptr_next = b_wptr_reg + 1'b1;
                end
            end else begin
                r_state_next = R_IDLE;
                if (r_uni_reg || r_bc_reg) begin
                    if (!r_err_reg && r_crc_reg == CRC_RESIDUE && r_idx_reg >= r_need_reg &&
                        r_type_reg == ETHERTYPE && r_ver_reg == VERSION)
                        go = 1'b1;
                    else if (r_type_reg == ETHERTYPE)
                        drop = 1'b1;
                end
            end
        end
        default: begin // R_SKIP
            if (!gmii_rx_dv) r_state_next = R_IDLE;
        end
        endcase
    end
end

// ---------------------------------------------------------------- execution
// The address checks, registered: the address is complete long before
// the frame ends (its FCS and padding follow), so they are settled by the
// time go_reg starts execution.
// The operation is decoded the same way: it is byte 15, so its flags
// hold still well before the frame ends.
// The resend bit is not part of the operation. Whether the request
// repeats the last one executed (l_*) is settled the same way: l_* only
// change when a request starts, before the next frame's fields arrive.
// A burst's word count is its strb byte (26), also settled early; its
// words must stay inside one aligned 64-byte block, as on the host port.
// Whether it is a burst, and whether a burst's word count is in range,
// are registered a cycle before the rest of the decode uses them: both
// bytes are settled long before then, and no clk path spans the whole
// decode.
wire [7:0] f_op_base = f_op_reg & ~OP_RESEND;
reg        f_burst_reg, f_n_ok_reg;
wire       f_burst   = f_burst_reg;
wire       f_n_ok    = f_n_ok_reg;
always @(posedge clk) begin
    f_burst_reg <= f_op_base == OP_BAR_BURST;
    f_n_ok_reg  <= f_strb_reg != 8'd0 && f_strb_reg <= BURST_WORDS;
end
reg mem_ok_reg, host_ok_reg;
reg op_host_reg, op_mem_reg, op_read_reg, op_write_reg, op_burst_reg;
wire f_op_host = f_op_base == OP_BAR_WRITE || f_op_base == OP_BAR_READ || f_burst && f_n_ok;
reg replay_reg;
reg [2:0] burst_lastw_reg;           // the burst's last word
always @(posedge clk) begin
    mem_ok_reg   <= f_addr_reg[2:0] == 3'd0 && f_addr_reg[63:MEM_LOG2] == {(64-MEM_LOG2){1'b0}};
    op_host_reg  <= f_op_host;
    host_ok_reg  <= f_addr_reg[2:0] == 3'd0 && f_addr_reg[63:47] == 17'd0 &&
                    (!f_burst || {1'b0, f_addr_reg[5:3]} + f_strb_reg[3:0] <= 4'd8);
    op_mem_reg   <= f_op_base == OP_MEM_WRITE || f_op_base == OP_MEM_READ;
    op_read_reg  <= f_op_base == OP_BAR_READ || f_op_base == OP_MEM_READ;
    op_write_reg <= f_op_base == OP_BAR_WRITE || f_op_base == OP_MEM_WRITE || f_burst;
    op_burst_reg <= f_burst;
    burst_lastw_reg <= f_strb_reg[2:0] - 3'd1;
    r_need_reg   <= (f_burst && f_n_ok) ? O_WORDS + 7'd4 + {f_strb_reg[3:0], 3'd0} : MIN_LEN;
    replay_reg   <= (f_op_reg & OP_RESEND) != 8'd0 && l_valid_reg &&
                    f_seq_reg == l_seq_reg && f_op_base == l_op_reg;
end

always @* begin
    x_state_next  = x_state_reg;
    x_status_next = x_status_reg;
    x_rdata_next  = x_rdata_reg;
    l_valid_next  = l_valid_reg;
    l_seq_next    = l_seq_reg;
    l_op_next     = l_op_reg;
    x_word_next   = x_word_reg;
    x_strb_next   = x_strb_reg;
    x_last_next   = x_last_reg;
    x_beat_next   = x_beat_reg;
    x_cnt_next    = x_cnt_reg;

    case (x_state_reg)
    X_IDLE: begin
        // a single beat's fields, whether or not a request starts (they
        // hold still from the frame's end to its execution)
        x_word_next = f_data_reg;
        x_strb_next = f_strb_reg;
        x_last_next = 1'b1;
        x_beat_next = 3'd0;
        x_cnt_next  = 4'd0;
        if (go_reg && replay_reg) begin
            // its answer was lost: send the kept response again
            x_state_next = X_SEND;
        end else if (go_reg) begin
            l_valid_next  = 1'b1;
            l_seq_next    = f_seq_reg;
            l_op_next     = f_op_base;
            x_status_next = ST_OK;
            // an unknown operation is refused in X_HOST
            if (op_mem_reg) begin
                x_state_next = X_MEM;
            end else begin
                x_state_next = (op_host_reg && op_burst_reg) ? X_LOAD : X_HOST;
            end
        end
    end
    X_HOST: begin
        // the response's data is cleared in the first state of every
        // request (X_HOST, X_LOAD or X_MEM), not as it starts: X_IDLE keeps
        // the last response for a resend
        x_rdata_next = 64'd0;
        if (!op_host_reg) begin
            x_status_next = ST_BAD_OP;
            x_state_next  = X_SEND;
        end else if (!host_ok_reg) begin
            x_status_next = ST_RANGE;
            x_state_next  = X_SEND;
        end else if (m_host_req_ready && !x_last_reg) begin
            x_beat_next  = x_beat_reg + 1'b1;
            x_state_next = X_LOAD;
        end else if (m_host_req_ready) begin
            x_state_next = op_read_reg ? X_HOST_WAIT : X_SEND;
        end
    end
    X_LOAD: begin
        // the burst word x_beat_reg from the buffer, a byte a cycle: byte
        // x_cnt is read while byte x_cnt - 1 arrives from the read register
        x_rdata_next = 64'd0;
        x_cnt_next  = x_cnt_reg + 1'b1;
        x_strb_next = f_data_reg[8*x_beat_reg +: 8];
        x_last_next = x_beat_reg == burst_lastw_reg;
        if (x_cnt_reg != 4'd0) x_word_next = {b_rdata_reg, x_word_reg[63:8]};
        if (x_cnt_reg == 4'd8) begin
            x_cnt_next   = 4'd0;
            x_state_next = X_HOST;
        end
    end
    X_HOST_WAIT: begin
        if (s_host_resp_valid) begin
            x_rdata_next = s_host_resp_rdata;
            x_state_next = X_SEND;
        end
    end
    X_MEM: begin
        x_rdata_next = 64'd0;
        if (!mem_ok_reg) begin
            x_status_next = ST_RANGE;
            x_state_next  = X_SEND;
        end else if (m_mem_req_ready) begin
            x_state_next = X_MEM_WAIT;
        end
    end
    X_MEM_WAIT: begin
        if (s_mem_resp_valid) begin
            if (op_read_reg) x_rdata_next = s_mem_resp_rdata;
            x_state_next = X_SEND;
        end
    end
    default: begin // X_SEND: the response frame goes out, then the gap
        if (t_idx_reg == TX_BYTES && t_gap_reg == 4'd0) x_state_next = X_IDLE;
    end
    endcase
end


assign m_host_req_valid  = (x_state_reg == X_HOST) && op_host_reg && host_ok_reg;
assign m_host_req_write  = op_write_reg;
assign m_host_req_addr   = {f_addr_reg[46:6], f_addr_reg[5:3] + x_beat_reg, 3'd0};
assign m_host_req_wdata  = x_word_reg;
assign m_host_req_wstrb  = x_strb_reg;
assign m_host_req_last   = x_last_reg;
assign s_host_resp_ready = (x_state_reg == X_HOST_WAIT);

assign m_mem_req_valid = (x_state_reg == X_MEM) && mem_ok_reg;
assign m_mem_req_write = op_write_reg;
assign m_mem_req_addr  = f_addr_reg[31:0];
assign m_mem_req_wdata = x_word_reg;
assign m_mem_req_wstrb = x_strb_reg;

assign b_raddr = {x_beat_reg, x_cnt_reg[2:0]};

always @(posedge clk) begin
    if (b_we) b_mem[b_wptr_reg] <= gmii_rxd;
    b_rdata_reg <= b_mem[b_raddr];
end

// ---------------------------------------------------------------- response
// The response's first 36 bytes laid out by byte index (bytes 36..59 are
// padding), so choosing byte t_idx is one multiplexer on fields that hold
// still while it is sent.
function [63:0] bswap64;
    input [63:0] v;
    integer i;
    begin
        for (i = 0; i < 8; i = i + 1) bswap64[8*i +: 8] = v[8*(7-i) +: 8];
    end
endfunction

function [47:0] bswap48;
    input [47:0] v;
    integer i;
    begin
        for (i = 0; i < 6; i = i + 1) bswap48[8*i +: 8] = v[8*(5-i) +: 8];
    end
endfunction

wire [47:0] mac_sw = bswap48(MAC);                // first byte of the address first
wire [47:0] dst_sw = bswap48(f_src_reg);
wire [63:0] addr_sw = bswap64(f_addr_reg);
wire [8*36-1:0] t_frame = {
    x_rdata_reg,                       // 28..35 (O_DATA) data, little-endian
    8'd0,                              // 27
    x_status_reg,                      // 26 (O_STRB) status
    addr_sw,                           // 18..25 (O_ADDR) address, big-endian
    f_seq_reg[7:0], f_seq_reg[15:8],   // 16..17 (O_SEQ) sequence number, big-endian
    f_op_reg | OP_RESP,                // 15 (O_OP)
    VERSION,                           // 14 (O_VER)
    ETHERTYPE[7:0], ETHERTYPE[15:8],   // 12..13
    mac_sw,                            // 6..11 this end's MAC
    dst_sw                             // 0..5 the requester's MAC
};
initial begin
    if (O_VER != 14 || O_OP != 15 || O_SEQ != 16 || O_ADDR != 18 || O_STRB != 26 || O_DATA != 28)
        $error("%m: the response layout (t_frame) does not match the bridge offsets");
end
// indexed by t_idx: 8 bytes of preamble ahead of the frame, zeros after
wire [511:0] t_vec = {160'd0, t_frame, 64'hD555_5555_5555_5555};

// The bytes go out of a word register that shifts one byte a cycle and
// loads the next word of t_vec after its eighth byte, so no multiplexer of
// all the frame's bytes lies in front of txd; the fields it reads hold
// still while the response is sent.
always @* begin
    if (x_state_reg != X_SEND) begin
        t_word_next = t_vec[63:0];
        t_widx_next = 4'd1;
    end else if (t_idx_reg[2:0] == 3'd7) begin
        t_word_next = t_widx_reg[3] ? 64'd0 : t_vec[64*t_widx_reg[2:0] +: 64];
        t_widx_next = t_widx_reg + 1'b1;
    end else begin
        t_word_next = {8'd0, t_word_reg[63:8]};
        t_widx_next = t_widx_reg;
    end
end

// The CRC takes in each byte the cycle after it is chosen, from txd_reg,
// so the byte multiplexer and the CRC step are not one combinational path.
wire [31:0] crc_tx_out;

tg_crc32_d64 #(
    .RUNS    (8'h01)   // one byte a step
) tg_crc32_d64_tx_inst (
    .crc_in  (t_crc_reg),
    .data    ({56'd0, txd_reg}),
    .keep    (8'h01),
    .crc_out (crc_tx_out)
);

// the CRC over every frame byte sent so far
wire [31:0] t_crc_cur = t_crc_en_reg ? crc_tx_out : t_crc_reg;

always @* begin
    t_idx_next   = t_idx_reg;
    t_gap_next   = t_gap_reg;
    t_crc_next   = t_crc_cur;
    t_crc_en_next = 1'b0;
    t_fcs_next   = 1'b0;
    txd_next     = 8'd0;
    tx_en_next   = 1'b0;

    if (x_state_reg != X_SEND) begin
        t_idx_next = 7'd0;
        t_gap_next = 4'd11;
        t_crc_next = 32'hFFFFFFFF;
    end else if (t_idx_reg != TX_BYTES) begin
        tx_en_next = 1'b1;
        t_idx_next = t_idx_reg + 1'b1;
        if (t_idx_reg < 7'd7) begin
            txd_next = 8'h55;
        end else if (t_idx_reg == 7'd7) begin
            txd_next = 8'hD5;
        end else if (t_idx_reg < O_END + 7'd8) begin
            txd_next      = t_word_reg[7:0];
            t_crc_en_next = 1'b1;
        end else begin
            // FCS: the complemented register, least significant byte first,
            // sent from the register itself (gmii_txd below); the register
            // then moves its next byte down
            t_fcs_next = 1'b1;
            if (t_fcs_reg) t_crc_next = {8'd0, t_crc_reg[31:8]};
        end
    end else if (t_gap_reg != 4'd0) begin
        t_gap_next = t_gap_reg - 1'b1;
    end
end

always @(posedge clk) begin
    r_idx_reg    <= r_idx_next;
    r_sel_reg    <= r_sel_next;
    r_sel1_reg   <= r_sel1_next;
    r_crc_reg    <= r_crc_next;
    r_err_reg    <= r_err_next;
    r_uni_reg    <= r_uni_next;
    r_bc_reg     <= r_bc_next;
    r_type_reg   <= r_type_next;
    r_ver_reg    <= r_ver_next;
    x_rdata_reg  <= x_rdata_next;
    x_word_reg   <= x_word_next;
    x_strb_reg   <= x_strb_next;
    x_last_reg   <= x_last_next;
    x_beat_reg   <= x_beat_next;
    x_cnt_reg    <= x_cnt_next;
    b_wptr_reg   <= b_wptr_next;
    x_status_reg <= x_status_next;
    l_seq_reg    <= l_seq_next;
    l_op_reg     <= l_op_next;
    t_idx_reg    <= t_idx_next;
    t_word_reg   <= t_word_next;
    t_widx_reg   <= t_widx_next;
    t_gap_reg    <= t_gap_next;
    t_crc_reg    <= t_crc_next;
    t_crc_en_reg <= t_crc_en_next;
    txd_reg      <= txd_next;
    t_fcs_reg    <= t_fcs_next;
    // the request's fields are held while it executes
    if (!busy) begin
        f_src_reg  <= f_src_next;
        f_op_reg   <= f_op_next;
        f_seq_reg  <= f_seq_next;
        f_addr_reg <= f_addr_next;
        f_strb_reg <= f_strb_next;
        f_data_reg <= f_data_next;
    end
    if (rst) begin
        r_state_reg <= R_IDLE;
        x_state_reg <= X_IDLE;
        l_valid_reg <= 1'b0;
        busy_reg    <= 1'b0;
        tx_en_reg   <= 1'b0;
        go_reg  <= 1'b0;
        ev_drop_reg <= 1'b0;
    end else begin
        r_state_reg <= r_state_next;
        x_state_reg <= x_state_next;
        l_valid_reg <= l_valid_next;
        busy_reg    <= busy_next;
        tx_en_reg   <= tx_en_next;
        go_reg  <= go;
        ev_drop_reg <= drop;
    end
end

assign gmii_txd   = t_fcs_reg ? ~t_crc_reg[7:0] : txd_reg;
assign gmii_tx_en = tx_en_reg;
assign gmii_tx_er = 1'b0;
assign ev_req     = go_reg;
assign ev_drop    = ev_drop_reg;

endmodule

`default_nettype wire
