// Arithmetic modulo q = 3329 without DSPs for the constant multiplies (shift-add).
// Included inside modules (Yosys 0.23 has no SystemVerilog packages).

// x mod q for x < 2^24 (any product of two values below q, or a sum of two such products
// below 2^24). Barrett with k = 24, m = floor(2^24 / q) = 5039: the estimate is at most one
// too small for every 24-bit x (checked exhaustively in hw/tb/test_poly.py), so one
// conditional subtraction finishes.
function [11:0] modq_red24;
    input [23:0] x;
    reg [37:0] t;
    reg [12:0] qe;
    reg [24:0] p;
    reg [13:0] r;
    begin
        // 5039 = 2^12 + 2^10 - 2^6 - 2^4 - 1
        t  = ({14'd0, x} << 12) + ({14'd0, x} << 10) - ({14'd0, x} << 6) - ({14'd0, x} << 4) - {14'd0, x};
        qe = t[36:24];
        // 3329 = 2^11 + 2^10 + 2^8 + 1
        p  = ({12'd0, qe} << 11) + ({12'd0, qe} << 10) + ({12'd0, qe} << 8) + {12'd0, qe};
        r  = x[13:0] - p[13:0];          // the true difference is below 2q < 2^14
        modq_red24 = (r >= 14'd3329) ? r - 14'd3329 : r[11:0];
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
