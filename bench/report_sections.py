"""Pieces shared by the benchmark report scripts: the targets table and the
marked sections of docs/benchmarks.md that each script owns."""
import os


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
