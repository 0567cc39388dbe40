#!/usr/bin/env python3
"""Turn contact_bench JSON into the contact section of docs/benchmarks.md.

Usage: contact_report.py RESULTS.json [--also MORE.json ...] [--out docs/benchmarks.md --command "how the JSON was made"] [--plots docs/plots]
                         [--statistic fastest|median] [--print]

The section sits between its markers; it replaces an earlier one or is
appended (bench/report.py keeps it). Benchmarks are named family/size/solver;
the fastest repetition over all the runs given is used (--statistic median:
their median).
"""
import math

import report_sections
from report_sections import report_main, scored_runs, section_end, section_start, time_plots

TITLES = {"cylinder": "one cylinder with c rim contacts (100 steps)",
          "cylinder_chain": "chain of n cylinders with n + 1 contacts (100 steps)",
          "sphere_chain": "sphere chain dropped on the ground (1000 steps)",
          "box_drop": "box drop (100 steps)",
          "box_stack": "stack of n cubes resting on each other (200 steps; contacts between bodies)"}


def load(paths, statistic="fastest"):
    """The fastest repetition (or the median) of every benchmark over all the runs, and the
    benchmarks that failed in every run."""
    return scored_runs(paths, lambda b: {"us": b["us_per_step"], "pen": max(b["penetration"], 0.0) + 0.0,
                                         "viol": b["joint_violation"], "ip": b.get("ip_iterations"),
                                         "warned": b.get("warnings", 0.0) > 0}, statistic)


def slope(best, family, lo, hi):
    """Least-squares log-log slope of our time per step over the sizes lo..hi
    (every measured size counts, not just the two ends)."""
    pts = [(math.log(k[1]), math.log(v["us"])) for k, v in best.items()
           if k[0] == family and k[2] == "graphsolve" and lo <= k[1] <= hi]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def end_slope(best, family, lo, hi):
    """Log-log slope between the two end sizes only."""
    a, b = best.get((family, lo, "graphsolve")), best.get((family, hi, "graphsolve"))
    return math.log(b["us"] / a["us"]) / math.log(hi / lo) if a and b else None


def cell(best, failed, key, fmt):
    """report_sections.cell, with " (!)" where the run warned."""
    return report_sections.cell(best, failed, key, lambda e: fmt(e) + (" (!)" if e["warned"] else ""))


