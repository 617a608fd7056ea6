#!/usr/bin/env python3
"""measure_torch.py - real latencies on an NVIDIA GPU with PyTorch, for the fidelity dataset (issue 24, item 8).

Runs on a machine with a CUDA GPU, PyTorch and torchvision (not in CI, not in the product): the bench/gpu/README.md
says how its output became bench/fidelity/data/h100_torch.csv and bench/llm/measured_h100.csv.

CNNs: each torchvision network of models/ (random weights: the time does not depend on them) in FP16, channels-last
memory, cuDNN autotuning on, eval mode, input already on the GPU; one forward pass captured as a CUDA graph and
replayed (no Python or launch cost on the host between kernels, as a TensorRT engine enqueued once); per (model,
batch): 7 trials of enough replays for >= 50 ms each, the median trial's mean time per replay. The same in eager
mode (every kernel launched from Python) is printed for reference.

Decoder: a Llama-3.1-8B-shaped decoder written here (32 layers, hidden 4096, 32 query and 8 KV heads of 128, MLP
14336, vocabulary 128256, RMSNorm, rotary embedding, SwiGLU; random FP16 weights), scaled dot-product attention
(PyTorch's fused kernels), a preallocated KV cache; first-token latency (the prompt's prefill, batch 1) and static
batches (prompt P, generate G tokens, batch B: end-to-end time, output tokens/s = B x G / time), eager; and the
same static batch as the prefill plus G - 1 decode steps each replayed as a CUDA graph (no host launch cost).

Second run (bench/gpu/README.md, "Second run"): `--cnns a,b,...` measures those torchvision networks instead of the
list below, `--llms cfg,...` decoders shaped by those configs of tests/data/llm/configs/ (the Llama-shaped code below
with each config's layers, widths, heads and vocabulary) instead of Llama-3.1-8B, and `--no-eager-e2e` leaves out the
eager end-to-end generation (a reference number, not a row; it takes most of a decoder's time).

Tenth run (bench/gpu/README.md, "Tenth run"): `--separate` gives the decoder separate q, k, v and gate, up products
(five matrix products where the code above packs them into two), as Hugging Face's modules (q_proj, k_proj, v_proj,
gate_proj, up_proj) run them; each row then says "projections": "separate".

usage: python3 bench/gpu/measure_torch.py OUTDIR [--quick] [--cnns LIST] [--llms LIST] [--no-eager-e2e] [--fp32]
                                          [--separate]
       (--quick: tiny sizes on the CPU, to test the script)
"""
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F
import torchvision

QUICK = "--quick" in sys.argv
NO_EAGER_E2E = "--no-eager-e2e" in sys.argv
OUT = sys.argv[1]


def opt(name):
    """the value after --name, split at commas; None when absent"""
    return sys.argv[sys.argv.index(name) + 1].split(",") if name in sys.argv else None


ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEV = "cpu" if QUICK else "cuda"
# --fp32 (the sixth run): the CNNs in FP32 with PyTorch's defaults (cuDNN convolutions as TF32, matrix products in
# full FP32: torch.backends.cudnn.allow_tf32 True, torch.backends.cuda.matmul.allow_tf32 False)
FP32 = "--fp32" in sys.argv
SEPARATE = "--separate" in sys.argv
DT = torch.float32 if QUICK or FP32 else torch.float16
CNNS = [("resnet50", 224), ("resnet18", 224), ("resnet101", 224), ("mobilenet_v2", 224),
        ("mobilenet_v3_large", 224), ("efficientnet_b0", 224), ("densenet121", 224), ("googlenet", 224),
        ("inception_v3", 299), ("vgg16", 224), ("convnext_tiny", 224), ("regnet_y_400mf", 224),
        ("resnext50_32x4d", 224), ("squeezenet1_1", 224), ("vit_b_16", 224), ("swin_t", 224)]
BATCHES = [1, 16, 128]
if QUICK:
    CNNS, BATCHES = [("resnet18", 64), ("mobilenet_v2", 64)], [1, 2]
