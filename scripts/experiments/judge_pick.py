#!/usr/bin/env python3
"""The judge's own pick of unguided designs (docs/notes/2026-12-07-kmer-hold.md, sections 1, 1b).

Among unguided designs scored by the independent judge and the guide (`gsflow score --judge NAME
--guide NAME --csv`), takes the largest top-k by the judge whose mean reaches a target (DNA: the
pool's judge p90; peptides: twice the pool's judge mean) and reports what those designs look like
by the composition checks of eval-guidance (app/evaluation/composition_checks.hpp: DNA TATAWAWR
starting in -45..-15 of the 3' end, CpG observed/expected, homopolymers >= 8; peptides: per-residue
99th percentiles of the `amp=1` training peptides, runs >= 5), the guide-judge Spearman
correlation, and the judge mean of the guide's own top picks. It writes 200 of the picked designs
and 200 of the pool as FASTA for `gsflow eval --sequences` (k-mer JS).

  build/app/gsflow generate --model dna-promoter -n 4000 --seed 11 --steps 100 --no-store -o pool.fasta
  build/app/gsflow score pool.fasta --model dna-promoter --judge promoter --guide promoter --csv --out pool.csv
  python3 scripts/experiments/judge_pick.py pool.fasta pool.csv --judge promoter --guide promoter --out /tmp/pick
  build/app/gsflow eval --model dna-promoter --sequences /tmp/pick/picked.fasta --json   # and pool.fasta

(for peptides: --model peptide, --judge amp --guide amp, and --train data/peptide/train.fasta).
"""
import argparse
import csv
import os
import random
import re


def fasta(path):
    out = []
    for line in open(path):
        line = line.strip()
        if line.startswith(">"):
            out.append([line[1:], ""])
        elif line:
            out[-1][1] += line
    return out


def quantile(values, q):  # linear interpolation between order statistics, as ResidueCeiling
    v = sorted(values)
    x = q * (len(v) - 1)
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])


def spearman(a, b):
    def rank(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0] * len(v)
        for k, i in enumerate(order):
            r[i] = k
        return r
    ra, rb = rank(a), rank(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    return cov / (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5


TATA = re.compile(r"(?=TATA[AT]A[AT][AG])")


def dna_checks(seqs):
    tata = cpg = runs = 0
    for s in seqs:
        n = len(s)
        tata += any(n - 45 <= m.start() <= n - 15 for m in TATA.finditer(s))
        c, g = s.count("C"), s.count("G")
        cg = sum(1 for i in range(1, n) if s[i - 1] == "C" and s[i] == "G")
        cpg += cg * n / (c * g) if c * g else 0.0
        runs += max(len(m.group(0)) for m in re.finditer(r"A+|C+|G+|T+", s)) >= 8
    n = len(seqs)
    return {"tata_window": tata / n, "cpg_oe": cpg / n, "homopolymer_8": runs / n}


def protein_checks(seqs, ceiling):
    worst = max((sum(s.count(a) / len(s) > h for s in seqs) / len(seqs), a)
                for a, h in ceiling.items())
    runs = sum(1 for s in seqs if re.search(r"(.)\1{4,}", s)) / len(seqs)
    return {"worst_residue_above_p99": worst, "runs_5": runs,
            "mean_length": sum(map(len, seqs)) / len(seqs)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fasta")
    ap.add_argument("csv")
    ap.add_argument("--judge", required=True, help="judge name (column judge:NAME)")
    ap.add_argument("--guide", required=True, help="guide column name")
    ap.add_argument("--train", default="data/dna256/train.fasta",
                    help="training FASTA (peptides: the amp=1 records give the ceilings)")
    ap.add_argument("--out", default="pick")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    seqs = {h.split()[0]: s for h, s in fasta(a.fasta)}
    rows = list(csv.DictReader(open(a.csv)))
    judge = {r["id"]: float(r["judge:" + a.judge]) for r in rows}
    guide = {r["id"]: float(r[a.guide]) for r in rows}
    ids = list(judge)
    dna = set("".join(list(seqs.values())[:50])) <= set("ACGT")
    if dna:
        checks = dna_checks
        target = quantile(list(judge.values()), 0.9)
    else:
        amp = [s for h, s in fasta(a.train) if " amp=1" in h]
        ceiling = {c: quantile([s.count(c) / len(s) for s in amp], 0.99)
                   for c in "ACDEFGHIKLMNPQRSTVWY"}
        checks = lambda s: protein_checks(s, ceiling)  # noqa: E731
        print("real amp=1 training peptides:", checks(amp))
        target = 2 * sum(judge.values()) / len(judge)

    by_judge = sorted(ids, key=lambda i: -judge[i])
    total, k = 0.0, 0
    for n, i in enumerate(by_judge, 1):
        total += judge[i]
        if total / n >= target:
            k = n
    picked = by_judge[:k]
    print(f"pool: n {len(ids)}, judge mean {sum(judge.values()) / len(ids):.3f}, "
          f"checks {checks(list(seqs.values()))}")
    print(f"judge's top {k} ({100 * k / len(ids):.1f} %), judge mean >= {target:.3f}: "
          f"checks {checks([seqs[i] for i in picked])}")
    print(f"guide-judge Spearman: {spearman([guide[i] for i in ids], [judge[i] for i in ids]):.3f}")
    by_guide = sorted(ids, key=lambda i: -guide[i])
    for n in (10, 40, 100, 400, k):
        print(f"guide's top {n}: judge mean {sum(judge[i] for i in by_guide[:n]) / n:.3f}")

    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    for name, chosen in (("picked", rng.sample(picked, min(200, k))),
                         ("pool", rng.sample(ids, 200))):
        with open(os.path.join(a.out, name + ".fasta"), "w") as f:
            for i in chosen:
                f.write(f">{i}\n{seqs[i]}\n")


if __name__ == "__main__":
    main()
