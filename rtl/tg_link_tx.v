// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Link layer, transmit side: numbers each data frame per destination, keeps
// it in a retransmission buffer until the peer acknowledges it, resends a
// peer's unacknowledged frames in order (go-back-N) after a NAK or a
// timeout, declares a peer gone after too many retries, and sends standalone
// ACK and NAK frames.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_link_tx #(
    parameter PEER_BITS   = 8,  // node ids 0 .. 2^PEER_BITS-1 are sequenced (1..12)
    parameter SEQ_W       = 16, // sequence number bits, compared modulo 2^SEQ_W (4..16: the header carries 16)
    parameter SLOTS_LOG2  = 4,  // log2 of the retransmission buffer slots (1..5)
    parameter BACKOFF_MAX = 4,  // the timeout doubles per retry up to RTO << BACKOFF_MAX (0..8)
    parameter RSP_SLOTS   = 4,  // slots new requests leave free for responses (1..2^SLOTS_LOG2-1)
    parameter PEER_WINDOW = 8,  // unacknowledged frames per peer before its requests wait (1..2^SLOTS_LOG2)
    parameter PAY_SLOT_W  = 5   // payload-buffer slot number bits
) (
    input  wire                 clk,
    input  wire                 rst,

    // configuration
    input  wire                 cfg_enable,       // 0: frames pass unsequenced
    input  wire [31:0]          cfg_rto,          // cycles before the first retransmission
    input  wire [7:0]           cfg_max_retries,  // retransmissions before a peer is gone
    input  wire [15:0]          cfg_ack_delay,    // cycles an owed ack may wait for a frame to carry it
    input  wire                 cfg_gone_clear,   // pulse: forget every peer declared gone
    input  wire [31:0]          in_skip,          // cycles this edge stands for besides itself
                                                  // (fast-forward while st_idle; 0 on a board)

    // response reservations (with tg_link_rx): a request that will be
    // answered enters the receive engine only with a slot kept for its answer
    input  wire                 s_rsv_valid,      // pulse: keep one more slot for a response
    output wire                 st_rsv_room,      // a free slot is not kept for a response
    output wire                 st_rsv_room2,     // ... and a second one

    // status
    output wire                 st_gone_any,      // a peer is declared gone
    output wire [15:0]          st_gone_peer,     // the last peer declared gone
    output wire                 st_busy,          // a frame is held, being resent or owed a NAK
    output wire                 st_idle,          // no frame kept, offered or owed, no ack owed:
                                                  // no timer runs

    // responses in (from tg_rx_engine): READ_RESP, ATOMIC_RESP, REQ_RESP
    input  wire                 s_rsp_txd_valid,
    output wire                 s_rsp_txd_ready,
    input  wire [7:0]           s_rsp_txd_op,
    input  wire [7:0]           s_rsp_txd_flags,
    input  wire [7:0]           s_rsp_txd_status,
    input  wire [15:0]          s_rsp_txd_dst,
    input  wire [31:0]          s_rsp_txd_addr,
    input  wire [5:0]           s_rsp_txd_off,
    input  wire [6:0]           s_rsp_txd_cnt,
    input  wire [7:0]           s_rsp_txd_len,
    input  wire [7:0]           s_rsp_txd_ctx,
    input  wire [15:0]          s_rsp_txd_tag,
    input  wire [63:0]          s_rsp_txd_key,
    input  wire [1:0]           s_rsp_txd_pay_src,
    input  wire [PAY_SLOT_W-1:0] s_rsp_txd_pay_slot,

    // requests in (from the host side): every other data opcode
    input  wire                 s_req_txd_valid,
    output wire                 s_req_txd_ready,
    input  wire [7:0]           s_req_txd_op,
    input  wire [7:0]           s_req_txd_flags,
    input  wire [7:0]           s_req_txd_status,
    input  wire [15:0]          s_req_txd_dst,
    input  wire [31:0]          s_req_txd_addr,
    input  wire [5:0]           s_req_txd_off,
    input  wire [6:0]           s_req_txd_cnt,
    input  wire [7:0]           s_req_txd_len,
    input  wire [7:0]           s_req_txd_ctx,
    input  wire [15:0]          s_req_txd_tag,
    input  wire [63:0]          s_req_txd_key,
    input  wire [1:0]           s_req_txd_pay_src,
    input  wire [PAY_SLOT_W-1:0] s_req_txd_pay_slot,

    // frame descriptor out (to tg_eth_tx), held until ready
    output wire                 m_txd_valid,
    input  wire                 m_txd_ready,
    output wire [7:0]           m_txd_op,
    output wire [7:0]           m_txd_flags,
    output wire [7:0]           m_txd_status,
    output wire [15:0]          m_txd_dst,
    output wire [31:0]          m_txd_addr,
    output wire [5:0]           m_txd_off,
    output wire [6:0]           m_txd_cnt,
    output wire [7:0]           m_txd_len,
    output wire [7:0]           m_txd_ctx,
    output wire [15:0]          m_txd_tag,
    output wire [63:0]          m_txd_key,
    output wire [1:0]           m_txd_pay_src,
    output wire [PAY_SLOT_W-1:0] m_txd_pay_slot,
    output wire                 m_txd_pay_rel,    // the sender releases the wire hold (not kept here)
    output wire [31:0]          m_txd_seq,
    output wire [31:0]          m_txd_ack,

    // acknowledgement received (from tg_link_rx)
    input  wire                 s_lack_valid,
    input  wire                 s_lack_nak,
    input  wire [PEER_BITS-1:0] s_lack_peer,
    input  wire [SEQ_W-1:0]     s_lack_seq,

    // acknowledgement owed (from tg_link_rx)
    input  wire                 s_lowe_valid,
    input  wire [PEER_BITS-1:0] s_lowe_peer,
    input  wire [SEQ_W-1:0]     s_lowe_seq,

    // NAK to send (from tg_link_rx)
    input  wire                 s_lnak_valid,
    input  wire [PEER_BITS-1:0] s_lnak_peer,
    input  wire [SEQ_W-1:0]     s_lnak_seq,

    // the wire hold of a payload slot released: its frame was acknowledged,
    // purged or dropped (a frame kept here holds its slot until then)
    output wire                 m_pay_rel_valid,
    output wire [1:0]           m_pay_rel_src,
    output wire [PAY_SLOT_W-1:0] m_pay_rel_slot,

    // events
    output wire                 ev_retx,          // a frame was sent again
    output wire                 ev_nak_sent,
    output wire                 ev_ack_sent,      // a standalone ACK frame was sent
    output wire                 ev_gone_drop      // a frame was discarded: its peer is gone
);

