#!/usr/bin/env python3
"""Turn dynamics_bench JSON into the simulator section of docs/benchmarks.md.

Usage: dynamics_report.py RESULTS.json [--also MORE.json ...] [--out docs/benchmarks.md --command "how the JSON was made"] [--plots docs/plots]
                          [--statistic fastest|median] [--print]

The section sits between its markers; it replaces an earlier one or is
appended, and bench/report.py keeps it when it rewrites the solver part.
Benchmarks are named family/size/solver; the fastest repetition over all the
runs given is used (--statistic median: their median).
"""
import math

from report_sections import report_main, scored_runs, section_end, section_start, time_plots

SOLVERS = ["graphsolve", "mujoco_euler", "mujoco_rk4"]
TITLES = {"nlink_revolute": "n-link pendulum, revolute joints",
          "nlink_spherical": "n-link pendulum, spherical joints",
          "fourlink_chain": "chain of k four-link loops"}


def load(paths, statistic="fastest"):
    """The fastest repetition (or the median) of every benchmark over all the runs (failed ones
    are left out)."""
    best, _ = scored_runs(paths, lambda b: {
        "us": b["us_per_step"], "energy": b["energy_error"],
        "energy_state": b.get("energy_error_state", b["energy_error"]), "newton": b.get("newton_iterations"),
        "factorizations": b.get("factorizations"), "violation": b["constraint_violation"]}, statistic)
    return best


def slope(best, family, solver, lo, hi):
    a, b = best.get((family, lo, solver)), best.get((family, hi, solver))
    if not a or not b:
        return None
    return math.log(b["us"] / a["us"]) / math.log(hi / lo)


def section(best, plot_paths, rel, command, statistic="fastest"):
    out = section_start("dynamics", "Simulator: dynamics against MuJoCo", command, statistic) + [
        "1000 steps of dt = 0.01 s per run, Newton tolerance 1e-10 (ours); MuJoCo 2.2.2 (Debian) with its "
        "defaults and the same model in MJCF (loop closures as `connect` equalities). `us/step` is wall time per "
        "step; `speed-up` is MuJoCo Euler time / ours (above 1: we are faster); `Newton it.` and `factor.` are "
        "Newton iterations and factorizations per step (an iteration that reuses the last factorization is a chord "
        "step). Chains deeper than 50 bodies continue in included MJCF files (MuJoCo 2.2's XML reader stops at 100 "
        "levels of nesting). `-`: MuJoCo could not load or run the model.", "",
        "Energy errors are |E(1000) - E(0)| in joules. Both our integrator and MuJoCo's Euler (semi-implicit: "
        "velocities first, then positions with the new velocities) leave the velocities of the last step in the "
        "state, which belong to the step's midpoint while the positions belong to its end. `energy error` evaluates "
        "both simulators at the step's midpoint (ours: kinetic energy plus the potential energy averaged over the "
        "step's two end poses, `total_energy(model, state, dt)`; MuJoCo: its energy at q - dt/2 v); `state energy "
        "error` takes the state as it stands (ours: `total_energy(model, state)`, MuJoCo: `mj_energyPos + "
        "mj_energyVel` after the last step), which adds an O(dt) swing to both. RK4's state is not staggered and gets "
        "its state energy only. `violation` is the largest joint constraint violation at the end (ours: position "
        "level, metres; MuJoCo: its equality constraint residual).", ""]
    targets = []
    families = sorted({k[0] for k in best}, key=lambda f: list(TITLES).index(f) if f in TITLES else 99)
    for family in families:
        sizes = sorted({k[1] for k in best if k[0] == family})
        timing = [f"### {TITLES.get(family, family)}: time", "",
                  "| size | ours us/step | Newton it. | factor. | MuJoCo Euler us/step | RK4 us/step | speed-up vs Euler |",
                  "|---|---|---|---|---|---|---|"]
        energy = [f"### {TITLES.get(family, family)}: energy and constraints", "",
                  "| size | ours energy error | Euler energy error | Euler / ours | RK4 energy error | "
                  "ours state energy error | Euler state energy error | ours violation | Euler violation |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for n in sizes:
            ours, euler, rk4 = (best.get((family, n, s)) for s in SOLVERS)
            if not ours:
                continue
            factored = "-" if ours["factorizations"] is None else f"{ours['factorizations']:.2f}"
            if not euler or not rk4:  # MuJoCo refused the model
                timing.append(f"| {n} | {ours['us']:.1f} | {ours['newton']:.2f} | {factored} | - | - | - |")
                energy.append(f"| {n} | {ours['energy']:.2e} | - | - | - | {ours['energy_state']:.2e} | - | "
                              f"{ours['violation']:.1e} | - |")
                continue
            ratio = euler["energy"] / max(ours["energy"], 1e-300)
            timing.append(f"| {n} | {ours['us']:.1f} | {ours['newton']:.2f} | {factored} | {euler['us']:.1f} | "
                          f"{rk4['us']:.1f} | {euler['us'] / ours['us']:.2f} |")
            energy.append(f"| {n} | {ours['energy']:.2e} | {euler['energy']:.2e} | {ratio:.3g} | {rk4['energy']:.2e} | "
                          f"{ours['energy_state']:.2e} | {euler['energy_state']:.2e} | {ours['violation']:.1e} | "
                          f"{euler['violation']:.1e} |")
            if family.startswith("nlink") and n >= 20:
                goal = 5.0 if family == "nlink_spherical" else 1.0
                targets.append((f"speed-up vs MuJoCo Euler, {family}", n, euler["us"] / ours["us"], goal, ">="))
            targets.append((f"MuJoCo Euler / ours energy error (step midpoint), {family}", n, ratio, 100.0, ">="))
        s = slope(best, family, "graphsolve", 10, 100) if family.startswith("nlink") else None
        if s is not None:
            targets.append((f"time/step log-log slope n=10..100, {family}", "10-100", s, 1.1, "<="))
        out += timing + [""] + energy + [""]
    return section_end("dynamics", out, "Targets", targets, ".2f", plot_paths, rel)


def plots(best, outdir):
    return time_plots(best, sorted({k[0] for k in best}), SOLVERS, outdir, "dynamics",
                      lambda f: "links" if f.startswith("nlink") else "segments", lambda f: TITLES.get(f, f))


def make(result_paths, plots_dir, rel, command, statistic="fastest"):
    best = load(result_paths, statistic)
    return section(best, plots(best, plots_dir) if plots_dir else [], rel, command, statistic)


if __name__ == "__main__":
    raise SystemExit(report_main(__doc__, "dynamics", make))
