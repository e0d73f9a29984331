// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Byte-serial receive engine: executes the frames tg_eth_rx8 accepted,
// reading their fields and payload a byte at a time from its slot, and
// builds each response a byte at a time in tg_eth_tx8's free slot. What
// it does with a frame is what tg_rx_engine does: writes under the byte
// mask, read requests and fences, atomics, read and atomic responses (to
// the host port, or into local memory for a fetch), remote enqueues with
// the block table, and the protection and refusal rules; only the order
// of its memory requests in time differs (one read in flight at a time).
`default_nettype none
`include "tg_hw_defs.vh"

module tg_rx_engine8 #(
    parameter BLK_SRC_BITS = 8,  // low bits of the source node that select a block-table row (1..8)
    parameter BLOCK_BYTES  = 64, // largest payload this node takes or sends: 16, 32 or 64 bytes
    parameter ONE_ENTRY    = 0   // 1: the queue, region and fetch tables have one entry each, so their
                                 // answers are registers already and stage 1 does not copy them
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [15:0]  cfg_node_id,
    input  wire [31:0]  cfg_mem_size,

    // accepted frames (tg_eth_rx8): a frame's slot is freed with ready
    input  wire         s_frm_valid,
    output reg          s_frm_ready,
    input  wire [1:0]   s_frm_slot,
    output wire [8:0]   m_frm_rd_addr,     // slot byte read ...
    input  wire [7:0]   s_frm_rd_data,     // ... its value a cycle later

    // response frames (tg_eth_tx8's writer): bytes 14 on of the free slot,
    // then the hand-over; a frame is begun only while a slot is free
    output reg          m_wr_en,
    output reg  [6:0]   m_wr_off,
    output reg  [7:0]   m_wr_data,
    output reg          m_tfrm_valid,
    input  wire         m_tfrm_ready,
    output wire [3:0]   m_tfrm_words,

    // protection: the region the frame's key names (tg_prot, combinational)
    input  wire         cfg_prot_enable,
    output wire [63:0]  prot_key,
    input  wire         prot_hit,
    input  wire [31:0]  prot_base,
    input  wire [32:0]  prot_end,
    input  wire [3:0]   prot_rights,
    output wire         st_idle,           // between requests

    // memory master
    output reg          m_mem_req_valid,
    input  wire         m_mem_req_ready,
    output reg          m_mem_req_write,
    output reg  [31:0]  m_mem_req_addr,
    output reg  [63:0]  m_mem_req_wdata,
    output reg  [7:0]   m_mem_req_wstrb,
    input  wire         s_mem_resp_valid,
    input  wire [63:0]  s_mem_resp_rdata,

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
    input  wire         q_lk_head_valid,
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
    /* verilator lint_off UNUSEDSIGNAL */ // bits past the block are not used
    input  wire [63:0]  fetch_lookup_mask,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg          fetch_free_valid,
    output wire [3:0]   fetch_free_idx,
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
end

localparam BLK_ROWS = 1 << BLK_SRC_BITS;
localparam MB = BLOCK_BYTES;                 // mask bits kept: one per payload byte of a block

// slot offsets of the fields (frame byte n is slot byte n)
localparam [6:0] H        = `TG_HDR_OFF;
localparam [6:0] O_VER    = H + `TG_H_VER;
localparam [6:0] O_OP     = H + `TG_H_OP;
localparam [6:0] O_FLAGS  = H + `TG_H_FLAGS;
localparam [6:0] O_STATUS = H + `TG_H_STATUS;
localparam [6:0] O_SRC    = H + `TG_H_SRC;
localparam [6:0] O_DST    = H + `TG_H_DST;
localparam [6:0] O_KEY    = H + `TG_H_KEY;
localparam [6:0] O_ADDR   = H + `TG_H_ADDR;
localparam [6:0] O_MASK   = H + `TG_H_MASK;
localparam [6:0] O_LEN    = H + `TG_H_LEN;
localparam [6:0] O_CTX    = H + `TG_H_CTX;
localparam [6:0] O_TAG    = H + `TG_H_TAG;
localparam [6:0] O_RSVD   = H + `TG_H_RSVD;
localparam [6:0] O_PAY    = `TG_PAYLOAD_OFF;
localparam [6:0] O_LAST   = O_PAY - 7'd1;     // last header byte
localparam [6:0] O_MASK_KEPT = O_MASK + 7'd8 - MB / 8;  // first mask byte inside the block
localparam [7:0] VERSION  = `TG_PROTO_VERSION;

localparam [4:0] S_IDLE   = 5'd0,   // wait for a frame (and a free transmit slot) or an overdue fetch
                 S_LOAD   = 5'd1,   // read the header, copy it into the response slot
                 S_DEC    = 5'd2,   // decode the frame
                 S_GATH   = 5'd3,   // read 8 payload bytes into wbuf, then go to gret
                 S_WRITE  = 5'd4,   // next word of a write, fetch data or entry
                 S_READ   = 5'd5,   // next word of a read request
                 S_RWAIT  = 5'd6,   // its data
                 S_RPUT   = 5'd7,   // its 8 bytes into the response
                 S_DRAIN  = 5'd8,   // wait until every memory request is answered
                 S_RESP   = 5'd9,   // op, status and length into the response; hand it over
                 S_CPL    = 5'd10,  // write a fetch's completion word
                 S_QBLK   = 5'd11,  // REQ: the source's block row is read
                 S_QHEAD  = 5'd12,  // REQ: read the head word
                 S_QCHK   = 5'd13,  // REQ: head known: full, or write the entry
                 S_QTAIL  = 5'd14,  // REQ: write the new tail
                 S_AOPND  = 5'd15,  // atomic: the operand's bytes read and combined with the old value
                 S_AREAD  = 5'd16,  // atomic: read the target word
                 S_AWAIT  = 5'd17,  // atomic: old value known
                 S_AWRITE = 5'd18,  // atomic: write the new value
                 S_APUT   = 5'd19,  // atomic: old value into the response
                 S_HRD    = 5'd20,  // read or atomic answer to the host port
                 S_BCLR   = 5'd21,  // after reset: clear the block and refusal tables
                 S_ACMP   = 5'd22;  // atomic: new value known, CAS compared: write it or not

