#!/usr/bin/env python3
"""The Python module `planscope` (app/python/PlanScopeModule.cpp) against the built planscope-cli and against
published formulas computed here.

ctest runs it (app/python/CMakeLists.txt) with PYTHONPATH at the module and PLANSCOPE_CLI naming the CLI; by hand:
    PYTHONPATH=build/python PLANSCOPE_CLI=build/bin/planscope-cli python3 tests/python/test_planscope.py
"""
import _thread
import copy
import json
import math
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import planscope

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLANS = ROOT / "samples" / "plans"
DEFAULT = PLANS / "default.plan.json"
CLI = os.environ.get("PLANSCOPE_CLI", str(ROOT / "build" / "bin" / "planscope-cli"))


def cli(*args, codes=(0,)):
    """Runs planscope-cli; returns its exit code and stdout."""
    run = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=600)
    if run.returncode not in codes:
        raise AssertionError(f"planscope-cli {' '.join(map(str, args))} exited {run.returncode}: {run.stderr}")
    return run.returncode, run.stdout


def cli_json(*args, codes=(0,)):
    code, out = cli(*args, codes=codes)
    return code, json.loads(out)


def every_sample():
    """Every plan file under samples/: the sample plans, the published runs and the memory measurements' plans."""
    plans = sorted((ROOT / "samples").rglob("*.plan.json"))
    assert len(plans) >= 15, plans
    return plans


