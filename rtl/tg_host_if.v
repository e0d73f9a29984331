// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Host target: decodes the BAR (CSR page, context pages, remote, sync and
// shadow windows), assembles write bursts into WRITE and REQ requests,
// issues blocking remote reads and atomics, non-blocking fetches and
// atomics, and answers the host.
`default_nettype none
`include "tg_hw_defs.vh"

module tg_host_if #(
    parameter NUM_CTX   = 16,  // process contexts (1..16)
    parameter MAX_READS = 8,   // fetches in flight (1..16)
    parameter BLOCK_BYTES = 64, // largest payload of a frame: 16, 32 or 64 bytes, an
                                // aligned block that bursts and fetches stay inside
    parameter PAY_SLOT_W  = 5   // payload-buffer slot number bits
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_mem_size,
    input  wire [31:0]  cfg_read_timeout,   // cycles before a blocking read fails (0: never)

    // host requests (MMIO)
    input  wire         s_host_req_valid,
    output reg          s_host_req_ready,
    input  wire         s_host_req_write,
    input  wire [46:0]  s_host_req_addr,
    input  wire [63:0]  s_host_req_wdata,
    input  wire [7:0]   s_host_req_wstrb,
    input  wire         s_host_req_last,

    // host responses (one per read, in order)
    output wire         m_host_resp_valid,
    input  wire         m_host_resp_ready,
    output wire [63:0]  m_host_resp_rdata,

    // CSR page access
    output wire [11:0]  csr_addr,
    input  wire [63:0]  csr_rdata,
    output reg          csr_wr_en,
    output wire [63:0]  csr_wdata,

    // request descriptors to the transmitter
    output wire         m_txd_valid,
    input  wire         m_txd_ready,
    output wire [7:0]   m_txd_op,
    output wire [15:0]  m_txd_dst,
    output wire [31:0]  m_txd_addr,
    output wire [5:0]   m_txd_off,       // the bytes written or asked for: cnt from off
    output wire [6:0]   m_txd_cnt,
    output wire [7:0]   m_txd_len,
    output wire [7:0]   m_txd_ctx,
    output wire [15:0]  m_txd_tag,
    output wire [63:0]  m_txd_key,       // protection key of the request's context
    output wire [1:0]   m_txd_pay_src,   // TG_PAY_REQ with a payload, else TG_PAY_NONE
    output wire [PAY_SLOT_W-1:0] m_txd_pay_slot,

    // the request buffer: the lowest free slot, the words written into it
    // (a burst's beats, an atomic's operand and compare), and its taking
    // (wire hold, and a REQ's hold) once the descriptor is offered
    input  wire         s_pay_alloc_valid,
    input  wire [PAY_SLOT_W-1:0] s_pay_alloc_slot,
    output reg          m_pay_take_valid,
    output reg  [PAY_SLOT_W-1:0] m_pay_take_slot,
    output reg  [1:0]   m_pay_take_mask,
    output reg          m_pay_we,
    output reg  [PAY_SLOT_W-1:0] m_pay_wr_slot,
    output reg  [2:0]   m_pay_wr_word,
    output reg  [63:0]  m_pay_wr_data,

    // answer to a blocking read, from the receive engine
    input  wire         s_hrd_valid,
    input  wire [15:0]  s_hrd_src,
    input  wire [15:0]  s_hrd_tag,
    input  wire [7:0]   s_hrd_status,
    input  wire [63:0]  s_hrd_data,

    // a REQ finished for good: its context, its number (the tag it left
    // with) and its outcome (counted in its context's REQ_STATE)
    input  wire         s_reqdone_valid,
    input  wire [3:0]   s_reqdone_ctx,
    input  wire [15:0]  s_reqdone_num,
    input  wire [7:0]   s_reqdone_status,

    // fetch table, looked up and freed by the receive engine
    input  wire [3:0]   fetch_lookup_idx,
    output wire         fetch_lookup_valid,
    output wire [15:0]  fetch_lookup_node,
    output wire [31:0]  fetch_lookup_laddr,
    output wire [31:0]  fetch_lookup_cpl,
    output wire [5:0]   fetch_lookup_off,   // the bytes the fetch asked for: cnt from off
    output wire [6:0]   fetch_lookup_cnt,
    input  wire         fetch_free_valid,
    input  wire [3:0]   fetch_free_idx,
    // a fetch whose answer is overdue, for the receive engine to complete
    output wire         m_fto_valid,
    input  wire         m_fto_ready,
    output wire [3:0]   m_fto_idx,

    // events
    output reg          ev_host_error,
    output reg          ev_host_req,
    output reg          ev_host_resp,
    output reg          ev_stray,

    output wire         st_idle            // no burst, read, response, descriptor or fetch in hand
);

initial begin
    if (NUM_CTX < 1 || NUM_CTX > 16) begin
        $error("%m: NUM_CTX must be in 1..16");
    end
    if (MAX_READS < 1 || MAX_READS > 16) begin
        $error("%m: MAX_READS must be in 1..16");
    end
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
end

// A frame's payload stays inside one aligned block of BLOCK_BYTES: a burst
// ends at the block's last word, a fetch or write check may not cross it.
localparam       BLK_LOG2 = (BLOCK_BYTES == 16) ? 4 : (BLOCK_BYTES == 32) ? 5 : 6;
localparam [31:0] BLK_WORDS = BLOCK_BYTES / 8;
localparam [31:0] BLK_BYTES = BLOCK_BYTES;
localparam [2:0]  BLK_WMAX  = BLK_WORDS[2:0] - 3'd1;   // word index mask inside a block
localparam [6:0]  BLK_LEN   = BLK_BYTES[6:0];

