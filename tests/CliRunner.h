// Runs the built planscope-cli for end-to-end tests and captures its exit code and output.
#pragma once

#include <QProcess>
#include <QStringList>
#include <string>

namespace planscope::test {

struct CliRun {
    int code = -1; // -1: did not finish in time, -2: crashed
    std::string out, err;
};

inline CliRun runCli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PLANSCOPE_CLI), args);
    CliRun r;
    if (!p.waitForFinished(120000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

} // namespace planscope::test
