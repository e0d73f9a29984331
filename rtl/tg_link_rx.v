// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Link layer, receive side: checks each frame's sequence number against the
// next one expected from its sender, passes in-order frames to the receive
// engine through a small FIFO, drops duplicates and frames after a gap, and
// reports acknowledgements owed and received to the link transmitter.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_link_rx #(
    parameter PEER_BITS = 8,  // node ids 0 .. 2^PEER_BITS-1 are sequenced (1..12)
    parameter SEQ_W     = 16, // sequence number bits, compared modulo 2^SEQ_W (4..16: the header carries 16)
    parameter FIFO_LOG2 = 1,  // log2 of the FIFO entries towards the receive engine (1..4)
    parameter SLOT_W    = 2   // bits of a payload-buffer slot number (1..4)
) (
    input  wire                 clk,
    input  wire                 rst,

    // configuration
    input  wire                 cfg_enable,   // 0: every frame passes unsequenced, never dropped
    input  wire [31:0]          cfg_rx_wait,  // cycles a frame may wait for FIFO space

    // accepted frame in (from tg_eth_rx)
    input  wire                 s_rxd_valid,
    output wire                 s_rxd_ready,
    input  wire [7:0]           s_rxd_op,
    input  wire [7:0]           s_rxd_flags,
    input  wire [7:0]           s_rxd_status,
    input  wire [15:0]          s_rxd_src,
    input  wire [31:0]          s_rxd_addr,
    input  wire [5:0]           s_rxd_off,
    input  wire [6:0]           s_rxd_cnt,
    input  wire [7:0]           s_rxd_len,
    input  wire [7:0]           s_rxd_ctx,
    input  wire [15:0]          s_rxd_tag,
    input  wire [63:0]          s_rxd_key,
    input  wire [SLOT_W-1:0]    s_rxd_slot,    // payload-buffer slot (tg_pay_buf)
    input  wire [31:0]          s_rxd_seq,
    input  wire [31:0]          s_rxd_ack,

    // frame out (to tg_rx_engine)
    output wire                 m_rxd_valid,
    input  wire                 m_rxd_ready,
    output wire [7:0]           m_rxd_op,
    output wire [7:0]           m_rxd_flags,
    output wire [7:0]           m_rxd_status,
    output wire [15:0]          m_rxd_src,
    output wire [31:0]          m_rxd_addr,
    output wire [5:0]           m_rxd_off,
    output wire [6:0]           m_rxd_cnt,
    output wire [7:0]           m_rxd_len,
    output wire [7:0]           m_rxd_ctx,
    output wire [15:0]          m_rxd_tag,
    output wire [63:0]          m_rxd_key,
    output wire [SLOT_W-1:0]    m_rxd_slot,
    output wire [SLOT_W-1:0]    m_rxd_slot_next, // slot on offer in the next cycle (for a
                                                 // registered payload read), given this cycle's transfers

    // a frame taken and not passed on (ACK, NAK, dropped): its slot is free
    output wire                 m_free_valid,
    output wire [SLOT_W-1:0]    m_free_slot,

    // acknowledgement received (to tg_link_tx; one pulse per sequenced frame)
    output wire                 m_lack_valid,
    output wire                 m_lack_nak,    // a NAK: resend from m_lack_seq
    output wire [PEER_BITS-1:0] m_lack_peer,
    output wire [SEQ_W-1:0]     m_lack_seq,    // peer expects this seq next

    // acknowledgement owed (to tg_link_tx): peer is owed ack = m_lowe_seq
    output wire                 m_lowe_valid,
    output wire [PEER_BITS-1:0] m_lowe_peer,
    output wire [SEQ_W-1:0]     m_lowe_seq,

    // response reservations (with tg_link_tx)
    output wire                 m_rsv_valid,   // pulse: keep a slot for this request's answer
    input  wire                 in_rsv_room,   // a free slot can be kept
    input  wire                 in_rsv_room2,  // two free slots can be kept

    // NAK to send (to tg_link_tx): resend from m_lnak_seq
    output wire                 m_lnak_valid,
    output wire [PEER_BITS-1:0] m_lnak_peer,
    output wire [SEQ_W-1:0]     m_lnak_seq,

    // events
    output wire                 ev_dup_drop,
    output wire                 ev_ooo_drop,
    output wire                 ev_busy_drop,

    output wire                 st_idle         // FIFO empty, tables cleared, no slot claimed
);