def section(best, failed, plot_paths, rel, command, statistic="fastest"):
    out = section_start("contact", "Contacts: interior-point steps against MuJoCo", command, statistic)
    out += ["dt = 0.01 s. Ours: interior-point tolerances 1e-8 (equations) and 1e-8 (complementarity), linearized "
            "friction cone with 4 directions. MuJoCo 2.2.2 (Debian) with its default solver and contact parameters "
            "and the same friction coefficient. The sphere chain is written three ways: a joint tree (ball joints) "
            "rooted at the first sphere, as one writes a chain; the same tree rooted at the middle sphere (half the "
            "depth, and MuJoCo's cost grows with depth); free bodies joined by `connect` equalities. Its spheres "
            "touch the ground only, as in ours. Chains deeper than 50 bodies continue in included MJCF files "
            "(MuJoCo 2.2's XML reader stops at 100 levels of nesting). `penetration` is the largest depth below the "
            "ground over the run, `joint violation` the largest joint constraint violation (metres). `fails`: "
            "MuJoCo could not load the model; `(!)`: MuJoCo warned that its contact or constraint buffer was full "
            "(contacts dropped) or reset bad accelerations during the run. Slopes are least-squares fits of "
            "log(time per step) against log(size) over every measured size.", ""]
    targets = []
    for family in ("cylinder", "cylinder_chain"):
        sizes = sorted({k[1] for k in best if k[0] == family})
        if not sizes:
            continue
        out += [f"### {TITLES[family]}", "", "| size | us/step | IP iterations | penetration (m) |", "|---|---|---|---|"]
        for n in sizes:
            e = best[(family, n, "graphsolve")]
            out.append(f"| {n} | {e['us']:.1f} | {e['ip']:.2f} | {e['pen']:.1e} |")
        s = slope(best, family, sizes[0], sizes[-1])
        if s is not None:
            targets.append((f"time/step log-log slope, {family}", f"{sizes[0]}-{sizes[-1]}", s, 1.1, "<="))
            ends = end_slope(best, family, sizes[0], sizes[-1])
            first, last = best[(family, sizes[0], "graphsolve")], best[(family, sizes[-1], "graphsolve")]
            per_iteration = math.log(last["us"] / last["ip"] / (first["us"] / first["ip"])) / math.log(
                sizes[-1] / sizes[0])
            out += ["", f"Slope between the end sizes only: {ends:.2f}; per interior-point iteration: "
                        f"{per_iteration:.2f} (iterations per step {first['ip']:.1f} at {sizes[0]}, "
                        f"{last['ip']:.1f} at {sizes[-1]})."]
        out.append("")
    sizes = sorted({k[1] for k in best if k[0] == "sphere_chain"} | {k[1] for k in failed if k[0] == "sphere_chain"})
    if sizes:
        out += [f"### {TITLES['sphere_chain']}", "",
                "| n | ours us/step | IP it. | MuJoCo tree us/step | MuJoCo tree (mid root) us/step | "
                "MuJoCo free us/step | speed-up vs tree | speed-up vs tree (mid root) | ours penetration | "
                "tree penetration | free penetration | ours joint violation | free joint violation |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for n in sizes:
            ours, tree, mid = (best.get(("sphere_chain", n, s)) for s in ("graphsolve", "mujoco_tree", "mujoco_tree_mid"))
            if not ours:
                continue
            row = [f"| {n}", f"{ours['us']:.1f}", f"{ours['ip']:.2f}"]
            row += [cell(best, failed, ("sphere_chain", n, s), lambda e: f"{e['us']:.1f}")
                    for s in ("mujoco_tree", "mujoco_tree_mid", "mujoco_free")]
            row += [f"{e['us'] / ours['us']:.2f}" if e else "-" for e in (tree, mid)]
            row += [f"{ours['pen']:.1e}"]
            row += [cell(best, failed, ("sphere_chain", n, s), lambda e: f"{e['pen']:.1e}")
                    for s in ("mujoco_tree", "mujoco_free")]
            row += [f"{ours['viol']:.1e}", cell(best, failed, ("sphere_chain", n, "mujoco_free"),
                                                 lambda e: f"{e['viol']:.1e}")]
            out.append(" | ".join(row) + " |")
            targets.append(("penetration below 1e-6 m", n, ours["pen"], 1e-6, "<="))
            targets.append(("joint violation below 1e-6 m", n, ours["viol"], 1e-6, "<="))
            for goal_n, goal in ((20, 1.0), (100, 10.0)):
                if n == goal_n:
                    targets.append(("speed-up vs MuJoCo tree (0: MuJoCo failed)", n,
                                    tree["us"] / ours["us"] if tree else 0.0, goal, ">="))
        s = slope(best, "sphere_chain", 10, 100)
        if s is not None:
            targets.append(("time/step log-log slope, sphere_chain", "10-100", s, 1.1, "<="))
        out.append("")
    ours, mj = best.get(("box_drop", 1, "graphsolve")), best.get(("box_drop", 1, "mujoco"))
    if ours and mj:
        out += [f"### {TITLES['box_drop']}", "",
                "| solver | us/step | penetration (m) |", "|---|---|---|",
                f"| ours | {ours['us']:.1f} | {ours['pen']:.1e} |",
                f"| MuJoCo | {mj['us']:.1f} | {mj['pen']:.1e} |", ""]
        targets.append(("box drop penetration", 1, ours["pen"], 1e-6, "<="))
    sizes = sorted({k[1] for k in best if k[0] == "box_stack"})
    if sizes:
        out += [f"### {TITLES['box_stack']}", "",
                "Ours: a box collider per cube; each cube's corners against the face below (4 contact nodes per "
                "touching pair, each joining two bodies) plus ground contacts at every cube's corners. MuJoCo: "
                "box geoms on free bodies.", "",
                "| n | ours us/step | IP it. | MuJoCo us/step | speed-up | ours penetration | MuJoCo penetration |",
                "|---|---|---|---|---|---|---|"]
        for n in sizes:
            ours, mj = best.get(("box_stack", n, "graphsolve")), best.get(("box_stack", n, "mujoco"))
            if not ours:
                continue
            speed = f"{mj['us'] / ours['us']:.2f}" if mj else "-"
            out.append(" | ".join([
                f"| {n}", f"{ours['us']:.1f}", f"{ours['ip']:.2f}",
                cell(best, failed, ("box_stack", n, "mujoco"), lambda e: f"{e['us']:.1f}"), speed,
                f"{ours['pen']:.1e}", cell(best, failed, ("box_stack", n, "mujoco"), lambda e: f"{e['pen']:.1e}")])
                + " |")
            targets.append(("box stack penetration", n, ours["pen"], 1e-6, "<="))
        s = slope(best, "box_stack", sizes[0], sizes[-1])
        if s is not None:
            out += ["", f"Time per step grows with log-log slope {s:.2f} from n = {sizes[0]} to {sizes[-1]}."]
        out.append("")
    return section_end("contact", out, "Contact targets", targets, ".3g", plot_paths, rel)


def plots(best, outdir):
    return time_plots(best, ("cylinder", "cylinder_chain", "sphere_chain", "box_stack"),
                      ("graphsolve", "mujoco_tree", "mujoco_tree_mid", "mujoco_free", "mujoco"), outdir, "contacts",
                      lambda f: "contact points" if f == "cylinder" else "bodies", lambda f: TITLES[f], 9)


def make(result_paths, plots_dir, rel, command, statistic="fastest"):
    best, failed = load(result_paths, statistic)
    return section(best, failed, plots(best, plots_dir) if plots_dir else [], rel, command, statistic)


if __name__ == "__main__":
    raise SystemExit(report_main(__doc__, "contact", make))
