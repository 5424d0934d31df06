"""Order-k Markov chains fitted on the training peptides, as a scale for the protein-likeness
measure (docs/notes/2026-12-07-peptide-markov-scale.md): how far a model that only copies local
context moves the best alignment score, and what the memorisation guard says about it.

    python3 scripts/experiments/markov_peptides.py ORDER OUT.fasta [--n 300] [--seed 0] [--train data/peptide/train.fasta]

Each sequence takes a length drawn from the training peptides (>= 10 residues, as the recipe's
min_length) and letters from the longest context seen at least twice in training (backing off to
shorter ones), starting from a start-of-sequence context.
"""
import argparse
import collections
import random

from seqio import read_fasta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("order", type=int)
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--train", default="data/peptide/train.fasta")
    a = ap.parse_args()
    random.seed(a.seed)
    seqs = [s for s in read_fasta(a.train) if len(s) >= 10]
    counts = [collections.defaultdict(collections.Counter) for _ in range(a.order + 1)]
    for s in seqs:
        padded = "^" * a.order + s
        for i in range(a.order, len(padded)):
            for k in range(a.order + 1):
                counts[k][padded[i - k:i]][padded[i]] += 1

    def draw(context):
        for k in range(a.order, -1, -1):
            seen = counts[k].get(context[len(context) - k:] if k else "")
            if seen and sum(seen.values()) >= 2:
                letters, weights = zip(*seen.items())
                return random.choices(letters, weights)[0]
        raise RuntimeError("no context seen twice")

    lengths = [len(s) for s in seqs]
    with open(a.out, "w") as f:
        for i in range(a.n):
            length, context, out = random.choice(lengths), "^" * a.order, []
            while len(out) < length:
                letter = draw(context)
                out.append(letter)
                context = (context + letter)[-a.order:] if a.order else ""
            f.write(f">markov{a.order}_{i}\n{''.join(out)}\n")


if __name__ == "__main__":
    main()