// what S_DRAIN does next
localparam [2:0] N_DONE = 3'd0, N_RESP = 3'd1, N_CPL = 3'd2, N_FREE = 3'd3,
                 N_QTAIL = 3'd4, N_QDONE = 3'd5, N_APUT = 3'd6;

// ---------------------------------------------------------------- state
reg [4:0]   state_reg,  state_next;
reg [4:0]   gret_reg,   gret_next;       // state after a gather
reg [2:0]   after_reg,  after_next;
reg [1:0]   slot_reg,   slot_next;       // receive slot of the frame
reg [6:0]   pos_reg,    pos_next;        // next slot byte to read
reg         ldv_reg,    ldv_next;        // a slot byte read last cycle ...
reg [6:0]   ldpos_reg,  ldpos_next;      // ... and which
reg [3:0]   gi_reg,     gi_next;         // gather: bytes requested
reg         wv_reg,     wv_next;         // wbuf holds word idx
reg [2:0]   k_reg,      k_next;          // byte of a word put into the response
// the frame's fields
reg [7:0]   op_reg,     op_next;
reg [7:0]   flags_reg,  flags_next;
reg [7:0]   rst_reg,    rst_next;        // status field of the frame
reg [15:0]  src_reg,    src_next;
reg [63:0]  key_reg,    key_next;
reg [31:0]  addr_reg,   addr_next;
reg         ahi_reg,    ahi_next;        // address bits 63:32 not zero
reg [MB-1:0] mask_reg,  mask_next;
reg [7:0]   len_reg,    len_next;
reg [7:0]   ctx_reg,    ctx_next;
reg [15:0]  tag_reg,    tag_next;
// execution
reg [7:0]   rop_reg,    rop_next;        // opcode of the response
reg [3:0]   nw_reg,     nw_next;
reg [3:0]   qidx_reg,   qidx_next;
reg [23:0]  qnext_reg,  qnext_next;
reg [15:0]  brow_reg,   brow_next;
reg [BLK_SRC_BITS+3:0] bclr_reg, bclr_next; // refusal-table entry to clear (its row clears the block table)
reg [3:0]   fidx_reg,   fidx_next;
reg         fto_reg,    fto_next;
reg         wchk_reg,   wchk_next;
reg         full_reg,   full_next;       // entry words: all bytes written
reg [3:0]   idx_reg,    idx_next;
reg [4:0]   pend_reg,   pend_next;
reg [31:0]  base_reg,   base_next;
reg [MB-1:0] wmask_reg, wmask_next;
reg [7:0]   st_reg,     st_next;
reg [63:0]  wbuf_reg,   wbuf_next;       // payload word gathered (atomic: CAS's compare value, then the new value)
reg [63:0]  rword_reg,  rword_next;      // word read from memory
reg         acy_reg,    acy_next;        // atomic: the sum's carry into the next byte
reg         amiss_reg,  amiss_next;      // atomic: a byte of the old value differs from CAS's compare value
reg [23:0]  head_reg,   head_next;       // the host's head word, low bits
reg         headhi_reg, headhi_next;     // ... its upper bits are not zero

wire [3:0]  words   = len_reg[6:3];
wire [BLK_SRC_BITS-1:0] blk_src = src_reg[BLK_SRC_BITS-1:0];
localparam [31:0] BLK_BYTES = BLOCK_BYTES;
localparam BLK_LOG2 = $clog2(BLOCK_BYTES);
wire        is_fetch  = (tag_reg & `TG_TAG_FETCH) != 16'd0;

assign m_frm_rd_addr = {slot_reg, pos_reg};
assign prot_key      = key_reg;
assign q_lk_base     = addr_reg;

// ---------------------------------------------------------------- checks
// A frame's checks take three register stages, worked out every cycle
// from its fields and from the tables' answers to them, so that no cycle
// holds a table lookup, a sum and a comparison at once (the byte clock
// leaves room for few LUT levels). The fields are steady from the tag,
// four bytes before decode, so all three stages are when the engine
// decodes. A table the host changes meanwhile is seen three cycles late,
// as if the write had come that much later.
// Stage 1: the tables' answers and the address sum. The opcode, long
// before the address in the frame, says which bytes the access covers,
// so one sum and one comparison per limit serve every kind of request.
wire        op_atomic = (op_reg == `TG_OP_FAA) || (op_reg == `TG_OP_SWAP) || (op_reg == `TG_OP_CAS);
wire [7:0]  acc_len   = op_atomic ? 8'd8 : (op_reg == `TG_OP_REQ) ? 8'd1 : len_reg;
wire [3:0]  acc_right = op_atomic                     ? `TG_RIGHT_ATOMIC :
                        (op_reg == `TG_OP_REQ)        ? `TG_RIGHT_ENQ :
                        (op_reg == `TG_OP_READ_REQ)   ? `TG_RIGHT_READ : `TG_RIGHT_WRITE;
// the queue's settings it accepts, as tables indexed by the setting, and
// the first slot's offset as a power of two: no comparator for a constant
localparam [31:0] QSL_OK  = ~({32{1'b1}} << (`TG_Q_MAX_LOG2 + 1)) & ({32{1'b1}} << `TG_Q_MIN_LOG2);
localparam [7:0]  QESL_OK = 8'b0111_1000;                         // entries of 8..64 bytes
localparam Q_SLOTS_LOG2 = $clog2(`TG_Q_SLOTS);
reg         t1_qhit;
reg  [3:0]  t1_qidx;
reg  [32:0] t1_pend;
reg         t1_phit;
reg  [32:0] t1_end;                    // first byte past the access: addr + len (atomic: + 8;
                                       // REQ: + 1, the queue's first byte, which protection checks)