// ---------------------------------------------------------------- decode
wire [2:0]  req_win   = s_host_req_addr[46:44];
wire [3:0]  req_ctx   = s_host_req_addr[43:40];
wire [7:0]  req_node  = s_host_req_addr[39:32];
wire [31:0] req_paddr = s_host_req_addr[31:0];
// control window: [16] context pages, [15:12] page, [11:3] register
wire [16:0] req_off   = s_host_req_addr[16:0];
wire [3:0]  req_page  = req_off[15:12];
wire [8:0]  req_reg   = req_off[11:3];
wire        req_misaligned = (s_host_req_addr[2:0] != 3'd0);
wire        ctrl_high_bits = (s_host_req_addr[43:17] != 27'd0);

wire is_ctrl   = (req_win == `TG_WIN_CTRL);
wire is_remote = (req_win == `TG_WIN_REMOTE);
wire is_sync   = (req_win == `TG_WIN_SYNC);
wire is_reqwin = (req_win == `TG_WIN_REQ);
// atomic windows: a store sets the context's operand, a load runs the atomic
wire is_finc   = (req_win == `TG_WIN_FINC);
wire is_atomwin = (req_win == `TG_WIN_FAA) || (req_win == `TG_WIN_SWAP) ||
                  (req_win == `TG_WIN_CAS) || is_finc;
wire req_ctx_ok = ({1'b0, req_ctx} < NUM_CTX[4:0]);
wire is_burst  = (is_remote || is_reqwin) && s_host_req_write;   // beats that form frames
wire is_csr    = is_ctrl && !ctrl_high_bits && !req_off[16] && (req_page == 4'd0);
wire is_ctxpg  = is_ctrl && !ctrl_high_bits && req_off[16] &&
                 ({1'b0, req_page} < NUM_CTX[4:0]);
wire [3:0] pg_ctx = req_page;

// byte-enable expansion of the write strobes
function [63:0] strb_bits;
    input [7:0] strb;
    integer     b;
    begin
        for (b = 0; b < 8; b = b + 1) begin
            strb_bits[b*8 +: 8] = {8{strb[b]}};
        end
    end
endfunction
wire [63:0] wbits = strb_bits(s_host_req_wstrb);

// ---------------------------------------------------------------- state
// write burst being assembled
reg         bst_active_reg, bst_active_next;
reg         bst_req_reg,    bst_req_next;    // a REQ entry, not a remote write
reg [3:0]   bst_ctx_reg,    bst_ctx_next;
reg [7:0]   bst_node_reg,   bst_node_next;
reg [31:0]  bst_addr_reg,   bst_addr_next;   // address of the first word
reg [3:0]   bst_cnt_reg,    bst_cnt_next;    // words so far
reg [PAY_SLOT_W-1:0] bst_slot_reg, bst_slot_next; // request-buffer slot of its words
reg [15:0]  bst_num_reg,    bst_num_next;    // ... a REQ's number, taken at its first beat
reg [5:0]   bst_boff_reg,   bst_boff_next;   // its bytes: bcnt from boff
reg [6:0]   bst_bcnt_reg,   bst_bcnt_next;
// the burst's byte enables must be one run (the wire carries a first byte
// and a count): a byte enabled after the run ended refuses the burst
reg         bst_on_reg,     bst_on_next;     // the run has started
reg         bst_off_reg,    bst_off_next;    // ... and ended
reg         bst_bad_reg,    bst_bad_next;    // ... and a byte came after it: not sent
// an atomic's compare word, written into its slot the cycle after the
// operand (the write port is busy with it meanwhile)
reg         aw2_reg,        aw2_next;
reg [PAY_SLOT_W-1:0] aw2_slot_reg, aw2_slot_next;
reg [63:0]  aw2_data_reg,   aw2_data_next;
// FETCH_GO, WCHECK and ATOMIC_GO are checked in two cycles: the first
// computes the checks of the request at the port into go_st_reg (its
// context's addresses against the memory size: two carry chains), the
// second acts on them; the request holds at the port meanwhile, and so do
// the context's words (only this port writes them)
reg         gchk_reg,       gchk_next;       // go_st_reg is the request's
reg [7:0]   go_st_reg;                       // OK, or why the request is refused

// descriptor offered to the transmitter
reg         txd_valid_reg,  txd_valid_next;
reg [7:0]   txd_op_reg,     txd_op_next;
reg [15:0]  txd_dst_reg,    txd_dst_next;
reg [31:0]  txd_addr_reg,   txd_addr_next;
reg [5:0]   txd_off_reg,    txd_off_next;
reg [6:0]   txd_cnt_reg,    txd_cnt_next;
reg [7:0]   txd_len_reg,    txd_len_next;
reg [7:0]   txd_ctx_reg,    txd_ctx_next;
reg [15:0]  txd_tag_reg,    txd_tag_next;
reg [63:0]  txd_key_reg,    txd_key_next;
reg [1:0]   txd_src_reg,    txd_src_next;
reg [PAY_SLOT_W-1:0] txd_slot_reg, txd_slot_next;

// blocking read in flight
reg         rd_wait_reg,    rd_wait_next;
reg         rd_sync_reg,    rd_sync_next;    // a fence: answer is the status
reg [3:0]   rd_ctx_reg,     rd_ctx_next;
reg [15:0]  rd_node_reg,    rd_node_next;
reg [14:0]  rd_seq_reg,     rd_seq_next;     // tag of the read in flight

// host response
reg         resp_valid_reg, resp_valid_next;
reg [63:0]  resp_data_reg,  resp_data_next;

// per-context registers
// The status arrays have NUM_CTX rows (a context past them reads as zero
// and is never written). They are written by index through two ports,
// one per source, in this order (a later one wins on the same row): the
// blocking read's answer or timeout (r), the host request of the cycle (h).
reg [7:0]   ctx_status_reg [0:NUM_CTX-1];
reg [7:0]   ctx_last_reg   [0:NUM_CTX-1];   // status of the context's last blocking load
reg         str_we, sth_we;          // STATUS written ...
reg [3:0]   str_idx, sth_idx;
reg [7:0]   str_val, sth_val;
// REQ outcomes (REQ_STATE), NUM_CTX rows each: the number of the last REQ
// issued (written by the host port as a REQ leaves), the REQs finished
// (by a REQ's end, port e), and the first failure since cleared with the
// count of failures, {count, status, number} (port h clears it, then
// port e records a failure on it).
reg [15:0]  ctx_reqn_reg   [0:NUM_CTX-1];
reg [15:0]  ctx_reqd_reg   [0:NUM_CTX-1];
reg [31:0]  ctx_reqf_reg   [0:NUM_CTX-1];
reg         rqn_we;                  // a REQ of context rqn_idx leaves
reg [3:0]   rqn_idx;
reg [15:0]  rqn_val;
reg         rqf_clr;                 // REQ_STATE of context pg_ctx written
reg         lsr_we, lsh_we;          // LAST_STATUS written (ports r and h)
reg [3:0]   lsr_idx, lsh_idx;
reg [7:0]   lsr_val, lsh_val;
// A context's other registers are memories of NUM_CTX rows written by
// index, one row a cycle (a host store to its page, or to an atomic
// window for its operand), with no reset, so that they map to
// distributed RAM. A written bit per register and context says the row
// holds a value stored since the reset; until then the row reads as
// zero, as does a context past NUM_CTX.
localparam CW = (NUM_CTX > 1) ? $clog2(NUM_CTX) : 1;
reg [31:0]  ctx_laddr_mem  [0:NUM_CTX-1];
reg [31:0]  ctx_cpl_mem    [0:NUM_CTX-1];
reg [63:0]  ctx_operand_mem[0:NUM_CTX-1];
reg [63:0]  ctx_compare_mem[0:NUM_CTX-1];
reg [63:0]  ctx_key_mem    [0:NUM_CTX-1];   // key carried by the context's requests
reg [NUM_CTX-1:0] cw_laddr_reg,   cw_laddr_next;     // the written bits
reg [NUM_CTX-1:0] cw_cpl_reg,     cw_cpl_next;
reg [NUM_CTX-1:0] cw_operand_reg, cw_operand_next;
reg [NUM_CTX-1:0] cw_compare_reg, cw_compare_next;
reg [NUM_CTX-1:0] cw_key_reg,     cw_key_next;
// the context row written this cycle, and which of its registers
reg [3:0]   ctxw_idx;
reg [63:0]  ctxw_data;
reg         ctxw_laddr, ctxw_cpl, ctxw_operand, ctxw_compare, ctxw_key;

// fetch table (entries past MAX_READS are never allocated and stay zero)
reg [15:0]  ft_valid_reg;
reg [15:0]  ft_late_reg;    // overdue: completed with PEER_GONE, answer ignored
// An entry's request (node, local address, completion word, the bytes it asked for)
// is an array of MAX_READS rows, written by index when the entry is
// allocated; an index past MAX_READS reads as zeros.
localparam FW = (MAX_READS > 1) ? $clog2(MAX_READS) : 1;
reg [15:0]  ft_node_mem  [0:MAX_READS-1];
reg [31:0]  ft_laddr_mem [0:MAX_READS-1];
reg [31:0]  ft_cpl_mem   [0:MAX_READS-1];
reg [5:0]   ft_off_mem   [0:MAX_READS-1];
reg [6:0]   ft_cnt_mem   [0:MAX_READS-1];
// the entry allocated this cycle (at ft_free_idx), and its request
reg         ftw_en;
reg [31:0]  ftw_laddr;
reg [5:0]   ftw_off;
reg [6:0]   ftw_cnt;

// Read timeouts (cfg_read_timeout, taken when the request goes out; see
// tg_timeout): entry MAX_READS is the blocking read, the others the fetch
// entries
/* verilator lint_off UNUSEDSIGNAL */ // the blocking read's from to_over, the entries' from to_over_next
wire [MAX_READS:0] to_over, to_over_next;
/* verilator lint_on UNUSEDSIGNAL */
wire               rd_over = to_over[MAX_READS];   // the blocking read is overdue

// ---------------------------------------------------------------- outputs
assign m_host_resp_valid = resp_valid_reg;
assign st_idle = !bst_active_reg && !aw2_reg && !gchk_reg && !txd_valid_reg && !rd_wait_reg &&
                 !resp_valid_reg && (ft_valid_reg == 16'd0) && (ft_late_reg == 16'd0);
assign m_host_resp_rdata = resp_data_reg;

assign m_txd_valid   = txd_valid_reg;
assign m_txd_op      = txd_op_reg;
assign m_txd_dst     = txd_dst_reg;
assign m_txd_addr    = txd_addr_reg;
assign m_txd_off     = txd_off_reg;
assign m_txd_cnt     = txd_cnt_reg;
assign m_txd_len     = txd_len_reg;
assign m_txd_ctx     = txd_ctx_reg;
assign m_txd_tag     = txd_tag_reg;
assign m_txd_key     = txd_key_reg;
assign m_txd_pay_src  = txd_src_reg;
assign m_txd_pay_slot = txd_slot_reg;

assign csr_addr  = req_off[11:0];
assign csr_wdata = s_host_req_wdata;

wire          fl_ok  = ({1'b0, fetch_lookup_idx} < MAX_READS[4:0]);
wire [FW-1:0] fl_row = fetch_lookup_idx[FW-1:0];
assign fetch_lookup_valid = ft_valid_reg[fetch_lookup_idx] && !ft_late_reg[fetch_lookup_idx];
assign fetch_lookup_node  = fl_ok ? ft_node_mem[fl_row]  : 16'd0;
assign fetch_lookup_laddr = fl_ok ? ft_laddr_mem[fl_row] : 32'd0;
assign fetch_lookup_cpl   = fl_ok ? ft_cpl_mem[fl_row]   : 32'd0;
assign fetch_lookup_off   = fl_ok ? ft_off_mem[fl_row]   : 6'd0;
assign fetch_lookup_cnt   = fl_ok ? ft_cnt_mem[fl_row]   : 7'd0;

// a context's registers as its page (pg_ctx) and its windows (req_ctx)
// read them
wire          pg_ok   = ({1'b0, pg_ctx} < NUM_CTX[4:0]);
wire [CW-1:0] pg_row  = pg_ctx[CW-1:0];
wire [CW-1:0] req_row = req_ctx[CW-1:0];
wire [31:0]   pg_laddr   = (pg_ok && cw_laddr_reg[pg_row])   ? ctx_laddr_mem[pg_row]   : 32'd0;
wire [31:0]   pg_cpl     = (pg_ok && cw_cpl_reg[pg_row])     ? ctx_cpl_mem[pg_row]     : 32'd0;
wire [63:0]   pg_operand = (pg_ok && cw_operand_reg[pg_row]) ? ctx_operand_mem[pg_row] : 64'd0;
wire [63:0]   pg_compare = (pg_ok && cw_compare_reg[pg_row]) ? ctx_compare_mem[pg_row] : 64'd0;
wire [63:0]   pg_key     = (pg_ok && cw_key_reg[pg_row])     ? ctx_key_mem[pg_row]     : 64'd0;
wire [63:0]   req_operand = (req_ctx_ok && cw_operand_reg[req_row]) ? ctx_operand_mem[req_row] : 64'd0;
wire [63:0]   req_compare = (req_ctx_ok && cw_compare_reg[req_row]) ? ctx_compare_mem[req_row] : 64'd0;

// ---------------------------------------------------------------- fetch decode
// FETCH_GO and WCHECK data: [31:0] remote paddr, [47:32] node, [55:48] length
wire [31:0] go_paddr = s_host_req_wdata[31:0];
wire [15:0] go_node  = s_host_req_wdata[47:32];
wire [7:0]  go_len   = s_host_req_wdata[55:48];
wire [31:0] go_laddr = pg_laddr;
wire [31:0] go_cpl   = pg_cpl;
wire [6:0]  go_blk_end   = {1'b0, go_paddr[5:0] & {BLK_WMAX, 3'b111}} + go_len[6:0];
wire        go_bad_len   = (go_len == 8'd0) || (go_len > {1'b0, BLK_LEN});
wire        go_bad_align = (go_blk_end > BLK_LEN) || (go_paddr[2:0] != go_laddr[2:0]) ||
                           (go_cpl[2:0] != 3'd0);
// the local bytes a FETCH_GO fills (its length) or an ATOMIC_GO (the old
// value's word) end at go_lend: one adder and one compare for both
wire        go_atomic    = (req_reg == `TG_CTX_REG_ATOMIC_GO / 8);
wire [7:0]  go_llen      = go_atomic ? 8'd8 : go_len;
wire [32:0] go_lend      = {1'b0, go_laddr} + {25'd0, go_llen};
wire [32:0] go_cend      = {1'b0, go_cpl} + 33'd8;
wire        go_bad_range = (go_lend > {1'b0, cfg_mem_size}) || (go_cend > {1'b0, cfg_mem_size});
/* verilator lint_off UNUSEDSIGNAL */ // go_span[2:0]: only the word count is used
wire [6:0]  go_span      = {4'd0, go_paddr[2:0]} + go_len[6:0] + 7'd7;
/* verilator lint_on UNUSEDSIGNAL */
wire [3:0]  go_words     = go_span[6:3];
// payload byte i of the response is wanted when lo <= i < lo + len
wire [5:0]  go_lo        = {3'd0, go_paddr[2:0]};

// The lowest-numbered overdue fetch, offered from registers: the entries
// that are valid, not late and overdue after this edge (ft_over_next), so
// that the receive engine's decision does not start inside this block.
wire [MAX_READS-1:0] ft_over_next;
reg [15:0] ft_valid_next, ft_late_next;
reg        fto_found_reg, fto_found_next;
reg [3:0]  fto_idx_reg,   fto_idx_next;
integer    ti;
always @* begin
    fto_found_next = 1'b0;
    fto_idx_next   = 4'd0;
    for (ti = MAX_READS - 1; ti >= 0; ti = ti - 1) begin
        if (ft_valid_next[ti] && !ft_late_next[ti] && ft_over_next[ti]) begin
            fto_found_next = 1'b1;
            fto_idx_next   = ti[3:0];
        end
    end
end
assign m_fto_valid = fto_found_reg;
assign m_fto_idx   = fto_idx_reg;

// ATOMIC_GO data: [31:0] remote paddr, [47:32] node, [57:56] function;
// the old value goes to FETCH_LADDR (8 bytes), then the completion word
wire [1:0]  ago_fn       = s_host_req_wdata[57:56];
wire        ago_bad_fn   = (ago_fn != `TG_AOP_FAA) && (ago_fn != `TG_AOP_SWAP) &&
                           (ago_fn != `TG_AOP_CAS);
wire        ago_bad_align = (go_paddr[2:0] != 3'd0) || (go_laddr[2:0] != 3'd0) ||
                            (go_cpl[2:0] != 3'd0);
wire [7:0]  ago_op       = (ago_fn == `TG_AOP_FAA)  ? `TG_OP_FAA :
                           (ago_fn == `TG_AOP_SWAP) ? `TG_OP_SWAP : `TG_OP_CAS;
// the checks of a FETCH_GO, WCHECK or ATOMIC_GO at the port (go_st_reg
// a cycle later)
wire [7:0]  go_st = (req_reg == `TG_CTX_REG_FETCH_GO / 8) ?
                        ((go_bad_len || go_bad_align || go_bad_range) ?
                             (go_bad_range ? `TG_ST_RANGE : `TG_ST_MISALIGNED) : `TG_ST_OK) :
                    (req_reg == `TG_CTX_REG_WCHECK / 8) ?
                        ((go_bad_len || go_blk_end > BLK_LEN) ? `TG_ST_MISALIGNED : `TG_ST_OK) :
                        ((ago_bad_fn || ago_bad_align || go_bad_range) ?
                             (ago_bad_fn ? `TG_ST_BAD_OP : go_bad_range ? `TG_ST_RANGE : `TG_ST_MISALIGNED) :
                             `TG_ST_OK);
wire        is_go = is_ctxpg && s_host_req_write &&
                    (req_reg == `TG_CTX_REG_FETCH_GO / 8 || req_reg == `TG_CTX_REG_WCHECK / 8 ||
                     req_reg == `TG_CTX_REG_ATOMIC_GO / 8);

// a blocking atomic from a window load
wire [7:0]   win_aop     = (req_win == `TG_WIN_SWAP) ? `TG_OP_SWAP :
                           (req_win == `TG_WIN_CAS)  ? `TG_OP_CAS  : `TG_OP_FAA;
wire [63:0]  win_operand = is_finc ? 64'd1 : req_operand;

// first free fetch-table entry
reg        ft_free_found;
reg [3:0]  ft_free_idx;
integer    fi;
always @* begin
    ft_free_found = 1'b0;
    ft_free_idx   = 4'd0;
    for (fi = MAX_READS - 1; fi >= 0; fi = fi - 1) begin
        if (!ft_valid_reg[fi]) begin
            ft_free_found = 1'b1;
            ft_free_idx   = fi[3:0];
        end
    end
end

// ---------------------------------------------------------------- request path
// a beat's byte enables: the lowest enabled byte, and how many
reg [2:0] strb_low;
reg [3:0] strb_pop;
integer   sb;
always @* begin
    strb_low = 3'd0;
    strb_pop = 4'd0;
    for (sb = 7; sb >= 0; sb = sb - 1) begin
        if (s_host_req_wstrb[sb]) begin
            strb_low = sb[2:0];
        end
    end
    for (sb = 0; sb < 8; sb = sb + 1) begin
        strb_pop = strb_pop + {3'd0, s_host_req_wstrb[sb]};
    end
end

`ifdef TG_TESTBUG_007
wire bst_continues = bst_active_reg && is_burst && (is_reqwin == bst_req_reg) && !req_misaligned &&
                     (req_node == bst_node_reg) &&   // deliberate bug: any context joins the burst
`else
wire bst_continues = bst_active_reg && is_burst && (is_reqwin == bst_req_reg) && !req_misaligned &&
                     (req_ctx == bst_ctx_reg) && (req_node == bst_node_reg) &&
`endif
                     (req_paddr[31:BLK_LOG2] == bst_addr_reg[31:BLK_LOG2]) &&
                     ({1'b0, req_paddr[5:3]} == {1'b0, bst_addr_reg[5:3]} + bst_cnt_reg);
wire        rd_ok      = ({1'b0, s_reqdone_ctx} < NUM_CTX[4:0]);
wire [15:0] reqd_cur   = rd_ok ? ctx_reqd_reg[s_reqdone_ctx[CW-1:0]] : 16'd0;
wire [31:0] reqf_cur   = rd_ok ? ctx_reqf_reg[s_reqdone_ctx[CW-1:0]] : 32'd0;
// a failure recorded on the failure word (cleared first if the host
// port clears it in the same cycle): the first one's number and status
// stay, the count goes up to 255
wire [31:0] reqf_base  = (rqf_clr && pg_ctx == s_reqdone_ctx) ? 32'd0 : reqf_cur;
wire [31:0] reqf_failed = {(reqf_base[31:24] == 8'hFF) ? 8'hFF : reqf_base[31:24] + 8'd1,
                           (reqf_base[23:16] == `TG_ST_OK) ? {s_reqdone_status, s_reqdone_num} : reqf_base[23:0]};
wire [63:0] reqst_pg   = pg_ok ? {ctx_reqf_reg[pg_row], ctx_reqd_reg[pg_row], ctx_reqn_reg[pg_row]} : 64'd0;
// the number the next REQ of the context at the port leaves with (a
// burst keeps the one of its first beat: no other REQ of its context
// leaves before it)
wire [15:0] reqn_req   = req_ctx_ok ? ctx_reqn_reg[req_row] + 16'd1 : 16'd0;
wire [7:0] st_peer_gone = `TG_ST_PEER_GONE;
wire txd_free  = !txd_valid_reg;
wire resp_free = !resp_valid_reg;

// Offer one descriptor to the transmitter (the caller checked txd_free).
task send_txd;
    input [7:0]   op;
    input [15:0]  dst;
    input [31:0]  addr;
    input [5:0]   off;     // the bytes written or asked for: cnt from off
    input [6:0]   cnt;
    input [7:0]   len;
    input [7:0]   ctx;
    input [15:0]  tag;
    input [1:0]   src;     // TG_PAY_REQ: the payload is in request-buffer slot slot
    input [PAY_SLOT_W-1:0] slot;
    begin
        txd_valid_next = 1'b1;
        txd_op_next    = op;
        txd_dst_next   = dst;
        txd_addr_next  = addr;
        txd_off_next   = off;
        txd_cnt_next   = cnt;
        txd_len_next   = len;
        txd_ctx_next   = ctx;
        txd_tag_next   = tag;
        txd_load       = 1'b1;   // the key of context ctx follows (below)
        txd_src_next   = src;
        txd_slot_next  = slot;
        // the slot is taken as the descriptor is loaded: the wire's hold,
        // and a REQ's until its answer
        m_pay_take_valid = (src != `TG_PAY_NONE);
        m_pay_take_slot  = slot;
        m_pay_take_mask  = (op == `TG_OP_REQ) ? 2'd`TG_PAY_HOLD_WIRE | 2'd`TG_PAY_HOLD_REQ :
                                                2'd`TG_PAY_HOLD_WIRE;
    end
endtask

// Offer a burst's WRITE, or its REQ, which takes the next number of its
// context's REQs (num) as its tag.
task send_data;
    input         req;
    input [7:0]   node;
    input [31:0]  addr;
    input [5:0]   off;
    input [6:0]   cnt;
    input [3:0]   words;
    input [3:0]   ctx;
    input [15:0]  num;
    input [PAY_SLOT_W-1:0] slot;
    begin
        send_txd(req ? `TG_OP_REQ : `TG_OP_WRITE, {8'd0, node}, addr, off, cnt, {1'b0, words, 3'd0},
                 {4'd0, ctx}, req ? num : 16'd0, `TG_PAY_REQ, slot);
        if (req) begin
            rqn_we  = 1'b1;
            rqn_idx = ctx;
            rqn_val = num;
        end
    end
endtask

// Send the burst being assembled (a refused one is dropped: its failure
// was noted as its bad beat came).
task send_burst;
    begin
        if (!bst_bad_reg) begin
            send_data(bst_req_reg, bst_node_reg, bst_addr_reg, bst_boff_reg, bst_bcnt_reg, bst_cnt_reg,
                      bst_ctx_reg, bst_num_reg, bst_slot_reg);
        end
        bst_active_next = 1'b0;
    end
endtask

// One beat's byte enables after the burst's run so far: {on, off, bad}.
function [2:0] run_step;
    input       on;
    input       off;
    input       bad;
    input [7:0] strb;
    integer     b;
    reg         o, x, e;
    begin
        o = on;
        x = off;
        e = bad;
        for (b = 0; b < 8; b = b + 1) begin
            if (strb[b]) begin
                e = e || x;
                o = 1'b1;
            end else begin
                x = x || o;
            end
        end
        run_step = {o, x, e};
    end
endfunction

// An atomic's payload into the slot just taken: the operand (word 0)
// now, the compare value (word 1) next cycle, before any reader can get
// to it (tg_eth_tx reads word 1 no sooner than 8 cycles after it takes
// the descriptor).
task write_atomic;
    input [63:0] operand;
    input [63:0] compare;
    begin
        m_pay_we      = 1'b1;
        m_pay_wr_slot = s_pay_alloc_slot;
        m_pay_wr_word = 3'd0;
        m_pay_wr_data = operand;
        aw2_next      = 1'b1;
        aw2_slot_next = s_pay_alloc_slot;
        aw2_data_next = compare;
    end
endtask

// The status words the next state reads, each at the one context it
// reads them for (read here, outside the block, so that an event-driven
// simulator sees the block depend on the arrays)
wire [7:0] st_rd_cur   = ({1'b0, rd_ctx_reg} < NUM_CTX[4:0]) ? ctx_status_reg[rd_ctx_reg[CW-1:0]] : 8'd0;
wire [7:0] st_req_cur  = req_ctx_ok ? ctx_status_reg[req_row] : 8'd0;
wire [7:0] st_pg_cur   = pg_ok      ? ctx_status_reg[pg_row]  : 8'd0;
wire [7:0] last_pg_cur = pg_ok      ? ctx_last_reg[pg_row]    : 8'd0;

// Write context c's STATUS (the host request's port).
task set_status;
    input [3:0] ctx;
    input [7:0] status;
    begin
        sth_we  = 1'b1;
        sth_idx = ctx;
        sth_val = status;
    end
endtask

// Record a failure in context c's STATUS (whose word is cur), unless an
// earlier one is there.
task note_failure;
    input [3:0] ctx;
    input [7:0] cur;
    input [7:0] status;
    begin
        if (cur == `TG_ST_OK) begin
            set_status(ctx, status);
        end
    end
endtask

// Set context c's LAST_STATUS (the host request's port).
task note_last;
    input [3:0] ctx;
    input [7:0] status;
    begin
        lsh_we  = 1'b1;
        lsh_idx = ctx;
        lsh_val = status;
    end
endtask

integer c, f;

always @* begin
    s_host_req_ready = 1'b0;
    csr_wr_en        = 1'b0;
    ev_host_error    = 1'b0;
    ev_host_req      = 1'b0;
    ev_host_resp     = 1'b0;
    ev_stray         = 1'b0;

    bst_active_next = bst_active_reg;
    bst_req_next    = bst_req_reg;
    bst_ctx_next    = bst_ctx_reg;
    bst_node_next   = bst_node_reg;
    bst_addr_next   = bst_addr_reg;
    bst_cnt_next    = bst_cnt_reg;
    bst_num_next    = bst_num_reg;
    bst_slot_next   = bst_slot_reg;
    bst_boff_next   = bst_boff_reg;
    bst_bcnt_next   = bst_bcnt_reg;
    bst_on_next     = bst_on_reg;
    bst_off_next    = bst_off_reg;
    bst_bad_next    = bst_bad_reg;

    txd_valid_next = txd_valid_reg;
    txd_op_next    = txd_op_reg;
    txd_dst_next   = txd_dst_reg;
    txd_addr_next  = txd_addr_reg;
    txd_off_next   = txd_off_reg;
    txd_cnt_next   = txd_cnt_reg;
    txd_len_next   = txd_len_reg;
    txd_ctx_next   = txd_ctx_reg;
    txd_tag_next   = txd_tag_reg;
    txd_load       = 1'b0;
    txd_src_next   = txd_src_reg;
    txd_slot_next  = txd_slot_reg;
    m_pay_take_valid = 1'b0;
    m_pay_take_slot  = txd_slot_reg;
    m_pay_take_mask  = 2'd`TG_PAY_HOLD_WIRE;
    // the write port: a burst's beat, an atomic's operand, or the compare
    // word of the atomic offered last cycle
    m_pay_we      = aw2_reg;
    m_pay_wr_slot = aw2_slot_reg;
    m_pay_wr_word = 3'd1;
    m_pay_wr_data = aw2_data_reg;
    aw2_next      = 1'b0;
    gchk_next     = 1'b0;
    aw2_slot_next = aw2_slot_reg;
    aw2_data_next = aw2_data_reg;

    rd_wait_next = rd_wait_reg;
    rd_sync_next = rd_sync_reg;
    rd_ctx_next  = rd_ctx_reg;
    rd_node_next = rd_node_reg;
    rd_seq_next  = rd_seq_reg;

    resp_valid_next = resp_valid_reg;
    resp_data_next  = resp_data_reg;

    rqn_we  = 1'b0;
    rqn_idx = req_ctx;
    rqn_val = reqn_req;
    rqf_clr = 1'b0;
    str_we  = 1'b0;
    str_idx = rd_ctx_reg;
    str_val = s_hrd_status;
    sth_we  = 1'b0;
    sth_idx = pg_ctx;
    sth_val = `TG_ST_OK;
    lsr_we  = 1'b0;
    lsr_idx = rd_ctx_reg;
    lsr_val = s_hrd_status;
    lsh_we  = 1'b0;
    lsh_idx = req_ctx;
    lsh_val = `TG_ST_OK;
    ctxw_idx     = pg_ctx;
    ctxw_data    = s_host_req_wdata;
    ctxw_laddr   = 1'b0;
    ctxw_cpl     = 1'b0;
    ctxw_operand = 1'b0;
    ctxw_compare = 1'b0;
    ctxw_key     = 1'b0;
    ftw_en       = 1'b0;
    ftw_laddr    = go_laddr;
    ftw_off      = go_lo;
    ftw_cnt      = go_len[6:0];
    ft_valid_next = ft_valid_reg;
    ft_late_next  = ft_late_reg;
    if (m_fto_valid && m_fto_ready) begin
        ft_late_next[fto_idx_reg] = 1'b1;
    end

    // transmitter took the descriptor
    if (txd_valid_reg && m_txd_ready) begin
        txd_valid_next = 1'b0;
    end
    // host took the response
    if (resp_valid_reg && m_host_resp_ready) begin
        resp_valid_next = 1'b0;
    end
    // receive engine finished with a fetch
    if (fetch_free_valid) begin
        ft_valid_next[fetch_free_idx] = 1'b0;
        ft_late_next[fetch_free_idx]  = 1'b0;
    end

    // a REQ finished for good: REQ_STATE, below
    // answer to the blocking read in flight
    if (s_hrd_valid) begin
        if (rd_wait_reg && (s_hrd_tag == {1'b0, rd_seq_reg}) && (s_hrd_src == rd_node_reg)) begin
            rd_wait_next    = 1'b0;
            rd_seq_next     = rd_seq_reg + 15'd1;
            resp_valid_next = 1'b1;
            ev_host_resp    = 1'b1;
            if (rd_sync_reg) begin
                resp_data_next = {56'd0, s_hrd_status};
            end else if (s_hrd_status == `TG_ST_OK) begin
                resp_data_next = s_hrd_data;
            end else begin
                resp_data_next = {64{1'b1}};
            end
            lsr_we = 1'b1;
            str_we = s_hrd_status != `TG_ST_OK && st_rd_cur == `TG_ST_OK;
        end else begin
            ev_stray = 1'b1;
        end
    end else if (rd_wait_reg && rd_over) begin
        // no answer: fail the read; a late answer will not match the tag
        rd_wait_next    = 1'b0;
        rd_seq_next     = rd_seq_reg + 15'd1;
        resp_valid_next = 1'b1;
        ev_host_resp    = 1'b1;
        resp_data_next  = rd_sync_reg ? {56'd0, st_peer_gone} : {64{1'b1}};
        lsr_we  = 1'b1;
        lsr_val = `TG_ST_PEER_GONE;
        str_we  = st_rd_cur == `TG_ST_OK;
        str_val = `TG_ST_PEER_GONE;
    end

    if (s_host_req_valid) begin
        if (bst_active_reg && !bst_continues) begin
            // any other request first sends the burst being assembled
            if (txd_free) begin
                send_burst;
            end
        end else if (req_misaligned) begin
            // refused: not an 8-byte aligned beat
            if (s_host_req_write || resp_free && !rd_wait_reg) begin
                s_host_req_ready = 1'b1;
                ev_host_error    = 1'b1;
                if (!s_host_req_write) begin
                    resp_valid_next = 1'b1;
                    resp_data_next  = {64{1'b1}};
                end
                if (!is_ctrl && req_ctx_ok) begin
                    note_failure(req_ctx, st_req_cur, `TG_ST_MISALIGNED);
                end
                if (!is_ctrl && req_ctx_ok && !s_host_req_write) begin
                    note_last(req_ctx, `TG_ST_MISALIGNED);
                end
            end
        end else if (is_burst) begin
            // one beat of a write or REQ burst, written into the burst's
            // request-buffer slot (a free one for its first beat); the
            // last beat sends the frame
            if ((!s_host_req_last || txd_free) && !aw2_reg && (bst_active_reg || s_pay_alloc_valid)) begin
                s_host_req_ready = 1'b1;
                if (!bst_active_reg) begin
                    ev_host_req = 1'b1;
                end
                begin : append
                    reg [5:0]   boff;
                    reg [6:0]   bcnt;
                    reg [3:0]   cnt;
                    reg [31:0]  first;
                    reg [PAY_SLOT_W-1:0] slot;
                    reg [15:0]  num;
                    reg [2:0]   run;
                    if (bst_active_reg) begin
                        boff  = bst_boff_reg;
                        bcnt  = bst_bcnt_reg;
                        cnt   = bst_cnt_reg;
                        first = bst_addr_reg;
                        slot  = bst_slot_reg;
                        num   = bst_num_reg;
                        run   = run_step(bst_on_reg, bst_off_reg, bst_bad_reg, s_host_req_wstrb);
                    end else begin
                        boff  = 6'd0;
                        bcnt  = 7'd0;
                        cnt   = 4'd0;
                        first = req_paddr;
                        slot  = s_pay_alloc_slot;
                        num   = reqn_req;
                        run   = run_step(1'b0, 1'b0, 1'b0, s_host_req_wstrb);
                    end
                    // the beat that breaks the run refuses the burst
                    if (run[0] && !(bst_active_reg && bst_bad_reg)) begin
                        ev_host_error = 1'b1;
                        note_failure(req_ctx, st_req_cur, `TG_ST_MISALIGNED);
                    end
                    // the beat goes to word cnt; its enabled bytes extend
                    // the run (its first byte is the run's start when none
                    // came before)
                    m_pay_we      = 1'b1;
                    m_pay_wr_slot = slot;
                    m_pay_wr_word = cnt[2:0];
                    m_pay_wr_data = s_host_req_wdata & wbits;
                    if (!(bst_active_reg && bst_on_reg) && s_host_req_wstrb != 8'd0) begin
                        boff = {cnt[2:0], strb_low};
                    end
                    bcnt = bcnt + {3'd0, strb_pop};
                    cnt = cnt + 4'd1;
                    if (s_host_req_last || (((first[5:3] + cnt[2:0]) & BLK_WMAX) == 3'd0)) begin
                        if (run[0]) begin
                            bst_active_next = 1'b0;
                        end else if (txd_free) begin
                            send_data(is_reqwin, req_node, first, boff, bcnt, cnt, req_ctx, num, slot);
                            bst_active_next = 1'b0;
                        end else begin
                            // block full but the transmitter is busy: keep it
                            bst_active_next = 1'b1;
                        end
                    end else begin
                        bst_active_next = 1'b1;
                    end
                    bst_req_next  = is_reqwin;
                    bst_ctx_next  = req_ctx;
                    bst_node_next = req_node;
                    bst_addr_next = first;
                    bst_cnt_next  = cnt;
                    bst_slot_next = slot;
                    bst_num_next  = num;
                    bst_boff_next = boff;
                    bst_bcnt_next = bcnt;
                    bst_on_next   = run[2];
                    bst_off_next  = run[1];
                    bst_bad_next  = run[0];
                end
            end
        end else if (is_atomwin && req_ctx_ok && s_host_req_write && !is_finc) begin
            // a store to an atomic window sets the operand of its context
            s_host_req_ready = 1'b1;
            if (s_host_req_wstrb == 8'hFF) begin
                ctxw_idx     = req_ctx;
                ctxw_operand = 1'b1;
            end else begin
                ev_host_error = 1'b1;
                note_failure(req_ctx, st_req_cur, `TG_ST_MISALIGNED);
            end
        end else if ((is_remote || is_sync || is_atomwin && req_ctx_ok) && !s_host_req_write) begin
            // blocking load: a remote read, a fence (a read of nothing) or
            // an atomic (the old value; its operand and compare go into a
            // request-buffer slot)
            if (txd_free && resp_free && !rd_wait_reg && (!is_atomwin || s_pay_alloc_valid && !aw2_reg)) begin
                s_host_req_ready = 1'b1;
                ev_host_req      = 1'b1;
                if (is_atomwin) begin
                    send_txd(win_aop, {8'd0, req_node}, req_paddr, 6'd0, 7'd8,
                             8'd`TG_ATOMIC_LEN, {4'd0, req_ctx}, {1'b0, rd_seq_reg},
                             `TG_PAY_REQ, s_pay_alloc_slot);
                    write_atomic(win_operand, req_compare);
                end else begin
                    send_txd(`TG_OP_READ_REQ, {8'd0, req_node}, is_sync ? 32'd0 : req_paddr,
                             6'd0, is_sync ? 7'd0 : 7'd8, is_sync ? 8'd0 : 8'd8,
                             {4'd0, req_ctx}, {1'b0, rd_seq_reg}, `TG_PAY_NONE, {PAY_SLOT_W{1'b0}});
                end
                rd_wait_next     = 1'b1;
                rd_sync_next     = is_sync;
                rd_ctx_next      = req_ctx;
                rd_node_next     = {8'd0, req_node};
            end
        end else if (is_csr) begin
            if (s_host_req_write) begin
                s_host_req_ready = 1'b1;
                csr_wr_en        = (s_host_req_wstrb == 8'hFF);
            end else if (resp_free && !rd_wait_reg) begin
                s_host_req_ready = 1'b1;
                resp_valid_next  = 1'b1;
                resp_data_next   = csr_rdata;
            end
        end else if (is_ctxpg) begin
            if (s_host_req_write) begin
                if (is_go && !gchk_reg) begin
                    // first cycle: the checks go into go_st_reg
                    gchk_next = 1'b1;
                end else if (req_reg == `TG_CTX_REG_FETCH_GO / 8) begin
                    gchk_next = 1'b1;                   // (until taken)
                    if (go_st_reg != `TG_ST_OK) begin
                        s_host_req_ready = 1'b1;
                        ev_host_error    = 1'b1;
                        note_failure(pg_ctx, st_pg_cur, go_st_reg);
                    end else if (txd_free && ft_free_found) begin
                        s_host_req_ready = 1'b1;
                        ev_host_req      = 1'b1;
                        send_txd(`TG_OP_READ_REQ, go_node, {go_paddr[31:3], 3'd0}, go_lo, go_len[6:0],
                                 {1'b0, go_words, 3'd0}, {4'd0, pg_ctx},
                                 `TG_TAG_FETCH | {12'd0, ft_free_idx}, `TG_PAY_NONE, {PAY_SLOT_W{1'b0}});
                        ft_valid_next[ft_free_idx] = 1'b1;
                        ftw_en    = 1'b1;
                        ftw_laddr = {go_laddr[31:3], 3'd0};
                    end
                end else if (req_reg == `TG_CTX_REG_WCHECK / 8) begin
                    // a write of no bytes over the words of the range: the
                    // target checks it like any write, and a refusal stops
                    // this context's later writes there until its fence
                    gchk_next = 1'b1;
                    if (go_st_reg != `TG_ST_OK) begin
                        s_host_req_ready = 1'b1;
                        ev_host_error    = 1'b1;
                        note_failure(pg_ctx, st_pg_cur, go_st_reg);
                    end else if (txd_free) begin
                        s_host_req_ready = 1'b1;
                        ev_host_req      = 1'b1;
                        send_txd(`TG_OP_WRITE, go_node, {go_paddr[31:3], 3'd0}, 6'd0, 7'd0,
                                 {1'b0, go_words, 3'd0}, {4'd0, pg_ctx}, 16'd0, `TG_PAY_NONE,
                                 {PAY_SLOT_W{1'b0}});
                    end
                end else if (req_reg == `TG_CTX_REG_ATOMIC_GO / 8) begin
                    gchk_next = 1'b1;
                    if (go_st_reg != `TG_ST_OK) begin
                        s_host_req_ready = 1'b1;
                        ev_host_error    = 1'b1;
                        note_failure(pg_ctx, st_pg_cur, go_st_reg);
                    end else if (txd_free && ft_free_found && s_pay_alloc_valid && !aw2_reg) begin
                        s_host_req_ready = 1'b1;
                        ev_host_req      = 1'b1;
                        send_txd(ago_op, go_node, go_paddr, 6'd0, 7'd8, 8'd`TG_ATOMIC_LEN,
                                 {4'd0, pg_ctx}, `TG_TAG_FETCH | {12'd0, ft_free_idx},
                                 `TG_PAY_REQ, s_pay_alloc_slot);
                        write_atomic(pg_operand, pg_compare);
                        ft_valid_next[ft_free_idx] = 1'b1;
                        ftw_en    = 1'b1;
                        ftw_off   = 6'd0;
                        ftw_cnt   = 7'd8;
                    end
                end else begin
                    s_host_req_ready = 1'b1;
                    case (req_reg)
                        `TG_CTX_REG_STATUS / 8:      set_status(pg_ctx, `TG_ST_OK);
                        `TG_CTX_REG_FETCH_LADDR / 8: ctxw_laddr   = 1'b1;
                        `TG_CTX_REG_FETCH_CPL / 8:   ctxw_cpl     = 1'b1;
                        `TG_CTX_REG_OPERAND / 8:     ctxw_operand = 1'b1;
                        `TG_CTX_REG_COMPARE / 8:     ctxw_compare = 1'b1;
                        `TG_CTX_REG_KEY / 8:         ctxw_key     = 1'b1;
                        `TG_CTX_REG_REQ_STATE / 8:   rqf_clr      = pg_ok;
                        default:                     ev_host_error = 1'b1;
                    endcase
                end
            end else if (resp_free && !rd_wait_reg) begin
                s_host_req_ready = 1'b1;
                resp_valid_next  = 1'b1;
                case (req_reg)
                    `TG_CTX_REG_STATUS / 8:      resp_data_next = {56'd0, st_pg_cur};
                    `TG_CTX_REG_FETCH_LADDR / 8: resp_data_next = {32'd0, pg_laddr};
                    `TG_CTX_REG_FETCH_CPL / 8:   resp_data_next = {32'd0, pg_cpl};
                    `TG_CTX_REG_OPERAND / 8:     resp_data_next = pg_operand;
                    `TG_CTX_REG_COMPARE / 8:     resp_data_next = pg_compare;
                    `TG_CTX_REG_LAST_STATUS / 8: resp_data_next = {56'd0, last_pg_cur};
                    `TG_CTX_REG_KEY / 8:         resp_data_next = pg_key;
                    `TG_CTX_REG_REQ_STATE / 8:   resp_data_next = reqst_pg;
                    default:                     resp_data_next = 64'd0;
                endcase
            end
        end else begin
            // unmapped control address, or a window this core does not serve
            if (s_host_req_write || resp_free && !rd_wait_reg) begin
                s_host_req_ready = 1'b1;
                ev_host_error    = 1'b1;
                if (!s_host_req_write) begin
                    resp_valid_next = 1'b1;
                    resp_data_next  = {64{1'b1}};
                end
                if (!is_ctrl && req_ctx_ok) begin
                    note_failure(req_ctx, st_req_cur, `TG_ST_BAD_OP);
                end
                if (!is_ctrl && req_ctx_ok && !s_host_req_write) begin
                    note_last(req_ctx, `TG_ST_BAD_OP);
                end
            end
        end
    end else if (bst_active_reg && txd_free && (((bst_addr_reg[5:3] + bst_cnt_reg[2:0]) & BLK_WMAX) == 3'd0)) begin
        // a full block left waiting for the transmitter
        send_burst;
    end
`ifndef TG_TESTBUG_012
    // (deliberate bug when defined: the checks made for a request outlive
    // its take, and a GO right behind it is acted on with them)
    if (s_host_req_ready) begin
        gchk_next = 1'b0;                          // the next request is checked afresh
    end
`endif

    // contexts past NUM_CTX and fetch entries past MAX_READS are never
    // used: constant, so synthesis keeps no state or logic for them
    for (f = MAX_READS; f < 16; f = f + 1) begin
        ft_valid_next[f] = 1'b0;
        ft_late_next[f]  = 1'b0;
    end
end

// ---------------------------------------------------------------- registers
always @(posedge clk) begin
    bst_active_reg <= bst_active_next;
    bst_req_reg    <= bst_req_next;
    bst_ctx_reg    <= bst_ctx_next;
    bst_node_reg   <= bst_node_next;
    bst_addr_reg   <= bst_addr_next;
    bst_cnt_reg    <= bst_cnt_next;
    bst_slot_reg   <= bst_slot_next;
    bst_num_reg    <= bst_num_next;
    aw2_reg        <= aw2_next;
    gchk_reg       <= gchk_next;
    go_st_reg      <= go_st;
    aw2_slot_reg   <= aw2_slot_next;
    aw2_data_reg   <= aw2_data_next;
    bst_boff_reg   <= bst_boff_next;
    bst_bcnt_reg   <= bst_bcnt_next;
    bst_on_reg     <= bst_on_next;
    bst_off_reg    <= bst_off_next;
    bst_bad_reg    <= bst_bad_next;

    txd_valid_reg <= txd_valid_next;
    txd_op_reg    <= txd_op_next;
    txd_dst_reg   <= txd_dst_next;
    txd_addr_reg  <= txd_addr_next;
    txd_off_reg   <= txd_off_next;
    txd_cnt_reg   <= txd_cnt_next;
    txd_len_reg   <= txd_len_next;
    txd_ctx_reg   <= txd_ctx_next;
    txd_tag_reg   <= txd_tag_next;
    txd_key_reg   <= txd_key_next;
    txd_src_reg   <= txd_src_next;
    txd_slot_reg  <= txd_slot_next;

    rd_wait_reg <= rd_wait_next;
    rd_sync_reg <= rd_sync_next;
    rd_ctx_reg  <= rd_ctx_next;
    rd_node_reg <= rd_node_next;
    rd_seq_reg  <= rd_seq_next;

    resp_valid_reg <= resp_valid_next;
    resp_data_reg  <= resp_data_next;

    // contexts past NUM_CTX are never written: constant, so synthesis
    // keeps no state or logic for them
    if (str_we && {1'b0, str_idx} < NUM_CTX[4:0]) begin
        ctx_status_reg[str_idx[CW-1:0]] <= str_val;
    end
    if (sth_we && {1'b0, sth_idx} < NUM_CTX[4:0]) begin
        ctx_status_reg[sth_idx[CW-1:0]] <= sth_val;
    end
    if (lsr_we && {1'b0, lsr_idx} < NUM_CTX[4:0]) begin
        ctx_last_reg[lsr_idx[CW-1:0]] <= lsr_val;
    end
    if (lsh_we && {1'b0, lsh_idx} < NUM_CTX[4:0]) begin
        ctx_last_reg[lsh_idx[CW-1:0]] <= lsh_val;
    end
    if (rqn_we && {1'b0, rqn_idx} < NUM_CTX[4:0]) begin
        ctx_reqn_reg[rqn_idx[CW-1:0]] <= rqn_val;
    end
    if (rqf_clr) begin
        ctx_reqf_reg[pg_row] <= 32'd0;
    end
    if (s_reqdone_valid && rd_ok) begin
        ctx_reqd_reg[s_reqdone_ctx[CW-1:0]] <= reqd_cur + 16'd1;
        if (s_reqdone_status != `TG_ST_OK) begin
            ctx_reqf_reg[s_reqdone_ctx[CW-1:0]] <= reqf_failed;
        end
    end
    ft_valid_reg <= ft_valid_next;
    ft_late_reg  <= ft_late_next;
    fto_found_reg <= fto_found_next;
    fto_idx_reg   <= fto_idx_next;

    if (rst) begin
        bst_active_reg <= 1'b0;
        aw2_reg        <= 1'b0;
        gchk_reg       <= 1'b0;
        txd_valid_reg  <= 1'b0;
        rd_wait_reg    <= 1'b0;
        rd_seq_reg     <= 15'd0;
        resp_valid_reg <= 1'b0;
        ft_valid_reg   <= 16'd0;
        ft_late_reg    <= 16'd0;
        fto_found_reg  <= 1'b0;
        for (c = 0; c < NUM_CTX; c = c + 1) begin
            ctx_status_reg[c] <= 8'd0;
            ctx_last_reg[c]   <= 8'd0;
            ctx_reqn_reg[c]   <= 16'd0;
            ctx_reqd_reg[c]   <= 16'd0;
            ctx_reqf_reg[c]   <= 32'd0;
        end
    end
end

// the read timeouts: a fetch entry waits while valid and not yet late
tg_timeout #(
    .N (MAX_READS + 1)
) tg_timeout_inst (
    .clk         (clk),
    .rst         (rst),
    .cfg_timeout (cfg_read_timeout),
    .in_wait     ({rd_wait_reg, ft_valid_reg[MAX_READS-1:0] & ~ft_late_reg[MAX_READS-1:0]}),
    .m_over      (to_over),
    .m_over_next (to_over_next)
);
assign ft_over_next = to_over_next[MAX_READS-1:0];

// ---------------------------------------------------------------- context and fetch arrays
// The descriptor loaded this cycle carries its context's key: the row of
// txd_ctx_next, read here after the request path chose it.
reg  txd_load;
wire txd_key_ok = ({1'b0, txd_ctx_next} < {1'b0, NUM_CTX[7:0]});
`ifdef TG_TESTBUG_010
wire [63:0] txd_key_row = cw_key_reg[0] ? ctx_key_mem[0] : 64'd0;   // deliberate bug: context 0's key on every request
`else
wire [63:0] txd_key_row = (txd_key_ok && cw_key_reg[txd_ctx_next[CW-1:0]]) ?
                          ctx_key_mem[txd_ctx_next[CW-1:0]] : 64'd0;
`endif
always @* begin
    txd_key_next = txd_load ? txd_key_row : txd_key_reg;
end

// one context row and one fetch row written a cycle, by index; a reset
// clears the contexts' written bits
wire          ctxw_ok  = ({1'b0, ctxw_idx} < NUM_CTX[4:0]);
wire [CW-1:0] ctxw_row = ctxw_idx[CW-1:0];
wire [FW-1:0] ftw_row  = ft_free_idx[FW-1:0];
always @* begin
    cw_laddr_next   = cw_laddr_reg;
    cw_cpl_next     = cw_cpl_reg;
    cw_operand_next = cw_operand_reg;
    cw_compare_next = cw_compare_reg;
    cw_key_next     = cw_key_reg;
    if (ctxw_ok) begin
        cw_laddr_next[ctxw_row]   = cw_laddr_reg[ctxw_row]   || ctxw_laddr;
        cw_cpl_next[ctxw_row]     = cw_cpl_reg[ctxw_row]     || ctxw_cpl;
        cw_operand_next[ctxw_row] = cw_operand_reg[ctxw_row] || ctxw_operand;
        cw_compare_next[ctxw_row] = cw_compare_reg[ctxw_row] || ctxw_compare;
        cw_key_next[ctxw_row]     = cw_key_reg[ctxw_row]     || ctxw_key;
    end
end
always @(posedge clk) begin
    cw_laddr_reg   <= cw_laddr_next;
    cw_cpl_reg     <= cw_cpl_next;
    cw_operand_reg <= cw_operand_next;
    cw_compare_reg <= cw_compare_next;
    cw_key_reg     <= cw_key_next;
    if (rst) begin
        cw_laddr_reg   <= {NUM_CTX{1'b0}};
        cw_cpl_reg     <= {NUM_CTX{1'b0}};
        cw_operand_reg <= {NUM_CTX{1'b0}};
        cw_compare_reg <= {NUM_CTX{1'b0}};
        cw_key_reg     <= {NUM_CTX{1'b0}};
    end
end
always @(posedge clk) begin
    if (ctxw_ok) begin
        if (ctxw_laddr) begin
            ctx_laddr_mem[ctxw_row] <= ctxw_data[31:0];
        end
        if (ctxw_cpl) begin
            ctx_cpl_mem[ctxw_row] <= ctxw_data[31:0];
        end
        if (ctxw_operand) begin
            ctx_operand_mem[ctxw_row] <= ctxw_data;
        end
        if (ctxw_compare) begin
            ctx_compare_mem[ctxw_row] <= ctxw_data;
        end
        if (ctxw_key) begin
            ctx_key_mem[ctxw_row] <= ctxw_data;
        end
    end
    if (ftw_en) begin
        ft_node_mem[ftw_row]  <= go_node;
        ft_laddr_mem[ftw_row] <= ftw_laddr;
        ft_cpl_mem[ftw_row]   <= go_cpl;
        ft_off_mem[ftw_row]   <= ftw_off;
        ft_cnt_mem[ftw_row]   <= ftw_cnt;
    end
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// Contract: a descriptor offered to the transmitter carries the context of
// the host accesses that produced it and that context's key, so one
// context cannot make requests in another's name or with another's key.
// No assumption on the host port beyond a reset first: any sequence of
// accesses, from any contexts, in any order.
reg f_past_valid = 1'b0;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
end

wire       f_take   = s_host_req_valid && s_host_req_ready;       // a host access accepted
wire [3:0] f_acc_ctx = is_ctxpg ? pg_ctx : req_ctx;               // its context (page or address field)
wire       f_beat   = f_take && is_burst && !req_misaligned;      // a beat joins a burst
reg  [3:0]  f_bst_ctx;   // context of the beats of the burst being assembled
reg  [3:0]  f_txd_ctx;   // context of the accesses behind the offered descriptor
reg  [63:0] f_txd_key;   // that context's KEY register when the descriptor was loaded
wire [3:0]  f_load_ctx = f_take ? f_acc_ctx : f_bst_ctx;
always @(posedge clk) begin
    if (f_beat) begin
        f_bst_ctx <= req_ctx;
    end
    if (!txd_valid_reg && txd_valid_next) begin
        // loaded with this cycle's access, or with the burst assembled so far
        f_txd_ctx <= f_load_ctx;
        f_txd_key <= (({1'b0, f_load_ctx} < NUM_CTX[4:0]) && cw_key_reg[f_load_ctx[CW-1:0]]) ?
                     ctx_key_mem[f_load_ctx[CW-1:0]] : 64'd0;
    end
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && !rst) begin
        // a burst collects the beats of one context only
        if (f_beat && bst_active_reg) begin
            assert(req_ctx == f_bst_ctx);
        end
        if (bst_active_reg) begin
            assert(bst_ctx_reg == f_bst_ctx);
        end
        // the offered descriptor is tagged with the context that made it
        if (txd_valid_reg) begin
            assert(txd_ctx_reg == {4'd0, f_txd_ctx});
        end
        // ... and carries that context's key, never another's (H2)
        if (txd_valid_reg) begin
            assert(txd_key_reg == f_txd_key);
        end
        // H3: a FETCH_GO, WCHECK or ATOMIC_GO is acted on, in its second
        // cycle or later, with the checks of the request at the port: the
        // checks in go_st_reg were made for a request that waited at the
        // port a cycle ago, and, the port holding it as the stream rule
        // asks, they are this request's
        if (gchk_reg) begin
            assert(f_prev_wait);
        end
        if (gchk_reg && is_go && f_held_same) begin
            assert(go_st_reg == go_st);
        end
    end
end

// the port offers the request it offered, untaken, a cycle before, and the
// memory size is the same
reg         f_prev_wait;
reg         f_prev_write, f_prev_last;
reg  [46:0] f_prev_addr;
reg  [63:0] f_prev_wdata;
reg  [7:0]  f_prev_wstrb;
reg  [31:0] f_prev_mem_size;
always @(posedge clk) begin
    f_prev_wait     <= !rst && s_host_req_valid && !s_host_req_ready;
    f_prev_write    <= s_host_req_write;
    f_prev_last     <= s_host_req_last;
    f_prev_addr     <= s_host_req_addr;
    f_prev_wdata    <= s_host_req_wdata;
    f_prev_wstrb    <= s_host_req_wstrb;
    f_prev_mem_size <= cfg_mem_size;
end
wire f_held_same = f_prev_wait && s_host_req_valid && s_host_req_write == f_prev_write &&
                   s_host_req_last == f_prev_last && s_host_req_addr == f_prev_addr &&
                   s_host_req_wdata == f_prev_wdata && s_host_req_wstrb == f_prev_wstrb &&
                   cfg_mem_size == f_prev_mem_size;
`endif

endmodule

`default_nettype wire
