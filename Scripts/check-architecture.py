#!/usr/bin/env python3
"""ARCHITECTURE.md's module table against Package.swift: the same modules, and each module's imports of ours.

    Scripts/check-architecture.py [REPOSITORY_ROOT]      (default: the repository this script is in)

The modules of the table are the backticked names in the first column of the table under "## Modules" (a cell may
name two, "`ServerTrust` / `ServerTrustNIO`"). The modules of the package are its `.target(name: …)` and
`.executableTarget(name: …)` declarations, except those whose `path:` is under `Tests/` or `Examples/` (test
fixtures, examples); `.testTarget`s are never modules. The two sets must be equal.

For each module of the table, the "imports (of ours)" column must list exactly the module's dependencies that are
targets of this package (`"AppStorePKI"`, `.target(name: "AppStorePKI")` or `.byName(name: "AppStorePKI")` in its
`dependencies: [ … ]`); products of other packages are not ours and are not listed. In a cell, only backticked names
outside parentheses count — "`AppStoreJWS`, `_ReceiptKitShared` (never `ReceiptKit`)" lists two — and a cell with
none ("—", "— (swift-crypto only)") lists none. A row naming two modules writes its imports "a / b", one side each.
"every library above" (the CLI's row) is a wildcard: that row's imports are not checked.

Each module must have a test target, `<Module>Tests` (a leading underscore dropped; the CLI's is `ReceiptKitCLITests`),
that depends on it.

Exits 0 and prints one line when everything matches; 1 with one line per mismatch; 2 when a file cannot be read or
parsed (no table, a dependency list that is not a literal array).
"""
import os
import re
import sys

WILDCARD = "every library above"
MODULE_KINDS = ("target", "executableTarget")
# Every declaration kind, so that a declaration is skipped whole (its `.target(name:)` dependencies are not
# declarations) and every target of ours is known when dependencies are sorted into ours and other packages'.
DECLARATION = re.compile(r"\.(target|executableTarget|testTarget|macro|plugin|binaryTarget|systemLibrary)\s*\(")
EXCLUDED_PATHS = ("Tests", "Examples")
# A module's test target is its name without a leading underscore and "Tests", except these.
TEST_TARGET_NAMES = {"receiptkit": "ReceiptKitCLITests"}


class CannotCheck(Exception):
    pass


# --- ARCHITECTURE.md -------------------------------------------------------------------------------------------


def split_row(line: str) -> list:
    """The cells of a Markdown table row; a `|` inside a code span or escaped as `\\|` does not split."""
    cells, cell, in_code, i = [], [], False, 0
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] == "|":
            cell.append("|")
            i += 2
            continue
        if c == "`":
            in_code = not in_code
        if c == "|" and not in_code:
            cells.append("".join(cell).strip())
            cell = []
        else:
            cell.append(c)
        i += 1
    cells.append("".join(cell).strip())
    return cells


def cell_groups(cell: str) -> list:
    """The backticked names of a cell outside parentheses, in groups separated by " / " (outside code spans and
    parentheses). Parentheses are counted in plain text only, so a code span may hold any character; text after an
    unclosed "(" is parenthetical to the end of the cell."""
    groups, names = [], []
    depth, i = 0, 0
    while i < len(cell):
        c = cell[i]
        if c == "`":
            end = cell.find("`", i + 1)
            if end < 0:
                end = len(cell)
            if depth == 0:
                names.append(cell[i + 1:end].strip())
            i = end + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            if cell.startswith(" / ", i):
                groups.append(names)
                names = []
                i += 3
                continue
        i += 1
    groups.append(names)
    return groups


def plain_text(cell: str) -> str:
    """The cell without code spans and parenthesised text, lowercased and with runs of space made one."""
    text = re.sub(r"`[^`]*`", " ", cell)
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"\([^()]*\)", " ", text)
    return " ".join(text.lower().split())


def read_table(path: str):
    """[(line number, [module names], imports cell)] of the table under "## Modules"."""
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError as error:
        raise CannotCheck(f"{path}: {error.strerror}")
    start = next((n for n, line in enumerate(lines) if re.fullmatch(r"##\s+Modules\s*", line.strip())), None)
    if start is None:
        raise CannotCheck(f"{path}: no '## Modules' section")
    rows = []
    n = start + 1
    while n < len(lines) and not lines[n].lstrip().startswith("|"):
        if lines[n].startswith("#"):
            raise CannotCheck(f"{path}: no table under '## Modules'")
        n += 1
    table = []
    while n < len(lines) and lines[n].lstrip().startswith("|"):
        table.append((n + 1, lines[n]))
        n += 1
    if len(table) < 3:
        raise CannotCheck(f"{path}: the table under '## Modules' has no rows")
    header = [cell.lower() for cell in split_row(table[0][1])]
    imports_column = next((k for k, cell in enumerate(header) if cell.startswith("imports")), None)
    if imports_column is None:
        raise CannotCheck(f"{path}:{table[0][0]}: no 'imports (of ours)' column in the module table")
    if not all(re.fullmatch(r":?-+:?", cell.strip()) for cell in split_row(table[1][1])):
        raise CannotCheck(f"{path}:{table[1][0]}: the module table's second line is not a separator row")
    for number, line in table[2:]:
        cells = split_row(line)
        if len(cells) <= imports_column:
            raise CannotCheck(f"{path}:{number}: a module row with {len(cells)} cells")
        modules = [name for group in cell_groups(cells[0]) for name in group]
        if not modules:
            raise CannotCheck(f"{path}:{number}: no backticked target name in the first column")
        rows.append((number, modules, cells[imports_column]))
    return rows