localparam NPEER = 1 << PEER_BITS;
localparam DEPTH = 1 << FIFO_LOG2;
localparam DW    = `TG_DESC_BITS;   // the header fields of a descriptor

initial begin
    if (PEER_BITS < 1 || PEER_BITS > 12) begin
        $error("%m: PEER_BITS must be in 1..12");
    end
    if (SEQ_W < 4 || SEQ_W > 16) begin
        $error("%m: SEQ_W must be in 4..16");
    end
    if (FIFO_LOG2 < 1 || FIFO_LOG2 > 4) begin
        $error("%m: FIFO_LOG2 must be in 1..4");
    end
    if (SLOT_W < 1 || SLOT_W > 4) begin
        $error("%m: SLOT_W must be in 1..4");
    end
end

// ---------------------------------------------------------------- state
reg                  init_reg,    init_next;     // clearing the peer table after reset
reg [PEER_BITS-1:0]  init_idx_reg, init_idx_next;
reg                  hdr_done_reg, hdr_done_next; // the current frame's ack was reported
reg [31:0]           wait_reg,    wait_next;     // cycles the current frame has waited
reg [NPEER-1:0]      naked_reg,   naked_next;    // a NAK was sent for the current gap
reg [FIFO_LOG2:0]    wr_ptr_reg,  wr_ptr_next;
// a claim: the peer whose request last found no slot for its answer; the
// next slot that frees is kept for it (other peers' requests then need two)
reg                  claim_reg,      claim_next;
reg [PEER_BITS-1:0]  claim_peer_reg, claim_peer_next;
reg [19:0]           claim_age_reg,  claim_age_next;
reg [FIFO_LOG2:0]    rd_ptr_reg,  rd_ptr_next;

// per-peer next expected sequence number (one write port)
reg [SEQ_W-1:0]      exp_mem [0:NPEER-1];
reg                  exp_we;
reg [PEER_BITS-1:0]  exp_waddr;
reg [SEQ_W-1:0]      exp_wdata;

// FIFO storage (one write port); the payload slots apart, read at the
// head and at the head of the next cycle
reg [DW-1:0]         fifo_mem [0:DEPTH-1];
reg [SLOT_W-1:0]     slot_mem [0:DEPTH-1];
reg                  fifo_we;

// ---------------------------------------------------------------- classification
wire [PEER_BITS-1:0] peer      = s_rxd_src[PEER_BITS-1:0];
wire                 in_range  = (s_rxd_src >> PEER_BITS) == 16'd0;
wire                 sequenced = cfg_enable && in_range && ((s_rxd_flags & `TG_FLAG_SEQ) != 8'd0);
wire                 is_link   = (s_rxd_op == `TG_OP_ACK) || (s_rxd_op == `TG_OP_NAK);
wire [SEQ_W-1:0]     expected  = exp_mem[peer];
wire [SEQ_W-1:0]     seq_diff  = s_rxd_seq[SEQ_W-1:0] - expected;
`ifdef TG_TESTBUG_008
// deliberate bug: a frame one after the expected one counts as in order
wire                 in_order  = (seq_diff[SEQ_W-1:1] == {(SEQ_W-1){1'b0}});
`else
wire                 in_order  = (seq_diff == {SEQ_W{1'b0}});
`endif
wire                 dup       = seq_diff[SEQ_W-1];           // before expected
wire                 fifo_full = (wr_ptr_reg[FIFO_LOG2] != rd_ptr_reg[FIFO_LOG2]) &&
                                 (wr_ptr_reg[FIFO_LOG2-1:0] == rd_ptr_reg[FIFO_LOG2-1:0]);
wire                 fifo_empty = (wr_ptr_reg == rd_ptr_reg);
wire                 present   = s_rxd_valid && !init_reg;
// requests the receive engine answers; they need a transmit slot kept for the answer
wire                 answered  = (s_rxd_op == `TG_OP_READ_REQ) || (s_rxd_op == `TG_OP_REQ) ||
                                 (s_rxd_op == `TG_OP_FAA) || (s_rxd_op == `TG_OP_SWAP) ||
                                 (s_rxd_op == `TG_OP_CAS);
wire                 claimed   = claim_reg && claim_peer_reg != peer;  // a slot is kept for another peer
wire                 room      = !fifo_full && (!answered || (claimed ? in_rsv_room2 : in_rsv_room));
wire                 no_slot   = sequenced && !fifo_full;                // ... so room is false for want of a slot

wire [DW-1:0] s_entry = {s_rxd_op, s_rxd_flags, s_rxd_status, s_rxd_src, s_rxd_addr,
                         s_rxd_off, s_rxd_cnt, s_rxd_len, s_rxd_ctx, s_rxd_tag,
                         s_rxd_key};

assign {m_rxd_op, m_rxd_flags, m_rxd_status, m_rxd_src, m_rxd_addr,
        m_rxd_off, m_rxd_cnt, m_rxd_len, m_rxd_ctx, m_rxd_tag, m_rxd_key} =
       fifo_mem[rd_ptr_reg[FIFO_LOG2-1:0]];
assign m_rxd_slot  = slot_mem[rd_ptr_reg[FIFO_LOG2-1:0]];
assign m_rxd_valid = !fifo_empty;
assign st_idle     = fifo_empty && !init_reg && !claim_reg;

// ---------------------------------------------------------------- decisions
reg accept;      // frame leaves tg_eth_rx this cycle
reg push;        // ... into the FIFO
reg owe;         // ... and the sender is owed an acknowledgement
reg nak;
reg drop_dup, drop_ooo, drop_busy;

always @* begin
    accept    = 1'b0;
    push      = 1'b0;
    owe       = 1'b0;
    nak       = 1'b0;
    drop_dup  = 1'b0;
    drop_ooo  = 1'b0;
    drop_busy = 1'b0;
    if (present) begin
        if (!cfg_enable) begin
            // link layer off: as without it, wait as long as it takes
            accept = !fifo_full || is_link;
            push   = !fifo_full && !is_link;
        end else if (is_link) begin
            accept = 1'b1;               // ACK/NAK: reported below, never executed
        end else if (sequenced && dup) begin
            accept   = 1'b1;
            drop_dup = 1'b1;
            owe      = 1'b1;              // the sender missed our acknowledgement
        end else if (sequenced && !in_order) begin
            accept   = 1'b1;
            drop_ooo = 1'b1;
            nak      = !naked_reg[peer];
        end else if (room) begin
            accept = 1'b1;
            push   = 1'b1;
            owe    = sequenced;
        end else if (no_slot) begin
            // never hold the wire for a slot: the acks that free slots
            // arrive on it. The request goes at once, its sender is asked
            // to send again from it, and (if no other peer holds the
            // claim) the next slot that frees is kept for it.
            accept    = 1'b1;
            drop_busy = 1'b1;
            nak       = !naked_reg[peer];
        end else if (wait_reg >= cfg_rx_wait) begin
            // nor for the FIFO indefinitely: the sender will retransmit
            accept    = 1'b1;
            drop_busy = 1'b1;
        end
    end
end

assign s_rxd_ready  = accept;
assign m_free_valid = accept && !push;
// the head of the next cycle: the entry after a popped one, or the frame
// entering an empty FIFO
assign m_rxd_slot_next = (wr_ptr_reg == rd_ptr_next) ? s_rxd_slot : slot_mem[rd_ptr_next[FIFO_LOG2-1:0]];
assign m_free_slot  = s_rxd_slot;

assign m_lack_valid = present && sequenced && !hdr_done_reg;
assign m_lack_nak   = (s_rxd_op == `TG_OP_NAK);
assign m_lack_peer  = peer;
assign m_lack_seq   = s_rxd_ack[SEQ_W-1:0];

assign m_lowe_valid = owe;
assign m_lowe_peer  = peer;
assign m_lowe_seq   = push ? expected + {{(SEQ_W-1){1'b0}}, 1'b1} : expected;

assign m_rsv_valid  = push && cfg_enable && answered;
assign m_lnak_valid = nak;
assign m_lnak_peer  = peer;
assign m_lnak_seq   = expected;

assign ev_dup_drop  = drop_dup;
assign ev_ooo_drop  = drop_ooo;
assign ev_busy_drop = drop_busy;

// ---------------------------------------------------------------- next state
always @* begin
    init_next     = init_reg;
    init_idx_next = init_idx_reg;
    hdr_done_next = hdr_done_reg;
    wait_next     = wait_reg;
    naked_next    = naked_reg;
    wr_ptr_next   = wr_ptr_reg;
    rd_ptr_next   = rd_ptr_reg;
    claim_next      = claim_reg;
    claim_peer_next = claim_peer_reg;
    claim_age_next  = claim_age_reg + 20'd1;
    exp_we        = 1'b0;
    exp_waddr     = peer;
    exp_wdata     = expected + {{(SEQ_W-1){1'b0}}, 1'b1};
    fifo_we       = push;

    if (init_reg) begin
        exp_we        = 1'b1;
        exp_waddr     = init_idx_reg;
        exp_wdata     = {SEQ_W{1'b0}};
        init_idx_next = init_idx_reg + {{(PEER_BITS-1){1'b0}}, 1'b1};
        if (init_idx_reg == {PEER_BITS{1'b1}}) begin
            init_next = 1'b0;
        end
    end

    if (accept) begin
        hdr_done_next = 1'b0;
        wait_next     = 32'd0;
    end else if (present) begin
        hdr_done_next = 1'b1;
        if (wait_reg != 32'hFFFFFFFF) begin
            wait_next = wait_reg + 32'd1;
        end
    end

    if (push) begin
        wr_ptr_next = wr_ptr_reg + {{FIFO_LOG2{1'b0}}, 1'b1};
        if (sequenced) begin
            exp_we            = 1'b1;
            naked_next[peer]  = 1'b0;
        end
    end
    if (nak) begin
        naked_next[peer] = 1'b1;
    end
    // the claimant took its slot, or did not come back within 2^20 cycles
    if ((push && answered && claim_reg && claim_peer_reg == peer) || claim_age_reg == 20'hFFFFF) begin
        claim_next = 1'b0;
    end
    if (drop_busy && no_slot && !claim_reg) begin
        claim_next      = 1'b1;
        claim_peer_next = peer;
        claim_age_next  = 20'd0;
    end
    if (m_rxd_valid && m_rxd_ready) begin
        rd_ptr_next = rd_ptr_reg + {{FIFO_LOG2{1'b0}}, 1'b1};
    end
end

always @(posedge clk) begin
    init_reg     <= init_next;
    init_idx_reg <= init_idx_next;
    hdr_done_reg <= hdr_done_next;
    wait_reg     <= wait_next;
    naked_reg    <= naked_next;
    wr_ptr_reg   <= wr_ptr_next;
    rd_ptr_reg   <= rd_ptr_next;
    claim_reg      <= claim_next;
    claim_peer_reg <= claim_peer_next;
    claim_age_reg  <= claim_age_next;
    if (exp_we) begin
        exp_mem[exp_waddr] <= exp_wdata;
    end
    if (fifo_we) begin
        fifo_mem[wr_ptr_reg[FIFO_LOG2-1:0]] <= s_entry;
        slot_mem[wr_ptr_reg[FIFO_LOG2-1:0]] <= s_rxd_slot;
    end
    if (rst) begin
        init_reg     <= 1'b1;
        init_idx_reg <= {PEER_BITS{1'b0}};
        hdr_done_reg <= 1'b0;
        wait_reg     <= 32'd0;
        naked_reg    <= {NPEER{1'b0}};
        wr_ptr_reg   <= {(FIFO_LOG2+1){1'b0}};
        rd_ptr_reg   <= {(FIFO_LOG2+1){1'b0}};
        claim_reg    <= 1'b0;
        claim_age_reg <= 20'd0;
    end
end

// only the low SEQ_W bits of the header's seq and ack are compared
/* verilator lint_off UNUSEDSIGNAL */
wire [63:0] unused_seq_hi = {s_rxd_seq, s_rxd_ack};
/* verilator lint_on UNUSEDSIGNAL */

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// f_peer is one sender, chosen freely and then fixed; f_exp counts (modulo
// 2^SEQ_W) the sequenced frames of f_peer passed on since reset.
reg f_past_valid = 1'b0;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
end

(* anyconst *) reg [PEER_BITS-1:0] f_peer;
reg [SEQ_W-1:0]   f_exp;
reg [FIFO_LOG2:0] f_occ;     // frames in the FIFO
localparam [FIFO_LOG2:0] F_DEPTH = DEPTH;
wire f_mine = in_range && (peer == f_peer);
wire f_pop  = m_rxd_valid && m_rxd_ready;

always @(posedge clk) begin
    if (push && sequenced && f_mine) begin
        f_exp <= f_exp + {{(SEQ_W-1){1'b0}}, 1'b1};
    end
    f_occ <= f_occ + {{FIFO_LOG2{1'b0}}, push} - {{FIFO_LOG2{1'b0}}, f_pop};
    if (rst) begin
        f_exp <= {SEQ_W{1'b0}};
        f_occ <= {(FIFO_LOG2+1){1'b0}};
    end
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && !rst) begin
        // the table agrees with the count once it is cleared (and the
        // clearing sweep leaves zeros behind it)
        if (!init_reg) begin
            assert(exp_mem[f_peer] == f_exp);
        end else begin
            assert(f_exp == {SEQ_W{1'b0}});
            assert(f_occ == {(FIFO_LOG2+1){1'b0}});
            if (init_idx_reg > f_peer) begin
                assert(exp_mem[f_peer] == {SEQ_W{1'b0}});
            end
        end
        // L1: a sequenced frame is passed on only with the next number of
        // its sender: none twice, none out of order, none after a gap
        if (push && sequenced && f_mine) begin
            assert(s_rxd_seq[SEQ_W-1:0] == f_exp);
        end
        // L2: ACK and NAK frames are never passed on
        if (push) begin
            assert(!is_link);
        end
        // L6: a frame enters the FIFO only as it is taken from tg_eth_rx's
        // offer (with L4, the engine gets no frame that was not offered)
        if (push) begin
            assert(s_rxd_valid && s_rxd_ready);
        end
        // L3: duplicates and frames after a gap are dropped, never held
        if (present && sequenced && !is_link && !in_order) begin
            assert(accept && !push);
        end
        // L4: the FIFO neither overflows nor invents frames
        assert(f_occ <= F_DEPTH);
        assert(f_occ == wr_ptr_reg - rd_ptr_reg);
        assert(m_rxd_valid == (f_occ != {(FIFO_LOG2+1){1'b0}}));
        // L5: a request the engine answers is passed on only with a slot
        // kept for its answer
        if (push && answered && cfg_enable) begin
            assert((claimed ? in_rsv_room2 : in_rsv_room) && m_rsv_valid);
        end
    end
end
`endif

endmodule

`default_nettype wire