class SameAnswerAsTheCli(unittest.TestCase):
    """One plan, one answer: the module's documents equal the CLI's JSON key for key and value for value."""

    def test_version(self):
        _, out = cli("--version")
        self.assertEqual(out.split(), ["planscope-cli", planscope.__version__])

    def test_evaluate_every_sample(self):
        for plan in every_sample():
            with self.subTest(plan=plan.name):
                _, expected = cli_json("evaluate", plan)
                self.assertEqual(planscope.evaluate(plan), expected)
        _, expected = cli_json("evaluate", DEFAULT, "--analytic")
        got = planscope.evaluate(str(DEFAULT), analytic=True)
        self.assertEqual(got, expected)
        self.assertEqual(got["time"]["source"], "analytic")

    def test_analyse_is_simulate(self):
        simulated = 0
        for plan in every_sample():
            with self.subTest(plan=plan.name):
                code, expected = cli_json("simulate", plan, codes=(0, 2))
                if code == 2:
                    with self.assertRaises(ValueError):
                        planscope.analyse(plan)
                    continue
                got = planscope.analyse(plan)
                self.assertEqual(got, expected)
                self.assertGreater(len(got["timeline"]["perRank"]), 0)
                simulated += 1
        self.assertGreaterEqual(simulated, 15)

    def test_explain(self):
        for field in ("time.stepSeconds", "memory.stages.0.activationsBytes", "time.bubbleFraction"):
            with self.subTest(field=field):
                _, expected = cli_json("explain", DEFAULT, "--field", field, "--json")
                self.assertEqual(planscope.explain(DEFAULT, field), expected)
        _, expected = cli_json("explain", DEFAULT, "--field", "time.stepSeconds", "--json", "--depth", "1", "--analytic")
        self.assertEqual(planscope.explain(DEFAULT, depth=1, analytic=True), expected)
        # The default quantity is the step, and its value is the prediction's.
        step = planscope.explain(DEFAULT)
        self.assertEqual(step["field"], "time.stepSeconds")
        self.assertEqual(step["value"], planscope.evaluate(DEFAULT)["time"]["stepSeconds"])
        _, listed = cli("explain", DEFAULT, "--list")
        self.assertEqual(planscope.explain_fields(DEFAULT), listed.split())

    def test_validate(self):
        broken = json.loads(DEFAULT.read_text())
        broken["parallel"]["tp"] = 3
        broken["training"]["unknownKnob"] = 1
        with tempfile.TemporaryDirectory() as folder:
            path = pathlib.Path(folder) / "broken.plan.json"
            path.write_text(json.dumps(broken))
            _, expected = cli_json("validate", path, codes=(2,))
            issues = planscope.validate(path)
        self.assertFalse(expected["valid"])
        self.assertEqual(issues, expected["errors"] + expected["warnings"])
        self.assertEqual(planscope.validate(broken), issues)
        self.assertIn("parallel.tp", [i["path"] for i in issues if "severity" not in i])
        self.assertIn("training.unknownKnob", [i["path"] for i in issues if i.get("severity") == "warning"])
        _, clean = cli_json("validate", DEFAULT)
        self.assertEqual(planscope.validate(DEFAULT), clean["errors"] + clean["warnings"])

    def test_search_first_choice(self):
        cases = [
            (["--vary", "tp,pp,microBatch", "--top", "3"], dict(vary=["tp", "pp", "microBatch"], top=3)),
            (["--vary", "tp,pp,zero", "--fix", "microBatch=2", "--fix", "recompute=selective:core_attn,mlp",
              "--objective", "memory", "--top", "2", "--simulate-top", "2"],
             dict(vary="tp,pp,zero", fix={"microBatch": 2, "recompute": "selective:core_attn,mlp"}, objective="memory",
                  top=2, simulate_top=2)),
            (["--vary", "tp,sp", "--fix", "recompute=full", "--fix", "sp=false", "--objective", "cost"],
             dict(vary=("tp", "sp"), fix=["recompute=full", "sp=false"], objective="cost")),
            (["--vary", "pp", "--fix", "schedule=zb-h1"], dict(vary="pp", fix="schedule=zb-h1")),
            (["--vary", "tp,pp", "--gpus", "8,16", "--days", "3000", "--tokens", "1e11", "--top", "1"],
             dict(vary=["tp", "pp"], gpus=[8, 16], days=3000, tokens=1e11, top=1)),
        ]
        for args, options in cases:
            with self.subTest(args=args):
                _, expected = cli_json("search", DEFAULT, "--json", *args)
                got = planscope.search(DEFAULT, **options)
                self.assertGreater(len(expected["best"]), 0)
                self.assertEqual(got["best"][0], expected["best"][0])
                # All but the wall time and the per-thread cache counts, which vary from run to run.
                for key in ("seconds", "cacheHits", "cacheMisses"):
                    del got["space"][key], expected["space"][key]
                self.assertEqual(got, expected)

    def test_plan_as_dict_str_and_path(self):
        expected = planscope.evaluate(DEFAULT)
        self.assertEqual(planscope.evaluate(str(DEFAULT)), expected)
        self.assertEqual(planscope.evaluate(json.loads(DEFAULT.read_text())), expected)
        # load_plan writes every field out; the plan reads back to the same prediction, warnings included.
        loaded = planscope.load_plan(DEFAULT)
        self.assertEqual(loaded["model"]["preset"], "llama2-7b")
        self.assertEqual(loaded["parallel"]["tp"], 2)
        self.assertEqual(planscope.evaluate(loaded), expected)


