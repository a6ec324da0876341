#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the test blocks of Octave's image package (and of Octave's own
m-files and C++ test files) for the functions OpenIPT shadows, with the
shadow folder first on Octave's path, and reports per function and per block.

    run_image_package_tests.py --shadow DIR [--shadow DIR2 ...]
        [--functions NAME ...] [--catalogue api/include/ipt/ipt_ops.h]
        [--baseline auto|none|FILE.json] [--known-differences FILE.md]
        [--json OUT.json] [--markdown OUT.md] [--timeout S] [-j N]

Each function's test file runs in its own octave-cli process under Octave's
`test (file, "normal", logfile)`, which evaluates every block with the
current path (so calls inside the blocks reach the shadow folder) and, given
a log file, writes each block before its result; the runner splits the file
into blocks the way test.m does and reads the log block by block. A process
that runs past --timeout is killed: the block it was in fails as a timeout.

Block statuses: passed, failed, skipped (with Octave's reason), xfail (an
%!xtest or a block with a bug id that Octave itself expects to fail),
documented-difference (listed in the known-differences file: Octave's block
asserts something MATLAB's documentation contradicts), baseline-failure
(fails with Octave's own functions too, without the shadow folder),
error-text-differs (an %!error block got the error it expects, with another
message or identifier than Octave's), not-reached (the process died or timed out before it). The exit status is 1
when any block is failed or not-reached, else 0.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TEST_TYPES = {"test", "assert", "fail", "error", "warning", "testif", "xtest"}
BAD = ("failed", "not-reached")


def octave_cmd(octave, code):
    return [octave, "--norc", "--no-history", "--quiet", "--no-window-system", "--eval", code]


def run_octave(octave, code, timeout, env=None):
    """Runs code in a new octave-cli process group; kills the group on timeout."""
    proc = subprocess.Popen(octave_cmd(octave, code), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            start_new_session=True, env=env)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return proc.returncode, out, True


def octave_string(s):
    return "'" + s.replace("'", "''") + "'"


def resolve_sources(octave, names, timeout):
    """Finds, without any shadow folder, the file holding each function's
    test blocks: its .m file, the .cc-tst beside an .oct file, or for a
    built-in the .cc-tst that Octave installs in its tests directory."""
    code = ["pkg load image;", "tdir = __octave_config_info__ ('octtestsdir');"]
    for n in names:
        code.append(
            "s = __which__ (%s); printf ('IPT_WHICH\\t%%s\\t%%s\\t%%s\\t%%s\\n', %s, s.type, s.file, tdir);"
            % (octave_string(n), octave_string(n)))
    rc, out, timed_out = run_octave(octave, "\n".join(code), timeout)
    if rc != 0 or timed_out:
        sys.exit("run_image_package_tests: octave-cli could not locate the functions "
                 "(is the image package installed? `pkg load image` must work):\n" + out)
    found = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 5 and parts[0] == "IPT_WHICH":
            found[parts[1]] = (parts[2], parts[3], parts[4])
    sources = {}
    for n in names:
        ftype, path, tdir = found.get(n, ("", "", ""))
        if not path:
            sources[n] = (None, "Octave 7 and its image package have no %s" % n)
        elif path.endswith(".m"):
            sources[n] = (path, None)
        elif path.endswith(".oct") or path.endswith(".mex"):
            tst = os.path.splitext(path)[0] + ".cc-tst"
            if os.path.exists(tst):
                sources[n] = (tst, None)
            else:
                sources[n] = (None, "compiled function (%s); its C++ test file is not installed"
                              % os.path.basename(path))
        elif "built-in" in ftype:
            tst = os.path.join(tdir, os.path.splitext(path)[0] + ".cc-tst")
            if os.path.exists(tst):
                sources[n] = (tst, None)
            else:
                sources[n] = (None, "built-in function (%s); its tests are in Octave's C++ "
                              "sources, which are not installed" % path)
        else:
            sources[n] = (None, "no test file for %s (%s %s)" % (n, ftype, path))
    return sources


def split_blocks(path):
    """The blocks of a test file, as test.m cuts them: the text of the lines
    that start with %!, cut where a line starts with a non-blank."""
    body = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for ln in f:
            if ln.startswith("%!"):
                body += ln[2:]
    if not body:
        return []
    body = "\n" + body + ("#" if body.endswith("\n") else "\n#")
    starts = [i + 1 for i, c in enumerate(body) if c == "\n" and i + 1 < len(body)
              and not body[i + 1].isspace()]
    blocks = []
    for a, b in zip(starts, starts[1:]):
        text = body[a:b - 1]
        m = re.match(r"[A-Za-z]*", text)
        btype = m.group(0) if m.group(0) else text[:1]
        blocks.append({"type": btype, "text": text})
    return blocks


def is_test_block(b):
    return b["type"] in TEST_TYPES or (b["type"] not in
                                       {"shared", "function", "endfunction", "demo", "#", "%"})


def read_log(blocks, log, died_reason):
    """Assigns each block its status from the log test.m wrote."""
    pos = 0
    marks = []
    for b in blocks:
        key = "***** " + b["text"] + "\n"
        at = log.find(key, pos)
        marks.append(at)
        if at >= 0:
            pos = at + len(key)
    for i, b in enumerate(blocks):
        if marks[i] < 0:
            b["status"] = "not-reached"
            b["message"] = died_reason
            continue
        start = marks[i] + len("***** " + b["text"] + "\n")
        nxt = [m for m in marks[i + 1:] if m >= 0]
        end = nxt[0] if nxt else len(log)
        msg = log[start:end].rstrip("\n")
        if not nxt and died_reason and i == max(j for j, m in enumerate(marks) if m >= 0) \
                and not msg.startswith(("!!!!! ", "----- ")):
            # The last block written and the process died or hung in it.
            b["status"] = "failed"
            b["message"] = died_reason + ("\n" + msg if msg else "")
            continue
        b["message"] = msg
        if msg.startswith("----- "):
            b["status"] = "skipped"
        elif msg.startswith("!!!!! known failure") or msg.startswith("!!!!! known bug"):
            b["status"] = "xfail"
        elif b["type"] == "error" and msg.startswith("!!!!! error failed.") \
                and ", but got <" in msg:
            # The error the block expects came, with another text or id:
            # OpenIPT's errors carry MATLAB-style identifiers and the
            # library's messages, not Octave's wording.
            b["status"] = "error-text-differs"
        elif msg.startswith("!!!!! "):
            b["status"] = "failed"
        else:
            b["status"] = "passed" if is_test_block(b) else "ok"
    return blocks


RUN_TEMPLATE = r"""
pkg load image;
shadow = {%(shadow)s};
if (! isempty (shadow))
  addpath (shadow{:}, '-begin');
endif
names = {%(names)s};
for i = 1:numel (names)
  printf ('IPT_RESOLVES\t%%s\t%%s\n', names{i}, which (names{i}));
endfor
[n, nmax, nxfail, nbug, nskip, nrtskip, nreg] = test (%(file)s, 'normal', %(log)s);
printf ('IPT_COUNTS\t%%d\t%%d\t%%d\t%%d\t%%d\t%%d\t%%d\n', n, nmax, nxfail, nbug, nskip, nrtskip, nreg);
"""


def run_file(octave, path, names, shadow, timeout, env):
    """Runs one test file; returns its blocks with their status."""
    blocks = split_blocks(path)
    with tempfile.TemporaryDirectory(prefix="ipt-octave-") as tmp:
        logpath = os.path.join(tmp, "test.log")
        code = RUN_TEMPLATE % {
            "shadow": ", ".join(octave_string(os.path.abspath(s)) for s in shadow),
            "names": ", ".join(octave_string(n) for n in names),
            "file": octave_string(path), "log": octave_string(logpath)}
        rc, out, timed_out = run_octave(octave, code, timeout, env)
        log = ""
        if os.path.exists(logpath):
            with open(logpath, encoding="utf-8", errors="replace") as f:
                log = f.read()
    counts = None
    resolves = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0] == "IPT_COUNTS" and len(parts) == 8:
            counts = [int(x) for x in parts[1:]]
        elif parts[0] == "IPT_RESOLVES" and len(parts) == 3:
            resolves[parts[1]] = parts[2]
    died = None
    if timed_out:
        died = "timeout: killed after %g s" % timeout
    elif counts is None:
        died = "octave-cli exited with status %s before the file finished:\n%s" % (
            rc, "\n".join(out.splitlines()[-20:]))
    read_log(blocks, log, died)
    return {"blocks": blocks, "octave_counts": counts, "resolves": resolves,
            "died": died, "output_tail": "\n".join(out.splitlines()[-30:])}


def parse_known_differences(path):
    """Entries of the known-differences file: '### title' followed by
    '- key: value' lines (function, block, octave, matlab, evidence, page)."""
    entries = []
    cur = None
    with open(path, encoding="utf-8") as f:
        for ln in f:
            if ln.startswith("### "):
                cur = {"title": ln[4:].strip()}
                entries.append(cur)
            elif cur is not None:
                m = re.match(r"^- (function|block|octave|matlab|evidence|page):\s*(.*)$", ln.rstrip("\n"))
                if m:
                    val = m.group(2).strip()
                    if m.group(1) == "block":
                        if val.startswith("`") and val.endswith("`"):
                            val = val[1:-1]
                        val = val[2:] if val.startswith("%!") else val
                        cur.setdefault("blocks", []).append(val.strip())
                    else:
                        cur[m.group(1)] = val
    for e in entries:
        missing = [k for k in ("function", "blocks", "matlab", "page") if k not in e]
        if missing:
            sys.exit("run_image_package_tests: %s: entry '%s' lacks %s"
                     % (path, e["title"], ", ".join(missing)))
    return entries


def block_matches(block, line):
    return any(l.strip() == line for l in block["text"].split("\n"))


def catalogue_names(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return sorted(set(re.findall(r'IPT_SCHEMA\(\s*"[^"]*",\s*"([^"]*)"', text)))


def shadow_names(dirs):
    names = set()
    for d in dirs:
        for e in os.listdir(d):
            if e.endswith(".m") and os.path.isfile(os.path.join(d, e)):
                names.add(e[:-2])
            elif e.startswith("@") and os.path.isdir(os.path.join(d, e)):
                names.add(e[1:])
    return sorted(names)


def run_all(octave, names, shadow, timeout, jobs, env):
    sources = resolve_sources(octave, names, timeout)
    by_file = {}
    for n in names:
        path, _ = sources[n]
        if path:
            by_file.setdefault(path, []).append(n)
    # A file shared by several functions (imerode.cc-tst holds imdilate's
    # blocks too) is counted under the function it is named after.
    for path, ns in by_file.items():
        stem = os.path.basename(path).split(".")[0]
        ns.sort(key=lambda m: m != stem)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(run_file, octave, p, ns, shadow, timeout, env): p
                for p, ns in by_file.items()}
        for fu in concurrent.futures.as_completed(futs):
            results[futs[fu]] = fu.result()
    return sources, by_file, results


def summarize(names, sources, by_file, results, shadow, baseline, known):
    functions = []
    stale = []
    for e in known:
        e["matched"] = 0
    for n in names:
        path, why = sources[n]
        f = {"function": n, "test_file": path, "blocks": 0, "passed": 0, "failed": 0,
             "documented_difference": 0, "baseline_failure": 0, "error_text_differs": 0, "xfail": 0,
             "skipped": 0, "not_reached": 0, "notes": [], "block_results": []}
        functions.append(f)
        if not path:
            f["notes"].append("skipped: " + why)
            continue
        first = by_file[path][0]
        if first != n:
            f["notes"].append("same test file as %s (counted there)" % first)
            continue
        r = results[path]
        if r["died"]:
            f["notes"].append(r["died"].split("\n")[0])
        if shadow:
            for m in by_file[path]:
                where = r["resolves"].get(m, "")
                if not any(where.startswith(os.path.abspath(s)) for s in shadow):
                    f["notes"].append("%s resolves to %s, not the shadow folder" % (m, where or "nothing"))
        # Entries name a function; blocks of a file shared by several
        # functions (bwlabeln.cc-tst holds bwlabel's) match any of them.
        group = set(by_file[path]) | {os.path.basename(path).split(".")[0]}
        c = r["octave_counts"]
        if c is not None:
            ours = [sum(b["status"] == "passed" for b in r["blocks"]),
                    sum(is_test_block(b) and b["status"] != "skipped" for b in r["blocks"])]
            if ours != c[:2]:
                f["notes"].append("test() itself counts %d of %d passed" % (c[0], c[1]))
        base_blocks = None
        if baseline is not None:
            bf = baseline.get(n)
            if bf is not None:
                base_blocks = {}
                for b in bf["block_results"]:
                    base_blocks.setdefault(b["text"], []).append(b["status"])
        seen = {}
        for b in r["blocks"]:
            k = seen.get(b["text"], 0)
            seen[b["text"]] = k + 1
            status = b["status"]
            note = None
            if status in ("failed", "error-text-differs"):
                for e in known:
                    if e["function"] in group and any(block_matches(b, l) for l in e["blocks"]):
                        status = "documented-difference"
                        note = e["title"]
                        break
                else:
                    if base_blocks is not None and status == "failed":
                        bs = base_blocks.get(b["text"], [])
                        if k < len(bs) and bs[k] in ("failed", "xfail", "not-reached"):
                            status = "baseline-failure"
            for e in known:
                if e["function"] in group and any(block_matches(b, l) for l in e["blocks"]):
                    e["matched"] += 1
            if not is_test_block(b) and status in ("ok", "not-reached"):
                continue
            rec = {"type": b["type"], "text": b["text"], "status": status}
            if b.get("message"):
                rec["message"] = b["message"]
            if note:
                rec["difference"] = note
            f["block_results"].append(rec)
            if is_test_block(b):
                f["blocks"] += 1
            key = status.replace("-", "_")
            if key in f:
                f[key] += 1
    for e in known:
        if e["function"] in names and sources[e["function"]][0] and e["matched"] == 0 \
                and sources[e["function"]][0] in by_file and by_file[sources[e["function"]][0]][0] in names:
            stale.append("known difference '%s' matches no block of %s" % (e["title"], e["function"]))
    return functions, stale


def markdown(functions, stale, shadow, baseline_note):
    out = ["# Octave image-package test blocks", ""]
    out.append("Shadow folder(s) first on the path: %s. %s" % (
        ", ".join("`%s`" % s for s in shadow) if shadow else "none (Octave's own functions)",
        baseline_note))
    out.append("")
    cols = ["Function", "Blocks", "Passed", "Failed", "Documented difference",
            "Fails without OpenIPT too", "Error text differs", "Octave xfail", "Skipped",
            "Not reached", "Notes"]
    out.append("| " + " | ".join(cols) + " |")
    out.append("|" + "---|" * len(cols))
    tot = {k: 0 for k in ("blocks", "passed", "failed", "documented_difference",
                          "baseline_failure", "error_text_differs", "xfail", "skipped",
                          "not_reached")}
    for f in functions:
        for k in tot:
            tot[k] += f[k]
        notes = "; ".join(f["notes"]).replace("|", "\\|")
        if f["test_file"] and not any(n.startswith("same test file") for n in f["notes"]):
            notes = ("`%s`" % os.path.basename(f["test_file"])) + ("; " + notes if notes else "")
        out.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |" % (
            f["function"], f["blocks"], f["passed"], f["failed"], f["documented_difference"],
            f["baseline_failure"], f["error_text_differs"], f["xfail"], f["skipped"],
            f["not_reached"], notes))
    out.append("| **total** | %d | %d | %d | %d | %d | %d | %d | %d | %d | |" % tuple(tot.values()))
    out.append("")
    if stale:
        out += ["## Known-difference entries that match no block", ""]
        out += ["- " + s for s in stale] + [""]
    titles = {"failed": "Failed blocks", "not-reached": "Blocks not reached",
              "documented-difference": "Documented differences",
              "baseline-failure": "Blocks that fail without OpenIPT too",
              "error-text-differs": "Error blocks: the error came, with another message or id"}
    for st, title in titles.items():
        rows = [(f["function"], b) for f in functions for b in f["block_results"] if b["status"] == st]
        if not rows:
            continue
        out += ["## %s (%d)" % (title, len(rows)), ""]
        for fn, b in rows:
            out.append("### " + (b["difference"] if b.get("difference") else fn))
            out += ["", "```", "%!" + b["text"].replace("\n", "\n%!"), "```"]
            if b.get("message"):
                out += ["", "```", b["message"], "```"]
            out.append("")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shadow", action="append", default=[],
                    help="a folder put first on Octave's path (repeatable; the first given ends first)")
    ap.add_argument("--functions", nargs="*", help="functions to test (default: those the shadow folders hold)")
    ap.add_argument("--catalogue", help="take the functions from ipt_ops.h (the MATLAB names of its operators)")
    ap.add_argument("--baseline", default="auto",
                    help="auto: also run the blocks without the shadow folders; none; or a JSON of such a run")
    ap.add_argument("--known-differences", default=os.path.join(HERE, "known-differences.md"))
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per test file")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--octave", default=shutil.which("octave-cli") or "octave-cli")
    ap.add_argument("--skip-missing-shadow", action="store_true",
                    help="exit 77 with the reason when a --shadow folder does not exist")
    a = ap.parse_args()

    missing = [s for s in a.shadow if not os.path.isdir(s)]
    if missing:
        msg = "SKIPPED: shadow folder %s does not exist (the MEX gateway and its matlab/ipt folder are not built)" % ", ".join(missing)
        if a.skip_missing_shadow and len(missing) == len(a.shadow):
            print(msg)
            return 77
        a.shadow = [s for s in a.shadow if s not in missing]
        if not a.shadow:
            sys.exit(msg)
        print("note: shadow folder %s does not exist; running with %s"
              % (", ".join(missing), ", ".join(a.shadow)))
    if not shutil.which(a.octave):
        print("SKIPPED: octave-cli not found")
        return 77

    if a.functions:
        names = a.functions
    elif a.catalogue:
        names = catalogue_names(a.catalogue)
    elif a.shadow:
        names = shadow_names(a.shadow)
    else:
        sys.exit("run_image_package_tests: give --shadow, --functions or --catalogue")
    names = list(dict.fromkeys(names))

    known = parse_known_differences(a.known_differences) if a.known_differences and \
        os.path.exists(a.known_differences) else []
    env = dict(os.environ)

    baseline = None
    baseline_note = ""
    if a.shadow and a.baseline == "auto":
        bsrc, bfiles, bres = run_all(a.octave, names, [], a.timeout, a.jobs, env)
        bfun, _ = summarize(names, bsrc, bfiles, bres, [], None, [])
        baseline = {f["function"]: f for f in bfun}
        baseline_note = "Baseline: the same blocks run without the shadow folders in this run."
    elif a.baseline not in ("auto", "none"):
        with open(a.baseline, encoding="utf-8") as f:
            baseline = {x["function"]: x for x in json.load(f)["functions"]}
        baseline_note = "Baseline: %s." % a.baseline

    sources, by_file, results = run_all(a.octave, names, a.shadow, a.timeout, a.jobs, env)
    functions, stale = summarize(names, sources, by_file, results, a.shadow, baseline, known)
    octave_version = subprocess.run(octave_cmd(a.octave, "printf('%s', version())"),
                                    capture_output=True, text=True).stdout.strip()
    report = {"octave": octave_version, "shadow": [os.path.abspath(s) for s in a.shadow],
              "functions": functions, "stale_known_differences": stale}
    for k in ("blocks", "passed", "failed", "documented_difference", "baseline_failure",
              "error_text_differs", "xfail", "skipped", "not_reached"):
        report[k] = sum(f[k] for f in functions)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    md = markdown(functions, stale, a.shadow, baseline_note)
    if a.markdown:
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write(md)
    print("octave %s: %d blocks: %d passed, %d failed, %d documented differences, "
          "%d fail without OpenIPT too, %d error text differs, %d Octave xfail, %d skipped, "
          "%d not reached; %d functions without tests"
          % (octave_version, report["blocks"], report["passed"], report["failed"],
             report["documented_difference"], report["baseline_failure"],
             report["error_text_differs"], report["xfail"],
             report["skipped"], report["not_reached"],
             sum(1 for f in functions if not f["test_file"])))
    for f in functions:
        for b in f["block_results"]:
            if b["status"] in BAD:
                msg = (b.get("message") or "").split("\n")
                if len(msg) > 12:
                    msg = msg[:12] + ["... (the whole message is in the table and the JSON)"]
                lines = [l.strip() for l in b["text"].split("\n") if l.strip()
                         and not l.strip().startswith(("#", "%"))]
                head = " ".join(lines[:2]) if lines and lines[0] == b["type"] else lines[0]
                print("FAILED %s: %s\n  %s" % (f["function"], head[:160],
                                               "\n  ".join(msg)))
    return 1 if report["failed"] or report["not_reached"] else 0


if __name__ == "__main__":
    sys.exit(main())
