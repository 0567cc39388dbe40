#!/usr/bin/env python3
"""Turn graphsolve_bench JSON into docs/benchmarks.md and log-log plots.

Usage: report.py RESULTS.json [--also MORE.json ...] [--out docs/benchmarks.md --command "how the JSON was made"] [--plots docs/plots]
                 [--notes analysis.md] [--statistic fastest|median] [--print]

Benchmarks are named family/n/solver/phase. For every name the fastest of
the repetitions is used, over all the files given (the machine is a shared
VM; the minimum is the least disturbed run); --statistic median takes their
median instead (a check that a verdict does not rest on one lucky run). The
headline phase is refactor_solve.
"""
import math
import os
import platform
import re
import subprocess

from report_sections import (ReportInputError, kept_sections, median_of_repetitions, parse_report_arguments,
                             read_results, report_arguments)

UNSYMMETRIC = ["graphsolve-ldu-auto", "graphsolve-ldu-dfs", "graphsolve-ldu-amd", "graphsolve-ldu-nd",
               "umfpack", "klu", "eigen-sparselu", "dense-lu"]
SYMMETRIC = ["graphsolve-llt", "graphsolve-ldlt", "cholmod-supernodal", "cholmod-simplicial", "eigen-simplicialldlt"]
LINEAR_FAMILIES = ["chain", "tree", "ladder"]
MESH_FAMILIES = ["net", "crystal"]
STATISTIC_TEXT = {"fastest": "the fastest of the repetitions (over all the runs in the command)",
                  "median": "the median of the repetitions (over all the runs in the command)"}


def load(paths, statistic="fastest"):
    """Every benchmark's time over its repetitions in all files: the fastest, or
    with statistic="median" their median; the counters are the fastest run's."""
    runs, context = [], {}
    for path in paths:
        benchmarks, file_context = read_results(path)
        runs += [(path, b) for b in benchmarks]
        context = context or file_context
    best, times = {}, {}
    for path, b in runs:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b.get("run_name", b.get("name", ""))
        parts = name.split("/")
        if len(parts) != 4 or not parts[1].isdigit():
            continue  # not a graphsolve_bench result
        family, n, solver, phase = parts
        key = (family, int(n), solver, phase)
        try:
            t = b["real_time"] * {"us": 1.0, "ns": 1e-3, "ms": 1e3, "s": 1e6}[b["time_unit"]]
        except KeyError as e:
            raise ReportInputError(f"{path}: benchmark '{name}' has no time or an unknown time unit {e}") from None
        times.setdefault(key, []).append(t)
        if key not in best or t < best[key]["us"]:
            best[key] = {"us": t, "nnz": b.get("factor_nonzeros", 0), "flops": b.get("flops", 0),
                         "memory": b.get("memory_bytes", 0)}
    if not best:
        raise ReportInputError(f"{', '.join(paths)}: no results named family/n/solver/phase "
                               "(graphsolve_bench's JSON output)")
    median_of_repetitions(best, times, statistic)
    return context, best


def families(best):
    # Block sizes in numeric order (chain-b7 before chain-b12, as --block-sizes runs them).
    def natural(name):
        return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]
    return sorted({k[0] for k in best}, key=lambda f: (f.split("-")[0] not in LINEAR_FAMILIES, natural(f)))


def time(best, family, n, solver, phase="refactor_solve"):
    entry = best.get((family, n, solver, phase))
    return entry["us"] if entry else None


def fmt_us(t):
    if t is None:
        return "-"
    return f"{t:.0f}" if t >= 100 else f"{t:.1f}" if t >= 10 else f"{t:.2f}"


