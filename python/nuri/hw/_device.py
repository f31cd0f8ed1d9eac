"""What every device of nuri.hw shares: the STATUS register's bits and their errors."""

STATUS_BUSY, STATUS_DONE, STATUS_EK_BAD, STATUS_DK_BAD, STATUS_PROG_ERR, STATUS_CMD_ERR = (1, 2, 4, 8, 16, 32)
REG_CMD, REG_STATUS, REG_CYCLES, REG_IO_CYCLES, REG_INFO = 0x00, 0x04, 0x08, 0x0C, 0x10


class Device:
    """A core for one level; subclasses implement _command(op, data, out_len) ->
    (status, core cycles, io cycles, output bytes)."""

    level = None
    nbu = None
    cycles = None  # (core, io) of the last command

    def run(self, op, data, out_len):
        status, core, io, out = self._command(op, bytes(data), out_len)
        self.cycles = (core, io)
        check_status(status, self.level)
        if len(out) != out_len:
            raise RuntimeError(f"nuri.hw: the core sent {len(out)} bytes, expected {out_len}")
        return out


def check_status(status, level):
    if status & STATUS_CMD_ERR:
        raise RuntimeError(f"nuri.hw: the core refused the ML-KEM-{level} command")
    if status & STATUS_PROG_ERR:
        raise RuntimeError("nuri.hw: the core's engine refused a micro-program command")
    if status & STATUS_EK_BAD:
        raise ValueError(f"invalid ML-KEM-{level} encapsulation key (FIPS 203 modulus check)")
    if status & STATUS_DK_BAD:
        raise ValueError(
            f"invalid ML-KEM-{level} decapsulation key: stored H(ek) does not match ek (FIPS 203 hash check)"
        )
    if not status & STATUS_DONE:
        raise RuntimeError(f"nuri.hw: the command did not complete (status {status:#x})")
