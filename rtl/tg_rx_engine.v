// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Receive engine: executes accepted frames against host memory, one frame
// at a time: writes (under the byte mask), read requests (answered with a
// READ_RESP), and read responses (to the host port or, for a fetch, into
// local memory followed by its completion word).
`default_nettype none
`include "tg_hw_defs.vh"

module tg_rx_engine (
    input  wire         clk,
    input  wire         rst,

    input  wire [31:0]  cfg_mem_size,

    // accepted frame in (consumed when its execution is complete)
    input  wire         s_rxd_valid,
    output reg          s_rxd_ready,
    input  wire [7:0]   s_rxd_op,
    input  wire [7:0]   s_rxd_status,
    input  wire [15:0]  s_rxd_src,
    input  wire [31:0]  s_rxd_addr,
    input  wire         s_rxd_addr_hi,
    input  wire [63:0]  s_rxd_mask,
    input  wire [7:0]   s_rxd_len,
    input  wire [7:0]   s_rxd_ctx,
    input  wire [15:0]  s_rxd_tag,
    input  wire [511:0] s_rxd_payload,

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
    output wire [7:0]   m_txd_status,
    output wire [15:0]  m_txd_dst,
    output wire [31:0]  m_txd_addr,
    output wire [63:0]  m_txd_mask,
    output wire [7:0]   m_txd_len,
    output wire [7:0]   m_txd_ctx,
    output wire [15:0]  m_txd_tag,
    output wire [511:0] m_txd_payload,

    // answer to a blocking read, to the host port
    output reg          m_hrd_valid,
    output wire [15:0]  m_hrd_src,
    output wire [15:0]  m_hrd_tag,
    output wire [7:0]   m_hrd_status,
    output wire [63:0]  m_hrd_data,

    // fetch table
    output wire [3:0]   fetch_lookup_idx,
    input  wire         fetch_lookup_valid,
    input  wire [15:0]  fetch_lookup_node,
    input  wire [31:0]  fetch_lookup_laddr,
    input  wire [31:0]  fetch_lookup_cpl,
    input  wire [63:0]  fetch_lookup_mask,
    output reg          fetch_free_valid,
    output wire [3:0]   fetch_free_idx,

    // events
    output reg          ev_refused,
    output reg          ev_stray,
    output reg          ev_rx_done
);

localparam [2:0] S_IDLE  = 3'd0,  // decode the frame on s_rxd
                 S_WRITE = 3'd1,  // issue masked word writes (remote write or fetch data)
                 S_READ  = 3'd2,  // issue word reads for a read request
                 S_DRAIN = 3'd3,  // wait until every memory request is answered
                 S_RESP  = 3'd4,  // offer the READ_RESP to the transmitter
                 S_CPL   = 3'd5;  // write a fetch's completion word

// what S_DRAIN does next
localparam [1:0] N_DONE = 2'd0, N_RESP = 2'd1, N_CPL = 2'd2, N_FREE = 2'd3;

// ---------------------------------------------------------------- state
reg [2:0]   state_reg,  state_next;
reg [1:0]   after_reg,  after_next;      // next step once drained
reg [3:0]   idx_reg,    idx_next;        // next word to issue
reg [3:0]   rcv_reg,    rcv_next;        // read data words received
reg [4:0]   pend_reg,   pend_next;       // memory requests not yet answered
reg [31:0]  base_reg,   base_next;       // memory address of word 0
reg [63:0]  wmask_reg,  wmask_next;      // byte mask applied to the writes
reg [7:0]   st_reg,     st_next;         // status to report
reg [511:0] rdata_reg,  rdata_next;      // words read for a response

