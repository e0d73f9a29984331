// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Frame receiver: takes one Ethernet frame (without its FCS, which a MAC
// has checked: tuser on the last beat marks a bad one) from a 64-bit
// AXI-Stream, keeps its header beats in registers and writes its payload
// words, a word a beat, into a slot of the payload buffer (tg_pay_buf);
// checks EtherType, destination, version, length and opcode, and presents
// an
// accepted frame as a request descriptor naming its slot (others are
// dropped and counted by reason, their slot reused).
`default_nettype none
`include "tg_hw_defs.vh"

module tg_eth_rx #(
    parameter BLOCK_BYTES = 64, // payload bytes kept per frame: 16, 32 or 64 (the rest is not stored)
    parameter SLOT_W      = 2   // bits of a payload-buffer slot number (1..4)
) (
    input  wire         clk,
    input  wire         rst,

    // configuration
    input  wire [15:0]  cfg_node_id,

    // frame in
    input  wire [63:0]  s_axis_rx_tdata,
    input  wire [7:0]   s_axis_rx_tkeep,
    input  wire         s_axis_rx_tvalid,
    output wire         s_axis_rx_tready,
    input  wire         s_axis_rx_tlast,
    input  wire         s_axis_rx_tuser,   // on the last beat: the frame is bad (the MAC's FCS check)

    // payload buffer: a free slot (a frame starts only with one), and the
    // payload words written into it as they arrive
    input  wire         s_slot_valid,
    input  wire [SLOT_W-1:0] s_slot_idx,
    output wire         m_pay_we,
    output wire [SLOT_W-1:0] m_pay_slot,
    output wire [2:0]   m_pay_word,      // word of the slot (0..BLOCK_BYTES/8-1)
    output wire [63:0]  m_pay_wdata,

    // accepted frame out (held until ready)
    output wire         m_rxd_valid,
    input  wire         m_rxd_ready,
    output wire [7:0]   m_rxd_op,
    output wire [7:0]   m_rxd_flags,
    output wire [7:0]   m_rxd_status,
    output wire [15:0]  m_rxd_src,
    output wire [31:0]  m_rxd_addr,
    output wire [5:0]   m_rxd_off,       // the bytes written or asked for: cnt from off
    output wire [6:0]   m_rxd_cnt,
    output wire [7:0]   m_rxd_len,
    output wire [7:0]   m_rxd_ctx,
    output wire [15:0]  m_rxd_tag,
    output wire [63:0]  m_rxd_key,
    output wire [SLOT_W-1:0] m_rxd_slot,  // payload-buffer slot of the frame's payload
    output wire [SLOT_W-1:0] m_rxd_slot_next, // ... of the frame on offer in the next cycle
    output wire [31:0]  m_rxd_seq,
    output wire [31:0]  m_rxd_ack,

    // events
    output wire         ev_rx_frame,      // a frame was accepted
    output wire         ev_rx_data_frame, // ... other than ACK or NAK
    output wire         ev_drop_fcs,      // dropped: marked bad by tuser (FCS)
    output wire         ev_drop_type,     // dropped: EtherType, version or destination
    output wire         ev_drop_malformed, // dropped: size, keep, length field or opcode

    output wire         st_idle,          // between frames, none held
    output wire         st_wait           // between frames or between a frame's beats:
                                          // while no beat comes in, no register changes
                                          // (fast-forward)
);

localparam MAX_BEATS = 16;               // more than the 102-byte largest frame
// The payload starts in lane PAY_LANE of beat PAY_BEAT; its word k is the
// rest of beat PAY_BEAT+k and the start of the next beat, so it is
// written as beat PAY_BEAT+k+1 arrives. The beats up to PAY_BEAT hold the
// header and stay in registers.
localparam PAY_BEAT   = `TG_PAYLOAD_OFF / 8;
localparam PAY_LANE   = `TG_PAYLOAD_OFF % 8;
localparam HDR_W      = (PAY_BEAT + 1) * 64;
localparam PAY_WORDS  = BLOCK_BYTES / 8;

