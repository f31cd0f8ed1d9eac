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
//   with a staging buffer (cmd_stage) the last layer folds it into its result (no ADD/SUB
//   pass): INTT gives s - INTT(a) (decryption's v - s^T u), INTT128 gives 128 INTT(a) + s
//   (encryption's u + e1, v + e2); s is read two words a cycle. The fold uses CT's sum and
//   difference units (S2): s + the sum output, whose scaling is negated for INTT, and s - the
//   difference output, whose zeta is negated for INTT128
//   MUL   a o b -> c  (a, b in one bank, c in the other): NTT-domain base multiplication
//   MAC   c + a o b -> c  (same bank rule as MUL, same cycles): the product accumulated into c,
//         read on the write bank's second port, so a sum of products needs no ADD passes
//   ADD   a + b -> c, SUB a - b -> c (same bank rule as MUL)
//   ZERO  (op 0) slots 0 .. 2a-1 (a slot rows of both banks; a = 0: all 16), both staging
//         buffers and the datapath registers := 0 (the wipe after an operation; eight words a
//         cycle: max(a * 64/W, 128/W) + L + 2 cycles)
// A command that breaks the rule is refused with cmd_err (nothing runs).
// Cycles per command (core clock, from cmd_valid to done), L = pipeline drain:
//   NTT, INTT and INTT128 7 * 128/W + L + 2, MUL/MAC 512/W + L + 2, ADD/SUB 256/W + L.
// The layers of an NTT / INTT follow each other without a drain: a layer reads in the order
// the layer before wrote (every word it reads was written at least a cycle before; the bound
// is derived at the sub-banks below), and each bank is two sub-banks, so a layer's first reads
// and the last writes of the layer before use four ports of the bank they share.
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
    output wire             ready,       // cmd_valid is taken now (idle, or the command below chains)
    output reg              done,
    output reg              cmd_err,
    // host word access while idle: write, or read with data on host_rdata the next cycle; a
    // read also while a command leaves port 0 of the slot's bank free (host_rd_ok, see below)
    input  wire             host_we,
    input  wire             host_re,
    output wire             host_rd_ok,
    output wire             tail,        // the last layer of an NTT / INTT: slot b readable (below)
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
    // between passes: the last word issued is written 8 cycles later (I, R, S0a, S0b, S1, S1b,
    // S2, S3; see the datapath), and a read issued the cycle after that write sees it; reads are
    // issued from the registered issue stage I too, so the next pass may issue after 7 drain cycles
    localparam DRAIN = 7;

    localparam OP_NTT = 3'd1, OP_INTT = 3'd2, OP_MUL = 3'd3, OP_ADD = 3'd4, OP_SUB = 3'd5,
               OP_MAC = 3'd6, OP_INTT128 = 3'd7;
    localparam K_CT = 3'd0, K_GS = 3'd1, K_MUL = 3'd3, K_ADD = 3'd4, K_SUB = 3'd5, K_ZERO = 3'd6;
    localparam [11:0] ZETA1_128 = 12'd1652;               // zeta(1) * 128^-1 mod q (1729 / 128)
    localparam [11:0] NZETA1 = 12'd1600;                  // -zeta(1) mod q (INTT128's folded last layer)
    localparam OP_ZERO = 3'd0;

