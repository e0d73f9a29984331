// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Receive engine: executes accepted frames against host memory, one frame
// at a time: writes (of their run of bytes), read requests (answered with a
// READ_RESP), read responses (to the host port or, for a fetch, into local
// memory followed by its completion word), atomics (read the word, write
// the new value, answer the old one; nothing else reaches memory in
// between), and remote enqueues (the REQ FSM: check the queue and the
// source's block, read the head unless the head the table remembers shows
// room, write the entry, then the tail).
`default_nettype none
`include "tg_hw_defs.vh"

module tg_rx_engine #(
    parameter BLK_SRC_BITS = 8, // low bits of the source node that select a block-table row (1..8)
    parameter BLOCK_BYTES  = 64, // largest payload this node takes or sends: 16, 32 or 64 bytes
    parameter SLOT_W       = 2,  // bits of a payload-buffer slot number (1..4)
    parameter PAY_SLOT_W   = 5   // bits of a response-buffer slot number
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_mem_size,

    // accepted frame in (consumed when its execution is complete)
    input  wire         s_rxd_valid,
    output reg          s_rxd_ready,
    input  wire [7:0]   s_rxd_op,
    input  wire [7:0]   s_rxd_flags,
    input  wire [7:0]   s_rxd_status,
    input  wire [15:0]  s_rxd_src,
    input  wire [31:0]  s_rxd_addr,
    input  wire [5:0]   s_rxd_off,      // the bytes written or asked for: cnt from off
    input  wire [6:0]   s_rxd_cnt,
    input  wire [7:0]   s_rxd_len,
    input  wire [7:0]   s_rxd_ctx,
    input  wire [15:0]  s_rxd_tag,
    input  wire [63:0]  s_rxd_key,
    input  wire [SLOT_W-1:0] s_rxd_slot_next, // payload-buffer slot of the frame on offer in the next cycle

    // payload buffer read port (tg_pay_buf, synchronous): the word of the
    // frame's payload the next cycle uses
    output wire [SLOT_W-1:0] m_pay_rd_slot,
    output wire [2:0]   m_pay_rd_word,
    input  wire [63:0]  s_pay_rd_data,

    // protection: the region the frame's key names (tg_prot, combinational)
    input  wire         cfg_prot_enable,
    output wire [63:0]  prot_key,         // looked up: the frame's key
    input  wire         prot_hit,
    input  wire [31:0]  prot_base,
    input  wire [32:0]  prot_end,
    input  wire [3:0]   prot_rights,
    output wire         st_idle,          // between requests

    // memory master
    output reg          m_mem_req_valid,
    input  wire         m_mem_req_ready,
    output reg          m_mem_req_write,
    output reg  [31:0]  m_mem_req_addr,
    output reg  [63:0]  m_mem_req_wdata,
    output reg  [7:0]   m_mem_req_wstrb,
    input  wire         s_mem_resp_valid,
    input  wire [63:0]  s_mem_resp_rdata,

    // response descriptor to the transmitter
    output wire         m_txd_valid,
    input  wire         m_txd_ready,
    output wire [7:0]   m_txd_op,
    output wire [7:0]   m_txd_flags,
    output wire [7:0]   m_txd_status,
    output wire [15:0]  m_txd_dst,
    output wire [31:0]  m_txd_addr,
    output wire [5:0]   m_txd_off,
    output wire [6:0]   m_txd_cnt,
    output wire [7:0]   m_txd_len,
    output wire [7:0]   m_txd_ctx,
    output wire [15:0]  m_txd_tag,
    output wire [1:0]   m_txd_pay_src,    // TG_PAY_RSP with a payload, else TG_PAY_NONE
    output wire [PAY_SLOT_W-1:0] m_txd_pay_slot,

    // the response buffer: the lowest free slot (a read or atomic starts
    // only with one), the words read written into it, and its taking (the
    // wire hold) when the response with a payload is taken
    input  wire         s_rsp_alloc_valid,
    input  wire [PAY_SLOT_W-1:0] s_rsp_alloc_slot,
    output wire         m_rsp_take_valid,
    output reg          m_rsp_we,
    output wire [PAY_SLOT_W-1:0] m_rsp_wr_slot,
    output reg  [2:0]   m_rsp_wr_word,
    output wire [63:0]  m_rsp_wr_data,

    // answer to a blocking read, to the host port
    output reg          m_hrd_valid,
    output wire [15:0]  m_hrd_src,
    output wire [15:0]  m_hrd_tag,
    output wire [7:0]   m_hrd_status,
    output wire [63:0]  m_hrd_data,

    // queue table
    output wire [31:0]  q_lk_base,
    input  wire         q_lk_hit,
    input  wire [3:0]   q_lk_idx,
    input  wire [4:0]   q_lk_size_log2,
    input  wire [2:0]   q_lk_esize_log2,
    input  wire [23:0]  q_lk_tail,
    input  wire         q_lk_full,
    input  wire         q_lk_head_valid,  // a head read earlier: a bound on the current one
    input  wire [23:0]  q_lk_head,
    output reg          q_upd_tail_valid,
    output wire [3:0]   q_upd_idx,
    output wire [23:0]  q_upd_tail,
    output reg          q_upd_full_valid,
    output reg          q_upd_head_valid,
    output wire [23:0]  q_upd_head,

    // answer to one of our REQs, to the REQ sender
    output reg          m_qresp_valid,
    output wire [15:0]  m_qresp_src,
    output wire [15:0]  m_qresp_tag,
    output wire [7:0]   m_qresp_status,

    // fetch table
    output wire [3:0]   fetch_lookup_idx,
    input  wire         fetch_lookup_valid,
    input  wire [15:0]  fetch_lookup_node,
    input  wire [31:0]  fetch_lookup_laddr,
    input  wire [31:0]  fetch_lookup_cpl,
    input  wire [5:0]   fetch_lookup_off,   // ... the bytes it asked for: cnt from off
    input  wire [6:0]   fetch_lookup_cnt,
    output reg          fetch_free_valid,
    output wire [3:0]   fetch_free_idx,
    // a fetch whose answer is overdue: write its completion word (PEER_GONE)
    input  wire         s_fto_valid,
    output reg          s_fto_ready,
    input  wire [3:0]   s_fto_idx,

    // events
    output reg          ev_refused,
    output reg          ev_stray,
    output reg          ev_rx_done,
    output reg          ev_req_accepted,
    output reg          ev_req_refused,
    output reg          ev_enq_done,
    output reg          ev_atomic,
    output reg          ev_prot_refused
);

initial begin
    if (BLK_SRC_BITS < 1 || BLK_SRC_BITS > 8) begin
        $error("%m: BLK_SRC_BITS must be in 1..8");
    end
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
    if (SLOT_W < 1 || SLOT_W > 4) begin
        $error("%m: SLOT_W must be in 1..4");
    end
