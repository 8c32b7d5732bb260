#!/usr/bin/env python3
"""The grader's layering, or the simulator's, checked on the sources.

The build already refuses an upward include (each area sees only its own headers and
those of the areas it declares, grader/CMakeLists.txt or sim/CMakeLists.txt). This check
says the rest, in words a reviewer can act on:
  - every folder of the sources (--src) is a declared area;
  - an area includes only itself and areas below it (what it declares, and theirs);
  - no include climbs out with "..", which the compiler would resolve from the file;
  - each declared area is used by a direct include (a stale declaration draws a
    false graph);
  - the graph of areas is acyclic;
  - docs/architecture.md draws exactly the declared graph (--doc), in the first mermaid
    block after the marker comment (--marker: grader-layers, sim-layers);
  - the unit tests mirror the areas (--tests tests/unit): a test that includes grader
    headers sits in tests/unit/<area>/, tests a unit of that area (includes one of its
    headers) and, like the area, includes only the areas below it.
Exit 0 when all hold, 1 with one line per problem otherwise.
"""
import argparse
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
DOC_BEGIN = "```mermaid"


def read_areas(path):
    """grader_areas.txt, written by grader/CMakeLists.txt: 'area: dep dep', in order."""
    areas = {}
    for n, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        if not line.strip():
            continue
        name, sep, deps = line.partition(":")
        if not sep:
            sys.exit(f"{path}:{n}: expected 'area: deps', got {line!r}")
        areas[name.strip()] = deps.split()
    return areas


def closure(areas, area, seen=None):
    """The areas `area` may include: itself and everything below it."""
    seen = set() if seen is None else seen
    if area in seen:
        return seen
    seen.add(area)
    for dep in areas.get(area, []):
        closure(areas, dep, seen)
    return seen


def find_cycle(graph):
    """One cycle of `graph` as a list of nodes, or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def mermaid(areas):
    """The graph to draw: each area's arrows less those another arrow already implies
    (cli -> result goes without saying once cli -> grading -> ... -> result is drawn)."""
    lines = ["graph BT"]
    for area, deps in areas.items():
        if not deps:
            lines.append(f"  {area}")
        for dep in deps:
            implied = any(dep in closure(areas, other) for other in deps if other != dep)
            if not implied:
                lines.append(f"  {area} --> {dep}")
    return lines


def doc_graph(doc, marker="grader-layers"):
    """The lines of the first mermaid block after the marker comment."""
    text = pathlib.Path(doc).read_text().splitlines()
    try:
        start = next(i for i, l in enumerate(text) if f"<!-- {marker} -->" in l)
        begin = next(i for i in range(start, len(text)) if text[i].strip() == DOC_BEGIN)
        end = next(i for i in range(begin + 1, len(text)) if text[i].strip() == "```")
    except StopIteration:
        return None
    return [l.rstrip() for l in text[begin + 1:end]]


def check(src, areas, doc, marker="grader-layers", build_file="grader/CMakeLists.txt"):
    problems = []
    src = pathlib.Path(src)
    for folder in sorted(p for p in src.iterdir() if p.is_dir()):
        if folder.name not in areas:
            problems.append(f"{folder}: folder is not a declared area "
                            f"(declare it in {build_file})")
    used = {area: set() for area in areas}
    for area in areas:
        allowed = closure(areas, area)
        folder = src / area
        if not folder.is_dir():
            problems.append(f"{folder}: declared area has no folder")
            continue
        for file in sorted(folder.iterdir()):
            if file.suffix not in (".hpp", ".cpp", ".h", ".cuh", ".inc"):
                continue
            for n, line in enumerate(file.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"{file}:{n}"
                if ".." in pathlib.PurePosixPath(target).parts or target.startswith("/"):
                    problems.append(f"{where}: include '{target}' leaves the area's view; "
                                    "name the area: #include \"<area>/<file>\"")
                    continue
                top = target.split("/", 1)[0] if "/" in target else None
                if top is None or top not in areas:
                    continue  # same folder, or another library's header (parlab/...)
                if top != area:
                    used[area].add(top)
                if top not in allowed:
                    below = ", ".join(sorted(allowed - {area})) or "nothing"
                    problems.append(f"{where}: area '{area}' includes '{target}' from "
                                    f"'{top}', which is not below it (it may include: "
                                    f"{below}; {build_file} declares the layers)")
    for area, deps in areas.items():
        for dep in deps:
            if dep not in used[area]:
                problems.append(f"area '{area}' declares '{dep}' but includes none of its "
                                f"headers: drop it from {build_file}")
    cycle = find_cycle({a: set(d) for a, d in areas.items()}) or find_cycle(used)
    if cycle:
        problems.append("the areas form a cycle: " + " -> ".join(cycle))
    if doc:
        drawn = doc_graph(doc, marker)
        want = mermaid(areas)
        if drawn is None:
            problems.append(f"{doc}: no mermaid graph after '<!-- {marker} -->'")
        elif drawn != want:
            problems.append(f"{doc}: the library graph after '<!-- {marker} -->' is out of date; it should "
                            "read:\n" + "\n".join([DOC_BEGIN] + want + ["```"]))
    return problems


def grader_includes(file, areas):
    """(line number, area, target) of each include of a grader area's header."""
    found = []
    for n, line in enumerate(file.read_text(errors="replace").splitlines(), 1):
        m = INCLUDE.match(line)
        if m and "/" in m.group(1) and m.group(1).split("/", 1)[0] in areas:
            found.append((n, m.group(1).split("/", 1)[0], m.group(1)))
    return found


