#!/usr/bin/env python3
"""The reports take the fastest repetition of every benchmark over all the JSON runs given
(--also), or their median with --statistic median, and call a benchmark failed only if it
failed in every run."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import contact_report  # noqa: E402
import dynamics_report  # noqa: E402
import phases_report  # noqa: E402
import report  # noqa: E402


def contact_run(name, us, error=None):
    if error:
        return {"name": name, "run_name": name, "run_type": "iteration", "error_occurred": True,
                "error_message": error}
    return {"name": name, "run_name": name, "run_type": "iteration", "us_per_step": us, "penetration": 1e-9,
            "joint_violation": 0.0, "ip_iterations": 3.0, "warnings": 0.0}


def solver_run(name, us):
    return {"name": name, "run_name": name, "run_type": "iteration", "real_time": us, "time_unit": "us"}


def dynamics_run(name, us, energy):
    return {"name": name, "run_name": name, "run_type": "iteration", "us_per_step": us, "energy_error": energy,
            "energy_error_state": energy, "newton_iterations": 1.0, "factorizations": 1.0,
            "constraint_violation": 1e-12}


class ReportRuns(unittest.TestCase):
    def write(self, benchmarks):
        return self.write_raw({"context": {}, "benchmarks": benchmarks})

    def write_raw(self, data):
        handle, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(handle, "w") as f:
            json.dump(data, f)
        self.addCleanup(os.remove, path)
        return path

    def write_pendulum_run(self, ours, euler, rk4):
        """One run of the 10-link revolute chain: our, MuJoCo Euler's and RK4's us per step."""
        return self.write([dynamics_run("nlink_revolute/10/graphsolve", ours, 1e-3),
                           dynamics_run("nlink_revolute/10/mujoco_euler", euler, 1.0),
                           dynamics_run("nlink_revolute/10/mujoco_rk4", rk4, 1e-5)])

    def test_contact_report_takes_the_fastest_run_of_each_benchmark(self):
        first = self.write([contact_run("cylinder/2/graphsolve", 10.0), contact_run("cylinder/100/graphsolve", 600.0),
                            contact_run("box_drop/1/graphsolve", 30.0), contact_run("box_drop/1/mujoco", 0, "no model")])
        second = self.write([contact_run("cylinder/2/graphsolve", 12.0), contact_run("cylinder/100/graphsolve", 500.0),
                             contact_run("box_drop/1/graphsolve", 31.0), contact_run("box_drop/1/mujoco", 4.0)])
        best, failed = contact_report.load([first, second])
        self.assertEqual(best[("cylinder", 2, "graphsolve")]["us"], 10.0)
        self.assertEqual(best[("cylinder", 100, "graphsolve")]["us"], 500.0)
        self.assertEqual(best[("box_drop", 1, "mujoco")]["us"], 4.0)
        self.assertEqual(failed, {})
        text, _, _ = contact_report.make([first, second], None, lambda p: p, "test")
        self.assertIn("| 2 | 10.0 |", text)
        self.assertIn("| 100 | 500.0 |", text)
        self.assertIn("| MuJoCo | 4.0 |", text)

    def test_contact_benchmark_failed_in_every_run_stays_failed(self):
        first = self.write([contact_run("box_drop/1/mujoco", 0, "no model")])
        second = self.write([contact_run("box_drop/1/mujoco", 0, "no model")])
        _, failed = contact_report.load([first, second])
        self.assertEqual(failed, {("box_drop", 1, "mujoco"): "no model"})

    def test_dynamics_report_takes_the_fastest_run_of_each_benchmark(self):
        first = self.write_pendulum_run(20.0, 4.0, 18.0)
        second = self.write_pendulum_run(16.0, 5.0, 17.0)
        best, failed = dynamics_report.load([first, second])
        self.assertEqual(failed, {})
        self.assertEqual(best[("nlink_revolute", 10, "graphsolve")]["us"], 16.0)
        self.assertEqual(best[("nlink_revolute", 10, "mujoco_euler")]["us"], 4.0)
        text, _, _ = dynamics_report.make([first, second], None, lambda p: p, "test")
        self.assertIn("| 10 | 16.0 | 1.00 | 1.00 | 4.0 | 17.0 | 0.25 |", text)

    def test_dynamics_report_shows_failed_and_filtered_runs(self):
        """A size where our steps failed keeps MuJoCo's row and misses its targets; a run
        without RK4 (filtered out) still compares with Euler."""
        failed_run = {"name": "nlink_revolute/500/graphsolve", "run_name": "nlink_revolute/500/graphsolve",
                      "run_type": "iteration", "error_occurred": True, "error_message": "step 9 failed: not converged"}
        path = self.write([dynamics_run("nlink_revolute/200/graphsolve", 200.0, 1e-2),
                           dynamics_run("nlink_revolute/200/mujoco_euler", 900.0, 80.0),
                           failed_run, dynamics_run("nlink_revolute/500/mujoco_euler", 12000.0, 5e5)])
        text, met, total = dynamics_report.make([path], None, lambda p: p, "test")
        self.assertIn("| 200 | 200.0 | 1.00 | 1.00 | 900.0 | - | 4.50 |", text)
        self.assertIn("| 500 | fails | - | - | 12000.0 | - | - |", text)
        self.assertIn("- `nlink_revolute/500/graphsolve`: step 9 failed: not converged", text)
        self.assertIn("| speed-up vs MuJoCo Euler, nlink_revolute | 500 | 0.00 | >= 1 | **no** |", text)
        self.assertEqual((met, total), (2, 4))

    def test_dynamics_report_shows_open_steps_of_limited_chains_without_targets(self):
        """The chains with limits get open- and held-steps columns (ours only) and add no target."""
        ours = dict(dynamics_run("limits_reached/20/graphsolve", 29.0, 2.0), open_steps=0.9, held_steps=0.05)
        path = self.write([ours, dynamics_run("limits_reached/20/mujoco_euler", 7.0, 6.0),
                           dynamics_run("nlink_revolute/20/graphsolve", 12.0, 1e-2),
                           dynamics_run("nlink_revolute/20/mujoco_euler", 10.0, 2.0)])
        text, met, total = dynamics_report.make([path], None, lambda p: p, "test")
        self.assertIn("| size | ours us/step | Newton it. | factor. | open steps | held steps | MuJoCo Euler us/step |",
                      text)
        self.assertIn("| 20 | 29.0 | 1.00 | 1.00 | 0.90 | 0.05 | 7.0 | - | 0.24 |", text)
        self.assertIn("| 20 | 12.0 | 1.00 | 1.00 | 10.0 | - | 0.83 |", text)
        self.assertNotIn("limits_reached |", text)  # no target row
        self.assertEqual(total, 2)  # the revolute chain's speed and energy targets

    def test_phases_report_compares_each_phase_with_graphsolve_in_the_same_phase(self):
        first = self.write([solver_run("chain/100/graphsolve-ldu-auto/analyze", 50.0),
                            solver_run("chain/100/graphsolve-ldu-auto/full", 90.0),
                            solver_run("chain/100/umfpack/analyze", 200.0),
                            solver_run("chain/100/umfpack/full", 450.0),
                            solver_run("chain/100/graphsolve-ldu-auto/refactor_solve", 20.0)])
        second = self.write([solver_run("chain/100/graphsolve-ldu-auto/analyze", 40.0),
                             solver_run("chain/100/umfpack/full", 900.0)])
        text, _, _ = phases_report.make([first, second], None, lambda p: p, "test")
        self.assertIn("| n | graphsolve-ldu-auto analyze | umfpack analyze | graphsolve-ldu-auto full | umfpack full |",
                      text)
        # Fastest analyze of graphsolve (40) is the reference of UMFPACK's analyze, 90 that of its full solve.
        self.assertIn("| 100 | **40.0** | 200 (5.0x) | **90.0** | 450 (5.0x) |", text)
        self.assertNotIn("klu analyze |", text)  # no runs, no column
        self.assertNotIn("SPD values", text)

    def test_scalar_families_get_tables_but_no_targets(self):
        runs = []
        for family in ("chain", "chain-b1"):
            for n, (ours, klu) in ((1000, (100.0, 200.0)), (10000, (1000.0, 2000.0))):
                runs += [solver_run(f"{family}/{n}/graphsolve-ldu-auto/refactor_solve", ours),
                         solver_run(f"{family}/{n}/klu/refactor_solve", klu)]
        _, best = report.load([self.write(runs)])
        self.assertIn("chain-b1", report.families(best))
        measured = {(row[0], row[1], row[2]): row[3] for row in report.targets(best)}
        self.assertAlmostEqual(measured[("klu / graphsolve-ldu", "chain", 1000)], 2.0)
        self.assertFalse([key for key in measured if key[1] == "chain-b1"])


    def test_solver_report_takes_the_fastest_or_the_median_repetition(self):
        name = "chain/100/klu/refactor_solve"
        first = self.write([solver_run(name, 30.0), solver_run(name, 10.0)])
        second = self.write([solver_run(name, 20.0)])
        key = ("chain", 100, "klu", "refactor_solve")
        self.assertEqual(report.load([first, second])[1][key]["us"], 10.0)
        self.assertEqual(report.load([first, second], "median")[1][key]["us"], 20.0)
        self.assertEqual(report.load([first], "median")[1][key]["us"], 20.0)  # mean of the middle two
        with self.assertRaisesRegex(ValueError, "unknown statistic 'mean'"):
            report.load([first], "mean")

    def test_section_reports_take_the_median_on_request(self):
        first = self.write_pendulum_run(20.0, 4.0, 19.0)
        second = self.write_pendulum_run(16.0, 6.0, 17.0)
        third = self.write_pendulum_run(30.0, 5.0, 18.0)
        runs = [first, second, third]
        text, _, _ = dynamics_report.make(runs, None, lambda p: p, "test", "median")
        self.assertIn("| 10 | 20.0 | 1.00 | 1.00 | 5.0 | 18.0 | 0.25 |", text)
        self.assertIn("Times are the median of each benchmark's repetitions", text)
        fastest, _, _ = dynamics_report.make(runs, None, lambda p: p, "test")
        self.assertNotIn("Times are the", fastest)
        drops = [self.write([contact_run("box_drop/1/graphsolve", us)]) for us in (30.0, 34.0, 31.0)]
        best, _ = contact_report.load(drops, "median")
        self.assertEqual(best[("box_drop", 1, "graphsolve")]["us"], 31.0)
        with self.assertRaisesRegex(ValueError, "unknown statistic 'min'"):
            contact_report.load(drops, "min")

    def test_counters_table_shows_what_each_solver_tells_on_the_largest_system(self):
        def counted(name, us, nnz, flops, memory):
            run = solver_run(name, us)
            run.update({"factor_nonzeros": nnz, "flops": flops, "memory_bytes": memory})
            return run
        _, best = report.load([self.write([
            counted("chain/10/graphsolve-ldu-auto/refactor_solve", 1.0, 10, 10, 10),
            counted("chain/100/graphsolve-ldu-auto/refactor_solve", 1000.0, 3600, 2e6, 1.5e6),
            solver_run("chain/100/graphsolve-ldu-auto/factorize", 800.0),
            solver_run("chain/100/graphsolve-ldu-auto/solve", 150.0),
            counted("chain/100/klu/refactor_solve", 4000.0, 3700, 1e6, 0),
            solver_run("chain/100/eigen-sparselu/refactor_solve", 2500.0)])])
        text = report.counters_table(best, "chain")
        self.assertIn("| chain, n = 100 |", text)
        # 2e6 flops factorized in 0.8 ms: 2.5 GFLOP/s; without a factorize time, no rate.
        self.assertIn("| graphsolve-ldu-auto | 3600 | 2e+06 | 2.50 | 1.50 | 800 | 150 | 1000 |", text)
        self.assertIn("| klu | 3700 | 1e+06 | - | - | - | - | 4000 |", text)
        self.assertIn("| eigen-sparselu | - | - | - | - | - | - | 2500 |", text)
        self.assertEqual(report.counters_table(best, "net"), "")

    def test_unusable_results_files_get_an_error_naming_the_file_and_the_problem(self):
        from report_sections import ReportInputError
        missing = os.path.join(tempfile.gettempdir(), "no-such-results.json")
        handle, broken = tempfile.mkstemp(suffix=".json")
        with os.fdopen(handle, "w") as f:
            f.write('{"benchmarks": [')
        self.addCleanup(os.remove, broken)
        cases = [(lambda: report.load([missing]), "no-such-results.json: cannot read it"),
                 (lambda: dynamics_report.load([broken]), "not JSON"),
                 (lambda: contact_report.load([self.write_raw({"runs": []})]), "no \"benchmarks\" list"),
                 (lambda: report.load([self.write([dynamics_run("nlink_revolute/10/graphsolve", 1.0, 1e-3)])]),
                  "no results named family/n/solver/phase"),
                 (lambda: report.load([self.write([dict(solver_run("chain/10/klu/solve", 1.0), time_unit="min")])]),
                  "'chain/10/klu/solve' has no time or an unknown time unit 'min'"),
                 (lambda: dynamics_report.load([self.write([solver_run("chain/10/klu/analyze", 1.0)])]),
                  "'chain/10/klu/analyze' is not named family/size/solver"),
                 (lambda: contact_report.load([self.write([dynamics_run("nlink_revolute/10/graphsolve", 1.0, 1e-3)])]),
                  "'nlink_revolute/10/graphsolve' has no counter 'penetration'")]
        for load, message in cases:
            with self.assertRaises(ReportInputError) as caught:
                load()
            self.assertIn(message, str(caught.exception))

if __name__ == "__main__":
    unittest.main()
