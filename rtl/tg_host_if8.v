// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Host target for the byte-serial core (tg_nic8): the BAR, the bursts, the
// blocking loads, the context pages and the fetch table of tg_host_if, with
// the same answers, built for a byte clock; with MAX_READS = 0 there is no
// fetch table, and FETCH_GO and ATOMIC_GO are refused as BAD_OP. A request
// on offer is decoded into registers in the cycle it first shows and
// executed from them in a later one, so no cycle both decodes an address
// and acts on it; a host access therefore takes three cycles at least,
// which the memory-bus bridge (one 64-bit beat every eight byte times)
// never notices. A write burst is gathered straight into the descriptor
// offered to the transmitter, which is held until the transmitter has
// written its frame; the descriptor's key is read from its context's KEY
// register, which a host write may change only while no descriptor waits.
// A CSR-page read strobes csr_rd_en and takes csr_rdata in the next cycle;
// the page's address is steady in the cycle before every access, and two
// accesses are never in consecutive cycles (tg_csr8's rules).
`default_nettype none
`include "tg_hw_defs.vh"

module tg_host_if8 #(
    parameter NUM_CTX     = 16, // process contexts (1..16)
    parameter MAX_READS   = 8,  // fetches in flight (0..16; 0: no fetch table)
    parameter BLOCK_BYTES = 64  // largest payload of a frame: 16, 32 or 64 bytes
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_mem_size,
    input  wire [31:0]  cfg_read_timeout,   // cycles before a blocking read fails (0: never)

    // host requests (MMIO); a request's fields stay steady while it waits
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

    // CSR page access: a read strobe, its data in the next cycle; with
    // csr_copy the access is to the copy the page keeps of a context's
    // OPERAND, COMPARE or KEY (csr_copy_idx: {context, 0/1/2}), written
    // with each write of the register and read in place of it
    output wire [11:0]  csr_addr,
    output reg          csr_rd_en,
    input  wire [63:0]  csr_rdata,
    output reg          csr_wr_en,
    output wire [63:0]  csr_wdata,
    output wire         csr_copy,
    output wire [5:0]   csr_copy_idx,

    // request descriptors to the transmitter
    output wire         m_txd_valid,
    input  wire         m_txd_ready,
    output wire [7:0]   m_txd_op,
    output wire [15:0]  m_txd_dst,
    output wire [31:0]  m_txd_addr,
    output wire [63:0]  m_txd_mask,
    output wire [7:0]   m_txd_len,
    output wire [7:0]   m_txd_ctx,
    output wire [15:0]  m_txd_tag,
    output wire [63:0]  m_txd_key,
    output wire [511:0] m_txd_payload,

    // answer to a blocking read, from the receive engine
    input  wire         s_hrd_valid,
    input  wire [15:0]  s_hrd_src,
    input  wire [15:0]  s_hrd_tag,
    input  wire [7:0]   s_hrd_status,
    input  wire [63:0]  s_hrd_data,

    // a request that failed after it left (sets its context's STATUS)
    input  wire         s_err_valid,
    input  wire [3:0]   s_err_ctx,
    input  wire [7:0]   s_err_status,

    // fetch table, looked up and freed by the receive engine
    input  wire [3:0]   fetch_lookup_idx,
    output wire         fetch_lookup_valid,
    output wire [15:0]  fetch_lookup_node,
    output wire [31:0]  fetch_lookup_laddr,
    output wire [31:0]  fetch_lookup_cpl,
    output wire [63:0]  fetch_lookup_mask,
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
    output reg          ev_stray
);

initial begin
    if (NUM_CTX < 1 || NUM_CTX > 16) begin
        $error("%m: NUM_CTX must be in 1..16");
    end
    if (MAX_READS < 0 || MAX_READS > 16) begin
        $error("%m: MAX_READS must be in 0..16");
    end
    if (BLOCK_BYTES != 16 && BLOCK_BYTES != 32 && BLOCK_BYTES != 64) begin
        $error("%m: BLOCK_BYTES must be 16, 32 or 64");
    end
end

localparam        BLK_LOG2  = (BLOCK_BYTES == 16) ? 4 : (BLOCK_BYTES == 32) ? 5 : 6;
localparam        BLK_W     = BLOCK_BYTES / 8;                // payload words
localparam        PL_BITS   = 8 * BLOCK_BYTES;
localparam [31:0] BLK_WORDS = BLK_W;
localparam [31:0] BLK_BYTES = BLOCK_BYTES;
localparam [2:0]  BLK_WMAX  = BLK_WORDS[2:0] - 3'd1;
localparam [6:0]  BLK_LEN   = BLK_BYTES[6:0];
localparam        NO_FETCH  = (MAX_READS == 0);   // FETCH_LADDR and FETCH_CPL then read 0

// ---------------------------------------------------------------- request fields
wire [2:0]  req_win   = s_host_req_addr[46:44];
wire [3:0]  req_ctx   = s_host_req_addr[43:40];
wire [7:0]  req_node  = s_host_req_addr[39:32];
wire [31:0] req_paddr = s_host_req_addr[31:0];
wire [3:0]  req_page  = s_host_req_addr[15:12];     // context page number
wire [8:0]  req_reg   = s_host_req_addr[11:3];      // register in a page
wire [63:0] wdata     = s_host_req_wdata;
reg  [63:0] wbits;                                  // the strobes, a bit per data bit
integer     sb;
always @* begin
    for (sb = 0; sb < 8; sb = sb + 1) begin
        wbits[sb*8 +: 8] = {8{s_host_req_wstrb[sb]}};
    end
end

assign csr_addr  = s_host_req_addr[11:0];
assign csr_wdata = wdata;

// ---------------------------------------------------------------- state
// the decoded request on offer
localparam K_MIS   = 0;  // not 8-byte aligned
localparam K_BURST = 1;  // a beat of a remote-write or REQ burst
localparam K_OPND  = 2;  // a store to an atomic window: the operand
localparam K_LOAD  = 3;  // a blocking load: remote read, fence or atomic
localparam K_CSR   = 4;  // the CSR page
localparam K_CTX   = 5;  // a context page
localparam K_BAD   = 6;  // anything else: refused
localparam R_STATUS = 0, R_LADDR = 1, R_CPL = 2, R_GO = 3, R_OPND = 4, R_CMP = 5,
           R_AGO = 6, R_LAST = 7, R_KEY = 8, R_WCHK = 9;
