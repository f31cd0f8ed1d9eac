// Keccak-f[1600], one round per clock (24 cycles per permutation).
// Lane (x, y) is state[64*(x+5*y) +: 64]; bytes are little-endian within a lane, so the
// 200-byte FIPS 202 state maps byte i to state[8*i +: 8].
// A sponge drives it through the lane port (write one 64-bit lane of the next input block while
// idle, clear the state) and `go`; `start` with `state_in` loads a whole state (unit tests; tied off in the core, where
// synthesis removes the load path).
module keccak_f1600 #(
    // lanes that take input data: 21 (SHAKE128's rate) in general; 17 where SHAKE128 absorbs at
    // most 136 bytes (ML-KEM's XOF: 34), which saves the XOR of lanes 17-20 (but for lane 20's
    // last bit, SHAKE128's final padding bit)
    parameter DATA_LANES = 21
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,      // load state_in and run 24 rounds
    input  wire [1599:0] state_in,
    input  wire          go,         // run 24 rounds on the current state
    input  wire          clear,      // zero the state (stops a permutation under way)
    input  wire          xor_we,     // input block lane xor_lane = xor_data (while idle; lanes
                                     // 0-20, each written at most once per block: see `pend`;
                                     // above DATA_LANES, only zeros and lane 20's bit 63)
    input  wire [4:0]    xor_lane,
    input  wire [63:0]   xor_data,
    output reg  [1599:0] state,
    output wire          busy,
    output reg           done        // one-cycle pulse when state holds the permuted value
);
    reg  [4:0] round;
    reg        running;
    assign busy = running;

    function [63:0] rc;
        input [4:0] r;
        case (r)
            5'd0:  rc = 64'h0000000000000001; 5'd1:  rc = 64'h0000000000008082;
            5'd2:  rc = 64'h800000000000808A; 5'd3:  rc = 64'h8000000080008000;
            5'd4:  rc = 64'h000000000000808B; 5'd5:  rc = 64'h0000000080000001;
            5'd6:  rc = 64'h8000000080008081; 5'd7:  rc = 64'h8000000000008009;
            5'd8:  rc = 64'h000000000000008A; 5'd9:  rc = 64'h0000000000000088;
            5'd10: rc = 64'h0000000080008009; 5'd11: rc = 64'h000000008000000A;
            5'd12: rc = 64'h000000008000808B; 5'd13: rc = 64'h800000000000008B;
            5'd14: rc = 64'h8000000000008089; 5'd15: rc = 64'h8000000000008003;
            5'd16: rc = 64'h8000000000008002; 5'd17: rc = 64'h8000000000000080;
            5'd18: rc = 64'h000000000000800A; 5'd19: rc = 64'h800000008000000A;
            5'd20: rc = 64'h8000000080008081; 5'd21: rc = 64'h8000000000008080;
            5'd22: rc = 64'h0000000080000001; 5'd23: rc = 64'h8000000080008008;
            default: rc = 64'h0;
        endcase
    endfunction

    // rho offsets, lane x + 5*y at RHO[6*(x + 5*y) +: 6]
    localparam [149:0] RHO = {6'd14, 6'd56, 6'd61, 6'd2,  6'd18,    // y = 4
                              6'd8,  6'd21, 6'd15, 6'd45, 6'd41,    // y = 3
                              6'd39, 6'd25, 6'd43, 6'd10, 6'd3,     // y = 2
                              6'd20, 6'd55, 6'd6,  6'd44, 6'd36,    // y = 1
                              6'd27, 6'd28, 6'd62, 6'd1,  6'd0};    // y = 0

    // The round is written with constant part-selects only (every rotation a fixed wiring), so
    // synthesis sees chi + iota as one 6-input function per bit. An earlier form, rotl(v, rho(i))
    // through functions, left Yosys 0.23 with variable shifters (thousands of MUXF7/8 cells, 14k
    // LUT in xcup).
    // Theta's D comes from its own module in three copies, one per chi operand (see
    // keccak_theta): chi's three bits b0 ^ (~b1 & b2) each take theirs from the copy for their
    // place, so every a ^ D pair feeds one chi only.
    // The input block waits in `pend` (the data lanes: all 21 of SHAKE128's rate by default) and the
    // first round permutes a = state ^ pend; `pend` is zeroed as that round runs. XORed straight
    // into the state, the block took a select in front of every rate flip-flop (running ? next :
    // state ^ lane), a second LUT per bit beside chi; here the state's input is the round alone.
    // Lanes are written, not XORed: a sponge writes each lane of a block once, into a zeroed
    // `pend`.
    reg  [64*DATA_LANES-1:0] pend;
    reg                      pad20;     // lane 20, bit 63 (DATA_LANES < 21)
    wire [1599:0] a;              // the round's input
    keccak_pend_xor #(.DATA_LANES(DATA_LANES)) px (.state(state), .pend(pend), .pad20(pad20), .a(a));
    wire [319:0]  d0, d1, d2;     // D[x] = C[x-1] ^ rot(C[x+1], 1) of a
    keccak_theta th (.a(a), .d0(d0), .d1(d1), .d2(d2));
    wire [1599:0] b0, b1, b2;     // after theta (with copy j of D), rho and pi
    wire [1599:0] next;
    genvar gi;
    generate
        for (gi = 0; gi < 25; gi = gi + 1) begin : lanes
            // B[y, 2x + 3y] = rot(A[x, y] ^ D[x], rho[x, y])
            localparam integer X = gi % 5;
            localparam integer Y = gi / 5;
            localparam integer P = Y + 5*((2*X + 3*Y) % 5);
            localparam [5:0] R = RHO[6*gi +: 6];
            /* verilator lint_off UNUSEDSIGNAL */
            wire [63:0]  t0 = a[64*gi +: 64] ^ d0[64*X +: 64];
            wire [63:0]  t1 = a[64*gi +: 64] ^ d1[64*X +: 64];
            wire [63:0]  t2 = a[64*gi +: 64] ^ d2[64*X +: 64];
            wire [127:0] tt0 = {t0, t0}, tt1 = {t1, t1}, tt2 = {t2, t2};  // rot(t, R) = tt[127-R -: 64]
            /* verilator lint_on UNUSEDSIGNAL */
            assign b0[64*P +: 64] = tt0[127-R -: 64];
            assign b1[64*P +: 64] = tt1[127-R -: 64];
            assign b2[64*P +: 64] = tt2[127-R -: 64];
            // chi on row Y (iota on lane 0)
            assign next[64*gi +: 64] = b0[64*gi +: 64] ^
                (~b1[64*((X+1)%5 + 5*Y) +: 64] & b2[64*((X+2)%5 + 5*Y) +: 64]) ^
                (gi == 0 ? rc(round) : 64'd0);
        end
    endgenerate

    // The state has its own always block, with the clear first and no reset: the clear is then the
    // flip-flops' synchronous reset as it is (one net), and `running` their clock enable. Under
    // `rst` (which the state used to hold for) Yosys made the reset (clear && !rst) && enable,
    // and with the sponge alone as the top an AND gate per state bit (1,600 LUT2 in xcup). The
    // state needs no reset: a sponge clears it before use (its init), and `rst` stops a
    // permutation through `running`.
    always @(posedge clk) begin
        if (clear) state <= 1600'd0;
        else if (start && !running) state <= state_in;
        else if (running) state <= next;
    end
    // `pend` likewise: zeroed by the clear (it may hold a secret input block) and by every round
    // (the first consumes it), written per lane (a clock enable per lane, no read mux)
    integer l;
    always @(posedge clk) begin
        if (clear || running || start) begin
            pend <= {64*DATA_LANES{1'b0}};
            pad20 <= 1'b0;
        end else begin
            for (l = 0; l < DATA_LANES; l = l + 1)
                if (xor_we && xor_lane == l[4:0]) pend[64*l +: 64] <= xor_data;
            if (DATA_LANES < 21 && xor_we && xor_lane == 5'd20) pad20 <= xor_data[63];
        end
    end
`ifndef SYNTHESIS
    // a sponge that breaks DATA_LANES's promise stops the simulation instead of hashing wrongly
    always @(posedge clk)
        if (!clear && !running && xor_we && {27'd0, xor_lane} >= DATA_LANES &&
            (xor_lane == 5'd20 ? xor_data[62:0] != 63'd0 : xor_data != 64'd0)) begin
            $display("keccak_f1600: input data in lane %0d, above DATA_LANES = %0d", xor_lane, DATA_LANES);
            $finish;
        end
`endif
    always @(posedge clk) begin
        done <= 1'b0;
        if (rst) begin
            running <= 1'b0;
            round   <= 5'd0;
        end else if (clear) begin
            // also abandons a permutation under way (a new hash starts while the last one's
            // output is no longer needed)
            running <= 1'b0;
        end else if (start && !running) begin
            round   <= 5'd0;
            running <= 1'b1;
        end else if (!running) begin
            if (go) begin
                round   <= 5'd0;
                running <= 1'b1;
            end
        end else begin
            round <= round + 5'd1;
            if (round == 5'd23) begin
                running <= 1'b0;
                done    <= 1'b1;
            end
        end
    end
endmodule

// Theta's D for keccak_f1600, in three copies, and the round's input a = state ^ pend: two
// modules kept whole in synthesis (keep_hierarchy; Verilator and Icarus ignore the attribute).
// The round's ABC run then sees a and the copies as unrelated inputs and maps chi as one LUT6 a
// bit, chi(a0, D0, a1, D1, a2, D2). Yosys's ABC prices a LUT2 at 2 and a LUT6 at 5: given one D,
// it shared each a ^ D (a LUT2 feeding three chis) and mapped chi on it, two LUTs a bit;
// flattened, it mapped chi through the column parities (a LUT6 of four parities and two state
// bits, then a LUT3 or LUT4). Inside the module the copies are one net: they cost nothing.
// With a in the same module as the parities, ABC built them from state and pend (+320 LUT).
(* keep_hierarchy *)
module keccak_theta (
    input  wire [1599:0] a,
    output wire [319:0]  d0,
    output wire [319:0]  d1,
    output wire [319:0]  d2
);
    wire [319:0] c;           // column parities
    wire [319:0] d;
    genvar gx;
    generate
        for (gx = 0; gx < 5; gx = gx + 1) begin : theta
            assign c[64*gx +: 64] = a[64*gx +: 64] ^ a[64*(gx+5) +: 64] ^
                a[64*(gx+10) +: 64] ^ a[64*(gx+15) +: 64] ^ a[64*(gx+20) +: 64];
            wire [63:0] cr = c[64*((gx+1)%5) +: 64];
            assign d[64*gx +: 64] = c[64*((gx+4)%5) +: 64] ^ {cr[62:0], cr[63]};
        end
    endgenerate
    assign d0 = d;
    assign d1 = d;
    assign d2 = d;
endmodule

(* keep_hierarchy *)
module keccak_pend_xor #(
    parameter DATA_LANES = 21
) (
    input  wire [1599:0]             state,
    input  wire [64*DATA_LANES-1:0]  pend,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                      pad20,     // unused at DATA_LANES = 21
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [1599:0]             a
);
    generate
        if (DATA_LANES < 21)
            assign a = {state[1599:1344], state[1343] ^ pad20, state[1342:64*DATA_LANES],
                        state[64*DATA_LANES-1:0] ^ pend};
        else
            assign a = {state[1599:1344], state[1343:0] ^ pend};
    endgenerate
endmodule
