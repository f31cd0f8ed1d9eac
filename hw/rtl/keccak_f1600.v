// Keccak-f[1600], one round per clock (24 cycles per permutation).
// Lane (x, y) is state[64*(x+5*y) +: 64]; bytes are little-endian within a lane, so the
// 200-byte FIPS 202 state maps byte i to state[8*i +: 8].
// A sponge drives it through the lane port (XOR one 64-bit lane while idle, clear the state)
// and `go`; `start` with `state_in` loads a whole state (unit tests; tied off in the core, where
// synthesis removes the load path).
module keccak_f1600 (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,      // load state_in and run 24 rounds
    input  wire [1599:0] state_in,
    input  wire          go,         // run 24 rounds on the current state
    input  wire          clear,      // zero the state (stops a permutation under way)
    input  wire          xor_we,     // state lane xor_lane ^= xor_data (while idle)
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
    // synthesis sees theta as two XOR levels and chi + iota as one 6-input function per bit.
    // An earlier form, rotl(v, rho(i)) through functions, left Yosys 0.23 with variable shifters
    // (thousands of MUXF7/8 cells, 14k LUT in xcup).
    wire [319:0]  c;          // column parities
    wire [319:0]  d;          // theta: D[x] = C[x-1] ^ rot(C[x+1], 1)
    wire [1599:0] b;          // after theta, rho and pi
    wire [1599:0] next;
    genvar gx, gi;
    generate
        for (gx = 0; gx < 5; gx = gx + 1) begin : theta
            assign c[64*gx +: 64] = state[64*gx +: 64] ^ state[64*(gx+5) +: 64] ^
                state[64*(gx+10) +: 64] ^ state[64*(gx+15) +: 64] ^ state[64*(gx+20) +: 64];
            wire [63:0] cr = c[64*((gx+1)%5) +: 64];
            assign d[64*gx +: 64] = c[64*((gx+4)%5) +: 64] ^ {cr[62:0], cr[63]};
        end
        for (gi = 0; gi < 25; gi = gi + 1) begin : lanes
            // B[y, 2x + 3y] = rot(A[x, y] ^ D[x], rho[x, y])
            localparam integer X = gi % 5;
            localparam integer Y = gi / 5;
            localparam [5:0] R = RHO[6*gi +: 6];
            wire [63:0]  t  = state[64*gi +: 64] ^ d[64*X +: 64];
            /* verilator lint_off UNUSEDSIGNAL */
            wire [127:0] tt = {t, t};     // rot(t, R) = tt[127-R -: 64]
            /* verilator lint_on UNUSEDSIGNAL */
            assign b[64*(Y + 5*((2*X + 3*Y) % 5)) +: 64] = tt[127-R -: 64];
            // chi on row Y (iota on lane 0 below)
            assign next[64*gi +: 64] = b[64*gi +: 64] ^
                (~b[64*((X+1)%5 + 5*Y) +: 64] & b[64*((X+2)%5 + 5*Y) +: 64]) ^
                (gi == 0 ? rc(round) : 64'd0);
        end
    endgenerate

    // The state has its own always block, with the clear first and no reset: the clear is then the
    // flip-flops' synchronous reset as it is (one net), and the lane XOR a per-lane clock enable.
    // Under `rst` (which the state used to hold for) Yosys made the reset (clear && !rst) &&
    // enable, and with the sponge alone as the top an AND gate per state bit (1,600 LUT2 in
    // xcup). The state needs no reset: a sponge clears it before use (its init), and `rst` stops
    // a permutation through `running`.
    integer l;
    always @(posedge clk) begin
        if (clear) state <= 1600'd0;
        else if (start && !running) state <= state_in;
        else if (running) state <= next;
        else
            // per-lane decode: no 25:1 read mux and no variable-index write
            for (l = 0; l < 25; l = l + 1)
                if (xor_we && xor_lane == l[4:0]) state[64*l +: 64] <= state[64*l +: 64] ^ xor_data;
    end
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