wire [3:0]  words    = s_rxd_len[6:3];
wire [32:0] end_addr = {1'b0, s_rxd_addr} + {25'd0, s_rxd_len};
wire        bad_range = s_rxd_addr_hi || (end_addr > {1'b0, cfg_mem_size});
wire        bad_align = (s_rxd_addr[2:0] != 3'd0);
wire        is_fetch  = (s_rxd_tag & `TG_TAG_FETCH) != 16'd0;

assign fetch_lookup_idx = s_rxd_tag[3:0];
assign fetch_free_idx   = s_rxd_tag[3:0];

assign m_hrd_src    = s_rxd_src;
assign m_hrd_tag    = s_rxd_tag;
assign m_hrd_status = s_rxd_status;
assign m_hrd_data   = s_rxd_payload[63:0];

assign m_txd_valid   = (state_reg == S_RESP);
assign m_txd_op      = `TG_OP_READ_RESP;
assign m_txd_status  = st_reg;
assign m_txd_dst     = s_rxd_src;
assign m_txd_addr    = s_rxd_addr;
assign m_txd_mask    = s_rxd_mask;
assign m_txd_len     = (st_reg == `TG_ST_OK) ? s_rxd_len : 8'd0;
assign m_txd_ctx     = s_rxd_ctx;
assign m_txd_tag     = s_rxd_tag;
assign m_txd_payload = rdata_reg;

always @* begin
    state_next = state_reg;
    after_next = after_reg;
    idx_next   = idx_reg;
    rcv_next   = rcv_reg;
    pend_next  = pend_reg;
    base_next  = base_reg;
    wmask_next = wmask_reg;
    st_next    = st_reg;
    rdata_next = rdata_reg;

    s_rxd_ready      = 1'b0;
    m_mem_req_valid  = 1'b0;
    m_mem_req_write  = 1'b0;
    m_mem_req_addr   = base_reg + {25'd0, idx_reg, 3'd0};
    m_mem_req_wdata  = s_rxd_payload[idx_reg[2:0]*64 +: 64];
    m_mem_req_wstrb  = wmask_reg[idx_reg[2:0]*8 +: 8];
    m_hrd_valid      = 1'b0;
    fetch_free_valid = 1'b0;
    ev_refused       = 1'b0;
    ev_stray         = 1'b0;
    ev_rx_done       = 1'b0;

    // memory answers: count them, keep read data in order
    if (s_mem_resp_valid) begin
        if (state_reg == S_READ || (state_reg == S_DRAIN && after_reg == N_RESP)) begin
            rdata_next[rcv_reg[2:0]*64 +: 64] = s_mem_resp_rdata;
            rcv_next = rcv_reg + 4'd1;
        end
    end

    case (state_reg)
        S_IDLE: begin
            idx_next   = 4'd0;
            rcv_next   = 4'd0;
            rdata_next = 512'd0;
            st_next    = `TG_ST_OK;
            if (s_rxd_valid) begin
                case (s_rxd_op)
                    `TG_OP_WRITE: begin
                        if (bad_align || bad_range) begin
                            ev_refused  = 1'b1;
                            s_rxd_ready = 1'b1;
                        end else begin
                            base_next  = s_rxd_addr;
                            wmask_next = s_rxd_mask;
                            after_next = N_DONE;
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
                        end else begin
                            // a zero-length read is a fence: earlier frames
                            // from this source are already complete
                            state_next = S_READ;
                        end
                    end
                    default: begin // TG_OP_READ_RESP: the parser lets no other opcode through
                        if (!is_fetch) begin
                            m_hrd_valid = 1'b1;
                            s_rxd_ready = 1'b1;
                        end else if (!fetch_lookup_valid || fetch_lookup_node != s_rxd_src) begin
                            ev_stray    = 1'b1;
                            s_rxd_ready = 1'b1;
                        end else begin
                            base_next  = fetch_lookup_laddr;
                            wmask_next = s_rxd_mask & fetch_lookup_mask;
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
            if (idx_reg >= words) begin
                state_next = S_DRAIN;
            end else if (wmask_reg[idx_reg[2:0]*8 +: 8] == 8'd0) begin
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
            if (idx_reg >= words) begin
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
                        s_rxd_ready      = 1'b1;
                        state_next       = S_IDLE;
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

        default: state_next = S_IDLE;
    endcase

    // requests issued this cycle minus answers received
    pend_next = pend_reg + {4'd0, m_mem_req_valid && m_mem_req_ready} - {4'd0, s_mem_resp_valid};
end

// ---------------------------------------------------------------- registers
always @(posedge clk) begin
    state_reg <= state_next;
    after_reg <= after_next;
    idx_reg   <= idx_next;
    rcv_reg   <= rcv_next;
    pend_reg  <= pend_next;
    base_reg  <= base_next;
    wmask_reg <= wmask_next;
    st_reg    <= st_next;
    rdata_reg <= rdata_next;
    if (rst) begin
        state_reg <= S_IDLE;
        after_reg <= N_DONE;
        pend_reg  <= 5'd0;
    end
end

endmodule

`default_nettype wire
