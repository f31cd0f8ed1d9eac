// Arithmetic modulo q = 3329 without DSPs for the constant multiplies (shift-add).
// Included inside modules (Yosys 0.23 has no SystemVerilog packages).

// x mod q for x < 2^24 (any product of two values below q, or a sum of two such products
// below 2^24), Barrett with k = 24, m = floor(2^24 / q) = 5039: the estimate is at most one too
// small for every 24-bit x, so one conditional subtraction finishes. In two steps, a pipeline
// register between them (poly_engine): modq_red24_r(x mod 2^14, modq_red24_q(x)).
// The estimate qe = floor(5039 x / 2^24) takes three adders (5039 = 5 * 63 * 16 - 1); then
// x - 3329 qe is below 2q, so its 14 low bits do (3329 qe mod 2^14 = (13 qe mod 64) 2^8 + qe).
// Every function here is checked on every input by hw/tb/modq_check.v (hw/tb/run.py modq).
function [12:0] modq_red24_q;
    input [23:0] x;
    reg [26:0] x5;
    reg [32:0] y;
    reg [37:0] t;
    begin
        x5 = {1'b0, x, 2'b00} + {3'b000, x};             // 5 x
        y  = {x5, 6'd0} - {6'd0, x5};                   // 315 x
        t  = {1'b0, y, 4'd0} - {14'd0, x};              // 5039 x
        modq_red24_q = t[36:24];
    end
endfunction
function [11:0] modq_red24_r;
    input [13:0] xlo;                 // x mod 2^14
    input [12:0] qe;
    reg [5:0]  h;
    reg [13:0] d, r, r1;
    begin
        h  = {qe[2:0], 3'b000} + {qe[3:0], 2'b00} + qe[5:0];   // 13 qe mod 64
        d  = xlo - {1'b0, qe};
        r  = {d[13:8] - h, d[7:0]};
        r1 = r - 14'd3329;
        modq_red24_r = r1[13] ? r[11:0] : r1[11:0];
    end
endfunction
// x 2^-7 (neg = 0) or -x 2^-7 (neg = 1) mod q for x < q, shift-add (Montgomery with R = 2^7;
// q = 1 mod 128): u = -x mod 128 (neg: x mod 128) makes x + q u (neg: q u - x) divisible by
// 128, and the quotient is 26 u + (x >> 7) + [x mod 128 != 0] (neg: 26 u - (x >> 7), plus q
// when negative), 26 = (q - 1) / 128
function [11:0] modq_sdiv128;
    input [11:0] x;
    input        neg;
    reg [6:0]  u;
    reg [12:0] t;
    begin
        u = neg ? x[6:0] : 7'd0 - x[6:0];
        t = {1'b0, u, 4'd0} + {2'b00, u, 3'd0} + {5'd0, u, 1'b0} +
            ({8'd0, x[11:7]} ^ {13{neg}}) + {12'd0, neg || x[6:0] != 7'd0};
        modq_sdiv128 = t[12] ? t + 13'd3329 : t[11:0];
    end
endfunction

function [11:0] modq_add;
    input [11:0] a, b;
    reg [12:0] s;
    begin
        s = a + b;
        modq_add = (s >= 13'd3329) ? s - 13'd3329 : s[11:0];
    end
endfunction

function [11:0] modq_sub;
    input [11:0] a, b;
    reg [12:0] s;
    begin
        s = {1'b0, a} - {1'b0, b};
        modq_sub = s[12] ? s + 13'd3329 : s[11:0];
    end
endfunction
