// Compress_d / Decompress_d for ML-KEM, included inside the codec modules (no SV packages in Yosys 0.23).
// Compress_d(x) = round(2^d x / q) mod 2^d = floor((2^(d+1) x + q) / 2q) mod 2^d, for x < q.
// The division is a multiply by m = ceil(2^34 / 2q) = 2580335 and a shift, exact for every
// numerator that occurs (checked exhaustively in hw/tb/test_codec.py).
function [11:0] compress_d;
    input [11:0] x;
    input [3:0]  d;
    reg   [24:0] t;
    reg   [47:0] p;
    reg   [13:0] quo;
    begin
        t   = ({13'd0, x} << (d + 1)) + 25'd3329;
        // 2580335 = 2^21 + 2^19 - 2^15 - 2^13 - 2^7 - 2^4 - 1
        p   = ({23'd0, t} << 21) + ({23'd0, t} << 19) - ({23'd0, t} << 15) - ({23'd0, t} << 13)
            - ({23'd0, t} << 7) - ({23'd0, t} << 4) - {23'd0, t};
        quo = p[47:34];
        compress_d = quo[11:0] & ((12'd1 << d) - 12'd1);
    end
endfunction

// Decompress_d(y) = round(q y / 2^d) = (q y + 2^(d-1)) >> d; q = 2^11 + 2^10 + 2^8 + 1.
function [11:0] decompress_d;
    input [11:0] y;
    input [3:0]  d;
    reg   [23:0] p;
    begin
        p = ({12'd0, y} << 11) + ({12'd0, y} << 10) + ({12'd0, y} << 8) + {12'd0, y};
        p = (p + (24'd1 << (d - 1))) >> d;
        decompress_d = p[11:0];
    end
endfunction

