#!/usr/bin/env python3
"""Cuts a session log and damages its lines at random, for benches/check_identity.sh.

usage: check_damage.py LOG OUT SEED LINES

Takes LINES lines of LOG from a random start (after its header, which is kept), then damages
about one line in 40: chunk lines (an escape, `\\r`, a byte order mark, a cut, a key named
twice, an invalid UTF-8 byte, a wrong seq, a dropped or repeated line) and the other lines
(a member nulled, repeated, retyped or added). Deterministic for a seed.
"""
import random
import re
import sys

log, out, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
with open(log, "rb") as f:
    lines = f.read().split(b"\n")
header, body = lines[0], [l for l in lines[1:] if l]
start = rng.randrange(0, max(1, len(body) - count))
cut = body[start:start + count]


def damage_chunk(line):
    kind = rng.randrange(10)
    if kind == 0:
        return line.replace(b'"text":" ', b'"text":"\\u0020', 1)
    if kind == 1:
        return line + b"\r"
    if kind == 2:
        return b"\xef\xbb\xbf" + line
    if kind == 3:
        return line[: rng.randrange(len(line))]
    if kind == 4:
        return line.replace(b'"index":', b'"index":0,"index":', 1)
    if kind == 5:
        i = line.find(b'"text":"')
        if i >= 0:
            return line[: i + 8] + b"\xff" + line[i + 8:]
        return line
    if kind == 6:
        return re.sub(rb'"seq":(\d+)', lambda m: b'"seq":%d' % (int(m.group(1)) + 1), line, count=1)
    if kind == 7:
        return None
    if kind == 8:
        return line + b"\n" + line
    return line.replace(b'"step":', b'"step": ', 1)


def damage_other(line):
    members = [b'"id"', b'"role"', b'"source"', b'"content"', b'"turn"', b'"step"',
               b'"callId"', b'"message"', b'"isError"']
    m = rng.choice(members)
    i = line.find(m + b":")
    kind = rng.randrange(4)
    if kind == 3 or i < 0:
        return line.replace(b'"data":{', b'"data":{"extra":[1,{"a":null}],', 1)
    j = i + len(m) + 1
    if kind == 0:
        return line[:j] + b"null," + m + b":" + line[j:]
    if kind == 1:
        return line[:i] + m + b":5," + line[i:]
    return line[:j] + b"[]," + b'"x":' + line[j:]


result = [header]
for line in cut:
    if rng.randrange(40) == 0:
        changed = damage_chunk(line) if b'"assistant/chunk"' in line else damage_other(line)
        if changed is not None:
            result.append(changed)
    else:
        result.append(line)
with open(out, "wb") as f:
    f.write(b"\n".join(result) + b"\n")