if opt("--cnns") is not None:
    CNNS = [(n, 299 if n == "inception_v3" else (64 if QUICK else 224)) for n in opt("--cnns") if n]


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def timed(fn, min_s=0.05, trials=7):
    """median over trials of the mean seconds per call, each trial long enough to be read by a wall clock; and the
    calls per trial"""
    fn()
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    one = max(time.perf_counter() - t0, 1e-6)
    n = max(1, int(min_s / one))
    res = []
    for _ in range(3 if QUICK else trials):
        sync()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        res.append((time.perf_counter() - t0) / n)
    return statistics.median(res), n


def graph_of(fn, warm=1):
    """fn captured as a CUDA graph (after `warm` calls on a side stream), its replay; on the CPU fn itself"""
    if DEV != "cuda":
        return fn
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(warm):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g.replay


def build(name):
    kw = {"weights": None}
    if name == "inception_v3":
        kw.update(aux_logits=False, init_weights=False)
    if name == "googlenet":
        kw.update(aux_logits=False, init_weights=False)
    return getattr(torchvision.models, name)(**kw).eval()


def cnn_rows(log, rows):
    """appends each (network, batch) row to rows as it is measured (main writes them out after each network)"""
    for name, size in CNNS:
        net = build(name).to(DEV, DT).to(memory_format=torch.channels_last)
        for b in BATCHES:
            x = torch.randn(b, 3, size, size, device=DEV, dtype=DT).to(memory_format=torch.channels_last)
            with torch.inference_mode():
                eager, _ = timed(lambda: net(x), min_s=0.02)
                if DEV == "cuda":
                    graph, n = timed(graph_of(lambda: net(x), warm=3))
                else:
                    graph, n = eager, 0
            row = {"model": name, "size": size, "batch": b, "graph_ms": graph * 1e3, "eager_ms": eager * 1e3,
                   "replays_per_trial": n}
            rows.append(row)
            log(json.dumps(row))
        del net
        if DEV == "cuda":
            torch.cuda.empty_cache()
        log.save()


# --- a Llama-shaped decoder -------------------------------------------------------------------------------------
CFG = dict(layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336, vocab=128256)
if QUICK:
    CFG = dict(layers=2, hidden=256, heads=4, kv_heads=2, head_dim=64, ffn=512, vocab=1000)


