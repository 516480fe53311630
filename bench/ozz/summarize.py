#!/usr/bin/env python3
"""Summarizes run_all.sh's results/raw.txt (+ results/callgrind.txt) into the
issue's table: per measure, the median over rounds of each round's median
thread-CPU time, with the spread (min-max over rounds)."""
import re
import statistics
import sys
from collections import defaultdict

raw = sys.argv[1]
cgpath = sys.argv[2] if len(sys.argv) > 2 else None
res = defaultdict(list)  # (impl, clip, case, space, chars) -> [cpu per round]
joints = {}
info = defaultdict(dict)
loads = []
head = []
for line in open(raw):
    if line.startswith("# ") and "round=" not in line:
        head.append(line[2:].strip())
    m = re.search(r"load=(\S+) (\S+) (\S+)", line)
    if m and line.startswith("# round="):
        loads.append(float(m.group(1)))
    if " RESULT " in line:
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        res[(kv["impl"], kv["clip"], kv["case"], kv["space"], int(kv["chars"]))].append(float(kv["cpu_ns_op"]))
        joints[(kv["impl"], kv["clip"])] = int(kv["joints"])
    elif " INFO " in line or line.startswith("INFO"):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        if "impl" in kv and "clip" in kv:
            info[(kv["impl"], kv["clip"])].update(kv)

IMPLS = ["ozz-simd", "ozz-scalar", "mecanim", "mecanim-purego"]
NAMES = {"ozz-simd": "ozz SIMD", "ozz-scalar": "ozz scalar", "mecanim": "mecanim", "mecanim-purego": "mecanim, -tags purego (scalar)"}


def med(v):
    return statistics.median(v) if v else None


def fmt(v):
    if v is None:
        return "–"
    if v < 10:
        return f"{v:.2f}"
    if v < 100:
        return f"{v:.1f}"
    return f"{v:,.0f}"


