// ML-KEM core (FIPS 203 ML-KEM.KeyGen_internal, Encaps_internal, Decaps_internal) for one
// parameter set K = 2, 3, 4 (ML-KEM-512/768/1024), with NBU dual-butterfly units.
//
// A dispatcher steps through a micro-program (mlkem_prog.vh, generated and checked against nuri's
// C library by hw/scripts/gen_prog.py) and hands each instruction to one of three units that run
// at once (see "dispatcher" below): the sponge unit (HASH, SAMPLE), the codec unit (the others)
// and the polynomial engine (ENG):
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
//           the engine's ZERO command that clears every slot; with chk also the sponge state,
//           the sampler, the codec buffers, tmp and the compare flag)
// Every byte string lives in one lane RAM (1024 x 64 bits, a port per unit), see gen_prog.py for
// the layout; the host reads and writes it while the core is idle. The programs are
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
    output wire [63:0] host_rdata,    // mem[host_addr] of the previous cycle
    input  wire        host_zero      // while idle: the read gives zeros (the AXI wrapper's
                                      // rejected output; the block RAM's output reset, no select)
);
    localparam W = 2 * NBU, WORDS = 256 / W;
    localparam I_END = 0, I_HASH = 1, I_SAMPLE = 2, I_ENG = 3, I_ENC = 4, I_ENCCMP = 5, I_DEC = 6,
               I_LOAD4 = 7, I_CMP4 = 8, I_SEL4 = 9, I_WIPE = 10;