class PublishedFormulas(unittest.TestCase):
    """Figures of GPT-3 175B checked against the papers' closed forms, computed here."""

    def setUp(self):
        self.path = PLANS / "gpt3-175b-1024xa100.plan.json"
        self.model = planscope.load_plan(self.path)["model"]
        self.prediction = planscope.evaluate(self.path)

    def test_the_model_is_gpt3_175b(self):
        # Brown et al., Language Models are Few-Shot Learners (2020), Table 2.1: 96 layers, d_model 12288, 96 heads
        # of 128, context 2048; learned positions and tied embeddings as GPT-2 (Radford et al. 2019).
        m = self.model
        self.assertEqual((m["layers"], m["hidden"], m["heads"], m["seqLength"]), (96, 12288, 96, 2048))
        self.assertEqual(m["ffnHidden"], 4 * m["hidden"])
        self.assertEqual((m["positionEmbedding"], m["norm"], m["tiedEmbeddings"], m["bias"], m["gatedMlp"]),
                         ("learned", "layernorm", True, True, False))

    def test_parameter_count(self):
        # Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21),
        # eq. 2: P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)), i.e. per layer 12h^2 + 13h (QKV, projection and two
        # MLP matrices with their biases, two LayerNorms), the V x h embedding (tied with the output layer) and s x h
        # positions; the final LayerNorm's 2h, which eq. 2 leaves out, is added.
        m = self.model
        l, h, v, s = m["layers"], m["hidden"], m["vocab"], m["seqLength"]
        expected = 12 * l * h**2 * (1 + 13 / (12 * h) + (v + s) / (12 * l * h)) + 2 * h
        exact = 12 * l * h**2 + 13 * l * h + v * h + s * h + 2 * h
        self.assertTrue(math.isclose(expected, exact, rel_tol=1e-12))
        self.assertEqual(self.prediction["params"]["total"], exact)
        self.assertEqual(self.prediction["params"]["total"], sum(self.prediction["params"]["perStage"]))
        self.assertTrue(math.isclose(exact, 175e9, rel_tol=0.01))

    def test_model_flops_per_token(self):
        # Narayanan et al. (SC21), section 5.1 and appendix: an iteration of B sequences costs
        # 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) FLOPs without the recomputed forward pass (96 and V/(16 l h) with
        # it), so per token 72 l h^2 (1 + s/(6h) + V/(12 l h)).
        m = self.model
        l, h, v, s = m["layers"], m["hidden"], m["vocab"], m["seqLength"]
        expected = 72 * l * h**2 * (1 + s / (6 * h) + v / (12 * l * h))
        self.assertTrue(math.isclose(self.prediction["flops"]["modelPerToken"], expected, rel_tol=1e-12))
        # MFU (Chowdhery et al., PaLM (2022), appendix B): model FLOPs per second over the GPUs' peak.
        t = self.prediction["time"]
        plan = planscope.load_plan(self.path)
        gpus = plan["cluster"]["nodes"] * plan["cluster"]["gpusPerNode"]
        peak = plan["cluster"]["gpu"]["peakFlops"]["bf16"]
        self.assertTrue(math.isclose(t["mfu"], t["tokensPerSecond"] * expected / (gpus * peak), rel_tol=1e-9))


