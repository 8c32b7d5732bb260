#!/usr/bin/env python3
"""table.md of a GPU suite's results (run_gpu_suite.sh writes it at the end; run it again
on an out folder whose suite was cut short):
  suite_table.py OUT RUNS CTEST_RC FAKES_DIR LAB...
"""
import json, sys, pathlib
out, runs, ctest_rc, fakes, labs = (pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                    sys.argv[4], sys.argv[5:])
probe = json.loads((out / "probe.json").read_text())
print(f"### GPU suite: {probe.get('name')} (compute capability {probe.get('cc')}, "
      f"driver {probe.get('driver')}, runtime {probe.get('runtime')})\n")
print(f"- device-to-device copy bandwidth: **{probe.get('bandwidth_gbs')} GB/s** (best of 10, 1 GiB)")
print(f"- cuBLAS SGEMM 4096^3: **{probe.get('sgemm_gflops')} GFLOP/s** (best of 5)")
print(f"- ctest: {ctest_rc if ctest_rc != '0' else 'all passed'}\n")
print("| lab | grading | score | performance points | exit | wall |")
print("|---|---|---|---|---|---|")
def load(name):
    f = out / f"{name}.json"
    return json.loads(f.read_text()) if f.exists() else None
def text(name, ext):
    f = out / f"{name}.{ext}"
    return f.read_text().strip() if f.exists() else ""
def perf_points(r):
    ts = [t for t in r["tests"] if t["kind"] == "performance"]
    return f"{sum(t['points'] for t in ts):g} / {sum(t['max_points'] for t in ts):g}" if ts else "-"
def row(lab, label, name):
    r = load(name)
    if r is None and not (out / f"{name}.exit").exists():
        return  # not run: left out by --budget, listed below
    score = f"{r['score']:g} / {r['max_score']:g}" if r else f"no result (see {name}.console)"
    pp = perf_points(r) if r else "-"
    wall = text(name, "wall")
    print(f"| {lab} | {label} | {score} | {pp} | {text(name, 'exit')} | {wall + ' s' if wall else ''} |")
for lab in labs:
    for name in [f"{lab}-reference-{i}" for i in range(1, runs + 1)] + [f"{lab}-skeleton"]:
        row(lab, name.split('-', 1)[1], name)
if fakes:
    print("\n| lab | fake | grading | must get | score | performance points | verdicts of the performance tests | exit |")
    print("|---|---|---|---|---|---|---|---|")
    for line in (pathlib.Path(fakes) / "list.tsv").read_text().splitlines():
        name, lab, fake, grading, expect = line.split("\t")
        if lab not in labs:
            continue
        r = load(f"fake-{name}")
        if r is None and not (out / f"fake-{name}.exit").exists():
            continue
        score = f"{r['score']:g} / {r['max_score']:g}" if r else "no result"
        verdicts = "; ".join(f"{t['name'][:40]} {t['points']:g}/{t['max_points']:g} {t['status']}"
                             for t in r["tests"] if t["kind"] == "performance") if r else ""
        print(f"| {lab} | {fake} | {grading} | {expect} | {score} | {perf_points(r) if r else '-'} | "
              f"{verdicts or '-'} | {text('fake-' + name, 'exit')} |")
pairs = [(lab, f"{lab}-noperf-plain", f"{lab}-noperf-sanitizer") for lab in labs]
if any((out / f"{b}.exit").exists() for _, _, b in pairs):
    print("\n| lab | reference --no-perf | without compute-sanitizer | with it | sanitizer findings |")
    print("|---|---|---|---|---|")
    for lab, a, b in pairs:
        if not (out / f"{b}.exit").exists():
            continue
        rb = load(b)
        found = [t["name"] + ": " + t.get("message", "")[:80] for t in (rb or {}).get("tests", [])
                 if "sanitizer" in json.dumps(t).lower() and t["status"] != "passed"]
        print(f"| {lab} | score {load(b)['score'] if rb else '-'} | {text(a, 'wall')} s | {text(b, 'wall')} s | "
              f"{'; '.join(found) or 'none'} |")
left = (out / "left-out.txt").read_text().split() if (out / "left-out.txt").exists() else []
if left:
    print(f"\nLeft out by --budget: {', '.join(left)}")
print("\n| lab | test (reference, run 1) | reference median | baseline median | ratio | achieved | of peak | points |")
print("|---|---|---|---|---|---|---|---|")
for lab in labs:
    r = load(f"{lab}-reference-1")
    if not r:
        continue
    for t in r["tests"]:
        if t["kind"] != "performance":
            continue
        m, roof = t.get("measurement"), t.get("roofline")
        cand = f"{m['candidate_median_s']*1e3:.3f} ms" if m else "-"
        base = f"{m['baseline'].split(':')[0]} {m['baseline_median_s']*1e3:.3f} ms" if m else "-"
        ratio = f"{m['median_ratio']:.2f}x" if m else "-"
        ach = f"{roof['achieved']:.0f} {roof['unit']}" if roof else "-"
        frac = f"{roof['fraction']*100:.0f}%" if roof else "-"
        print(f"| {lab} | {t['name']} | {cand} | {base} | {ratio} | {ach} | {frac} | "
              f"{t['points']:g} / {t['max_points']:g} ({t['status']}) |")
        for line in t.get("stdout_tail", "").splitlines():
            if line.startswith("overlap:"):  # lab06's driver: the overlap its pipeline achieved
                print(f"| {lab} | {t['name']}: {line} | | | | | | |")
