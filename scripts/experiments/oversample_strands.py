#!/usr/bin/env python3
"""TATA-box strand densities of a DNA set as a training recipe's oversampling shows it.

For each FASTA file: the density of TATAWAWR matches whose box begins in -45..-15 (the forward
match's first letter; for the reverse strand the last letter of a YWTWTATA match, as `gsflow eval`
anchors them) over the density elsewhere in the window, for the forward and the reverse strand,
with every window that carries a forward box in -45..-15 counted `--copies` times (1 = the set
itself). `--forward-only` leaves out of the copying the windows whose box also reads on the reverse
strand there (data.oversample[].forward_only). It also prints the share of reverse-strand core
matches that lie within 8 bp of a forward match (palindromic AT-rich boxes such as TATATATA).

  scripts/experiments/oversample_strands.py data/dna256/train.fasta --copies 3 [--forward-only]

Used for docs/notes/2026-12-07-promoter-strands.md.
"""
import argparse
import re

from seqio import read_fasta

FORWARD = re.compile(r"(?=TATA[AT]A[AT][AG])")
REVERSE = re.compile(r"(?=[CT][AT]T[AT]TATA)")
MOTIF = 8
FIRST, LAST = -45, -15


def anchors(seq, pattern, offset):
    """Box positions (negative from the 3' end) of every match: start + offset - length."""
    return [m.start() + offset - len(seq) for m in pattern.finditer(seq)]


def in_core(pos):
    return FIRST <= pos <= LAST


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("fasta", nargs="+")
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--forward-only", action="store_true")
    a = ap.parse_args()
    for path in a.fasta:
        seqs = read_fasta(path)
        counts = {"fwd": [0, 0, 0, 0], "rev": [0, 0, 0, 0]}  # core hits, core positions, else ...
        copied = near = rev_core = 0
        for s in seqs:
            fwd = anchors(s, FORWARD, 0)
            rev = anchors(s, REVERSE, MOTIF - 1)
            box = any(in_core(p) for p in fwd)
            both = box and any(in_core(p) for p in rev)
            w = a.copies if box and not (a.forward_only and both) else 1
            copied += w > 1
            positions = len(s) - MOTIF + 1
            for name, hits, offset in (("fwd", fwd, 0), ("rev", rev, MOTIF - 1)):
                core = sum(1 for st in range(positions) if in_core(st + offset - len(s)))
                c = counts[name]
                c[0] += w * sum(1 for p in hits if in_core(p))
                c[1] += w * core
                c[2] += w * sum(1 for p in hits if not in_core(p))
                c[3] += w * (positions - core)
            for p in rev:
                if in_core(p):
                    rev_core += w
                    near += w * any(abs((p - (MOTIF - 1)) - q) <= 8 for q in fwd)
        ratio = {k: (c[0] / c[1]) / (c[2] / c[3]) for k, c in counts.items()}
        print(f"{path}: {len(seqs)} windows, {copied} copied x{a.copies}"
              f"{' (forward only)' if a.forward_only else ''}: "
              f"fwd core/elsewhere {ratio['fwd']:.3f} ({counts['fwd'][0]} core matches), "
              f"rev {ratio['rev']:.3f} ({counts['rev'][0]}); "
              f"rev core matches within 8 bp of a forward match {near / max(rev_core, 1):.2f}")


if __name__ == "__main__":
    main()
