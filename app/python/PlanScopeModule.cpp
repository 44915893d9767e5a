// The Python module `planscope` (pybind11): the documents of planscope-cli's evaluate, simulate, explain, search and
// validate verbs as dicts and lists with the JSON's names (docs/FORMATS.md), built by the same core functions the
// verbs call (app/cli/Commands.cpp, ScheduleCommands.cpp, SearchCommands.cpp), so one plan gives one answer in both
// (docs/PYTHON.md). Core never throws across its boundary (docs/ARCHITECTURE.md section 5); its errors are raised
// here as ValueError naming the field.
#include "analysis/Analysis.h"
#include "calib/Profile.h"
#include "cost/Evaluate.h"
#include "io/AnalysisJson.h"
#include "io/PlanJson.h"
#include "io/PlacementJson.h"
#include "io/PredictionJson.h"
#include "io/RunFile.h"
#include "io/RunJson.h"
#include "io/SearchJson.h"
#include "search/Search.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <future>
#include <thread>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using nlohmann::json;

namespace planscope::python {

namespace {

// A plan file is a few levels deep (docs/PLAN-FILE.md); the bound stops a dict that contains itself.
constexpr int kMaxDepth = 256;

// JSON as Python: objects in the JSON's key order, integers as int. A NaN or an infinity becomes None, as
// nlohmann::json::dump writes them (nlohmann/json 3.11, detail/output/serializer.hpp, dump_float), so the module
// and the CLI's output agree value for value.
py::object toPython(const json& j)
{
    switch (j.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
        return py::none();
    case json::value_t::boolean:
        return py::bool_(j.get<bool>());
    case json::value_t::number_integer:
        return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
        return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float: {
        const double d = j.get<double>();
        return std::isfinite(d) ? py::object(py::float_(d)) : py::object(py::none());
    }
    case json::value_t::string:
        return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
        py::list l(j.size());
        std::size_t i = 0;
        for (const json& e : j) l[i++] = toPython(e);
        return l;
    }
    case json::value_t::object: {
        py::dict d;
        for (const auto& [k, v] : j.items()) d[py::str(k)] = toPython(v);
        return d;
    }
    case json::value_t::binary:
        break;
    }
    return py::none();
}

// "error at PATH (byte offset N): message" lines, as planscope-cli prints them (app/cli/PlanInput.cpp).
std::string issuesText(const Issues& issues)
{
    std::string text;
    for (const Issue& i : issues) {
        if (!text.empty()) text += "\n";
        text += i.severity == Severity::Error ? "error" : "warning";
        if (!i.path.empty()) text += " at " + i.path;
        if (i.offset >= 0) text += " (byte offset " + std::to_string(i.offset) + ")";
        text += ": " + i.message;
    }
    return text;
}

// ValueError(text), with the issues as the JSON's issue objects in its `issues` attribute.
[[noreturn]] void raiseValueError(const std::string& text, const Issues& issues)
{
    py::object error = py::reinterpret_borrow<py::object>(PyExc_ValueError)(text);
    error.attr("issues") = toPython(issuesToJson(issues));
    PyErr_SetObject(PyExc_ValueError, error.ptr());
    throw py::error_already_set();
}

// ValueError("what:\nerror at PATH: message...").
[[noreturn]] void raiseIssues(const std::string& what, const Issues& issues)
{
    raiseValueError(what + ":\n" + issuesText(issues), issues);
}

// ValueError("option: message") for an option of a call.
[[noreturn]] void raiseAt(const std::string& option, const std::string& message)
{
    raiseValueError(option + ": " + message, { Issue { Severity::Error, option, message } });
}

// A value of a plan dict that JSON cannot hold: the error the reader gives a file, at the value's path.
[[noreturn]] void raiseUnreadable(const std::string& path, const std::string& message)
{
    raiseIssues("the plan cannot be read", { Issue { Severity::Error, path, message } });
}

// A Python value as JSON, the way nlohmann's parser reads the same value written as text: an integer beyond 64 bits
// becomes a double; a NaN or an infinity, which JSON text cannot hold (RFC 8259 section 6), is refused by its path.
json fromPython(py::handle o, const std::string& path, int depth)
{
    if (depth > kMaxDepth) raiseUnreadable(path, "nested more than " + std::to_string(kMaxDepth) + " levels deep");
    if (o.is_none()) return nullptr;
    if (PyBool_Check(o.ptr())) return o.ptr() == Py_True;
    if (PyLong_Check(o.ptr())) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
        if (overflow == 0 && !PyErr_Occurred()) return std::int64_t(v);
        PyErr_Clear();
        if (overflow > 0) {
            const unsigned long long u = PyLong_AsUnsignedLongLong(o.ptr());
            if (!PyErr_Occurred()) return std::uint64_t(u);
            PyErr_Clear();
        }
        const double d = PyLong_AsDouble(o.ptr());
        if (PyErr_Occurred()) {
            PyErr_Clear();
            raiseUnreadable(path, "the number is beyond the range of a double (about 1.8e308)");
        }
        return d;
    }
    // Other integers (numpy.int64 has __index__, Python/C API PyNumber_Index) read as the int they stand for.
    if (!PyFloat_Check(o.ptr()) && PyIndex_Check(o.ptr())) {
        const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(o.ptr()));
        if (!index) throw py::error_already_set();
        return fromPython(index, path, depth + 1);
    }
    if (PyFloat_Check(o.ptr())) {
        const double d = PyFloat_AsDouble(o.ptr());
        if (!std::isfinite(d)) raiseUnreadable(path, std::string(py::repr(o)) + " is not a JSON number");
        return d;
    }
    if (PyUnicode_Check(o.ptr())) return o.cast<std::string>();
    if (PyDict_Check(o.ptr())) {
        json j = json::object();
        for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(o)) {
            if (!PyUnicode_Check(k.ptr()))
                raiseUnreadable(path, "the key " + std::string(py::repr(k)) + " is not a string");
            const std::string key = k.cast<std::string>();
            j[key] = fromPython(v, path.empty() ? key : path + "." + key, depth + 1);
        }
        return j;
    }
    if (PyList_Check(o.ptr()) || PyTuple_Check(o.ptr())) {
        json j = json::array();
        std::size_t i = 0;
        for (const py::handle e : py::reinterpret_borrow<py::sequence>(o))
            j.push_back(fromPython(e, path + "[" + std::to_string(i++) + "]", depth + 1));
        return j;
    }
    raiseUnreadable(path, "a " + std::string(py::str(py::type::handle_of(o).attr("__name__")))
        + " is not a JSON value (dict, list, str, int, float, bool or None)");
}