end

localparam BLK_ROWS = 1 << BLK_SRC_BITS;                        // block-table rows
localparam [BLK_SRC_BITS-1:0] BLK_ROW_1 = 1;                     // a row-number step

localparam [3:0] S_IDLE  = 4'd0,  // decode the frame on s_rxd
                 S_WRITE = 4'd1,  // issue masked word writes (remote write, fetch data, entry)
                 S_READ  = 4'd2,  // issue word reads for a read request
                 S_DRAIN = 4'd3,  // wait until every memory request is answered
                 S_RESP  = 4'd4,  // offer the response to the transmitter
                 S_CPL   = 4'd5,  // write a fetch's completion word
                 S_QHEAD = 4'd6,  // REQ: read the queue's head word
                 S_QCHK  = 4'd7,  // REQ: head known: full, or write the entry
                 S_QTAIL = 4'd8,  // REQ: entry written: write the new tail
                 S_AREAD = 4'd9,  // atomic: read the target word
                 S_AWAIT = 4'd10, // atomic: old value known: write the new one, or not (CAS)
                 S_AWRITE = 4'd11, // atomic: write the new value
                 S_QBLK  = 4'd12, // REQ: the source's block row is read: refuse, or go on
                 S_BCLR  = 4'd13; // after reset: clear the block table, one row a cycle

// what S_DRAIN does next
localparam [2:0] N_DONE = 3'd0, N_RESP = 3'd1, N_CPL = 3'd2, N_FREE = 3'd3,
                 N_QTAIL = 3'd4, N_QDONE = 3'd5, N_ARESP = 3'd6;

// ---------------------------------------------------------------- state
reg [3:0]   state_reg,  state_next;
reg [2:0]   after_reg,  after_next;      // next step once drained
reg [7:0]   rop_reg,    rop_next;        // opcode of the response
reg [3:0]   nw_reg,     nw_next;         // words to write or read
reg [3:0]   qidx_reg,   qidx_next;       // queue-table entry of a REQ
reg [23:0]  qnext_reg,  qnext_next;      // tail after this entry
// the REQ's queue as the table gave it when the REQ was decoded (the
// entry's fields, registered as the lookup selects them): the block-row
// state checks them and does the tail arithmetic, so that the table's
// lookup and that arithmetic never lie on one path.  The engine alone
// changes an entry that is in use; the driver rewrites one only while it
// is closed, and a REQ decoded in the cycle the driver reopens it is
// refused and sent again, as one decoded a cycle earlier would be
reg [23:0]  qtail_reg,  qtail_next;      // slot the entry goes to
reg [4:0]   qsl_reg,    qsl_next;        // log2 of the buffer's bytes
reg [2:0]   qesl_reg,   qesl_next;       // log2 of an entry's bytes
reg         qfull_reg,  qfull_next;      // the table holds the queue closed
reg         qhv_reg,    qhv_next;        // the table remembers a head ...
reg [23:0]  qhead_reg,  qhead_next;      // ... this one
reg [15:0]  brow_reg,   brow_next;       // block row of the REQ's source, as last written
reg [BLK_SRC_BITS-1:0] bclr_reg, bclr_next; // next row to clear after reset
reg [3:0]   fidx_reg,   fidx_next;       // fetch-table entry being completed
reg         fto_reg,    fto_next;        // ... because it is overdue (no frame to retire)
reg         wchk_reg,   wchk_next;       // first cycle of a remote write: its refusal byte is read
reg         wref_reg,   wref_next;       // ... and was not OK: the write is refused in the second
reg         fclr_reg,   fclr_next;       // a fence reported a kept refusal: clear it this cycle
`ifdef TG_TESTBUG_011
wire        wref = 1'b0;                 // deliberate bug: a kept refusal does not stop later writes
`else
wire        wref = wref_reg;
`endif
reg [3:0]   idx_reg,    idx_next;        // next word to issue
reg [3:0]   rcv_reg,    rcv_next;        // read data words received
reg [4:0]   pend_reg,   pend_next;       // memory requests not yet answered
reg [31:0]  base_reg,   base_next;       // memory address of word 0
reg [6:0]   wlo_reg,    wlo_next;        // the writes cover bytes wlo to whi - 1
reg [6:0]   whi_reg,    whi_next;        // (of the block at base_reg)
reg [7:0]   st_reg,     st_next;         // status to report
reg [63:0]  old_reg,    old_next;        // an atomic's old value
reg [PAY_SLOT_W-1:0] rslot_reg, rslot_next; // response-buffer slot of the response

wire [3:0]  words    = s_rxd_len[6:3];
wire [BLK_SRC_BITS-1:0] blk_src = s_rxd_src[BLK_SRC_BITS-1:0];  // block-table row of the source
// The bytes a frame's access touches end at end_addr: its length for a
// write or a read, the word an atomic works on, and for a REQ the queue's
// base (one byte), which must lie in the region. One adder and one
// compare with each bound serve every kind of frame.
wire        op_atomic = (s_rxd_op == `TG_OP_FAA) || (s_rxd_op == `TG_OP_SWAP) || (s_rxd_op == `TG_OP_CAS);
wire        op_req    = (s_rxd_op == `TG_OP_REQ);
wire [7:0]  acc_len   = op_atomic ? 8'd8 : op_req ? 8'd1 : s_rxd_len;
wire [32:0] end_addr  = {1'b0, s_rxd_addr} + {25'd0, acc_len};
wire        bad_range = (end_addr > {1'b0, cfg_mem_size});
// a write, read or REQ longer than this node's block is refused as
// MISALIGNED (a node built with a narrower block keeps fewer payload words)
localparam [31:0] BLK_BYTES = BLOCK_BYTES;
wire        too_long  = (s_rxd_len > BLK_BYTES[7:0]);
wire        bad_align = (s_rxd_addr[2:0] != 3'd0) || too_long;
wire        is_fetch  = (s_rxd_tag & `TG_TAG_FETCH) != 16'd0;

// ---------------------------------------------------------------- protection
// With protection on, a request must name a valid region with its exact
// key, the region must grant the access, and the bytes it touches must lie
// inside the region: else it is refused with a reason, before any memory
// access.  A REQ names the queue by its base, which must lie in the region.
function [7:0] prot_status;
    input [3:0]  right;
    input [32:0] last;       // first byte past the access
    begin
        if (!prot_hit) begin
            prot_status = `TG_ST_BAD_KEY;
        end else if ((prot_rights & right) == 4'd0) begin
            prot_status = `TG_ST_NO_RIGHT;
        end else if ((s_rxd_addr < prot_base) || (last > prot_end)) begin
            prot_status = `TG_ST_RANGE;
        end else begin
            prot_status = `TG_ST_OK;
        end
    end