`include "modq.vh"
`include "mlkem_rom.vh"

    // ---------------- command state ----------------
    reg        busy;
    reg [2:0]  op;
    reg [3:0]  sa, sb, sc;
    wire [3:0] zrows = (sa == 4'd0 || sa > 4'd8) ? 4'd8 : sa;   // ZERO: slot rows 0 .. sa-1
    // ZERO writes the slot rows at eight words a cycle (every port of the four sub-bank RAMs),
    // and runs at least WORDS/2 cycles: the staging buffers are cleared two words a cycle
    wire [9:0] zbank = zrows * (WORDS / 4);
    wire [9:0] zlen = (zbank > WORDS / 2) ? zbank : WORDS / 2;
    reg        stg, sbuf;
    reg [3:0]  pass;          // layer / pass number within the command
    reg [9:0]  cnt;           // issue counter within the pass (ZERO at NBU = 1: up to 515)
    reg        draining;
    reg [3:0]  drain_cnt;
    assign idle = !busy;
    wire       intt_op = op == OP_INTT || op == OP_INTT128;

    // the current pass, derived from (op, pass) (d_: decoded at the counter, registered into
    // the P stage below before the addresses are generated)
    reg  [2:0] d_kind;
    reg  [2:0] d_lenlog;        // log2(len) for butterfly layers
    reg  [3:0] d_rslot0, d_rslot1, d_wslot;
    reg  [9:0] nissue;        // ZERO at NBU = 1: 512
    reg        last_pass;
    always @* begin
        d_kind = K_ADD; d_lenlog = 3'd1; d_rslot0 = sa; d_rslot1 = sb; d_wslot = sc;
        nissue = WORDS; last_pass = 1'b1;
        case (op)
            OP_NTT: begin
                d_kind = K_CT; d_lenlog = 3'd7 - pass[2:0];
                d_rslot0 = pass[0] ? sb : sa; d_rslot1 = d_rslot0; d_wslot = pass[0] ? sa : sb;
                nissue = 128 / W; last_pass = (pass == 4'd6);
            end
            OP_INTT, OP_INTT128: begin
                d_kind = K_GS; d_lenlog = pass[2:0] + 3'd1;
                d_rslot0 = pass[0] ? sb : sa; d_rslot1 = d_rslot0; d_wslot = pass[0] ? sa : sb;
                nissue = 128 / W; last_pass = (pass == 4'd6);
            end
            OP_MUL, OP_MAC: begin d_kind = K_MUL; nissue = 2 * WORDS + 2; end
            OP_SUB: d_kind = K_SUB;
            OP_ZERO: begin d_kind = K_ZERO; nissue = zlen + DRAIN; end
            default: d_kind = K_ADD;
        endcase
        // a from a staging buffer: MUL/MAC/ADD/SUB read b's bank (both ports; port 0's word is
        // replaced by the staging word); NTT's first layer reads both words from the buffer
        if (stg && op != OP_NTT && !intt_op) d_rslot0 = sb;
    end
    wire d_from_stage = stg && !intt_op && (op != OP_NTT || pass == 4'd0);
    wire d_last_layer = intt_op && pass == 4'd6;           // scaled (INTT) and / or folded (stg)

    wire bad_cmd = (cmd_op == OP_NTT) ? (cmd_a[0] == cmd_b[0]) :
                   (cmd_op == OP_INTT || cmd_op == OP_INTT128) ? (cmd_a[0] == cmd_b[0]) :
                   (cmd_op == OP_MUL || cmd_op == OP_MAC || cmd_op == OP_ADD || cmd_op == OP_SUB) ?
                       (cmd_b[0] == cmd_c[0] || (!cmd_stage && cmd_a[0] != cmd_b[0])) :
                   (cmd_op == OP_ZERO) ? cmd_stage : 1'b0;

    // Chaining: a command is taken while the last one drains, from the drain's second cycle on
    // (the last word issued is then past the stages that read the command registers: the
    // staging reads at I; at R the buffer select is registered, sbuf_r), when nothing it does
    // can meet the last command's words still in flight: it reads neither the bank the last command writes (no read-after-write, no port shared with
    // its writes) nor, for MAC, the accumulator on port 1 of a bank a butterfly layer writes on
    // port 1; not after a folding INTT (it reads its staging buffer until S2) and not ZERO (it
    // writes every port at once). Its own writes start after the last command's last write.
    // The running command's terms are registers (the clock: this engine's state -> ready -> the
    // core's dispatch -> these command registers was a critical loop): ch_r is "busy, draining from
    // its second cycle on, not a folding INTT" for this cycle, set the cycle before; old_bfly and
    // old_wbank are set as the command is taken.
    reg  ch_r, old_bfly, old_wbank;
    wire new_bfly   = cmd_op == OP_NTT || cmd_op == OP_INTT || cmd_op == OP_INTT128;
    wire new_rbank  = new_bfly ? cmd_a[0] : cmd_b[0];
    wire chain_ok   = ch_r && cmd_op != OP_ZERO &&
                      new_rbank != old_wbank && !(cmd_op == OP_MAC && old_bfly && cmd_c[0] == old_wbank);
    assign ready = !busy || chain_ok;
    wire drain_end  = drain_cnt == (last_pass ? DRAIN + 1 : DRAIN - 1);
    always @(posedge clk) begin
        ch_r <= !rst && busy && draining && !drain_end && !(cmd_valid && chain_ok) && !(intt_op && stg);
        if ((!busy || chain_ok) && cmd_valid && !bad_cmd) begin
            old_bfly <= new_bfly; old_wbank <= new_bfly ? cmd_b[0] : cmd_c[0];
        end
    end

    always @(posedge clk) begin
        done <= 1'b0;
        if (rst) begin
            busy <= 1'b0; cmd_err <= 1'b0; draining <= 1'b0;
        end else if (!busy || (cmd_valid && chain_ok)) begin
            if (cmd_valid) begin
                cmd_err <= bad_cmd;
                if (!bad_cmd) begin
                    busy <= 1'b1; op <= cmd_op; sa <= cmd_a; sb <= cmd_b; sc <= cmd_c;
                    stg <= cmd_stage; sbuf <= cmd_sbuf;
                    pass <= 4'd0; cnt <= 10'd0; draining <= 1'b0;
                end
            end
        end else if (!draining) begin
            if (cnt == nissue - 10'd1 && !last_pass && (op == OP_NTT || intt_op)) begin
                cnt <= 10'd0; pass <= pass + 4'd1;          // the next layer at once
            end else begin
                if (cnt == nissue - 10'd1) begin
                    draining <= 1'b1; drain_cnt <= 4'd0;
                end
                cnt <= cnt + 10'd1;
            end
        end else begin
            drain_cnt <= drain_cnt + 4'd1;
            // the last pass drains two cycles more: its last write lands 2 + DRAIN cycles after
            // its last count (the registered stages P and I), and the host port waits for it
            if (drain_end) begin
                draining <= 1'b0; cnt <= 10'd0;
                if (last_pass) begin busy <= 1'b0; done <= 1'b1; end
                else pass <= pass + 4'd1;
            end
        end
    end

    // ---------------- address generation (issue stage) ----------------
    // P: the counter and the pass's decoded fields registered, so the address generation below
    // starts from registers (the drain between passes is unchanged: every read and write moves
    // one cycle later)
    wire issue_now = busy && !draining;
    reg           issuing, zeroing, from_stage, last_layer;
    reg  [2:0]    kind, lenlog;
    reg  [3:0]    rslot0, rslot1, wslot;
    reg  [9:0]    pcnt;
    // butterfly layers with len >= W: the words of a block's first half are the count with a 0
    // inserted at bit s = log2(len / W) (mask = 2^s - 1), the second half's the same with a 1
    // there; the twiddle index moves by one per block (CT up, GS down), counted, not shifted
    reg  [WA-1:0] mask;
    reg  [6:0]    zcur;
    wire [WA-1:0] d_mask = (d_lenlog >= LW) ? (({WA{1'b0}} | 1'b1) << (d_lenlog - LW)) - 1'b1 : {WA{1'b0}};
    wire [6:0]    d_zbase = (d_kind == K_CT) ? (8'd128 >> d_lenlog) : (9'd256 >> d_lenlog) - 1'b1;
    always @(posedge clk) begin
        mask <= d_mask;
        if (cnt == 10'd0) zcur <= d_zbase;
        else if ((pcnt[WA-1:0] & mask) == mask) zcur <= (kind == K_CT) ? zcur + 7'd1 : zcur - 7'd1;
        issuing <= issue_now;
        // ZERO writes for zlen cycles, then reads zeros for DRAIN more so the pipeline
        // registers hold no data of the operation either (the MUL holding registers are cleared
        // directly)
        zeroing <= issue_now && d_kind == K_ZERO && cnt < zlen;
        from_stage <= d_from_stage; last_layer <= d_last_layer;
        kind <= d_kind; lenlog <= d_lenlog; rslot0 <= d_rslot0; rslot1 <= d_rslot1; wslot <= d_wslot;
        pcnt <= cnt;
    end
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
                    wa = ((pcnt[WA-1:0] & ~mask) << 1) | (pcnt[WA-1:0] & mask);
                    wb = wa | (mask + 1'b1);
                    for (i = 0; i < W; i = i + 1) zidx[i] = zcur;
                end else begin
                    wa = {pcnt[WA-2:0], 1'b0}; wb = {pcnt[WA-2:0], 1'b1};
                    // len < W: butterfly i of the word pair sits in block (2W pcnt + p_i) / 2len;
                    // one case per possible len keeps every index a constant
                    for (l = 1; l < LW; l = l + 1)
                        if (lenlog == l)
                            for (i = 0; i < W; i = i + 1) begin
                                blk = ({pcnt, {(LW+1){1'b0}}} + pos(i, l)) >> (l + 1);
                                zidx[i] = (kind == K_CT) ? (9'd128 >> l) + blk : (9'd256 >> l) - 9'd1 - blk;
                            end
                end
            end
            K_MUL: begin
                // even cycle: read word c/2 (phase A); odd cycle: phase B of that word and the
                // gamma product (slot C) of the word before, whose result is written back.
                ph_b = pcnt[0];
                wa = pcnt[WA:1]; wb = pcnt[WA:1];
                mul_word = pcnt[WA:1] - 1'b1;
                wr0 = ph_b && (pcnt[8:1] != 0) && (pcnt[8:1] <= WORDS);
                for (i = 0; i < NBU; i = i + 1) zidx[i] = (mul_word << (LW - 1)) | i;   // gamma index
            end
            K_ZERO: wr0 = 1'b0;                   // written by the port drivers below
            default: begin wa = pcnt[WA-1:0]; wb = pcnt[WA-1:0]; end
        endcase
    end

    // ---------------- memory ----------------
    // Each bank is two sub-banks: word w of a slot lives in sub-bank ^w (the parity of its
    // index), at {slot row, w without its bit 0}. A butterfly layer's two words differ in one
    // bit, so they sit in different sub-banks; the layer reads on port 0 and writes on port 1 of
    // each, and when a layer starts while the one before still writes the same bank, the bank's
    // four ports carry both. Every other access keeps its port (0 or 1) in its word's sub-bank
    // (MUL/MAC/ADD/SUB read one word index on both ports). Physical RAM 2 * bank + sub-bank.
    // Without a drain between layers, layer p+1's issue t reads words layer p issued by t + D
    // (D = the half-block distance in words of the later-issued layer of the two: at most 64/W,
    // for the layers of len 64 and 128), written 7 cycles after their issue; 64/W + 8 <= 128/W
    // for W <= 8, so every word is read at least a cycle after it was written.
    reg  [AW-2:0] a0 [0:3], a1 [0:3];
    reg           we0 [0:3], we1 [0:3];
    reg  [DW-1:0] wd0 [0:3], wd1 [0:3];
    wire [DW-1:0] rd0 [0:3], rd1 [0:3];
    function sub_of;                          // the sub-bank of a word address
        input [AW-1:0] a;
        sub_of = ^a[WA-1:0];
    endfunction
    function [AW-2:0] in_sub;                 // its address inside the sub-bank
        input [AW-1:0] a;
        in_sub = {a[AW-1:WA], a[WA-1:1]};
    endfunction

    // (instances named without a generate loop: the tests read them through the hierarchy)
    poly_ram #(.WIDTH(DW), .DEPTH(4 * WORDS), .AW(AW - 1)) bank0s0 (
        .clk(clk), .we0(we0[0]), .addr0(a0[0]), .wdata0(wd0[0]), .rdata0(rd0[0]),
        .we1(we1[0]), .addr1(a1[0]), .wdata1(wd1[0]), .rdata1(rd1[0]));
    poly_ram #(.WIDTH(DW), .DEPTH(4 * WORDS), .AW(AW - 1)) bank0s1 (
        .clk(clk), .we0(we0[1]), .addr0(a0[1]), .wdata0(wd0[1]), .rdata0(rd0[1]),
        .we1(we1[1]), .addr1(a1[1]), .wdata1(wd1[1]), .rdata1(rd1[1]));
    poly_ram #(.WIDTH(DW), .DEPTH(4 * WORDS), .AW(AW - 1)) bank1s0 (
        .clk(clk), .we0(we0[2]), .addr0(a0[2]), .wdata0(wd0[2]), .rdata0(rd0[2]),
        .we1(we1[2]), .addr1(a1[2]), .wdata1(wd1[2]), .rdata1(rd1[2]));
    poly_ram #(.WIDTH(DW), .DEPTH(4 * WORDS), .AW(AW - 1)) bank1s1 (
        .clk(clk), .we0(we0[3]), .addr0(a0[3]), .wdata0(wd0[3]), .rdata0(rd0[3]),
        .we1(we1[3]), .addr1(a1[3]), .wdata1(wd1[3]), .rdata1(rd1[3]));

    // ---------------- pipeline ----------------
    // I   the issue stage registered: RAM and staging addresses come from registers (no address
    //     shifts or slot selects in front of the DP16KD address pins)
    // R   the RAM words arrive (block-RAM clock-to-out), registered before any logic into X, Y
    // S0a butterfly wiring, GS sum/difference, MUL operand sums; multiplier operands registered
    // S0b MUL phase B operands selected; the product (one DSP per lane) registered into P
    // S1  Barrett quotient estimate (shift-add), registered; INTT's last-layer scaling
    // S1b x - 3329 qe and one conditional subtraction: R; MUL/MAC partial sums
    // S2  CT sum/difference (which also fold a staging buffer's words into an INTT's last layer:
    //     read at S1, registered at S1b), MUL combine, output wiring: OX, OY
    // S3  write
    // Per stage, the command's data for the word travels in one bus (meta):
    localparam M_WB = 0, M_WA = AW, M_BANK = 2 * AW, M_W1 = 2 * AW + 1, M_W0 = 2 * AW + 2,
               M_K = 2 * AW + 3, M_L = 2 * AW + 6, M_B = 2 * AW + 9, M_MAC = 2 * AW + 10,
               M_SC = 2 * AW + 11, M_NG = 2 * AW + 12, M_FD = 2 * AW + 13, M_ST = 2 * AW + 14,
               MW = 2 * AW + 15;
    // bank: the pass's read bank (it writes the other); wa/wb: write addresses of ports 0/1;
    // w0/w1: port 0/1 written; k/l: kind and log2(len); b: MUL phase B; mac: MAC's accumulator
    // word (the issue cycle whose result is written); sc/ng: INTT's last layer scaled / negated;
    // fd: a folding last layer; st: operand from a staging buffer
    reg  [MW-1:0] m_q, m_r, m_s0, m_m, m_s1, m_h, m_s2, m_s3;
    reg           rst_q;
    wire rbank = rslot0[0];
    wire acc_re = kind == K_MUL && wr0;       // the issue cycle whose result word is written
    wire [AW-1:0] raddr0 = {rslot0[3:1], wa};
    wire [AW-1:0] raddr1 = {rslot1[3:1], wb};
    wire [AW-1:0] waddr0 = {wslot[3:1], (kind == K_MUL) ? mul_word : wa};
    wire [AW-1:0] waddr1 = {wslot[3:1], wb};
    wire ll_int = last_layer && op == OP_INTT;            // scaled last layer

    reg           q_issuing, q_zeroing;
    reg  [AW-1:0] q_raddr0, q_raddr1;
    reg  [WA-1:0] q_wa, q_wb;
    reg  [9:0]    q_cnt;
    // The twiddle ROM (mlkem_rom.vh: zetas at 0..127, gammas at 128..255) is block RAM with NBU
    // read ports (a dual-port RAM per two): a cycle needs at most NBU distinct twiddles (one
    // per block of a word pair, 2W / 2len <= NBU for the in-word layers len < W, one for
    // len >= W) or NBU gammas (MUL, one per coefficient pair). Port p reads block p's zeta: that of
    // lane p << log2(len) (lane i uses port i >> log2(len)), or pair p's gamma. The addresses
    // are registered at I, the words arrive at R.
    reg  [7:0]    twa [0:NBU-1];
    reg  [7:0]    q_twa [0:NBU-1];
    reg  [11:0]   tw_q [0:NBU-1];
    integer p;
    always @* begin
        for (p = 0; p < NBU; p = p + 1)
            twa[p] = (kind == K_MUL) ? {1'b1, zidx[p]} : {1'b0, zidx[0]};
        for (l = 1; l < LW; l = l + 1)
            if ((kind == K_CT || kind == K_GS) && lenlog == l)
                for (p = 0; p < NBU; p = p + 1)
                    if ((p << l) < W) twa[p] = {1'b0, zidx[p << l]};
    end
    always @(posedge clk)
        for (p = 0; p < NBU; p = p + 1) tw_q[p] <= twid[q_twa[p]];
    always @(posedge clk) begin
        q_issuing <= issuing; q_zeroing <= zeroing;
        q_raddr0 <= raddr0; q_raddr1 <= raddr1; q_wa <= wa; q_wb <= wb; q_cnt <= pcnt;
        for (p = 0; p < NBU; p = p + 1) q_twa[p] <= twa[p];
        m_q <= {from_stage, issuing && last_layer && stg, issuing && ll_int && stg, issuing && ll_int,
                issuing && op == OP_MAC && acc_re, ph_b, lenlog, kind, issuing && wr0, issuing && wr1,
                rbank, waddr0, waddr1};
        m_r <= m_q; m_s0 <= m_r; m_m <= m_s0; m_s1 <= m_m; m_h <= m_s1; m_s2 <= m_h; m_s3 <= m_s2;
        // A reset empties the pipeline: no write of a command cut short lands after it. `issuing`
        // (not reset: the gates cost ~50 LUT in xcup) is still set the cycle after a reset, so
        // m_q, where its writes enter, is held empty a cycle longer. (ZERO's own writes, from
        // q_zeroing, give way to the host port once the command has stopped.)
        rst_q <= rst;
        if (rst || rst_q) m_q <= {MW{1'b0}};
        if (rst) begin
            m_r <= {MW{1'b0}}; m_s0 <= {MW{1'b0}}; m_m <= {MW{1'b0}};
            m_s1 <= {MW{1'b0}}; m_h <= {MW{1'b0}}; m_s2 <= {MW{1'b0}}; m_s3 <= {MW{1'b0}};
        end
    end
    wire          q_rbank = m_q[M_BANK], q_mac = m_q[M_MAC], q_st = m_q[M_ST];
    wire [2:0]    q_kind = m_q[M_K +: 3];
    wire          bank_r = m_r[M_BANK], st_r = m_r[M_ST];
    wire [2:0]    k_r = m_r[M_K +: 3];
    wire [2:0]    k_s0 = m_s0[M_K +: 3], l_s0 = m_s0[M_L +: 3];
    wire          b_s0 = m_s0[M_B];
    wire [2:0]    k_m = m_m[M_K +: 3];
    wire          b_m = m_m[M_B], mac_m = m_m[M_MAC], bank_m = m_m[M_BANK];
    wire [AW-1:0] wa_m = m_m[M_WA +: AW];
    wire          sc_s1 = m_s1[M_SC], ng_s1 = m_s1[M_NG];
    wire [AW-1:0] wa_s1 = m_s1[M_WA +: AW], wb_s1 = m_s1[M_WB +: AW];
    wire          mac_h = m_h[M_MAC], fd_h = m_h[M_FD];
    wire [2:0]    k_s2 = m_s2[M_K +: 3], l_s2 = m_s2[M_L +: 3];
    wire          b_s2 = m_s2[M_B], fd_s2 = m_s2[M_FD];
    wire          w0_s3 = m_s3[M_W0], w1_s3 = m_s3[M_W1], bank_s3 = m_s3[M_BANK];
    wire [AW-1:0] wa_s3 = m_s3[M_WA +: AW], wb_s3 = m_s3[M_WB +: AW];
    reg  [1:0]    host_ram_q;
    wire [AW-1:0] host_addr = {host_slot[3:1], host_word[WA-1:0]};
    // the sub-banks of the words read at I (their data arrives at R) and of MAC's accumulator
    // word (read at S0b, arriving at S1)
    reg           rsub0, rsub1;
    reg  [1:0]    acc_ram;
    wire          bfly_r = k_r == K_CT || k_r == K_GS;
    reg           sbuf_r;                 // the staging buffer read at I (its words arrive at R)

    // ---------------- staging buffers ----------------
    // Two polynomials filled by the core (sampler, decoder) while the engine runs, read as
    // operand a. Each is a true dual-port RAM: port 0 writes, or reads for the engine while a
    // command reads that buffer; port 1 reads (NTT's first layer reads two words a cycle).
    wire [DW-1:0] srd0 [0:1], srd1 [0:1];
    wire          s_clr = q_zeroing && q_cnt < WORDS / 2;  // both ports, half a buffer each
    wire          s_rd0 = busy && stg && !sbuf, s_rd1 = busy && stg && sbuf;
    // operand a: the words of stage I; a folding INTT: the words its S1 stage holds, so the
    // buffer's words arrive at S1b and are registered beside them into S2 (FS0/FS1: no RAM
    // clock-to-out in front of the fold's adders)
    wire [WA-1:0] s_ra0 = intt_op ? wa_s1[WA-1:0] : q_wa;
    wire [WA-1:0] s_ra1 = intt_op ? wb_s1[WA-1:0] : q_wb;
    reg  [DW-1:0] FS0, FS1;
    poly_ram #(.WIDTH(DW), .DEPTH(WORDS), .AW(WA)) stage0 (
        .clk(clk), .we0((stage_we && !stage_buf && !s_rd0) || s_clr),
        .addr0(s_rd0 ? s_ra0 : s_clr ? {1'b0, q_cnt[WA-2:0]} : stage_word[WA-1:0]),
        .wdata0(s_clr ? {DW{1'b0}} : stage_wdata), .rdata0(srd0[0]),
        .we1(s_clr), .addr1(s_clr ? {1'b1, q_cnt[WA-2:0]} : s_ra1), .wdata1({DW{1'b0}}), .rdata1(srd1[0]));
    poly_ram #(.WIDTH(DW), .DEPTH(WORDS), .AW(WA)) stage1 (
        .clk(clk), .we0((stage_we && stage_buf && !s_rd1) || s_clr),
        .addr0(s_rd1 ? s_ra0 : s_clr ? {1'b0, q_cnt[WA-2:0]} : stage_word[WA-1:0]),
        .wdata0(s_clr ? {DW{1'b0}} : stage_wdata), .rdata0(srd0[1]),
        .we1(s_clr), .addr1(s_clr ? {1'b1, q_cnt[WA-2:0]} : s_ra1), .wdata1({DW{1'b0}}), .rdata1(srd1[1]));

    // ---------------- datapath ----------------
    reg  [DW-1:0] X, Y;                       // S0a: the two words read (registered at R)
    reg  [11:0]   z_r [0:W-1], z_s0 [0:W-1];  // twiddles (R: from the ROM ports, S0a)
    reg  [11:0]   ina [0:W-1], inb [0:W-1];   // butterfly inputs after the layer's wiring
    reg  [11:0]   mx [0:W-1], my [0:W-1];     // multiplier operands
    reg  [11:0]   side [0:W-1];               // value passed beside the multiplier
    reg  [11:0]   mx_m [0:W-1], my_m [0:W-1], side_m [0:W-1];   // S0b: registered operands
    reg  [11:0]   px [0:W-1], py [0:W-1];     // S0b: the multiplier's inputs
    reg  [23:0]   P [0:W-1];                  // S1: products
    reg  [11:0]   side1 [0:W-1];
    reg  [12:0]   qe_h [0:W-1];               // S1b: Barrett quotient estimates
    reg  [13:0]   xlo_h [0:W-1];              // ... and the products' low bits
    reg  [11:0]   side_h [0:W-1];
    reg  [11:0]   R [0:W-1];                  // S2: reduced products
    reg  [11:0]   side2 [0:W-1];
    reg  [11:0]   oa [0:W-1], ob [0:W-1];     // S2 outputs per butterfly
    reg  [11:0]   ua [0:W-1], ub [0:W-1];     // S2's modular sum and difference
    reg  [DW-1:0] OX, OY;                     // S2 output words
    reg  [DW-1:0] OX_s3, OY_s3;               // S3: registered output words
    reg  [DW-1:0] acc_h;                      // MAC: c's word (read at S0b, registered at S1b)
    // MUL: per pair j, phase A's products (a0b0, a0b0 + a1b1) wait for phase B's
    // (a0+a1)(b0+b1); ph0 = a0b0, ph1 = (a0+a1)(b0+b1) - a0b0 - a1b1 wait for gamma a1b1, and
    // pre0/pre1 = ph0/ph1 + c's word (MAC) are added one stage before it arrives
    reg  [11:0]   msa [0:NBU-1], msb [0:NBU-1];
    reg  [11:0]   hold_a0b0 [0:NBU-1], hsum [0:NBU-1];
    reg  [11:0]   ph0 [0:NBU-1], ph1 [0:NBU-1];
    reg  [11:0]   pre0 [0:NBU-1], pre1 [0:NBU-1];
    reg  [11:0]   gam [0:NBU-1];
    integer j;

    // R: each lane's zeta from its port (the scaled last layer: zeta(1)/128, negated when its
    // result is subtracted from a staging buffer)
    always @*
        for (i = 0; i < W; i = i + 1) begin
            z_r[i] = tw_q[0];
            for (l = 1; l < LW; l = l + 1)
                if ((k_r == K_CT || k_r == K_GS) && m_r[M_L +: 3] == l) z_r[i] = tw_q[i >> l];
            if (k_r == K_MUL) z_r[i] = 12'd0;
            else if (m_r[M_SC]) z_r[i] = ZETA1_128;
            else if (m_r[M_FD]) z_r[i] = NZETA1;
        end

    always @* begin
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
        if (k_s0 == K_MUL)     // phase A: a0*b0 on lane 2j, a1*b1 on lane 2j+1
            for (j = 0; j < NBU; j = j + 1) begin
                mx[2*j]   = ina[2*j];   my[2*j]   = inb[2*j];
                mx[2*j+1] = ina[2*j+1]; my[2*j+1] = inb[2*j+1];
            end
        // S0b: phase B (selected after the operand register): (a0+a1)(b0+b1) on lane 2j; gamma *
        // a1b1 of the word before on lane 2j+1, that a1b1 taken from the S2 register R, which
        // holds the word before's phase A now (3 stages on, 3 issue cycles earlier)
        for (i = 0; i < W; i = i + 1) begin
            px[i] = mx_m[i]; py[i] = my_m[i];
        end
        if (k_m == K_MUL && b_m)
            for (j = 0; j < NBU; j = j + 1) begin
                px[2*j]   = msa[j];    py[2*j]   = msb[j];
                px[2*j+1] = R[2*j+1];  py[2*j+1] = gam[j];
            end
        // S2: combine
        for (i = 0; i < W; i = i + 1) begin
            oa[i] = side2[i]; ob[i] = R[i];
            // CT's two units also fold a staging buffer into an INTT's last layer (GS): the sum
            // output plus s, and s minus the difference output, which that layer computes
            // negated (its zeta)
            ua[i] = modq_add(side2[i], fd_s2 ? FS0[12*i +: 12] : R[i]);
            ub[i] = modq_sub(fd_s2 ? FS1[12*i +: 12] : side2[i], R[i]);
            case (k_s2)
                K_CT:    begin oa[i] = ua[i]; ob[i] = ub[i]; end
                K_GS:    begin oa[i] = fd_s2 ? ua[i] : side2[i]; ob[i] = fd_s2 ? ub[i] : R[i]; end
                default: ;
            endcase
        end
        OX = 0; OY = 0;
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
        if (k_s2 == K_MUL)
            for (j = 0; j < NBU; j = j + 1) begin
                OX[24*j +: 12]      = modq_add(pre0[j], R[2*j+1]);   // a0b0 + gamma a1b1 (+ c)
                OX[24*j + 12 +: 12] = pre1[j];   // (a0+a1)(b0+b1) - a0b0 - a1b1 (+ c)
            end
    end

    always @(posedge clk) begin
        // R -> S0a: the gammas of a phase B word (used at S0b; the next phase B comes two cycles on)
        if (k_r == K_MUL && m_r[M_B])
            for (j = 0; j < NBU; j = j + 1) gam[j] <= tw_q[j];
        // R -> S0a: the RAM words, registered before any logic (a DP16KD output takes ~6 ns)
        sbuf_r <= sbuf;
        X <= st_r ? srd0[sbuf_r] : rd0[{bank_r, rsub0}];
        Y <= (st_r && k_r == K_CT) ? srd1[sbuf_r] : bfly_r ? rd0[{bank_r, rsub1}] : rd1[{bank_r, rsub1}];
        for (i = 0; i < W; i = i + 1) z_s0[i] <= z_r[i];
        // S0a -> S0b: the multiplier operands
        for (i = 0; i < W; i = i + 1) begin
            mx_m[i] <= mx[i]; my_m[i] <= my[i]; side_m[i] <= side[i];
        end
        if (k_s0 == K_MUL && !b_s0)
            for (j = 0; j < NBU; j = j + 1) begin
                msa[j] <= modq_add(ina[2*j], ina[2*j+1]);
                msb[j] <= modq_add(inb[2*j], inb[2*j+1]);
            end
        // S0b -> S1: the products
        for (i = 0; i < W; i = i + 1) begin
            P[i] <= px[i] * py[i];
            side1[i] <= side_m[i];
        end
        // S1 -> S1b: the Barrett quotient; INTT's last layer scales its sums (2^-7, negated
        // when subtracted from a buffer)
        acc_h <= rd1[acc_ram];
        for (i = 0; i < W; i = i + 1) begin
            qe_h[i] <= modq_red24_q(P[i]);
            xlo_h[i] <= P[i][13:0];
            side_h[i] <= !sc_s1 ? side1[i] : modq_sdiv128(side1[i], ng_s1);
        end
        // S1b -> S2
        for (i = 0; i < W; i = i + 1) begin
            R[i] <= modq_red24_r(xlo_h[i], qe_h[i]);
            side2[i] <= side_h[i];
        end
        for (j = 0; j < NBU; j = j + 1) begin
            pre0[j] <= modq_add(ph0[j], mac_h ? acc_h[24*j +: 12] : 12'd0);
            pre1[j] <= modq_add(ph1[j], mac_h ? acc_h[24*j + 12 +: 12] : 12'd0);
        end
        // MUL bookkeeping on the reduced products (S2): phase A results wait for phase B's
        if (k_s2 == K_MUL && !b_s2)
            for (j = 0; j < NBU; j = j + 1) begin
                hold_a0b0[j] <= R[2*j];
                hsum[j] <= modq_add(R[2*j], R[2*j+1]);
            end
        if (k_s2 == K_MUL && b_s2)
            for (j = 0; j < NBU; j = j + 1) begin
                // R[2j] = (a0+a1)(b0+b1) of this word; hsum and the hold are its A products
                ph1[j] <= modq_sub(R[2*j], hsum[j]);
                ph0[j] <= hold_a0b0[j];
            end
        // S2 -> S3 (write)
        // (ZERO writes the S3 words: zeros while it runs)
        OX_s3 <= zeroing ? {DW{1'b0}} : OX; OY_s3 <= zeroing ? {DW{1'b0}} : OY;
        FS0 <= fd_h ? srd0[sbuf] : {DW{1'b0}}; FS1 <= fd_h ? srd1[sbuf] : {DW{1'b0}};
        host_ram_q <= {host_slot[0], sub_of(host_addr)};
        if (zeroing)
            for (j = 0; j < NBU; j = j + 1) begin
                msa[j] <= 12'd0; msb[j] <= 12'd0; hold_a0b0[j] <= 12'd0; hsum[j] <= 12'd0;
                ph0[j] <= 12'd0; ph1[j] <= 12'd0; gam[j] <= 12'd0;
            end
    end

    // S3 write words
    wire [DW-1:0] WX = OX_s3, WY = OY_s3;

    // A MUL/MAC/ADD/SUB with operand a from a staging buffer reads b's bank on port 1 only (port
    // 0's word is replaced by the staging word) and writes the other bank: port 0 of b's bank is
    // free for a host read meanwhile (the core encodes a finished polynomial beside the command)
    wire host_idle = !busy && !w0_s3 && !w1_s3;
    wire host_beside = busy && stg && (kind == K_MUL || kind == K_ADD || kind == K_SUB) &&
                       host_slot[0] == rbank;
    // The last layer of an NTT / INTT reads a's bank and writes b's on port 1, so port 0 of b's
    // bank is free: slot b's words may be read as they are written (the core encodes the result
    // as it comes): from the layer's issue cycle 10 on, a read a cycle reads word w no earlier
    // than issue cycle 10 + w, and the last layer writes word w by issue cycle w + 9 (words w and
    // w + 128/W at issue w of a word layer; 2t and 2t + 1 at issue t of an in-word layer)
    // (registered, a cycle late, so no compare is in front of the core's dispatch: the clock;
    // pass == 6 drops it the cycle a chained command starts)
    reg tail_r;
    always @(posedge clk)
        tail_r <= !rst && busy && (op == OP_NTT || intt_op) && pass == 4'd6 && (draining || cnt >= 10'd10);
    assign tail = tail_r && busy && pass == 4'd6;
    wire host_tail = tail && host_slot == sb;
    assign host_rd_ok = host_idle || host_beside || host_tail;

    // RAM port drivers: host access when idle; otherwise reads from the pass's read bank (stage
    // I), MAC's accumulator read from the write bank's port 1 (stage S0b), writes from S3 into
    // the write bank; a butterfly layer reads on port 0 and writes on port 1 of each sub-bank
    wire bfly_q = q_kind == K_CT || q_kind == K_GS;
    wire bfly_s3 = m_s3[M_K +: 3] == K_CT || m_s3[M_K +: 3] == K_GS;
    reg  ru0 [0:3], ru1 [0:3];                // reads whose data is used (simulation check)
    // what a port can carry, computed once for both banks: the host word; the pass's read in
    // sub-bank s (a butterfly's word there, else port 0's word); a butterfly's write in
    // sub-bank s (port 1; the data WX or WY by the sub-bank of WX's word); port 0's write of
    // the other kinds (WX); MAC's accumulator read; ZERO's words (its data: S3 holds zeros)
    wire          h_sub = sub_of(host_addr), r0_sub = sub_of(q_raddr0), r1_sub = sub_of(q_raddr1);
    wire          w0_sub = sub_of(wa_s3), m_sub = sub_of(wa_m);
    wire [AW-2:0] h_in = in_sub(host_addr), r0_in = in_sub(q_raddr0), r1_in = in_sub(q_raddr1);
    wire [AW-2:0] wa_in = in_sub(wa_s3), wb_in = in_sub(wb_s3), m_in = in_sub(wa_m);
    wire [AW-2:0] rd_in [0:1], bw_in [0:1], z0_in [0:1], z1_in [0:1];
    wire [DW-1:0] bw_d [0:1];
    wire [AW-1:0] zw00 = {q_cnt[AW-3:WA-2], 2'b00, q_cnt[WA-3:0]}, zw01 = {q_cnt[AW-3:WA-2], 2'b01, q_cnt[WA-3:0]},
                  zw10 = {q_cnt[AW-3:WA-2], 2'b10, q_cnt[WA-3:0]}, zw11 = {q_cnt[AW-3:WA-2], 2'b11, q_cnt[WA-3:0]};
    // ZERO writes a slot row's quarters (the two top word bits) at once in both banks: words
    // 00c and 11c share a sub-bank (ports 0 and 1), 01c and 10c share the other
    wire          z_sub = sub_of(zw00);
    genvar gs;
    generate
        for (gs = 0; gs < 2; gs = gs + 1) begin : per_sub
            assign rd_in[gs] = (bfly_q && r0_sub != gs) ? r1_in : r0_in;
            assign bw_in[gs] = (w0_sub == gs) ? wa_in : wb_in;
            assign bw_d[gs]  = (w0_sub == gs) ? WX : WY;
            assign z0_in[gs] = in_sub((z_sub == gs) ? zw00 : zw01);
            assign z1_in[gs] = in_sub((z_sub == gs) ? zw11 : zw10);
        end
    endgenerate
    wire          host_on = !busy && !w0_s3 && !w1_s3;
    // (a command that leaves port 0 free gets the host's address there whether or not it reads:
    // host_re stays out of the block-RAM address path)
    wire          host_rd_busy = host_beside || host_tail;
    wire [DW-1:0] wd0_all = host_on ? host_wdata : WX;
    reg           b, sb_;
    always @* begin
        for (i = 0; i < 4; i = i + 1) begin
            b = i[1]; sb_ = i[0];
            a0[i] = rd_in[sb_]; a1[i] = r1_in; we0[i] = 1'b0; we1[i] = 1'b0;
            wd0[i] = wd0_all; wd1[i] = bw_d[sb_];
            ru0[i] = 1'b0; ru1[i] = 1'b0;
            if (host_on) begin
                a0[i] = h_in;
                we0[i] = host_we && host_slot[0] == b && h_sub == sb_;
                ru0[i] = host_re && host_slot[0] == b && h_sub == sb_;
            end else if (q_zeroing) begin
                a0[i] = z0_in[sb_]; a1[i] = z1_in[sb_];
                we0[i] = q_cnt < zbank; we1[i] = q_cnt < zbank;
            end else begin
                // port 0: the pass's read (no bank read for operand a from a staging buffer; an
                // NTT's first layer reads both words from it), the other kinds' write, a host read
                ru0[i] = q_issuing && !q_st && q_rbank == b && (bfly_q || r0_sub == sb_);
                if (host_rd_busy && host_slot[0] == b && h_sub == sb_) begin
                    a0[i] = h_in; ru0[i] = host_re;
                end
                if (w0_s3 && !bfly_s3 && bank_s3 != b && w0_sub == sb_) begin
                    a0[i] = wa_in; we0[i] = 1'b1;
                end
                // port 1: the other kinds' second read, MAC's accumulator (c's word, written 4
                // cycles later at S3), a butterfly's write
                ru1[i] = q_issuing && !bfly_q && q_rbank == b && r1_sub == sb_;
                if (mac_m && bank_m != b && m_sub == sb_) begin
                    a1[i] = m_in; ru1[i] = 1'b1;
                end
                if (bfly_s3 && (w0_s3 || w1_s3) && bank_s3 != b) begin
                    a1[i] = bw_in[sb_]; we1[i] = 1'b1;
                end
            end
        end
    end
    always @(posedge clk) begin
        rsub0 <= sub_of(q_raddr0); rsub1 <= sub_of(q_raddr1);
        acc_ram <= {!bank_m, sub_of(wa_m)};
    end
    assign host_rdata = rd0[host_ram_q];

`ifndef SYNTHESIS
    // poly_ram's no_rw_check: no read whose data is used may hit the word the other port of its
    // RAM writes in the same cycle; and no port may carry two accesses (the drivers above would
    // silently keep the last one: checked by counting them here)
    reg [2:0] uses0 [0:3], uses1 [0:3];
    always @* begin
        for (i = 0; i < 4; i = i + 1) begin uses0[i] = 0; uses1[i] = 0; end
        if (busy && !q_zeroing) begin
            if (q_issuing) begin
                if (bfly_q && !q_st) begin
                    uses0[{q_rbank, sub_of(q_raddr0)}] = uses0[{q_rbank, sub_of(q_raddr0)}] + 1;
                    uses0[{q_rbank, sub_of(q_raddr1)}] = uses0[{q_rbank, sub_of(q_raddr1)}] + 1;
                end else if (!bfly_q) begin
                    if (!q_st) uses0[{q_rbank, sub_of(q_raddr0)}] = uses0[{q_rbank, sub_of(q_raddr0)}] + 1;
                    uses1[{q_rbank, sub_of(q_raddr1)}] = uses1[{q_rbank, sub_of(q_raddr1)}] + 1;
                end
            end
            if (mac_m) uses1[{!bank_m, sub_of(wa_m)}] = uses1[{!bank_m, sub_of(wa_m)}] + 1;
            if (w0_s3 && bfly_s3) uses1[{!bank_s3, sub_of(wa_s3)}] = uses1[{!bank_s3, sub_of(wa_s3)}] + 1;
            if (w0_s3 && !bfly_s3) uses0[{!bank_s3, sub_of(wa_s3)}] = uses0[{!bank_s3, sub_of(wa_s3)}] + 1;
            if (w1_s3) uses1[{!bank_s3, sub_of(wb_s3)}] = uses1[{!bank_s3, sub_of(wb_s3)}] + 1;
            if (host_re && (host_beside || host_tail))
                uses0[{host_slot[0], sub_of(host_addr)}] = uses0[{host_slot[0], sub_of(host_addr)}] + 1;
        end
    end
    always @(posedge clk)
        for (i = 0; i < 4; i = i + 1) begin
            if (uses0[i] > 1 || uses1[i] > 1)
                $fatal(1, "poly_engine: RAM %0d port used twice in one cycle (%0d, %0d)", i, uses0[i], uses1[i]);
            if (a0[i] == a1[i] && ((we0[i] && !we1[i] && ru1[i]) || (we1[i] && !we0[i] && ru0[i])))
                $fatal(1, "poly_engine: RAM %0d word %0d read on one port while written on the other", i, a0[i]);
        end
`endif
endmodule