def cell(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "–"
    m = med(vals)
    if len(vals) > 1:
        return f"{fmt(m)} ({fmt(min(vals))}–{fmt(max(vals))})"
    return fmt(m)


def per_round(impl, clip, case, space, chars=1):
    return res.get((impl, clip, case, space, chars), [])


def per_joint(impl, clip, case, space):
    j = joints.get((impl, clip))
    return [v / j for v in per_round(impl, clip, case, space)] if j else []


def model_per_joint(impl, clip):
    """local+model minus local, forward, per joint, round by round."""
    a, b = per_round(impl, clip, "forward", "local+model"), per_round(impl, clip, "forward", "local")
    j = joints.get((impl, clip))
    return [(x - y) / j for x, y in zip(a, b)] if j else []


def clip_for(impl, ozz, go):
    return ozz if impl.startswith("ozz") else go


rows = []


def row(label, f):
    vals = {i: f(i) for i in IMPLS}
    rows.append((label, vals))


row("local sampling, enemy walk (32 joints), ns/joint",
    lambda i: per_joint(i, "enemy_walk", "forward", "local"))
row("local sampling, the 94-joint dance at 30 Hz (ozz `dab`, mecanim `dab_dense30`), ns/joint",
    lambda i: per_joint(i, clip_for(i, "dab", "dab_dense30"), "forward", "local"))
row("random seek, enemy walk, ns/joint",
    lambda i: per_joint(i, "enemy_walk", "seek", "local"))
row("random seek, the dance, ns/joint",
    lambda i: per_joint(i, clip_for(i, "dab", "dab_dense30"), "seek", "local"))
row("local → model space, enemy walk, ns/joint (local+model − local)",
    lambda i: model_per_joint(i, "enemy_walk"))
row("local → model space, the dance (94 joints), ns/joint",
    lambda i: model_per_joint(i, clip_for(i, "dab", "dab_dense30")))
row("humanoid Dab on its 120-node avatar, local + model, µs per character: humanoid.Bones (ozz: the same motion as baked bones on the 94-joint rig)",
    lambda i: [v / 1000 for v in per_round(i, clip_for(i, "dab", "dab_bones"), "forward", "local+model")])
row("… through the exact path (humanoid.Clip: muscles to bones each tick)",
    lambda i: [v / 1000 for v in per_round(i, clip_for(i, "dab", "dab"), "forward", "local+model")] if not i.startswith("ozz") else [])
row("crowd of 1,000 enemies, local + model, µs per character",
    lambda i: [v / 1000 / 1000 for v in per_round(i, "enemy_walk", "crowd", "local+model", 1000)])
row("crowd of 1,000 dancers (dense dance), local + model, µs per character",
    lambda i: [v / 1000 / 1000 for v in per_round(i, clip_for(i, "dab", "dab_dense30"), "crowd", "local+model", 1000)])

print("Machine and run:", "; ".join(head))
if loads:
    print(f"\nLoad average (1 min) at the start of each implementation's turn: median {statistics.median(loads):.1f}, "
          f"min {min(loads):.1f}, max {max(loads):.1f} over {len(loads)} turns (2 cores).")
print("\nCPU time of the benchmarking thread; median over rounds of each round's median of 5 repetitions (range over rounds).\n")
print("| measure | " + " | ".join(NAMES[i] for i in IMPLS) + " | mecanim ÷ ozz SIMD |")
print("|---|" + "---|" * (len(IMPLS) + 1))
for label, vals in rows:
    m, o = med(vals["mecanim"]), med(vals["ozz-simd"])
    ratio = f"{m / o:.2f}" if m and o else "–"
    if label.startswith("… through"):
        o = med(rows[6][1]["ozz-simd"])
        ratio = f"{m / o:.2f}" if m and o else "–"
    print(f"| {label} | " + " | ".join(cell(vals[i]) for i in IMPLS) + f" | {ratio} |")

# state per character and memory
ozz_ctx = info.get(("ozz-simd", "dab"), {})
print()
print("State per character: ozz SamplingJob::Context "
      + ", ".join(f"{c} {info.get(('ozz-simd', c), {}).get('context_heap_bytes', '?')} B heap + {info.get(('ozz-simd', c), {}).get('context_object_bytes', '?')} B"
                  for c in ["enemy_walk", "dab"])
      + "; mecanim a float32 clip time (4 B: "
      + str(info.get(("mecanim", "enemy_walk"), {}).get("state_bytes_per_char", "4")) + ").")
print()
print("| baked clip memory | Stats().Bytes | heap it keeps |")
print("|---|---|---|")
for impl in ["mecanim"]:
    for clip in ["enemy_walk", "dab_dense30", "dab", "dab_bones"]:
        kv = info.get((impl, clip))
        if not kv:
            continue
        sb = kv.get("stats_bytes") or kv.get("base_stats_bytes")
        print(f"| {NAMES[impl]} `{clip}` | {sb} | {kv.get('bake_heap_bytes')} |")
for clip in ["enemy_walk", "dab"]:
    kv = info.get(("ozz-simd", clip))
    if kv:
        print(f"| ozz `{clip}` (animation; its context per character aside) | {kv.get('animation_bytes')} | – |")
bk = info.get(("mecanim", "dab_bones"))
if bk:
    print("\n`dab_bones` (humanoid.Bones): " + ", ".join(
        f"{k} {bk[k]}" for k in ["keys", "key_count", "channels", "unresolved", "fit_max_deg", "fit_max_t", "model_bound"] if k in bk) + ".")

if cgpath:
    cg = {}
    for line in open(cgpath):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        if kv.get("ir"):
            cg[(kv["impl"], kv["clip"], kv["what"])] = int(kv["ir"]) / int(kv["n"])
    print("\nInstructions per joint and tick (callgrind, counted inside the loop only; SIMD instructions do 4 lanes):\n")
    print("| clip | what | " + " | ".join(NAMES[i] for i in IMPLS) + " |")
    print("|---|---|" + "---|" * len(IMPLS))
    for ozzclip, goclips in [("enemy_walk", ["enemy_walk"]), ("dab", ["dab_dense30", "dab", "dab_bones"])]:
        for goclip in goclips:
            for what in ["local", "model"]:
                cells = []
                for i in IMPLS:
                    c = ozzclip if i.startswith("ozz") else goclip
                    v = cg.get((i, c, what))
                    j = joints.get((i, c))
                    cells.append(f"{v / j:.0f}" if v and j else "–")
                print(f"| {goclip} | {what} | " + " | ".join(cells) + " |")
