// ML-KEM core (FIPS 203 ML-KEM.KeyGen_internal, Encaps_internal, Decaps_internal) for one
// parameter set K = 2, 3, 4 (ML-KEM-512/768/1024), with NBU dual-butterfly units.
//
// A sequencer steps through a micro-program (mlkem_prog.vh, generated and checked against nuri's
// C library by hw/scripts/gen_prog.py) of instructions, one at a time:
//   HASH    sponge over lanes [abase, +alen) ++ [bbase, +blen) ++ tail bytes, nout lanes -> dst
//   SAMPLE  the same absorb, squeezed through the sampler (SampleNTT / CBD) into slot sa
//           (scale: CBD times 128^-1, see sampler.v)
//   ENG     a poly_engine command (NTT, INTT, INTT128, MUL, MAC, ADD, SUB on slots sa, sb, sc)
//   ENC     slot sa -> ByteEncode_d(Compress_d) -> lanes at abase (addm: each coefficient plus
//           Decompress_1 of its bit of the 256 bits in tmp, LOAD4 of m: encryption's v + mu
//           without an engine pass)
//   ENCCMP  the same, compared with the lanes at abase instead of written (FO re-encryption)
//   DEC     lanes at abase -> ByteDecode_d(Decompress_d) -> slot sa (chk: 7.2 modulus check)
//   LOAD4   4 lanes at abase -> tmp;  CMP4: tmp != lanes at abase -> dk_bad (7.3 hash check)
//   SEL4    lanes at abase = fail ? tmp : lanes (implicit rejection, by mask, always written)
//   WIPE    lanes [abase, +alen) := 0 (the secrets that are not the output, at the end, beside
//           the engine's ZERO command that clears every slot)
// Every byte string lives in one lane RAM (1024 x 64 bits), see gen_prog.py for the layout; the
// host reads and writes it through the lane port while the core is idle. The programs are
// unrolled, so the instruction sequence is the same for every input; only SampleNTT (public rho)
// takes a variable number of cycles.
module mlkem_core #(
    parameter K   = 3,
    parameter NBU = 2
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire [1:0]  op,            // 0 keygen, 1 encaps, 2 decaps
    output wire        busy,
    output reg         done,
    output reg         ek_bad,        // encaps: ek failed the modulus check
    output reg         dk_bad,        // decaps: H(ek) in dk does not match
    output reg         prog_err,      // the engine refused a command (a program bug)
    input  wire        host_we,
    input  wire [9:0]  host_waddr,    // written while idle (the AXI wrapper zeroes output lanes
    input  wire [9:0]  host_addr,     // as they leave, reading one lane ahead)
    input  wire [63:0] host_wdata,
    output wire [63:0] host_rdata     // mem[host_addr] of the previous cycle
);
    localparam W = 2 * NBU, WORDS = 256 / W;
    localparam I_END = 0, I_HASH = 1, I_SAMPLE = 2, I_ENG = 3, I_ENC = 4, I_ENCCMP = 5, I_DEC = 6,
               I_LOAD4 = 7, I_CMP4 = 8, I_SEL4 = 9, I_WIPE = 10;
