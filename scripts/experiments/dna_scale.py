#!/usr/bin/env python3
"""Scale experiment for the DNA promoter model's TATA box (docs/models.md, "The TATA box").

A PyTorch re-implementation of what `gsflow train --config configs/dna-promoter.json` trains
without its `data.oversample` rule and `gsflow generate` samples (consistent interpolant,
lambda 3, likelihood skip, centred log x / 4 input, the dilated CNN of models/src/cnn.cpp, AdamW + warm-up + cosine, EMA, stratified times,
exponential integrator, decode by argmax of the last x_hat; `--network transformer` swaps in the
transformer of models/src/transformer.cpp), so that larger networks and much
longer training than the 60-minute CPU budget allows can be measured on a GPU. It is not part of
gsflow: the product trains in C++ with LibTorch. It writes the generated sequences as FASTA and
one JSON line of metrics (TATA window fraction and bins, GC, 6-mer JS in bits with its floor),
computed like engine/src/metrics/ (kmer.cpp, tata.cpp). Needs Python's torch (Debian: python3-torch, CPU;
measured with torch 2.11 + CUDA on an H200 and checked with Debian's 1.13 on the CPU).

  python3 scripts/experiments/dna_scale.py --data data/dna256 --out /tmp/x --name base \
      --width 64 --blocks 8 --steps 14000 --device cpu
"""
import argparse
import json
import math
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from seqio import read_fasta

LETTERS = "ACGT"
LAMBDA = 3.0
SIGNAL_MAX = math.expm1(LAMBDA)


def encode(seqs):
    table = {c: i for i, c in enumerate(LETTERS)}
    return torch.tensor([[table[c] for c in s] for s in seqs], dtype=torch.long)


def signal(t):  # A(t) of the consistent interpolant
    return SIGNAL_MAX * torch.expm1(t * LAMBDA) / math.expm1(LAMBDA)


class Cnn(nn.Module):
    def __init__(self, length, k, width, blocks, kernel, time_features=32):
        super().__init__()
        self.k = k
        self.time1 = nn.Linear(time_features, width)
        self.time2 = nn.Linear(width, width)
        half = time_features // 2
        self.register_buffer("frequencies",
                             torch.exp(torch.linspace(0.0, math.log(1000.0), half)) * 2 * math.pi)
        self.input = nn.Linear(k, width)
        self.positions = nn.Parameter(torch.randn(length, width) * 0.02)
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(blocks))
        self.convs = nn.ModuleList(
            nn.Conv1d(width, width, kernel, dilation=1 << (b % 5),
                      padding=(1 << (b % 5)) * (kernel - 1) // 2) for b in range(blocks))
        self.time_proj = nn.ModuleList(nn.Linear(width, width) for _ in range(blocks))
        self.output_norm = nn.LayerNorm(width)
        self.output = nn.Linear(width, k)

    def log_likelihood(self, x, t):
        a = signal(t).reshape(-1, 1, 1)
        u = -torch.log(x.clamp_min(1e-37))
        gain = torch.log(torch.expm1(a))
        return -self.k * F.softplus(gain + u - torch.logsumexp(u, -1, keepdim=True))

    def embed(self, x, t):
        """The likelihood skip, the input features plus positions, and silu(time embedding)."""
        like = self.log_likelihood(x, t)
        angles = t.reshape(-1, 1) * self.frequencies.reshape(1, -1)
        temb = self.time2(F.silu(self.time1(torch.cat([torch.sin(angles), torch.cos(angles)], 1))))
        lx = torch.log(x.clamp_min(1e-30))
        h = self.input((lx - lx.mean(-1, keepdim=True)) * 0.25) + self.positions.unsqueeze(0)
        return like, h, F.silu(temb)

    def forward(self, x, t):
        like, h, st = self.embed(x, t)
        for norm, conv, proj in zip(self.norms, self.convs, self.time_proj):
            z = F.silu(norm(h) + proj(st).unsqueeze(1))
            h = h + conv(z.transpose(1, 2)).transpose(1, 2)
        return self.output(self.output_norm(h)) + like


class Transformer(Cnn):
    """The adaptive-layer-norm transformer of models/src/transformer.cpp (the peptide model's
    body), on the same time embedding, input features and likelihood skip as the CNN."""

    def __init__(self, length, k, width, blocks, heads, time_features=32):
        super().__init__(length, k, width, 0, 1, time_features)
        del self.output_norm
        self.heads = heads
        self.modulation = nn.ModuleList(nn.Linear(width, 6 * width) for _ in range(blocks))
        self.qkv = nn.ModuleList(nn.Linear(width, 3 * width) for _ in range(blocks))
        self.attn_out = nn.ModuleList(nn.Linear(width, width) for _ in range(blocks))
        self.fc1 = nn.ModuleList(nn.Linear(width, 2 * width) for _ in range(blocks))
        self.fc2 = nn.ModuleList(nn.Linear(2 * width, width) for _ in range(blocks))
        self.output_mod = nn.Linear(width, 2 * width)
        with torch.no_grad():  # adaLN-zero: every block starts as the identity
            for m in list(self.modulation) + [self.output_mod]:
                m.weight.zero_()
                m.bias.zero_()

    @staticmethod
    def modulate(h, shift, scale):
        return F.layer_norm(h, h.shape[-1:], eps=1e-6) * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)

    def forward(self, x, t):
        like, h, st = self.embed(x, t)
        b, n, w = h.shape
        d = w // self.heads
        for mod, qkv, out, fc1, fc2 in zip(self.modulation, self.qkv, self.attn_out, self.fc1,
                                           self.fc2):
            m = mod(st).chunk(6, -1)
            q, k, v = qkv(self.modulate(h, m[0], m[1])).reshape(b, n, 3, self.heads, d).unbind(2)
            q, k, v = (z.transpose(1, 2) for z in (q, k, v))
            if hasattr(F, "scaled_dot_product_attention"):
                a = F.scaled_dot_product_attention(q, k, v)
            else:
                a = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d), -1) @ v
            h = h + m[2].unsqueeze(1) * out(a.transpose(1, 2).reshape(b, n, w))
            h = h + m[5].unsqueeze(1) * fc2(F.gelu(fc1(self.modulate(h, m[3], m[4]))))
        om = self.output_mod(st).chunk(2, -1)
        return self.output(self.modulate(h, om[0], om[1])) + like


