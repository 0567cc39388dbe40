"""Pieces shared by the benchmark report scripts: the targets table and the
marked sections of docs/benchmarks.md that each script owns."""
import os


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
