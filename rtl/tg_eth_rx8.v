// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Byte-serial frame receiver: takes an Ethernet frame one byte a cycle
// (no backpressure), checks FCS, EtherType, destination, version, length
// and opcode as the bytes pass, and keeps an accepted frame in one of four
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
    output wire [1:0]  m_frm_slot,

    // slot bytes: rd_data is byte rd_addr[6:0] of slot rd_addr[8:7] one
    // cycle after rd_addr (bytes 0..127 of the frame, FCS not needed)
    input  wire [8:0]  frm_rd_addr,
    output wire [7:0]  frm_rd_data,

    // events (one verdict per frame, two cycles after its last byte)
    output wire        ev_rx_frame,      // a frame was accepted
    output wire        ev_rx_data_frame, // ... other than ACK or NAK
    output wire        ev_drop_fcs,      // dropped: bad FCS or a byte in error
    output wire        ev_drop_type,     // dropped: EtherType, version or destination
    output wire        ev_drop_malformed,// dropped: size, length field or opcode
    output wire        ev_drop_busy      // dropped: every slot held when it began
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

// Timing. Every field the verdict needs lies in the first 56 bytes and a
// frame shorter than 66 is a runt whatever its fields say, so the checks
// of opcode and length are worked out from registered fields while later
// bytes pass, a checked header byte clears type_ok a cycle after it came,
// and the last byte only adds its size to them. The FCS check of the last
// byte is registered, so the verdict and the slot's hand-over come two
// cycles after it. A frame whose first byte comes in the cycle right after
// another frame's last byte is dropped as busy (a MAC's preamble and gap
// leave twenty idle cycles between frames).

// ---------------------------------------------------------------- state
// this frame
reg [7:0]  bytes_reg,   bytes_next;    // bytes of this frame so far (saturating)
reg [31:0] crc_reg,     crc_next;
reg        type_ok_reg, type_ok_next;  // destination MAC, EtherType, version, dst node
reg        err_reg,     err_next;      // a byte in error was seen
reg        busy_reg,    busy_next;     // frame being dropped: no free slot at its start
reg [7:0]  op_reg,      op_next;
reg [7:0]  len_reg,     len_next;
reg        chk_bad_reg, chk_bad_next;  // the last byte was a checked field, and wrong
// worked out from the registers above, a cycle behind them
reg        op_ok_reg;                  // known opcode
reg        op_link_reg;                // ACK or NAK
reg        len_ok_reg;                 // length field allowed for the opcode
reg [7:0]  want_last_reg;              // bytes_reg at the last byte of a frame of this length
// the frame that ended in the last cycle: its checks, the FCS's to come
reg        end_reg,     end_next;
reg        end_busy_reg, end_busy_next;
reg        end_err_reg, end_err_next;  // a byte in error
reg        end_size_reg, end_size_next;  // bad size
reg        end_type_reg, end_type_next;  // bad destination, EtherType or version
reg        end_lenop_reg, end_lenop_next; // bad length or opcode
reg        end_ok_reg,  end_ok_next;   // none of the four (kept: the verdict waits on it and the FCS only)
reg        end_link_reg, end_link_next;  // ACK or NAK
// slots
reg [1:0]  wslot_reg,   wslot_next;    // slot the next accepted frame goes to
reg [1:0]  rslot_reg,   rslot_next;    // oldest held slot
reg [3:0]  full_reg,    full_next;     // slot holds an accepted frame
reg [5:0]  ev_reg,      ev_next;       // verdict pulses, registered

reg [7:0]  buf_mem [0:511];
reg [7:0]  rd_data_reg;

// ---------------------------------------------------------------- this byte
wire        byte_fire = s_rx_tvalid;
wire        frame_end = byte_fire && s_rx_tlast;
wire [31:0] crc_byte;