def table(best, family, solvers, reference):
    sizes = sorted({k[1] for k in best if k[0] == family})
    present = [s for s in solvers if any((family, n, s, "refactor_solve") in best for n in sizes)]
    if reference not in present:
        return ""
    lines = ["| n | " + " | ".join(present) + " |", "|---" * (len(present) + 1) + "|"]
    for n in sizes:
        ref = time(best, family, n, reference)
        cells = []
        for s in present:
            t = time(best, family, n, s)
            if t is None:
                cells.append("-")
            elif s == reference or ref is None:
                cells.append(f"**{fmt_us(t)}**" if s == reference else fmt_us(t))
            else:
                cells.append(f"{fmt_us(t)} ({t / ref:.1f}x)")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def counters_table(best, family):
    """Every solver's factor nonzeros, flops, achieved GFLOP/s and memory on the family's
    largest system, as each solver counts them ("-": the solver does not tell), with the
    times of its phases there."""
    sizes = sorted({k[1] for k in best if k[0] == family})
    if not sizes:
        return ""
    n = sizes[-1]
    lines = [f"| {family}, n = {n} | factor nonzeros | flops | GFLOP/s | memory (MB) | factorize (us) | solve (us) "
             "| refactor + solve (us) |", "|---" * 8 + "|"]
    for solver in UNSYMMETRIC + SYMMETRIC:
        entry = best.get((family, n, solver, "refactor_solve"))
        if not entry:
            continue
        nnz, flops, memory = (entry[k] if entry[k] and entry[k] > 0 else None for k in ("nnz", "flops", "memory"))
        factorize, solve = time(best, family, n, solver, "factorize"), time(best, family, n, solver, "solve")
        cells = [f"{nnz:.0f}" if nnz else "-", f"{flops:.3g}" if flops else "-",
                 f"{flops / factorize * 1e-3:.2f}" if flops and factorize else "-",
                 f"{memory / 1e6:.2f}" if memory else "-", fmt_us(factorize), fmt_us(solve), fmt_us(entry["us"])]
        lines.append(f"| {solver} | " + " | ".join(cells) + " |")
    return "\n".join(lines) if len(lines) > 2 else ""


def slope(best, family, solver):
    t1, t2 = time(best, family, 1000, solver), time(best, family, 10000, solver)
    if t1 is None or t2 is None:
        return None
    return math.log(t2 / t1) / math.log(10.0)


def ratio(best, family, n, peer, solver):
    a, b = time(best, family, n, peer), time(best, family, n, solver)
    return None if a is None or b is None else a / b


def targets(best):
    """Every target of the bench issue, measured: (target, family, n, value, goal, met)."""
    rows = []
    for family in families(best):
        if family.endswith("-b1"):  # scalar systems are reported, but the issue sets no target for them
            continue
        base = family.split("-")[0]
        sizes = sorted({k[1] for k in best if k[0] == family})
        is_spd_family = any((family, n, "graphsolve-llt", "refactor_solve") in best for n in sizes)
        if base in LINEAR_FAMILIES:
            for n in [s for s in sizes if s >= 100]:
                for peer, goal in (("umfpack", 20.0), ("klu", 5.0)):
                    r = ratio(best, family, n, peer, "graphsolve-ldu-auto")
                    if r is not None:
                        rows.append((f"{peer} / graphsolve-ldu", family, n, r, goal, r >= goal))
                if is_spd_family:
                    ours = min(x for x in (time(best, family, n, "graphsolve-llt"), time(best, family, n, "graphsolve-ldlt")) if x)
                    for peer in ("cholmod-supernodal", "cholmod-simplicial", "eigen-simplicialldlt"):
                        t = time(best, family, n, peer)
                        if t:
                            rows.append((f"{peer} / graphsolve-llt/ldlt", family, n, t / ours, 3.0, t / ours >= 3.0))
            s = slope(best, family, "graphsolve-ldu-auto")
            if s is not None:
                rows.append(("log-log slope n=1000..10000", family, 10000, s, 1.05, s <= 1.05))
            if 100 in sizes and base in ("chain", "ladder"):
                r = ratio(best, family, 100, "dense-lu", "graphsolve-ldu-auto")
                if r is not None:
                    rows.append(("dense-lu / graphsolve-ldu", family, 100, r, 100.0, r >= 100.0))
        elif base in MESH_FAMILIES:
            for n in sizes:
                r = ratio(best, family, n, "umfpack", "graphsolve-ldu-auto")
                if r is not None:
                    rows.append(("umfpack / graphsolve-ldu", family, n, r, 2.0, r >= 2.0))
                peers = [time(best, family, n, p) for p in ("klu", "eigen-sparselu")]
                ours = time(best, family, n, "graphsolve-ldu-auto")
                if ours and any(peers):
                    r = min(p for p in peers if p) / ours
                    rows.append(("fastest of klu, sparselu / graphsolve-ldu", family, n, r, 1.0, r >= 1.0))
                sym_peers = [time(best, family, n, p) for p in ("cholmod-supernodal", "cholmod-simplicial", "eigen-simplicialldlt")]
                ours_sym = [time(best, family, n, p) for p in ("graphsolve-llt", "graphsolve-ldlt")]
                if any(sym_peers) and any(ours_sym):
                    r = min(p for p in sym_peers if p) / min(p for p in ours_sym if p)
                    rows.append(("fastest symmetric peer / graphsolve-llt/ldlt", family, n, r, 1.0, r >= 1.0))
                g = best.get((family, n, "graphsolve-ldu-auto", "refactor_solve"))
                ss = [best.get((family, n, p, "refactor_solve")) for p in ("umfpack", "klu")]
                ss = [e for e in ss if e and e["nnz"]]
                if g and ss:
                    r = g["nnz"] / min(e["nnz"] for e in ss)
                    rows.append(("factor nonzeros / best of umfpack, klu", family, n, r, 1.2, r <= 1.2))
    return rows


