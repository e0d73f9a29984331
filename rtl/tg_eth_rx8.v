// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Byte-serial frame receiver: takes an Ethernet frame one byte a cycle
// (no backpressure), checks FCS, EtherType, destination, version, length
// and opcode as the bytes pass, and keeps an accepted frame in one of two
// block-RAM slots until its reader frees it. The checks and their order
// are those of tg_eth_rx, so a frame gets the same verdict from both.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_eth_rx8 (
    input  wire        clk,
    input  wire        rst,

    // configuration
    input  wire [15:0] cfg_node_id,

    // frame bytes in, FCS included (one a cycle at most, never stalled)
    input  wire [7:0]  s_rx_tdata,
    input  wire        s_rx_tvalid,
    input  wire        s_rx_tlast,
    input  wire        s_rx_tuser,     // the byte was received in error: drop the frame

    // accepted frames, oldest first; a slot is freed when ready is high
    // with valid
    output wire        m_frm_valid,
    input  wire        m_frm_ready,
    output wire        m_frm_slot,

    // slot bytes: rd_data is byte rd_addr[6:0] of slot rd_addr[7] one cycle
    // after rd_addr (bytes 0..127 of the frame, FCS not needed)
    input  wire [7:0]  frm_rd_addr,
    output wire [7:0]  frm_rd_data,

    // events (one verdict per frame, the cycle after its last byte)
    output wire        ev_rx_frame,      // a frame was accepted
    output wire        ev_rx_data_frame, // ... other than ACK or NAK
    output wire        ev_drop_fcs,      // dropped: bad FCS or a byte in error
    output wire        ev_drop_type,     // dropped: EtherType, version or destination
    output wire        ev_drop_malformed,// dropped: size, length field or opcode
    output wire        ev_drop_busy      // dropped: both slots held when it began
);

localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;  // register after data + a good FCS
localparam H = `TG_HDR_OFF;
// tg_eth_rx keeps 17 beats of 8 bytes; a longer frame is cut as oversized
localparam [7:0] MAX_KEPT = 8'd136;
localparam [15:0] ETYPE   = `TG_ETHERTYPE;
localparam [7:0]  VERSION = `TG_PROTO_VERSION;
localparam [7:0]  OFF_VER = H + `TG_H_VER;
localparam [7:0]  OFF_OP  = H + `TG_H_OP;
localparam [7:0]  OFF_DST = H + `TG_H_DST;
localparam [7:0]  OFF_LEN = H + `TG_H_LEN;

// ---------------------------------------------------------------- state
reg [7:0]  bytes_reg,   bytes_next;    // bytes of this frame so far (saturating)
reg [31:0] crc_reg,     crc_next;
reg        type_ok_reg, type_ok_next;  // destination MAC, EtherType, version, dst node
reg        err_reg,     err_next;      // a byte in error was seen
reg        busy_reg,    busy_next;     // frame being dropped: no free slot at its start
reg [7:0]  op_reg,      op_next;
reg [7:0]  len_reg,     len_next;
reg        wslot_reg,   wslot_next;    // slot the next accepted frame goes to
reg        rslot_reg,   rslot_next;    // oldest held slot
reg [1:0]  full_reg,    full_next;     // slot holds an accepted frame
reg [5:0]  ev_reg,      ev_next;       // verdict pulses, registered

reg [7:0]  buf_mem [0:255];
reg [7:0]  rd_data_reg;

// ---------------------------------------------------------------- this byte
wire        byte_fire = s_rx_tvalid;
wire [31:0] crc_byte;

tg_crc32_d64 tg_crc32_d64_inst (
    .crc_in  (crc_reg),
    .data    ({56'd0, s_rx_tdata}),
    .keep    (8'h01),
    .crc_out (crc_byte)
);

wire [23:0] mac_oui = `TG_MAC_OUI;
wire [47:0] my_mac  = {mac_oui, 8'h00, cfg_node_id};

// the byte a frame of this node holds at offset bytes_reg, for the fields
// checked against a constant or the node id (want_en: offset is such a field)
reg       want_en;
reg [7:0] want_byte;
always @* begin
    want_en   = 1'b1;
    want_byte = 8'h00;
    case (bytes_reg)
        8'd0:  want_byte = my_mac[47:40];
        8'd1:  want_byte = my_mac[39:32];
        8'd2:  want_byte = my_mac[31:24];
        8'd3:  want_byte = my_mac[23:16];
        8'd4:  want_byte = my_mac[15:8];
        8'd5:  want_byte = my_mac[7:0];
        8'd12:       want_byte = ETYPE[15:8];
        8'd13:       want_byte = ETYPE[7:0];
        OFF_VER:     want_byte = VERSION;
        OFF_DST:     want_byte = cfg_node_id[15:8];
        OFF_DST + 1: want_byte = cfg_node_id[7:0];
        default: want_en = 1'b0;
    endcase
end

// the verdict, from the state after this byte
wire [7:0] bytes_after   = (bytes_reg == 8'd255) ? 8'd255 : bytes_reg + 8'd1;
wire       type_ok_after = type_ok_reg && !(want_en && s_rx_tdata != want_byte);
wire [7:0] op_after      = (bytes_reg == OFF_OP)  ? s_rx_tdata : op_reg;
wire [7:0] len_after     = (bytes_reg == OFF_LEN) ? s_rx_tdata : len_reg;

wire op_known = (op_after == `TG_OP_WRITE) || (op_after == `TG_OP_READ_REQ) ||
                (op_after == `TG_OP_READ_RESP) || (op_after == `TG_OP_REQ) ||
                (op_after == `TG_OP_REQ_RESP) || (op_after == `TG_OP_FAA) ||
                (op_after == `TG_OP_SWAP) || (op_after == `TG_OP_CAS) ||
                (op_after == `TG_OP_ATOMIC_RESP) ||
                (op_after == `TG_OP_ACK) || (op_after == `TG_OP_NAK);
wire op_link  = (op_after == `TG_OP_ACK) || (op_after == `TG_OP_NAK);
// header + payload + FCS; a read request carries no payload
wire [8:0] want_bytes = ((op_after == `TG_OP_READ_REQ) ? 9'd0 : {1'b0, len_after}) + 9'd66;