localparam NPEER = 1 << PEER_BITS;
localparam W     = 1 << SLOTS_LOG2;
localparam PW    = 2 + PAY_SLOT_W;   // payload buffer and slot
localparam DW    = `TG_DESC_BITS + PW;  // the header fields, then the payload reference
localparam [SEQ_W-1:0] SEQ_ONE  = {{(SEQ_W-1){1'b0}}, 1'b1};
localparam SO_W = SLOTS_LOG2 + 1;   // low sequence bits kept per slot (see slot_seq_mem)
localparam [SO_W-1:0]  SO_W_MAX = {1'b1, {(SO_W-1){1'b0}}};   // W, the most frames a peer has kept
localparam [3:0]       BACKOFF_SH = BACKOFF_MAX;
localparam [SLOTS_LOG2:0] RSP_MIN  = RSP_SLOTS;
localparam [SLOTS_LOG2:0] WIN_MAX  = PEER_WINDOW;

initial begin
    if (PEER_BITS < 1 || PEER_BITS > 12) begin
        $error("%m: PEER_BITS must be in 1..12");
    end
    if (SEQ_W < 4 || SEQ_W > 16) begin
        $error("%m: SEQ_W must be in 4..16");
    end
    if (SLOTS_LOG2 < 1 || SLOTS_LOG2 > 5 || SLOTS_LOG2 >= SEQ_W - 1) begin
        $error("%m: SLOTS_LOG2 must be in 1..5 and below SEQ_W-1");
    end
    if (RSP_SLOTS < 1 || RSP_SLOTS >= (1 << SLOTS_LOG2)) begin
        $error("%m: RSP_SLOTS must be in 1..2^SLOTS_LOG2-1");
    end
    if (PEER_WINDOW < 1 || PEER_WINDOW > (1 << SLOTS_LOG2)) begin
        $error("%m: PEER_WINDOW must be in 1..2^SLOTS_LOG2");
    end
    if (BACKOFF_MAX < 0 || BACKOFF_MAX > 8) begin
        $error("%m: BACKOFF_MAX must be in 0..8");
    end
end

function [31:0] seq32;
    input [SEQ_W-1:0] s;
    begin
        seq32 = 32'd0;
        seq32[SEQ_W-1:0] = s;
    end
endfunction

function [15:0] node16;
    input [PEER_BITS-1:0] p;
    begin
        node16 = 16'd0;
        node16[PEER_BITS-1:0] = p;
    end
endfunction

// ---------------------------------------------------------------- state
reg [31:0]           now_reg, now_next;           // free-running cycle count
reg [SLOTS_LOG2-1:0] scan_reg;                    // the slot whose timer is checked
reg                  init_reg, init_next;         // clearing the peer tables after reset
reg [PEER_BITS-1:0]  init_idx_reg, init_idx_next;

// retransmission buffer. A slot is free, then valid (its frame is kept),
// then marked (acknowledged or purged, its payload hold not yet released),
// then free again; the two state bits are vectors, the rest is written by
// index, one row a cycle: a new frame's row or a resent frame's timer.
// An ack restarts the timers of the peer's frames still kept: it writes
// the time once, in the peer's row of rst_time_mem, and flags those slots
// in slot_rst (a flagged slot times from there, with no retries counted).
// A peer's kept frames are exactly its numbers una .. nseq-1, at most W of
// them, and every ack or resend believed lies in una .. nseq: within that
// span of at most W+1 numbers, the low SLOTS_LOG2+1 bits tell them apart,
// so a slot keeps only those.
reg [W-1:0]          slot_valid_reg, slot_valid_next;
reg [PEER_BITS-1:0]  slot_peer_mem    [0:W-1];
reg [SO_W-1:0]       slot_seq_mem     [0:W-1];   // low bits of the frame's sequence number
reg [31:0]           slot_time_mem    [0:W-1];   // cycle of the last send
reg [7:0]            slot_retry_mem   [0:W-1];   // timeout resends since kept or restarted
                                                 // (read as 0 while slot_rst flags it)
reg [W-1:0]          slot_rst_reg, slot_rst_next;   // timer restarted by the peer's last ack
reg [31:0]           rst_time_mem [0:NPEER-1];      // cycle of each peer's last advancing ack
                                                    // (read only for a flagged slot)
reg                  desc_we;                    // a new frame takes slot free_idx
reg                  pass_we;                    // a frame passes unsequenced (row ROW_PASS)
reg                  rst_we;                     // an ack restarts the timers of rst_set
reg [W-1:0]          rst_set;                    // ... these slots'
reg                  retx_we;                    // a resend restarts slot rtx_idx's timer
reg                  retx_count;                 // ... and counts a retry
reg [SLOTS_LOG2:0]   free_cnt_reg, free_cnt_next;  // free slots

// per-peer tables (RAMs, one write port each)
reg [SEQ_W-1:0]      nseq_mem [0:NPEER-1];   // next sequence number to give
reg                  nseq_we;
reg [PEER_BITS-1:0]  nseq_waddr;
reg [SEQ_W-1:0]      nseq_wdata;
reg [SEQ_W-1:0]      una_mem  [0:NPEER-1];   // oldest unacknowledged sequence number
reg                  una_we;
reg [PEER_BITS-1:0]  una_waddr;
reg [SEQ_W-1:0]      una_wdata;
reg [SEQ_W-1:0]      ackv_mem [0:NPEER-1];   // ack value owed to the peer
reg                  ackv_we;
reg [PEER_BITS-1:0]  ackv_waddr;
reg [SEQ_W-1:0]      ackv_wdata;

reg [NPEER-1:0]      owed_reg,   owed_next;    // peer is owed an ack no frame has carried
reg [NPEER-1:0]      queued_reg, queued_next;  // peer has an entry in the ack queue
reg [NPEER-1:0]      gone_reg,   gone_next;    // peer declared gone
reg                  gone_any_reg,  gone_any_next;
reg [PEER_BITS-1:0]  gone_peer_reg, gone_peer_next;

// ack queue: peers owed an ack, in the order they became owed
reg [PEER_BITS-1:0]  aq_peer_mem [0:NPEER-1];
reg [31:0]           aq_time_mem [0:NPEER-1];
reg                  aq_we;
reg [PEER_BITS:0]    aq_wr_reg, aq_wr_next;
reg [PEER_BITS:0]    aq_rd_reg, aq_rd_next;

// pending NAK
reg                  nak_valid_reg, nak_valid_next;
reg [PEER_BITS-1:0]  nak_peer_reg,  nak_peer_next;
reg [SEQ_W-1:0]      nak_seq_reg,   nak_seq_next;

// go-back-N walk over one peer's unacknowledged frames
reg                  retx_reg,      retx_next;
reg                  retx_tmo_reg,  retx_tmo_next;   // the walk follows a timeout (not a NAK)
reg [PEER_BITS-1:0]  retx_peer_reg, retx_peer_next;
reg [SEQ_W-1:0]      retx_seq_reg,  retx_seq_next;

// purge of a gone peer's slots, one slot per cycle
reg                  purge_reg,      purge_next;
reg [PEER_BITS-1:0]  purge_peer_reg, purge_peer_next;
reg [SLOTS_LOG2-1:0] purge_idx_reg,  purge_idx_next;

// input registers, one per class, so that a request waiting for a slot
// never holds up the responses that free slots (each ready is a flop)
reg                  rsp_valid_reg, rsp_valid_next;
reg [DW-1:0]         rsp_desc_reg,  rsp_desc_next;
reg                  req_valid_reg, req_valid_next;
reg [DW-1:0]         req_desc_reg,  req_desc_next;
reg [SLOTS_LOG2:0]   rsv_reg,      rsv_next;      // free slots kept for responses

// output stage (RW: bits of a row of desc_mem, below)
localparam RW       = SLOTS_LOG2 + 1;
localparam [RW-1:0] ROW_PASS = W[RW-1:0];
localparam [RW-1:0] ROW_ZERO = ROW_PASS + {{(RW-1){1'b0}}, 1'b1};
reg                  out_valid_reg, out_valid_next;
reg [RW-1:0]         out_row_reg,   out_row_next;    // the descriptor's row of desc_mem
reg                  out_link_reg,  out_link_next;   // an ACK or NAK (row ROW_ZERO) ...
reg                  out_nak_reg,   out_nak_next;    // ... a NAK
reg [PEER_BITS-1:0]  out_peer_reg,  out_peer_next;   // ... to this peer
reg [31:0]           out_seq_reg,   out_seq_next;
reg [31:0]           out_ack_reg,   out_ack_next;
reg                  out_rel_reg,   out_rel_next;
reg                  out_kept_reg,  out_kept_next;   // the output is a retransmission-buffer frame
reg [SLOTS_LOG2-1:0] out_idx_reg,   out_idx_next;    // ... in this slot (whose payload hold
                                                      // stays until the output is taken)

// Descriptors: one row per slot, then the row of the frame passing
// unsequenced (written as it enters the output stage, read while it waits
// there), then a row of zeros that is never written (under ACK and NAK).
reg [DW-1:0]         desc_mem [0:W+1];
initial begin
    desc_mem[W + 1] = {DW{1'b0}};
end

function [RW-1:0] slot_row;
    input [SLOTS_LOG2-1:0] idx;
    begin
        slot_row = {1'b0, idx};
    end
endfunction

// The payload slot of each retransmission-buffer frame, held (its wire
// hold) until the frame is acknowledged or purged; then the slot waits
// here, marked, until its hold is released, one slot a cycle.
reg [PW-1:0]         slot_pay_mem     [0:W-1];
reg [W-1:0]          rel_pend_reg, rel_pend_next;

wire [7:0]    seq_flag = `TG_FLAG_SEQ;
wire [7:0]    op_ack   = `TG_OP_ACK;
wire [7:0]    op_nak   = `TG_OP_NAK;