def plots(best, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        import sys
        print("report.py: matplotlib not found (Debian: python3-matplotlib, run with /usr/bin/python3); no plots",
              file=sys.stderr)
        return []
    os.makedirs(outdir, exist_ok=True)
    made = []
    for family in families(best):
        sizes = sorted({k[1] for k in best if k[0] == family})
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        for solver in UNSYMMETRIC + SYMMETRIC:
            pts = [(n, time(best, family, n, solver)) for n in sizes]
            pts = [(n, t) for n, t in pts if t]
            if not pts:
                continue
            style = "-" if solver.startswith("graphsolve") else "--"
            width = 2.4 if solver in ("graphsolve-ldu-auto", "graphsolve-llt") else 1.2
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3, linewidth=width, label=solver)
        if not ax.lines:
            plt.close(fig)
            continue
        ax.set_xlabel("nodes n")
        ax.set_ylabel("refactor + solve [us]")
        ax.set_title(f"{family}: refactorization + one solve, single thread")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        path = os.path.join(outdir, f"{family}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)
    return made


def machine(context):
    cpu = context.get("host_name", platform.node())
    try:
        model = subprocess.run(["sh", "-c", "lscpu | grep 'Model name' | head -1 | cut -d: -f2"],
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        model = "unknown CPU"
    try:
        compiler = subprocess.run(["sh", "-c", "c++ --version | head -1"], capture_output=True, text=True).stdout.strip()
    except OSError:
        compiler = "unknown compiler"
    return (f"{model}, {context.get('num_cpus', '?')} cores at {context.get('mhz_per_cpu', '?')} MHz "
            f"(host {cpu}), {platform.system()} {platform.release()}, {compiler}, "
            f"run {context.get('date', '?')}; single thread (OPENBLAS_NUM_THREADS=OMP_NUM_THREADS=1); "
            f"graphsolve kernels: {context.get('graphsolve_kernels', 'not recorded')}; "
            f"allocator: {context.get('malloc', 'glibc defaults (not recorded)')}")


def main():
    parser = report_arguments(__doc__)
    parser.add_argument("--notes", help="Markdown file with the hand-written analysis to include")
    args = parse_report_arguments(parser)
    try:
        context, best = load([args.results] + args.also, args.statistic)
    except ReportInputError as e:
        parser.exit(2, f"{parser.prog}: error: {e}\n")

    sections = []
    for family in families(best):
        unsym = table(best, family, UNSYMMETRIC, "graphsolve-ldu-auto")
        sym = table(best, family, SYMMETRIC, "graphsolve-llt")
        if unsym:
            sections.append(f"### {family}: unsymmetric values (ratio = peer time / graphsolve-ldu-auto)\n\n{unsym}\n")
        if sym:
            sections.append(f"### {family}: SPD values (ratio = peer time / graphsolve-llt)\n\n{sym}\n")
    rows = targets(best)
    target_lines = ["| target | family | n | measured | goal | met |", "|---|---|---|---|---|---|"]
    for name, family, n, value, goal, met in rows:
        relation = "<=" if "slope" in name or "nonzeros" in name else ">="
        target_lines.append(f"| {name} | {family} | {n} | {value:.2f} | {relation} {goal:g} | {'yes' if met else '**no**'} |")
    met = sum(1 for r in rows if r[5])
    if args.print:
        print("\n\n".join(sections))
        print(f"\nTargets met: {met} of {len(rows)}")
    if args.out:
        made = plots(best, args.plots) if args.plots else []
        rel = lambda p: os.path.relpath(p, os.path.dirname(os.path.abspath(args.out)))
        # Keep the sections that bench/phases_report.py, bench/dynamics_report.py
        # and bench/contact_report.py maintain.
        kept = kept_sections(args.out, ("phases", "dynamics", "contact"))
        with open(args.out, "w") as f:
            f.write("# Benchmarks: graphsolve against UMFPACK, KLU, CHOLMOD and Eigen\n\n")
            f.write("Generated by `bench/report.py` from the JSON of `graphsolve_bench`; do not edit by hand.\n\n")
            if args.command:
                f.write(f"Command:\n\n```sh\n{args.command}\n```\n\n")
            f.write(f"Machine: {machine(context)}.\n\n")
            f.write("Times are microseconds for **refactorization + one solve** with the analysis reused (the "
                    f"Newton-iteration case), {STATISTIC_TEXT[args.statistic]}; every run checked its relative "
                    "residual < 1e-10. Ratios are peer / graphsolve, so above 1 means graphsolve is faster. "
                    "`-saddle` families are mechanism-shaped saddle-point systems (n bodies of 6x6 with zero-diagonal "
                    "joint nodes, 5 rows on chains and trees, 3 on ladders); `-b3` families use 3x3 blocks, `-b1` "
                    "scalar ones (no targets: shown for users with scalar systems).\n\n")
            if args.notes:
                with open(args.notes) as notes:
                    f.write(notes.read().rstrip() + "\n\n")
            f.write(f"## Targets\n\n{met} of {len(rows)} met.\n\n" + "\n".join(target_lines) + "\n\n")
            f.write("## Tables\n\n" + "\n".join(sections) + "\n")
            counters = [c for c in (counters_table(best, family) for family in families(best)) if c]
            if counters:
                f.write("## Fill, flops and memory\n\n"
                        "What each solver reports about its factorization of every family's largest system, "
                        "as it counts them: factor nonzeros (graphsolve: the entries of its filled blocks, "
                        "zeros inside a block included), flops of the numeric factorization, GFLOP/s = "
                        "those flops over the time of the factorization alone, and memory (graphsolve: "
                        "factor values, pivot factorizations, scratch and schedules; UMFPACK: its Numeric object; KLU and "
                        "CHOLMOD: their peak use, the figure they report; dense LU: the n x n matrix). Dense "
                        "LU's flops are 2n^3/3. `-`: the solver does not tell (Eigen's sparse solvers; "
                        "SimplicialLDLT gives its nonzeros only). The times are the phases on their own: "
                        "`factorize` is a first numeric factorization after the analysis (KLU: `klu_factor`, "
                        "not `klu_refactor`), `solve` one solve with the factors (UMFPACK's includes its default "
                        "iterative refinement, up to two steps by `UMFPACK_IRSTEP`), and the headline "
                        "refactorization + solve of the tables above.\n\n"
                        + "\n\n".join(counters) + "\n\n")
            if made:
                f.write("## Plots\n\n" + "\n".join(f"![{os.path.basename(p)[:-4]}]({rel(p)})" for p in made) + "\n")
            if kept:
                f.write("\n" + kept)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