reg         t1_too_long;
reg         t1_fvalid, t1_fmatch;      // the fetch entry the tag names, from this source
// the tables' entries and the settings, copied unless they are registers
// already (ONE_ENTRY): with one entry a table's answer is that entry
reg         t1_qfull_r, t1_qhv_r, t1_pen_r;
reg  [4:0]  t1_qsl_r;
reg  [2:0]  t1_qesl_r;
reg  [23:0] t1_qtail_r, t1_qhead_r;
reg  [31:0] t1_pbase_r, t1_fladdr_r;
reg  [3:0]  t1_prights_r;
reg  [32:0] t1_msize_r;
reg  [MB-1:0] t1_fmask_r;
wire        t1_qfull   = (ONE_ENTRY != 0) ? q_lk_full               : t1_qfull_r;
wire        t1_qhv     = (ONE_ENTRY != 0) ? q_lk_head_valid         : t1_qhv_r;
wire        t1_pen     = (ONE_ENTRY != 0) ? cfg_prot_enable         : t1_pen_r;
wire [4:0]  t1_qsl     = (ONE_ENTRY != 0) ? q_lk_size_log2          : t1_qsl_r;
wire [2:0]  t1_qesl    = (ONE_ENTRY != 0) ? q_lk_esize_log2         : t1_qesl_r;
wire [23:0] t1_qtail   = (ONE_ENTRY != 0) ? q_lk_tail               : t1_qtail_r;
wire [23:0] t1_qhead   = (ONE_ENTRY != 0) ? q_lk_head               : t1_qhead_r;
wire [31:0] t1_pbase   = (ONE_ENTRY != 0) ? prot_base               : t1_pbase_r;
wire [3:0]  t1_prights = (ONE_ENTRY != 0) ? prot_rights             : t1_prights_r;
wire [32:0] t1_msize   = (ONE_ENTRY != 0) ? {1'b0, cfg_mem_size}    : t1_msize_r;
wire [31:0] t1_fladdr  = (ONE_ENTRY != 0) ? fetch_lookup_laddr      : t1_fladdr_r;
wire [MB-1:0] t1_fmask = (ONE_ENTRY != 0) ? fetch_lookup_mask[MB-1:0] : t1_fmask_r;
always @(posedge clk) begin
    t1_qhit     <= q_lk_hit;
    t1_qidx     <= q_lk_idx;
    t1_phit     <= prot_hit;
    t1_pend     <= prot_end;
    t1_end      <= {1'b0, addr_reg} + {25'd0, acc_len};
    t1_too_long <= ((len_reg >> BLK_LOG2) != 8'd0) && (len_reg != BLK_BYTES[7:0]);   // len > BLOCK_BYTES
    t1_fvalid   <= fetch_lookup_valid;
    t1_fmatch   <= (fetch_lookup_node == src_reg);
    t1_qfull_r   <= q_lk_full;
    t1_qhv_r     <= q_lk_head_valid;
    t1_pen_r     <= cfg_prot_enable;
    t1_qsl_r     <= q_lk_size_log2;
    t1_qesl_r    <= q_lk_esize_log2;
    t1_qtail_r   <= q_lk_tail;
    t1_qhead_r   <= q_lk_head;
    t1_pbase_r   <= prot_base;
    t1_prights_r <= prot_rights;
    t1_msize_r   <= {1'b0, cfg_mem_size};
    t1_fladdr_r  <= fetch_lookup_laddr;
    t1_fmask_r   <= fetch_lookup_mask[MB-1:0];
end

// Stage 2: the comparisons, and the sum of the queue's tail and entry.
wire [6:0]  t1_qesize = 7'd1 << t1_qesl;                          // entry bytes
reg  [3:0]  t2_qwords;                                             // words of an entry
reg  [24:0] t2_qlo;                                               // bits below the buffer's size: offsets in it
reg  [24:0] t2_qtail_end;                                         // tail + entry
reg         t2_qsl_bad, t2_qesl_bad, t2_qtail_low, t2_qtail_mis, t2_qbase_mis, t2_len_bad;
reg         t2_pen, t2_phit, t2_pright;                           // ... the region grants this kind of access
reg         t2_below, t2_over;                                    // outside the region
reg         t2_range;                                             // outside the exported memory
reg         t2_too_long;
always @(posedge clk) begin
    t2_qwords    <= t1_qesize[6:3];
    t2_qlo       <= ~({25{1'b1}} << t1_qsl);
    t2_qtail_end <= {1'b0, t1_qtail} + {18'd0, t1_qesize};
    t2_qsl_bad   <= !QSL_OK[t1_qsl];
    t2_qesl_bad  <= !QESL_OK[t1_qesl];
    t2_qtail_low <= ((t1_qtail >> Q_SLOTS_LOG2) == 24'd0);         // tail < TG_Q_SLOTS
    t2_qtail_mis <= ((t1_qtail[5:0] & (t1_qesize[5:0] - 6'd1)) != 6'd0);
    t2_qbase_mis <= ((addr_reg & ~({32{1'b1}} << t1_qsl)) != 32'd0);
    t2_len_bad   <= (len_reg == 8'd0) || ({1'b0, len_reg[6:0]} > {1'b0, t1_qesize}) || t1_too_long;
    t2_pen       <= t1_pen;
    t2_phit      <= t1_phit;
    t2_pright    <= (t1_prights & acc_right) != 4'd0;
    t2_below     <= ahi_reg || (addr_reg < t1_pbase);
    t2_over      <= (t1_end > t1_pend);
    t2_range     <= ahi_reg || (t1_end > t1_msize);
    t2_too_long  <= t1_too_long;
end

// Stage 3: the checks. With protection on, a request must name a valid
// region with its exact key, the region must grant the access, and the
// bytes it touches must lie inside it (a REQ: the queue's first byte).
function [7:0] prot_status;
    input right;      // the region grants this kind of access
    input over;       // the access ends past the region
    begin
        if (!t2_pen) begin
            prot_status = `TG_ST_OK;
        end else if (!t2_phit) begin
            prot_status = `TG_ST_BAD_KEY;
        end else if (!right) begin
            prot_status = `TG_ST_NO_RIGHT;
        end else if (t2_below || over) begin
            prot_status = `TG_ST_RANGE;
        end else begin
            prot_status = `TG_ST_OK;
        end
    end
endfunction
reg         bad_range, bad_align;
reg  [7:0]  pst;                       // protection's verdict on the access
reg         q_cfg_bad, q_len_bad;
reg  [23:0] q_next;                    // tail after this entry, wrapping to the first slot
// the entry's end against the buffer's size (a power of two): a bit set
// above the size's, the size's own, any below it
wire [24:0] qlo_incl   = {t2_qlo[23:0], 1'b1};                   // bits at or below the size's
wire        qend_above = (t2_qtail_end & ~qlo_incl) != 25'd0;
wire        qend_at    = (t2_qtail_end & qlo_incl & ~t2_qlo) != 25'd0;
wire        qend_below = (t2_qtail_end & t2_qlo) != 25'd0;
reg  [3:0]  q_words;                   // words of an entry
always @(posedge clk) begin
    bad_range   <= t2_range;
    bad_align   <= (addr_reg[2:0] != 3'd0) || t2_too_long;
    pst         <= prot_status(t2_pright, t2_over);
    q_cfg_bad   <= t2_qsl_bad || t2_qesl_bad || t2_qtail_low || qend_above || (qend_at && qend_below) ||
                   t2_qtail_mis || t2_qbase_mis;
    q_len_bad   <= t2_len_bad;
    q_next      <= (qend_above || qend_at) ? 24'd`TG_Q_SLOTS : t2_qtail_end[23:0];
    q_words     <= t2_qwords;
end

// Refused posted writes: the reason, per (source row, source context),
// returned by that context's next fence. One byte per entry, addressed
// {row, context}, read from the registered fields and registered again
// out of the block RAM (whose output is slow): steady long before decode.
reg  [7:0]  wst_mem [0:BLK_ROWS*16-1];
reg  [7:0]  wst_rd_reg;
reg  [7:0]  wst_cur;
reg         wst_we;
reg  [BLK_SRC_BITS+3:0] wst_waddr;
reg  [7:0]  wst_wdata;
always @(posedge clk) begin
    if (wst_we) begin
        wst_mem[wst_waddr] <= wst_wdata;
    end
    wst_rd_reg <= wst_mem[{blk_src, ctx_reg[3:0]}];
    wst_cur    <= wst_rd_reg;
end

// Block table: bit q of row s: REQs from source s to queue q are refused
// until s sends one with the retry flag (as tg_rx_engine). Read like the
// refusal table.
reg  [15:0] blk_mem [0:BLK_ROWS-1];
reg  [15:0] blk_rd_reg;
reg  [15:0] blk_rdata_reg;
reg         blk_we;
reg  [BLK_SRC_BITS-1:0] blk_waddr;
reg  [15:0] blk_wdata;
always @(posedge clk) begin
    if (blk_we) begin
        blk_mem[blk_waddr] <= blk_wdata;
    end
    blk_rd_reg    <= blk_mem[blk_src];
    blk_rdata_reg <= blk_rd_reg;
end

// ---------------------------------------------------------------- atomic unit
// A byte at a time: each operand byte, read from the receive slot, is
// registered, then added to (FAA) or put in place of (SWAP, CAS) the old
// value's byte, which rword_reg turns round to (so it holds the old value
// again after eight bytes); the new byte goes into wbuf_reg as its CAS
// compare byte leaves it.
reg         a_bv;                      // a_byte holds an operand byte
reg  [7:0]  a_byte;
always @(posedge clk) begin
    a_bv   <= ldv_reg && (state_reg == S_AOPND);
    a_byte <= s_frm_rd_data;
end
wire [8:0]  a_sum = {1'b0, rword_reg[7:0]} + {1'b0, a_byte} + {8'd0, acy_reg};

// ---------------------------------------------------------------- REQ decode
assign q_upd_idx  = qidx_reg;
assign q_upd_tail = qnext_reg;
assign q_upd_head = head_reg;
assign m_qresp_src    = src_reg;
assign m_qresp_tag    = tag_reg;
assign m_qresp_status = rst_reg;

wire        req_retry  = (flags_reg & `TG_FLAG_RETRY) != 8'd0;
wire [15:0] qbit       = 16'd1 << qidx_reg;

assign fetch_lookup_idx = fidx_reg;
assign fetch_free_idx   = fidx_reg;

assign m_hrd_src    = src_reg;
assign m_hrd_tag    = tag_reg;
assign m_hrd_status = rst_reg;
assign m_hrd_data   = wbuf_reg;

assign st_idle = (state_reg == S_IDLE);

// the response's payload words and length byte
wire        resp_ok  = (st_reg == `TG_ST_OK);
assign m_tfrm_words = !resp_ok                          ? 4'd0 :
                      (rop_reg == `TG_OP_READ_RESP)     ? words :
                      (rop_reg == `TG_OP_ATOMIC_RESP)   ? 4'd1 : 4'd0;
wire [7:0]  resp_len = {1'b0, m_tfrm_words, 3'd0};

// write strobes of word idx
reg [7:0] strb_idx;
integer sb;
always @* begin
    strb_idx = 8'd0;
    for (sb = 0; sb < MB / 8; sb = sb + 1) begin
        if (idx_reg == sb[3:0]) begin
            strb_idx = wmask_reg[sb*8 +: 8];
        end
    end
    if (full_reg) begin
        strb_idx = 8'hFF;
    end
end

// the payload of word i begins at slot byte 62 + 8 i
function [6:0] pay_off;
    input [3:0] i;
    begin
        pay_off = O_PAY + {i[3:0], 3'd0};
    end
endfunction

// A header byte read during S_LOAD, as the response carries it: copied,
// zeroed, or moved (source and destination change places). op, status
// and length are written again once known.
reg [6:0] cp_off;
reg [7:0] cp_data;
always @* begin
    cp_off  = ldpos_reg;
    cp_data = 8'd0;
    if (ldpos_reg == O_VER) begin
        cp_data = VERSION;
    end else if (ldpos_reg == O_SRC || ldpos_reg == O_SRC + 7'd1) begin
        cp_off  = ldpos_reg + 7'd2;                     // the request's source is the destination
        cp_data = s_frm_rd_data;
    end else if (ldpos_reg == O_DST) begin
        cp_off  = O_SRC;
        cp_data = cfg_node_id[15:8];
    end else if (ldpos_reg == O_DST + 7'd1) begin
        cp_off  = O_SRC + 7'd1;
        cp_data = cfg_node_id[7:0];
    end else if ((ldpos_reg >= O_ADDR + 7'd4 && ldpos_reg < O_MASK) ||
                 (ldpos_reg >= O_MASK_KEPT && ldpos_reg < O_LEN) ||
                 (ldpos_reg >= O_CTX && ldpos_reg < O_RSVD)) begin
        cp_data = s_frm_rd_data;                        // address (low word), kept mask, context, tag
    end
end

// REQ: room in the buffer: write the entry at the tail, then the tail
task start_entry;
    begin
        base_next  = addr_reg | {8'd0, t1_qtail};
        full_next  = 1'b1;
        nw_next    = q_words;
        idx_next   = 4'd0;
        wv_next    = 1'b0;
        after_next = N_QTAIL;
        state_next = S_WRITE;
    end
endtask

// ask for the next of a word's 8 payload bytes (gi counts them); its
// byte comes with ldv_reg a cycle later
task gather_next;
    begin
        if (gi_reg != 4'd8) begin
            ldv_next = 1'b1;
            pos_next = pos_reg + 7'd1;
            gi_next  = gi_reg + 4'd1;
        end
    end
endtask

// start reading the 8 bytes of payload word i, then go to ret
task start_gather;
    input [3:0] i;
    input [4:0] ret;
    begin
        pos_next   = pay_off(i);
        gi_next    = 4'd0;
        gret_next  = ret;
        state_next = S_GATH;
    end
endtask

always @* begin
    state_next = state_reg;
    gret_next  = gret_reg;
    after_next = after_reg;
    slot_next  = slot_reg;
    pos_next   = pos_reg;
    ldv_next   = 1'b0;
    ldpos_next = pos_reg;
    gi_next    = gi_reg;
    wv_next    = wv_reg;
    k_next     = k_reg;
    op_next    = op_reg;
    flags_next = flags_reg;
    rst_next   = rst_reg;
    src_next   = src_reg;
    key_next   = key_reg;
    addr_next  = addr_reg;
    ahi_next   = ahi_reg;
    mask_next  = mask_reg;
    len_next   = len_reg;
    ctx_next   = ctx_reg;
    tag_next   = tag_reg;
    rop_next   = rop_reg;
    nw_next    = nw_reg;
    qidx_next  = qidx_reg;
    qnext_next = qnext_reg;
    brow_next  = brow_reg;
    bclr_next  = bclr_reg;
    fidx_next  = fidx_reg;
    fto_next   = fto_reg;
    wchk_next  = 1'b0;
    full_next  = full_reg;
    idx_next   = idx_reg;
    pend_next  = pend_reg;
    base_next  = base_reg;
    wmask_next = wmask_reg;
    st_next    = st_reg;
    wbuf_next  = wbuf_reg;
    acy_next   = acy_reg;
    amiss_next = amiss_reg;
    rword_next = rword_reg;
    head_next  = head_reg;
    headhi_next = headhi_reg;

    blk_we    = 1'b0;
    blk_waddr = blk_src;
    blk_wdata = brow_reg;
    wst_we    = 1'b0;
    wst_waddr = {blk_src, ctx_reg[3:0]};
    wst_wdata = 8'd0;

    s_frm_ready      = 1'b0;
    s_fto_ready      = 1'b0;
    m_wr_en          = 1'b0;
    m_wr_off         = cp_off;
    m_wr_data        = cp_data;
    m_tfrm_valid     = 1'b0;
    m_mem_req_valid  = 1'b0;
    m_mem_req_write  = 1'b0;
    m_mem_req_addr   = base_reg + {25'd0, idx_reg, 3'd0};
    m_mem_req_wdata  = wbuf_reg;
    m_mem_req_wstrb  = strb_idx;
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
    q_upd_tail_valid = 1'b0;
    q_upd_full_valid = 1'b0;
    q_upd_head_valid = 1'b0;
    m_qresp_valid    = 1'b0;

    case (state_reg)
        S_IDLE: begin
            fto_next = 1'b0;
            st_next  = `TG_ST_OK;
            if (s_fto_valid) begin
                // an overdue fetch first: PEER_GONE in its completion word
                s_fto_ready = 1'b1;
                fidx_next   = s_fto_idx;
                fto_next    = 1'b1;
                st_next     = `TG_ST_PEER_GONE;
                state_next  = S_CPL;
            end else if (s_frm_valid && m_tfrm_ready) begin
                slot_next  = s_frm_slot;
                pos_next   = O_VER;
                ahi_next   = 1'b0;
                mask_next  = {MB{1'b0}};
                state_next = S_LOAD;
            end
        end

        S_LOAD: begin
            // one header byte read a cycle; each answer is kept by its
            // field and copied into the response
            if (pos_reg <= O_LAST) begin
                ldv_next = 1'b1;
                pos_next = pos_reg + 7'd1;
            end
            if (ldv_reg) begin
                m_wr_en = 1'b1;
                case (ldpos_reg)
                    O_OP:            op_next    = s_frm_rd_data;
                    O_FLAGS:         flags_next = s_frm_rd_data;
                    O_STATUS:        rst_next   = s_frm_rd_data;
                    O_SRC:           src_next[15:8] = s_frm_rd_data;
                    O_SRC + 7'd1:    src_next[7:0]  = s_frm_rd_data;
                    O_LEN:           len_next   = s_frm_rd_data;
                    O_CTX:           ctx_next   = s_frm_rd_data;
                    O_TAG:           tag_next[15:8] = s_frm_rd_data;
                    O_TAG + 7'd1: begin
                        tag_next[7:0] = s_frm_rd_data;
                        fidx_next     = s_frm_rd_data[3:0];    // a fetch's entry, looked up at decode
                    end
                    default: ;
                endcase
                if (ldpos_reg >= O_KEY && ldpos_reg < O_ADDR) begin
                    key_next = {key_reg[55:0], s_frm_rd_data};
                end
                if (ldpos_reg >= O_ADDR && ldpos_reg < O_ADDR + 7'd4 && s_frm_rd_data != 8'd0) begin
                    ahi_next = 1'b1;
                end
                if (ldpos_reg >= O_ADDR + 7'd4 && ldpos_reg < O_MASK) begin
                    addr_next = {addr_reg[23:0], s_frm_rd_data};
                end
                if (ldpos_reg >= O_MASK_KEPT && ldpos_reg < O_LEN) begin
                    mask_next = {mask_reg[MB-9:0], s_frm_rd_data};   // big-endian: highest byte first
                end
                if (ldpos_reg == O_LAST) begin
                    state_next = S_DEC;
                end
            end
        end

        S_DEC: begin
            idx_next  = 4'd0;
            wv_next   = 1'b0;
            full_next = 1'b0;
            rop_next  = `TG_OP_READ_RESP;
            nw_next   = words;
            wbuf_next = 64'd0;
            base_next = addr_reg;
            state_next = S_RESP;
            k_next    = 3'd0;
            case (op_reg)
                `TG_OP_WRITE: begin
                    if (bad_align || bad_range) begin
                        ev_refused  = 1'b1;
                        s_frm_ready = 1'b1;
                        wst_we      = 1'b1;
                        wst_wdata   = bad_align ? `TG_ST_MISALIGNED : `TG_ST_RANGE;
                        state_next  = S_IDLE;
                    end else if (pst != `TG_ST_OK) begin
                        ev_refused      = 1'b1;
                        ev_prot_refused = 1'b1;
                        s_frm_ready     = 1'b1;
                        wst_we          = 1'b1;
                        wst_wdata       = pst;
                        state_next      = S_IDLE;
                    end else begin
                        wmask_next = mask_reg;
                        after_next = N_DONE;
                        wchk_next  = 1'b1;
                        state_next = S_WRITE;
                    end
                end
                `TG_OP_READ_REQ: begin
                    if (bad_align) begin
                        st_next    = `TG_ST_MISALIGNED;
                        ev_refused = 1'b1;
                    end else if (bad_range && words != 4'd0) begin
                        st_next    = `TG_ST_RANGE;
                        ev_refused = 1'b1;
                    end else if (pst != `TG_ST_OK && words != 4'd0) begin
                        st_next         = pst;
                        ev_refused      = 1'b1;
                        ev_prot_refused = 1'b1;
                    end else begin
                        state_next = S_READ;
                    end
                end
                `TG_OP_REQ: begin
                    rop_next   = `TG_OP_REQ_RESP;
                    qidx_next  = t1_qidx;
                    qnext_next = q_next;
                    if (pst != `TG_ST_OK) begin
                        st_next         = pst;
                        ev_req_refused  = 1'b1;
                        ev_prot_refused = 1'b1;
                    end else if (!t1_qhit || ahi_reg) begin
                        st_next        = `TG_ST_NO_QUEUE;
                        ev_req_refused = 1'b1;
                    end else begin
                        state_next = S_QBLK;
                    end
                end
                `TG_OP_REQ_RESP: begin
                    m_qresp_valid = 1'b1;
                    s_frm_ready   = 1'b1;
                    state_next    = S_IDLE;
                end
                `TG_OP_FAA, `TG_OP_SWAP, `TG_OP_CAS: begin
                    rop_next = `TG_OP_ATOMIC_RESP;
                    if (len_reg != 8'd`TG_ATOMIC_LEN) begin
                        st_next    = `TG_ST_MALFORMED;
                        ev_refused = 1'b1;
                    end else if (bad_align) begin
                        st_next    = `TG_ST_MISALIGNED;
                        ev_refused = 1'b1;
                    end else if (bad_range) begin
                        st_next    = `TG_ST_RANGE;
                        ev_refused = 1'b1;
                    end else if (pst != `TG_ST_OK) begin
                        st_next         = pst;
                        ev_refused      = 1'b1;
                        ev_prot_refused = 1'b1;
                    end else if (op_reg == `TG_OP_CAS) begin
                        start_gather(4'd1, S_AREAD);    // the compare value, into wbuf
                    end else begin
                        state_next = S_AREAD;
                    end
                end
                `TG_OP_READ_RESP, `TG_OP_ATOMIC_RESP: begin
                    if (!is_fetch) begin
                        if (words != 4'd0) begin
                            start_gather(4'd0, S_HRD);
                        end else begin
                            state_next = S_HRD;
                        end
                    end else if (!t1_fvalid || !t1_fmatch) begin
                        ev_stray    = 1'b1;
                        s_frm_ready = 1'b1;
                        state_next  = S_IDLE;
                    end else begin
                        base_next  = t1_fladdr;
                        wmask_next = mask_reg & t1_fmask;
                        st_next    = rst_reg;
                        if (rst_reg == `TG_ST_OK) begin
                            after_next = N_CPL;
                            state_next = S_WRITE;
                        end else begin
                            state_next = S_CPL;
                        end
                    end
                end
                default: begin
                    // ACK and NAK (tg_eth_rx8 lets no other opcode through):
                    // without the link layer they are taken and ignored
                    s_frm_ready = 1'b1;
                    state_next  = S_IDLE;
                end
            endcase
        end

        S_GATH: begin
            gather_next;
            if (ldv_reg) begin
                wbuf_next = {s_frm_rd_data, wbuf_reg[63:8]};
            end
            if (gi_reg == 4'd8 && !ldv_reg) begin
                wv_next    = 1'b1;
                state_next = gret_reg;
            end
        end

        S_WRITE: begin
            if (wchk_reg && wst_cur != `TG_ST_OK) begin
                ev_refused  = 1'b1;
                s_frm_ready = 1'b1;
                state_next  = S_IDLE;
            end else if (idx_reg >= nw_reg) begin
                state_next = S_DRAIN;
            end else if (strb_idx == 8'd0) begin
                idx_next = idx_reg + 4'd1;              // nothing to write in this word
            end else if (!wv_reg) begin
                if (idx_reg < words) begin
                    start_gather(idx_reg, S_WRITE);
                end else begin
                    wbuf_next = 64'd0;                  // past a short entry's payload
                    wv_next   = 1'b1;
                end
            end else begin
                m_mem_req_valid = 1'b1;
                m_mem_req_write = 1'b1;
                if (m_mem_req_ready) begin
                    idx_next = idx_reg + 4'd1;
                    wv_next  = 1'b0;
                end
            end
        end

        S_READ: begin
            if (nw_reg == 4'd0 && wst_cur != `TG_ST_OK) begin
                // a fence answers with the reason a posted write of this
                // source and context was refused since the last fence
                st_next   = wst_cur;
                wst_we    = 1'b1;
                wst_wdata = `TG_ST_OK;
            end
            if (idx_reg >= nw_reg) begin
                state_next = S_RESP;
            end else begin
                m_mem_req_valid = 1'b1;
                if (m_mem_req_ready) begin
                    state_next = S_RWAIT;
                end
            end
        end

        S_RWAIT: begin
            if (s_mem_resp_valid) begin
                rword_next = s_mem_resp_rdata;
                k_next     = 3'd0;
                state_next = S_RPUT;
            end
        end

        S_RPUT, S_APUT: begin
            m_wr_en    = 1'b1;
            m_wr_off   = pay_off(idx_reg) + {4'd0, k_reg};
            m_wr_data  = rword_reg[7:0];
            rword_next = {8'd0, rword_reg[63:8]};
            k_next     = k_reg + 3'd1;
            if (k_reg == 3'd7) begin
                idx_next   = idx_reg + 4'd1;
                state_next = (state_reg == S_RPUT) ? S_READ : S_RESP;
            end
        end

        S_DRAIN: begin
            if (pend_reg == 5'd0) begin
                case (after_reg)
                    N_RESP:  state_next = S_RESP;
                    N_CPL:   state_next = S_CPL;
                    N_FREE: begin
                        fetch_free_valid = 1'b1;
                        s_frm_ready      = !fto_reg;
                        state_next       = S_IDLE;
                    end
                    N_QTAIL: state_next = S_QTAIL;
                    N_APUT: begin
                        idx_next   = 4'd0;
                        k_next     = 3'd0;
                        state_next = S_APUT;
                    end
                    N_QDONE: begin
                        q_upd_tail_valid = 1'b1;
                        ev_req_accepted  = 1'b1;
                        ev_enq_done      = 1'b1;
                        st_next          = `TG_ST_OK;
                        state_next       = S_RESP;
                    end
                    default: begin
                        ev_rx_done  = 1'b1;
                        s_frm_ready = 1'b1;
                        state_next  = S_IDLE;
                    end
                endcase
            end
        end

        S_RESP: begin
            // op, status and length (k = 0, 1, 2), then the hand-over
            m_wr_en = (k_reg != 3'd3);
            case (k_reg)
                3'd0: begin
                    m_wr_off  = O_OP;
                    m_wr_data = rop_reg;
                end
                3'd1: begin
                    m_wr_off  = O_STATUS;
                    m_wr_data = st_reg;
                end
                default: begin
                    m_wr_off  = O_LEN;
                    m_wr_data = resp_len;
                end
            endcase
            if (k_reg != 3'd3) begin
                k_next = k_reg + 3'd1;
            end else begin
                m_tfrm_valid = 1'b1;
                if (m_tfrm_ready) begin
                    s_frm_ready = 1'b1;
                    state_next  = S_IDLE;
                end
            end
        end

        S_CPL: begin
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
            reg [15:0] row;
            row = req_retry ? (blk_rdata_reg & ~qbit) : blk_rdata_reg;
            if (((blk_rdata_reg & qbit) != 16'd0 && !req_retry) || t1_qfull) begin
                row            = row | qbit;
                st_next        = `TG_ST_NOT_READY;
                ev_req_refused = 1'b1;
                state_next     = S_RESP;
            end else if (q_cfg_bad || q_len_bad) begin
                st_next        = `TG_ST_MALFORMED;
                ev_req_refused = 1'b1;
                state_next     = S_RESP;
            end else if (t1_qhv && q_next != t1_qhead) begin
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
            blk_waddr = bclr_reg[BLK_SRC_BITS+3:4];
            blk_wdata = 16'd0;
            wst_we    = 1'b1;
            wst_waddr = bclr_reg;
            wst_wdata = `TG_ST_OK;
            bclr_next = bclr_reg + {{BLK_SRC_BITS{1'b0}}, 4'd1};
            if (&bclr_reg) begin
                state_next = S_IDLE;
            end
        end

        S_QHEAD: begin
            m_mem_req_valid = 1'b1;
            m_mem_req_addr  = addr_reg | `TG_Q_HEAD;
            if (m_mem_req_ready) begin
                state_next = S_QCHK;
            end
        end

        S_QCHK: begin
            if (s_mem_resp_valid) begin
                head_next   = s_mem_resp_rdata[23:0];
                headhi_next = (s_mem_resp_rdata[63:24] != 40'd0);
            end
            if (pend_reg == 5'd0) begin
                q_upd_head_valid = !headhi_reg;         // remember a sane head
                if (!headhi_reg && qnext_reg == head_reg) begin
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
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b1;
            m_mem_req_addr  = addr_reg | `TG_Q_TAIL;
            m_mem_req_wdata = {40'd0, qnext_reg};
            m_mem_req_wstrb = 8'hFF;
            if (m_mem_req_ready) begin
                after_next = N_QDONE;
                state_next = S_DRAIN;
            end
        end

        S_AOPND: begin
            // the operand's bytes requested as in S_GATH, combined two
            // cycles later; k counts the bytes combined
            gather_next;
            if (a_bv) begin
                rword_next = {rword_reg[7:0], rword_reg[63:8]};
                wbuf_next  = {(op_reg == `TG_OP_FAA) ? a_sum[7:0] : a_byte, wbuf_reg[63:8]};
                acy_next   = a_sum[8];
                amiss_next = amiss_reg || (rword_reg[7:0] != wbuf_reg[7:0]);
                k_next     = k_reg + 3'd1;
                if (k_reg == 3'd7) begin
                    state_next = S_ACMP;
                end
            end
        end

        S_AREAD: begin
            m_mem_req_valid = 1'b1;
            m_mem_req_addr  = base_reg;
            if (m_mem_req_ready) begin
                state_next = S_AWAIT;
            end
        end

        S_AWAIT: begin
            if (s_mem_resp_valid) begin
                rword_next = s_mem_resp_rdata;
            end
            if (pend_reg == 5'd0) begin
                pos_next   = pay_off(4'd0);             // the operand, word 0
                gi_next    = 4'd0;
                k_next     = 3'd0;
                acy_next   = 1'b0;
                amiss_next = 1'b0;
                state_next = S_AOPND;
            end
        end

        S_ACMP: begin
            ev_atomic = 1'b1;
            if (op_reg == `TG_OP_CAS && amiss_reg) begin
                idx_next   = 4'd0;
                k_next     = 3'd0;
                state_next = S_APUT;                    // compare failed: write nothing
            end else begin
                state_next = S_AWRITE;
            end
        end

        S_AWRITE: begin
            m_mem_req_valid = 1'b1;
            m_mem_req_write = 1'b1;
            m_mem_req_addr  = base_reg;
            m_mem_req_wdata = wbuf_reg;                 // the new value
            m_mem_req_wstrb = 8'hFF;
            if (m_mem_req_ready) begin
                after_next = N_APUT;
                state_next = S_DRAIN;
            end
        end

        S_HRD: begin
            m_hrd_valid = 1'b1;
            s_frm_ready = 1'b1;
            state_next  = S_IDLE;
        end

        default: state_next = S_IDLE;
    endcase

    pend_next = pend_reg + {4'd0, m_mem_req_valid && m_mem_req_ready} - {4'd0, s_mem_resp_valid};
end

// ---------------------------------------------------------------- registers
always @(posedge clk) begin
    state_reg  <= state_next;
    gret_reg   <= gret_next;
    after_reg  <= after_next;
    slot_reg   <= slot_next;
    pos_reg    <= pos_next;
    ldv_reg    <= ldv_next;
    ldpos_reg  <= ldpos_next;
    gi_reg     <= gi_next;
    wv_reg     <= wv_next;
    k_reg      <= k_next;
    op_reg     <= op_next;
    flags_reg  <= flags_next;
    rst_reg    <= rst_next;
    src_reg    <= src_next;
    key_reg    <= key_next;
    addr_reg   <= addr_next;
    ahi_reg    <= ahi_next;
    mask_reg   <= mask_next;
    len_reg    <= len_next;
    ctx_reg    <= ctx_next;
    tag_reg    <= tag_next;
    rop_reg    <= rop_next;
    nw_reg     <= nw_next;
    qidx_reg   <= qidx_next;
    qnext_reg  <= qnext_next;
    brow_reg   <= brow_next;
    bclr_reg   <= bclr_next;
    fidx_reg   <= fidx_next;
    fto_reg    <= fto_next;
    wchk_reg   <= wchk_next;
    full_reg   <= full_next;
    idx_reg    <= idx_next;
    pend_reg   <= pend_next;
    base_reg   <= base_next;
    wmask_reg  <= wmask_next;
    st_reg     <= st_next;
    wbuf_reg   <= wbuf_next;
    acy_reg    <= acy_next;
    amiss_reg  <= amiss_next;
    rword_reg  <= rword_next;
    head_reg   <= head_next;
    headhi_reg <= headhi_next;
    if (rst) begin
        state_reg <= S_BCLR;
        after_reg <= N_DONE;
        pend_reg  <= 5'd0;
        bclr_reg  <= {(BLK_SRC_BITS+4){1'b0}};
        ldv_reg   <= 1'b0;
        wchk_reg  <= 1'b0;
    end
end

endmodule

`default_nettype wire
