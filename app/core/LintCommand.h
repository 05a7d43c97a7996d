#pragma once
#include <QStringList>
#include <QTextStream>

namespace dsw {

// ds-wizard lint CONFIG|DIR...: each file, and each directory's *.json and *.conf files (sorted by name, not
// recursive), read and linted in this one process. One file: its findings, a line count, exit 0 clean, 1
// findings, 2 unreadable (thrown as BadInput). Several: one block per file, a summary line, the worst exit status;
// an unreadable file is reported on `err` and the others still linted. --format json: one object for one file,
// one array of them for several (an unreadable file's object has "error" instead of "findings"). A Hugging Face
// model config.json is not a DeepSpeed config: one file is refused (exit 2), among several it is skipped.
int runLint(const QStringList& args, QTextStream& out, QTextStream& err);

// At most this many files in one call, so the work stays bounded.
inline constexpr int kMaxLintFiles = 10000;

} // namespace dsw
