#pragma once
#include <QStringList>
#include <QTextStream>

namespace dsw {

// The commands that read or write ds_configs: import, export, diff (lint: LintCommand.h). They throw BadInput on
// bad input.
int runImport(const QStringList& args, QTextStream& out);
int runExport(const QStringList& args, QTextStream& out);
int runDiff(const QStringList& args, QTextStream& out);

} // namespace dsw
