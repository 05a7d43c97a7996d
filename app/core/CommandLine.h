#pragma once
#include <QStringList>
#include <QTextStream>

namespace dsw {

// True when the arguments ask for a headless command (estimate, recommend, keys, --help, --version).
bool isCommandLineInvocation(const QStringList& arguments);

// Runs a headless command. Exit status: 0 success, 2 bad input (one line on `err` naming the problem).
int runCommandLine(const QStringList& arguments, QTextStream& out, QTextStream& err);

} // namespace dsw