reg         dq_p1_reg,     dq_p1_next;       // the first step is done
reg         dq_valid_reg,  dq_valid_next;    // the second is: the request may execute
reg  [6:0]  dq_kind_reg,   dq_kind_next;     // one-hot K_*
reg  [9:0]  dq_reg_reg,    dq_reg_next;      // one-hot R_* (context pages)
reg         dq_failctx_reg, dq_failctx_next; // a refusal is noted in the address's context
reg         dq_cont_reg,   dq_cont_next;     // the beat continues the open burst
reg         dq_wr_reg;                       // the request is a write
reg         dq_len_bad_reg, dq_len_bad_next; // FETCH_GO and WCHECK: no length, or past the block
reg         dq_blk_bad_reg, dq_blk_bad_next; // ... the range crosses its block
reg         dq_go_mis_reg, dq_go_mis_next;   // FETCH_GO misaligned
reg         dq_ago_fn_reg, dq_ago_fn_next;   // ATOMIC_GO: no such function
reg         dq_ago_mis_reg, dq_ago_mis_next; // ... misaligned
reg  [32:0] dq_lend_reg,   dq_lend_next;     // end of a fetch's local range (FETCH_LADDR + length)
reg  [32:0] dq_aend_reg,   dq_aend_next;     // end of an atomic's old value (FETCH_LADDR + 8)
reg  [32:0] dq_cend_reg,   dq_cend_next;     // end of the completion word
reg         dq_go_bad_reg, dq_go_bad_next;   // a FETCH_GO, WCHECK or ATOMIC_GO refused ...
reg  [7:0]  dq_go_st_reg,  dq_go_st_next;    // ... with this status

// the descriptor offered to the transmitter; a burst is gathered in it
reg         txd_valid_reg,  txd_valid_next;
reg [7:0]   txd_op_reg,     txd_op_next;
reg [15:0]  txd_dst_reg,    txd_dst_next;
reg [31:0]  txd_addr_reg,   txd_addr_next;
reg [BLOCK_BYTES-1:0] txd_mask_reg, txd_mask_next;
reg [7:0]   txd_len_reg,    txd_len_next;
reg [3:0]   txd_ctx_reg,    txd_ctx_next;
reg [15:0]  txd_tag_reg,    txd_tag_next;
reg [PL_BITS-1:0] txd_pl_reg, txd_pl_next;
reg         bst_active_reg, bst_active_next;   // a burst is being gathered (the descriptor is not offered)
reg [3:0]   bst_cnt_reg,    bst_cnt_next;      // its words so far

// blocking load in flight
reg         rd_wait_reg,  rd_wait_next;
reg         rd_sync_reg,  rd_sync_next;
reg [3:0]   rd_ctx_reg,   rd_ctx_next;
reg [15:0]  rd_node_reg,  rd_node_next;
reg [14:0]  rd_seq_reg,   rd_seq_next;
// its timeout: the cycles it has waited, counted one ahead, and whether
// they reached READ_TIMEOUT (registered: a change of READ_TIMEOUT reaches
// a waiting load a cycle later)
reg [31:0]  rd_timer_reg, rd_timer_next;
reg         rd_late_reg,  rd_late_next;

// CSR-page read: strobed, data in the next cycle
reg         csr_pend_reg, csr_pend_next;

// host response
reg         resp_valid_reg, resp_valid_next;
reg [63:0]  resp_data_reg,  resp_data_next;

// per-context registers (entries past NUM_CTX stay zero)
reg [7:0]   ctx_status_reg [0:15];
reg [7:0]   ctx_status_next[0:15];
reg [7:0]   ctx_last_reg   [0:15];
reg [7:0]   ctx_last_next  [0:15];
reg [31:0]  ctx_laddr_reg  [0:15];
reg [31:0]  ctx_laddr_next [0:15];
reg [31:0]  ctx_cpl_reg    [0:15];
reg [31:0]  ctx_cpl_next   [0:15];
reg [63:0]  ctx_opnd_reg   [0:15];
reg [63:0]  ctx_opnd_next  [0:15];
reg [63:0]  ctx_cmp_reg    [0:15];
reg [63:0]  ctx_cmp_next   [0:15];
reg [63:0]  ctx_key_reg    [0:15];
reg [63:0]  ctx_key_next   [0:15];

// fetch table (entries past MAX_READS are never allocated and stay zero)
reg [15:0]  ft_valid_reg, ft_valid_next;
reg [15:0]  ft_late_reg,  ft_late_next;
reg [31:0]  ft_age_reg   [0:15];
reg [31:0]  ft_age_next  [0:15];
reg [15:0]  ft_node_reg  [0:15];
reg [15:0]  ft_node_next [0:15];
reg [31:0]  ft_laddr_reg [0:15];
reg [31:0]  ft_laddr_next[0:15];
reg [31:0]  ft_cpl_reg   [0:15];
reg [31:0]  ft_cpl_next  [0:15];
reg [BLOCK_BYTES-1:0] ft_mask_reg  [0:15];
reg [BLOCK_BYTES-1:0] ft_mask_next [0:15];

// ---------------------------------------------------------------- outputs
assign m_host_resp_valid = resp_valid_reg;
assign m_host_resp_rdata = resp_data_reg;