# --- Package.swift ---------------------------------------------------------------------------------------------


def scan_swift(source: str):
    """(masked, strings): the source with comments blanked and string literals' contents replaced by spaces (the
    quotes kept, offsets unchanged), and {offset of an opening quote: the literal's value}."""
    masked = list(source)
    strings = {}
    i, n = 0, len(source)

    def blank(a, b):
        for k in range(a, b):
            if masked[k] != "\n":
                masked[k] = " "

    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif source.startswith("/*", i):
            depth, k = 1, i + 2
            while k < n and depth:
                if source.startswith("/*", k):
                    depth, k = depth + 1, k + 2
                elif source.startswith("*/", k):
                    depth, k = depth - 1, k + 2
                else:
                    k += 1
            blank(i, k)
            i = k
        elif source[i] == '"' or (source[i] == "#" and re.match(r'#+"', source[i:])):
            hashes = len(source[i:]) - len(source[i:].lstrip("#"))
            start = i + hashes
            multiline = source.startswith('"""', start)
            quote = '"""' if multiline else '"'
            close = quote + "#" * hashes
            k = start + len(quote)
            while k < n and not source.startswith(close, k):
                if source[k] == "\\" and hashes == 0:
                    k += 1
                elif source[k] == "\n" and not multiline:
                    raise CannotCheck(f"Package.swift: unterminated string at offset {i}")
                k += 1
            if k >= n:
                raise CannotCheck(f"Package.swift: unterminated string at offset {i}")
            strings[start] = source[start + len(quote):k]
            blank(start + len(quote), k)
            i = k + len(close)
        else:
            i += 1
    return "".join(masked), strings


def closing(masked: str, open_at: int) -> int:
    """The offset of the bracket that closes the one at `open_at` (strings and comments are masked already)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for k in range(open_at, len(masked)):
        c = masked[k]
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise CannotCheck(f"Package.swift: unbalanced '{c}' at offset {k}")
            if not stack:
                return k
    raise CannotCheck(f"Package.swift: unclosed bracket at offset {open_at}")


def top_level(masked: str, start: int, end: int):
    """The parts of masked[start:end] separated by commas at bracket depth 0, as (start, end) offsets."""
    parts, depth, part_start = [], 0, start
    for k in range(start, end):
        c = masked[k]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append((part_start, k))
            part_start = k + 1
    if masked[part_start:end].strip():
        parts.append((part_start, end))
    return parts


def first_string(masked: str, strings: dict, start: int, end: int):
    k = masked.find('"', start, end)
    while k >= 0 and k not in strings:
        k = masked.find('"', k + 1, end)
    return None if k < 0 else strings[k]


def labelled(masked: str, strings: dict, start: int, end: int) -> dict:
    """{label: (start, end)} of a call's arguments at its top level."""
    arguments = {}
    for a, b in top_level(masked, start, end):
        match = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*:", masked[a:b])
        if match:
            arguments[match.group(1)] = (a + match.end(), b)
    return arguments