def cfg_of(name):
    """the decoder's shape from tests/data/llm/configs/NAME.json (Hugging Face config keys)"""
    d = json.load(open(os.path.join(ROOT, "tests", "data", "llm", "configs", name + ".json")))
    h, q = d["hidden_size"], d["num_attention_heads"]
    return dict(layers=d["num_hidden_layers"], hidden=h, heads=q, kv_heads=d.get("num_key_value_heads", q),
                head_dim=d.get("head_dim") or h // q, ffn=d["intermediate_size"], vocab=d["vocab_size"])


def attention(q, k, v, causal):
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    # an old PyTorch (the --quick test on a machine without 2.x): the same product, unfused
    r = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(r, 1), v.repeat_interleave(r, 1)
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    if causal:
        s = s + torch.full(s.shape[-2:], float("-inf"), device=s.device).triu(1 + s.shape[-1] - s.shape[-2])
    return s.softmax(-1) @ v


class Decoder:
    def __init__(self, c, max_batch, max_len):
        self.c = c
        w = lambda *s: (torch.randn(*s, device=DEV, dtype=DT) * 0.02)
        h, hd = c["hidden"], c["head_dim"]
        self.emb = w(c["vocab"], h)
        self.layers = []
        for _ in range(c["layers"]):
            L = dict(o=w(h, c["heads"] * hd), down=w(h, c["ffn"]),
                     n1=torch.ones(h, device=DEV, dtype=DT), n2=torch.ones(h, device=DEV, dtype=DT))
            if SEPARATE:
                L.update(q=w(c["heads"] * hd, h), k=w(c["kv_heads"] * hd, h), v=w(c["kv_heads"] * hd, h),
                         g=w(c["ffn"], h), u=w(c["ffn"], h))
            else:
                L.update(qkv=w((c["heads"] + 2 * c["kv_heads"]) * hd, h), gu=w(2 * c["ffn"], h))
            self.layers.append(L)
        self.norm = torch.ones(h, device=DEV, dtype=DT)
        self.head = w(c["vocab"], h)
        shape = (c["layers"], max_batch, c["kv_heads"], max_len, hd)
        self.k = torch.zeros(shape, device=DEV, dtype=DT)
        self.v = torch.zeros(shape, device=DEV, dtype=DT)
        inv = 1.0 / (500000.0 ** (torch.arange(0, hd, 2, device=DEV, dtype=torch.float32) / hd))
        ang = torch.arange(max_len, device=DEV, dtype=torch.float32)[:, None] * inv[None, :]
        self.cos, self.sin = ang.cos().to(DT), ang.sin().to(DT)

    @staticmethod
    def rms(x, w):
        return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5).to(x.dtype) * w

    def rope(self, x, pos, t):
        c, s = self.cos[pos:pos + t][None, None], self.sin[pos:pos + t][None, None]
        a, b = x[..., ::2], x[..., 1::2]
        return torch.stack((a * c - b * s, a * s + b * c), -1).flatten(-2)

    def forward(self, tok, pos):
        """tok: [B, T] token ids at positions pos..pos+T-1; returns the last position's logits"""
        c = self.c
        B, T = tok.shape
        hq, hk, hd = c["heads"], c["kv_heads"], c["head_dim"]
        x = self.emb[tok]
        for i, L in enumerate(self.layers):
            y = self.rms(x, L["n1"])
            if SEPARATE:
                q, k, v = y @ L["q"].t(), y @ L["k"].t(), y @ L["v"].t()
            else:
                q, k, v = (y @ L["qkv"].t()).split([hq * hd, hk * hd, hk * hd], -1)
            q = self.rope(q.view(B, T, hq, hd).transpose(1, 2), pos, T)
            k = self.rope(k.view(B, T, hk, hd).transpose(1, 2), pos, T)
            self.k[i, :B, :, pos:pos + T] = k
            self.v[i, :B, :, pos:pos + T] = v.view(B, T, hk, hd).transpose(1, 2)
            kk, vv = self.k[i, :B, :, :pos + T], self.v[i, :B, :, :pos + T]
            a = attention(q, kk, vv, T > 1)
            x = x + a.transpose(1, 2).reshape(B, T, hq * hd) @ L["o"].t()
            if SEPARATE:
                y = self.rms(x, L["n2"])
                g, u = y @ L["g"].t(), y @ L["u"].t()
            else:
                g, u = (self.rms(x, L["n2"]) @ L["gu"].t()).chunk(2, -1)
            x = x + (F.silu(g) * u) @ L["down"].t()
        return self.rms(x[:, -1], self.norm) @ self.head.t()

    def generate(self, B, P, G):
        tok = torch.randint(0, self.c["vocab"], (B, P), device=DEV)
        nxt = self.forward(tok, 0).argmax(-1, keepdim=True)
        for i in range(G - 1):
            nxt = self.forward(nxt, P + i).argmax(-1, keepdim=True)
        return nxt