// A file that cannot be opened, or that is no file (core/util/InputFile.h), is an OSError, as in loadPlanArg
// (app/cli/PlanInput.cpp): exit code 1 there, not an invalid plan.
void raiseIfUnreadable(const Issues& errors, const std::string& path)
{
    if (errors.size() != 1 || errors[0].path != path) return;
    const std::string& m = errors[0].message;
    if (m == "cannot open file") {
        errno = ENOENT;
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
        throw py::error_already_set();
    }
    if (m.starts_with("cannot open file: ") || m.ends_with(", not a regular file; not read")
        || m == "is a folder, not a file; not read") {
        PyErr_SetString(PyExc_OSError, (path + ": " + m).c_str());
        throw py::error_already_set();
    }
}

bool isPathLike(py::handle o)
{
    return PyUnicode_Check(o.ptr()) || py::isinstance(o, py::module_::import("os").attr("PathLike"));
}

// A str or path-like object as the file name core opens; a NUL in it would cut the name short, so it is refused as
// Python's open() refuses it.
std::string pathOf(py::handle o, const char* option)
{
    const std::string path = py::module_::import("os").attr("fsdecode")(o).cast<std::string>();
    if (path.find('\0') != std::string::npos) raiseAt(option, "embedded null byte in the path");
    return path;
}

// A plan given as a dict (a plan file's JSON), a str path or a path-like object: parsed, not yet validated.
Result<LoadedPlan> readPlan(py::handle plan, std::string* pathOut = nullptr)
{
    if (PyDict_Check(plan.ptr())) {
        const json j = fromPython(plan, "", 0);
        return planFromJson(j);
    }
    if (!isPathLike(plan))
        throw py::type_error("plan must be a dict (a plan file's JSON), a str path or a path-like object, not "
            + std::string(py::str(py::type::handle_of(plan).attr("__name__"))));
    const std::string path = pathOf(plan, "plan");
    if (pathOut) *pathOut = path;
    Result<LoadedPlan> loaded = loadPlanFile(path);
    if (!loaded) raiseIfUnreadable(loaded.errors(), path);
    return loaded;
}

