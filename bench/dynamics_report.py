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

from report_sections import cell, report_main, scored_runs, section_end, section_start, time_plots

SOLVERS = ["graphsolve", "mujoco_euler", "mujoco_rk4"]
TITLES = {"nlink_revolute": "n-link pendulum, revolute joints",
          "nlink_spherical": "n-link pendulum, spherical joints",
          "limits_apart": "n-link pendulum, hinges limited to +-3 rad (never reached)",
          "limits_reached": "n-link pendulum, hinges limited to +-0.4 rad (reached)",
          "fourlink_chain": "chain of k four-link loops"}
# The families with limits have no targets: their steps press limits
# (an inelastic stop in both simulators) or show what open steps cost.
LIMITED = {"limits_apart", "limits_reached"}


def load(paths, statistic="fastest"):
    """The fastest repetition (or the median) of every benchmark over all the runs, and the
    benchmarks that failed in every run."""
    return scored_runs(paths, lambda b: {
        "us": b["us_per_step"], "energy": b["energy_error"],
        "energy_state": b.get("energy_error_state", b["energy_error"]), "newton": b.get("newton_iterations"),
        "factorizations": b.get("factorizations"), "violation": b["constraint_violation"],
        "open": b.get("open_steps"), "held": b.get("held_steps")}, statistic)


def slope(best, family, solver, lo, hi):
    a, b = best.get((family, lo, solver)), best.get((family, hi, solver))
    if not a or not b:
        return None
    return math.log(b["us"] / a["us"]) / math.log(hi / lo)


