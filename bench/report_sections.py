"""Pieces shared by the benchmark report scripts: the targets table and the
marked sections of docs/benchmarks.md that each script owns."""
import argparse
import json
import os
import statistics

# How a benchmark's repetitions (over all the JSON runs given) become its time.
STATISTICS = ("fastest", "median")


class ReportInputError(Exception):
    """A results file the report cannot use; the message names the file and the problem."""


def read_results(path):
    """The benchmark list and context of a Google Benchmark JSON file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise ReportInputError(f"{path}: cannot read it ({e.strerror})") from None
    except ValueError as e:
        raise ReportInputError(f"{path}: not JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ReportInputError(f"{path}: no \"benchmarks\" list (not Google Benchmark JSON output)")
    return data["benchmarks"], data.get("context", {})


def median_of_repetitions(best, times, statistic):
    """Replaces each record's "us" (its fastest run's) by the median of `times`, with
    statistic "median"; with "fastest" leaves it."""
    if statistic not in STATISTICS:
        raise ValueError(f"unknown statistic '{statistic}' (fastest or median)")
    if statistic == "median":
        for key, record in best.items():
            record["us"] = statistics.median(times[key])


def scored_runs(paths, entry, statistic="fastest"):
    """The fastest repetition of every benchmark family/size/solver over all the JSON runs
    (entry(b) makes its record, which has "us"; with statistic "median", "us" is the
    repetitions' median), and the error message of each benchmark that failed in every run."""
    best, failed, times = {}, {}, {}
    for path in paths:
        for b in read_results(path)[0]:
            if b.get("run_type") == "aggregate":
                continue
            name = b.get("run_name", b.get("name", "?"))
            parts = name.split("/")
            if len(parts) != 3 or not parts[1].isdigit():
                raise ReportInputError(f"{path}: benchmark '{name}' is not named family/size/solver "
                                       "(results of another benchmark binary?)")
            key = (parts[0], int(parts[1]), parts[2])
            if b.get("error_occurred"):
                failed[key] = b.get("error_message", "failed")
                continue
            try:
                record = entry(b)
            except KeyError as e:
                raise ReportInputError(f"{path}: benchmark '{name}' has no counter {e} "
                                       "(results of another benchmark binary?)") from None
            times.setdefault(key, []).append(record["us"])
            if key not in best or record["us"] < best[key]["us"]:
                best[key] = record
    median_of_repetitions(best, times, statistic)
    return best, {key: message for key, message in failed.items() if key not in best}


def cell(best, failed, key, fmt):
    """A table cell: fmt of the benchmark's record, "fails" if it failed in every run, "-" if it
    did not run."""
    if key in best:
        return fmt(best[key])
    return "fails" if key in failed else "-"


def time_plots(best, families, solvers, outdir, prefix, xlabel, title, title_size=None):
    """One log-log plot of us per step against size per family, one line per
    solver, from best[(family, size, solver)]["us"]; returns the PNG paths
    (none without matplotlib). xlabel and title map a family to its texts."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    os.makedirs(outdir, exist_ok=True)
    made = []
    for family in families:
        fig, ax = plt.subplots(figsize=(5, 3.6))
        for solver in solvers:
            pts = sorted((k[1], v["us"]) for k, v in best.items() if k[0] == family and k[2] == solver)
            if pts:
                ax.loglog([p[0] for p in pts], [p[1] for p in pts], marker="o", label=solver)
        if not ax.lines:
            plt.close(fig)
            continue
        ax.set_xlabel(xlabel(family))
        ax.set_ylabel("us per step")
        ax.set_title(title(family), fontsize=title_size)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        path = os.path.join(outdir, f"{prefix}-{family}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        made.append(path)
    return made


def targets_table(title, targets, value_format):
    """Markdown lines for (name, size, value, goal, op) targets, and how many are met."""
    met = sum(1 for t in targets if (t[2] >= t[3] if t[4] == ">=" else t[2] <= t[3]))
    lines = [f"### {title}: {met} of {len(targets)} met", "", "| target | size | measured | goal | met |",
             "|---|---|---|---|---|"]
    for name, n, value, goal, op in targets:
        ok = value >= goal if op == ">=" else value <= goal
        lines.append(f"| {name} | {n} | {value:{value_format}} | {op} {goal:g} | {'yes' if ok else '**no**'} |")
    return lines + [""], met


def markers(name):
    return f"<!-- {name}-benchmark:begin -->", f"<!-- {name}-benchmark:end -->"


def replace_section(path, name, text):
    """Put `text` (which starts and ends with the markers) in place of the old section, or append it."""
    begin, end = markers(name)
    old = open(path).read() if os.path.exists(path) else ""
    if begin in old and end in old:
        new = old[:old.index(begin)] + text + old[old.index(end) + len(end) + 1:]
    else:
        new = old.rstrip() + "\n\n" + text
    with open(path, "w") as f:
        f.write(new)


def kept_sections(path, names):
    """The marked sections of `path` for the given names, to carry over a rewrite."""
    if not os.path.exists(path):
        return ""
    old = open(path).read()
    kept = ""
    for name in names:
        begin, end = markers(name)
        if begin in old and end in old:
            kept += old[old.index(begin):old.index(end) + len(end)] + "\n\n"
    return kept


def section_start(name, title, command, statistic="fastest"):
    """The opening lines of a marked section: marker, heading, the command that made it and,
    unless it is the fastest, how a benchmark's repetitions were scored."""
    out = [markers(name)[0], f"## {title}", ""]
    if command:
        out += ["Command:", "", "```sh", command, "```", ""]
    if statistic != "fastest":
        out += [f"Times are the {statistic} of each benchmark's repetitions over all the runs (not the fastest).", ""]
    return out


def section_end(name, out, targets_title, targets, value_format, plot_paths, rel):
    """Closes a section with its targets table, plots and end marker: (text, targets met, targets)."""
    table, met = targets_table(targets_title, targets, value_format)
    out = out + table
    if plot_paths:
        out += [f"![{os.path.basename(p)[:-4]}]({rel(p)})" for p in plot_paths] + [""]
    out.append(markers(name)[1])
    return "\n".join(out) + "\n", met, len(targets)


def report_arguments(doc):
    """The command line every benchmark report takes: results JSON (and --also further runs),
    output document, plot directory, the command that made the results, and --print."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results")
    parser.add_argument("--also", action="append", default=[],
                        help="a further JSON run of the same benchmark (repeatable): every benchmark's fastest "
                             "run over all files is reported")
    parser.add_argument("--statistic", choices=STATISTICS, default="fastest",
                        help="a benchmark's time over its repetitions in all files: the fastest (default) or "
                             "their median")
    parser.add_argument("--out")
    parser.add_argument("--plots")
    parser.add_argument("--command", default="",
                        help="the exact command that produced the results; required with --out, because "
                             "a report that cannot be reproduced is not worth committing")
    parser.add_argument("--print", action="store_true", help="print the report to stdout")
    return parser


def parse_report_arguments(parser):
    """Parses the command line; a report written to a document must name its command."""
    args = parser.parse_args()
    if args.out and not args.command.strip():
        parser.error(f"--out {args.out} needs --command with the exact command that produced {args.results}")
    return args


def report_main(doc, name, make):
    """Command line of a section report. make(result paths, plots_dir or None, rel, command, statistic)
    returns (text, targets met, targets); rel turns a plot path into a link relative to the document."""
    parser = report_arguments(doc)
    args = parse_report_arguments(parser)
    base = os.path.dirname(os.path.abspath(args.out)) if args.out else os.getcwd()
    try:
        text, met, total = make([args.results] + args.also, args.plots if args.plots and args.out else None,
                                lambda p: os.path.relpath(p, base), args.command, args.statistic)
    except ReportInputError as e:
        parser.exit(2, f"{parser.prog}: error: {e}\n")
    if args.print:
        print(text)
    if args.out:
        replace_section(args.out, name, text)
    if total:
        print(f"{name} targets met: {met} of {total}")
    return 0