def llm_rows(log, cfg=None, name="llama-3.1-8b"):
    global CFG
    CFG = cfg or CFG
    rows = []
    prompts = [128, 512, 2048] if not QUICK else [16]
    static = [(1, 128, 128), (8, 128, 128), (32, 128, 128), (64, 128, 128), (1, 2048, 128), (16, 2048, 128)]
    if QUICK:
        static = [(1, 16, 4), (2, 16, 4)]
    # one KV cache for every row (the first runs); where it does not fit in the GPU's memory (an MHA model at batch 64
    # and 2176 positions), a decoder with a cache of each row's own batch and length, made afresh per row
    try:
        d, per_row = Decoder(CFG, max(b for b, _, _ in static), max(prompts + [p + g for _, p, g in static])), False
    except RuntimeError as e:  # torch.OutOfMemoryError derives from RuntimeError
        if "out of memory" not in str(e):
            raise
        d, per_row = None, True
        if DEV == "cuda":
            torch.cuda.empty_cache()
        d = Decoder(CFG, 1, max(prompts))
    with torch.inference_mode():
        for p in prompts:
            tok = torch.randint(0, CFG["vocab"], (1, p), device=DEV)
            t, _ = timed(lambda: d.forward(tok, 0), min_s=0.2)
            row = {"kind": "first_token", "model": name, "batch": 1, "prompt": p, "ms": t * 1e3}
            if SEPARATE:
                row["projections"] = "separate"
            rows.append(row)
            log(json.dumps(row))
        for b, p, g in static:
            if per_row:
                d = None
                if DEV == "cuda":
                    torch.cuda.empty_cache()
                d = Decoder(CFG, b, p + g)
            t = float("nan") if NO_EAGER_E2E else timed(lambda: d.generate(b, p, g), min_s=0.0, trials=3)[0]
            # the same run without the host's launch cost: the prefill of the batch, then each decode step as a
            # CUDA graph of one step at the middle context P + G/2 (attention's cost is linear in the context)
            tok = torch.randint(0, CFG["vocab"], (b, p), device=DEV)
            pre, _ = timed(lambda: d.forward(tok, 0), min_s=0.1, trials=3)
            one = torch.zeros(b, 1, dtype=torch.long, device=DEV)
            mid = p + g // 2
            step, _ = timed(graph_of(lambda: d.forward(one, mid), warm=2), min_s=0.1, trials=5)
            e2e = pre + (g - 1) * step
            row = {"kind": "static", "model": name, "batch": b, "prompt": p, "generate": g, "ms": t * 1e3,
                   "cache": "per row" if per_row else "shared",
                   "out_tok_s": b * g / t, "prefill_ms": pre * 1e3, "graph_step_ms": step * 1e3,
                   "graph_e2e_ms": e2e * 1e3, "graph_out_tok_s": b * g / e2e}
            if SEPARATE:
                row["projections"] = "separate"
            rows.append(row)
            log(json.dumps(row))
    return rows


def main():
    os.makedirs(OUT, exist_ok=True)
    logf = open(os.path.join(OUT, "measure.log"), "w")

    res = {}

    class Log:
        def __call__(self, s):
            print(s, flush=True)
            logf.write(s + "\n")
            logf.flush()

        def save(self):
            """what was measured so far, so that a run stopped at its time limit keeps it"""
            json.dump(res, open(os.path.join(OUT, "measure.json"), "w"), indent=1)
    log = Log()

    env = {"torch": torch.__version__, "torchvision": torchvision.__version__, "quick": QUICK,
           "dtype": str(DT).replace("torch.", ""), "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32,
           "matmul_allow_tf32": torch.backends.cuda.matmul.allow_tf32, "separate": SEPARATE}
    if DEV == "cuda":
        torch.backends.cudnn.benchmark = True
        p = torch.cuda.get_device_properties(0)
        env.update(gpu=p.name, sms=p.multi_processor_count, memory_bytes=p.total_memory,
                   l2_bytes=getattr(p, "L2_cache_size", None),
                   cuda=torch.version.cuda, cudnn=torch.backends.cudnn.version())
    log(json.dumps(env))
    res.update(env=env, cnn=[], llm=[])
    t0 = time.time()
    cnn_rows(log, res["cnn"])
    log(f"cnn done in {time.time() - t0:.0f} s")
    log.save()
    for name in opt("--llms") or ["llama-3.1-8b"]:
        if not name:
            continue
        res["llm"] += llm_rows(log, cfg_of(name) if opt("--llms") and not QUICK else None, name)
        log(f"{name} done in {time.time() - t0:.0f} s")
        log.save()
        if DEV == "cuda":
            torch.cuda.empty_cache()
    log(f"all done in {time.time() - t0:.0f} s")
    log.save()


if __name__ == "__main__":
    main()