wire bad_fcs  = err_reg || s_rx_tuser || (crc_byte != CRC_RESIDUE);
wire bad_size = (bytes_after > MAX_KEPT) || (bytes_after < 8'd66);
wire bad_type = !type_ok_after;
wire bad_len  = (len_after[2:0] != 3'd0) || (len_after > 8'd64) ||
                (op_link && len_after != 8'd0) || ({1'b0, bytes_after} != want_bytes);
wire bad_op   = !op_known;

wire frame_end = byte_fire && s_rx_tlast;
wire frame_ok  = !bad_fcs && !bad_size && !bad_type && !bad_len && !bad_op;
// a new frame finds no free slot
wire start_busy = (bytes_reg == 8'd0) && full_reg[wslot_reg];
wire busy_now   = (bytes_reg == 8'd0) ? start_busy : busy_reg;

assign m_frm_valid = full_reg[rslot_reg];
assign m_frm_slot  = rslot_reg;
assign frm_rd_data = rd_data_reg;

assign ev_rx_frame       = ev_reg[0];
assign ev_rx_data_frame  = ev_reg[1];
assign ev_drop_fcs       = ev_reg[2];
assign ev_drop_type      = ev_reg[3];
assign ev_drop_malformed = ev_reg[4];
assign ev_drop_busy      = ev_reg[5];

// ---------------------------------------------------------------- next state
always @* begin
    bytes_next   = bytes_reg;
    crc_next     = crc_reg;
    type_ok_next = type_ok_reg;
    err_next     = err_reg;
    busy_next    = busy_reg;
    op_next      = op_reg;
    len_next     = len_reg;
    wslot_next   = wslot_reg;
    rslot_next   = rslot_reg;
    full_next    = full_reg;
    ev_next      = 6'd0;

    if (m_frm_valid && m_frm_ready) begin
        full_next[rslot_reg] = 1'b0;
        rslot_next           = !rslot_reg;
    end

    if (byte_fire) begin
        if (frame_end) begin
            // verdict; the next byte starts a new frame
            if (busy_now) begin
                ev_next[5] = 1'b1;
            end else begin
                ev_next[0] = frame_ok;
                ev_next[1] = frame_ok && !op_link;
                ev_next[2] = bad_fcs;
                ev_next[3] = !bad_fcs && !bad_size && bad_type;
                ev_next[4] = !bad_fcs && (bad_size || (!bad_type && (bad_len || bad_op)));
                if (frame_ok) begin
                    full_next[wslot_reg] = 1'b1;
                    wslot_next           = !wslot_reg;
                end
            end
            bytes_next   = 8'd0;
            crc_next     = 32'hFFFFFFFF;
            type_ok_next = 1'b1;
            err_next     = 1'b0;
            busy_next    = 1'b0;
            op_next      = 8'd0;
            len_next     = 8'd0;
        end else begin
            bytes_next   = bytes_after;
            crc_next     = crc_byte;
            type_ok_next = type_ok_after;
            err_next     = err_reg || s_rx_tuser;
            busy_next    = busy_now;
            op_next      = op_after;
            len_next     = len_after;
        end
    end
end

always @(posedge clk) begin
    bytes_reg   <= bytes_next;
    crc_reg     <= crc_next;
    type_ok_reg <= type_ok_next;
    err_reg     <= err_next;
    busy_reg    <= busy_next;
    op_reg      <= op_next;
    len_reg     <= len_next;
    wslot_reg   <= wslot_next;
    rslot_reg   <= rslot_next;
    full_reg    <= full_next;
    ev_reg      <= ev_next;
    if (rst) begin
        bytes_reg   <= 8'd0;
        crc_reg     <= 32'hFFFFFFFF;
        type_ok_reg <= 1'b1;
        err_reg     <= 1'b0;
        busy_reg    <= 1'b0;
        op_reg      <= 8'd0;
        len_reg     <= 8'd0;
        wslot_reg   <= 1'b0;
        rslot_reg   <= 1'b0;
        full_reg    <= 2'b00;
        ev_reg      <= 6'd0;
    end
end

// ---------------------------------------------------------------- slot memory
// The slot being written is never a held one, so its reader sees only
// whole accepted frames.
always @(posedge clk) begin
    if (byte_fire && !busy_now && bytes_reg < 8'd128) begin
        buf_mem[{wslot_reg, bytes_reg[6:0]}] <= s_rx_tdata;
    end
    rd_data_reg <= buf_mem[frm_rd_addr];
end

endmodule

`default_nettype wire