def section(best, failed, plot_paths, rel, command, statistic="fastest"):
    out = section_start("dynamics", "Simulator: dynamics against MuJoCo", command, statistic) + [
        "1000 steps of dt = 0.01 s per run, Newton tolerance 1e-10 (ours); MuJoCo 2.2.2 (Debian) with its "
        "defaults and the same model in MJCF (loop closures as `connect` equalities). `us/step` is wall time per "
        "step; `speed-up` is MuJoCo Euler time / ours (above 1: we are faster); `Newton it.` and `factor.` are "
        "Newton iterations and factorizations per step (an iteration that reuses the last factorization is a chord "
        "step). Chains deeper than 50 bodies continue in included MJCF files (MuJoCo 2.2's XML reader stops at 100 "
        "levels of nesting). `-`: not run (MuJoCo could not load the model, or a filter left it out); "
        "`fails`: a step failed (ours run without sub-steps, as MuJoCo; the reasons follow the tables).", "",
        "Energy errors are |E(1000) - E(0)| in joules. Both our integrator and MuJoCo's Euler (semi-implicit: "
        "velocities first, then positions with the new velocities) leave the velocities of the last step in the "
        "state, which belong to the step's midpoint while the positions belong to its end. `energy error` evaluates "
        "both simulators at the step's midpoint (ours: kinetic energy plus the potential energy averaged over the "
        "step's two end poses, `total_energy(model, state, dt)`; MuJoCo: its energy at q - dt/2 v); `state energy "
        "error` takes the state as it stands (ours: `total_energy(model, state)`, MuJoCo: `mj_energyPos + "
        "mj_energyVel` after the last step), which adds an O(dt) swing to both. RK4's state is not staggered and gets "
        "its state energy only. `violation` is the largest joint constraint violation at the end (ours: position "
        "level, metres; MuJoCo: its equality constraint residual).", "",
        "The chains with limits (no targets) limit every hinge of the revolute chain, ours with joint limits, "
        "MuJoCo's with `limited` ranges: to +-3 rad, which the chain never reaches, so that every step of ours is "
        "solved without its limits (`open steps` is the share of such steps, `docs/contacts.md` \"Open steps\"), and "
        "to +-0.4 rad, which its joints reach on most swings (ours: interior-point steps, and steps with the limits "
        "that pushed at their start held as equalities, whose share is `held steps`, `docs/contacts.md` \"Held "
        "limits\"; MuJoCo: its soft constraints). Their stops take energy out in both simulators, so the energy errors there say little.", ""]
    targets = []
    runs = set(best) | set(failed)
    families = sorted({k[0] for k in runs}, key=lambda f: list(TITLES).index(f) if f in TITLES else 99)
    for family in families:
        sizes = sorted({k[1] for k in runs if k[0] == family})
        limited = family in LIMITED
        timing = [f"### {TITLES.get(family, family)}: time", "",
                  "| size | ours us/step | Newton it. | factor. | " + ("open steps | held steps | " if limited else "") +
                  "MuJoCo Euler us/step | RK4 us/step | speed-up vs Euler |",
                  "|---|---|---|---|---|---|---|" + ("---|---|" if limited else "")]
        energy = [f"### {TITLES.get(family, family)}: energy and constraints", "",
                  "| size | ours energy error | Euler energy error | Euler / ours | RK4 energy error | "
                  "ours state energy error | Euler state energy error | ours violation | Euler violation |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for n in sizes:
            key = {solver: (family, n, solver) for solver in SOLVERS}
            ours, euler = best.get(key["graphsolve"]), best.get(key["mujoco_euler"])

            def of(solver, field, fmt):  # a cell of one solver's record at this size
                return cell(best, failed, key[solver], lambda e: format(e[field], fmt))

            newton = "-" if not ours or ours["newton"] is None else f"{ours['newton']:.2f}"
            factored = "-" if not ours or ours["factorizations"] is None else f"{ours['factorizations']:.2f}"
            # Where ours failed and MuJoCo ran, the targets count it as missed (0).
            speed_up = euler["us"] / ours["us"] if ours and euler else 0.0
            ratio = euler["energy"] / max(ours["energy"], 1e-300) if ours and euler else 0.0
            compared = ours is not None and euler is not None
            def share(field):  # of ours' steps
                return ("-" if not ours or ours.get(field) is None else f"{ours[field]:.2f}") + " | "
            open_steps = share("open") + share("held")
            timing.append(f"| {n} | {of('graphsolve', 'us', '.1f')} | {newton} | {factored} | "
                          f"{open_steps if limited else ''}{of('mujoco_euler', 'us', '.1f')} | {of('mujoco_rk4', 'us', '.1f')} | "
                          f"{format(speed_up, '.2f') if compared else '-'} |")
            energy.append(f"| {n} | {of('graphsolve', 'energy', '.2e')} | {of('mujoco_euler', 'energy', '.2e')} | "
                          f"{format(ratio, '.3g') if compared else '-'} | {of('mujoco_rk4', 'energy', '.2e')} | "
                          f"{of('graphsolve', 'energy_state', '.2e')} | {of('mujoco_euler', 'energy_state', '.2e')} | "
                          f"{of('graphsolve', 'violation', '.1e')} | {of('mujoco_euler', 'violation', '.1e')} |")
            if not euler or not (ours or key["graphsolve"] in failed) or limited:
                continue  # no comparison: MuJoCo did not run, ours was left out, or no target
            if family.startswith("nlink") and n >= 20:
                goal = 5.0 if family == "nlink_spherical" else 1.0
                targets.append((f"speed-up vs MuJoCo Euler, {family}", n, speed_up, goal, ">="))
            targets.append((f"MuJoCo Euler / ours energy error (step midpoint), {family}", n, ratio, 100.0, ">="))
        s = slope(best, family, "graphsolve", 10, 100) if family.startswith("nlink") else None
        if s is not None:
            targets.append((f"time/step log-log slope n=10..100, {family}", "10-100", s, 1.1, "<="))
        out += timing + [""] + energy + [""]
    reasons = [f"- `{'/'.join(map(str, k))}`: {message}" for k, message in sorted(failed.items())]
    if reasons:
        out += ["Failed runs:", ""] + reasons + [""]
    return section_end("dynamics", out, "Targets", targets, ".2f", plot_paths, rel)


def plots(best, outdir):
    return time_plots(best, sorted({k[0] for k in best}), SOLVERS, outdir, "dynamics",
                      lambda f: "segments" if f == "fourlink_chain" else "links", lambda f: TITLES.get(f, f))


def make(result_paths, plots_dir, rel, command, statistic="fastest"):
    best, failed = load(result_paths, statistic)
    return section(best, failed, plots(best, plots_dir) if plots_dir else [], rel, command, statistic)


if __name__ == "__main__":
    raise SystemExit(report_main(__doc__, "dynamics", make))