def batch_loss(net, letters, gen):
    b = letters.shape[0]
    t = (torch.randperm(b, generator=gen, device=letters.device).float()
         + torch.rand(b, generator=gen, device=letters.device)) / b
    x1 = F.one_hot(letters, 4).float()
    u = torch.rand(x1.shape, generator=gen, device=letters.device).clamp(1e-7, 1 - 1e-7)
    g = -torch.log(-torch.log(u))
    xt = torch.softmax(signal(t).reshape(-1, 1, 1) * x1 + g, -1)
    logits = net(xt, t)
    return F.cross_entropy(logits.reshape(-1, 4), letters.reshape(-1))


@torch.no_grad()
def sample(net, n, length, steps, seed, device, batch=1000):
    gen = torch.Generator(device=device).manual_seed(seed)
    out = []
    for first in range(0, n, batch):
        m = min(batch, n - first)
        u = torch.rand((m, length, 4), generator=gen, device=device).clamp(1e-7, 1 - 1e-7)
        x = torch.softmax(-torch.log(-torch.log(u)), -1)
        for s in range(steps):
            t0 = torch.full((m,), s / steps, device=device)
            t1 = torch.full((m,), (s + 1) / steps, device=device)
            xhat = torch.softmax(net(x, t0), -1)
            delta = (signal(t1) - signal(t0)).reshape(-1, 1, 1)
            x = torch.softmax(torch.log(x.clamp_min(1e-37)) + delta * xhat, -1)
        out.append(xhat.argmax(-1).cpu())
    return torch.cat(out)


