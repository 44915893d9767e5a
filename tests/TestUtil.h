// Shared helpers for the Qt Test suites: loading samples and plans from JSON text.
#pragma once

#include "cost/Evaluate.h"
#include "io/PlanJson.h"

#include <QString>
#include <QTest>
#include <string>

namespace planscope::test {

inline std::string samplePath(const char* name)
{
    return std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name;
}

// Loads a plan or fails the current test with the loader's first error.
inline Plan loadSample(const char* name)
{
    auto r = loadPlanFile(samplePath(name));
    if (!r) {
        QTest::qFail(("cannot load " + std::string(name) + ": " + r.errors().front().path + " "
                         + r.errors().front().message).c_str(),
            __FILE__, __LINE__);
        return {};
    }
    return r->plan;
}

inline Plan planFromText(const std::string& text)
{
    auto r = parsePlan(text);
    if (!r) {
        QTest::qFail(("plan did not parse: " + r.errors().front().path + " " + r.errors().front().message).c_str(),
            __FILE__, __LINE__);
        return {};
    }
    return r->plan;
}

// Relative closeness for doubles computed two ways.
inline bool near(double a, double b, double rel = 1e-9)
{
    const double scale = std::max(std::abs(a), std::abs(b));
    return scale == 0 ? true : std::abs(a - b) <= rel * scale;
}

} // namespace planscope::test
