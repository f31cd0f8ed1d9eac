// Keccak-f[1600], one round per clock (24 cycles per permutation).
// Lane (x, y) is state[64*(x+5*y) +: 64]; bytes are little-endian within a lane, so the
// 200-byte FIPS 202 state maps byte i to state[8*i +: 8].
// Written as one procedural round (not per-lane generate assigns): the netlist is the same and
// Icarus simulates it about 4x faster (../shared/spec/fpga.md, pitfall 9).
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

    // rho offsets, indexed by x + 5*y
    function [5:0] rho;
        input [4:0] i;
        case (i)
            5'd0: rho = 0;  5'd1: rho = 1;  5'd2: rho = 62; 5'd3: rho = 28; 5'd4: rho = 27;
            5'd5: rho = 36; 5'd6: rho = 44; 5'd7: rho = 6;  5'd8: rho = 55; 5'd9: rho = 20;
            5'd10: rho = 3; 5'd11: rho = 10; 5'd12: rho = 43; 5'd13: rho = 25; 5'd14: rho = 39;
            5'd15: rho = 41; 5'd16: rho = 45; 5'd17: rho = 15; 5'd18: rho = 21; 5'd19: rho = 8;
            5'd20: rho = 18; 5'd21: rho = 2;  5'd22: rho = 61; 5'd23: rho = 56; 5'd24: rho = 14;
            default: rho = 0;
        endcase
    endfunction

    function [63:0] rotl;
        input [63:0] v;
        input [5:0]  n;
        rotl = (n == 0) ? v : ((v << n) | (v >> (7'd64 - n)));
    endfunction

    reg [63:0] a [0:24];
    reg [63:0] b [0:24];
    reg [63:0] c [0:4];
    reg [63:0] d [0:4];
    reg [1599:0] next;
    integer x, y;

    always @* begin
        for (x = 0; x < 25; x = x + 1) a[x] = state[64*x +: 64];
        for (x = 0; x < 5; x = x + 1) c[x] = a[x] ^ a[x+5] ^ a[x+10] ^ a[x+15] ^ a[x+20];
        for (x = 0; x < 5; x = x + 1) d[x] = c[(x+4)%5] ^ rotl(c[(x+1)%5], 6'd1);
        // theta, rho and pi: B[y, 2x+3y] = rot(A[x, y] ^ D[x], rho[x, y])
        for (y = 0; y < 5; y = y + 1)
            for (x = 0; x < 5; x = x + 1)
                b[y + 5*((2*x + 3*y) % 5)] = rotl(a[x + 5*y] ^ d[x], rho(x + 5*y));
        // chi, then iota on lane (0, 0)
        for (y = 0; y < 5; y = y + 1)
            for (x = 0; x < 5; x = x + 1)
                next[64*(x+5*y) +: 64] = b[x + 5*y] ^ (~b[(x+1)%5 + 5*y] & b[(x+2)%5 + 5*y]);
        next[63:0] = next[63:0] ^ rc(round);
    end

    always @(posedge clk) begin
        done <= 1'b0;
        if (rst) begin
            running <= 1'b0;
            round   <= 5'd0;
        end else if (clear) begin
            // also abandons a permutation under way (a new hash starts while the last one's
            // output is no longer needed)
            state   <= 1600'd0;
            running <= 1'b0;
        end else if (start && !running) begin
            state   <= state_in;
            round   <= 5'd0;
            running <= 1'b1;
        end else if (!running) begin
            if (xor_we) state[64*xor_lane +: 64] <= state[64*xor_lane +: 64] ^ xor_data;
            if (go) begin
                round   <= 5'd0;
                running <= 1'b1;
            end
        end else begin
            state <= next;
            round <= round + 5'd1;
            if (round == 5'd23) begin
                running <= 1'b0;
                done    <= 1'b1;
            end
        end
    end
endmodule
