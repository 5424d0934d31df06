"""FASTA reading shared by the experiment scripts in this folder (run them from anywhere: Python
puts a script's own folder first on the import path)."""


def read_fasta(path):
    """The sequences of a FASTA file, upper case, in order (headers dropped)."""
    seqs, cur = [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith(">"):
                if cur:
                    seqs.append("".join(cur))
                cur = []
            elif line:
                cur.append(line.upper())
    if cur:
        seqs.append("".join(cur))
    return seqs
