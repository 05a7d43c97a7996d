#pragma once
#include "project/ProjectFile.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <cstdint>
#include <string>

namespace dsw {

// Thrown by the commands for bad input; runCommandLine prints it as one line and exits with 2.
struct BadInput {
    QString message;
};

// Thrown for -h/--help after a command; runCommandLine prints the command's usage and the options, exit 0.
struct HelpRequested {
    QString options; // the option list, as QCommandLineParser lays it out
};

// Parses the options (adding -h/--help); `positional` names the positional arguments the command takes
// ("CONFIG", "A.json B.json"; "CONFIG..." for one or more). args.first() is the command. An unknown option's
// error lists the allowed ones.
void parseOrThrow(QCommandLineParser& parser, const QStringList& args, const QString& positional = {});
std::int64_t countOption(const QCommandLineParser& parser, const QString& name, bool required, std::int64_t min,
                         std::int64_t max);

// --project F (when given) with each --set id=value applied on top (split at the first '=').
void addProjectOptions(QCommandLineParser& parser);
Project projectFromOptions(const QCommandLineParser& parser);
void applySets(const QStringList& assignments, Answers& answers);

// -o checked before anything is computed: refuses an empty path, a device, FIFO, socket or folder (a bundle's
// -o must be a folder or new: `folder`), and any of `inputs` (the same file by device and inode, symbolic
// links followed). Throws BadInput naming it.
void checkOutputPath(const QString& path, const QStringList& inputs, bool folder = false);
// True when both paths exist and are the same file (device and inode).
bool isSameFile(const QString& a, const QString& b);

// Standard output when `path` is empty, else the file, atomically.
void writeOutput(const QString& path, const std::string& text, QTextStream& out, bool executable = false);
std::string readInputFile(const QString& path, std::size_t maxBytes);

} // namespace dsw
