#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks run_image_package_tests.py against stand-in shadow folders: a
correct shadow that records its calls (the blocks must reach it and pass),
a wrong one (its blocks must fail, with the block and Octave's message), a
known-differences entry and a baseline that reclassify failures, and a shadow
that hangs (the timeout must fail the block and end the run)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_image_package_tests.py")

# Calls the next function of the same name on the path: the shadow folder
# leaves the path for the call and comes back after it.
PASS_THROUGH = """function varargout = {name} (varargin)
  fid = fopen (getenv ("IPT_STANDIN_MARKER"), "a"); fprintf (fid, "{name}\\n"); fclose (fid);
  here = fileparts (mfilename ("fullpath"));
  rmpath (here);
  unwind_protect
    [varargout{{1:max (nargout, 1)}}] = {name} (varargin{{:}});
  unwind_protect_cleanup
    addpath (here, "-begin");
  end_unwind_protect
endfunction
"""

WRONG_MEAN2 = """function m = mean2 (I)
  m = sum (double (I(:))) / numel (I) + 1;
endfunction
"""

HANG_MEAN2 = """function m = mean2 (I)
  while (true)
    pause (0.1);
  endwhile
endfunction
"""

# Refuses text with its own message, as OpenIPT's gateway does.
STRICT_IMCOMPLEMENT = """function out = imcomplement (I)
  if (ischar (I))
    error ("openipt:invalidArgument", "imcomplement: I: text is not a numeric or logical array");
  endif
  here = fileparts (mfilename ("fullpath"));
  rmpath (here);
  unwind_protect
    out = imcomplement (I);
  unwind_protect_cleanup
    addpath (here, "-begin");
  end_unwind_protect
endfunction
"""

KNOWN = """# Known differences (stand-in)

### mean2: a stand-in difference
- function: mean2
- block: `%!assert (mean2 (ones (3, 3, 3)), 1)`
- octave: stand-in
- matlab: stand-in
- page: https://www.mathworks.com/help/images/ref/mean2.html
"""


class RunnerTest(unittest.TestCase):
    def setUp(self):
        if not shutil.which("octave-cli"):
            self.skipTest("octave-cli not found")
        self.tmp = tempfile.mkdtemp(prefix="ipt-octave-selftest-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def shadow(self, files):
        d = os.path.join(self.tmp, "shadow%d" % len(os.listdir(self.tmp)))
        os.makedirs(d)
        for name, text in files.items():
            with open(os.path.join(d, name + ".m"), "w") as f:
                f.write(text)
        return d

    def run_runner(self, *args, timeout=600, env=None):
        out_json = os.path.join(self.tmp, "out%d.json" % len(os.listdir(self.tmp)))
        p = subprocess.run([sys.executable, RUNNER, "--json", out_json] + list(args),
                           capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        with open(out_json) as f:
            return p.returncode, json.load(f), p.stdout + p.stderr

    def fun(self, report, name):
        return next(f for f in report["functions"] if f["function"] == name)

    def test_blocks_reach_the_shadow_and_pass(self):
        marker = os.path.join(self.tmp, "calls.txt")
        d = self.shadow({"imcomplement": PASS_THROUGH.format(name="imcomplement")})
        rc, r, out = self.run_runner("--shadow", d, "--baseline", "none",
                                     env={"IPT_STANDIN_MARKER": marker})
        self.assertEqual(rc, 0, out)
        f = self.fun(r, "imcomplement")
        self.assertGreater(f["blocks"], 5)
        self.assertEqual(f["passed"], f["blocks"])
        self.assertEqual(f["notes"], [])
        with open(marker) as m:
            calls = m.read().split()
        # Every block that calls imcomplement went through the shadow.
        self.assertGreaterEqual(len(calls), f["blocks"])

    def test_wrong_shadow_fails_with_block_and_message(self):
        d = self.shadow({"mean2": WRONG_MEAN2})
        rc, r, out = self.run_runner("--shadow", d, "--known-differences", "")
        self.assertEqual(rc, 1, out)
        f = self.fun(r, "mean2")
        self.assertGreater(f["failed"], 0)
        failed = [b for b in f["block_results"] if b["status"] == "failed"]
        self.assertTrue(all(b["message"].startswith("!!!!! ") for b in failed))
        self.assertTrue(any("assert (mean2 (ones (3, 3, 3)), 1)" in b["text"] for b in failed))
        self.assertIn("FAILED mean2", out)

    def test_known_difference_and_baseline_reclassify(self):
        d = self.shadow({"mean2": WRONG_MEAN2})
        known = os.path.join(self.tmp, "known.md")
        with open(known, "w") as f:
            f.write(KNOWN)
        rc, r, out = self.run_runner("--shadow", d, "--known-differences", known)
        f = self.fun(r, "mean2")
        diff = [b for b in f["block_results"] if b["status"] == "documented-difference"]
        self.assertEqual(len(diff), 1, out)
        self.assertEqual(diff[0]["difference"], "mean2: a stand-in difference")
        # A baseline in which every mean2 block failed turns the rest into
        # "fails without OpenIPT too" and the run passes.
        base = {"functions": [{"function": "mean2", "block_results": [
            dict(b, status="failed") for b in f["block_results"]]}]}
        bpath = os.path.join(self.tmp, "base.json")
        with open(bpath, "w") as fh:
            json.dump(base, fh)
        rc, r, out = self.run_runner("--shadow", d, "--known-differences", known,
                                     "--baseline", bpath)
        f = self.fun(r, "mean2")
        self.assertEqual(rc, 0, out)
        self.assertEqual(f["failed"], 0)
        self.assertEqual(f["documented_difference"], 1)
        self.assertGreater(f["baseline_failure"], 0)

    def test_other_error_text_is_reported_apart(self):
        d = self.shadow({"imcomplement": STRICT_IMCOMPLEMENT})
        rc, r, out = self.run_runner("--shadow", d, "--baseline", "none")
        self.assertEqual(rc, 0, out)
        f = self.fun(r, "imcomplement")
        self.assertEqual(f["error_text_differs"], 1, out)
        self.assertEqual(f["passed"], f["blocks"] - 1)
        b = next(b for b in f["block_results"] if b["status"] == "error-text-differs")
        self.assertIn("text is not a numeric", b["message"])

    def test_hang_is_killed_and_fails(self):
        d = self.shadow({"mean2": HANG_MEAN2})
        rc, r, out = self.run_runner("--shadow", d, "--baseline", "none", "--timeout", "15",
                                     timeout=120)
        self.assertEqual(rc, 1, out)
        f = self.fun(r, "mean2")
        timed = [b for b in f["block_results"] if b["status"] == "failed"]
        self.assertEqual(len(timed), 1, out)
        self.assertIn("timeout", timed[0]["message"])
        self.assertGreater(f["not_reached"], 0)

    def test_missing_shadow_skips_visibly(self):
        p = subprocess.run([sys.executable, RUNNER, "--skip-missing-shadow", "--shadow",
                            os.path.join(self.tmp, "absent")], capture_output=True, text=True)
        self.assertEqual(p.returncode, 77)
        self.assertIn("SKIPPED", p.stdout)

    def test_builtin_and_absent_functions_are_reported(self):
        rc, r, out = self.run_runner("--functions", "conv2", "dither", "imerode", "imdilate",
                                     "--baseline", "none")
        self.assertEqual(rc, 0, out)
        self.assertTrue(self.fun(r, "conv2")["test_file"].endswith("conv2.cc-tst"))
        self.assertIn("have no dither", self.fun(r, "dither")["notes"][0])
        self.assertIn("same test file as imerode", self.fun(r, "imdilate")["notes"][0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
