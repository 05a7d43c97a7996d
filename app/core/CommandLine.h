#pragma once
#include <QStringList>
#include <QTextStream>

namespace dsw {

// True unless the arguments are empty or one project file (then the window opens).
bool isCommandLineInvocation(const QStringList& arguments);

// Runs a headless command. Exit status: 0 success, 2 bad input (one line on `err` naming the problem).
int runCommandLine(const QStringList& arguments, QTextStream& out, QTextStream& err);

} // namespace dsw
