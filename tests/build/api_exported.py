#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""api_exported.py LIBRARY INCLUDE_DIR: every function the public headers declare (include/*/*.h, at file scope,
comments aside) is named hcl_... and exported by the shared library (but those defined static inline there), and the library exports nothing else but hcl_
and HCL_ names (src/hydrocl.map): a function added to a header without the prefix, or left out of the library,
fails here before a user's program fails to link. TAP."""
import glob
import os
import re
import subprocess
import sys

DECLARED = re.compile(r"(?:^|[;}])\s*(?:static\s+inline\s+|extern\s+)?(?!typedef)[A-Za-z_][\w\s\*]*?\b([a-z]\w*)\s*\(")
NOT_NAMES = {"sizeof", "if", "for", "while", "return", "defined", "void", "cl_int"}


def declared_functions(include_dir):
    """The functions the headers declare, and those of them defined static inline there (not exported)."""
    names, inline = set(), set()
    for header in glob.glob(os.path.join(include_dir, "**", "*.h"), recursive=True):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(header).read(), flags=re.S)
        text = re.sub(r"^\s*#.*(?:\\\n.*)*$", "", text, flags=re.M)  # preprocessor lines
        depth, top = 0, []
        for ch in text:  # file scope only: no struct members, no bodies
            depth += ch == "{"
            if depth == 0:
                top.append(ch)
            depth -= ch == "}"
        found = {m.group(1): m.group(0) for m in DECLARED.finditer("".join(top))}
        names |= set(found) - NOT_NAMES
        inline |= {name for name, declaration in found.items() if "inline" in declaration}
    return names, inline


def main(library, include_dir):
    exported = set(subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True,
                                  text=True).stdout.split()[2::3])
    declared, inline = declared_functions(include_dir)
    checks = [
        ("the headers declare functions", len(declared) > 100, f"{len(declared)} found"),
        ("every declared function is named hcl_", all(n.startswith("hcl_") for n in declared),
         sorted(n for n in declared if not n.startswith("hcl_"))),
        ("the library exports every declared function but the inline ones", declared - inline <= exported,
         sorted(declared - inline - exported)),
        ("the library exports hcl_ and HCL_ names alone", all(n.startswith(("hcl_", "HCL_")) for n in exported),
         sorted(n for n in exported if not n.startswith(("hcl_", "HCL_")))[:20]),
    ]
    for number, (what, passed, detail) in enumerate(checks, 1):
        print(("ok" if passed else "not ok"), number, "-", what)
        if not passed:
            print("#", detail)
    print(f"1..{len(checks)}")
    return 0 if all(passed for _, passed, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
