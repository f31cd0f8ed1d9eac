// Compress_d / Decompress_d and the one-hot d of the codec modules (no SV packages in Yosys 0.23).

// the d values, one-hot bit k of a select standing for DVAL[4k +: 4]
localparam [23:0] DVAL = {4'd12, 4'd11, 4'd10, 4'd5, 4'd4, 4'd1};

function [5:0] d_onehot;
    input [3:0] d;
    integer j;
    begin
        d_onehot = 6'd0;
        for (j = 0; j < 6; j = j + 1)
            if (d == DVAL[4*j +: 4]) d_onehot[j] = 1'b1;
    end
endfunction

// d W: the bits of a word of W coefficients (an AND-OR of constants)
function [7:0] d_bits;
    input [5:0] dsel;
    input integer w;
    integer j;
    begin
        d_bits = 8'd0;
        for (j = 0; j < 6; j = j + 1)
            if (dsel[j]) d_bits = d_bits | DVAL[4*j +: 4] * w;
    end
endfunction

// Compress_d(x) = round(2^d x / q) mod 2^d for x < q, every d at once from one product:
// x 2580335 / 2^33 ~ x / q (2580335 = 2^21 + 2^19 - 2^15 - 2^13 - 2^7 - 2^4 - 1), each term
// truncated by 2^12, minus 2: p = 630 x - (x >> 5) - (x >> 8) - 2 (mod 2^22), and
// Compress_d(x) = ((p + 2^(20-d)) >> (21 - d)) mod 2^d (exact for every x < q and d < 12: checked
// exhaustively in hw/tb/test_codec.py, in Python and through the RTL).
// In two halves, a register between them (the clock): compress_hi = 315 x (630 x as 126 (5 x),
// narrow adders first: Yosys keeps every adder at its full width), compress_lo = the rounding
// constant r minus (x >> 8) + (x >> 5) + 2, and p + r = 2 compress_hi + compress_lo (one adder).
function [20:0] compress_hi;
    input [11:0] x;
    reg   [14:0] x5;
    begin
        x5 = {x, 2'd0} + {3'd0, x};
        compress_hi = {x5, 6'd0} - {6'd0, x5};
    end
endfunction
function [21:0] compress_lo;
    input [11:0] x;
    input [21:0] r;
    compress_lo = r - ({18'd0, x[11:8]} + {15'd0, x[11:5]} + 22'd2);
endfunction

// Decompress_d(y) = round(q y / 2^d) = (q y + 2^(d-1)) >> d = (q Y + 2^11) >> 12 with Y = y << (12 - d)
// (the same rational number): one d-independent product; q = 2^11 + 2^10 + 2^8 + 1.
function [11:0] decompress12;
    input [11:0] y;
    reg   [23:0] p;
    begin
        p = ({12'd0, y} << 11) + ({12'd0, y} << 10) + ({12'd0, y} << 8) + {12'd0, y} + 24'd2048;
        decompress12 = p[23:12];
    end
endfunction