// The output descriptor is read from its row: a kept frame's slot, the
// row of the frame passing unsequenced, or the all-zero row under an ACK
// or NAK, whose opcode and peer come from registers. FLAG_SEQ is set for
// a kept frame and for an ACK or NAK, cleared for a frame passing.
wire [DW-1:0] out_row = desc_mem[out_row_reg];
wire [7:0]    row_op    = out_row[PW + `TG_DESC_OP_LSB +: `TG_DESC_OP_BITS];
wire [7:0]    row_flags = out_row[PW + `TG_DESC_FLAGS_LSB +: `TG_DESC_FLAGS_BITS];
wire [15:0]   row_node  = out_row[PW + `TG_DESC_NODE_LSB +: `TG_DESC_NODE_BITS];
reg  [DW-1:0] out_desc;
always @* begin
    out_desc = out_row;
    out_desc[PW + `TG_DESC_OP_LSB +: `TG_DESC_OP_BITS] =
        !out_link_reg ? row_op : (out_nak_reg ? op_nak : op_ack);
    out_desc[PW + `TG_DESC_FLAGS_LSB +: `TG_DESC_FLAGS_BITS] =
        (out_link_reg || out_kept_reg) ? (row_flags | seq_flag) : (row_flags & ~seq_flag);
    out_desc[PW + `TG_DESC_NODE_LSB +: `TG_DESC_NODE_BITS] =
        out_link_reg ? node16(out_peer_reg) : row_node;
end
assign {m_txd_op, m_txd_flags, m_txd_status, m_txd_dst, m_txd_addr, m_txd_off, m_txd_cnt,
        m_txd_len, m_txd_ctx, m_txd_tag, m_txd_key, m_txd_pay_src, m_txd_pay_slot} = out_desc;