def tata_profile(seqs, begin=-45, end=-15, bins=10, bin_width=10):
    # TATAWAWR starts, positions from the 3' end (-1 = last base), as engine tata_profile.
    ok = [set("T"), set("A"), set("T"), set("A"), set("AT"), set("A"), set("AT"), set("AG")]
    in_window, matches, rates = 0, 0, [0.0] * bins
    for s in seqs:
        hit = False
        for start in range(len(s) - 7):
            if all(s[start + j] in ok[j] for j in range(8)):
                d = len(s) - 1 - start
                matches += 1
                if d // bin_width < bins:
                    rates[d // bin_width] += 1
                hit = hit or begin <= -d - 1 <= end
        in_window += hit
    n = len(seqs)
    return {"window_fraction": in_window / n, "matches_per_sequence": matches / n,
            "bin_rates": [r / n for r in rates]}


def kmer_counts(seqs, k):
    counts = {}
    for s in seqs:
        for i in range(len(s) - k + 1):
            counts[s[i:i + k]] = counts.get(s[i:i + k], 0) + 1
    return counts


def js_bits(a, b):
    na, nb = sum(a.values()), sum(b.values())
    js = 0.0
    for key in set(a) | set(b):
        p, q = a.get(key, 0) / na, b.get(key, 0) / nb
        m = 0.5 * (p + q)
        if p > 0:
            js += 0.5 * p * math.log2(p / m)
        if q > 0:
            js += 0.5 * q * math.log2(q / m)
    return js


def metrics(seqs, reference, training_sample):
    ref6 = kmer_counts(reference, 6)
    gc = sum(s.count("G") + s.count("C") for s in seqs) / sum(len(s) for s in seqs)
    return {"tata": tata_profile(seqs), "gc": gc, "kmer6_js": js_bits(kmer_counts(seqs, 6), ref6),
            "kmer6_js_floor": js_bits(kmer_counts(training_sample, 6), ref6),
            "unique": len(set(seqs)) / len(seqs)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default="data/dna256")
    p.add_argument("--out", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--blocks", type=int, default=8)
    p.add_argument("--kernel", type=int, default=9)
    p.add_argument("--network", choices=("cnn", "transformer"), default="cnn")
    p.add_argument("--heads", type=int, default=4, help="transformer attention heads")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--steps", type=int, default=14000, help="planned steps (upper bound)")
    p.add_argument("--seconds", type=float, default=0, help="training time budget (0 = none)")
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--sample-steps", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", default="cuda")
    p.add_argument("--reference-only", action="store_true", help="metrics of the data only")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(a.seed)
    dev = torch.device(a.device)
    torch.backends.cudnn.benchmark = True
    torch.set_float32_matmul_precision("high")  # TF32 matrix products on a GPU
    train_seqs = read_fasta(os.path.join(a.data, "train.fasta"))
    val_seqs = read_fasta(os.path.join(a.data, "validation.fasta"))
    rng = torch.Generator().manual_seed(0)
    pick = torch.randperm(len(train_seqs), generator=rng)[:a.n].tolist()
    train_sample = [train_seqs[i] for i in pick]
    if a.reference_only:
        print(json.dumps({"name": "training sample", **metrics(train_sample, val_seqs, train_sample)}))
        print(json.dumps({"name": "validation", "tata": tata_profile(val_seqs)}))
        print(json.dumps({"name": "training", "tata": tata_profile(train_seqs)}))
        return

    data = encode(train_seqs).to(dev)
    length = data.shape[1]
    if a.network == "cnn":
        make = lambda: Cnn(length, 4, a.width, a.blocks, a.kernel)
    else:
        make = lambda: Transformer(length, 4, a.width, a.blocks, a.heads)
    net, ema = make().to(dev), make().to(dev)
    ema.load_state_dict(net.state_dict())
    for q in ema.parameters():
        q.requires_grad_(False)
    params = sum(q.numel() for q in net.parameters())
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=0.01)
    gen = torch.Generator(device=dev).manual_seed(a.seed)
    warmup, total, start = 200, a.steps, time.time()
    step, loss_sum, calibrated = 0, 0.0, a.seconds <= 0
    log = open(os.path.join(a.out, a.name + ".log"), "w")
    while step < total:
        if step < warmup:
            lr = a.lr * (step + 1) / warmup
        else:
            progress = min(1.0, (step - warmup) / max(1, total - warmup))
            lr = a.lr * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * progress)))
        for group in opt.param_groups:
            group["lr"] = lr
        index = torch.randint(data.shape[0], (a.batch,), generator=gen, device=dev)
        loss = batch_loss(net, data[index], gen)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        decay = min(0.999, (1.0 + step) / (10.0 + step))
        with torch.no_grad():
            torch._foreach_mul_(list(ema.parameters()), decay)
            torch._foreach_add_(list(ema.parameters()), list(net.parameters()), alpha=1 - decay)
        step += 1
        if step % 100 == 0:
            loss_sum = loss.item()
            elapsed = time.time() - start
            if not calibrated and step >= 300:
                total = max(step, min(a.steps, int(step * a.seconds / elapsed)))
                calibrated = True
            print(f"{a.name} step {step}/{total} loss {loss_sum:.4f} {elapsed:.0f} s", file=log,
                  flush=True)
    train_s = time.time() - start
    ema.eval()
    seqs_t = sample(ema, a.n, length, a.sample_steps, a.seed + 1000, dev)
    seqs = ["".join(LETTERS[i] for i in row) for row in seqs_t.tolist()]
    with open(os.path.join(a.out, a.name + ".fasta"), "w") as f:
        for i, s in enumerate(seqs):
            f.write(f">{a.name}_{i}\n{s}\n")
    result = {"name": a.name, "network": a.network, "width": a.width, "blocks": a.blocks, "kernel": a.kernel,
              "batch": a.batch, "lr": a.lr, "parameters": params, "steps": step,
              "train_seconds": round(train_s, 1), "last_loss": loss_sum,
              **metrics(seqs, val_seqs, train_sample)}
    print(json.dumps(result), flush=True)
    print(json.dumps(result), file=log, flush=True)


if __name__ == "__main__":
    main()