LoadedPlan loadPlan(py::handle plan)
{
    std::string path;
    Result<LoadedPlan> loaded = readPlan(plan, &path);
    if (!loaded) raiseIssues(path.empty() ? "the plan cannot be read" : path + " cannot be read", loaded.errors());
    return std::move(loaded).value();
}

// Runs `work` on a thread of its own with the GIL released, so that other Python threads run meanwhile; every 100 ms
// it takes the GIL and lets Python handle signals (PyErr_CheckSignals, Python/C API "Exception Handling"): on Ctrl+C
// it sets `cancel`, waits for the work to stop and raises KeyboardInterrupt.
template<typename Work>
auto runReleased(Work work, std::atomic<bool>& cancel) -> decltype(work())
{
    auto result = std::async(std::launch::async, std::move(work));
    std::optional<py::error_already_set> interrupted;
    {
        py::gil_scoped_release release;
        while (result.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) {
                interrupted.emplace();
                cancel.store(true);
                break;
            }
        }
        result.wait();
    }
    if (interrupted) throw std::move(*interrupted);
    return result.get();
}

std::shared_ptr<const Analysis> analyseReleased(const Plan& plan, AnalysisOptions options)
{
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    options.cancel = cancel;
    return runReleased([&plan, options] { return analyse(plan, options); }, *cancel);
}

// `planscope-cli evaluate PLAN [--analytic] [--calibration PROFILE [--calibration-any-gpu]]` (app/cli/Commands.cpp).
py::object evaluatePy(py::handle planArg, bool analytic, py::object calibration, bool calibrationAnyGpu)
{
    LoadedPlan plan = loadPlan(planArg);
    AnalysisOptions options;
    options.inputWarnings = plan.warnings;
    std::string calibrationPath;
    if (!calibration.is_none()) {
        if (!isPathLike(calibration)) throw py::type_error("calibration must be a str path or a path-like object");
        calibrationPath = pathOf(calibration, "calibration");
        auto profile = loadMeasurements(calibrationPath);
        if (!profile) raiseIssues("calibration: " + calibrationPath + " is not a profile", profile.errors());
        Calibration c = calibrationFromProfile(profile.value(), plan.plan,
            calibrationAnyGpu ? OtherGpu::Apply : OtherGpu::Refuse);
        if (!c.refused.empty())
            raiseIssues("calibration: " + calibrationPath + " refused (calibration_any_gpu=True applies it anyway)", c.refused);
        if (c.source.empty()) c.source = calibrationPath;
        options.calibration = std::move(c);
    }
    const auto analysis = analyseReleased(plan.plan, options);
    if (!analysis->valid()) raiseIssues("invalid plan", analysis->prediction.errors);
    json doc = analysisToJson(*analysis, analytic ? StepFigure::Analytic : StepFigure::Simulated);
    if (options.calibration) doc["calibration"]["file"] = calibrationPath;
    return toPython(doc);
}

// `planscope-cli simulate PLAN`: the prediction with the simulated step and the timeline summary
// (app/cli/ScheduleCommands.cpp, docs/FORMATS.md section 4).
// The one analysis of a plan argument (its file's warnings first), raising ValueError for an invalid plan.
std::shared_ptr<const Analysis> validAnalysis(py::handle planArg)
{
    LoadedPlan plan = loadPlan(planArg);
    AnalysisOptions options;
    options.inputWarnings = plan.warnings;
    auto analysis = analyseReleased(plan.plan, options);
    if (!analysis->valid()) raiseIssues("invalid plan", analysis->prediction.errors);
    return analysis;
}

py::object analysePy(py::handle planArg)
{
    const auto analysis = validAnalysis(planArg);
    if (!analysis->timeline) raiseIssues("the schedule cannot be simulated", analysis->timelineErrors);
    json doc = analysisToJson(*analysis);
    doc["timeline"] = timelineSummaryToJson(*analysis->timeline);
    return toPython(doc);
}

std::shared_ptr<const Analysis> explained(py::handle planArg, bool analytic)
{
    LoadedPlan plan = loadPlan(planArg);
    AnalysisOptions options;
    options.explain = true;
    options.simulate = !analytic;
    options.inputWarnings = plan.warnings;
    auto analysis = analyseReleased(plan.plan, options);
    if (!analysis->valid()) raiseIssues("invalid plan", analysis->prediction.errors);
    return analysis;
}

