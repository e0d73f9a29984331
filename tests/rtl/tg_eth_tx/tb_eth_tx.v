// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// Bench top of the transmitter's test: tg_eth_tx beside a store of every
// payload buffer's slots. A descriptor comes with its payload as one
// vector, and the store takes its words into the slot the descriptor
// names (of the buffer it names) as the transmitter accepts it. The read
// port answers a cycle after the address: the store's word while the
// transmitter claims the port, the bench's junk word otherwise (the port
// then serves another reader). The bench may also write junk words into
// any slot the frame in flight does not use; it sees the pin and the
// release as the transmitter drives them.
`default_nettype none
`include "tg_hw_defs.vh"

module tb_eth_tx (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_node_id,

    input  wire         s_txd_valid,
    output wire         s_txd_ready,
    input  wire [7:0]   s_txd_op,
    input  wire [7:0]   s_txd_flags,
    input  wire [7:0]   s_txd_status,
    input  wire [15:0]  s_txd_dst,
    input  wire [31:0]  s_txd_addr,
    input  wire [5:0]   s_txd_off,
    input  wire [6:0]   s_txd_cnt,
    input  wire [7:0]   s_txd_len,
    input  wire [7:0]   s_txd_ctx,
    input  wire [15:0]  s_txd_tag,
    input  wire [63:0]  s_txd_key,
    input  wire [511:0] s_txd_payload,  // word k in [64k+63:64k], stored into the slot
    input  wire [1:0]   s_txd_pay_src,
    input  wire [4:0]   s_txd_pay_slot,
    input  wire         s_txd_pay_rel,
    input  wire [31:0]  s_txd_seq,
    input  wire [31:0]  s_txd_ack,

    // the word the read port answers with when the transmitter does not claim it
    input  wire [63:0]  tb_junk,
    // a junk word written into the store
    input  wire         tb_wr_en,
    input  wire [1:0]   tb_wr_src,
    input  wire [4:0]   tb_wr_slot,
    input  wire [2:0]   tb_wr_word,
    input  wire [63:0]  tb_wr_data,

    output wire         m_pay_rd_valid,
    output wire [1:0]   m_pay_src,
    output wire [4:0]   m_pay_rd_slot,
    output wire [2:0]   m_pay_rd_word,
    output wire         m_pay_pin_valid,
    output wire         m_pay_rel_valid,

    output wire [63:0]  m_axis_tx_tdata,
    output wire [7:0]   m_axis_tx_tkeep,
    output wire         m_axis_tx_tvalid,
    input  wire         m_axis_tx_tready,
    output wire         m_axis_tx_tlast,

    output wire         ev_tx_start,
    output wire         ev_tx_data_start,
    output wire         ev_tx_frame
);

// the slots of the four buffer numbers (TG_PAY_NONE's are never read), a
// word at {src, slot, word}
reg  [63:0] store [0:1023];
reg  [63:0] rd_data_reg;
integer     k;

wire        txd_take = s_txd_valid && s_txd_ready && (s_txd_pay_src != `TG_PAY_NONE);

always @(posedge clk) begin
    if (tb_wr_en) begin
        store[{tb_wr_src, tb_wr_slot, tb_wr_word}] <= tb_wr_data;
    end
    if (txd_take) begin
        for (k = 0; k < 8; k = k + 1) begin
            store[{s_txd_pay_src, s_txd_pay_slot, k[2:0]}] <= s_txd_payload[k*64 +: 64];
        end
    end
    rd_data_reg <= (m_pay_rd_valid && m_pay_src != `TG_PAY_NONE) ?
                   store[{m_pay_src, m_pay_rd_slot, m_pay_rd_word}] : tb_junk;
end

tg_eth_tx #(
    .PAY_SLOT_W (5)
) dut (
    .clk              (clk),
    .rst              (rst),
    .cfg_node_id      (cfg_node_id),
    .s_txd_valid      (s_txd_valid),
    .s_txd_ready      (s_txd_ready),
    .s_txd_op         (s_txd_op),
    .s_txd_flags      (s_txd_flags),
    .s_txd_status     (s_txd_status),
    .s_txd_dst        (s_txd_dst),
    .s_txd_addr       (s_txd_addr),
    .s_txd_off (s_txd_off),
    .s_txd_cnt (s_txd_cnt),
    .s_txd_len        (s_txd_len),
    .s_txd_ctx        (s_txd_ctx),
    .s_txd_tag        (s_txd_tag),
    .s_txd_key        (s_txd_key),
    .s_txd_pay_src    (s_txd_pay_src),
    .s_txd_pay_slot   (s_txd_pay_slot),
    .s_txd_pay_rel    (s_txd_pay_rel),
    .s_txd_seq        (s_txd_seq),
    .s_txd_ack        (s_txd_ack),
    .m_pay_rd_valid   (m_pay_rd_valid),
    .m_pay_src        (m_pay_src),
    .m_pay_rd_slot    (m_pay_rd_slot),
    .m_pay_rd_word    (m_pay_rd_word),
    .s_pay_rd_data    (rd_data_reg),
    .m_pay_pin_valid  (m_pay_pin_valid),
    .m_pay_rel_valid  (m_pay_rel_valid),
    .m_axis_tx_tdata  (m_axis_tx_tdata),
    .m_axis_tx_tkeep  (m_axis_tx_tkeep),
    .m_axis_tx_tvalid (m_axis_tx_tvalid),
    .m_axis_tx_tready (m_axis_tx_tready),
    .m_axis_tx_tlast  (m_axis_tx_tlast),
    .ev_tx_start      (ev_tx_start),
    .ev_tx_data_start (ev_tx_data_start),
    .ev_tx_frame      (ev_tx_frame)
);

endmodule

`default_nettype wire