assign m_txd_pay_rel = out_rel_reg;
assign m_txd_valid  = out_valid_reg;
assign m_txd_seq    = out_seq_reg;
assign m_txd_ack    = out_ack_reg;
assign st_gone_any  = gone_any_reg;
assign st_gone_peer = node16(gone_peer_reg);
assign st_busy      = rsp_valid_reg || req_valid_reg || out_valid_reg || retx_reg ||
                      purge_reg || nak_valid_reg || init_reg;
assign st_idle      = !st_busy && (free_cnt_reg == W[SLOTS_LOG2:0]) && (rsv_reg == {(SLOTS_LOG2+1){1'b0}}) &&
                      (aq_wr_reg == aq_rd_reg) && (owed_reg == {NPEER{1'b0}}) &&
                      (rel_pend_reg == {W{1'b0}});

// ---------------------------------------------------------------- slot search
integer i;

wire [PEER_BITS-1:0] req_peer = req_desc_reg[PW + `TG_DESC_NODE_LSB +: PEER_BITS];   // dst of the waiting request

localparam OH_N    = W;
localparam OH_LOG2 = SLOTS_LOG2;
`include "tg_onehot.vh"

localparam [W-1:0] ONE_W = {{(W-1){1'b0}}, 1'b1};

// the lowest free slot
wire [W-1:0]          free_vec    = ~(slot_valid_reg | rel_pend_reg);
wire [W-1:0]          free_lowest = oh_lowest(free_vec);
wire                  free_found  = free_vec != {W{1'b0}};
wire [SLOTS_LOG2-1:0] free_idx    = oh_index(free_lowest);
wire [SLOTS_LOG2:0]   free_cnt    = free_cnt_reg;

// The timers are checked one slot per cycle, in turn: a timeout is seen
// at most 2^SLOTS_LOG2 - 1 cycles late. The check of the slot scanned
// next is made a cycle ahead, at the next cycle's count, into
// exp_time_ok_reg, and so is the read of its peer: the decisions below
// start from registers. Where this cycle writes that slot's timer (a new
// frame, a resend, an ack's restart), the slot will have waited one
// cycle (in_skip is 0 unless st_idle, when no timer is written). A new
// cfg_rto is thus seen a cycle after it is written.
// (waited >> shift >= RTO is waited >= RTO << shift, without its 40 bits.)
function [3:0] backoff;
    input [7:0] retry;
    begin
        backoff = (retry > {4'd0, BACKOFF_SH}) ? BACKOFF_SH : retry[3:0];
    end
endfunction

wire [SLOTS_LOG2-1:0] exp_idx    = scan_reg;
wire [SLOTS_LOG2-1:0] scan_next  = scan_reg + in_skip[SLOTS_LOG2-1:0] + {{(SLOTS_LOG2-1){1'b0}}, 1'b1};
reg  [PEER_BITS-1:0]  exp_peer_reg, exp_peer_next;
reg                   exp_time_ok_reg, exp_time_ok_next;
wire [PEER_BITS-1:0]  exp_peer   = exp_peer_reg;
wire [7:0]            exp_retry  = slot_rst_reg[exp_idx] ? 8'd0 : slot_retry_mem[exp_idx];
wire                  exp_found  = slot_valid_reg[exp_idx] && !gone_reg[exp_peer] && exp_time_ok_reg;


// searches over every slot's peer, made only when their answer is used:
// the waiting request's peer's frames (its window), and the slot of
// (retx peer, retx seq) during a go-back-N walk
reg [SLOTS_LOG2:0]   win_cnt;             // slots of the waiting request's peer
reg                  rtx_found;
reg [SLOTS_LOG2-1:0] rtx_idx;
always @* begin
    win_cnt   = {(SLOTS_LOG2+1){1'b0}};
    rtx_found = 1'b0;
    rtx_idx   = {SLOTS_LOG2{1'b0}};
    if (req_valid_reg) begin
        for (i = 0; i < W; i = i + 1) begin
            if (slot_valid_reg[i] && slot_peer_mem[i] == req_peer) begin
                win_cnt = win_cnt + {{SLOTS_LOG2{1'b0}}, 1'b1};
            end
        end
    end
    if (retx_reg) begin
        for (i = W - 1; i >= 0; i = i - 1) begin
            if (slot_valid_reg[i] && slot_peer_mem[i] == retx_peer_reg &&
                slot_seq_mem[i] == retx_seq_reg[SO_W-1:0]) begin
                rtx_found = 1'b1;
                rtx_idx   = i[SLOTS_LOG2-1:0];
            end
        end
    end
end

// the lowest slot whose payload hold is to be released (not the one whose
// frame waits in the output stage: an ack can free a frame while its
// resend waits there, and the resend must not name a slot handed out again,
// nor its descriptor's row be written over while it is read)
wire [W-1:0]          out_hold   = (out_valid_reg && out_kept_reg) ? (ONE_W << out_idx_reg) : {W{1'b0}};
wire [W-1:0]          rel_vec    = rel_pend_reg & ~out_hold;
wire [W-1:0]          rel_lowest = oh_lowest(rel_vec);
wire                  rel_found  = rel_vec != {W{1'b0}};
wire [SLOTS_LOG2-1:0] rel_idx    = oh_index(rel_lowest);
wire [W-1:0]          purge_bit  = ONE_W << purge_idx_reg;
wire [PW-1:0] rel_pay = slot_pay_mem[rel_idx];

// ---------------------------------------------------------------- acknowledgements in
wire [SEQ_W-1:0] lack_una  = una_mem[s_lack_peer];
wire [SEQ_W-1:0] lack_nseq = nseq_mem[s_lack_peer];
// an ack is believed only if it lies between the oldest unacked and the next seq
wire             lack_ok   = s_lack_valid && !init_reg &&
                             (s_lack_seq - lack_una) <= (lack_nseq - lack_una);
wire             lack_adv  = lack_ok && (s_lack_seq != lack_una);

// ---------------------------------------------------------------- output choice
// A response may take any free slot. A request must leave free the
// slots kept for responses (with the one being kept this cycle), and at
// least RSP_SLOTS: a request never takes the last slots an answer needs,
// so the receive engine never waits for the network indefinitely.
wire [SLOTS_LOG2:0]  rsv_now    = rsv_reg + {{SLOTS_LOG2{1'b0}}, s_rsv_valid};
wire                 rsp_go     = rsp_valid_reg && free_found;
// (and a peer's window bounds the queue a busy receiver sees)
wire                 req_go     = req_valid_reg && free_cnt > rsv_now && free_cnt > RSP_MIN &&
                                  win_cnt < WIN_MAX;
wire                 in_rsp     = rsp_go;                        // responses first
wire [DW-1:0]        new_desc   = in_rsp ? rsp_desc_reg : req_desc_reg;
wire [15:0]          in_dst     = new_desc[PW + `TG_DESC_NODE_LSB +: `TG_DESC_NODE_BITS];
wire [PEER_BITS-1:0] new_peer   = in_dst[PEER_BITS-1:0];
wire                 new_seqd   = cfg_enable && ((in_dst >> PEER_BITS) == 16'd0);

wire [SEQ_W-1:0]     new_nseq   = nseq_mem[new_peer];
wire [SEQ_W-1:0]     new_ackv   = ackv_mem[new_peer];
wire                 out_free   = !out_valid_reg || m_txd_ready;

wire [PEER_BITS-1:0] aq_head_peer = aq_peer_mem[aq_rd_reg[PEER_BITS-1:0]];
wire [31:0]          aq_head_time = aq_time_mem[aq_rd_reg[PEER_BITS-1:0]];
wire                 aq_nonempty  = (aq_wr_reg != aq_rd_reg);
wire                 aq_head_owed = owed_reg[aq_head_peer];
wire                 aq_head_due  = (now_reg - aq_head_time) >= {16'd0, cfg_ack_delay};
wire [SEQ_W-1:0]     aq_head_ackv = ackv_mem[aq_head_peer];

wire [SEQ_W-1:0]     retx_nseq  = nseq_mem[retx_peer_reg];
wire [SEQ_W-1:0]     retx_ackv  = ackv_mem[retx_peer_reg];
wire [7:0]           rtx_retry  = slot_rst_reg[rtx_idx] ? 8'd0 : slot_retry_mem[rtx_idx];   // its retries counted
// ... after a resend (an ack restarting the slot in the same cycle clears
// them unless the resend counts one)
wire [7:0]           rtx_retry_new = retx_count ? rtx_retry + 8'd1 : (rst_set[rtx_idx] ? 8'd0 : rtx_retry);

// the slot scanned next, as its timer stands (not written this cycle)
wire [PEER_BITS-1:0]  sn_peer    = slot_peer_mem[scan_next];
wire [7:0]            sn_retry   = slot_rst_reg[scan_next] ? 8'd0 : slot_retry_mem[scan_next];
wire [31:0]           sn_time    = slot_rst_reg[scan_next] ? rst_time_mem[sn_peer] : slot_time_mem[scan_next];
wire [31:0]           sn_wait    = (now_next - sn_time) >> backoff(sn_retry);
wire                  sn_ok_kept = sn_wait >= cfg_rto;
// ... and as this cycle writes it: one cycle waited, no retry counted
// (a new frame, a restart) or the resend's count
wire                  sn_ok_new  = cfg_rto <= 32'd1;
wire                  sn_ok_retx = (backoff(rtx_retry_new) == 4'd0) ? sn_ok_new :
                                                                                      (cfg_rto == 32'd0);

wire [SEQ_W-1:0]     exp_una    = una_mem[exp_peer];

wire [DW-1:0] s_rsp_desc = {s_rsp_txd_op, s_rsp_txd_flags, s_rsp_txd_status, s_rsp_txd_dst,
                            s_rsp_txd_addr, s_rsp_txd_off, s_rsp_txd_cnt, s_rsp_txd_len, s_rsp_txd_ctx,
                            s_rsp_txd_tag, s_rsp_txd_key, s_rsp_txd_pay_src, s_rsp_txd_pay_slot};
wire [DW-1:0] s_req_desc = {s_req_txd_op, s_req_txd_flags, s_req_txd_status, s_req_txd_dst,
                            s_req_txd_addr, s_req_txd_off, s_req_txd_cnt, s_req_txd_len, s_req_txd_ctx,
                            s_req_txd_tag, s_req_txd_key, s_req_txd_pay_src, s_req_txd_pay_slot};

reg  ev_retx_r, ev_nak_r, ev_ack_r, ev_gone_r;
reg  gone_rel;   // a new frame to a gone peer is dropped: its hold goes now
reg  pay_rel_valid_r;
reg  [PW-1:0] pay_rel_r;

// what the state machine below will do
wire nak_start  = !init_reg && !retx_reg && !purge_reg && lack_ok && s_lack_nak &&
                  (s_lack_seq != lack_nseq) && !gone_reg[s_lack_peer];
wire gone_now   = !init_reg && !retx_reg && !purge_reg && !nak_start && exp_found &&
                  (exp_retry >= cfg_max_retries);
wire ack_send   = aq_nonempty && aq_head_owed && aq_head_due;
wire txd_accept = !init_reg && out_free && !nak_valid_reg && !ack_send &&
                  !retx_reg && !purge_reg && !gone_now && (rsp_go || req_go);
assign s_rsp_txd_ready = !rsp_valid_reg;
assign s_req_txd_ready = !req_valid_reg;
assign st_rsv_room  = (free_cnt > rsv_reg);
assign st_rsv_room2 = (free_cnt > rsv_reg + {{SLOTS_LOG2{1'b0}}, 1'b1});
assign ev_retx      = ev_retx_r;
assign ev_nak_sent  = ev_nak_r;
assign ev_ack_sent  = ev_ack_r;
assign ev_gone_drop = ev_gone_r;
assign m_pay_rel_valid = pay_rel_valid_r;
assign {m_pay_rel_src, m_pay_rel_slot} = pay_rel_r;

// ---------------------------------------------------------------- next state
always @* begin
    now_next       = now_reg + in_skip + 32'd1;
    init_next      = init_reg;
    init_idx_next  = init_idx_reg;
    slot_valid_next = slot_valid_reg;
    rel_pend_next   = rel_pend_reg;
    free_cnt_next   = free_cnt_reg;
    desc_we        = 1'b0;
    pass_we        = 1'b0;
    rst_we         = 1'b0;
    slot_rst_next  = slot_rst_reg;
    rst_set        = {W{1'b0}};
    retx_we        = 1'b0;
    retx_count     = 1'b0;
    nseq_we        = 1'b0;
    nseq_waddr     = new_peer;
    nseq_wdata     = new_nseq + SEQ_ONE;
    una_we         = 1'b0;
    una_waddr      = s_lack_peer;
    una_wdata      = s_lack_seq;
    ackv_we        = 1'b0;
    ackv_waddr     = s_lowe_peer;
    ackv_wdata     = s_lowe_seq;
    owed_next      = owed_reg;
    queued_next    = queued_reg;
    gone_next      = gone_reg;
    gone_any_next  = gone_any_reg;
    gone_peer_next = gone_peer_reg;
    aq_we          = 1'b0;
    aq_wr_next     = aq_wr_reg;
    aq_rd_next     = aq_rd_reg;
    nak_valid_next = nak_valid_reg;
    nak_peer_next  = nak_peer_reg;
    nak_seq_next   = nak_seq_reg;
    retx_next      = retx_reg;
    retx_tmo_next  = retx_tmo_reg;
    retx_peer_next = retx_peer_reg;
    retx_seq_next  = retx_seq_reg;
    purge_next     = purge_reg;
    purge_peer_next = purge_peer_reg;
    purge_idx_next = purge_idx_reg;
    out_valid_next = out_valid_reg;
    rsp_valid_next = rsp_valid_reg;
    rsp_desc_next  = rsp_desc_reg;
    req_valid_next = req_valid_reg;
    req_desc_next  = req_desc_reg;
    rsv_next       = rsv_reg;
    out_row_next   = out_row_reg;
    out_link_next  = out_link_reg;
    out_nak_next   = out_nak_reg;
    out_peer_next  = out_peer_reg;
    out_seq_next   = out_seq_reg;
    out_ack_next   = out_ack_reg;
    out_rel_next   = out_rel_reg;
    out_kept_next  = out_kept_reg;
    out_idx_next   = out_idx_reg;
    gone_rel       = 1'b0;
    ev_retx_r      = 1'b0;
    ev_nak_r       = 1'b0;
    ev_ack_r       = 1'b0;
    ev_gone_r      = 1'b0;

    if (out_valid_reg && m_txd_ready) begin
        out_valid_next = 1'b0;
    end
    if (txd_accept && in_rsp) begin
        rsp_valid_next = 1'b0;
    end
    if (txd_accept && !in_rsp) begin
        req_valid_next = 1'b0;
    end
    if (s_rsp_txd_valid && !rsp_valid_reg) begin
        rsp_valid_next = 1'b1;
        rsp_desc_next  = s_rsp_desc;
    end
    if (s_req_txd_valid && !req_valid_reg) begin
        req_valid_next = 1'b1;
        req_desc_next  = s_req_desc;
    end
    if (s_rsv_valid && !(txd_accept && in_rsp && rsv_reg != {(SLOTS_LOG2+1){1'b0}})) begin
        rsv_next = rsv_reg + {{SLOTS_LOG2{1'b0}}, 1'b1};
    end else if (!s_rsv_valid && txd_accept && in_rsp && rsv_reg != {(SLOTS_LOG2+1){1'b0}}) begin
        rsv_next = rsv_reg - {{SLOTS_LOG2{1'b0}}, 1'b1};
    end

    if (init_reg) begin
        // clear the three tables, one entry per cycle (the same index each)
        nseq_we       = 1'b1;
        nseq_waddr    = init_idx_reg;
        nseq_wdata    = {SEQ_W{1'b0}};
        una_we        = 1'b1;
        una_waddr     = init_idx_reg;
        una_wdata     = {SEQ_W{1'b0}};
        ackv_we       = 1'b1;
        ackv_waddr    = init_idx_reg;
        ackv_wdata    = {SEQ_W{1'b0}};
        init_idx_next = init_idx_reg + {{(PEER_BITS-1){1'b0}}, 1'b1};
        if (init_idx_reg == {PEER_BITS{1'b1}}) begin
            init_next = 1'b0;
        end
    end else begin
        // -------- acknowledgement received: free the peer's acked slots
        // (the peer makes progress: the timers of its other frames start
        // again, so that a queue in front of a busy receiver is no loss)
        if (lack_adv) begin
            una_we = 1'b1;
            rst_we = 1'b1;
            for (i = 0; i < W; i = i + 1) begin
                if (slot_valid_reg[i] && slot_peer_mem[i] == s_lack_peer) begin
                    if ((s_lack_seq[SO_W-1:0] - slot_seq_mem[i]) != {SO_W{1'b0}} &&
                        (s_lack_seq[SO_W-1:0] - slot_seq_mem[i]) <= SO_W_MAX) begin
                        slot_valid_next[i] = 1'b0;
                        rel_pend_next[i]   = 1'b1;
                    end else begin
                        slot_rst_next[i] = 1'b1;
                        rst_set[i]       = 1'b1;
                    end
                end
            end
        end

        // -------- go-back-N start: a NAK first, else the first expired slot
        if (!retx_reg && !purge_reg) begin
            if (nak_start) begin
                retx_next      = 1'b1;
                retx_tmo_next  = 1'b0;
                retx_peer_next = s_lack_peer;
                retx_seq_next  = s_lack_seq;
            end else if (exp_found) begin
                if (gone_now) begin
                    // peer gone: free its slots, restart its numbering at
                    // the oldest unacknowledged frame
                    gone_next[exp_peer] = 1'b1;
                    gone_any_next       = 1'b1;
                    gone_peer_next      = exp_peer;
                    purge_next          = 1'b1;
                    purge_peer_next     = exp_peer;
                    purge_idx_next      = {SLOTS_LOG2{1'b0}};
                    nseq_we             = 1'b1;
                    nseq_waddr          = exp_peer;
                    nseq_wdata          = (lack_adv && s_lack_peer == exp_peer) ? s_lack_seq : exp_una;
                end else begin
                    retx_next      = 1'b1;
                    retx_tmo_next  = 1'b1;
                    retx_peer_next = exp_peer;
                    retx_seq_next  = (lack_adv && s_lack_peer == exp_peer) ? s_lack_seq : exp_una;
                end
            end
        end

        // -------- purge: one slot per cycle
        if (purge_reg) begin
            if (slot_valid_reg[purge_idx_reg] && slot_peer_mem[purge_idx_reg] == purge_peer_reg) begin
                slot_valid_next = slot_valid_next & ~purge_bit;
                rel_pend_next   = rel_pend_next | purge_bit;
                ev_gone_r = 1'b1;
            end
            purge_idx_next = purge_idx_reg + {{(SLOTS_LOG2-1){1'b0}}, 1'b1};
            if (purge_idx_reg == {SLOTS_LOG2{1'b1}}) begin
                purge_next = 1'b0;
            end
        end

        // -------- acknowledgement queue: drop entries whose ack went out
        if (aq_nonempty && !aq_head_owed) begin
            aq_rd_next = aq_rd_reg + {{PEER_BITS{1'b0}}, 1'b1};
            queued_next[aq_head_peer] = 1'b0;
        end

        // -------- output stage
        if (out_free) begin
            if (nak_valid_reg) begin
                out_valid_next = 1'b1;
                out_row_next   = ROW_ZERO;
                out_link_next  = 1'b1;
                out_nak_next   = 1'b1;
                out_peer_next  = nak_peer_reg;
                out_seq_next   = 32'd0;
                out_ack_next   = seq32(nak_seq_reg);
                out_rel_next   = 1'b0;
                out_kept_next  = 1'b0;
                nak_valid_next = 1'b0;
                ev_nak_r       = 1'b1;
            end else if (ack_send) begin
                out_valid_next = 1'b1;
                out_row_next   = ROW_ZERO;
                out_link_next  = 1'b1;
                out_nak_next   = 1'b0;
                out_peer_next  = aq_head_peer;
                out_seq_next   = 32'd0;
                out_ack_next   = seq32(aq_head_ackv);
                out_rel_next   = 1'b0;
                out_kept_next  = 1'b0;
                owed_next[aq_head_peer]   = 1'b0;
                queued_next[aq_head_peer] = 1'b0;
                aq_rd_next     = aq_rd_reg + {{PEER_BITS{1'b0}}, 1'b1};
                ev_ack_r       = 1'b1;
            end else if (retx_reg) begin
                if (retx_seq_reg == retx_nseq) begin
                    retx_next = 1'b0;
                end else begin
                    retx_seq_next = retx_seq_reg + SEQ_ONE;
                    if (rtx_found) begin
                        out_valid_next = 1'b1;
                        out_row_next   = slot_row(rtx_idx);
                        out_link_next  = 1'b0;
                        out_seq_next   = seq32(retx_seq_reg);
                        out_ack_next   = seq32(retx_ackv);
                        out_rel_next   = 1'b0;
                        out_kept_next  = 1'b1;
                        out_idx_next   = rtx_idx;
                        owed_next[retx_peer_reg] = 1'b0;
                        retx_we        = 1'b1;
                        slot_rst_next[rtx_idx] = 1'b0;
                        retx_count     = retx_tmo_reg && rtx_retry != 8'hFF;
                        ev_retx_r = 1'b1;
                    end
                end
            end else if (txd_accept) begin
                // a slot is free whichever way the frame goes
                if (!new_seqd) begin
                    // link layer off, or a node beyond the sequenced range
                    out_valid_next = 1'b1;
                    out_row_next   = ROW_PASS;
                    out_link_next  = 1'b0;
                    pass_we        = 1'b1;
                    out_seq_next   = 32'd0;
                    out_ack_next   = 32'd0;
                    out_rel_next   = 1'b1;   // not kept: the sender releases it
                    out_kept_next  = 1'b0;
                end else if (gone_reg[new_peer]) begin
                    ev_gone_r = 1'b1;
                    gone_rel  = 1'b1;
                end else begin
                    out_valid_next = 1'b1;
                    out_row_next   = slot_row(free_idx);
                    out_link_next  = 1'b0;
                    out_seq_next   = seq32(new_nseq);
                    out_ack_next   = seq32(new_ackv);
                    out_rel_next   = 1'b0;   // kept until acknowledged
                    out_kept_next  = 1'b1;
                    out_idx_next   = free_idx;
                    owed_next[new_peer] = 1'b0;
                    desc_we        = 1'b1;
                    slot_rst_next[free_idx] = 1'b0;
                    slot_valid_next = slot_valid_next | free_lowest;
                    free_cnt_next  = free_cnt_next - {{SLOTS_LOG2{1'b0}}, 1'b1};
                    nseq_we        = 1'b1;
                    nseq_waddr     = new_peer;
                    nseq_wdata     = new_nseq + SEQ_ONE;
                end
            end
        end

        // -------- NAK to send: one pending, later ones wait for the sender's timer
        if (s_lnak_valid && (!nak_valid_reg || !nak_valid_next)) begin
            nak_valid_next = 1'b1;
            nak_peer_next  = s_lnak_peer;
            nak_seq_next   = s_lnak_seq;
        end

        // -------- acknowledgement owed (after the piggyback clears above)
        if (s_lowe_valid) begin
            ackv_we                  = 1'b1;
            owed_next[s_lowe_peer]   = 1'b1;
            if (!queued_next[s_lowe_peer]) begin
                aq_we       = 1'b1;
                aq_wr_next  = aq_wr_reg + {{PEER_BITS{1'b0}}, 1'b1};
                queued_next[s_lowe_peer] = 1'b1;
            end
        end
    end

    // -------- payload holds released: a dropped frame's now, else the
    // lowest marked slot's (a slot without payload is only unmarked)
    pay_rel_valid_r = 1'b0;
    pay_rel_r       = new_desc[PW-1:0];
    if (gone_rel) begin
        pay_rel_valid_r = (new_desc[PAY_SLOT_W +: 2] != `TG_PAY_NONE);
    end else if (rel_found) begin
        pay_rel_valid_r        = (rel_pay[PAY_SLOT_W +: 2] != `TG_PAY_NONE);
        pay_rel_r              = rel_pay;
        rel_pend_next          = rel_pend_next & ~rel_lowest;
        free_cnt_next          = free_cnt_next + {{SLOTS_LOG2{1'b0}}, 1'b1};
    end

    if (cfg_gone_clear) begin
        gone_next     = {NPEER{1'b0}};
        gone_any_next = 1'b0;
    end
end

// the next slot's timer check and peer, as this cycle leaves its row
always @* begin
    if (retx_we && rtx_idx == scan_next) begin
        exp_time_ok_next = sn_ok_retx;
    end else if ((desc_we && free_idx == scan_next) || rst_set[scan_next]) begin
        exp_time_ok_next = sn_ok_new;
    end else begin
        exp_time_ok_next = sn_ok_kept;
    end
    exp_peer_next = (desc_we && free_idx == scan_next) ? new_peer : slot_peer_mem[scan_next];
end

always @(posedge clk) begin
    now_reg       <= now_next;
    scan_reg      <= scan_next;
    exp_time_ok_reg <= exp_time_ok_next;
    exp_peer_reg  <= exp_peer_next;
    init_reg      <= init_next;
    init_idx_reg  <= init_idx_next;
    slot_valid_reg <= slot_valid_next;
    rel_pend_reg   <= rel_pend_next;
    free_cnt_reg   <= free_cnt_next;
    slot_rst_reg   <= slot_rst_next;
    if (rst_we) begin
        rst_time_mem[s_lack_peer] <= now_reg;
    end
    if (retx_we) begin
        slot_time_mem[rtx_idx]  <= now_reg;
        slot_retry_mem[rtx_idx] <= rtx_retry_new;
    end
    if (desc_we || pass_we) begin
        desc_mem[desc_we ? slot_row(free_idx) : ROW_PASS] <= new_desc;
    end
    if (desc_we) begin
        slot_pay_mem[free_idx]   <= new_desc[PW-1:0];
        slot_peer_mem[free_idx]  <= new_peer;
        slot_seq_mem[free_idx]   <= new_nseq[SO_W-1:0];
        slot_time_mem[free_idx]  <= now_reg;
        slot_retry_mem[free_idx] <= 8'd0;
    end
    if (nseq_we) begin
        nseq_mem[nseq_waddr] <= nseq_wdata;
    end
    if (una_we) begin
        una_mem[una_waddr] <= una_wdata;
    end
    if (ackv_we) begin
        ackv_mem[ackv_waddr] <= ackv_wdata;
    end
    if (aq_we) begin
        aq_peer_mem[aq_wr_reg[PEER_BITS-1:0]] <= s_lowe_peer;
        aq_time_mem[aq_wr_reg[PEER_BITS-1:0]] <= now_reg;
    end
    owed_reg       <= owed_next;
    queued_reg     <= queued_next;
    gone_reg       <= gone_next;
    gone_any_reg   <= gone_any_next;
    gone_peer_reg  <= gone_peer_next;
    aq_wr_reg      <= aq_wr_next;
    aq_rd_reg      <= aq_rd_next;
    nak_valid_reg  <= nak_valid_next;
    nak_peer_reg   <= nak_peer_next;
    nak_seq_reg    <= nak_seq_next;
    retx_reg       <= retx_next;
    retx_tmo_reg   <= retx_tmo_next;
    retx_peer_reg  <= retx_peer_next;
    retx_seq_reg   <= retx_seq_next;
    purge_reg      <= purge_next;
    purge_peer_reg <= purge_peer_next;
    purge_idx_reg  <= purge_idx_next;
    rsp_valid_reg  <= rsp_valid_next;
    rsp_desc_reg   <= rsp_desc_next;
    req_valid_reg  <= req_valid_next;
    req_desc_reg   <= req_desc_next;
    rsv_reg        <= rsv_next;
    out_valid_reg  <= out_valid_next;
    out_row_reg    <= out_row_next;
    out_link_reg   <= out_link_next;
    out_nak_reg    <= out_nak_next;
    out_peer_reg   <= out_peer_next;
    out_seq_reg    <= out_seq_next;
    out_ack_reg    <= out_ack_next;
    out_rel_reg    <= out_rel_next;
    out_kept_reg   <= out_kept_next;
    out_idx_reg    <= out_idx_next;
    if (rst) begin
        now_reg       <= 32'd0;
        scan_reg      <= {SLOTS_LOG2{1'b0}};
        exp_peer_reg  <= slot_peer_mem[0];
        exp_time_ok_reg <= 1'b0;
        init_reg      <= 1'b1;
        init_idx_reg  <= {PEER_BITS{1'b0}};
        slot_valid_reg <= {W{1'b0}};
        rel_pend_reg   <= {W{1'b0}};
        slot_rst_reg   <= {W{1'b0}};
        free_cnt_reg   <= W[SLOTS_LOG2:0];
        owed_reg      <= {NPEER{1'b0}};
        queued_reg    <= {NPEER{1'b0}};
        gone_reg      <= {NPEER{1'b0}};
        gone_any_reg  <= 1'b0;
        gone_peer_reg <= {PEER_BITS{1'b0}};
        aq_wr_reg     <= {(PEER_BITS+1){1'b0}};
        aq_rd_reg     <= {(PEER_BITS+1){1'b0}};
        nak_valid_reg <= 1'b0;
        retx_reg      <= 1'b0;
        retx_tmo_reg  <= 1'b0;
        purge_reg     <= 1'b0;
        out_valid_reg <= 1'b0;
        rsp_valid_reg <= 1'b0;
        req_valid_reg <= 1'b0;
        rsv_reg       <= {(SLOTS_LOG2+1){1'b0}};
    end
end

endmodule

`default_nettype wire