initial begin
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
    if (SLOT_W < 1 || SLOT_W > 4) begin
        $error("%m: SLOT_W must be in 1..4");
    end
    if (PAY_LANE == 0) begin
        $error("%m: the payload must not start on a beat boundary");
    end
end

localparam [1:0] S_RECV  = 2'd0,
                 S_CHECK = 2'd1,
                 S_HOLD  = 2'd2;

// ---------------------------------------------------------------- state
reg [1:0]          state_reg,  state_next;
reg [HDR_W-1:0]    hdr_reg,    hdr_next;      // the header beats
reg [63:0]         prev_reg,   prev_next;     // the beat before (its payload lanes)
reg [SLOT_W-1:0]   slot_reg,   slot_next;     // payload-buffer slot of this frame
reg [4:0]          beat_reg,   beat_next;     // beats stored so far
reg                over_reg,   over_next;     // more beats than MAX_BEATS, or a beat's keep off the stream's rule
reg [7:0]          bytes_reg,  bytes_next;    // bytes received (saturating)
reg                user_reg,   user_next;     // the last beat's tuser

// ---------------------------------------------------------------- receive path
reg [3:0]  keep_count;
reg [63:0] keep_data;
wire       keep_run = (s_axis_rx_tkeep & (s_axis_rx_tkeep + 8'd1)) == 8'd0;
integer    lane;

always @* begin
    keep_count = 4'd0;
    for (lane = 0; lane < 8; lane = lane + 1) begin
        keep_count = keep_count + {3'd0, s_axis_rx_tkeep[lane]};
        keep_data[lane*8 +: 8] = s_axis_rx_tkeep[lane] ? s_axis_rx_tdata[lane*8 +: 8] : 8'h00;
    end
end

// a frame starts only with a free slot for its payload
assign s_axis_rx_tready = (state_reg == S_RECV) && (beat_reg != 5'd0 || s_slot_valid);
wire beat_fire = s_axis_rx_tvalid && s_axis_rx_tready;

// payload word beat_reg - PAY_BEAT - 1, from the beat arriving and the one before
wire [4:0] pay_idx   = beat_reg - PAY_BEAT[4:0] - 5'd1;
assign m_pay_we      = beat_fire && (beat_reg > PAY_BEAT[4:0]) && (pay_idx < PAY_WORDS[4:0]);
assign m_pay_slot    = slot_reg;
assign m_pay_word    = pay_idx[2:0];
assign m_pay_wdata   = {keep_data[PAY_LANE*8-1:0], prev_reg[63:PAY_LANE*8]};

// ---------------------------------------------------------------- frame fields
function [7:0] fbyte;
    input [HDR_W-1:0] f;
    input integer       off;
    begin
        fbyte = f[off*8 +: 8];
    end
endfunction

function [15:0] fbe16;
    input [HDR_W-1:0] f;
    input integer       off;
    begin
        fbe16 = {f[off*8 +: 8], f[(off+1)*8 +: 8]};
    end
endfunction

function [63:0] fbe64;
    input [HDR_W-1:0] f;
    input integer       off;
    integer             i;
    begin
        for (i = 0; i < 8; i = i + 1) begin
            fbe64[(7-i)*8 +: 8] = f[(off+i)*8 +: 8];
        end
    end
endfunction

localparam H = `TG_HDR_OFF;

function [3:0] fbits;
    input [HDR_W-1:0] f;
    input integer       off;
    input integer       lsb;
    begin
        fbits = f[off*8 + lsb +: 4];
    end
endfunction

// the node ids are the MAC addresses' low 16 bits
wire [47:0] f_dst_mac   = {fbe16(hdr_reg, 0), fbe16(hdr_reg, 2), fbe16(hdr_reg, 4)};
wire [15:0] f_src       = fbe16(hdr_reg, 10);
wire [15:0] f_ethertype = fbe16(hdr_reg, 12);
wire [7:0]  f_ver       = fbyte(hdr_reg, H + `TG_H_VER);
wire [7:0]  f_op        = {4'd0, fbits(hdr_reg, H + `TG_H_OP, `TG_H_OP_LSB)};
wire [7:0]  f_flags     = {4'd0, fbits(hdr_reg, H + `TG_H_FLAGS, `TG_H_FLAGS_LSB)};
wire [7:0]  f_status    = {4'd0, fbits(hdr_reg, H + `TG_H_STATUS, `TG_H_STATUS_LSB)};
wire [7:0]  f_ctx       = {4'd0, fbits(hdr_reg, H + `TG_H_CTX, `TG_H_CTX_LSB)};
wire [7:0]  f_len       = fbyte(hdr_reg, H + `TG_H_LEN);
wire [7:0]  f_off       = fbyte(hdr_reg, H + `TG_H_OFF);
wire [7:0]  f_cnt       = fbyte(hdr_reg, H + `TG_H_CNT);
wire [31:0] f_seq       = {16'd0, fbe16(hdr_reg, H + `TG_H_SEQ)};
wire [31:0] f_ack       = {16'd0, fbe16(hdr_reg, H + `TG_H_ACK)};
wire [15:0] f_tag       = fbe16(hdr_reg, H + `TG_H_TAG);
wire [31:0] f_addr      = {fbe16(hdr_reg, H + `TG_H_ADDR), fbe16(hdr_reg, H + `TG_H_ADDR + 2)};
wire [63:0] f_key       = fbe64(hdr_reg, H + `TG_H_KEY);

// the bytes: cnt from off (a run past byte 63 is malformed)
wire [8:0]  f_run_end   = {1'b0, f_off} + {1'b0, f_cnt};

wire [23:0] mac_oui = `TG_MAC_OUI;
wire [47:0] my_mac  = {mac_oui, 8'h00, cfg_node_id};

wire op_known = (f_op == `TG_OP_WRITE) || (f_op == `TG_OP_READ_REQ) ||
                (f_op == `TG_OP_READ_RESP) || (f_op == `TG_OP_REQ) ||
                (f_op == `TG_OP_REQ_RESP) || (f_op == `TG_OP_FAA) || (f_op == `TG_OP_SWAP) ||
                (f_op == `TG_OP_CAS) || (f_op == `TG_OP_ATOMIC_RESP) ||
                (f_op == `TG_OP_ACK) || (f_op == `TG_OP_NAK);
wire op_link  = (f_op == `TG_OP_ACK) || (f_op == `TG_OP_NAK);
// header + payload, zero-padded to the minimum frame (FCS not counted); a
// read request carries no payload
localparam [7:0] HDR_BYTES = `TG_PAYLOAD_OFF;
localparam [8:0] PAD_BYTES = `TG_MIN_FRAME_BYTES;
wire [8:0] pay_bytes  = ((f_op == `TG_OP_READ_REQ) ? 9'd0 : {1'b0, f_len}) + {1'b0, HDR_BYTES};
wire [8:0] want_bytes = (pay_bytes < PAD_BYTES) ? PAD_BYTES : pay_bytes;

wire bad_fcs   = user_reg;
wire bad_size  = over_reg || (bytes_reg < HDR_BYTES);
wire bad_type  = (f_ethertype != `TG_ETHERTYPE) || (f_ver != `TG_PROTO_VERSION) ||
                 (f_dst_mac != my_mac);
wire bad_len   = (f_len[2:0] != 3'd0) || (f_len > 8'd64) || (op_link && f_len != 8'd0) ||
                 ({1'b0, bytes_reg} != want_bytes) || (f_run_end > 9'd64);
wire bad_op    = !op_known;

wire check_now = (state_reg == S_CHECK);
assign ev_drop_fcs       = check_now && bad_fcs;
assign ev_drop_malformed = check_now && !bad_fcs && (bad_size || (!bad_type && (bad_len || bad_op)));
assign ev_drop_type      = check_now && !bad_fcs && !bad_size && bad_type;
`ifdef TG_TESTBUG_009
// deliberate bug: a frame is accepted whatever its tuser (the MAC's FCS verdict)
wire   frame_ok          = !bad_size && !bad_type && !bad_len && !bad_op;
`else
wire   frame_ok          = !bad_fcs && !bad_size && !bad_type && !bad_len && !bad_op;
`endif
assign ev_rx_frame       = check_now && frame_ok;
assign ev_rx_data_frame  = ev_rx_frame && !op_link;

assign m_rxd_valid   = (state_reg == S_HOLD);
assign m_rxd_op      = f_op;
assign m_rxd_flags   = f_flags;
assign m_rxd_status  = f_status;
assign m_rxd_src     = f_src;
assign m_rxd_addr    = f_addr;
assign m_rxd_off     = f_off[5:0];   // (an empty run may start at 64: it covers nothing)
assign m_rxd_cnt     = f_cnt[6:0];
assign m_rxd_len     = f_len;
assign m_rxd_ctx     = f_ctx;
assign m_rxd_tag     = f_tag;
assign m_rxd_key     = f_key;
assign m_rxd_slot    = slot_reg;
// (a frame is on offer next cycle only from S_CHECK or S_HOLD, where the
// slot does not change)
assign m_rxd_slot_next = slot_reg;
assign m_rxd_seq     = f_seq;
assign m_rxd_ack     = f_ack;
assign st_idle       = (state_reg == S_RECV) && (beat_reg == 5'd0);
assign st_wait       = (state_reg == S_RECV);

// ---------------------------------------------------------------- next state
integer bw;
always @* begin
    state_next = state_reg;
    hdr_next   = hdr_reg;
    prev_next  = prev_reg;
    slot_next  = slot_reg;
    beat_next  = beat_reg;
    over_next  = over_reg;
    bytes_next = bytes_reg;
    user_next  = user_reg;

    case (state_reg)
        S_RECV: begin
            if (beat_fire) begin
                prev_next = keep_data;
                if (beat_reg == 5'd0) begin
                    slot_next = s_slot_idx;
                end
                if (beat_reg < MAX_BEATS[4:0]) begin
                    // a plain write enable per header beat (no shifter)
                    for (bw = 0; bw <= PAY_BEAT; bw = bw + 1) begin
                        if (beat_reg == bw[4:0]) begin
                            hdr_next[bw*64 +: 64] = keep_data;
                        end
                    end
                    beat_next = beat_reg + 5'd1;
                end else begin
                    over_next = 1'b1;
                end
                // keep all ones before the last beat, a run of ones from
                // bit 0 on it: anything else makes the frame malformed
                if (s_axis_rx_tlast ? (s_axis_rx_tkeep == 8'd0 || !keep_run) : (s_axis_rx_tkeep != 8'hFF)) begin
                    over_next = 1'b1;
                end
                if (bytes_reg <= 8'd247) begin
                    bytes_next = bytes_reg + {4'd0, keep_count};
                end else begin
                    bytes_next = 8'd255;
                end
                if (s_axis_rx_tlast) begin
                    state_next = S_CHECK;
                    user_next  = s_axis_rx_tuser;
                end
            end
        end
        S_CHECK: begin
            if (frame_ok) begin
                state_next = S_HOLD;
            end else begin
                state_next = S_RECV;
            end
        end
        S_HOLD: begin
            if (m_rxd_ready) begin
                state_next = S_RECV;
            end
        end
        default: state_next = S_RECV;
    endcase

    // a new frame starts from a clean header
    if (state_next == S_RECV && state_reg != S_RECV) begin
        hdr_next   = {HDR_W{1'b0}};
        beat_next  = 5'd0;
        over_next  = 1'b0;
        bytes_next = 8'd0;
        user_next  = 1'b0;
    end
end

always @(posedge clk) begin
    state_reg <= state_next;
    hdr_reg   <= hdr_next;
    prev_reg  <= prev_next;
    slot_reg  <= slot_next;
    beat_reg  <= beat_next;
    over_reg  <= over_next;
    bytes_reg <= bytes_next;
    user_reg  <= user_next;
    if (rst) begin
        state_reg <= S_RECV;
        hdr_reg   <= {HDR_W{1'b0}};
        prev_reg  <= 64'd0;
        slot_reg  <= {SLOT_W{1'b0}};
        beat_reg  <= 5'd0;
        over_reg  <= 1'b0;
        bytes_reg <= 8'd0;
        user_reg  <= 1'b0;
    end
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// A frame is the beats transferred (tvalid and tready) up to and including
// one with tlast.  f_user is tuser at the last transfer, so after a frame's
// last beat it is the MAC's verdict on the frame.
reg f_past_valid = 1'b0;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
end

wire              f_xfer  = s_axis_rx_tvalid && s_axis_rx_tready;
reg               f_mid;      // beats of a frame transferred, its last not yet
reg               f_ended;    // the last cycle transferred a frame's last beat
reg               f_held;     // an accepted frame not yet taken
reg               f_user;    // tuser of the last transfer
reg  [HDR_W-1:0]  f_hdr;     // the header one cycle ago
reg  [SLOT_W-1:0] f_slot;    // the slot one cycle ago
reg  [SLOT_W-1:0] f_slot0;   // the free slot offered at the frame's first beat
wire              f_fcs_ok = !f_user;
wire [2:0]        f_verdicts = {2'd0, ev_rx_frame} + {2'd0, ev_drop_fcs} +
                               {2'd0, ev_drop_type} + {2'd0, ev_drop_malformed};

always @(posedge clk) begin
    f_ended <= f_xfer && s_axis_rx_tlast;
    f_hdr   <= hdr_reg;
    f_slot  <= slot_reg;
    if (f_xfer && !f_mid) begin
        f_slot0 <= s_slot_idx;
    end
    if (f_xfer) begin
        f_mid <= !s_axis_rx_tlast;
        f_user <= s_axis_rx_tuser;
    end
    if (ev_rx_frame) begin
        f_held <= 1'b1;
    end else if (m_rxd_valid && m_rxd_ready) begin
        f_held <= 1'b0;
    end
    if (rst) begin
        f_mid   <= 1'b0;
        f_ended <= 1'b0;
        f_held  <= 1'b0;
        f_user  <= 1'b0;
    end
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && !rst) begin
        // R1: the verdict a frame is judged by is the tuser of its last
        // beat, and no earlier beat's (or earlier frame's) tuser counts
        if (state_reg == S_RECV) begin
            assert(!user_reg);
        end else begin
            assert(!f_mid);
            assert(user_reg == f_user);
        end
        // R2: each frame gets exactly one verdict, in the cycle after its
        // last beat, and no beat is taken before it
        assert(f_verdicts <= 3'd1);
        assert((f_verdicts == 3'd1) == f_ended);
        assert((state_reg == S_CHECK) == f_ended);
        // R3: a frame is dropped as bad FCS exactly when its last beat's
        // tuser is set, so every such frame is counted
        assert(ev_drop_fcs == (f_ended && !f_fcs_ok));
        // R4: a frame is accepted and offered only with tuser clear, and
        // the offer is the accepted frame's header and slot, unchanged and
        // held until taken, with no beat taken and no payload word written
        // meanwhile
        if (ev_rx_frame) begin
            assert(f_fcs_ok);
        end
        assert(m_rxd_valid == f_held);
        if (m_rxd_valid) begin
            assert(f_fcs_ok);
            assert(!s_axis_rx_tready);
            assert(hdr_reg == f_hdr);
            assert(slot_reg == f_slot);
            assert(!m_pay_we);
        end
        // R5: a frame's first beat is taken only with a free slot; its
        // payload words are written only mid-frame, into the slot offered
        // at its first beat, never past the block; the frame on offer
        // names that slot, and names it a cycle ahead
        if (state_reg == S_RECV) begin
            assert(f_mid == (beat_reg != 5'd0));
        end
        if (f_xfer && !f_mid) begin
            assert(s_slot_valid);
        end
        if (f_mid || state_reg != S_RECV) begin
            assert(slot_reg == f_slot0);
        end
        if (m_pay_we) begin
            assert(f_mid && f_xfer);
            assert(m_pay_slot == f_slot0);
            assert(pay_idx < PAY_WORDS[4:0]);
        end
        if (m_rxd_valid || state_reg == S_CHECK) begin
            assert(m_rxd_slot == f_slot0);
            assert(m_rxd_slot_next == f_slot0);
        end
    end
end
`endif

endmodule

`default_nettype wire