// `planscope-cli explain PLAN [--field PATH] [--depth N] [--analytic] --json` (app/cli/Commands.cpp).
py::object explainPy(py::handle planArg, py::object quantity, int depth, bool analytic)
{
    if (!quantity.is_none() && !PyUnicode_Check(quantity.ptr()))
        throw py::type_error("quantity must be a str: a path of the prediction such as \"time.stepSeconds\"");
    const std::string field = quantity.is_none() ? "time.stepSeconds" : quantity.cast<std::string>();
    const auto analysis = explained(planArg, analytic);
    if (!analysis->explainer->find(field))
        raiseAt("quantity", "no explanation for field \"" + field + "\"; explain_fields(plan) lists them");
    return toPython(explanationToJson(*analysis->explainer, field, std::max(0, depth)));
}

// `planscope-cli explain PLAN --list`.
py::list explainFieldsPy(py::handle planArg, bool analytic)
{
    const auto analysis = explained(planArg, analytic);
    py::list fields;
    for (const auto& [field, e] : analysis->explainer->entries()) fields.append(field);
    return fields;
}

// `planscope-cli validate PLAN`: the reader's issues, then validate()'s; a plan that does not parse gives its parse
// errors. Errors first, then warnings, as the JSON's issue objects (docs/FORMATS.md section 1).
py::list validatePy(py::handle planArg)
{
    // The reader's issues and validate()'s, by severity: core's planIssues(), as in the CLI.
    const PlanIssues issues = planIssues(readPlan(planArg));
    py::list out = toPython(issuesToJson(issues.errors));
    for (const py::handle w : py::list(toPython(issuesToJson(issues.warnings)))) out.append(w);
    return out;
}

// The plan with every field written out (io/PlanJson.h planToJson: what `balance --write` saves), presets resolved.
py::object loadPlanPy(py::handle planArg) { return toPython(planToJson(loadPlan(planArg).plan)); }

// A list of str, or one str split at its commas when `split` (--vary's text; a --fix value may hold commas:
// "recompute=selective:core_attn,mlp").
std::vector<std::string> strings(py::handle o, const char* option, bool split)
{
    std::vector<std::string> out;
    if (PyUnicode_Check(o.ptr()) && !split) return { o.cast<std::string>() };
    if (PyUnicode_Check(o.ptr())) {
        const std::string text = o.cast<std::string>();
        std::size_t from = 0;
        while (from <= text.size()) {
            const std::size_t comma = std::min(text.find(',', from), text.size());
            out.push_back(text.substr(from, comma - from));
            from = comma + 1;
        }
        return out;
    }
    if (!PyList_Check(o.ptr()) && !PyTuple_Check(o.ptr()))
        throw py::type_error(std::string(option) + " must be a str or a list of str");
    for (const py::handle e : py::reinterpret_borrow<py::sequence>(o)) out.push_back(py::str(e).cast<std::string>());
    return out;
}

// --days and --tokens: any number Python's float() reads, finite and not negative.
double nonNegative(py::handle o, const char* option)
{
    const py::object f = py::reinterpret_steal<py::object>(PyNumber_Float(o.ptr()));
    if (!f) PyErr_Clear();
    const double v = f ? PyFloat_AsDouble(f.ptr()) : -1.0;
    if (!std::isfinite(v) || v < 0) raiseAt(option, "needs a non-negative number, got " + std::string(py::repr(o)));
    return v;
}