assign m_txd_valid   = txd_valid_reg;
assign m_txd_op      = txd_op_reg;
assign m_txd_dst     = txd_dst_reg;
assign m_txd_addr    = txd_addr_reg;
assign m_txd_mask    = {{(64 - BLOCK_BYTES){1'b0}}, txd_mask_reg};
assign m_txd_len     = txd_len_reg;
assign m_txd_ctx     = {4'd0, txd_ctx_reg};
assign m_txd_tag     = txd_tag_reg;
assign m_txd_key     = ctx_key_reg[txd_ctx_reg];
assign m_txd_payload = {{(512 - PL_BITS){1'b0}}, txd_pl_reg};

assign fetch_lookup_valid = ft_valid_reg[fetch_lookup_idx] && !ft_late_reg[fetch_lookup_idx];
assign fetch_lookup_node  = ft_node_reg[fetch_lookup_idx];
assign fetch_lookup_laddr = ft_laddr_reg[fetch_lookup_idx];
assign fetch_lookup_cpl   = ft_cpl_reg[fetch_lookup_idx];
assign fetch_lookup_mask  = {{(64 - BLOCK_BYTES){1'b0}}, ft_mask_reg[fetch_lookup_idx]};

// ---------------------------------------------------------------- decode (into dq_*)
wire is_ctrl    = (req_win == `TG_WIN_CTRL);
wire is_remote  = (req_win == `TG_WIN_REMOTE);
wire is_sync    = (req_win == `TG_WIN_SYNC);
wire is_reqwin  = (req_win == `TG_WIN_REQ);
wire is_finc    = (req_win == `TG_WIN_FINC);
wire is_atomwin = req_win[2];                          // FAA, SWAP, CAS, FINC
wire ctx_ok     = ({1'b0, req_ctx} < NUM_CTX[4:0]);
wire ctrl_low   = is_ctrl && (s_host_req_addr[43:17] == 27'd0);
wire misaligned = (s_host_req_addr[2:0] != 3'd0);
wire is_burst   = (is_remote || is_reqwin) && s_host_req_write;
wire is_opnd    = is_atomwin && !is_finc && ctx_ok && s_host_req_write;
wire is_load    = (is_remote || is_sync || is_atomwin && ctx_ok) && !s_host_req_write;
wire is_csr     = ctrl_low && !s_host_req_addr[16] && (req_page == 4'd0);
wire is_ctxpg   = ctrl_low && s_host_req_addr[16] && ({1'b0, req_page} < NUM_CTX[4:0]);

// FETCH_GO, WCHECK and ATOMIC_GO data: [31:0] remote paddr, [47:32] node,
// [55:48] length (fetch, check), [57:56] function (atomic)
wire [31:0] go_paddr = wdata[31:0];
wire [15:0] go_node  = wdata[47:32];
wire [7:0]  go_len   = wdata[55:48];
wire [1:0]  go_fn    = wdata[57:56];
wire [31:0] go_laddr = ctx_laddr_reg[req_page];
wire [31:0] go_cpl   = ctx_cpl_reg[req_page];
wire [6:0]  go_blk_end = {1'b0, go_paddr[5:0] & {BLK_WMAX, 3'b111}} + go_len[6:0];
wire        go_bad_len = (go_len == 8'd0) || (go_len > {1'b0, BLK_LEN});
wire        go_blk_bad = (go_blk_end > BLK_LEN);
wire        go_mis     = go_blk_bad || (go_paddr[2:0] != go_laddr[2:0]) || (go_cpl[2:0] != 3'd0);
wire        ago_bad_fn = (go_fn != `TG_AOP_FAA) && (go_fn != `TG_AOP_SWAP) && (go_fn != `TG_AOP_CAS);
wire        ago_mis    = (go_paddr[2:0] != 3'd0) || (go_laddr[2:0] != 3'd0) || (go_cpl[2:0] != 3'd0);
// the range checks, a step later: the ends are summed in the first step
// and compared with the memory size in the second
wire        lend_bad   = ((dq_reg_reg[R_AGO] ? dq_aend_reg : dq_lend_reg) > {1'b0, cfg_mem_size});
wire        cend_bad   = (dq_cend_reg > {1'b0, cfg_mem_size});

// a beat continues the open burst: same window, context and node, the
// next word of the same block
wire burst_cont = bst_active_reg && is_burst && !misaligned &&
                  (is_reqwin == (txd_op_reg == `TG_OP_REQ)) &&
`ifdef TG_TESTBUG_016
                  // deliberate bug: any context joins the burst
`else
                  (req_ctx == txd_ctx_reg) &&
`endif
                  (req_node == txd_dst_reg[7:0]) &&
                  (req_paddr[31:BLK_LOG2] == txd_addr_reg[31:BLK_LOG2]) &&
                  ({1'b0, req_paddr[5:3]} == {1'b0, txd_addr_reg[5:3]} + bst_cnt_reg);

always @* begin
    dq_kind_next = 7'd0;
    if (misaligned) begin
        dq_kind_next[K_MIS] = 1'b1;
    end else if (is_burst) begin
        dq_kind_next[K_BURST] = 1'b1;
    end else if (is_opnd) begin
        dq_kind_next[K_OPND] = 1'b1;
    end else if (is_load) begin
        dq_kind_next[K_LOAD] = 1'b1;
    end else if (is_csr) begin
        dq_kind_next[K_CSR] = 1'b1;
    end else if (is_ctxpg) begin
        dq_kind_next[K_CTX] = 1'b1;
    end else begin
        dq_kind_next[K_BAD] = 1'b1;
    end
    dq_reg_next = 10'd0;
    case (req_reg)
        `TG_CTX_REG_STATUS / 8:      dq_reg_next[R_STATUS] = 1'b1;
        `TG_CTX_REG_FETCH_LADDR / 8: dq_reg_next[R_LADDR]  = 1'b1;
        `TG_CTX_REG_FETCH_CPL / 8:   dq_reg_next[R_CPL]    = 1'b1;
        `TG_CTX_REG_FETCH_GO / 8:    dq_reg_next[R_GO]     = 1'b1;
        `TG_CTX_REG_OPERAND / 8:     dq_reg_next[R_OPND]   = 1'b1;
        `TG_CTX_REG_COMPARE / 8:     dq_reg_next[R_CMP]    = 1'b1;
        `TG_CTX_REG_ATOMIC_GO / 8:   dq_reg_next[R_AGO]    = 1'b1;
        `TG_CTX_REG_LAST_STATUS / 8: dq_reg_next[R_LAST]   = 1'b1;
        `TG_CTX_REG_KEY / 8:         dq_reg_next[R_KEY]    = 1'b1;
        `TG_CTX_REG_WCHECK / 8:      dq_reg_next[R_WCHK]   = 1'b1;
        default:                     dq_reg_next           = 10'd0;
    endcase
    dq_failctx_next = !is_ctrl && ctx_ok;
    dq_cont_next    = burst_cont;
    dq_len_bad_next = go_bad_len;
    dq_blk_bad_next = go_blk_bad;
    dq_go_mis_next  = go_mis;
    dq_ago_fn_next  = ago_bad_fn;
    dq_ago_mis_next = ago_mis;
    dq_lend_next    = {1'b0, go_laddr} + {25'd0, go_len};
    dq_aend_next    = {1'b0, go_laddr} + 33'd8;
    dq_cend_next    = {1'b0, go_cpl} + 33'd8;
    // second step (without a fetch table FETCH_GO and ATOMIC_GO are
    // refused as BAD_OP)
    dq_go_bad_next  = (dq_reg_reg[R_GO]   && (NO_FETCH || dq_len_bad_reg || dq_go_mis_reg || lend_bad || cend_bad)) ||
                      (dq_reg_reg[R_WCHK] && (dq_len_bad_reg || dq_blk_bad_reg)) ||
`ifdef TG_TESTBUG_018
                      // deliberate bug: ATOMIC_GO is not refused without a fetch table
                      (dq_reg_reg[R_AGO]  && (dq_ago_fn_reg || dq_ago_mis_reg || lend_bad || cend_bad));
`else
                      (dq_reg_reg[R_AGO]  && (NO_FETCH || dq_ago_fn_reg || dq_ago_mis_reg || lend_bad || cend_bad));
`endif
    dq_go_st_next   = dq_reg_reg[R_WCHK] ? `TG_ST_MISALIGNED :
                      (NO_FETCH || (dq_reg_reg[R_AGO] && dq_ago_fn_reg)) ? `TG_ST_BAD_OP :
                      (lend_bad || cend_bad) ? `TG_ST_RANGE : `TG_ST_MISALIGNED;
end

// ---------------------------------------------------------------- fetch requests
// payload byte i of the answer is wanted when lo <= i < lo + len
/* verilator lint_off UNUSEDSIGNAL */ // go_span[2:0]: only the word count is used
wire [6:0]  go_span  = {4'd0, go_paddr[2:0]} + go_len[6:0] + 7'd7;
/* verilator lint_on UNUSEDSIGNAL */
wire [3:0]  go_words = go_span[6:3];
wire [6:0]  go_lo    = {4'd0, go_paddr[2:0]};
wire [6:0]  go_hi    = go_lo + go_len[6:0];
reg  [BLOCK_BYTES-1:0] go_mask;
integer     gb;
always @* begin
    for (gb = 0; gb < BLOCK_BYTES; gb = gb + 1) begin
        go_mask[gb] = (gb[6:0] >= go_lo) && (gb[6:0] < go_hi);
    end
end
localparam [BLOCK_BYTES-1:0] MASK_W0 = {{(BLOCK_BYTES - 8){1'b0}}, 8'hFF};

wire [7:0]  ago_op   = (go_fn == `TG_AOP_FAA)  ? `TG_OP_FAA :
                       (go_fn == `TG_AOP_SWAP) ? `TG_OP_SWAP : `TG_OP_CAS;
wire [7:0]  win_aop  = (req_win == `TG_WIN_SWAP) ? `TG_OP_SWAP :
                       (req_win == `TG_WIN_CAS)  ? `TG_OP_CAS  : `TG_OP_FAA;

wire tmo_set   = (cfg_read_timeout != 32'd0);      // loads and fetches time out
wire resp_free = !resp_valid_reg && !rd_wait_reg;   // a read may be answered now

// the lowest free fetch-table entry, and the lowest overdue one
reg        ft_free_found, fto_found;
reg [3:0]  ft_free_idx,   fto_idx;
integer    fi;
always @* begin
    ft_free_found = 1'b0;
    ft_free_idx   = 4'd0;
    fto_found     = 1'b0;
    fto_idx       = 4'd0;
    for (fi = MAX_READS - 1; fi >= 0; fi = fi - 1) begin
        if (!ft_valid_reg[fi]) begin
            ft_free_found = 1'b1;
            ft_free_idx   = fi[3:0];
        end
        if (ft_valid_reg[fi] && !ft_late_reg[fi] && tmo_set && ft_age_reg[fi] >= cfg_read_timeout) begin
            fto_found = 1'b1;
            fto_idx   = fi[3:0];
        end
    end
end
assign m_fto_valid = fto_found;
assign m_fto_idx   = fto_idx;

// ---------------------------------------------------------------- execute
// A read request's answer: its source is known from the decode, so the
// response register takes one of a few values chosen by registered bits.
wire hrd_match = s_hrd_valid && rd_wait_reg && (s_hrd_tag == {1'b0, rd_seq_reg}) && (s_hrd_src == rd_node_reg);
wire rd_expire = !s_hrd_valid && rd_wait_reg && rd_late_reg;
wire [7:0] rd_status = hrd_match ? s_hrd_status : 8'd`TG_ST_PEER_GONE;   // the load's end: answer or timeout
wire dq_refuse = dq_kind_reg[K_MIS] || dq_kind_reg[K_BAD];
wire [7:0] refuse_st = dq_kind_reg[K_MIS] ? `TG_ST_MISALIGNED : `TG_ST_BAD_OP;
// OPERAND, COMPARE and KEY are read from the CSR page's copies, as the
// page's own registers are: the response multiplexer takes no 64-bit
// register of a context
wire dq_copy  = dq_kind_reg[K_CTX] && (dq_reg_reg[R_OPND] || dq_reg_reg[R_CMP] || dq_reg_reg[R_KEY]);
wire dq_page  = dq_kind_reg[K_CSR] || (dq_copy && !dq_wr_reg);    // a read through the CSR port
assign csr_copy     = dq_copy || dq_kind_reg[K_OPND];
assign csr_copy_idx = dq_kind_reg[K_OPND] ? {req_ctx, 2'd0} : {req_page, dq_reg_reg[R_KEY], dq_reg_reg[R_CMP]};
wire req_resp  = dq_valid_reg && s_host_req_valid && !dq_wr_reg && !(bst_active_reg && !dq_cont_reg) &&
                 (((dq_refuse || (dq_kind_reg[K_CTX] && !dq_copy)) && resp_free) ||
                  (dq_page && csr_pend_reg));
reg [63:0] req_rdata;
always @* begin
    req_rdata = {64{dq_refuse}} |
                ({64{dq_page}} & csr_rdata);
    if (dq_kind_reg[K_CTX] && !dq_copy) begin
        req_rdata = ({64{dq_reg_reg[R_STATUS]}} & {56'd0, ctx_status_reg[req_page]}) |
                    ({64{dq_reg_reg[R_LADDR]}}  & {32'd0, ctx_laddr_reg[req_page]}) |
                    ({64{dq_reg_reg[R_CPL]}}    & {32'd0, ctx_cpl_reg[req_page]}) |
                    ({64{dq_reg_reg[R_LAST]}}   & {56'd0, ctx_last_reg[req_page]});
    end
    // While a load waits nothing else answers and the register is not
    // offered: it takes every answer the receive engine gives, or else the
    // timeout's value, and is offered once the right answer or the timeout
    // comes (hrd_match and rd_expire, which need not be waited for here).
    resp_data_next = resp_data_reg;
    if (rd_wait_reg) begin
        if (s_hrd_valid) begin
            resp_data_next = rd_sync_reg ? {56'd0, s_hrd_status} :
                             (s_hrd_status == `TG_ST_OK) ? s_hrd_data : {64{1'b1}};
        end else begin
            resp_data_next = rd_sync_reg ? {56'd0, 8'd`TG_ST_PEER_GONE} : {64{1'b1}};
        end
    end else if (req_resp) begin
        resp_data_next = req_rdata;
    end
end

wire txd_free  = !txd_valid_reg;

// Load the descriptor with a request that is not a burst (the caller
// checked txd_free); its payload is the operand and compare words of an
// atomic, else zeros.
task load_txd;
    input [7:0]  op;
    input [15:0] dst;
    input [31:0] addr;
    input [BLOCK_BYTES-1:0] mask;
    input [7:0]  len;
    input [3:0]  ctx;
    input [15:0] tag;
    input        atomic;
    input [63:0] operand;
    begin
        txd_valid_next = 1'b1;
        txd_op_next    = op;
        txd_dst_next   = dst;
        txd_addr_next  = addr;
        txd_mask_next  = mask;
        txd_len_next   = len;
        txd_ctx_next   = ctx;
        txd_tag_next   = tag;
        txd_pl_next    = {PL_BITS{1'b0}};
        if (atomic) begin
            txd_pl_next[127:0] = {ctx_cmp_reg[ctx], operand};
        end
    end
endtask

// Keep a failure in context c's STATUS unless one is there already.
task fail_ctx;
    input [3:0] ctx;
    input [7:0] status;
    begin
        if (ctx_status_reg[ctx] == `TG_ST_OK) begin
            ctx_status_next[ctx] = status;
        end
    end
endtask

// Allocate fetch-table entry ft_free_idx.
task take_entry;
    input [31:0] laddr;
    input [BLOCK_BYTES-1:0] mask;
    begin
        ft_valid_next[ft_free_idx] = 1'b1;
        ft_node_next[ft_free_idx]  = go_node;
        ft_laddr_next[ft_free_idx] = laddr;
        ft_cpl_next[ft_free_idx]   = go_cpl;
        ft_mask_next[ft_free_idx]  = mask;
    end
endtask

integer c, f, w;
wire [2:0] widx = bst_active_reg ? bst_cnt_reg[2:0] : 3'd0;   // the beat's word in the burst
wire [3:0] cnt  = {1'b0, widx} + 4'd1;                         // the burst's words, this beat included

always @* begin
    s_host_req_ready = 1'b0;
    csr_rd_en        = 1'b0;
    csr_wr_en        = 1'b0;
    ev_host_error    = 1'b0;
    ev_host_req      = 1'b0;
    ev_host_resp     = 1'b0;

    txd_valid_next  = txd_valid_reg;
    txd_op_next     = txd_op_reg;
    txd_dst_next    = txd_dst_reg;
    txd_addr_next   = txd_addr_reg;
    txd_mask_next   = txd_mask_reg;
    txd_len_next    = txd_len_reg;
    txd_ctx_next    = txd_ctx_reg;
    txd_tag_next    = txd_tag_reg;
    txd_pl_next     = txd_pl_reg;
    bst_active_next = bst_active_reg;
    bst_cnt_next    = bst_cnt_reg;

    rd_wait_next  = rd_wait_reg;
    rd_sync_next  = rd_sync_reg;
    rd_ctx_next   = rd_ctx_reg;
    rd_node_next  = rd_node_reg;
    rd_seq_next   = rd_seq_reg;
    rd_timer_next = rd_wait_reg ? rd_timer_reg + 32'd1 : 32'd1;
    rd_late_next  = rd_wait_reg && tmo_set && (rd_timer_reg >= cfg_read_timeout);
    csr_pend_next = csr_pend_reg;

    resp_valid_next = resp_valid_reg;

    for (c = 0; c < 16; c = c + 1) begin
        ctx_status_next[c] = ctx_status_reg[c];
        ctx_last_next[c]   = ctx_last_reg[c];
        ctx_laddr_next[c]  = ctx_laddr_reg[c];
        ctx_cpl_next[c]    = ctx_cpl_reg[c];
        ctx_opnd_next[c]   = ctx_opnd_reg[c];
        ctx_cmp_next[c]    = ctx_cmp_reg[c];
        ctx_key_next[c]    = ctx_key_reg[c];
    end
    ft_valid_next = ft_valid_reg;
    ft_late_next  = ft_late_reg;
    for (f = 0; f < 16; f = f + 1) begin
        ft_age_next[f]   = (ft_valid_reg[f] && !ft_late_reg[f]) ? ft_age_reg[f] + 32'd1 : 32'd0;
        ft_node_next[f]  = ft_node_reg[f];
        ft_laddr_next[f] = ft_laddr_reg[f];
        ft_cpl_next[f]   = ft_cpl_reg[f];
        ft_mask_next[f]  = ft_mask_reg[f];
    end
    if (m_fto_valid && m_fto_ready) begin
        ft_late_next[fto_idx] = 1'b1;
    end
    if (fetch_free_valid) begin
        ft_valid_next[fetch_free_idx] = 1'b0;
        ft_late_next[fetch_free_idx]  = 1'b0;
    end
    if (txd_valid_reg && m_txd_ready) begin
        txd_valid_next = 1'b0;
    end
    if (resp_valid_reg && m_host_resp_ready) begin
        resp_valid_next = 1'b0;
    end
    if (s_err_valid) begin
        fail_ctx(s_err_ctx, s_err_status);
    end

    // the answer to the blocking load in flight, or its timeout
    ev_stray = s_hrd_valid && !hrd_match;
    if (hrd_match || rd_expire) begin
        rd_wait_next    = 1'b0;
        rd_seq_next     = rd_seq_reg + 15'd1;
        resp_valid_next = 1'b1;
        ev_host_resp    = 1'b1;
        ctx_last_next[rd_ctx_reg] = rd_status;
        if (rd_status != `TG_ST_OK) begin
            fail_ctx(rd_ctx_reg, rd_status);
        end
    end

    // the decoded request
    if (dq_valid_reg && s_host_req_valid) begin
        if (bst_active_reg && !dq_cont_reg) begin
            // it does not continue the open burst: offer the burst first
            txd_valid_next  = 1'b1;
            bst_active_next = 1'b0;
        end else if (dq_refuse) begin
            if (dq_wr_reg || resp_free) begin
                s_host_req_ready = 1'b1;
                ev_host_error    = 1'b1;
                if (dq_failctx_reg) begin
                    fail_ctx(req_ctx, refuse_st);
                    if (!dq_wr_reg) begin
                        ctx_last_next[req_ctx] = refuse_st;
                    end
                end
            end
        end else if (dq_kind_reg[K_BURST]) begin
            // a beat joins the descriptor; the block's last word or the
            // burst's last beat offers it
            if (txd_free) begin
                s_host_req_ready = 1'b1;
                if (!bst_active_reg) begin
                    ev_host_req   = 1'b1;
                    txd_op_next   = is_reqwin ? `TG_OP_REQ : `TG_OP_WRITE;
                    txd_dst_next  = {8'd0, req_node};
                    txd_addr_next = req_paddr;
                    txd_ctx_next  = req_ctx;
                    txd_tag_next  = 16'd0;
                    txd_mask_next = {BLOCK_BYTES{1'b0}};
                end
                for (w = 0; w < BLK_W; w = w + 1) begin
                    if (widx == w[2:0]) begin
                        txd_pl_next[w*64 +: 64]  = wdata & wbits;
                        txd_mask_next[w*8 +: 8] = s_host_req_wstrb;
                    end
                end
                txd_len_next = {1'b0, cnt, 3'd0};
                bst_cnt_next = cnt;
                if (s_host_req_last || ((((bst_active_reg ? txd_addr_reg[5:3] : req_paddr[5:3]) + cnt[2:0]) &
                                         BLK_WMAX) == 3'd0)) begin
                    txd_valid_next  = 1'b1;
                    bst_active_next = 1'b0;
                end else begin
                    bst_active_next = 1'b1;
                end
            end
        end else if (dq_kind_reg[K_OPND]) begin
            s_host_req_ready = 1'b1;
            if (s_host_req_wstrb == 8'hFF) begin
                ctx_opnd_next[req_ctx] = wdata;
                csr_wr_en              = 1'b1;    // and its copy
            end else begin
                ev_host_error = 1'b1;
                fail_ctx(req_ctx, `TG_ST_MISALIGNED);
            end
        end else if (dq_kind_reg[K_LOAD]) begin
            if (txd_free && resp_free) begin
                s_host_req_ready = 1'b1;
                ev_host_req      = 1'b1;
                if (is_atomwin) begin
                    load_txd(win_aop, {8'd0, req_node}, req_paddr, MASK_W0, 8'd`TG_ATOMIC_LEN, req_ctx,
                             {1'b0, rd_seq_reg}, 1'b1, is_finc ? 64'd1 : ctx_opnd_reg[req_ctx]);
                end else begin
                    load_txd(`TG_OP_READ_REQ, {8'd0, req_node}, is_sync ? 32'd0 : req_paddr,
                             is_sync ? {BLOCK_BYTES{1'b0}} : MASK_W0, is_sync ? 8'd0 : 8'd8, req_ctx,
                             {1'b0, rd_seq_reg}, 1'b0, 64'd0);
                end
                rd_wait_next = 1'b1;
                rd_sync_next = is_sync;
                rd_ctx_next  = req_ctx;
                rd_node_next = {8'd0, req_node};
            end
        end else if (dq_page) begin
            // a CSR-page register, or a read of a context register's copy
            if (dq_wr_reg) begin
                s_host_req_ready = 1'b1;
                csr_wr_en        = (s_host_req_wstrb == 8'hFF);
            end else if (csr_pend_reg) begin
                s_host_req_ready = 1'b1;
                csr_pend_next    = 1'b0;
            end else if (resp_free) begin
                csr_rd_en     = 1'b1;
                csr_pend_next = 1'b1;
            end
        end else if (dq_kind_reg[K_CTX] && dq_wr_reg) begin
            if (dq_go_bad_reg) begin
                // a FETCH_GO, WCHECK or ATOMIC_GO refused by its checks
                s_host_req_ready = 1'b1;
                ev_host_error    = 1'b1;
                fail_ctx(req_page, dq_go_st_reg);
            end else if (dq_reg_reg[R_GO]) begin
                if (txd_free && ft_free_found) begin
                    s_host_req_ready = 1'b1;
                    ev_host_req      = 1'b1;
                    load_txd(`TG_OP_READ_REQ, go_node, {go_paddr[31:3], 3'd0}, go_mask, {1'b0, go_words, 3'd0},
                             req_page, `TG_TAG_FETCH | {12'd0, ft_free_idx}, 1'b0, 64'd0);
                    take_entry({go_laddr[31:3], 3'd0}, go_mask);
                end
            end else if (dq_reg_reg[R_WCHK]) begin
                // a write of no bytes over the range, checked by the target
                if (txd_free) begin
                    s_host_req_ready = 1'b1;
                    ev_host_req      = 1'b1;
                    load_txd(`TG_OP_WRITE, go_node, {go_paddr[31:3], 3'd0}, {BLOCK_BYTES{1'b0}},
                             {1'b0, go_words, 3'd0}, req_page, 16'd0, 1'b0, 64'd0);
                end
            end else if (dq_reg_reg[R_AGO]) begin
                if (txd_free && ft_free_found) begin
                    s_host_req_ready = 1'b1;
                    ev_host_req      = 1'b1;
                    load_txd(ago_op, go_node, go_paddr, MASK_W0, 8'd`TG_ATOMIC_LEN, req_page,
                             `TG_TAG_FETCH | {12'd0, ft_free_idx}, 1'b1, ctx_opnd_reg[req_page]);
                    take_entry(go_laddr, MASK_W0);
                end
            end else if (dq_reg_reg[R_KEY]) begin
                // the waiting descriptor's key is its context's KEY: a new
                // key waits until it has gone
`ifdef TG_TESTBUG_017
                if (1'b1) begin   // deliberate bug: the key changes under a waiting descriptor
`else
                if (txd_free) begin
`endif
                    s_host_req_ready = 1'b1;
                    ctx_key_next[req_page] = wdata;
                    csr_wr_en        = 1'b1;
                end
            end else begin
                s_host_req_ready = 1'b1;
                if (dq_reg_reg[R_STATUS]) begin
                    ctx_status_next[req_page] = `TG_ST_OK;
                end else if (dq_reg_reg[R_LADDR]) begin
                    ctx_laddr_next[req_page] = wdata[31:0];
                end else if (dq_reg_reg[R_CPL]) begin
                    ctx_cpl_next[req_page] = wdata[31:0];
                end else if (dq_reg_reg[R_OPND]) begin
                    ctx_opnd_next[req_page] = wdata;
                    csr_wr_en = 1'b1;
                end else if (dq_reg_reg[R_CMP]) begin
                    ctx_cmp_next[req_page] = wdata;
                    csr_wr_en = 1'b1;
                end else begin
                    ev_host_error = 1'b1;
                end
            end
        end else if (dq_kind_reg[K_CTX]) begin
            if (resp_free) begin
                s_host_req_ready = 1'b1;
            end
        end
    end

    if (req_resp) begin
        resp_valid_next = 1'b1;
    end

    // a request is decoded in the two cycles after it first shows; one
    // withdrawn unanswered (which a host port must not do) leaves nothing
    // pending
    dq_p1_next    = s_host_req_valid && !s_host_req_ready;
    dq_valid_next = dq_p1_reg && s_host_req_valid && !s_host_req_ready;
    if (!s_host_req_valid) begin
        csr_pend_next = 1'b0;
    end

    for (c = NUM_CTX; c < 16; c = c + 1) begin
        ctx_status_next[c] = 8'd0;
        ctx_last_next[c]   = 8'd0;
        ctx_laddr_next[c]  = 32'd0;
        ctx_cpl_next[c]    = 32'd0;
        ctx_opnd_next[c]   = 64'd0;
        ctx_cmp_next[c]    = 64'd0;
        ctx_key_next[c]    = 64'd0;
    end
    if (NO_FETCH) begin
        for (c = 0; c < 16; c = c + 1) begin
            ctx_laddr_next[c] = 32'd0;
            ctx_cpl_next[c]   = 32'd0;
        end
    end
    for (f = MAX_READS; f < 16; f = f + 1) begin
        ft_valid_next[f] = 1'b0;
        ft_late_next[f]  = 1'b0;
        ft_age_next[f]   = 32'd0;
        ft_node_next[f]  = 16'd0;
        ft_laddr_next[f] = 32'd0;
        ft_cpl_next[f]   = 32'd0;
        ft_mask_next[f]  = {BLOCK_BYTES{1'b0}};
    end
end

// ---------------------------------------------------------------- registers
always @(posedge clk) begin
    if (!dq_p1_reg) begin
        dq_kind_reg     <= dq_kind_next;
        dq_reg_reg      <= dq_reg_next;
        dq_failctx_reg  <= dq_failctx_next;
        dq_cont_reg     <= dq_cont_next;
        dq_wr_reg       <= s_host_req_write;
        dq_len_bad_reg  <= dq_len_bad_next;
        dq_blk_bad_reg  <= dq_blk_bad_next;
        dq_go_mis_reg   <= dq_go_mis_next;
        dq_ago_fn_reg   <= dq_ago_fn_next;
        dq_ago_mis_reg  <= dq_ago_mis_next;
        dq_lend_reg     <= dq_lend_next;
        dq_aend_reg     <= dq_aend_next;
        dq_cend_reg     <= dq_cend_next;
    end
    if (!dq_valid_reg) begin
        dq_go_bad_reg   <= dq_go_bad_next;
        dq_go_st_reg    <= dq_go_st_next;
    end
    dq_p1_reg      <= dq_p1_next;
    dq_valid_reg   <= dq_valid_next;

    txd_valid_reg  <= txd_valid_next;
    txd_op_reg     <= txd_op_next;
    txd_dst_reg    <= txd_dst_next;
    txd_addr_reg   <= txd_addr_next;
    txd_mask_reg   <= txd_mask_next;
    txd_len_reg    <= txd_len_next;
    txd_ctx_reg    <= txd_ctx_next;
    txd_tag_reg    <= txd_tag_next;
    txd_pl_reg     <= txd_pl_next;
    bst_active_reg <= bst_active_next;
    bst_cnt_reg    <= bst_cnt_next;

    rd_wait_reg  <= rd_wait_next;
    rd_sync_reg  <= rd_sync_next;
    rd_ctx_reg   <= rd_ctx_next;
    rd_node_reg  <= rd_node_next;
    rd_seq_reg   <= rd_seq_next;
    rd_timer_reg <= rd_timer_next;
    rd_late_reg  <= rd_late_next;
    csr_pend_reg <= csr_pend_next;

    resp_valid_reg <= resp_valid_next;
    resp_data_reg  <= resp_data_next;

    for (c = 0; c < 16; c = c + 1) begin
        ctx_status_reg[c] <= ctx_status_next[c];
        ctx_last_reg[c]   <= ctx_last_next[c];
        ctx_laddr_reg[c]  <= ctx_laddr_next[c];
        ctx_cpl_reg[c]    <= ctx_cpl_next[c];
        ctx_opnd_reg[c]   <= ctx_opnd_next[c];
        ctx_cmp_reg[c]    <= ctx_cmp_next[c];
        ctx_key_reg[c]    <= ctx_key_next[c];
    end
    ft_valid_reg <= ft_valid_next;
    ft_late_reg  <= ft_late_next;
    for (f = 0; f < 16; f = f + 1) begin
        ft_age_reg[f]   <= ft_age_next[f];
        ft_node_reg[f]  <= ft_node_next[f];
        ft_laddr_reg[f] <= ft_laddr_next[f];
        ft_cpl_reg[f]   <= ft_cpl_next[f];
        ft_mask_reg[f]  <= ft_mask_next[f];
    end

    if (rst) begin
        dq_p1_reg      <= 1'b0;
        dq_valid_reg   <= 1'b0;
        txd_valid_reg  <= 1'b0;
        bst_active_reg <= 1'b0;
        rd_wait_reg    <= 1'b0;
        rd_seq_reg     <= 15'd0;
        csr_pend_reg   <= 1'b0;
        resp_valid_reg <= 1'b0;
        ft_valid_reg   <= 16'd0;
        ft_late_reg    <= 16'd0;
        for (c = 0; c < 16; c = c + 1) begin
            ctx_status_reg[c] <= 8'd0;
            ctx_last_reg[c]   <= 8'd0;
            ctx_laddr_reg[c]  <= 32'd0;
            ctx_cpl_reg[c]    <= 32'd0;
            ctx_opnd_reg[c]   <= 64'd0;
            ctx_cmp_reg[c]    <= 64'd0;
            ctx_key_reg[c]    <= 64'd0;
        end
    end
end

`ifdef FORMAL
// ---------------------------------------------------------------- properties
// Contract, as tg_host_if's (docs/formal.md): a descriptor offered to the
// transmitter carries the context of the host accesses that made it and
// that context's key as it stood when the descriptor was offered, and the
// key does not change while it waits; a burst gathers the beats of one
// context; without a fetch table no request goes out as a fetch.
// Assumptions: a reset first, and a host port that holds a request,
// unchanged, until it is taken (the decode is a step ahead).
reg f_past_valid = 1'b0;
always @(posedge clk) begin
    f_past_valid <= 1'b1;
end

wire       f_take    = s_host_req_valid && s_host_req_ready;
wire [3:0] f_acc_ctx = dq_kind_reg[K_CTX] ? req_page : req_ctx;
wire       f_beat    = f_take && dq_kind_reg[K_BURST];
reg  [3:0]  f_bst_ctx;   // context of the beats gathered so far
reg  [3:0]  f_txd_ctx;   // context of the accesses behind the offered descriptor
reg  [63:0] f_txd_key;   // its KEY when the descriptor was offered
wire [3:0]  f_load_ctx = f_take ? f_acc_ctx : f_bst_ctx;
reg         f_held;      // a request was on offer and not taken
reg  [46:0] f_addr;
reg  [63:0] f_wdata;
reg  [7:0]  f_wstrb;
reg         f_write, f_last;
always @(posedge clk) begin
    if (f_beat) begin
        f_bst_ctx <= req_ctx;
    end
    if (!txd_valid_reg && txd_valid_next) begin
        f_txd_ctx <= f_load_ctx;
        f_txd_key <= ctx_key_reg[f_load_ctx];
    end
    f_held  <= s_host_req_valid && !s_host_req_ready && !rst;
    f_addr  <= s_host_req_addr;
    f_wdata <= s_host_req_wdata;
    f_wstrb <= s_host_req_wstrb;
    f_write <= s_host_req_write;
    f_last  <= s_host_req_last;
end

always @* begin
    if (!f_past_valid) begin
        assume(rst);
    end
    if (f_past_valid && f_held) begin
        assume(s_host_req_valid && s_host_req_addr == f_addr && s_host_req_wdata == f_wdata &&
               s_host_req_wstrb == f_wstrb && s_host_req_write == f_write && s_host_req_last == f_last);
    end
    if (f_past_valid && !rst) begin
        // the decode's steps follow the request on offer, and the first
        // step's burst check stays true of it (invariants for induction)
        assert(!dq_valid_reg || dq_p1_reg);
        assert(!dq_p1_reg || f_held);
        if (dq_p1_reg) begin
            assert(dq_kind_reg == dq_kind_next);
            assert(dq_cont_reg == burst_cont);
        end
        // a burst is gathered only while no descriptor is offered
        assert(!(bst_active_reg && txd_valid_reg));
        // a burst gathers the beats of one context (H1)
        if (f_beat && bst_active_reg) begin
            assert(req_ctx == f_bst_ctx);
        end
        if (bst_active_reg) begin
            assert(txd_ctx_reg == f_bst_ctx);
        end
        // the offered descriptor carries its context (H1) and that
        // context's key as it was when offered (H2)
        if (txd_valid_reg) begin
            assert(txd_ctx_reg == f_txd_ctx);
            assert(m_txd_key == f_txd_key);
        end
        // without a fetch table nothing takes an entry or carries a fetch's
        // tag (H3); a FETCH_GO or ATOMIC_GO decoded is refused (the
        // invariant that makes H3 inductive)
        if (NO_FETCH) begin
            assert(ft_valid_reg == 16'd0 && !fetch_lookup_valid && !m_fto_valid);
            if (txd_valid_reg || bst_active_reg) begin
                assert((txd_tag_reg & `TG_TAG_FETCH) == 16'd0);
            end
            if (dq_valid_reg && (dq_reg_reg[R_GO] || dq_reg_reg[R_AGO])) begin
                assert(dq_go_bad_reg && dq_go_st_reg == `TG_ST_BAD_OP);
            end
        end
    end
end
`endif

endmodule

`default_nettype wire
