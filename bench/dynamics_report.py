#!/usr/bin/env python3
"""Turn dynamics_bench JSON into the simulator section of docs/benchmarks.md.

Usage: dynamics_report.py RESULTS.json [--out docs/benchmarks.md] [--plots docs/plots]
                          [--command "how the JSON was made"] [--print]

The section sits between its markers; it replaces an earlier one or is
appended, and bench/report.py keeps it when it rewrites the solver part.
Benchmarks are named family/size/solver; the fastest repetition is used.
"""
import json
import math
from collections import defaultdict

from report_sections import report_main, section_end, section_start, time_plots

SOLVERS = ["graphsolve", "mujoco_euler", "mujoco_rk4"]
TITLES = {"nlink_revolute": "n-link pendulum, revolute joints",
          "nlink_spherical": "n-link pendulum, spherical joints",
          "fourlink_chain": "chain of k four-link loops"}


def load(path):
    with open(path) as f:
        data = json.load(f)
    best = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        family, size, solver = b.get("run_name", b["name"]).split("/")
        key = (family, int(size), solver)
        entry = {"us": b["us_per_step"], "energy": b["energy_error"], "newton": b.get("newton_iterations"),
                 "factorizations": b.get("factorizations"),
                 "violation": b["constraint_violation"]}
        if key not in best or entry["us"] < best[key]["us"]:
            best[key] = entry
    return best


def slope(best, family, solver, lo, hi):
    a, b = best.get((family, lo, solver)), best.get((family, hi, solver))
    if not a or not b:
        return None
    return math.log(b["us"] / a["us"]) / math.log(hi / lo)


def section(best, plot_paths, rel, command):
    out = section_start("dynamics", "Simulator: dynamics against MuJoCo", command) + [
        "1000 steps of dt = 0.01 s per run, Newton tolerance 1e-10 (ours); MuJoCo 2.2.2 (Debian) with its "
        "defaults and the same model in MJCF (loop closures as `connect` equalities). `us/step` is wall time per "
        "step; `speed-up` is MuJoCo Euler time / ours (above 1: we are faster); `energy error` is |E(1000) - E(0)| "
        "in joules; `Newton it.` and `factor.` are Newton iterations and factorizations per step (an iteration that "
        "reuses the last factorization is a chord step); `violation` is the largest joint constraint violation at the end (ours: position level, "
        "metres; MuJoCo: its equality constraint residual). Chains deeper than 50 bodies continue in included "
        "MJCF files (MuJoCo 2.2's XML reader stops at 100 levels of nesting). `-`: MuJoCo could not load or run "
        "the model.", ""]
    targets = []
    families = sorted({k[0] for k in best}, key=lambda f: list(TITLES).index(f) if f in TITLES else 99)
    for family in families:
        sizes = sorted({k[1] for k in best if k[0] == family})
        out += [f"### {TITLES.get(family, family)}", "",
                "| size | ours us/step | Newton it. | factor. | MuJoCo Euler us/step | RK4 us/step | speed-up vs Euler | "
                "ours energy error | Euler energy error | RK4 energy error | ours violation | Euler violation |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for n in sizes:
            ours, euler, rk4 = (best.get((family, n, s)) for s in SOLVERS)
            if not ours:
                continue
            factored = "-" if ours["factorizations"] is None else f"{ours['factorizations']:.2f}"
            if not euler or not rk4:  # MuJoCo refused the model
                out.append(f"| {n} | {ours['us']:.1f} | {ours['newton']:.2f} | {factored} | - | - | - | {ours['energy']:.2e} | "
                           f"- | - | {ours['violation']:.1e} | - |")
                continue
            out.append(f"| {n} | {ours['us']:.1f} | {ours['newton']:.2f} | {factored} | {euler['us']:.1f} | {rk4['us']:.1f} | "
                       f"{euler['us'] / ours['us']:.2f} | {ours['energy']:.2e} | {euler['energy']:.2e} | "
                       f"{rk4['energy']:.2e} | {ours['violation']:.1e} | {euler['violation']:.1e} |")
            if family.startswith("nlink") and n >= 20:
                goal = 5.0 if family == "nlink_spherical" else 1.0
                targets.append((f"speed-up vs MuJoCo Euler, {family}", n, euler["us"] / ours["us"], goal, ">="))
            if n >= 2:
                targets.append((f"MuJoCo Euler / ours energy error, {family}", n,
                                euler["energy"] / max(ours["energy"], 1e-300), 100.0, ">="))
        s = slope(best, family, "graphsolve", 10, 100) if family.startswith("nlink") else None
        if s is not None:
            targets.append((f"time/step log-log slope n=10..100, {family}", "10-100", s, 1.1, "<="))
        out.append("")
    return section_end("dynamics", out, "Targets", targets, ".2f", plot_paths, rel)


def plots(best, outdir):
    return time_plots(best, sorted({k[0] for k in best}), SOLVERS, outdir, "dynamics",
                      lambda f: "links" if f.startswith("nlink") else "segments", lambda f: TITLES.get(f, f))


def make(results, plots_dir, rel, command):
    best = load(results)
    return section(best, plots(best, plots_dir) if plots_dir else [], rel, command)


if __name__ == "__main__":
    raise SystemExit(report_main(__doc__, "dynamics", make))