class BadInput(unittest.TestCase):
    """Bad input raises ValueError naming the field, never crashes."""

    def plan(self):
        return json.loads(DEFAULT.read_text())

    def assert_names(self, error, path):
        self.assertIn(path, str(error.exception))
        self.assertIn(path, [i["path"] for i in error.exception.issues])

    def test_invalid_plan(self):
        plan = self.plan()
        plan["parallel"]["tp"] = 3
        for call in (planscope.evaluate, planscope.analyse, planscope.explain, planscope.explain_fields):
            with self.subTest(call=call.__name__), self.assertRaises(ValueError) as error:
                call(plan)
            self.assert_names(error, "parallel.tp")
        self.assertIn("tp 3 does not divide the 32 attention heads", str(error.exception))

    def test_wrong_types_and_values(self):
        cases = [
            (("parallel", "tp"), "eight", "parallel.tp"),
            (("model", "layers"), 10**30, "model.layers"),
            (("training", "microBatch"), float("nan"), "training.microBatch"),
            (("training", "microBatch"), float("inf"), "training.microBatch"),
            (("training", "recompute"), {"mode", "full"}, "training.recompute"),
            (("cluster", "nodes"), -2, "cluster.nodes"),
        ]
        for (section, key), value, path in cases:
            with self.subTest(value=value):
                plan = self.plan()
                plan[section][key] = value
                with self.assertRaises(ValueError) as error:
                    planscope.evaluate(plan)
                self.assert_names(error, path)
        # An integer of another type (numpy.int64 has __index__) reads as the int it stands for.
        class Index:
            def __index__(self):
                return 2
        plan = self.plan()
        plan["training"]["microBatch"] = Index()
        as_int = self.plan()
        as_int["training"]["microBatch"] = 2
        self.assertEqual(planscope.evaluate(plan), planscope.evaluate(as_int))
        plan = self.plan()
        plan["parallel"][7] = 1
        with self.assertRaises(ValueError) as error:
            planscope.evaluate(plan)
        self.assert_names(error, "parallel")
        recursive = self.plan()
        recursive["training"]["self"] = recursive
        with self.assertRaises(ValueError) as error:
            planscope.evaluate(recursive)
        self.assertIn("levels deep", str(error.exception))

    def test_placement(self):
        """placement: the CLI's placement document, for a plan of 16,384 GPUs in pods of 32 nodes."""
        plan = PLANS / "llama3-405b-16k-h100.plan.json"
        _, expected = cli_json("placement", plan, "--json")
        self.assertEqual(planscope.placement(plan), expected)
        dp = [k for k in expected["kinds"] if k["kind"] == "dp"][0]
        self.assertEqual(dp["pods"]["most"], 64)

    def test_measured_runs(self):
        """run_summary and compare_runs: the CLI's run-summary and compare-runs documents, from a run file and from
        the traces themselves (16 ranks that scripts/make-rank-set.py makes; rank 5 arrives 2 ms late)."""
        with tempfile.TemporaryDirectory() as folder:
            traces = pathlib.Path(folder) / "traces"
            subprocess.run([sys.executable, str(ROOT / "scripts" / "make-rank-set.py"), str(traces), "--ranks", "16",
                            "--straggler", "5"], check=True, capture_output=True)
            run = pathlib.Path(folder) / "run.planscope-run"
            cli("reduce", traces, "--out", run)
            _, expected = cli_json("run-summary", run, "--json", "--top", "3")
            self.assertEqual(planscope.run_summary(run, top=3), expected)
            self.assertEqual(planscope.run_summary(str(traces), top=3), expected)
            self.assertEqual(expected["slowest"][0]["rank"], 5)
            _, compared = cli_json("compare-runs", run, traces, "--json")
            self.assertEqual(planscope.compare_runs(run, traces), compared)
            self.assertTrue(all(p["delta"] == 0 for p in compared["phases"]))
            with self.assertRaises(ValueError) as error:
                planscope.run_summary(DEFAULT)
            self.assertIn("format", str(error.exception))
            with self.assertRaises(TypeError):
                planscope.run_summary(42)

    def test_files(self):
        with tempfile.TemporaryDirectory() as folder:
            truncated = pathlib.Path(folder) / "truncated.plan.json"
            truncated.write_text(DEFAULT.read_text()[:200])
            with self.assertRaises(ValueError) as error:
                planscope.evaluate(truncated)
            self.assertIn("byte offset", str(error.exception))
            self.assertIn("offset", error.exception.issues[0])
            with self.assertRaises(FileNotFoundError):
                planscope.evaluate(pathlib.Path(folder) / "missing.plan.json")
            with self.assertRaises(OSError):
                planscope.load_plan(folder)
        with self.assertRaises(TypeError):
            planscope.evaluate(42)

    def test_options(self):
        with self.assertRaises(ValueError) as error:
            planscope.explain(DEFAULT, "time.noSuchField")
        self.assert_names(error, "quantity")
        for options, name in ((dict(vary=["tp", "bogus"]), "vary"), (dict(fix={"tp": "x"}), "fix"),
                              (dict(objective="speed"), "objective"), (dict(top=-1), "top"),
                              (dict(gpus=[0]), "gpus"), (dict(gpus=[10**30]), "gpus"), (dict(days=-1), "days"),
                              (dict(days="soon"), "days"), (dict(tokens=float("nan"), days=1), "tokens")):
            with self.subTest(options=options), self.assertRaises(ValueError) as error:
                planscope.search(DEFAULT, **options)
            self.assert_names(error, name)
        with self.assertRaises(ValueError) as error:
            planscope.search(DEFAULT, vary="tp", gpus=[3])
        self.assert_names(error, "gpus")
        with self.assertRaises(ValueError) as error:
            planscope.evaluate(DEFAULT, calibration=ROOT / "tests" / "no-such.profile.json")
        self.assertIn("calibration", str(error.exception))
        # A NUL would cut the name short in C: refused as Python's open() refuses it.
        with self.assertRaises(ValueError) as error:
            planscope.evaluate(str(DEFAULT) + "\0.broken")
        self.assert_names(error, "plan")
        with self.assertRaises(TypeError):
            planscope.explain(DEFAULT, 5)

    def test_module_still_works(self):
        plan = self.plan()
        plan["parallel"]["tp"] = 3
        for _ in range(3):
            with self.assertRaises(ValueError):
                planscope.evaluate(plan)
        self.assertTrue(planscope.evaluate(DEFAULT)["valid"])


