#pragma once
// A program of the build (the command line, a copy of it) run as a test's child process, with a time limit; by
// default offscreen, with HOME and the XDG folders in the test's own folder so no setting of the user is read or
// touched.
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace dsw::test {

struct ProgramRun {
    bool finished = false; // false: it did not start, or was killed at the time limit
    int exitCode = -1;     // -1: it crashed or did not finish
    QByteArray out;
    QByteArray err;
};

// The caller's environment, offscreen, with HOME and the XDG folders under `home`.
inline QProcessEnvironment isolatedEnvironment(const QString& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", home);
    env.insert("XDG_CONFIG_HOME", home + "/config");
    env.insert("XDG_DATA_HOME", home + "/data");
    env.insert("XDG_CACHE_HOME", home + "/cache");
    env.insert("XDG_RUNTIME_DIR", home);
    return env;
}

inline ProgramRun runProgram(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                             const QString& workingDirectory, int timeoutMs = 60000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(workingDirectory);
    p.start(program, args);
    ProgramRun r;
    if (!p.waitForStarted(10000))
        return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = r.finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace dsw::test