// `planscope-cli search PLAN --json [--objective O] [--top K] [--vary ...] [--fix K=V ...] [--gpus N,...]
// [--simulate-top K] [--threads N] [--days D [--tokens T]]` (app/cli/SearchCommands.cpp). No plan fitting is not an
// error here (the CLI's exit code 3): "best" is empty.
py::object searchPy(py::handle planArg, const std::string& objective, int top, py::object vary, py::object fix,
    py::object gpusArg, int simulateTop, int threads, py::object days, py::object tokens)
{
    LoadedPlan loaded = loadPlan(planArg);
    Plan templ = loaded.plan;

    // fix: {"tp": 8, "sp": True}, ["tp=8", "sp=true"] or "tp=8", applied in order.
    std::vector<Knob> fixed;
    std::vector<std::string> fixes;
    if (PyDict_Check(fix.ptr())) {
        for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(fix)) {
            const std::string value = PyBool_Check(v.ptr()) ? (v.ptr() == Py_True ? "true" : "false") : std::string(py::str(v));
            fixes.push_back(std::string(py::str(k)) + "=" + value);
        }
    } else if (!fix.is_none()) {
        fixes = strings(fix, "fix", false);
    }
    for (const std::string& kv : fixes) {
        std::string message;
        if (!applyFix(templ, kv, message, &fixed)) raiseAt("fix", message);
    }
    std::vector<Knob> knobs;
    if (!vary.is_none()) {
        for (const std::string& name : strings(vary, "vary", true)) {
            const auto k = knobFromName(name);
            if (!k || *k == Knob::Gpus) raiseAt("vary", "unknown knob \"" + name + "\"");
            knobs.push_back(*k);
        }
    } else {
        knobs = defaultKnobs();
    }
    std::erase_if(knobs, [&](Knob k) { return std::find(fixed.begin(), fixed.end(), k) != fixed.end(); });
    std::vector<int> gpus;
    if (!gpusArg.is_none()) {
        if (PyIndex_Check(gpusArg.ptr())) gpusArg = py::make_tuple(gpusArg);
        if (!PyList_Check(gpusArg.ptr()) && !PyTuple_Check(gpusArg.ptr()))
            throw py::type_error("gpus must be a list of GPU counts");
        for (const py::handle g : py::reinterpret_borrow<py::sequence>(gpusArg)) {
            if (!PyIndex_Check(g.ptr()) || PyBool_Check(g.ptr()))
                raiseAt("gpus", "GPU counts are whole numbers, got " + std::string(py::repr(g)));
            const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(g.ptr()));
            int overflow = 0;
            const long long n = index ? PyLong_AsLongLongAndOverflow(index.ptr(), &overflow) : 0;
            if (!index || PyErr_Occurred()) PyErr_Clear();
            if (overflow != 0 || n < 1 || n > 1 << 22)
                raiseAt("gpus", std::string(py::repr(g)) + " is not a GPU count from 1 to 4194304");
            gpus.push_back(int(n));
        }
        if (gpus.empty()) raiseAt("gpus", "needs GPU counts such as [64, 128, 256]");
    }
    if (gpus.empty() && !days.is_none()) gpus = sizingGpuCounts(templ);
    SearchOptions options;
    if (!fromString(objective, options.objective))
        raiseAt("objective", "is time, cost or memory, got \"" + objective + "\"");
    if (top < 0) raiseAt("top", "needs a non-negative number, got " + std::to_string(top));
    if (simulateTop < 0) raiseAt("simulate_top", "needs a non-negative number, got " + std::to_string(simulateTop));
    if (threads < 0) raiseAt("threads", "needs a non-negative number, got " + std::to_string(threads));
    options.top = std::max(1, top);
    options.simulateTop = simulateTop;
    options.threads = threads;
    options.samplePoints = 0;
    std::optional<double> daysValue, tokensValue;
    if (!days.is_none()) daysValue = nonNegative(days, "days");
    if (!tokens.is_none()) tokensValue = nonNegative(tokens, "tokens");

    const auto space = buildSpace(templ, knobs, gpus);
    if (!space) raiseIssues("the search space", space.errors());
    std::atomic<bool> cancel { false };
    options.cancel = &cancel;
    const json doc = runReleased(
        [&] {
            const SearchResult r = search(space.value(), options);
            // Why the template loses to the best plan, and the sizing: the CLI's document (io/SearchJson.h).
            return searchDocument(space.value(), r, options.objective, daysValue, tokensValue);
        },
        cancel);
    return toPython(doc);
}

py::object placementPy(py::handle planArg)
{
    const auto analysis = validAnalysis(planArg);
    return toPython(placementJson(analysis->plan, placementOf(analysis->plan, analysis->prediction)));
}

// A measured run from a run file or shard (planscope-cli reduce), or from a trace file or folder reduced here.
MeasuredRun loadRunPy(py::handle source, const char* option)
{
    if (!isPathLike(source))
        throw py::type_error(std::string(option) + " must be a str path or a path-like object, not "
            + std::string(py::str(py::type::handle_of(source).attr("__name__"))));
    const std::string path = pathOf(source, option);
    Result<MeasuredRun> run = [&] {
        py::gil_scoped_release release;
        ReduceControl control;
        control.threads = std::max(1u, std::thread::hardware_concurrency());
        return loadRun(path, control);
    }();
    if (!run.ok()) {
        raiseIfUnreadable(run.errors(), path);
        raiseIssues(path + " is no run summary", run.errors());
    }
    return std::move(run).value();
}

