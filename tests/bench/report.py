#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn the BENCH lines of one benchmark guest run into results.

Usage: report.py CONSOLE_LOG OUT_DIR [--command CMD] [--previous JSON]

--previous compares with an earlier run's summary.json (or results.json):
the head-to-head ratios agree when their ranges across repetitions overlap.

Writes OUT_DIR/results.json (every measurement and the medians),
OUT_DIR/results.md (tables: medians and ratios against the kernel's
striped target measured in the same run) and OUT_DIR/bench.png (throughput
against members per target; CPU per I/O bars).
"""

import json
import statistics
import sys
from collections import defaultdict


def fields_of(text):
    rec = {}
    for kv in text.split():
        k, _, v = kv.partition("=")
        try:
            rec[k] = float(v) if "." in v else int(v)
        except ValueError:
            rec[k] = v
    return rec


def parse(path):
    runs = []
    syms = []
    errors = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip().replace("\r", "")
            if line.startswith("BENCH-ERROR"):
                errors.append(line[len("BENCH-ERROR"):].strip())
            elif line.startswith("BENCH-SYM "):
                syms.append(fields_of(line[len("BENCH-SYM "):]))
            elif line.startswith("BENCH "):
                runs.append(fields_of(line[len("BENCH "):]))
    return runs, syms, errors


# Where a sampled function belongs.  dm-stripe is built into dm-mod, so
# striped's own code is dm-mod's stripe_* functions.
PROFILE_PARTS = ["target", "dm core", "md core", "block layer, rest of kernel",
                 "null_blk", "fio, libc (user)"]


def profile_part(dso, sym):
    if "idle" in sym or "safe_halt" in sym:
        return "idle"
    if dso == "[dm_ssdstripe]" or dso == "[raid0]" or \
            (dso == "[dm_mod]" and sym.startswith("stripe_")):
        return "target"
    if dso == "[dm_mod]":
        return "dm core"
    if dso == "[md_mod]":
        return "md core"
    if dso == "[null_blk]":
        return "null_blk"
    if dso.startswith("["):
        return "user" if dso == "[unknown]" else "block layer, rest of kernel"
    return "fio, libc (user)"


def profile_md(runs, syms):
    """Per-I/O CPU time by part and the target's hottest functions."""
    prof = {(r["target"], r["workload"]): r for r in runs
            if r.get("section") == "profile"}
    if not prof:
        return [], {}
    per_io = {}     # (target, workload) -> {part: ns per I/O}
    funcs = defaultdict(dict)   # (target, workload) -> {(dso, sym): ns}
    blk = defaultdict(dict)     # the same for the block layer and the rest
    for s in syms:
        key = (s["target"], s["workload"])
        p = prof.get(key)
        if not p or not p["ios"]:
            continue
        ns = s["samples"] * p["period_ns"] / p["ios"]
        part = profile_part(str(s["dso"]), str(s["sym"]))
        if part == "user":
            part = "fio, libc (user)"
        d = per_io.setdefault(key, defaultdict(float))
        d[part] += ns
        if part in ("target", "dm core", "md core"):
            funcs[key][(s["dso"], s["sym"])] = ns
        elif part == "block layer, rest of kernel":
            blk[key][(s["dso"], s["sym"])] = ns
    # the 4K workloads of section 0 first, then any other (--chunk's sr1m)
    wls = [w for w in ("rr4k_qd32", "rw4k_qd32") if any(k[1] == w for k in per_io)]
    wls += sorted({k[1] for k in per_io} - set(wls))
    order = ["ssdstripe", "ssdstripe_nostats", "striped", "md_raid0"]
    order += sorted({k[0] for k in per_io} - set(order))
    md = ["### Profile: where one I/O's CPU time goes", "",
          "perf in the guest (`cpu-clock`, one sample per %d µs of CPU 0's "
          "time; TCG has no hardware counters) while one fio job pinned to "
          "CPU 0 drives the target over 4 plain null_blk members, which "
          "complete in the submitter's context.  Figures are ns per I/O: "
          "samples × period ÷ I/Os; idle is left out.  One run each, so a "
          "part of ~100 ns carries about ±20 %%." %
          (next(iter(prof.values()))["period_ns"] // 1000), "",
          "| workload | target | I/Os | busy ns/IO | " +
          " | ".join(PROFILE_PARTS) + " |",
          "|---|---|---|---|" + "---|" * len(PROFILE_PARTS)]
    for wl in wls:
        for t in order:
            d = per_io.get((t, wl))
            if d is None:
                continue
            busy = sum(v for k, v in d.items() if k != "idle")
            md.append(f"| {wl} | {t} | {prof[(t, wl)]['ios']} | {busy:.0f} | " +
                      " | ".join(f"{d.get(k, 0):.0f}" for k in PROFILE_PARTS) +
                      " |")
    md.append("")
    md.append("Hottest functions of the target, dm core and md core "
              "(4K random read where measured, else the workload profiled; "
              "ns per I/O; inlined helpers count in their caller), and "
              "of the block layer where the workload is not 4K:")
    md.append("")
    md.append("| target | workload | function | module | ns/IO |")
    md.append("|---|---|---|---|---|")
    for t in order:
        wl = next((w for w in wls if (t, w) in per_io), None)
        f = dict(funcs.get((t, wl), {}))
        if wl and not wl.endswith("4k_qd32"):
            f.update(blk.get((t, wl), {}))
        for (dso, sym), ns in sorted(f.items(), key=lambda x: -x[1])[:8]:
            md.append(f"| {t} | {wl} | `{sym}` | {dso} | {ns:.0f} |")
    md.append("")
    return md, {f"{t}/{wl}": dict(d) for (t, wl), d in per_io.items()}


def medians(runs, keys, fields):
    groups = defaultdict(list)
    for r in runs:
        groups[tuple(r.get(k) for k in keys)].append(r)
    out = {}
    for key, rs in groups.items():
        out[key] = {f: statistics.median(r[f] for r in rs) for f in fields
                    if all(f in r for r in rs)}
        out[key]["reps"] = len(rs)
        # spread of the main figure, to judge noise
        main = [r.get("iops", r.get("secs", 0)) for r in rs]
        if len(main) > 1 and statistics.median(main):
            out[key]["spread_pct"] = round(
                100 * (max(main) - min(main)) / statistics.median(main), 1)
    return out


def ratio(a, b):
    return a / b if b else float("nan")


def fmt(x, nd=2):
    return "n/a" if x != x else f"{x:.{nd}f}"


CHUNK_WORKLOADS = ["sr1m", "sw1m", "sr128k", "sw128k", "rr4k_qd32",
                   "rw4k_qd32"]


def chunk_md(runs):
    """Section 1c: gather against per-chunk splitting, by chunk size.

    Returns the markdown, the goal rows and the ratios for summary.json.
    Every ratio is taken within one repetition (nine arrays loaded at once),
    then the median over repetitions."""
    cr = [r for r in runs if r.get("section") == "chunk"]
    if not cr:
        return [], [], {}
    reps = sorted({r["rep"] for r in cr})
    chunks = sorted({r["chunk"] for r in cr})

    def get(rep, t, c, wl):
        for r in cr:
            if (r["rep"], r["target"], r["chunk"], r["workload"]) == \
                    (rep, t, c, wl):
                return r
        return None

    def rat(t1, c1, t2, c2, wl):
        per = []
        for rep in reps:
            a, b = get(rep, t1, c1, wl), get(rep, t2, c2, wl)
            if a and b and b["iops"]:
                per.append(a["iops"] / b["iops"])
        return statistics.median(per) if per else float("nan")

    md = ["### Chunk size: one bio per member against one per chunk", "",
          "striped, md raid0 and ssdstripe with 4, 32 and 256 KiB chunks, "
          "each over 4 plain null_blk members of its own, all nine loaded "
          "at once by one fio process on one guest CPU: each IOPS ratio is "
          "the inverse ratio of per-I/O cost, taken within a repetition "
          "(median of %d)." % len(reps), "",
          "| workload | chunk KiB | striped IOPS | md raid0 IOPS "
          "| ssdstripe IOPS | ssdstripe × striped | ssdstripe × md raid0 "
          "| ssdstripe × its own at 256 KiB | CPU µs/IO striped / ssdstripe |",
          "|---|---|---|---|---|---|---|---|---|"]
    out = {}
    big = max(chunks)
    for wl in CHUNK_WORKLOADS:
        for c in chunks:
            ms = {t: [r for r in cr if r["target"] == t and r["chunk"] == c
                      and r["workload"] == wl]
                  for t in ("striped", "md_raid0", "ssdstripe")}
            if not all(ms.values()):
                continue
            med_iops = {t: statistics.median(r["iops"] for r in v)
                        for t, v in ms.items()}
            med_cpu = {t: statistics.median(r["cpu_us_per_io"] for r in v)
                       for t, v in ms.items()}
            vs_st = rat("ssdstripe", c, "striped", c, wl)
            vs_md = rat("ssdstripe", c, "md_raid0", c, wl)
            vs_own = rat("ssdstripe", c, "ssdstripe", big, wl)
            out[f"{wl}/{c}"] = {"vs_striped": vs_st, "vs_md_raid0": vs_md,
                                "vs_own_largest_chunk": vs_own}
            md.append(f"| {wl} | {c // 2} | {med_iops['striped']:.0f} "
                      f"| {med_iops['md_raid0']:.0f} "
                      f"| {med_iops['ssdstripe']:.0f} | {fmt(vs_st)} "
                      f"| {fmt(vs_md)} | {fmt(vs_own)} "
                      f"| {med_cpu['striped']:.1f} / {med_cpu['ssdstripe']:.1f} |")
    md.append("")

    small = min(chunks)
    goals = []
    for wl in ("sr1m", "sw1m"):
        r = out.get(f"{wl}/{small}", {})
        v = r.get("vs_striped", float("nan"))
        goals.append(f"| {wl}, {small // 2} KiB chunk ≥ 5 × striped (same "
                     f"chunk) | {fmt(v)} | {'met' if v >= 5 else 'missed'} |")
        v = r.get("vs_own_largest_chunk", float("nan"))
        goals.append(f"| {wl}, {small // 2} KiB chunk ≥ 0.8 × ssdstripe at "
                     f"{big // 2} KiB | {fmt(v)} | "
                     f"{'met' if v >= 0.8 else 'missed'} |")
    worst = min(((out[f"{wl}/{c}"]["vs_striped"], wl, c)
                 for wl in ("rr4k_qd32", "rw4k_qd32") for c in chunks
                 if f"{wl}/{c}" in out), default=(float("nan"), "", 0))
    goals.append(f"| 4K QD32 at every chunk ≥ 0.98 × striped (lowest: "
                 f"{worst[1]}, {worst[2] // 2} KiB) | {fmt(worst[0])} | "
                 f"{'met' if worst[0] >= 0.98 else 'missed'} |")
    return md, goals, out


def compare_md(prev, h2h_range, scaling, prof_json):
    """This run against an earlier one: do the figures agree?"""
    md = ["### Against the previous run", "",
          f"Previous: `{prev.get('command', '?')}`.  Head-to-head ratios "
          "agree when their ranges across repetitions overlap.", "",
          "| workload | target | previous × striped (range) "
          "| this run (range) | agree |", "|---|---|---|---|---|"]
    agree = total = 0
    for key, (m, lo, hi) in h2h_range.items():
        p = prev.get("h2h_ratios", {}).get(key)
        if not p or key.endswith("/striped"):
            continue
        ok = lo <= p[2] and p[1] <= hi
        total += 1
        agree += ok
        wl, t = key.split("/")
        md.append(f"| {wl} | {t} | {p[0]:.2f} ({p[1]:.2f}–{p[2]:.2f}) "
                  f"| {m:.2f} ({lo:.2f}–{hi:.2f}) | {'yes' if ok else 'no'} |")
    md += ["", f"{agree} of {total} head-to-head ratios agree.", ""]
    ps = prev.get("scaling_at_8", {})
    rows = [(k, ps[k], v) for k, v in scaling.items() if k in ps]
    if rows:
        md += ["| scaling at N=8 | previous | this run | difference |",
               "|---|---|---|---|"]
        md += [f"| {k} | {a:.2f} | {b:.2f} | {100 * (b - a) / a:+.1f} % |"
               for k, a, b in rows if a]
        md.append("")
    pp = prev.get("profile_ns_per_io", {})
    rows = [(k, pp[k].get("target", 0), v.get("target", 0))
            for k, v in sorted(prof_json.items()) if k in pp]
    if rows:
        md += ["| profile: the target's own code, ns per I/O | previous "
               "| this run |", "|---|---|---|"]
        md += [f"| {k} | {a:.0f} | {b:.0f} |" for k, a, b in rows]
        md.append("")
    return md


FABRIC_WORKLOADS = ["rr4k_qd1", "rr4k_qd32", "rw4k_qd32", "sr1m", "sw1m"]


def fabric_md(runs):
    """Section 1f: the same 2-member array over NVMe/TCP against local NVMe
    members, in one guest run.  Each ratio (tcp / local) is taken within a
    repetition (the two measured one after the other), then the median."""
    fr = [r for r in runs if r.get("section") == "fabric"]
    if not fr:
        return [], {}
    reps = sorted({r["rep"] for r in fr})

    def get(rep, k, wl):
        for r in fr:
            if (r["rep"], r["target"], r["workload"]) == \
                    (rep, f"ssdstripe_{k}", wl):
                return r
        return None

    md = ["### The same array over NVMe/TCP against local members", "",
          "ssdstripe over two local NVMe SSDs and over two NVMe/TCP "
          "namespaces (one per storage guest, nvmet over a QEMU socket link "
          "on 127.0.0.1), 2 members, 64 KiB chunks, measured turn about in "
          "one guest run; ratios tcp / local within a repetition, median of "
          "%d (latency ratios above 1 and throughput ratios below 1: the "
          "fabric costs that much here)." % len(reps), "",
          "| workload | local IOPS | tcp IOPS | IOPS tcp / local "
          "| MB/s local / tcp | p50 µs local / tcp | p50 tcp / local "
          "| p99 µs local / tcp | CPU µs/IO local / tcp |",
          "|---|---|---|---|---|---|---|---|---|"]
    out = {}
    for wl in FABRIC_WORKLOADS:
        pairs = [(get(rep, "local", wl), get(rep, "tcp", wl)) for rep in reps]
        pairs = [(a, b) for a, b in pairs if a and b]
        if not pairs:
            continue

        def med(k, i):
            return statistics.median(p[i][k] for p in pairs)

        def rat(k):
            per = [b[k] / a[k] for a, b in pairs if a[k]]
            return statistics.median(per) if per else float("nan")
        out[wl] = {"iops_tcp_over_local": rat("iops"),
                   "p50_tcp_over_local": rat("p50_us"),
                   "p99_tcp_over_local": rat("p99_us")}
        md.append(f"| {wl} | {med('iops', 0):.0f} | {med('iops', 1):.0f} "
                  f"| {fmt(out[wl]['iops_tcp_over_local'])} "
                  f"| {med('bw_kib', 0) / 1024:.1f} / {med('bw_kib', 1) / 1024:.1f} "
                  f"| {med('p50_us', 0):.0f} / {med('p50_us', 1):.0f} "
                  f"| {fmt(out[wl]['p50_tcp_over_local'])} "
                  f"| {med('p99_us', 0):.0f} / {med('p99_us', 1):.0f} "
                  f"| {med('cpu_us_per_io', 0):.1f} / {med('cpu_us_per_io', 1):.1f} |")
    md.append("")
    return md, out



def nowait_md(runs):
    """Section 1n: striped and ssdstripe under io_uring (REQ_NOWAIT bios),
    loaded at once.  Returns the markdown, the goal rows and the ratios."""
    nr = [r for r in runs if r.get("section") == "nowait"]
    if not nr:
        return [], [], {}
    md = ["### io_uring: REQ_NOWAIT bios", "",
          "striped and ssdstripe, each over 4 plain null_blk members of its "
          "own, loaded at once by one fio process with the io_uring engine "
          "(its bios carry REQ_NOWAIT, which ssdstripe cuts to what each "
          "member takes) on one guest CPU: the IOPS ratio is the inverse "
          "ratio of per-I/O cost, taken within a repetition, median over "
          "repetitions.  CPU µs per I/O is each fio job's own.", "",
          "| workload | ssdstripe / striped IOPS | IOPS ssdstripe / striped "
          "| CPU µs/IO ssdstripe / striped |",
          "|---|---|---|---|"]
    goals, out = [], {}
    for wl in ("rr4k_qd1", "rr4k_qd32"):
        per, rows = [], defaultdict(list)
        for rep in sorted({r["rep"] for r in nr}):
            a = [r for r in nr if (r["rep"], r["workload"], r["target"]) ==
                 (rep, wl, "ssdstripe")]
            b = [r for r in nr if (r["rep"], r["workload"], r["target"]) ==
                 (rep, wl, "striped")]
            if a and b and b[0]["iops"]:
                per.append(a[0]["iops"] / b[0]["iops"])
                rows["s"].append(a[0])
                rows["t"].append(b[0])
        if not per:
            continue
        r = statistics.median(per)
        out[wl] = r

        def med(k, f):
            return statistics.median(x[f] for x in rows[k])
        md.append(f"| {wl} | {fmt(r)} | {med('s', 'iops'):.0f} / "
                  f"{med('t', 'iops'):.0f} | {med('s', 'cpu_us_per_io'):.1f} / "
                  f"{med('t', 'cpu_us_per_io'):.1f} |")
        goals.append(f"| io_uring 4K {wl[5:].upper()} ≥ 1.00 × striped "
                     f"(head to head) | {fmt(r)} | "
                     f"{'met' if r >= 1.0 else 'missed'} |")
    md.append("")
    return md, goals, out


def write_partial(out, command, md, errors, obj):
    """results.md and results.json of a run of one section (--fabric,
    --chunk, --profile): the command, the section's lines, its errors"""
    md = md + ([f"Errors during the run: {'; '.join(errors)}", ""]
               if errors else [])
    with open(f"{out}/results.md", "w") as f:
        f.write("\n".join([f"Command: `{command}`", ""] + md) + "\n")
    with open(f"{out}/results.json", "w") as f:
        json.dump(obj, f, indent=1)

def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    log, out = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--command") + 1] \
        if "--command" in sys.argv else "tests/bench/run"
    previous = None
    if "--previous" in sys.argv:
        with open(sys.argv[sys.argv.index("--previous") + 1]) as f:
            previous = json.load(f)
    runs, syms, errors = parse(log)
    perf = [r for r in runs if r.get("section") in ("plain", "ssd", "h2h")]
    disc = [r for r in runs if r.get("section") == "discard"]
    prof_md, prof_json = profile_md(runs, syms)
    ch_md, ch_goals, ch_json = chunk_md(runs)
    fb_md, fb_json = fabric_md(runs)
    nw_md, nw_goals, nw_json = nowait_md(runs)
    if not perf and fb_md:      # tests/bench/run --fabric
        write_partial(out, command, fb_md, errors,
                      {"runs": runs, "errors": errors,
                       "fabric_ratios": fb_json})
        return
    if not perf and ch_md:      # tests/bench/run --chunk
        write_partial(out, command,
                      ["| goal | measured | |", "|---|---|---|"]
                      + ch_goals + [""] + ch_md + prof_md, errors,
                      {"runs": runs, "syms": syms, "errors": errors,
                       "chunk_ratios": ch_json,
                       "profile_ns_per_io": prof_json})
        return
    if not perf and nw_md:      # tests/bench/run --nowait
        write_partial(out, command,
                      ["| goal | measured | |", "|---|---|---|"]
                      + nw_goals + [""] + nw_md + prof_md, errors,
                      {"runs": runs, "syms": syms, "errors": errors,
                       "nowait_ratios": nw_json,
                       "profile_ns_per_io": prof_json})
        return
    if not perf and prof_md:    # tests/bench/run --profile
        write_partial(out, command, prof_md, errors,
                      {"runs": runs, "syms": syms, "errors": errors,
                       "profile_ns_per_io": prof_json})
        return
    if not perf:
        sys.exit("bench-report: no BENCH lines in " + log)

    fields = ["iops", "bw_kib", "p50_us", "p99_us", "cpu_us_per_io"]
    med = medians(perf, ["section", "target", "members", "workload"], fields)
    dmed = medians(disc, ["members_kind", "target"], ["secs"])
    md = []
    md.append("Every figure is the median of %d runs in one guest; ratios are "
              "against the kernel's `striped` target in the same run "
              "(> 1 is better for IOPS and MB/s, < 1 is better for latency "
              "and CPU)." % max(v["reps"] for v in med.values()))
    md.append("")

    # plain members
    md.append("### Plain null_blk members (4), per-I/O cost dominates")
    md.append("")
    md.append("| workload | target | IOPS | MB/s | p50 µs | p99 µs | CPU µs/IO "
              "| IOPS × striped | p99 × striped | CPU × striped | spread % |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|")
    workloads = ["rr4k_qd1", "rr4k_qd32", "rw4k_qd1", "rw4k_qd32",
                 "sr128k", "sw128k", "sr1m", "sw1m"]
    targets = ["ssdstripe", "ssdstripe_nostats", "striped", "md_raid0",
               "linear", "single"]
    summary = {}
    for wl in workloads:
        base = med.get(("plain", "striped", 4, wl))
        if not base:
            continue
        for t in targets:
            m = med.get(("plain", t, 4, wl))
            if not m:
                continue
            r_iops = ratio(m["iops"], base["iops"])
            summary[f"plain/{wl}/{t}"] = r_iops
            md.append(
                f"| {wl} | {t} | {m['iops']:.0f} | {m['bw_kib'] / 1024:.1f} "
                f"| {m['p50_us']:.0f} | {m['p99_us']:.0f} "
                f"| {m['cpu_us_per_io']:.1f} | {fmt(r_iops)} "
                f"| {fmt(ratio(m['p99_us'], base['p99_us']))} "
                f"| {fmt(ratio(m['cpu_us_per_io'], base['cpu_us_per_io']))} "
                f"| {m.get('spread_pct', 0)} |")
    md.append("")

    # head to head: per-repetition ratios, all targets loaded at once
    h2h = [r for r in perf if r["section"] == "h2h"]
    h2h_ratio = {}
    h2h_range = {}      # "wl/target" -> [median, min, max] of the ratios
    if h2h:
        md.append("### Head to head: the four targets loaded at the same time")
        md.append("")
        md.append("Four identical sets of 4 plain null_blk members, one target "
                  "on each (sets rotate between repetitions), one fio process "
                  "per target, all running at once: the CPUs are shared, so "
                  "host noise hits every target alike and the IOPS ratio is "
                  "the inverse ratio of per-I/O cost.  The ratio is taken "
                  "within each repetition, then the median; its range "
                  "across repetitions is the noise.")
        md.append("")
        md.append("| workload | target | IOPS | MB/s | p99 µs | CPU µs/IO "
                  "| IOPS × striped | range | CPU × striped |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for wl in workloads:
            base = med.get(("h2h", "striped", 4, wl))
            if not base:
                continue
            for t in ["ssdstripe", "ssdstripe_nostats", "striped", "md_raid0"]:
                m = med.get(("h2h", t, 4, wl))
                if not m:
                    continue
                per_rep = []
                for rep in sorted({r["rep"] for r in h2h}):
                    a = [r for r in h2h if r["rep"] == rep and
                         r["workload"] == wl and r["target"] == t]
                    b = [r for r in h2h if r["rep"] == rep and
                         r["workload"] == wl and r["target"] == "striped"]
                    if a and b and b[0]["iops"]:
                        per_rep.append(a[0]["iops"] / b[0]["iops"])
                rr = statistics.median(per_rep) if per_rep else float("nan")
                h2h_ratio[(wl, t)] = rr
                if per_rep:
                    h2h_range[f"{wl}/{t}"] = [rr, min(per_rep), max(per_rep)]
                rng = (f"{min(per_rep):.2f}–{max(per_rep):.2f}"
                       if per_rep else "n/a")
                md.append(
                    f"| {wl} | {t} | {m['iops']:.0f} | {m['bw_kib'] / 1024:.1f} "
                    f"| {m['p99_us']:.0f} | {m['cpu_us_per_io']:.1f} "
                    f"| {fmt(rr)} | {rng} "
                    f"| {fmt(ratio(m['cpu_us_per_io'], base['cpu_us_per_io']))} |")
        md.append("")

    md += ch_md

    # SSD-like members: scaling
    md.append("### SSD-like members (4 MiB/s, 2 ms, queue depth 64 each): scaling")
    md.append("")
    md.append("| workload | target | N=1 | N=2 | N=4 | N=8 | scaling at 8 "
              "(× N=1) | × striped at 8 |")
    md.append("|---|---|---|---|---|---|---|---|")
    scaling = {}
    for wl in ["sr1m", "sw1m", "rr4k_qd32", "rr4k_qd1"]:
        unit = "MB/s" if wl.startswith("s") else "IOPS"
        for t in ["ssdstripe", "striped", "md_raid0"]:
            vals = []
            for n in (1, 2, 4, 8):
                m = med.get(("ssd", t, n, wl))
                v = (m["bw_kib"] / 1024 if unit == "MB/s" else m["iops"]) \
                    if m else float("nan")
                vals.append(v)
            b8 = med.get(("ssd", "striped", 8, wl))
            m8 = med.get(("ssd", t, 8, wl))
            sc = ratio(vals[3], vals[0])
            scaling[f"{wl}/{t}"] = sc
            md.append(f"| {wl} ({unit}) | {t} | " +
                      " | ".join(fmt(v, 1) for v in vals) +
                      f" | {fmt(sc)} | "
                      f"{fmt(ratio(m8['iops'], b8['iops'])) if m8 and b8 else 'n/a'} |")
    md.append("")

    # discard
    if dmed:
        md.append("### Whole-array blkdiscard")
        md.append("")
        md.append("| members | target | array size MiB | discard_max_bytes | "
                  "seconds | discard bios per member | time × striped |")
        md.append("|---|---|---|---|---|---|---|")
        for kind in sorted({k[0] for k in dmed}):
            base = dmed.get((kind, "striped"))
            for t in ["ssdstripe", "striped", "md_raid0"]:
                m = dmed.get((kind, t))
                if not m:
                    continue
                last = [r for r in disc if r["members_kind"] == kind and
                        r["target"] == t][-1]
                md.append(
                    f"| {kind} | {t} | {last['size_mib']} "
                    f"| {last['max_discard_bytes']} | {m['secs']:.2f} "
                    f"| {last['member_discards']} "
                    f"| {fmt(ratio(m['secs'], base['secs'])) if base else 'n/a'} |")
        md.append("")

    md += nw_md
    md += prof_md

    if errors:
        md.append("Errors during the run: " + "; ".join(errors))
        md.append("")

    # goals
    g = []
    # 4K QD32 per-I/O goals: from the head-to-head run where there is one
    # (back-to-back runs are too noisy to decide them), else section 1
    if ("rr4k_qd32", "ssdstripe") in h2h_ratio:
        how = "head to head"
        r = h2h_ratio[("rr4k_qd32", "ssdstripe")]
        md_r = ratio(r, h2h_ratio.get(("rr4k_qd32", "md_raid0"), float("nan")))
    else:
        how = "back to back"
        r = summary.get("plain/rr4k_qd32/ssdstripe", float("nan"))
        md_r = ratio(med.get(("plain", "ssdstripe", 4, "rr4k_qd32"), {}).get("iops", 0),
                     med.get(("plain", "md_raid0", 4, "rr4k_qd32"), {}).get("iops", 0))
    g.append(f"| 4K QD32 plain ≥ 1.00 × striped ({how}) | {fmt(r)} | "
             f"{'met' if r >= 1.0 else 'missed'} |")
    g.append(f"| 4K QD32 plain ≥ 1.05 × md raid0 ({how}) | {fmt(md_r)} | "
             f"{'met' if md_r >= 1.05 else 'missed'} |")
    for wl, goal in (("sr1m", 0.95), ("sw1m", 0.95), ("rr4k_qd32", 0.90)):
        s = scaling.get(f"{wl}/ssdstripe", float("nan"))
        g.append(f"| {wl} scaling at N=8 ≥ {goal} × 8 | {fmt(s)} × | "
                 f"{'met' if s >= goal * 8 else 'missed'} |")
    nv = [r for r in disc if r.get("members_kind") == "nvme" and
          r["target"] == "ssdstripe"]
    if nv:
        counts = nv[-1]["member_discards"]
        one = all(c == "1" for c in str(counts).split(","))
        g.append(f"| 1 GiB discard: one bio per member | {counts} | "
                 f"{'met' if one else 'missed'} |")
    g += nw_goals
    g += ch_goals
    if previous:
        md += compare_md(previous, h2h_range, scaling, prof_json)
    md.insert(0, "")
    md.insert(0, "\n".join(["| goal | measured | |", "|---|---|---|"] + g))
    md.insert(0, "")
    md.insert(0, f"Command: `{command}`")

    with open(f"{out}/results.md", "w") as f:
        f.write("\n".join(md) + "\n")
    # what a later run compares itself with (--previous)
    with open(f"{out}/summary.json", "w") as f:
        json.dump({"command": command, "h2h_ratios": h2h_range,
                   "scaling_at_8": scaling, "profile_ns_per_io": prof_json,
                   "chunk_ratios": ch_json, "nowait_ratios": nw_json},
                  f, indent=1, sort_keys=True)
    with open(f"{out}/results.json", "w") as f:
        json.dump({"runs": runs, "syms": syms, "errors": errors,
                   "profile_ns_per_io": prof_json,
                   "h2h_ratios": h2h_range, "scaling_at_8": scaling,
                   "command": command,
                   "medians": [dict(zip(["section", "target", "members",
                                         "workload"], k), **v)
                               for k, v in med.items()],
                   "discard_medians": [dict(zip(["members_kind", "target"], k),
                                            **v) for k, v in dmed.items()]},
                  f, indent=1)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("bench-report: no matplotlib (Debian: python3-matplotlib), no plot")
    fig, axes = plt.subplots(1, 4, figsize=(18, 4.2))
    for ax, wl, unit in zip(axes[:3], ["sr1m", "sw1m", "rr4k_qd32"],
                            ["MB/s", "MB/s", "IOPS"]):
        for t, style in (("ssdstripe", "o-"), ("striped", "s--"),
                         ("md_raid0", "^:")):
            xs, ys = [], []
            for n in (1, 2, 4, 8):
                m = med.get(("ssd", t, n, wl))
                if m:
                    xs.append(n)
                    ys.append(m["bw_kib"] / 1024 if unit == "MB/s" else m["iops"])
            ax.plot(xs, ys, style, label=t)
        ax.set_title(f"SSD-like members: {wl}")
        ax.set_xlabel("members")
        ax.set_ylabel(unit)
        ax.set_xticks([1, 2, 4, 8])
        ax.grid(alpha=0.3)
        ax.legend()
    ax = axes[3]
    sec = "h2h" if ("h2h", "striped", 4, "rr4k_qd32") in med else "plain"
    ts = [t for t in targets if (sec, t, 4, "rr4k_qd32") in med]
    ax.bar(range(len(ts)),
           [med[(sec, t, 4, "rr4k_qd32")]["cpu_us_per_io"] for t in ts])
    ax.set_xticks(range(len(ts)))
    ax.set_xticklabels(ts, rotation=30, ha="right")
    ax.set_title("plain null_blk, 4K randread QD32"
                 + (", head to head" if sec == "h2h" else ""))
    ax.set_ylabel("guest CPU µs per I/O")
    fig.tight_layout()
    fig.savefig(f"{out}/bench.png", dpi=90)


if __name__ == "__main__":
    main()