endfunction
wire [3:0]  right_read   = `TG_RIGHT_READ;
wire [3:0]  right_write  = `TG_RIGHT_WRITE;
wire [3:0]  right_atomic = `TG_RIGHT_ATOMIC;
wire [3:0]  right_enq    = `TG_RIGHT_ENQ;
// the right the frame's kind of access needs (a frame of another kind
// than these four is not checked)
wire [3:0]  acc_right = op_atomic ? right_atomic : op_req ? right_enq :
                        (s_rxd_op == `TG_OP_WRITE) ? right_write : right_read;
wire [7:0]  pst       = cfg_prot_enable ? prot_status(acc_right, end_addr) : `TG_ST_OK;

// Refused writes are posted: nobody waits for an answer.  The reason is
// kept per (source, context) and returned by that context's next fence
// to this node (a zero-length read), which clears it.  While a reason is
// kept, every later write of that source and context is refused too, so
// nothing written after a refused write lands before the sender has
// heard of the refusal (a sender that checks the end of a long write
// first gets all of it or none).  One byte per context in a row per
// source (rows shared as in the block table), in a RAM read one cycle
// ahead like the block table and cleared with it after reset.
reg  [127:0] wst_mem [0:BLK_ROWS-1];
reg  [127:0] wst_rdata_reg;
reg          wst_we;
reg          wst_clr;              // write the whole row as zero
reg  [BLK_SRC_BITS-1:0] wst_waddr;
reg  [7:0]   wst_wdata;
wire [3:0]   wst_ctx  = s_rxd_ctx[3:0];
wire [7:0]   wst_cur  = wst_rdata_reg[wst_ctx*8 +: 8];
always @(posedge clk) begin
    if (wst_we) begin
        if (wst_clr) begin
            wst_mem[wst_waddr] <= 128'd0;
        end else begin
            wst_mem[wst_waddr][wst_ctx*8 +: 8] <= wst_wdata;
        end
    end
    wst_rdata_reg <= wst_mem[blk_src];
end

// The payload word a state uses, read from the payload buffer: word
// idx_reg while writing, the compare value (word 1) while an atomic waits
// for its old value, word 0 otherwise (an atomic's operand, a blocking
// read's answer). The buffer answers a cycle after it is asked, so it is
// asked for the word the next cycle uses, in the slot on offer next
// cycle: while writing, the next index; while an atomic reads or waits
// (word 1), word 0 in the cycle the wait ends (the write that follows
// takes the operand); else word 0, which is what the states that lead
// into writing, and a blocking read's answer, take first. Words past the
// frame's length read as zero; words past the block (a narrower node)
// are never stored, and a frame that would use them is refused as too
// long (a fetch's answer is cut to the bytes it asked for).
wire [3:0]  pay_word = (state_reg == S_WRITE) ? idx_reg : (state_reg == S_AWAIT) ? 4'd1 : 4'd0;
wire [63:0] pay_data = (pay_word < words) ? s_pay_rd_data : 64'd0;

// The write strobes of word i: its bytes from lo to hi - 1 (two compares
// a byte, no shifter).
function [7:0] run_byte;
    input [6:0] lo;
    input [6:0] hi;
    input [2:0] i;
    integer     k;
    begin
        for (k = 0; k < 8; k = k + 1) begin
            run_byte[k] = ({1'b0, i, k[2:0]} >= lo) && ({1'b0, i, k[2:0]} < hi);
        end
    end
endfunction

// the end of the frame's run of bytes, and of the fetch's request
wire [6:0] rx_run_end = {1'b0, s_rxd_off} + s_rxd_cnt;
wire [6:0] fl_run_end = {1'b0, fetch_lookup_off} + fetch_lookup_cnt;

// ---------------------------------------------------------------- atomic unit
// payload word 0 is the operand, word 1 the compare value; the old value
// is kept in old_reg, and written as the response's payload
wire [63:0] a_operand  = pay_data;   // (word 0, in S_AWRITE)
wire [63:0] a_compare  = pay_data;   // (word 1, in S_AWAIT)
wire [63:0] a_old      = old_reg;
wire        a_cas_miss = (s_rxd_op == `TG_OP_CAS) && (a_old != a_compare);
reg  [63:0] a_new;
always @* begin
    case (s_rxd_op)
        `TG_OP_FAA:  a_new = a_old + a_operand;
        default:     a_new = a_operand;            // SWAP, and CAS when it matches
    endcase
end

// ---------------------------------------------------------------- REQ decode
assign q_lk_base  = s_rxd_addr;
assign q_upd_idx  = qidx_reg;
assign q_upd_tail = qnext_reg;
assign q_upd_head = head_reg[23:0];
assign m_qresp_src    = s_rxd_src;
assign m_qresp_tag    = s_rxd_tag;
assign m_qresp_status = s_rxd_status;

wire        req_retry = (s_rxd_flags & `TG_FLAG_RETRY) != 8'd0;

// Block table: bit q of row s set means REQs from source s to queue-table
// entry q are refused until s sends one again with the retry flag, so a
// refused REQ is never overtaken by a later one to the same queue; other
// queues and sources are not held up.  One 16-bit row per source (sources
// that agree in their low BLK_SRC_BITS bits share one), in a
// RAM read one cycle ahead (its address is the source of the frame on
// offer) and written back whole.
reg  [15:0] blk_mem [0:BLK_ROWS-1];
reg  [15:0] blk_rdata_reg;
reg         blk_we;
reg  [BLK_SRC_BITS-1:0] blk_waddr;
reg  [15:0] blk_wdata;
always @(posedge clk) begin
    if (blk_we) begin
        blk_mem[blk_waddr] <= blk_wdata;
    end
    blk_rdata_reg <= blk_mem[blk_src];
end
wire [15:0] qbit      = 16'd1 << qidx_reg;                       // the REQ's queue in a block row
// the REQ's entry, from the registered fields of its queue
wire [6:0]  q_esize   = 7'd1 << qesl_reg;                        // entry bytes
wire [24:0] q_size    = 25'd1 << qsl_reg;                        // buffer bytes
wire [24:0] q_tail_end = {1'b0, qtail_reg} + {18'd0, q_esize};
wire        q_cfg_bad = (qsl_reg < 5'd`TG_Q_MIN_LOG2) || (qsl_reg > 5'd`TG_Q_MAX_LOG2) ||
                        (qesl_reg < 3'd3) || (qesl_reg > 3'd6) ||
                        (qtail_reg < 24'd`TG_Q_SLOTS) || (q_tail_end > q_size) ||
                        ((qtail_reg[5:0] & (q_esize[5:0] - 6'd1)) != 6'd0) ||
                        ((s_rxd_addr & ({7'd0, q_size} - 32'd1)) != 32'd0);
wire        q_len_bad = (s_rxd_len == 8'd0) || ({1'b0, s_rxd_len[6:0]} > {1'b0, q_esize}) ||
                        too_long;
// next tail: after this entry, wrapping to the first slot at the end
wire [23:0] q_next    = (q_tail_end >= q_size) ? 24'd`TG_Q_SLOTS : q_tail_end[23:0];
reg  [63:0] head_reg, head_next;                                 // the host's head word

// the fetch being completed: from the response's tag, or an overdue one
assign fetch_lookup_idx = (state_reg == S_IDLE) ? s_rxd_tag[3:0] : fidx_reg;
assign fetch_free_idx   = fidx_reg;

assign m_hrd_src    = s_rxd_src;
assign m_hrd_tag    = s_rxd_tag;
assign m_hrd_status = s_rxd_status;
assign m_hrd_data   = pay_data;     // (word 0, in S_IDLE)

assign st_idle       = (state_reg == S_IDLE);
assign prot_key      = s_rxd_key;
assign m_txd_valid   = (state_reg == S_RESP);
assign m_txd_op      = rop_reg;
assign m_txd_flags   = 8'd0;
assign m_txd_status  = st_reg;
assign m_txd_dst     = s_rxd_src;
assign m_txd_addr    = s_rxd_addr;
assign m_txd_off     = s_rxd_off;
assign m_txd_cnt     = s_rxd_cnt;
assign m_txd_len     = (st_reg != `TG_ST_OK)             ? 8'd0 :
                       (rop_reg == `TG_OP_READ_RESP)    ? s_rxd_len :
                       (rop_reg == `TG_OP_ATOMIC_RESP)  ? 8'd8 : 8'd0;
assign m_txd_ctx     = s_rxd_ctx;
assign m_txd_tag     = s_rxd_tag;
assign m_txd_pay_src  = (m_txd_len != 8'd0) ? `TG_PAY_RSP : `TG_PAY_NONE;
assign m_txd_pay_slot = rslot_reg;
assign m_rsp_take_valid = m_txd_valid && m_txd_ready && (m_txd_len != 8'd0);
assign m_rsp_wr_slot  = rslot_reg;
assign m_rsp_wr_data  = s_mem_resp_rdata;

// REQ: room in the buffer: write the entry at the tail, then the tail.
task start_entry;
    begin
`ifdef TG_TESTBUG_004
        base_next  = s_rxd_addr | {8'd0, q_next};      // deliberate bug: the entry goes to the slot after the tail
`else
        base_next  = s_rxd_addr | {8'd0, qtail_reg};
`endif
        wlo_next   = 7'd0;
        whi_next   = q_esize;
        nw_next    = q_esize[6:3];
        idx_next   = 4'd0;
        after_next = N_QTAIL;
        state_next = S_WRITE;
    end
endtask

// the frame on offer may answer with a payload
wire rsp_needs_slot = (s_rxd_op == `TG_OP_READ_REQ) || (s_rxd_op == `TG_OP_FAA) ||
                      (s_rxd_op == `TG_OP_SWAP) || (s_rxd_op == `TG_OP_CAS);

always @* begin
    state_next = state_reg;
    after_next = after_reg;
    idx_next   = idx_reg;
    rcv_next   = rcv_reg;
    pend_next  = pend_reg;
    base_next  = base_reg;
    wlo_next   = wlo_reg;
    whi_next   = whi_reg;
    st_next    = st_reg;
    old_next   = old_reg;
    rslot_next = rslot_reg;
    m_rsp_we      = 1'b0;
    m_rsp_wr_word = rcv_reg[2:0];
    rop_next   = rop_reg;
    nw_next    = nw_reg;
    qidx_next  = qidx_reg;
    qnext_next = qnext_reg;
    qtail_next  = qtail_reg;
    qsl_next    = qsl_reg;
    qesl_next   = qesl_reg;
    qfull_next  = qfull_reg;
    qhv_next    = qhv_reg;
    qhead_next  = qhead_reg;
    brow_next  = brow_reg;
    bclr_next  = bclr_reg;
    blk_we     = 1'b0;
    blk_waddr  = blk_src;
    blk_wdata  = brow_reg;
    head_next  = head_reg;
    fidx_next  = fidx_reg;
    fto_next   = fto_reg;
    wchk_next  = 1'b0;
    wref_next  = 1'b0;
    s_fto_ready = 1'b0;

    s_rxd_ready      = 1'b0;
    m_mem_req_valid  = 1'b0;
    m_mem_req_write  = 1'b0;
    m_mem_req_addr   = base_reg + {25'd0, idx_reg, 3'd0};
    // words past the frame's payload (a short REQ entry) are written as zero
    m_mem_req_wdata  = pay_data;
    m_mem_req_wstrb  = run_byte(wlo_reg, whi_reg, idx_reg[2:0]);
    m_hrd_valid      = 1'b0;
    fetch_free_valid = 1'b0;
    ev_refused       = 1'b0;
    ev_stray         = 1'b0;
    ev_rx_done       = 1'b0;
    ev_req_accepted  = 1'b0;
    ev_req_refused   = 1'b0;
    ev_enq_done      = 1'b0;
    ev_atomic        = 1'b0;
    ev_prot_refused  = 1'b0;
    // the kept refusal a fence reported last cycle (it is still on offer)
    wst_we           = fclr_reg;
    wst_clr          = 1'b0;
    wst_waddr        = blk_src;
    wst_wdata        = `TG_ST_OK;
    fclr_next        = 1'b0;
    q_upd_tail_valid = 1'b0;
    q_upd_full_valid = 1'b0;
    q_upd_head_valid = 1'b0;
    m_qresp_valid    = 1'b0;

    // memory answers: count them, keep read data in order
    if (s_mem_resp_valid) begin
        if (state_reg == S_READ || (state_reg == S_DRAIN && after_reg == N_RESP)) begin
            m_rsp_we = 1'b1;
            rcv_next = rcv_reg + 4'd1;
        end
        if (state_reg == S_QCHK) begin
            head_next = s_mem_resp_rdata;
        end
        if (state_reg == S_AREAD || state_reg == S_AWAIT) begin
            old_next      = s_mem_resp_rdata;
            m_rsp_we      = 1'b1;
            m_rsp_wr_word = 3'd0;
        end
    end

    case (state_reg)
        S_IDLE: begin
            idx_next   = 4'd0;
            rcv_next   = 4'd0;
            rslot_next = s_rsp_alloc_slot;
            st_next    = `TG_ST_OK;
            rop_next   = `TG_OP_READ_RESP;
            nw_next    = words;
            fidx_next  = s_rxd_tag[3:0];
            fto_next   = 1'b0;
            if (s_fto_valid) begin
                // an overdue fetch first: report PEER_GONE in its
                // completion word; a late answer will find no entry
                s_fto_ready = 1'b1;
                fidx_next   = s_fto_idx;
                fto_next    = 1'b1;
                st_next     = `TG_ST_PEER_GONE;
                state_next  = S_CPL;
            end else if (s_rxd_valid && (s_rsp_alloc_valid || !rsp_needs_slot)) begin
                // (a read or atomic waits for a response-buffer slot)
                case (s_rxd_op)
                    `TG_OP_WRITE: begin
                        if (bad_align || bad_range) begin
                            ev_refused  = 1'b1;
                            s_rxd_ready = 1'b1;
                            wst_we      = 1'b1;
                            wst_wdata   = bad_align ? `TG_ST_MISALIGNED : `TG_ST_RANGE;
                        end else if (pst != `TG_ST_OK) begin
                            ev_refused      = 1'b1;
                            ev_prot_refused = 1'b1;
                            s_rxd_ready     = 1'b1;
                            wst_we          = 1'b1;
                            wst_wdata       = pst;
                        end else begin
                            base_next  = s_rxd_addr;
                            wlo_next   = {1'b0, s_rxd_off};
                            whi_next   = rx_run_end;
                            after_next = N_DONE;
                            wchk_next  = 1'b1;
                            state_next = S_WRITE;
                        end
                    end
                    `TG_OP_READ_REQ: begin
                        base_next = s_rxd_addr;
                        if (bad_align) begin
                            st_next    = `TG_ST_MISALIGNED;
                            ev_refused = 1'b1;
                            state_next = S_RESP;
                        end else if (bad_range && words != 4'd0) begin
                            st_next    = `TG_ST_RANGE;
                            ev_refused = 1'b1;
                            state_next = S_RESP;
                        end else if (pst != `TG_ST_OK && words != 4'd0) begin
                            st_next         = pst;
                            ev_refused      = 1'b1;
                            ev_prot_refused = 1'b1;
                            state_next      = S_RESP;
                        end else begin
                            // a zero-length read is a fence: earlier frames
                            // from this source are already complete
                            state_next = S_READ;
                        end
                    end
                    `TG_OP_REQ: begin
                        rop_next  = `TG_OP_REQ_RESP;
                        qidx_next   = q_lk_idx;
                        qtail_next  = q_lk_tail;
                        qsl_next    = q_lk_size_log2;
                        qesl_next   = q_lk_esize_log2;
                        qfull_next  = q_lk_full;
                        qhv_next    = q_lk_head_valid;
                        qhead_next  = q_lk_head;
                        if (pst != `TG_ST_OK) begin
                            st_next         = pst;
                            ev_req_refused  = 1'b1;
                            ev_prot_refused = 1'b1;
                            state_next      = S_RESP;
                        end else if (!q_lk_hit) begin
                            st_next        = `TG_ST_NO_QUEUE;
                            ev_req_refused = 1'b1;
                            state_next     = S_RESP;
                        end else begin
                            // the source's block row is read this cycle
                            state_next = S_QBLK;
                        end
                    end
                    `TG_OP_REQ_RESP: begin
                        m_qresp_valid = 1'b1;
                        s_rxd_ready   = 1'b1;
                    end
                    `TG_OP_FAA, `TG_OP_SWAP, `TG_OP_CAS: begin
                        rop_next  = `TG_OP_ATOMIC_RESP;
                        base_next = s_rxd_addr;
                        if (s_rxd_len != 8'd`TG_ATOMIC_LEN) begin
                            st_next    = `TG_ST_MALFORMED;
                            ev_refused = 1'b1;
                            state_next = S_RESP;
                        end else if (bad_align) begin
                            st_next    = `TG_ST_MISALIGNED;
                            ev_refused = 1'b1;
                            state_next = S_RESP;
                        end else if (bad_range) begin
                            st_next    = `TG_ST_RANGE;
                            ev_refused = 1'b1;
                            state_next = S_RESP;
                        end else if (pst != `TG_ST_OK) begin
                            st_next         = pst;
                            ev_refused      = 1'b1;
                            ev_prot_refused = 1'b1;
                            state_next      = S_RESP;
                        end else begin
                            state_next = S_AREAD;
                        end
                    end
                    default: begin // READ_RESP, ATOMIC_RESP: the parser lets no other opcode through
                        if (!is_fetch) begin
                            m_hrd_valid = 1'b1;
                            s_rxd_ready = 1'b1;
                        end else if (!fetch_lookup_valid || fetch_lookup_node != s_rxd_src) begin
                            ev_stray    = 1'b1;
                            s_rxd_ready = 1'b1;
                        end else begin
                            base_next  = fetch_lookup_laddr;
                            // the bytes both the answer and the request cover
                            wlo_next   = ({1'b0, s_rxd_off} > {1'b0, fetch_lookup_off}) ?
                                         {1'b0, s_rxd_off} : {1'b0, fetch_lookup_off};
                            whi_next   = (rx_run_end < fl_run_end) ? rx_run_end : fl_run_end;
                            st_next    = s_rxd_status;
                            if (s_rxd_status == `TG_ST_OK) begin
                                after_next = N_CPL;
                                state_next = S_WRITE;
                            end else begin
                                state_next = S_CPL;
                            end
                        end
                    end
                endcase
            end
        end

        S_WRITE: begin
            if (wchk_reg) begin
                // the refusal byte arrives from its RAM: compared this
                // cycle, acted on in the next (no request depends on the
                // RAM's output in the cycle it comes out)
                wref_next = wst_cur != `TG_ST_OK;
            end else if (wref) begin
                // an earlier write of this source and context was refused
                // and no fence has reported it yet: refuse this one too
                ev_refused  = 1'b1;
                s_rxd_ready = 1'b1;
                state_next  = S_IDLE;
            end else if (idx_reg >= nw_reg) begin
`ifdef TG_TESTBUG_003
                state_next = (after_reg == N_QTAIL) ? S_QTAIL : S_DRAIN;   // deliberate bug: tail before the entry is answered
`else
                state_next = S_DRAIN;
`endif
            end else if (run_byte(wlo_reg, whi_reg, idx_reg[2:0]) == 8'd0) begin
                idx_next = idx_reg + 4'd1;            // nothing to write in this word
            end else begin
                m_mem_req_valid = 1'b1;
                m_mem_req_write = 1'b1;
                if (m_mem_req_ready) begin
                    idx_next = idx_reg + 4'd1;
                end
            end
        end

        S_READ: begin
            if (nw_reg == 4'd0 && idx_reg == 4'd0 && wst_cur != `TG_ST_OK) begin
                // a fence answers with the reason a posted write of this
                // source and context was refused since the last fence,
                // and clears it in the next cycle (the byte comes out of
                // its RAM late in this one)
                st_next    = wst_cur;
                fclr_next  = 1'b1;
            end
            if (idx_reg >= nw_reg) begin
                after_next = N_RESP;
                state_next = S_DRAIN;
            end else begin
                m_mem_req_valid = 1'b1;
                m_mem_req_write = 1'b0;
                if (m_mem_req_ready) begin
                    idx_next = idx_reg + 4'd1;
                end
            end
        end

        S_DRAIN: begin
            if (pend_reg == 5'd0) begin
                case (after_reg)
                    N_RESP: state_next = S_RESP;
                    N_CPL:  state_next = S_CPL;
                    N_FREE: begin
                        fetch_free_valid = 1'b1;
                        s_rxd_ready      = !fto_reg;
                        state_next       = S_IDLE;
                    end
                    N_QTAIL: state_next = S_QTAIL;
                    N_ARESP: state_next = S_RESP;
                    N_QDONE: begin
                        // entry and tail are in memory: the REQ is done
                        q_upd_tail_valid = 1'b1;
                        ev_req_accepted  = 1'b1;
                        ev_enq_done      = 1'b1;
                        st_next          = `TG_ST_OK;
                        state_next       = S_RESP;
                    end
                    default: begin
                        ev_rx_done  = 1'b1;
                        s_rxd_ready = 1'b1;
                        state_next  = S_IDLE;
                    end
                endcase
            end
        end

        S_RESP: begin
            if (m_txd_ready) begin
                s_rxd_ready = 1'b1;
                state_next  = S_IDLE;
            end
        end

        S_CPL: begin
            // the data writes are complete (drained): publish the completion
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b1;
            m_mem_req_addr  = fetch_lookup_cpl;
            m_mem_req_wdata = {48'd0, st_reg, 8'd0} | `TG_FETCH_CPL_DONE;
            m_mem_req_wstrb = 8'hFF;
            if (m_mem_req_ready) begin
                after_next = N_FREE;
                state_next = S_DRAIN;
            end
        end

        S_QBLK: begin : qblk
            // a retry reopens the queue for this source; a refusal closes
            // it again, so the source's later REQs to it cannot overtake
            reg [15:0] row;
            qnext_next = q_next;
            row = req_retry ? (blk_rdata_reg & ~qbit) : blk_rdata_reg;
            if (((blk_rdata_reg & qbit) != 16'd0 && !req_retry) || qfull_reg) begin
                row            = row | qbit;
                st_next        = `TG_ST_NOT_READY;
                ev_req_refused = 1'b1;
`ifdef TG_TESTBUG_005
                state_next     = S_QHEAD;             // deliberate bug: a refused REQ goes on
`else
                state_next     = S_RESP;
`endif
            end else if (q_cfg_bad || q_len_bad) begin
                st_next        = `TG_ST_MALFORMED;
                ev_req_refused = 1'b1;
                state_next     = S_RESP;
`ifdef TG_TESTBUG_002
            end else if (qhv_reg && q_next == qhead_reg) begin   // deliberate bug: writes when it looks full
`else
            end else if (qhv_reg && q_next != qhead_reg) begin
`endif
                // the head read last time shows room: no need to read it
                start_entry;
            end else begin
                state_next = S_QHEAD;
            end
            brow_next = row;
            blk_we    = 1'b1;
            blk_wdata = row;
        end

        S_BCLR: begin
            blk_we    = 1'b1;
            blk_waddr = bclr_reg;
            wst_we    = 1'b1;
            wst_clr   = 1'b1;
            wst_waddr = bclr_reg;
            blk_wdata = 16'd0;
            bclr_next = bclr_reg + BLK_ROW_1;
            if (&bclr_reg) begin                  // the last row
                state_next = S_IDLE;
            end
        end

        S_QHEAD: begin
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b0;
            m_mem_req_addr  = s_rxd_addr | `TG_Q_HEAD;
            if (m_mem_req_ready) begin
                state_next = S_QCHK;
            end
        end

        S_QCHK: begin
            // head_reg holds the head once the read is answered
            if (pend_reg == 5'd0) begin
                q_upd_head_valid = (head_reg[63:24] == 40'd0);   // remember a sane head
                if ({40'd0, qnext_reg} == head_reg) begin
                    // no room: write nothing, stop the queue, interrupt
                    q_upd_full_valid = 1'b1;
                    brow_next        = brow_reg | qbit;
                    blk_we           = 1'b1;
                    blk_wdata        = brow_reg | qbit;
                    ev_req_refused   = 1'b1;
                    st_next          = `TG_ST_NOT_READY;
                    state_next       = S_RESP;
                end else begin
                    start_entry;
                end
            end
        end

        S_QTAIL: begin
            // the entry's writes are all answered: publish the new tail
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b1;
            m_mem_req_addr  = s_rxd_addr | `TG_Q_TAIL;
            m_mem_req_wdata = {40'd0, qnext_reg};
            m_mem_req_wstrb = 8'hFF;
            if (m_mem_req_ready) begin
                after_next = N_QDONE;
                state_next = S_DRAIN;
            end
        end

        S_AREAD: begin
            // the only memory request in flight from here to the response
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b0;
            m_mem_req_addr  = base_reg;
            if (m_mem_req_ready) begin
                state_next = S_AWAIT;
            end
        end

        S_AWAIT: begin
            // rdata_reg holds the old value once the read is answered
`ifdef TG_TESTBUG_006
            if (1'b1) begin                       // deliberate bug: does not wait for the read
`else
            if (pend_reg == 5'd0) begin
`endif
                ev_atomic = 1'b1;
                if (a_cas_miss) begin
                    state_next = S_RESP;          // compare failed: write nothing
                end else begin
                    state_next = S_AWRITE;
                end
            end
        end

        S_AWRITE: begin
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b1;
            m_mem_req_addr  = base_reg;
            m_mem_req_wdata = a_new;
            m_mem_req_wstrb = 8'hFF;
            if (m_mem_req_ready) begin
                // answer once the new value is in memory
                after_next = N_ARESP;
                state_next = S_DRAIN;
            end
        end

        default: state_next = S_IDLE;
    endcase

    // requests issued this cycle minus answers received
    pend_next = pend_reg + {4'd0, m_mem_req_valid && m_mem_req_ready} - {4'd0, s_mem_resp_valid};
end

/* verilator lint_off UNUSEDSIGNAL */ // [3]: an index past the last word is not read
wire       wr_step       = !wchk_reg && !wref && (idx_reg < nw_reg) &&
                           (run_byte(wlo_reg, whi_reg, idx_reg[2:0]) == 8'd0 || m_mem_req_ready);
wire [3:0] pay_word_next = (state_reg == S_WRITE) ? idx_reg + {3'd0, wr_step} :
                           (state_reg == S_AREAD || (state_reg == S_AWAIT && pend_reg != 5'd0)) ? 4'd1 : 4'd0;
/* verilator lint_on UNUSEDSIGNAL */
assign m_pay_rd_slot = s_rxd_slot_next;
assign m_pay_rd_word = pay_word_next[2:0];

// ---------------------------------------------------------------- registers
always @(posedge clk) begin
    state_reg <= state_next;
    after_reg <= after_next;
    idx_reg   <= idx_next;
    rcv_reg   <= rcv_next;
    pend_reg  <= pend_next;
    base_reg  <= base_next;
    wlo_reg   <= wlo_next;
    whi_reg   <= whi_next;
    st_reg    <= st_next;
    old_reg   <= old_next;
    rslot_reg <= rslot_next;
    rop_reg   <= rop_next;
    nw_reg    <= nw_next;
    qidx_reg  <= qidx_next;
    qnext_reg <= qnext_next;
    qtail_reg  <= qtail_next;
    qsl_reg    <= qsl_next;
    qesl_reg   <= qesl_next;
    qfull_reg  <= qfull_next;
    qhv_reg    <= qhv_next;
    qhead_reg  <= qhead_next;
    brow_reg  <= brow_next;
    bclr_reg  <= bclr_next;
    head_reg  <= head_next;
    fidx_reg  <= fidx_next;
    fto_reg   <= fto_next;
    wchk_reg  <= wchk_next;
    wref_reg  <= wref_next;
    fclr_reg  <= fclr_next;
    if (rst) begin
        state_reg <= S_BCLR;
        after_reg <= N_DONE;
        pend_reg  <= 5'd0;
        bclr_reg  <= {BLK_SRC_BITS{1'b0}};
        wchk_reg  <= 1'b0;
        wref_reg  <= 1'b0;
        fclr_reg  <= 1'b0;
    end
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// Environment (assume) and contract (assert) of the enqueue FSM and the
// atomic unit.  The queue the frame on offer addresses is the tracked one;
// f_head is its consumer's head, chosen freely by the solver, and f_word
// is one word of memory, chosen freely and then fixed.
reg f_past_valid = 1'b0;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
end

wire f_fire      = m_mem_req_valid && m_mem_req_ready;   // a memory request accepted
wire f_retire    = s_rxd_valid && s_rxd_ready;           // the frame on offer is consumed
wire f_decode    = (state_reg == S_IDLE) && !s_fto_valid && s_rxd_valid;
wire f_op_atomic = (s_rxd_op == `TG_OP_FAA) || (s_rxd_op == `TG_OP_SWAP) || (s_rxd_op == `TG_OP_CAS);
wire f_q_state   = (state_reg == S_QBLK) || (state_reg == S_QHEAD) || (state_reg == S_QCHK);

// memory requests accepted and not yet answered
reg [4:0] f_out = 5'd0;
always @(posedge clk) begin
    f_out <= f_out + {4'd0, f_fire} - {4'd0, s_mem_resp_valid};
    if (rst) begin
        f_out <= 5'd0;
    end
end

// the REQ being executed: the table's view of its queue at decode, and
// what the engine has done for it so far
(* anyseq *) reg [23:0] f_head;
(* anyconst *) reg [28:0] f_word;
reg        f_in_req = 1'b0;     // the frame in execution is a REQ
reg        f_in_atomic = 1'b0;  // ... an atomic
reg [23:0] f_tail;              // slot the entry goes to
reg [2:0]  f_esl;               // log2 entry bytes
reg [4:0]  f_sl;                // log2 buffer bytes
reg        f_closed;            // the table had the queue closed (full)
reg [3:0]  f_slots;             // entry words written
reg [3:0]  f_writes;            // memory writes of any kind
reg [1:0]  f_tails;             // tail writes
reg [1:0]  f_acc;               // acceptances reported
reg        f_refused;           // a refusal reported
reg        f_aopen = 1'b0;      // the atomic's read of f_word issued, its write not yet
reg [1:0]  f_areads;            // reads issued by the atomic

wire [6:0]  f_esize = 7'd1 << f_esl;
wire [24:0] f_size  = 25'd1 << f_sl;
wire [24:0] f_end   = {1'b0, f_tail} + {18'd0, f_esize};
wire [23:0] f_next  = (f_end == f_size) ? 24'd`TG_Q_SLOTS : f_end[23:0];   // tail after the entry
wire [3:0]  f_words = f_esize[6:3];                                        // words of an entry
wire        f_tail_wr = m_mem_req_write && (m_mem_req_addr == (s_rxd_addr | `TG_Q_TAIL));

always @(posedge clk) begin
    if (state_reg == S_IDLE) begin
        f_in_req    <= f_decode && (s_rxd_op == `TG_OP_REQ);
        f_in_atomic <= f_decode && f_op_atomic;
        f_tail   <= q_lk_tail;
        f_esl    <= q_lk_esize_log2;
        f_sl     <= q_lk_size_log2;
        f_closed <= q_lk_full;
        f_slots  <= 4'd0;
        f_writes <= 4'd0;
        f_tails  <= 2'd0;
        f_acc    <= 2'd0;
        f_refused <= 1'b0;
        f_areads <= 2'd0;
    end else begin
        if (f_fire && m_mem_req_write) begin
            f_writes <= f_writes + 4'd1;
            if (f_tail_wr) begin
                f_tails <= f_tails + 2'd1;
            end else begin
                f_slots <= f_slots + 4'd1;
            end
        end
        if (f_fire && !m_mem_req_write && f_in_atomic) begin
            f_areads <= f_areads + 2'd1;
        end
        f_acc <= f_acc + {1'b0, ev_req_accepted};
    end
    if (ev_req_refused) begin
        f_refused <= 1'b1;
    end
    if (f_fire && m_mem_req_addr[31:3] == f_word) begin
        f_aopen <= f_in_atomic && !m_mem_req_write && f_areads == 2'd0;
    end
    if (f_retire) begin
        f_aopen <= 1'b0;
    end
    if (rst) begin
        f_in_req    <= 1'b0;
        f_in_atomic <= 1'b0;
        f_aopen     <= 1'b0;
    end
end

// the remote write being executed, and whether a refusal of its source
// and context was kept when it was decoded
reg          f_in_write = 1'b0;
reg          f_held;
wire [127:0] f_wst_row = wst_mem[blk_src];
always @(posedge clk) begin
    if (state_reg == S_IDLE) begin
        f_in_write <= f_decode && (s_rxd_op == `TG_OP_WRITE);
        f_held     <= (f_wst_row[wst_ctx*8 +: 8] != `TG_ST_OK);
    end
    if (rst) begin
        f_in_write <= 1'b0;
    end
end

// the head f_head lies on the circle of slots from a to b (both included)
function f_between;
    input [23:0] a, b, h;
    begin
        f_between = (a <= b) ? (a <= h && h <= b) : (a <= h || h <= b);
    end
endfunction
// a slot offset of the queue the table describes: in the slot area, entry-aligned
wire [6:0]  f_lk_esize = 7'd1 << q_lk_esize_log2;
wire [24:0] f_lk_size  = 25'd1 << q_lk_size_log2;
function f_slot_ok;
    input [23:0] o;
    begin
        f_slot_ok = (o >= 24'd`TG_Q_SLOTS) && ({1'b0, o} < f_lk_size) &&
                    ((o & ({17'd0, f_lk_esize} - 24'd1)) == 24'd0);
    end
endfunction

always @* begin
    // A1: the first cycle is a reset
    if (!f_past_valid) begin
        assume(rst);
    end
    // A2: memory answers only requests it has accepted, one answer each,
    // in order, at least a cycle later
    if (f_out == 5'd0) begin
        assume(!s_mem_resp_valid);
    end
    // A3: the answer to the head read is the consumer's head; the host
    // stores only slot offsets in the head word
    if (state_reg == S_QCHK && s_mem_resp_valid) begin
        assume(s_mem_resp_rdata == {40'd0, f_head});
    end
    if (f_in_req && f_q_state) begin
        assume(f_slot_ok(f_head));
        // A4: the head the table remembers is one the consumer had: the
        // consumer moves the head only forward, towards the tail
        if (q_lk_head_valid) begin
            assume(f_slot_ok(q_lk_head));
            assume(f_between(q_lk_head, q_lk_tail, f_head));
        end
    end
end

// last cycle's inputs, for the assumptions that relate two cycles (kept
// combinational so that they constrain the last step of a trace too)
reg         fp_ok = 1'b0;      // the last cycle was not a reset cycle
reg         fp_hold;           // a frame was on offer and not consumed
reg         fp_upd;            // the engine updated the queue table
reg         fp_busy;           // the engine was not idle
reg [7:0]   fp_op, fp_flags, fp_status, fp_len, fp_ctx;
reg [15:0]  fp_src, fp_tag;
reg [31:0]  fp_addr;
reg [5:0]   fp_off;
reg [6:0]   fp_cnt;
reg         fp_hit, fp_full, fp_hv;
reg [3:0]   fp_idx;
reg [4:0]   fp_sl;
reg [2:0]   fp_esl;
reg [23:0]  fp_tail, fp_lkhead, fp_head;
always @(posedge clk) begin
    fp_ok      <= !rst;
    fp_hold    <= s_rxd_valid && !s_rxd_ready;
    fp_upd     <= q_upd_tail_valid || q_upd_full_valid || q_upd_head_valid;
    fp_busy    <= state_reg != S_IDLE;
    fp_op      <= s_rxd_op;
    fp_flags   <= s_rxd_flags;
    fp_status  <= s_rxd_status;
    fp_len     <= s_rxd_len;
    fp_ctx     <= s_rxd_ctx;
    fp_src     <= s_rxd_src;
    fp_tag     <= s_rxd_tag;
    fp_addr    <= s_rxd_addr;
    fp_off     <= s_rxd_off;
    fp_cnt     <= s_rxd_cnt;
    fp_hit     <= q_lk_hit;
    fp_full    <= q_lk_full;
    fp_hv      <= q_lk_head_valid;
    fp_idx     <= q_lk_idx;
    fp_sl      <= q_lk_size_log2;
    fp_esl     <= q_lk_esize_log2;
    fp_tail    <= q_lk_tail;
    fp_lkhead  <= q_lk_head;
    fp_head    <= f_head;
end

always @* begin
    if (fp_ok && !rst) begin
        // A5: a frame on offer stays, unchanged, until it is consumed
        if (fp_hold) begin
            assume(s_rxd_valid);
            assume(s_rxd_op == fp_op && s_rxd_flags == fp_flags && s_rxd_status == fp_status &&
                   s_rxd_src == fp_src && s_rxd_addr == fp_addr &&
                   s_rxd_off == fp_off && s_rxd_cnt == fp_cnt && s_rxd_len == fp_len && s_rxd_ctx == fp_ctx &&
                   s_rxd_tag == fp_tag);
            // (the payload is left free: no property depends on its value)
        end
        // A6: the table's entry for the frame's queue changes only by the
        // engine's own updates while the frame is on offer (the driver does
        // not rewrite a queue that is being enqueued to)
        if (fp_hold && !fp_upd) begin
            assume(q_lk_hit == fp_hit && q_lk_idx == fp_idx && q_lk_size_log2 == fp_sl &&
                   q_lk_esize_log2 == fp_esl && q_lk_tail == fp_tail && q_lk_full == fp_full &&
                   q_lk_head_valid == fp_hv && q_lk_head == fp_lkhead);
        end
        // A7: the consumer's head holds still while the engine decides and
        // writes (a consumer that moves it only makes room)
        if (fp_busy) begin
            assume(f_head == fp_head);
        end
    end
end

always @* begin
    if (f_past_valid && !rst && f_in_req && f_fire && m_mem_req_write) begin
        if (f_tail_wr) begin
            // P3: the tail write follows the whole entry, answered by memory
            assert(f_out == 5'd0);
            assert(f_slots == f_words);
            // P2: the tail moves by one entry and never onto the head
            assert(m_mem_req_wdata == {40'd0, f_next});
            assert(f_next != f_head);
            assert(f_tails == 2'd0);
        end else begin
            // P1: no slot is written while the buffer is full
            assert(!f_closed && f_next != f_head);
            // P4: the entry's words, in order, at the tail slot, once
            assert(f_tails == 2'd0 && f_slots < f_words);
            assert(m_mem_req_addr == (s_rxd_addr | {8'd0, f_tail}) + {25'd0, f_slots, 3'd0});
        end
        // P5: a refused REQ writes nothing
        assert(!f_refused);
    end
    if (f_past_valid && !rst && f_in_req && f_retire) begin
        if (st_reg == `TG_ST_OK) begin
            // P4: an accepted REQ wrote one entry and one tail
            assert(f_slots == f_words && f_tails == 2'd1 && f_acc == 2'd1 && !f_refused);
        end else begin
            // P5: a refused one wrote nothing
            assert(f_writes == 4'd0 && f_acc == 2'd0);
        end
    end
    // P7: a remote write decoded while a refusal of its source and
    // context is kept (no fence has reported it) reaches no memory
    if (f_past_valid && !rst && f_in_write && f_held) begin
        assert(!f_fire);
    end
    // P6: between the atomic's read of a word and its write, nothing else
    // reaches that word, and the write waits for the read's answer
    if (f_past_valid && !rst && f_aopen && f_fire && m_mem_req_addr[31:3] == f_word) begin
        assert(m_mem_req_write && f_out == 5'd0);
    end
end
`endif

endmodule

`default_nettype wire
