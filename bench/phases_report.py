#!/usr/bin/env python3
"""Turn graphsolve_bench JSON of the analyze and full phases into the one-shot
section of docs/benchmarks.md: what a single solve costs when nothing is reused.

Usage: phases_report.py RESULTS.json [--also MORE.json ...] [--out docs/benchmarks.md --command "how the JSON was made"]
                        [--statistic fastest|median] [--print]

The headline tables (bench/report.py) reuse the analysis; this section shows
the analysis itself and analysis + factorization + solve. It sits between its
markers, replaces an earlier one or is appended, and bench/report.py keeps it.
The fastest repetition over all the runs given is used (--statistic median:
their median).
"""
from report import families, fmt_us, load
from report_sections import markers, report_main

# (solver, phase) columns; the first of each method is the reference of its ratios.
UNSYMMETRIC = [("graphsolve-ldu-auto", "analyze"), ("umfpack", "analyze"), ("klu", "analyze"),
               ("graphsolve-ldu-auto", "full"), ("umfpack", "full"), ("klu", "full")]
SYMMETRIC = [("graphsolve-llt", "analyze"), ("cholmod-supernodal", "analyze"), ("cholmod-simplicial", "analyze"),
             ("graphsolve-llt", "full"), ("cholmod-supernodal", "full")]


def cell(best, family, n, column, reference):
    entry = best.get((family, n) + column)
    if entry is None:
        return "-"
    ref = best.get((family, n) + reference)
    if column == reference or ref is None:
        return f"**{fmt_us(entry['us'])}**" if column == reference else fmt_us(entry["us"])
    return f"{fmt_us(entry['us'])} ({entry['us'] / ref['us']:.1f}x)"


def table(best, family, columns):
    """Rows of sizes; each phase's ratios are against graphsolve's time in the same phase."""
    sizes = sorted({k[1] for k in best if k[0] == family})
    present = [c for c in columns if any((family, n) + c in best for n in sizes)]
    if not any(c[0].startswith("graphsolve") for c in present):
        return []
    lines = ["| n | " + " | ".join(f"{s} {p}" for s, p in present) + " |", "|---" * (len(present) + 1) + "|"]
    for n in sizes:
        cells = []
        for column in present:
            reference = next(c for c in columns if c[1] == column[1] and c[0].startswith("graphsolve"))
            cells.append(cell(best, family, n, column, reference))
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def make(result_paths, _plots_dir, _rel, command, statistic="fastest"):
    _, best = load(result_paths, statistic)
    begin, end = markers("phases")
    out = [begin, "## One-shot solves: analysis, and analysis + factorization + solve", ""]
    if command:
        out += ["Command:", "", "```sh", command, "```", ""]
    scored = "the fastest repetition" if statistic == "fastest" else "the median of the repetitions"
    out += [f"Microseconds, {scored}; ratios are peer / graphsolve in the same phase (above 1: "
            "graphsolve is faster). `analyze` is the symbolic phase (graphsolve: ordering, elimination game, filled "
            "pattern, layout, and allocating the factor; UMFPACK: `umfpack_di_symbolic`; KLU: `klu_analyze`; CHOLMOD: "
            "`cholmod_analyze`); `full` is analysis, numeric factorization and one solve, as a caller who "
            "solves one system once pays. The tables above reuse the analysis.", ""]
    for family in families(best):
        for title, columns in (("unsymmetric values", UNSYMMETRIC), ("SPD values", SYMMETRIC)):
            lines = table(best, family, columns)
            if lines:
                out += [f"### {family}: {title}, one-shot", ""] + lines + [""]
    out.append(end)
    return "\n".join(out) + "\n", 0, 0


if __name__ == "__main__":
    raise SystemExit(report_main(__doc__, "phases", make))
