// Polynomial engine for ML-KEM: NTT, inverse NTT, base multiplication, addition, subtraction
// on 256-coefficient polynomials mod q = 3329, held in two banks of polynomial slots.
//
// NBU dual-butterfly units: 2*NBU butterflies per cycle, one multiplier each (2*NBU DSPs);
// the reductions are shift-add (modq.vh). A memory word holds W = 2*NBU coefficients
// (12 bits each, coefficient i of the word in bits [12i +: 12]), so a polynomial is 256/W words.
// Slot s lives in bank s[0]; a pass reads two words a cycle from one bank (both ports) and
// writes two words a cycle to the other bank, so every pass runs at full rate without
// read/write conflicts (ping-pong), and the command's slot choice must respect that:
//   NTT   a -> b      (a, b in different banks; a is used as scratch)
//   INTT  a -> b      (a is scratch): the 7 layers, the last one scaled by 1/128 (its sum
//         output by a shift-add x 2^-7 mod q, its difference through zeta(1) / 128), so there
//         is no scaling pass
//   INTT128 a -> b    (a is scratch): 128 INTT(a), the 7 layers unscaled, for products whose
//         factor already carries 1/128 (encryption samples y scaled, sampler.v)
//   with a staging buffer (cmd_stage) the last layer folds it into its result as it is
//   written (no ADD/SUB pass): INTT gives s - INTT(a) (decryption's v - s^T u; its last layer
//   computes -INTT(a): the negated scaling and zeta), INTT128 gives 128 INTT(a) + s
//   (encryption's u + e1, v + e2); s is read two words a cycle at the write
//   MUL   a o b -> c  (a, b in one bank, c in the other): NTT-domain base multiplication
//   MAC   c + a o b -> c  (same bank rule as MUL, same cycles): the product accumulated into c,
//         read on the write bank's second port, so a sum of products needs no ADD passes
//   ADD   a + b -> c, SUB a - b -> c (same bank rule as MUL)
//   ZERO  (op 0) slots 0 .. 2a-1 (a slot rows of both banks; a = 0: all 16), both staging
//         buffers and the datapath registers := 0 (the wipe after an operation; four ports at a
//         time: max(a, 1) * 128/W + 4 + L cycles)
// A command that breaks the rule is refused with cmd_err (nothing runs).
// Cycles per command (core clock, from cmd_valid to done), L = pipeline drain:
//   NTT, INTT and INTT128 7 * (128/W + L), MUL/MAC 512/W + L + 2, ADD/SUB 256/W + L.
module poly_engine #(
    parameter NBU = 2
) (
    input  wire             clk,
    input  wire             rst,
    // commands
    input  wire             cmd_valid,
    input  wire [2:0]       cmd_op,
    input  wire [3:0]       cmd_a,
    input  wire [3:0]       cmd_b,
    input  wire [3:0]       cmd_c,
    input  wire             cmd_stage,   // operand a from staging buffer cmd_sbuf (see above)
    input  wire             cmd_sbuf,
    output wire             idle,
    output reg              done,
    output reg              cmd_err,
    // host word access while idle: write, or read with data on host_rdata the next cycle; a
    // read also while a command leaves port 0 of the slot's bank free (host_rd_ok, see below)
    input  wire             host_we,
    input  wire             host_re,
    output wire             host_rd_ok,
    input  wire [3:0]       host_slot,
    input  wire [7:0]       host_word,
    input  wire [24*NBU-1:0] host_wdata,
    output wire [24*NBU-1:0] host_rdata,
    // staging buffers: written at any time, also while a command runs (not the buffer it reads)
    input  wire             stage_we,
    input  wire             stage_buf,
    input  wire [7:0]       stage_word,
    input  wire [24*NBU-1:0] stage_wdata
);
    localparam W     = 2 * NBU;
    localparam DW    = 12 * W;
    localparam LW    = (W == 2) ? 1 : (W == 4) ? 2 : 3;   // log2(W)
    localparam WORDS = 256 / W;
    localparam WA    = 8 - LW;                            // log2(WORDS)
    localparam AW    = WA + 3;                            // 8 slots per bank
    // between passes: the last word issued is written 4 cycles later (S0..S3), and a read issued
    // the cycle after that write sees it, so the next pass may issue after 4 drain cycles
    localparam DRAIN = 4;

    localparam OP_NTT = 3'd1, OP_INTT = 3'd2, OP_MUL = 3'd3, OP_ADD = 3'd4, OP_SUB = 3'd5,
               OP_MAC = 3'd6, OP_INTT128 = 3'd7;
    localparam K_CT = 3'd0, K_GS = 3'd1, K_MUL = 3'd3, K_ADD = 3'd4, K_SUB = 3'd5, K_ZERO = 3'd6;
    localparam [11:0] ZETA1_128 = 12'd1652;               // zeta(1) * 128^-1 mod q (1729 / 128)
    localparam [11:0] NZETA1_128 = 12'd1677;              // its negative (INTT subtracted from s)
    localparam OP_ZERO = 3'd0;