class LongCalls(unittest.TestCase):
    def test_search_releases_the_gil_and_stops_on_ctrl_c(self):
        # 152 million plans (175B on 64 to 4096 GPUs): minutes on two cores, unless interrupted. A thread counts while
        # the search runs (it can only with the GIL released) and then interrupts it as Ctrl+C would.
        ticks = []
        done = threading.Event()

        def tick():
            while not done.is_set():
                ticks.append(time.monotonic())
                time.sleep(0.01)

        def interrupt():
            time.sleep(1.0)
            _thread.interrupt_main()

        threads = [threading.Thread(target=tick), threading.Thread(target=interrupt)]
        start = time.monotonic()
        for t in threads:
            t.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                planscope.search(PLANS / "interview-175b-256xa100.plan.json", top=1, days=30)
            elapsed = time.monotonic() - start
        finally:
            done.set()
            for t in threads:
                t.join()
        self.assertLess(elapsed, 30)
        self.assertGreater(len([t for t in ticks if t < start + elapsed]), 20)
        self.assertTrue(planscope.evaluate(DEFAULT)["valid"])


class Example(unittest.TestCase):
    def test_docs_python_example(self):
        run = subprocess.run([sys.executable, str(ROOT / "docs" / "python-example.py")], capture_output=True, text=True,
                             timeout=600)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        p = planscope.evaluate(DEFAULT)
        t = p["time"]
        self.assertIn(f"step time: {t['stepSeconds']:.4f} s (simulation; closed form {t['analyticStepSeconds']:.4f} s)",
                      lines)
        self.assertIn(f"MFU: {100 * t['mfu']:.2f} %", lines)
        self.assertIn(f"time.stepSeconds = {planscope.explain(DEFAULT)['formula']}", lines)
        # The sweep: each microbatch size as `planscope-cli evaluate` gives it for the edited file.
        plan = json.loads(DEFAULT.read_text())
        with tempfile.TemporaryDirectory() as folder:
            for mb in (1, 2, 4, 8):
                plan["training"]["microBatch"] = mb
                path = pathlib.Path(folder) / f"mb{mb}.plan.json"
                path.write_text(json.dumps(plan))
                _, e = cli_json("evaluate", path)
                fits = "fits" if e["memory"]["fits"] else "does not fit"
                self.assertIn(f"  microBatch {mb}: step {e['time']['stepSeconds']:.4f} s, MFU "
                              f"{100 * e['time']['mfu']:.2f} %, peak {e['memory']['peakBytes'] / 2**30:.2f} GiB ({fits})",
                              lines)
        # The search: the CLI's three best plans.
        _, s = cli_json("search", DEFAULT, "--json", "--vary", "tp,pp,microBatch", "--top", "3")
        self.assertEqual(len(s["best"]), 3)
        self.assertIn(f"search: {s['space']['plans']:.0f} plans, {s['space']['fit']:.0f} fit", lines)
        for e in s["best"]:
            par, tr = e["parallel"], e["training"]
            self.assertIn(f"  {e['rank']}. dp{par['dp']} tp{par['tp']} pp{par['pp']} mb{tr['microBatch']}: "
                          f"step {e['stepSeconds']:.4f} s, MFU {100 * e['mfu']:.2f} %", lines)


if __name__ == "__main__":
    unittest.main()