`include "mlkem_prog.vh"
`include "modq.vh"

    // ---------------- sequencer ----------------
    localparam S_IDLE = 4'd0, S_FETCH = 4'd1, S_DISP = 4'd2, S_HINIT = 4'd3, S_ABS = 4'd4,
               S_SQ = 4'd5, S_ENG = 4'd7, S_ENCI = 4'd8, S_ENC = 4'd9,
               S_DECI = 4'd10, S_DEC = 4'd11, S_LINI = 4'd12, S_LRUN = 4'd13;
    reg  [3:0]  st;
    reg  [1:0]  opr;
    reg  [9:0]  pc;
    reg  [96:0] iw;
    assign busy = st != S_IDLE;

    wire [3:0]  f_op    = iw[3:0];
    wire [1:0]  f_mode  = iw[5:4];
    wire [9:0]  f_abase = iw[15:6];
    wire [9:0]  f_alen  = iw[25:16];
    wire [9:0]  f_bbase = iw[35:26];
    wire [3:0]  f_blen  = iw[39:36];
    wire [1:0]  f_tailn = iw[41:40];
    wire [15:0] f_tail  = iw[57:42];
    wire [9:0]  f_dst   = iw[67:58];
    wire [3:0]  f_nout  = iw[71:68];
    wire [1:0]  f_smode = iw[73:72];
    wire [3:0]  f_sa    = iw[77:74];
    wire [3:0]  f_sb    = iw[81:78];
    wire [3:0]  f_sc    = iw[85:82];
    wire [2:0]  f_eop   = iw[88:86];
    wire [3:0]  f_d     = iw[92:89];
    wire        f_chk   = iw[93];
    wire        f_scale = iw[94];
    wire        f_addm  = iw[94];       // ENC/ENCCMP (SAMPLE uses the bit as scale)
    wire        f_stage = iw[95];       // SAMPLE/DEC: into staging buffer sbuf; ENG: a from it
    wire        f_sbuf  = iw[96];
    wire [96:0] rom     = (K == 2) ? prog_k2(opr, pc) : (K == 3) ? prog_k3(opr, pc) : prog_k4(opr, pc);

    // ---------------- lane RAM: one write port, one registered read port ----------------
    reg  [63:0] mem [0:1023];
    reg         we;
    reg  [9:0]  waddr, raddr;
    reg  [63:0] wdata;
    reg  [63:0] rdata;
    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        rdata <= mem[raddr];
    end
    assign host_rdata = rdata;

    // counters of the running instruction
    reg  [9:0]  n;            // lanes taken from the RAM / given to it
    reg  [8:0]  wcnt;         // engine words written / requested
    reg         pend;         // an engine word read is on its way
    reg  [63:0] tmp [0:3];
    reg         fail;         // re-encryption differs (secret: only used as a mask)

    // ---------------- sponge + sampler + packer ----------------
    wire [9:0]  nt   = f_alen + {6'd0, f_blen};
    wire [9:0]  lastn = (f_tailn != 2'd0) ? nt : nt - 10'd1;
    reg         sp_in_valid;
    reg  [63:0] sp_in_data;
    reg  [3:0]  sp_in_bytes;
    reg         sp_in_last;
    wire        sp_in_ready, sp_out_valid, sp_block;
    wire [63:0] sp_out;
    wire [1599:0] sp_state;
    wire        is_sample = f_op == I_SAMPLE;
    wire        sm_lane_ready;
    wire        sp_out_ready = (st == S_SQ) && (is_sample ? sm_lane_ready : 1'b1);
    // WIPE also restarts the sponge (its state cleared), the sampler and the codec buffers
    wire        wipe0 = st == S_LINI && f_op == I_WIPE;
    wire        hinit = st == S_HINIT || wipe0;
    keccak_sponge sp (.clk(clk), .rst(rst), .init(hinit), .mode(f_mode), .in_valid(sp_in_valid),
                      .in_ready(sp_in_ready), .in_data(sp_in_data), .in_bytes(sp_in_bytes),
                      .in_last(sp_in_last), .out_valid(sp_out_valid), .out_ready(sp_out_ready),
                      .out_data(sp_out), .block_ready(sp_block), .state(sp_state));
    // the sampler keeps up with the engine word a cycle that the ports take (see sampler.v)
    localparam STEPS = (NBU == 2) ? 3 : NBU;
    wire [3:0]  sm_n;
    wire [24*STEPS-1:0] sm_c;
    wire        sm_fin, pk_full;
    sampler #(.STEPS(STEPS)) sm (.clk(clk), .rst(rst), .start(hinit), .mode(f_smode), .scale(f_scale), .hold(pk_full),
                .lane_valid(sp_out_valid && st == S_SQ && is_sample), .lane_ready(sm_lane_ready),
                .lane(sp_out), .n_out(sm_n), .c(sm_c), .finished(sm_fin));
    wire        pk_valid;
    wire [7:0]  pk_index;
    wire [24*NBU-1:0] pk_word;
    poly_packer #(.NBU(NBU), .STEPS(STEPS)) pk (.clk(clk), .rst(rst), .start(hinit), .n_in(sm_n),
                                 .c(sm_c), .word_valid(pk_valid), .word_index(pk_index),
                                 .word(pk_word), .full(pk_full));

    // ---------------- codec ----------------
    wire        ser_word_ready, ser_word_ready_next, ser_lane_valid;
    wire [63:0] ser_lane;
    wire [24*NBU-1:0] pe_rdata;
    // addm: coefficient c of the word read gets 1665 m_c (m in tmp, coefficient c = bit c)
    // (tmp read as a lane, then the word's W bits in it: tmp stays a LUT RAM with a second read
    // port; reading all 256 bits at once made it 256 FF and a 64:1 select per bit)
    reg  [7:0]  mword;        // index of the engine word on its way
    wire [9:0]  mbit0 = W * mword;                   // its first coefficient
    wire [63:0] mlane = tmp[mbit0[7:6]];
    wire [W-1:0] mb = mlane[mbit0[5:0] +: W];
    reg  [24*NBU-1:0] ser_word;
    integer mi;
    always @* begin
        ser_word = pe_rdata;
        if (f_addm)
            for (mi = 0; mi < W; mi = mi + 1)
                ser_word[12*mi +: 12] = modq_add(pe_rdata[12*mi +: 12], mb[mi] ? 12'd1665 : 12'd0);
    end
    poly_serializer #(.NBU(NBU)) ser (.clk(clk), .rst(rst), .start(st == S_ENCI || wipe0), .d(f_d),
        .word_valid(pend), .word_ready(ser_word_ready), .word_ready_next(ser_word_ready_next),
        .word(ser_word),
        .lane_valid(ser_lane_valid), .lane_ready(st == S_ENC), .lane(ser_lane));
    wire        des_lane_ready, des_valid, des_bad;
    wire [7:0]  des_index;
    wire [24*NBU-1:0] des_word;
    wire [9:0]  nlanes = {4'd0, f_d, 2'd0};          // 4d lanes per polynomial
    wire        des_lane_valid = st == S_DEC && n != nlanes;
    poly_deserializer #(.NBU(NBU)) des (.clk(clk), .rst(rst), .start(st == S_DECI || wipe0), .d(f_d),
        .lane_valid(des_lane_valid), .lane_ready(des_lane_ready), .lane(rdata),
        .word_valid(des_valid), .word_index(des_index), .word(des_word), .bad(des_bad));

    // ---------------- polynomial engine ----------------
    wire        pe_idle, pe_done, pe_err;
    // a word read a cycle (the serializer says whether the word read now fits when it arrives)
    wire        pe_host_re = st == S_ENC && ser_word_ready_next && wcnt != WORDS;
    wire        word_we = (st == S_SQ && is_sample && pk_valid) || (st == S_DEC && des_valid);
    wire        pe_host_we = word_we && !f_stage;
    wire        pe_stage_we = word_we && f_stage;
    wire [7:0]  word_index = is_sample ? pk_index : des_index;
    wire [24*NBU-1:0] word_data = is_sample ? pk_word : des_word;
    // an ENG command is handed over as it is dispatched (the engine is idle then)
    wire        eng_issue = st == S_DISP && f_op == I_ENG && pe_idle;
    poly_engine #(.NBU(NBU)) pe (.clk(clk), .rst(rst), .cmd_valid(eng_issue), .cmd_op(f_eop),
        .cmd_a(f_sa), .cmd_b(f_sb), .cmd_c(f_sc), .cmd_stage(f_stage), .cmd_sbuf(f_sbuf),
        .idle(pe_idle), .done(pe_done), .cmd_err(pe_err),
        .host_we(pe_host_we), .host_re(pe_host_re), .host_slot(f_sa),
        .host_word(st == S_ENC ? wcnt[7:0] : word_index), .host_wdata(word_data),
        .host_rdata(pe_rdata), .stage_we(pe_stage_we), .stage_buf(f_sbuf),
        .stage_word(word_index), .stage_wdata(word_data));
    // instructions that use the engine (its command port, or its slots through the host port)
    // wait until the running command has finished (ENG does not wait for its own); others (HASH,
    // SAMPLE/DEC into a staging buffer, LOAD4/CMP4/SEL4) run beside it
    wire        uses_engine = f_op == I_ENG || f_op == I_ENC || f_op == I_ENCCMP || f_op == I_END ||
                              ((f_op == I_SAMPLE || f_op == I_DEC) && !f_stage);

    // ---------------- datapath control (combinational) ----------------
    wire        sp_take = sp_in_valid && sp_in_ready;
    wire [9:0]  n_abs   = n + {9'd0, sp_take};
    wire        des_take = des_lane_valid && des_lane_ready;
    wire        ser_give = ser_lane_valid && st == S_ENC;
    reg  [9:0]  n_next;
    function [9:0] abs_addr;
        input [9:0] i;
        abs_addr = (i < f_alen) ? f_abase + i : f_bbase + (i - f_alen);
    endfunction

    always @* begin
        sp_in_valid = 1'b0; sp_in_data = rdata; sp_in_bytes = 4'd8; sp_in_last = 1'b0;
        if (st == S_ABS) begin
            if (n < nt) begin
                sp_in_valid = 1'b1; sp_in_last = (n == nt - 10'd1) && f_tailn == 2'd0;
            end else if (n == nt && f_tailn != 2'd0) begin
                sp_in_valid = 1'b1; sp_in_data = {48'd0, f_tail}; sp_in_bytes = {2'd0, f_tailn};
                sp_in_last = 1'b1;
            end
        end
        n_next = n;
        case (st)
            S_ABS:  n_next = n_abs;
            S_DEC:  n_next = n + {9'd0, des_take};
            S_ENC:  n_next = n + {9'd0, ser_give};
            S_LRUN: n_next = n + 10'd1;
            S_SQ:   n_next = n + {9'd0, sp_out_valid && !is_sample};
            default: n_next = 10'd0;
        endcase
        raddr = host_addr;
        case (st)
            S_HINIT: raddr = f_abase;
            S_ABS:   raddr = abs_addr(n_abs);
            S_ENCI, S_DECI, S_LINI: raddr = f_abase;
            S_ENC, S_DEC, S_LRUN: raddr = f_abase + n_next;
            default: ;
        endcase
        we = 1'b0; waddr = host_waddr; wdata = host_wdata;
        case (st)
            S_IDLE: we = host_we;
            S_SQ: if (!is_sample) begin
                we = sp_out_valid; waddr = f_dst + n; wdata = sp_out;
            end
            S_ENC: if (f_op == I_ENC) begin
                we = ser_give; waddr = f_abase + n; wdata = ser_lane;
            end
            S_LRUN: if (f_op == I_SEL4) begin
                we = 1'b1; waddr = f_abase + n;
                wdata = ({64{fail}} & tmp[n[1:0]]) | (~{64{fail}} & rdata);
            end else if (f_op == I_WIPE) begin
                we = 1'b1; waddr = f_abase + n; wdata = 64'd0;
            end
            default: ;
        endcase
    end

    // ---------------- sequencer state ----------------
    always @(posedge clk) begin
        done <= 1'b0;
        if (rst) begin
            st <= S_IDLE; ek_bad <= 1'b0; dk_bad <= 1'b0; prog_err <= 1'b0; fail <= 1'b0;
            pend <= 1'b0;
        end else begin
            n <= n_next;
            case (st)
                S_IDLE: if (start) begin
                    opr <= op; pc <= 10'd0; st <= S_FETCH;
                    ek_bad <= 1'b0; dk_bad <= 1'b0; prog_err <= 1'b0; fail <= 1'b0;
                end
                S_FETCH: begin iw <= rom; st <= S_DISP; end
                S_DISP: if (!uses_engine || pe_idle) begin
                    // pc moves on now: the ROM shows the next instruction, which is loaded into
                    // iw when this one ends (no fetch cycle between instructions)
                    wcnt <= 9'd0; pend <= 1'b0; pc <= pc + 10'd1;
                    case (f_op)
                        I_HASH, I_SAMPLE: st <= S_HINIT;
                        I_ENG:            st <= S_ENG;
                        I_ENC, I_ENCCMP:  st <= S_ENCI;
                        I_DEC:            st <= S_DECI;
                        I_LOAD4, I_CMP4, I_SEL4, I_WIPE: st <= S_LINI;
                        default: begin st <= S_IDLE; done <= 1'b1; end
                    endcase
                end
                S_HINIT: st <= S_ABS;
                S_ABS: if (sp_take && n == lastn) begin st <= S_SQ; n <= 10'd0; end
                S_SQ: if (is_sample) begin
                    if (pk_valid) begin
                        wcnt <= wcnt + 9'd1;
                        if (wcnt == WORDS - 1) begin st <= S_DISP; iw <= rom; end
                    end
                end else if (sp_out_valid) begin
                    if (n == {6'd0, f_nout} - 10'd1) begin st <= S_DISP; iw <= rom; end
                end
                S_ENG: begin
                    if (pe_err) begin prog_err <= 1'b1; st <= S_IDLE; done <= 1'b1; end
                    else begin st <= S_DISP; iw <= rom; end   // runs on (see uses_engine)
                end
                S_ENCI: st <= S_ENC;
                S_ENC: begin
                    if (pe_host_re) begin wcnt <= wcnt + 9'd1; mword <= wcnt[7:0]; end
                    pend <= pe_host_re;
                    if (ser_give && f_op == I_ENCCMP) fail <= fail | (ser_lane != rdata);
                    if (ser_give && n == nlanes - 10'd1) begin st <= S_DISP; iw <= rom; end
                end
                S_DECI: st <= S_DEC;
                S_DEC: if (des_valid) begin
                    wcnt <= wcnt + 9'd1;
                    if (wcnt == WORDS - 1) begin
                        // des_bad already covers the last word (set when it was emitted)
                        if (f_chk) ek_bad <= ek_bad | des_bad;
                        st <= S_DISP; iw <= rom;
                    end
                end
                S_LINI: st <= S_LRUN;
                S_LRUN: begin
                    if (f_op == I_LOAD4) tmp[n[1:0]] <= rdata;
                    if (f_op == I_CMP4) dk_bad <= dk_bad | (tmp[n[1:0]] != rdata);
                    if (f_op == I_WIPE) begin tmp[n[1:0]] <= 64'd0; fail <= 1'b0; end
                    if (n == ((f_op == I_WIPE) ? f_alen - 10'd1 : 10'd3)) begin st <= S_DISP; iw <= rom; end
                end
                default: st <= S_IDLE;
            endcase
        end
    end
endmodule