`include "modq.vh"
`include "mlkem_rom.vh"

    // x * 2^-7 mod q for x < q, shift-add (Montgomery with R = 2^7; q = 1 mod 128, so
    // m = -x mod 128 makes x + q m divisible by 128, and (x + q m) / 128 < q needs no correction):
    // (x >> 7) + [x mod 128 != 0] + 26 m, 26 = (q - 1) / 128
    function [11:0] modq_div128;
        input [11:0] x;
        reg [6:0] m;
        begin
            m = 7'd0 - x[6:0];
            modq_div128 = {7'd0, x[11:7]} + {11'd0, x[6:0] != 7'd0} + ({5'd0, m} << 4) + ({5'd0, m} << 3)
                          + ({5'd0, m} << 1);
        end
    endfunction
    // -x * 2^-7 mod q: m = x mod 128 makes q m - x divisible by 128; (q m - x) / 128 =
    // 26 m - (x >> 7), negative only when m = 0 (then + q)
    function [11:0] modq_ndiv128;
        input [11:0] x;
        reg [12:0] t;
        begin
            t = ({6'd0, x[6:0]} << 4) + ({6'd0, x[6:0]} << 3) + ({6'd0, x[6:0]} << 1) - {8'd0, x[11:7]};
            modq_ndiv128 = t[12] ? t + 13'd3329 : t[11:0];
        end
    endfunction

    // ---------------- command state ----------------
    reg        busy;
    reg [2:0]  op;
    reg [3:0]  sa, sb, sc;
    wire [3:0] zrows = (sa == 4'd0 || sa > 4'd8) ? 4'd8 : sa;   // ZERO: slot rows 0 .. sa-1
    reg        stg, sbuf;
    reg [3:0]  pass;          // layer / pass number within the command
    reg [9:0]  cnt;           // issue counter within the pass (ZERO at NBU = 1: up to 515)
    reg        draining;
    reg [3:0]  drain_cnt;
    assign idle = !busy;
    wire       intt_op = op == OP_INTT || op == OP_INTT128;

    // the current pass, derived from (op, pass)
    reg  [2:0] kind;
    reg  [2:0] lenlog;        // log2(len) for butterfly layers
    reg  [3:0] rslot0, rslot1, wslot;
    reg  [9:0] nissue;        // ZERO at NBU = 1: 512
    reg        last_pass;
    always @* begin
        kind = K_ADD; lenlog = 3'd1; rslot0 = sa; rslot1 = sb; wslot = sc;
        nissue = WORDS; last_pass = 1'b1;
        case (op)
            OP_NTT: begin
                kind = K_CT; lenlog = 3'd7 - pass[2:0];
                rslot0 = pass[0] ? sb : sa; rslot1 = rslot0; wslot = pass[0] ? sa : sb;
                nissue = 128 / W; last_pass = (pass == 4'd6);
            end
            OP_INTT, OP_INTT128: begin
                kind = K_GS; lenlog = pass[2:0] + 3'd1;
                rslot0 = pass[0] ? sb : sa; rslot1 = rslot0; wslot = pass[0] ? sa : sb;
                nissue = 128 / W; last_pass = (pass == 4'd6);
            end
            OP_MUL, OP_MAC: begin kind = K_MUL; nissue = 2 * WORDS + 2; end
            OP_SUB: kind = K_SUB;
            OP_ZERO: begin kind = K_ZERO; nissue = zrows * (WORDS / 2) + 4; end
            default: kind = K_ADD;
        endcase
        // a from a staging buffer: MUL/MAC/ADD/SUB read b's bank (both ports; port 0's word is
        // replaced by the staging word); NTT's first layer reads both words from the buffer
        if (stg && op != OP_NTT && !intt_op) rslot0 = sb;
    end
    wire from_stage = stg && !intt_op && (op != OP_NTT || pass == 4'd0);
    wire last_layer = intt_op && pass == 4'd6;             // scaled (INTT) and / or folded (stg)

    wire bad_cmd = (cmd_op == OP_NTT) ? (cmd_a[0] == cmd_b[0]) :
                   (cmd_op == OP_INTT || cmd_op == OP_INTT128) ? (cmd_a[0] == cmd_b[0]) :
                   (cmd_op == OP_MUL || cmd_op == OP_MAC || cmd_op == OP_ADD || cmd_op == OP_SUB) ?
                       (cmd_b[0] == cmd_c[0] || (!cmd_stage && cmd_a[0] != cmd_b[0])) :
                   (cmd_op == OP_ZERO) ? cmd_stage : 1'b0;

    always @(posedge clk) begin
        done <= 1'b0;
        if (rst) begin
            busy <= 1'b0; cmd_err <= 1'b0; draining <= 1'b0;
        end else if (!busy) begin
            if (cmd_valid) begin
                cmd_err <= bad_cmd;
                if (!bad_cmd) begin
                    busy <= 1'b1; op <= cmd_op; sa <= cmd_a; sb <= cmd_b; sc <= cmd_c;
                    stg <= cmd_stage; sbuf <= cmd_sbuf;
                    pass <= 4'd0; cnt <= 10'd0; draining <= 1'b0;
                end
            end
        end else if (!draining) begin
            if (cnt == nissue - 10'd1) begin
                draining <= 1'b1; drain_cnt <= 4'd0;
            end
            cnt <= cnt + 10'd1;
        end else begin
            drain_cnt <= drain_cnt + 4'd1;
            if (drain_cnt == DRAIN - 1) begin
                draining <= 1'b0; cnt <= 10'd0;
                if (last_pass) begin busy <= 1'b0; done <= 1'b1; end
                else pass <= pass + 4'd1;
            end
        end
    end

    // ---------------- address generation (issue stage) ----------------
    wire issuing = busy && !draining;
    // ZERO writes for 4 WORDS cycles, then reads zeros for 4 more so the pipeline registers
    // hold no data of the operation either (the MUL holding registers are cleared directly)
    wire zeroing = issuing && kind == K_ZERO && cnt < zrows * (WORDS / 2);
    reg  [WA-1:0] wa, wb;                 // word indices read on ports 0 and 1 (and written back)
    reg  [6:0]    zidx [0:W-1];           // twiddle index per butterfly lane
    reg           ph_b;                   // MUL: second issue cycle of a word
    reg           wr0, wr1;               // the pass writes port 0 / port 1 results
    reg  [WA-1:0] mul_word;
    integer i;
    reg  [8:0] blk, off;
    integer l;

    // position of butterfly i's first input among the 2W coefficients of a word pair, for len = 2^l
    function integer pos;
        input integer i, l;
        pos = ((i >> l) << (l + 1)) + (i & ((1 << l) - 1));
    endfunction
    always @* begin
        wa = 0; wb = 0; ph_b = 1'b0; wr0 = 1'b1; wr1 = 1'b0; mul_word = 0;
        for (i = 0; i < W; i = i + 1) zidx[i] = 7'd0;
        blk = 9'd0; off = 9'd0;
        case (kind)
            K_CT, K_GS: begin
                wr1 = 1'b1;
                if (lenlog >= LW) begin
                    // len/W words per half block: shifts only (no multipliers for addresses)
                    blk = cnt >> (lenlog - LW);
                    off = cnt & ((9'd1 << (lenlog - LW)) - 9'd1);
                    wa = (blk << (lenlog - LW + 1)) | off;
                    wb = wa | (9'd1 << (lenlog - LW));
                    for (i = 0; i < W; i = i + 1)
                        zidx[i] = (kind == K_CT) ? (9'd128 >> lenlog) + blk : (9'd256 >> lenlog) - 9'd1 - blk;
                end else begin
                    wa = {cnt[WA-2:0], 1'b0}; wb = {cnt[WA-2:0], 1'b1};
                    // len < W: butterfly i of the word pair sits in block (2W cnt + p_i) / 2len;
                    // one case per possible len keeps every index a constant
                    for (l = 1; l < LW; l = l + 1)
                        if (lenlog == l)
                            for (i = 0; i < W; i = i + 1) begin
                                blk = ({cnt, {(LW+1){1'b0}}} + pos(i, l)) >> (l + 1);
                                zidx[i] = (kind == K_CT) ? (9'd128 >> l) + blk : (9'd256 >> l) - 9'd1 - blk;
                            end
                end
            end
            K_MUL: begin
                // even cycle: read word c/2 (phase A); odd cycle: phase B of that word and the
                // gamma product (slot C) of the word before, whose result is written back.
                ph_b = cnt[0];
                wa = cnt[WA:1]; wb = cnt[WA:1];
                mul_word = cnt[WA:1] - 1'b1;
                wr0 = ph_b && (cnt[8:1] != 0) && (cnt[8:1] <= WORDS);
                for (i = 0; i < NBU; i = i + 1) zidx[i] = (mul_word << (LW - 1)) | i;   // gamma index
            end
            K_ZERO: wr0 = 1'b0;                   // written by the port drivers below
            default: begin wa = cnt[WA-1:0]; wb = cnt[WA-1:0]; end
        endcase
    end

    // ---------------- memory ----------------
    reg  [AW-1:0] a0 [0:1], a1 [0:1];
    reg           we0 [0:1], we1 [0:1];
    reg  [DW-1:0] wd0 [0:1], wd1 [0:1];
    wire [DW-1:0] rd0 [0:1], rd1 [0:1];

    // (instances named without a generate loop: the tests read them through the hierarchy)
    poly_ram #(.WIDTH(DW), .DEPTH(8 * WORDS), .AW(AW)) bank0 (
        .clk(clk), .we0(we0[0]), .addr0(a0[0]), .wdata0(wd0[0]), .rdata0(rd0[0]),
        .we1(we1[0]), .addr1(a1[0]), .wdata1(wd1[0]), .rdata1(rd1[0]));
    poly_ram #(.WIDTH(DW), .DEPTH(8 * WORDS), .AW(AW)) bank1 (
        .clk(clk), .we0(we0[1]), .addr0(a0[1]), .wdata0(wd0[1]), .rdata0(rd0[1]),
        .we1(we1[1]), .addr1(a1[1]), .wdata1(wd1[1]), .rdata1(rd1[1]));

    // pipeline metadata: issue -> S0 (RAM data) -> S1 (product) -> S2 (reduced) -> S3 (write)
    reg          v_s0, v_s1, v_s2, v_s3;
    reg  [2:0]   k_s0, k_s1, k_s2, k_s3;
    reg  [2:0]   l_s0, l_s1, l_s2, l_s3;
    reg          b_s0, b_s1, b_s2;          // MUL phase B
    reg          mac_s0, mac_s1, mac_s2;    // MAC: add the word read from c (acc_s2)
    reg  [DW-1:0] acc_s1, acc_s2;
    reg          sc_s0, sc_s1;              // INTT's last layer: sums scaled by 2^-7
    reg          ng_s0, ng_s1;              // ... and negated (INTT subtracted from a buffer)
    reg          fd_s0, fd_s1, fd_s2, fd_s3;  // last layer of a folding INTT / INTT128
    reg          w0_s0, w0_s1, w0_s2, w0_s3, w1_s0, w1_s1, w1_s2, w1_s3;
    reg  [AW-1:0] wa_s0, wa_s1, wa_s2, wa_s3, wb_s0, wb_s1, wb_s2, wb_s3;
    reg          bank_s0, bank_s1, bank_s2, bank_s3;
    reg  [11:0]  z_s0 [0:W-1];
    reg          hr_s0;                     // a host read was issued last cycle
    reg          host_bank_q;

    wire rbank = rslot0[0];
    wire acc_re = kind == K_MUL && wr0;       // the issue cycle whose result word is written
    wire [AW-1:0] raddr0 = {rslot0[3:1], wa};
    wire [AW-1:0] raddr1 = {rslot1[3:1], wb};
    wire [AW-1:0] waddr0 = {wslot[3:1], (kind == K_MUL) ? mul_word : wa};
    wire [AW-1:0] waddr1 = {wslot[3:1], wb};

    // ---------------- staging buffers ----------------
    // Two polynomials filled by the core (sampler, decoder) while the engine runs, read as
    // operand a. Each is a true dual-port RAM: port 0 writes, or reads for the engine while a
    // command reads that buffer; port 1 reads (NTT's first layer reads two words a cycle).
    wire [DW-1:0] srd0 [0:1], srd1 [0:1];
    wire          s_clr = zeroing && cnt < WORDS / 2;      // both ports, half a buffer each
    wire          s_rd0 = busy && stg && !sbuf, s_rd1 = busy && stg && sbuf;
    // operand a: the words issued now; a folding INTT: the words its S1 stage holds, so the
    // buffer's words arrive at S2 and are registered beside them into S3 (FS0/FS1: no RAM
    // clock-to-out in front of the fold's adder)
    wire [WA-1:0] s_ra0 = intt_op ? wa_s1[WA-1:0] : wa;
    wire [WA-1:0] s_ra1 = intt_op ? wb_s1[WA-1:0] : wb;
    reg  [DW-1:0] FS0, FS1;
    poly_ram #(.WIDTH(DW), .DEPTH(WORDS), .AW(WA)) stage0 (
        .clk(clk), .we0((stage_we && !stage_buf && !s_rd0) || s_clr),
        .addr0(s_rd0 ? s_ra0 : s_clr ? {1'b0, cnt[WA-2:0]} : stage_word[WA-1:0]),
        .wdata0(s_clr ? {DW{1'b0}} : stage_wdata), .rdata0(srd0[0]),
        .we1(s_clr), .addr1(s_clr ? {1'b1, cnt[WA-2:0]} : s_ra1), .wdata1({DW{1'b0}}), .rdata1(srd1[0]));
    poly_ram #(.WIDTH(DW), .DEPTH(WORDS), .AW(WA)) stage1 (
        .clk(clk), .we0((stage_we && stage_buf && !s_rd1) || s_clr),
        .addr0(s_rd1 ? s_ra0 : s_clr ? {1'b0, cnt[WA-2:0]} : stage_word[WA-1:0]),
        .wdata0(s_clr ? {DW{1'b0}} : stage_wdata), .rdata0(srd0[1]),
        .we1(s_clr), .addr1(s_clr ? {1'b1, cnt[WA-2:0]} : s_ra1), .wdata1({DW{1'b0}}), .rdata1(srd1[1]));

    // ---------------- datapath ----------------
    reg  [DW-1:0] X, Y;                       // S0: the two words read
    reg           stage_s0;                   // ... from a staging buffer
    reg  [11:0]   ina [0:W-1], inb [0:W-1];   // butterfly inputs after the layer's wiring
    reg  [11:0]   mx [0:W-1], my [0:W-1];     // multiplier operands
    reg  [11:0]   side [0:W-1];               // value passed beside the multiplier
    reg  [23:0]   P [0:W-1];                  // S1: products
    reg  [11:0]   side1 [0:W-1];
    reg  [11:0]   R [0:W-1];                  // S2: reduced products
    reg  [11:0]   side2 [0:W-1];
    reg  [11:0]   oa [0:W-1], ob [0:W-1];     // S2 outputs per butterfly
    reg  [DW-1:0] OX, OY;                     // S2 output words
    reg  [DW-1:0] OX_s3, OY_s3;               // S3: registered output words
    // MUL: per pair j the A products (a0b0, a1b1) wait for the gamma product
    reg  [11:0]   msa [0:NBU-1], msb [0:NBU-1];
    reg  [11:0]   hold_a0b0 [0:NBU-1], hold_a1b1 [0:NBU-1];
    reg  [11:0]   ph0 [0:NBU-1], ph1 [0:NBU-1];
    reg  [11:0]   gam [0:NBU-1];
    reg  [11:0]   acc0 [0:NBU-1], acc1 [0:NBU-1];
    integer j;

    always @* begin
        X = stage_s0 ? srd0[sbuf] : rd0[bank_s0];
        Y = (stage_s0 && k_s0 == K_CT) ? srd1[sbuf] : rd1[bank_s0];
        // butterfly wiring: len >= W pairs lane i of X with lane i of Y; len < W pairs
        // positions p and p + len inside the 2W coefficients {Y, X}
        for (i = 0; i < W; i = i + 1) begin
            ina[i] = X[12*i +: 12];
            inb[i] = Y[12*i +: 12];
        end
        for (l = 1; l < LW; l = l + 1)
            if ((k_s0 == K_CT || k_s0 == K_GS) && l_s0 == l)
                for (i = 0; i < W; i = i + 1) begin
                    ina[i] = (pos(i, l) < W) ? X[12*pos(i, l) +: 12] : Y[12*(pos(i, l) - W) +: 12];
                    inb[i] = (pos(i, l) + (1 << l) < W) ? X[12*(pos(i, l) + (1 << l)) +: 12]
                                                        : Y[12*(pos(i, l) + (1 << l) - W) +: 12];
                end
        for (i = 0; i < W; i = i + 1) begin
            mx[i] = z_s0[i]; my[i] = inb[i]; side[i] = ina[i];
            case (k_s0)
                K_CT:    begin my[i] = inb[i]; side[i] = ina[i]; end
                K_GS:    begin my[i] = modq_sub(inb[i], ina[i]); side[i] = modq_add(ina[i], inb[i]); end
                K_ADD:   begin mx[i] = 12'd0; side[i] = modq_add(ina[i], inb[i]); end
                K_SUB:   begin mx[i] = 12'd0; side[i] = modq_sub(ina[i], inb[i]); end
                default: ;
            endcase
        end
        if (k_s0 == K_MUL) begin
            for (j = 0; j < NBU; j = j + 1) begin
                if (!b_s0) begin   // phase A: a0*b0 on lane 2j, a1*b1 on lane 2j+1
                    mx[2*j]   = ina[2*j];   my[2*j]   = inb[2*j];
                    mx[2*j+1] = ina[2*j+1]; my[2*j+1] = inb[2*j+1];
                end else begin     // phase B: (a0+a1)(b0+b1) on lane 2j; gamma * a1b1 of the word before
                    mx[2*j]   = msa[j]; my[2*j]   = msb[j];
                    mx[2*j+1] = hold_a1b1[j]; my[2*j+1] = gam[j];
                end
            end
        end
        // S2: combine
        for (i = 0; i < W; i = i + 1) begin
            oa[i] = side2[i]; ob[i] = R[i];
            case (k_s2)
                K_CT:    begin oa[i] = modq_add(side2[i], R[i]); ob[i] = modq_sub(side2[i], R[i]); end
                K_GS:    begin oa[i] = side2[i]; ob[i] = R[i]; end
                default: ;
            endcase
        end
        OX = 0; OY = 0;
        for (j = 0; j < NBU; j = j + 1) begin
            acc0[j] = mac_s2 ? acc_s2[24*j +: 12] : 12'd0;
            acc1[j] = mac_s2 ? acc_s2[24*j + 12 +: 12] : 12'd0;
        end
        for (i = 0; i < W; i = i + 1) begin
            OX[12*i +: 12] = oa[i];
            OY[12*i +: 12] = ob[i];
        end
        for (l = 1; l < LW; l = l + 1)
            if ((k_s2 == K_CT || k_s2 == K_GS) && l_s2 == l)
                for (i = 0; i < W; i = i + 1) begin
                    if (pos(i, l) < W) OX[12*pos(i, l) +: 12] = oa[i];
                    else OY[12*(pos(i, l) - W) +: 12] = oa[i];
                    if (pos(i, l) + (1 << l) < W) OX[12*(pos(i, l) + (1 << l)) +: 12] = ob[i];
                    else OY[12*(pos(i, l) + (1 << l) - W) +: 12] = ob[i];
                end
        if (k_s2 == K_MUL) begin
            for (j = 0; j < NBU; j = j + 1) begin
                OX[24*j +: 12]      = modq_add(modq_add(ph0[j], R[2*j+1]), acc0[j]);   // a0b0 + gamma a1b1
                OX[24*j + 12 +: 12] = modq_add(ph1[j], acc1[j]);   // (a0+a1)(b0+b1) - a0b0 - a1b1
            end
        end
    end

    always @(posedge clk) begin
        // issue -> S0
        v_s0 <= issuing; k_s0 <= kind; l_s0 <= lenlog; b_s0 <= ph_b; stage_s0 <= from_stage;
        sc_s0 <= issuing && last_layer && op == OP_INTT; fd_s0 <= issuing && last_layer && stg;
        ng_s0 <= issuing && last_layer && op == OP_INTT && stg;
        mac_s0 <= issuing && op == OP_MAC && acc_re;
        w0_s0 <= issuing && wr0; w1_s0 <= issuing && wr1;
        wa_s0 <= waddr0; wb_s0 <= waddr1; bank_s0 <= rbank;
        for (i = 0; i < W; i = i + 1)
            z_s0[i] <= (kind == K_MUL) ? 12'd0 : !(last_layer && op == OP_INTT) ? rom_zeta(zidx[i]) :
                       stg ? NZETA1_128 : ZETA1_128;
        if (kind == K_MUL && ph_b)
            for (j = 0; j < NBU; j = j + 1) gam[j] <= rom_gamma(zidx[j]);
        // S0 -> S1
        v_s1 <= v_s0; k_s1 <= k_s0; l_s1 <= l_s0; b_s1 <= b_s0;
        mac_s1 <= mac_s0; acc_s1 <= rd1[!bank_s0]; sc_s1 <= sc_s0; ng_s1 <= ng_s0; fd_s1 <= fd_s0;
        w0_s1 <= w0_s0; w1_s1 <= w1_s0; wa_s1 <= wa_s0; wb_s1 <= wb_s0; bank_s1 <= !bank_s0;
        for (i = 0; i < W; i = i + 1) begin
            P[i] <= mx[i] * my[i];
            side1[i] <= side[i];
        end
        if (k_s0 == K_MUL && !b_s0)
            for (j = 0; j < NBU; j = j + 1) begin
                msa[j] <= modq_add(ina[2*j], ina[2*j+1]);
                msb[j] <= modq_add(inb[2*j], inb[2*j+1]);
            end
        // S1 -> S2
        v_s2 <= v_s1; k_s2 <= k_s1; l_s2 <= l_s1; b_s2 <= b_s1;
        mac_s2 <= mac_s1; acc_s2 <= acc_s1; fd_s2 <= fd_s1; fd_s3 <= fd_s2;
        w0_s2 <= w0_s1; w1_s2 <= w1_s1; wa_s2 <= wa_s1; wb_s2 <= wb_s1; bank_s2 <= bank_s1;
        for (i = 0; i < W; i = i + 1) begin
            R[i] <= modq_red24(P[i]);
            side2[i] <= !sc_s1 ? side1[i] : ng_s1 ? modq_ndiv128(side1[i]) : modq_div128(side1[i]);
        end
        // MUL bookkeeping on the reduced products (S2): phase A results wait for phase B's
        if (k_s2 == K_MUL && !b_s2)
            for (j = 0; j < NBU; j = j + 1) begin
                hold_a0b0[j] <= R[2*j];
                hold_a1b1[j] <= R[2*j+1];
            end
        if (k_s2 == K_MUL && b_s2)
            for (j = 0; j < NBU; j = j + 1) begin
                // R[2j] = (a0+a1)(b0+b1) of this word; the holds are this word's A products
                ph1[j] <= modq_sub(modq_sub(R[2*j], hold_a0b0[j]), hold_a1b1[j]);
                ph0[j] <= hold_a0b0[j];
            end
        // S2 -> S3 (write)
        v_s3 <= v_s2; k_s3 <= k_s2; l_s3 <= l_s2;
        w0_s3 <= w0_s2; w1_s3 <= w1_s2; wa_s3 <= wa_s2; wb_s3 <= wb_s2; bank_s3 <= bank_s2;
        OX_s3 <= OX; OY_s3 <= OY;
        FS0 <= fd_s2 ? srd0[sbuf] : {DW{1'b0}}; FS1 <= fd_s2 ? srd1[sbuf] : {DW{1'b0}};
        hr_s0 <= host_re; host_bank_q <= host_slot[0];
        if (zeroing)
            for (j = 0; j < NBU; j = j + 1) begin
                msa[j] <= 12'd0; msb[j] <= 12'd0; hold_a0b0[j] <= 12'd0; hold_a1b1[j] <= 12'd0;
                ph0[j] <= 12'd0; ph1[j] <= 12'd0; gam[j] <= 12'd0;
            end
    end

    // S3 write words: a folding INTT adds its staging buffer (INTT128: 128 INTT(a) + s; INTT:
    // -INTT(a) + s)
    reg  [DW-1:0] WX, WY;
    always @* begin
        WX = OX_s3; WY = OY_s3;
        if (fd_s3)
            for (i = 0; i < W; i = i + 1) begin
                WX[12*i +: 12] = modq_add(OX_s3[12*i +: 12], FS0[12*i +: 12]);
                WY[12*i +: 12] = modq_add(OY_s3[12*i +: 12], FS1[12*i +: 12]);
            end
    end

    // A MUL/MAC/ADD/SUB with operand a from a staging buffer reads b's bank on port 1 only (port
    // 0's word is replaced by the staging word) and writes the other bank: port 0 of b's bank is
    // free for a host read meanwhile (the core encodes a finished polynomial beside the command)
    wire host_idle = !busy && !w0_s3 && !w1_s3;
    wire host_beside = busy && stg && (kind == K_MUL || kind == K_ADD || kind == K_SUB) &&
                       host_slot[0] == rbank;
    assign host_rd_ok = host_idle || host_beside;

    // RAM port drivers: host access when idle; otherwise reads from the pass's read bank and
    // writes from S3 into the other bank
    always @* begin
        for (i = 0; i < 2; i = i + 1) begin
            a0[i] = 0; a1[i] = 0; we0[i] = 1'b0; we1[i] = 1'b0; wd0[i] = WX; wd1[i] = WY;
        end
        if (!busy && !w0_s3 && !w1_s3) begin
            a0[host_slot[0]] = {host_slot[3:1], host_word[WA-1:0]};
            we0[host_slot[0]] = host_we;
            wd0[host_slot[0]] = host_wdata;
        end else if (zeroing) begin
            // ZERO: every word of both banks, four ports at a time
            for (i = 0; i < 2; i = i + 1) begin
                // slot row cnt / (WORDS/2): its first half on port 0, its second on port 1
                a0[i] = {cnt[AW-2:WA-1], 1'b0, cnt[WA-2:0]}; a1[i] = {cnt[AW-2:WA-1], 1'b1, cnt[WA-2:0]};
                we0[i] = 1'b1; we1[i] = 1'b1; wd0[i] = {DW{1'b0}}; wd1[i] = {DW{1'b0}};
            end
        end else begin
            a0[rbank] = raddr0;
            a1[rbank] = raddr1;
            if (issuing && op == OP_MAC && acc_re) a1[wslot[0]] = waddr0;   // c's word, written 4 cycles later
            if (w0_s3) begin a0[bank_s3] = wa_s3; we0[bank_s3] = 1'b1; end
            if (w1_s3) begin a1[bank_s3] = wb_s3; we1[bank_s3] = 1'b1; end
            if (host_re && host_beside) a0[rbank] = {host_slot[3:1], host_word[WA-1:0]};
        end
    end
    assign host_rdata = rd0[host_bank_q];

`ifndef SYNTHESIS
    // poly_ram's no_rw_check: no read whose data is used may hit the word the other port of
    // its bank writes in the same cycle (used reads: the pass's read bank, MAC's accumulator on
    // the write bank's port 1, host reads)
    reg ru0 [0:1], ru1 [0:1];
    always @* begin
        for (i = 0; i < 2; i = i + 1) begin
            ru0[i] = (issuing && !zeroing && rbank == i) || (host_re && host_rd_ok && host_slot[0] == i);
            ru1[i] = (issuing && !zeroing && rbank == i) ||
                     (issuing && op == OP_MAC && acc_re && wslot[0] == i);
        end
    end
    always @(posedge clk)
        for (i = 0; i < 2; i = i + 1)
            if (a0[i] == a1[i] && ((we0[i] && !we1[i] && ru1[i]) || (we1[i] && !we0[i] && ru0[i])))
                $fatal(1, "poly_engine: bank %0d word %0d read on one port while written on the other", i, a0[i]);
`endif
endmodule