def read_package(path: str):
    """{target name: (kind, path or None, [names of string and .target/.byName dependencies])}."""
    try:
        source = open(path, encoding="utf-8").read()
    except OSError as error:
        raise CannotCheck(f"{path}: {error.strerror}")
    masked, strings = scan_swift(source)
    targets = {}
    position = 0
    while True:
        match = DECLARATION.search(masked, position)
        if not match:
            break
        kind = match.group(1)
        open_at = match.end() - 1
        close_at = closing(masked, open_at)
        arguments = labelled(masked, strings, open_at + 1, close_at)
        if "name" not in arguments:
            raise CannotCheck(f"{path}: a .{kind} without a name at offset {match.start()}")
        name = first_string(masked, strings, *arguments["name"])
        if name is None:
            raise CannotCheck(f"{path}: a .{kind} whose name is not a string literal at offset {match.start()}")
        target_path = first_string(masked, strings, *arguments["path"]) if "path" in arguments else None
        dependencies = []
        if "dependencies" in arguments:
            a, b = arguments["dependencies"]
            bracket = masked.find("[", a, b)
            if bracket < 0 or masked[a:bracket].strip():
                raise CannotCheck(f"{path}: the dependencies of {name} are not a literal array")
            for c, d in top_level(masked, bracket + 1, closing(masked, bracket)):
                element = masked[c:d].strip()
                if element.startswith('"'):
                    dependencies.append(first_string(masked, strings, c, d))
                elif re.match(r"\.(target|byName)\s*\(", element):
                    inner = labelled(masked, strings, masked.find("(", c) + 1, d)
                    if "name" in inner:
                        dependencies.append(first_string(masked, strings, *inner["name"]))
                elif not re.match(r"\.product\s*\(", element):
                    raise CannotCheck(f"{path}: a dependency of {name} that is not a literal: {element}")
        if name in targets:
            raise CannotCheck(f"{path}: two targets named {name}")
        targets[name] = (kind, target_path, dependencies)
        position = close_at + 1
    if not targets:
        raise CannotCheck(f"{path}: no targets")
    return targets


def is_module(kind: str, target_path) -> bool:
    if kind not in MODULE_KINDS:
        return False
    if target_path is None:
        return True
    parts = [part for part in target_path.split("/") if part not in ("", ".")]
    return not parts or parts[0] not in EXCLUDED_PATHS


# --- The check -------------------------------------------------------------------------------------------------


def names(items) -> str:
    return ", ".join(sorted(items))


def check(root: str):
    """(problems, summary)."""
    architecture = os.path.join(root, "ARCHITECTURE.md")
    rows = read_table(architecture)
    targets = read_package(os.path.join(root, "Package.swift"))
    modules = {name for name, (kind, path, _) in targets.items() if is_module(kind, path)}
    problems = []

    listed = {}
    for number, row_modules, _ in rows:
        for module in row_modules:
            if module in listed:
                problems.append(
                    f"ARCHITECTURE.md:{number}: `{module}` is listed again (first on line {listed[module]})"
                )
            else:
                listed[module] = number
    only_in_table, only_in_package = set(listed) - modules, modules - set(listed)
    if only_in_table:
        problems.append(f"in ARCHITECTURE.md's module table, not a module of Package.swift: {names(only_in_table)}")
    if only_in_package:
        problems.append(f"a module of Package.swift not in ARCHITECTURE.md's module table: {names(only_in_package)}")

    checked, wildcards = 0, 0
    for number, row_modules, cell in rows:
        groups = cell_groups(cell)
        if not any(groups) and WILDCARD in plain_text(cell):
            wildcards += 1
            continue
        if len(row_modules) > 1 and len(groups) == 1 and not groups[0]:
            groups = [[] for _ in row_modules]  # "—" for every module of the row
        if len(groups) != len(row_modules):
            problems.append(
                f"ARCHITECTURE.md:{number}: {len(row_modules)} module(s) ({names(row_modules)}) but "
                f"{len(groups)} imports part(s) separated by ' / ': {cell!r}"
            )
            continue
        for module, group in zip(row_modules, groups):
            if module not in targets:
                continue  # reported above
            expected = {dependency for dependency in targets[module][2] if dependency in targets}
            written = set(group)
            if len(group) != len(written):
                problems.append(f"ARCHITECTURE.md:{number}: `{module}`'s imports name a module twice")
            if expected - written:
                problems.append(
                    f"ARCHITECTURE.md:{number}: `{module}` depends on {names(expected - written)} (Package.swift), "
                    "not in its imports column"
                )
            if written - expected:
                problems.append(
                    f"ARCHITECTURE.md:{number}: `{module}`'s imports column names {names(written - expected)}, "
                    "not among its dependencies of ours in Package.swift"
                )
            checked += 1
    # One test target per module, named for it, that depends on it.
    for module in sorted(modules):
        expected_test = TEST_TARGET_NAMES.get(module, module.lstrip("_") + "Tests")
        test = targets.get(expected_test)
        if test is None or test[0] != "testTarget":
            problems.append(f"the module {module} has no test target {expected_test} in Package.swift")
        elif module not in test[2]:
            problems.append(f"the test target {expected_test} does not depend on {module}")
    summary = (
        f"check-architecture: OK: ARCHITECTURE.md's module table names the {len(modules)} modules of Package.swift, "
        f"and the imports of {checked} match their dependencies ({wildcards} wildcard row(s) not checked); "
        f"each module has its test target"
    )
    return problems, summary


def main() -> int:
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help")):
        print(__doc__.strip().split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        problems, summary = check(root)
    except CannotCheck as error:
        print(f"check-architecture: cannot check: {error}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems:
            print(f"check-architecture: {problem}")
        print(f"check-architecture: FAIL: {len(problems)} mismatch(es) between ARCHITECTURE.md and Package.swift")
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