def check_tests(tests, areas, other_libraries=()):
    """tests/unit/<area>/<unit>_test.cpp: each grader test in its unit's area. Folders in
    `other_libraries` test another layered library (the simulator's, whose area names
    'report' and 'config' the grader's share) and are left out."""
    problems = []
    order = list(areas)
    for file in sorted(pathlib.Path(tests).rglob("*")):
        if file.suffix not in (".hpp", ".cpp") or not file.is_file():
            continue
        folder = file.relative_to(tests).parts[0]
        if folder in other_libraries:
            continue
        found = grader_includes(file, areas)
        if not found:
            continue  # not a grader test (harness, sim, the labs' references)
        tested = {area for _, area, _ in found}
        # The highest area it includes is where a test of these units belongs.
        home = max(tested, key=order.index)
        if folder not in areas:
            problems.append(f"{file}: tests the grader's '{home}' area from tests/unit/"
                            f"{folder}/, which is no grader area: move it to tests/unit/{home}/")
            continue
        allowed = closure(areas, folder)
        for n, area, target in found:
            if area not in allowed:
                problems.append(f"{file}:{n}: a test in tests/unit/{folder}/ includes "
                                f"'{target}' from '{area}', which is not below '{folder}': "
                                f"move it to tests/unit/{home}/")
        if file.name.endswith("_test.cpp") and folder not in tested and tested <= allowed:
            problems.append(f"{file}: tests no unit of '{folder}' (it includes "
                            f"{', '.join(sorted(tested))}): move it to tests/unit/{home}/")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", required=True, help="grader/src or sim/src")
    ap.add_argument("--areas", required=True, help="the build's grader/grader_areas.txt or sim/sim_areas.txt")
    ap.add_argument("--marker", default="grader-layers", help="the comment before the graph in --doc")
    ap.add_argument("--build-file", default="grader/CMakeLists.txt", help="where the areas are declared")
    ap.add_argument("--doc", help="docs/architecture.md, whose graph must match")
    ap.add_argument("--tests", help="tests/unit, whose grader tests must mirror the areas")
    ap.add_argument("--other-tests", nargs="*", default=[],
                    help="folders of --tests that test another library (sim)")
    ap.add_argument("--print-graph", action="store_true", help="print the mermaid graph")
    args = ap.parse_args()
    areas = read_areas(args.areas)
    if args.print_graph:
        print("\n".join([DOC_BEGIN] + mermaid(areas) + ["```"]))
        return 0
    problems = check(args.src, areas, args.doc, args.marker, args.build_file)
    if args.tests:
        problems += check_tests(args.tests, areas, set(args.other_tests))
    for p in problems:
        print(f"layering: {p}")
    if not problems:
        print(f"layering: {len(areas)} areas of {args.src}, every include goes down, no cycle")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