py::object runSummaryPy(py::handle run, int top)
{
    if (top < 0) raiseAt("top", "must be at least 0");
    return toPython(runSummaryJson(loadRunPy(run, "run"), std::size_t(top)));
}

py::object compareRunsPy(py::handle a, py::handle b)
{
    return toPython(runComparisonJson(compareRuns(loadRunPy(a, "a"), loadRunPy(b, "b"))));
}

} // namespace

} // namespace planscope::python

PYBIND11_MODULE(planscope, m)
{
    using namespace planscope::python;
    m.doc() = "PlanScope: how a large-model training run behaves under a parallel plan. Each function returns the "
              "document of the planscope-cli verb it names, as dicts and lists with the JSON's names "
              "(docs/FORMATS.md). A plan is a dict (a plan file's JSON), a str path or a path-like object; an invalid "
              "plan raises ValueError naming the field, with the issue objects in its `issues` attribute.";
    m.attr("__version__") = PLANSCOPE_VERSION;
    m.def("evaluate", &evaluatePy, py::arg("plan"), py::kw_only(), py::arg("analytic") = false,
        py::arg("calibration") = py::none(), py::arg("calibration_any_gpu") = false,
        "The prediction (schema planscope/prediction/v1) of `planscope-cli evaluate PLAN`: time.stepSeconds is the "
        "simulated step; analytic=True puts the closed form there. calibration: a profile or nccl-tests output "
        "(--calibration), refused when measured on another GPU unless calibration_any_gpu=True.");
    m.def("analyse", &analysePy, py::arg("plan"),
        "The prediction with the simulated step plus its `timeline` summary: `planscope-cli simulate PLAN` "
        "(docs/FORMATS.md section 4). ValueError when the schedule cannot be simulated.");
    m.def("explain", &explainPy, py::arg("plan"), py::arg("quantity") = py::none(), py::kw_only(), py::arg("depth") = 3,
        py::arg("analytic") = false,
        "How one number was computed: `planscope-cli explain PLAN --field QUANTITY --json` (default "
        "time.stepSeconds): field, value, unit, formula, inputs, substituted, source, note and children to `depth` "
        "levels.");
    m.def("explain_fields", &explainFieldsPy, py::arg("plan"), py::kw_only(), py::arg("analytic") = false,
        "Every field explain() can explain: `planscope-cli explain PLAN --list`.");
    m.def("search", &searchPy, py::arg("plan"), py::kw_only(), py::arg("objective") = "time", py::arg("top") = 10,
        py::arg("vary") = py::none(), py::arg("fix") = py::none(), py::arg("gpus") = py::none(),
        py::arg("simulate_top") = 0, py::arg("threads") = 0, py::arg("days") = py::none(), py::arg("tokens") = py::none(),
        "The best plans of the plan's space (schema planscope/search/v1): `planscope-cli search PLAN --json` with "
        "--objective, --top, --vary (a list or 'tp,pp'), --fix (a dict {'tp': 8} or ['tp=8']), --gpus (a list), "
        "--simulate-top, --threads, --days and --tokens. Runs on all cores with the GIL released; Ctrl+C cancels it.");
    m.def("validate", &validatePy, py::arg("plan"),
        "The issues of `planscope-cli validate PLAN`: errors (no 'severity' key), then warnings "
        "('severity': 'warning'); each with 'path', 'message' and, for a parse error, 'offset'.");
    m.def("placement", &placementPy, py::arg("plan"),
        "Each group kind on the cluster's tiers (schema planscope/placement/v1): `planscope-cli placement PLAN --json`.");
    m.def("run_summary", &runSummaryPy, py::arg("run"), py::kw_only(), py::arg("top") = 10,
        "A measured run of many ranks read (schema planscope/run-summary/v1): `planscope-cli run-summary RUN --json`. "
        "run: a run file or shard of `planscope-cli reduce` / planscope-reduce, or a trace file or folder (reduced on "
        "all cores). The slowest `top` ranks with why, every process group with its scope and straggler.");
    m.def("compare_runs", &compareRunsPy, py::arg("a"), py::arg("b"),
        "Two measured runs side by side (schema planscope/run-compare/v1): `planscope-cli compare-runs A B --json`.");
    m.def("load_plan", &loadPlanPy, py::arg("path"),
        "A plan file as a dict with every field written out (presets and defaults resolved); evaluate() and the "
        "others take it, edited or not.");
}