`ifdef FORMAL
// The proof takes the CRC step as any value (tg_crc32_d64 has its own
// proof); what it checks is how frames, verdicts and slots go together.
(* anyseq *) reg [31:0] f_crc_step;
assign crc_byte = f_crc_step;
`else
tg_crc32_d64 tg_crc32_d64_inst (
    .crc_in  (crc_reg),
    .data    ({56'd0, s_rx_tdata}),
    .keep    (8'h01),
    .crc_out (crc_byte)
);
`endif

wire [7:0] bytes_after = (bytes_reg == 8'd255) ? 8'd255 : bytes_reg + 8'd1;

// a new frame finds no free slot, or comes right after the last one
`ifdef TG_TESTBUG_012
// deliberate bug: a frame right after the last one is not dropped, so its
// bytes go to the slot the last one may be handed over in
wire start_busy = (bytes_reg == 8'd0) && full_reg[wslot_reg];
`else
wire start_busy = (bytes_reg == 8'd0) && (full_reg[wslot_reg] || end_reg);
`endif
wire busy_now   = (bytes_reg == 8'd0) ? start_busy : busy_reg;
// this byte goes into the slot
wire buf_we     = byte_fire && !busy_now && bytes_reg < 8'd128;

// ---------------------------------------------------------------- checks ahead
wire [23:0] mac_oui = `TG_MAC_OUI;
wire [47:0] my_mac  = {mac_oui, 8'h00, cfg_node_id};

// the byte a frame of this node holds at offset bytes_reg, for the fields
// checked against a constant or the node id; the check is registered and
// cleared type_ok a cycle later
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

wire op_known = (op_reg == `TG_OP_WRITE) || (op_reg == `TG_OP_READ_REQ) ||
                (op_reg == `TG_OP_READ_RESP) || (op_reg == `TG_OP_REQ) ||
                (op_reg == `TG_OP_REQ_RESP) || (op_reg == `TG_OP_FAA) ||
                (op_reg == `TG_OP_SWAP) || (op_reg == `TG_OP_CAS) ||
                (op_reg == `TG_OP_ATOMIC_RESP) ||
                (op_reg == `TG_OP_ACK) || (op_reg == `TG_OP_NAK);
wire op_link  = (op_reg == `TG_OP_ACK) || (op_reg == `TG_OP_NAK);
// header + payload + FCS, less one; a read request carries no payload
wire [7:0] want_last = ((op_reg == `TG_OP_READ_REQ) ? 8'd0 : len_reg) + 8'd65;

always @(posedge clk) begin
    op_ok_reg     <= op_known;
    op_link_reg   <= op_link;
    len_ok_reg    <= (len_reg[2:0] == 3'd0) && (len_reg <= 8'd64) && !(op_link && len_reg != 8'd0);
    want_last_reg <= want_last;
end

// the frame's size, 66..136 bytes, if this byte is its last
wire size_ok  = (bytes_reg >= 8'd65) && (bytes_reg < MAX_KEPT);
wire type_ok  = type_ok_reg && !chk_bad_reg;

// ---------------------------------------------------------------- verdict
// the CRC after each byte is the residue: checked in the byte's cycle,
// used the cycle after the last
reg fcs_ok_reg;
always @(posedge clk) fcs_ok_reg <= (crc_byte == CRC_RESIDUE);

wire bad_fcs  = end_err_reg || !fcs_ok_reg;
wire frame_ok = end_ok_reg && fcs_ok_reg;

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
    bytes_next     = bytes_reg;
    crc_next       = crc_reg;
    type_ok_next   = type_ok;          // a checked byte's verdict lands
    err_next       = err_reg;
    busy_next      = busy_reg;
    op_next        = op_reg;
    len_next       = len_reg;
    chk_bad_next   = 1'b0;
    end_next       = 1'b0;
    end_busy_next  = end_busy_reg;
    end_err_next   = end_err_reg;
    end_size_next  = end_size_reg;
    end_type_next  = end_type_reg;
    end_lenop_next = end_lenop_reg;
    end_ok_next    = end_ok_reg;
    end_link_next  = end_link_reg;
    wslot_next     = wslot_reg;
    rslot_next     = rslot_reg;
    full_next      = full_reg;
    ev_next        = 6'd0;

    if (m_frm_valid && m_frm_ready) begin
        full_next[rslot_reg] = 1'b0;
        rslot_next           = rslot_reg + 2'd1;
    end

    // the frame that ended in the last cycle: verdict
    if (end_reg) begin
        if (end_busy_reg) begin
            ev_next[5] = 1'b1;
        end else begin
            ev_next[0] = frame_ok;
            ev_next[1] = frame_ok && !end_link_reg;
            ev_next[2] = bad_fcs;
            ev_next[3] = !bad_fcs && !end_size_reg && end_type_reg;
            ev_next[4] = !bad_fcs && (end_size_reg || (!end_type_reg && end_lenop_reg));
            if (frame_ok) begin
                full_next[wslot_reg] = 1'b1;
                wslot_next           = wslot_reg + 2'd1;
            end
        end
    end

    if (byte_fire) begin
        // every field check but the FCS's, from what came before this byte
        // (a checked field in the last byte makes the frame a runt)
        if (frame_end) begin
            end_next       = 1'b1;
            end_busy_next  = busy_now;
            end_err_next   = err_reg || s_rx_tuser;
            end_size_next  = !size_ok;
            end_type_next  = !type_ok;
            end_lenop_next = (bytes_reg != want_last_reg) || !len_ok_reg || !op_ok_reg;
            end_link_next  = op_link_reg;
            end_ok_next    = !(end_err_next || end_size_next || end_type_next || end_lenop_next);
            bytes_next     = 8'd0;
            type_ok_next   = 1'b1;
            err_next       = 1'b0;
            busy_next      = 1'b0;
            op_next        = 8'd0;
            len_next       = 8'd0;
        end else begin
            bytes_next   = bytes_after;
            type_ok_next = type_ok;
            chk_bad_next = want_en && s_rx_tdata != want_byte;
            err_next     = err_reg || s_rx_tuser;
            busy_next    = busy_now;
            if (bytes_reg == OFF_OP)  op_next  = s_rx_tdata;
            if (bytes_reg == OFF_LEN) len_next = s_rx_tdata;
        end
        crc_next = frame_end ? 32'hFFFFFFFF : crc_byte;
    end
end

always @(posedge clk) begin
    bytes_reg      <= bytes_next;
    crc_reg        <= crc_next;
    type_ok_reg    <= type_ok_next;
    chk_bad_reg    <= chk_bad_next;
    err_reg        <= err_next;
    busy_reg       <= busy_next;
    op_reg         <= op_next;
    len_reg        <= len_next;
    end_reg        <= end_next;
    end_busy_reg   <= end_busy_next;
    end_err_reg    <= end_err_next;
    end_size_reg   <= end_size_next;
    end_type_reg   <= end_type_next;
    end_lenop_reg  <= end_lenop_next;
    end_ok_reg     <= end_ok_next;
    end_link_reg   <= end_link_next;
    wslot_reg      <= wslot_next;
    rslot_reg      <= rslot_next;
    full_reg       <= full_next;
    ev_reg         <= ev_next;
    if (rst) begin
        bytes_reg      <= 8'd0;
        crc_reg        <= 32'hFFFFFFFF;
        type_ok_reg    <= 1'b1;
        chk_bad_reg    <= 1'b0;
        err_reg        <= 1'b0;
        busy_reg       <= 1'b0;
        op_reg         <= 8'd0;
        len_reg        <= 8'd0;
        end_reg        <= 1'b0;
        end_busy_reg   <= 1'b0;
        end_err_reg    <= 1'b0;
        end_size_reg   <= 1'b0;
        end_type_reg   <= 1'b0;
        end_lenop_reg  <= 1'b0;
        end_ok_reg     <= 1'b0;
        end_link_reg   <= 1'b0;
        wslot_reg      <= 2'd0;
        rslot_reg      <= 2'd0;
        full_reg       <= 4'd0;
        ev_reg         <= 6'd0;
    end
end

// ---------------------------------------------------------------- slot memory
// The slot being written is never a held one, so its reader sees only
// whole accepted frames.
always @(posedge clk) begin
    if (buf_we) begin
        buf_mem[{wslot_reg, bytes_reg[6:0]}] <= s_rx_tdata;
    end
    rd_data_reg <= buf_mem[frm_rd_addr];
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// A frame is the bytes taken up to and including one with tlast; its
// verdict comes two cycles after that byte. f_held counts the frames
// accepted (ev_rx_frame) and not yet freed (valid and ready); f_held_now
// adds an acceptance announced this cycle, which is also when its slot
// became full.
reg       f_past_valid = 1'b0;
reg [2:0] f_held;
reg       f_mid;        // bytes of a frame taken, its last not yet
reg       f_ended1;     // the last cycle took a frame's last byte
reg       f_ended2;     // ... the cycle before it
reg       f_busy;       // this frame is to be dropped as busy
reg       f_busy1;      // ... for the frame that ended last cycle
reg       f_busy2;      // ... for the one that ended the cycle before
wire [2:0] f_held_now = f_held + {2'd0, ev_rx_frame};
// busy: every slot held at the frame's first byte, or that byte right
// after the last frame's last
wire       f_busy_here = f_mid ? f_busy : ((f_held_now == 3'd4) || f_ended1);
wire [2:0] f_verdicts = {2'd0, ev_rx_frame} + {2'd0, ev_drop_fcs} + {2'd0, ev_drop_type} +
                        {2'd0, ev_drop_malformed} + {2'd0, ev_drop_busy};
// the slots from the oldest held on, as many as are held, are the full ones
wire [1:0] f_used = wslot_reg - rslot_reg;
reg  [3:0] f_range;
integer    f_i;
always @* begin
    for (f_i = 0; f_i < 4; f_i = f_i + 1) begin
        f_range[f_i] = (f_held_now == 3'd4) || ((f_i[1:0] - rslot_reg) < f_used);
    end
end

always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_ended1     <= byte_fire && s_rx_tlast;
    f_ended2     <= f_ended1;
    f_busy1      <= f_busy_here;
    f_busy2      <= f_busy1;
    f_held       <= f_held_now - {2'd0, m_frm_valid && m_frm_ready};
    if (byte_fire) begin
        f_mid  <= !s_rx_tlast;
        f_busy <= f_busy_here;
    end
    if (rst) begin
        f_held   <= 3'd0;
        f_mid    <= 1'b0;
        f_ended1 <= 1'b0;
        f_ended2 <= 1'b0;
        f_busy   <= 1'b0;
    end
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && !rst) begin
        // Q1: each frame gets exactly one verdict, two cycles after its
        // last byte
        assert(f_verdicts <= 3'd1);
        assert((f_verdicts == 3'd1) == f_ended2);
        assert(ev_rx_data_frame <= ev_rx_frame);
        // Q2: a frame is dropped as busy exactly when every slot was held
        // at its first byte, or that byte came right after a frame's last
        if (f_ended2) begin
            assert(ev_drop_busy == f_busy2);
        end
        // Q3: a slot is offered exactly while an accepted frame is held,
        // never more than four; the full slots are the ones from the
        // oldest on, as many as are held
        assert(f_held_now <= 3'd4);
        assert(full_reg == f_range);
        assert(f_used == f_held_now[1:0]);
        assert(m_frm_valid == (f_held_now != 3'd0));
        // Q4: no byte is written into a held slot, so a held frame stays
        // as it was accepted until its reader frees it
        if (buf_we) begin
            assert(!full_reg[wslot_reg]);
        end
        // the frame position, the byte count and the pending verdict agree
        assert(f_mid == (bytes_reg != 8'd0));
        assert(end_reg == f_ended1);
        if (f_ended1) begin
            assert(end_busy_reg == f_busy1);
        end
        if (!f_mid) begin
            assert(!busy_reg && !err_reg && type_ok_reg && !chk_bad_reg);
        end
        if (f_mid) begin
            assert(busy_reg == f_busy);
            // the slot a frame is written to stays free until its verdict
            if (!busy_reg) begin
                assert(!full_reg[wslot_reg]);
            end
        end
        if (f_ended1 && !end_busy_reg) begin
            assert(!full_reg[wslot_reg]);
        end
    end
end
`endif

endmodule

`default_nettype wire