`include "mlkem_prog.vh"
`include "modq.vh"

    localparam IW = 99;

    // ---------------- dispatcher ----------------
    // Instructions are dispatched in program order to three units that run at once: the sponge
    // unit (HASH, SAMPLE), the codec unit (ENC, ENCCMP, DEC and the lane instructions LOAD4, CMP4,
    // SEL4, WIPE) and the engine (ENG). An instruction waits until its own unit is free, until the
    // engine is idle if it uses the engine (ENG, ENC/ENCCMP, END, a DEC/SAMPLE into a slot), and
    // until the other unit is idle if its wait bit says so: gen_prog.py sets wsp / wcd where the
    // instruction depends on, or shares a port with, what that unit may still be running (lanes,
    // the staging buffers' write port, the engine's host port), so the units never race.
    localparam D_IDLE = 2'd0, D_FETCH = 2'd1, D_FETCH2 = 2'd3, D_DISP = 2'd2;
    reg  [1:0]  st;
    reg  [1:0]  opr;
    reg  [9:0]  pc;           // the instruction after the one in iwr (two after the one in iw)
    reg  [IW-1:0] iwr;        // the program memory's output: the next instruction
    reg  [IW-1:0] iw;         // the instruction at the dispatcher, and its decoded kinds below
    assign busy = st != D_IDLE;

    wire [3:0]  f_op    = iw[3:0];
    wire [3:0]  f_sa    = iw[77:74];
    wire [3:0]  f_sb    = iw[81:78];
    wire [3:0]  f_sc    = iw[85:82];
    wire [2:0]  f_eop   = iw[88:86];
    wire        f_stage = iw[95];       // SAMPLE/DEC: into staging buffer sbuf; ENG: a from it
    wire        f_sbuf  = iw[96];
    // the fields only the decode (below) reads, from iwr
    wire [3:0]  r_op     = iwr[3:0];
    wire        r_stage  = iwr[95];
    wire        r_wsp    = iwr[97];     // wait until the sponge unit is idle
    wire        r_wcd    = iwr[98];     // wait until the codec unit is idle
    wire        r_stream = iwr[72];     // ENC/ENCCMP: reads the slot the engine's NTT/INTT is
                                        // writing, from its last layer on (poly_engine tail)
    wire        r_beside = iwr[93];     // ENC/ENCCMP: runs beside the engine's command (which
                                        // leaves the host port free, see poly_engine host_rd_ok)

    // ---------------- the units' instructions ----------------
    localparam P_IDLE = 2'd0, P_HINIT = 2'd1, P_ABS = 2'd2, P_SQ = 2'd3;
    localparam C_IDLE = 3'd0, C_ENCI = 3'd1, C_ENC = 3'd2, C_DECI = 3'd3, C_DEC = 3'd4,
               C_LINI = 3'd5, C_LRUN = 3'd6;
    reg  [1:0]  pst;          // sponge unit
    reg  [2:0]  cst;          // codec unit
    reg  [IW-1:0] piw, ciw;
    wire        p_idle = pst == P_IDLE, c_idle = cst == C_IDLE;
    // sponge unit fields
    wire [3:0]  p_op    = piw[3:0];
    wire [1:0]  p_mode  = piw[5:4];
    wire [9:0]  p_abase = piw[15:6];
    wire [9:0]  p_alen  = piw[25:16];
    wire [9:0]  p_bbase = piw[35:26];
    wire [3:0]  p_blen  = piw[39:36];
    wire [1:0]  p_tailn = piw[41:40];
    wire [15:0] p_tail  = piw[57:42];
    wire [9:0]  p_dst   = piw[67:58];
    wire [3:0]  p_nout  = piw[71:68];
    wire [1:0]  p_smode = piw[73:72];
    wire [3:0]  p_sa    = piw[77:74];
    wire        p_scale = piw[94];
    wire        p_stage = piw[95];
    wire        p_sbuf  = piw[96];
    // codec unit fields
    wire [3:0]  c_op    = ciw[3:0];
    wire [9:0]  c_abase = ciw[15:6];
    wire [9:0]  c_alen  = ciw[25:16];
    wire [3:0]  c_sa    = ciw[77:74];
    wire [3:0]  c_d     = ciw[92:89];
    wire        c_chk   = ciw[93];      // DEC: 7.2 modulus check; WIPE: also restart the sponge
    wire        c_addm  = ciw[94];      // ENC/ENCCMP (SAMPLE uses the bit as scale)
    wire        c_stage = ciw[95];
    wire        c_sbuf  = ciw[96];

    // ---------------- lane RAM: two ports (sponge unit; codec unit and host) ----------------
    // Port A: the sponge unit's absorb reads and squeeze writes, and the host's reads while idle.
    // Port B: the codec unit's reads and writes, and the host's writes while idle. The programs
    // never let one port write a lane the other uses at the same time (gen_prog.py's wait bits).
    (* no_rw_check *) reg [63:0] mem [0:1023];
    reg         wea, web;
    reg  [9:0]  addra, addrb;
    reg  [63:0] wdataa, wdatab;
    reg  [63:0] rdata, rdatb;
    always @(posedge clk) begin
        if (wea) mem[addra] <= wdataa;
        if (host_zero && st == D_IDLE) rdata <= 64'd0;
        else rdata <= mem[addra];
    end
    always @(posedge clk) begin
        if (web) mem[addrb] <= wdatab;
        rdatb <= mem[addrb];
    end
    assign host_rdata = rdata;

    // counters of the running instructions
    reg  [9:0]  pn;           // sponge unit: lanes absorbed / squeezed
    reg  [8:0]  pwcnt;        // sponge unit: sampled words
    reg  [9:0]  n;            // codec unit: lanes taken from the RAM / given to it
    // lanes c_abase + n and c_abase + n + 1, in registers: the codec's handshakes (a lane taken
    // by the deserializer, given by the serializer) pick the lane RAM address without an adder
    reg  [9:0]  cb0, cb1;
    reg  [8:0]  wcnt;         // codec unit: engine words written / requested
    reg         pend;         // an engine word read is on its way
    reg  [63:0] tmp [0:3];
    reg         fail;         // re-encryption differs (secret: only used as a mask)
    // ENCCMP's and CMP4's lanes compared a cycle after the read, both operands registered (one
    // comparator, and none behind the lane RAM's clock-to-out: the clock); the flags follow a
    // cycle later. WIPE clears the operands.
    reg  [63:0] cmp_a, cmp_b;
    reg         cmp_enc, cmp_dk;
    wire        cmp_ne = cmp_a != cmp_b;

    // ---------------- sponge + sampler + packer ----------------
    // the lanes to absorb (registered as the instruction is given) and the lane addresses of
    // absorb positions pn and pn + 1 (position i: abase + i below alen, else bbase + i - alen):
    // the address presented picks one of the two by sp_take,
    // with no adder or compare behind the sponge's in_ready (the clock)
    reg  [9:0]  nt, ra_cur, ra_nxt;
    // the lanes still to absorb (nt - pn), and whether none / one is left, as registers: no
    // compare of pn with nt in front of the sponge's in_valid (the clock)
    reg  [9:0]  aleft;
    reg         a_none, a_one;
    reg         sp_in_valid;
    reg  [63:0] sp_in_data;
    reg  [3:0]  sp_in_bytes;
    reg         sp_in_last;
    wire        sp_in_ready, sp_out_valid, sp_block;
    wire [63:0] sp_out;
    wire [1599:0] sp_state;
    wire        is_sample = p_op == I_SAMPLE;
    wire        sm_lane_ready;
    wire        sp_out_ready = (pst == P_SQ) && (is_sample ? sm_lane_ready : 1'b1);
    // A hash output lane goes into the lane RAM from a register (the clock: the sponge's output
    // select to the RAM's data pins was a critical path, most of it routing). The write lands
    // the cycle the sponge unit turns idle, before any instruction that waits for it starts;
    // WIPE clears the register (the lanes are secrets).
    reg         hq_we;
    reg  [9:0]  hq_addr;
    reg  [63:0] hq_data;
    // the final WIPE (chk) also restarts the sponge (its state cleared), the sampler and the codec
    // buffers
    wire        wipe0 = cst == C_LINI && c_op == I_WIPE && c_chk;
    wire        hinit = pst == P_HINIT || wipe0;
    // SHAKE128 absorbs 34 bytes here (XOF(rho, i, j)): the sponge's data lanes end at 17
    keccak_sponge #(.DATA_LANES(17)) sp (.clk(clk), .rst(rst), .init(hinit), .mode(wipe0 ? 2'd0 : p_mode), .in_valid(sp_in_valid),
                      .in_ready(sp_in_ready), .in_data(sp_in_data), .in_bytes(sp_in_bytes),
                      .in_last(sp_in_last), .out_valid(sp_out_valid), .out_ready(sp_out_ready),
                      .out_data(sp_out), .block_ready(sp_block), .state(sp_state));
    // the sampler gives up to 2 NBU coefficients a cycle, the engine's word (see sampler.v)
    localparam STEPS = NBU;
    wire [3:0]  sm_n;
    wire [24*STEPS-1:0] sm_c;
    wire        sm_fin, pk_full;
    sampler #(.STEPS(STEPS)) sm (.clk(clk), .rst(rst), .start(hinit), .mode(p_smode), .scale(p_scale), .hold(pk_full),
                .lane_valid(sp_out_valid && pst == P_SQ && is_sample), .lane_ready(sm_lane_ready),
                .lane(sp_out), .n_out(sm_n), .c(sm_c), .finished(sm_fin));
    wire        pk_valid;
    wire [7:0]  pk_index;
    wire [24*NBU-1:0] pk_word;
    poly_packer #(.NBU(NBU), .STEPS(STEPS)) pk (.clk(clk), .rst(rst), .start(hinit), .n_in(sm_n),
                                 .c(sm_c), .word_valid(pk_valid), .word_index(pk_index),
                                 .word(pk_word), .full(pk_full));

    // ---------------- codec ----------------
    wire        ser_word_ready, ser_lane_valid;
    wire [63:0] ser_lane;
    wire [24*NBU-1:0] pe_rdata;
    // addm: coefficient c of the word read gets 1665 m_c (m in tmp, coefficient c = bit c),
    // inside the serializer's Compress (its word_m: a constant, no adder)
    // (tmp read as a lane, then the word's W bits in it: tmp stays a LUT RAM with a second read
    // port; reading all 256 bits at once made it 256 FF and a 64:1 select per bit)
    // (the bits are picked while the word comes out of the engine and registered beside rdq)
    reg  [7:0]  mword;              // index of the engine word on its way
    wire [9:0]  mbit0 = W * mword;                   // its first coefficient
    // tmp has one read address (one LUT RAM, not two copies): the lane of m while the codec
    // encodes (C_ENC, C_ENCI), lane n[1:0] in C_LRUN (LOAD4, CMP4, SEL4 and WIPE), the only
    // states that use each
    wire [1:0]  ta = (cst == C_LRUN) ? n[1:0] : mbit0[7:6];
    wire [63:0] tlane = tmp[ta];
    wire [63:0] mlane = tlane;
    reg  [W-1:0] mb;
    // The word read is registered as it leaves the engine (rdq: no block-RAM output or sub-bank
    // select in front of the ring), then goes, with its m bits, into a four-entry ring in front of
    // the serializer. A read is issued while the buffer has room for it and every word already on
    // its way (two: the read, the register), so one goes a cycle while the serializer takes one a
    // cycle. rdq, mb and the buffer are cleared by WIPE (m' passes through them).
    reg  [24*NBU-1:0] rdq;
    reg               pend2;          // rdq holds a word read
    // a ring of four: a push writes one entry and a pop moves a pointer (the serializer's
    // word_ready drives two pointer bits, not a shift of the held words); four entries let a
    // read go every cycle without counting the word leaving now
    reg  [24*NBU+W-1:0] wb [0:3];     // {m bits, word}
    reg  [1:0]  wb_wr, wb_rd;
    reg  [2:0]  wbn;                  // words held
    wire        wb_pop = wbn != 3'd0 && ser_word_ready;
    wire        wb_room = wbn + {2'd0, pend} + {2'd0, pend2} < 3'd4;
    integer     wi;
    always @(posedge clk) begin
        rdq <= pe_rdata; mb <= mlane[mbit0[5:0] +: W] & {W{c_addm}};
        if (rst || cst == C_ENCI || wipe0) begin
            wbn <= 3'd0; pend2 <= 1'b0; wb_wr <= 2'd0; wb_rd <= 2'd0;
            if (rst || wipe0) begin
                rdq <= 0; mb <= 0;
                for (wi = 0; wi < 4; wi = wi + 1) wb[wi] <= 0;
            end
        end else begin
            pend2 <= pend;
            if (pend2) begin wb[wb_wr] <= {mb, rdq}; wb_wr <= wb_wr + 2'd1; end
            if (wb_pop) wb_rd <= wb_rd + 2'd1;
            wbn <= wbn + {2'd0, pend2} - {2'd0, wb_pop};
        end
    end
    wire [24*NBU+W-1:0] wb_head = wb[wb_rd];
    poly_serializer #(.NBU(NBU)) ser (.clk(clk), .rst(rst), .start(cst == C_ENCI || wipe0), .d(c_d),
        .word_valid(wbn != 3'd0), .word_ready(ser_word_ready),
        .word(wb_head[24*NBU-1:0]), .word_m(wb_head[24*NBU +: W]),
        .lane_valid(ser_lane_valid), .lane_ready(cst == C_ENC), .lane(ser_lane));
    wire        des_lane_ready, des_valid, des_bad;
    wire [7:0]  des_index;
    wire [24*NBU-1:0] des_word;
    wire [9:0]  nlanes = {4'd0, c_d, 2'd0};          // 4d lanes per polynomial
    reg         dmore;                               // n != nlanes, registered with n
    wire        des_lane_valid = cst == C_DEC && dmore;
    poly_deserializer #(.NBU(NBU)) des (.clk(clk), .rst(rst), .start(cst == C_DECI || wipe0), .d(c_d),
        .lane_valid(des_lane_valid), .lane_ready(des_lane_ready), .lane(rdatb),
        .word_valid(des_valid), .word_index(des_index), .word(des_word), .bad(des_bad));

    // ---------------- polynomial engine ----------------
    wire        pe_idle, pe_ready, pe_done, pe_err, pe_host_rd_ok, pe_tail;
    // a word read a cycle (the serializer says whether the word read now fits when it arrives);
    // also while the engine runs a command that leaves port 0 of the slot's bank free
    wire        pe_host_re = cst == C_ENC && wb_room && wcnt != WORDS && pe_host_rd_ok;
    wire        p_word = pst == P_SQ && is_sample && pk_valid;
    wire        c_word = cst == C_DEC && des_valid;
    wire        p_host = p_word && !p_stage, c_host = c_word && !c_stage;
    wire        pe_host_we = p_host || c_host;
    wire        pe_stage_we = (p_word && p_stage) || (c_word && c_stage);
    wire [7:0]  word_index = p_word ? pk_index : des_index;
    wire [24*NBU-1:0] word_data = p_word ? pk_word : des_word;
    wire        stage_buf = p_word ? p_sbuf : c_sbuf;
    wire [3:0]  host_slot = (pst == P_SQ && is_sample && !p_stage) ? p_sa : c_sa;
    // an ENG command is handed over as it is dispatched, when the engine takes it (idle, or its
    // last command draining and the new one chaining, see poly_engine ready); the others that
    // use the engine wait until it is idle
    // (each instruction's kinds are decoded as it moves into iw: no decode in front of can_go)
    reg         uses_engine, is_eng, enc_stream, wait_p, wait_c, is_p, is_c;
    wire        r_enc = r_op == I_ENC || r_op == I_ENCCMP;
    always @(posedge clk)
        if (st == D_FETCH2 || leave) begin
            uses_engine <= (r_enc && !r_beside && !r_stream) || r_op == I_END ||
                           ((r_op == I_SAMPLE || r_op == I_DEC) && !r_stage);
            is_eng      <= r_op == I_ENG;
            enc_stream  <= r_enc && r_stream;
            is_p        <= r_op == I_HASH || r_op == I_SAMPLE;
            is_c        <= r_enc || r_op == I_DEC || r_op == I_LOAD4 || r_op == I_CMP4 ||
                           r_op == I_SEL4 || r_op == I_WIPE;
            wait_p      <= r_op == I_HASH || r_op == I_SAMPLE || r_wsp || r_op == I_END;
            wait_c      <= r_enc || r_op == I_DEC || r_op == I_LOAD4 || r_op == I_CMP4 ||
                           r_op == I_SEL4 || r_op == I_WIPE || r_wcd || r_op == I_END;
        end
    wire        can_go = (!uses_engine || pe_idle) && (!is_eng || pe_ready) &&
                         (!enc_stream || pe_idle || pe_tail) && (!wait_p || p_idle) && (!wait_c || c_idle);
    reg         eng_q;        // an ENG command was handed over last cycle (cmd_err answers it now)
    wire        abort = eng_q && pe_err;
    wire        eng_issue = st == D_DISP && can_go && !abort && is_eng;
    poly_engine #(.NBU(NBU)) pe (.clk(clk), .rst(rst), .cmd_valid(eng_issue), .cmd_op(f_eop),
        .cmd_a(f_sa), .cmd_b(f_sb), .cmd_c(f_sc), .cmd_stage(f_stage), .cmd_sbuf(f_sbuf),
        .idle(pe_idle), .ready(pe_ready), .done(pe_done), .cmd_err(pe_err),
        .host_we(pe_host_we), .host_re(pe_host_re), .host_rd_ok(pe_host_rd_ok), .tail(pe_tail), .host_slot(host_slot),
        .host_word(cst == C_ENC ? wcnt[7:0] : word_index), .host_wdata(word_data),
        .host_rdata(pe_rdata), .stage_we(pe_stage_we), .stage_buf(stage_buf),
        .stage_word(word_index), .stage_wdata(word_data));

    // ---------------- datapath control (combinational) ----------------
    wire        sp_take = sp_in_valid && sp_in_ready;
    wire [9:0]  n_abs   = pn + {9'd0, sp_take};
    wire        des_take = des_lane_valid && des_lane_ready;
    wire        ser_give = ser_lane_valid && cst == C_ENC;
    reg  [9:0]  pn_next, n_next;

    always @* begin
        sp_in_valid = 1'b0; sp_in_data = rdata; sp_in_bytes = 4'd8; sp_in_last = 1'b0;
        if (pst == P_ABS) begin
            if (!a_none) begin
                sp_in_valid = 1'b1; sp_in_last = a_one && p_tailn == 2'd0;
            end else if (p_tailn != 2'd0) begin
                sp_in_valid = 1'b1; sp_in_data = {48'd0, p_tail}; sp_in_bytes = {2'd0, p_tailn};
                sp_in_last = 1'b1;
            end
        end
        case (pst)
            P_ABS:  pn_next = n_abs;
            P_SQ:   pn_next = pn + {9'd0, sp_out_valid && !is_sample};
            default: pn_next = 10'd0;
        endcase
        case (cst)
            C_DEC:  n_next = n + {9'd0, des_take};
            C_ENC:  n_next = n + {9'd0, ser_give};
            C_LRUN: n_next = n + 10'd1;
            default: n_next = 10'd0;
        endcase
        // port A: the sponge unit, else the host's reads; a hash output lane is written a cycle
        // after it leaves the sponge (hq_*)
        addra = host_addr; wea = hq_we; wdataa = hq_data;
        case (pst)
            P_HINIT: addra = p_abase;
            P_ABS:   addra = sp_take ? ra_nxt : ra_cur;
            default: ;
        endcase
        if (hq_we) addra = hq_addr;
        // port B: the codec unit, else the host's writes (lane c_abase + n is cb0, the next cb1)
        addrb = host_waddr; web = 1'b0; wdatab = host_wdata;
        case (cst)
            C_IDLE: web = host_we && st == D_IDLE;
            C_ENCI, C_DECI, C_LINI: addrb = cb0;
            C_ENC: if (c_op == I_ENC && ser_give) begin
                web = 1'b1; addrb = cb0; wdatab = ser_lane;
            end else addrb = ser_give ? cb1 : cb0;
            C_DEC: addrb = des_take ? cb1 : cb0;
            C_LRUN: if (c_op == I_SEL4 && n[2]) begin
                // SEL4 reads its 4 lanes into tmp (n = 0..3), then writes tmp back (n = 4..7)
                web = 1'b1; addrb = c_abase + {8'd0, n[1:0]}; wdatab = tlane;
            end else if (c_op == I_WIPE) begin
                web = 1'b1; addrb = cb0; wdatab = 64'd0;
            end else addrb = cb1;
            default: ;
        endcase
    end

    always @(posedge clk) begin
        cmp_a   <= (cst == C_ENC) ? ser_lane : tlane;
        cmp_b   <= rdatb;
        cmp_enc <= !rst && cst == C_ENC && ser_give && c_op == I_ENCCMP;
        cmp_dk  <= !rst && cst == C_LRUN && c_op == I_CMP4;
        if (rst || wipe0) begin cmp_a <= 64'd0; cmp_b <= 64'd0; end
        hq_we   <= !rst && pst == P_SQ && !is_sample && sp_out_valid;
        hq_addr <= p_dst + pn;
        hq_data <= (rst || wipe0) ? 64'd0 : sp_out;
    end

    // ---------------- dispatcher and units ----------------
    // the program memory (mlkem_prog.vh) is read into iwr, a registered read (block RAM, not
    // logic), and iwr moves into iw, where the dispatcher decides: both when an instruction leaves
    // the dispatcher (and at the two fetches). The block RAM's clock-to-out is then not in front of
    // the dispatch decision (can_go, the engine's command): the clock.
    wire        leave  = st == D_DISP && !abort && can_go;
    wire        rom_en = st == D_FETCH || st == D_FETCH2 || leave;
    always @(posedge clk) begin
        if (rom_en) iwr <= prog[{opr, pc[6:0]}];
        if (st == D_FETCH2 || leave) iw <= iwr;
    end

    // A unit's instruction register follows iw while the unit is idle, so it holds the instruction
    // given to it from then on; its enable is the unit's state, not the dispatch decision (whose
    // fanout was the clock's path). An idle unit's fields drive nothing that matters: every use
    // is gated by the unit's state or sampled when the unit starts.
    always @(posedge clk) begin
        if (pst == P_IDLE) piw <= iw;
        if (cst == C_IDLE) ciw <= iw;
    end

    always @(posedge clk) begin
        done <= 1'b0;
        if (rst) begin
            st <= D_IDLE; pst <= P_IDLE; cst <= C_IDLE;
            ek_bad <= 1'b0; dk_bad <= 1'b0; prog_err <= 1'b0; fail <= 1'b0; pend <= 1'b0; eng_q <= 1'b0;
        end else begin
            pn <= pn_next;
            n <= n_next;
            dmore <= n_next != nlanes;
            // (the codec unit may be idle already: the last compare lands a cycle after its lane)
            if (cmp_enc && cmp_ne) fail <= 1'b1;
            if (cmp_dk && cmp_ne) dk_bad <= 1'b1;
            if ((cst == C_DEC && des_take) || (cst == C_ENC && ser_give) || cst == C_LRUN) begin
                cb0 <= cb1; cb1 <= cb1 + 10'd1;
            end
            // every HASH/SAMPLE's first segment has at least 2 lanes (gen_prog asserts it), so
            // positions 0 and 1 are abase and abase + 1; position pn + 2 starts the second
            // segment or follows
            if (pst == P_HINIT) begin
                ra_cur <= p_abase; ra_nxt <= p_abase + 10'd1;
                aleft <= nt; a_none <= nt == 10'd0; a_one <= nt == 10'd1;
            end else if (pst == P_ABS && sp_take) begin
                aleft <= aleft - 10'd1; a_none <= a_one; a_one <= aleft == 10'd2;
                ra_cur <= ra_nxt; ra_nxt <= (pn == p_alen - 10'd2) ? p_bbase : ra_nxt + 10'd1;
            end
            eng_q <= eng_issue;
            // dispatcher: one instruction a cycle at most; pc already points at the next one,
            // which the ROM shows, so iw is reloaded as an instruction leaves
            case (st)
                D_IDLE: if (start) begin
                    opr <= op; pc <= 10'd0; st <= D_FETCH;
                    ek_bad <= 1'b0; dk_bad <= 1'b0; prog_err <= 1'b0; fail <= 1'b0;
                end
                D_FETCH: begin pc <= pc + 10'd1; st <= D_FETCH2; end
                D_FETCH2: begin pc <= pc + 10'd1; st <= D_DISP; end
                D_DISP: if (abort) begin
                    // the engine refused a command (a program bug): stop everything
                    prog_err <= 1'b1; st <= D_IDLE; done <= 1'b1; pst <= P_IDLE; cst <= C_IDLE;
                end else if (can_go) begin
                    pc <= pc + 10'd1;
                    if (f_op == I_END) begin st <= D_IDLE; done <= 1'b1; end
                    if (is_p) begin
                        pst <= P_HINIT; pwcnt <= 9'd0; nt <= iw[25:16] + {6'd0, iw[39:36]};
                    end
                    if (is_c) begin
                        wcnt <= 9'd0; pend <= 1'b0; cb0 <= iw[15:6]; cb1 <= iw[15:6] + 10'd1;
                        cst <= (f_op == I_ENC || f_op == I_ENCCMP) ? C_ENCI : (f_op == I_DEC) ? C_DECI : C_LINI;
                    end
                end
            endcase
            // sponge unit
            case (pst)
                P_HINIT: pst <= P_ABS;
                P_ABS: if (sp_take && ((p_tailn != 2'd0) ? a_none : a_one)) begin pst <= P_SQ; pn <= 10'd0; end
                P_SQ: if (is_sample) begin
                    if (pk_valid) begin
                        pwcnt <= pwcnt + 9'd1;
                        if (pwcnt == WORDS - 1) pst <= P_IDLE;
                    end
                end else if (sp_out_valid) begin
                    if (pn == {6'd0, p_nout} - 10'd1) pst <= P_IDLE;
                end
                default: ;
            endcase
            // codec unit
            case (cst)
                C_ENCI: cst <= C_ENC;
                C_ENC: begin
                    if (pe_host_re) begin wcnt <= wcnt + 9'd1; mword <= wcnt[7:0]; end
                    pend <= pe_host_re;
                    if (ser_give && n == nlanes - 10'd1) cst <= C_IDLE;
                end
                C_DECI: cst <= C_DEC;
                C_DEC: if (des_valid) begin
                    wcnt <= wcnt + 9'd1;
                    if (wcnt == WORDS - 1) begin
                        // des_bad already covers the last word (set when it was emitted)
                        if (c_chk) ek_bad <= ek_bad | des_bad;
                        cst <= C_IDLE;
                    end
                end
                C_LINI: cst <= C_LRUN;
                C_LRUN: begin
                    if (c_op == I_LOAD4) tmp[n[1:0]] <= rdatb;
                    if (c_op == I_SEL4 && !n[2])
                        tmp[n[1:0]] <= ({64{fail}} & tlane) | (~{64{fail}} & rdatb);
                    if (c_op == I_WIPE && c_chk) begin tmp[n[1:0]] <= 64'd0; fail <= 1'b0; end
                    if (n == ((c_op == I_WIPE) ? c_alen - 10'd1 : (c_op == I_SEL4) ? 10'd7 : 10'd3)) cst <= C_IDLE;
                end
                default: ;
            endcase
        end
    end

`ifndef SYNTHESIS
    // what gen_prog.py's wait bits guarantee: the units never write the staging buffers (one write
    // port) at once, and no lane is written on one port while the other port uses it
    // (the sponge unit's reads are those it absorbs: past them, with tail bytes to come, its
    // address runs on into the second segment, but that read's data is not used)
    wire p_rd = pst == P_ABS && n_abs < nt, c_rd = cst == C_DEC || cst == C_LRUN || (cst == C_ENC && c_op == I_ENCCMP);
    always @(posedge clk)
        if (!rst && st != D_IDLE) begin
            if (p_word && c_word)
                $fatal(1, "mlkem_core: both units write engine words in one cycle");
            if (addra == addrb && ((wea && (web || c_rd)) || (web && p_rd)))
                $fatal(1, "mlkem_core: lane %0d written on one port while the other uses it", addra);
        end
`endif
endmodule
