#!/usr/bin/env python3
"""Repeats the turns of a log recorded from the upstream loop, for the check benchmark on a log
that is not from our generator (docs/benchmarks/check.md, issue #32 item 4).

usage: repeat_upstream.py LOG N OUT

Writes LOG's header, then its events N times: each copy's seqs, turn numbers and
sourceEventSeqs shifted past the previous copy's, every other byte as recorded.
"""
import re
import sys

log, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(log, "rb") as f:
    lines = f.read().split(b"\n")
header, body = lines[0], [l for l in lines[1:] if l]
seqs = len(body)
turns = max(int(m) for l in body for m in re.findall(rb'"turn":(\d+)', l))


def shift(pattern, by, line):
    return re.sub(pattern, lambda m: m.group(1) + b"%d" % (int(m.group(2)) + by), line)


def shift_citation(by, line):
    def cited(m):
        seqs = [b"%d" % (int(x) + by) for x in m.group(1).split(b",") if x]
        return b'"sourceEventSeqs":[' + b",".join(seqs) + b"]"

    return re.sub(rb'"sourceEventSeqs":\[([\d,]*)\]', cited, line)


with open(out, "wb") as f:
    f.write(header + b"\n")
    for k in range(n):
        for line in body:
            line = shift(rb'("seq":)(\d+)', k * seqs, line)
            line = shift(rb'("turn":)(\d+)', k * turns, line)
            line = shift_citation(k * seqs, line)
            f.write(line + b"\n")
