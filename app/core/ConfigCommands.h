#pragma once
#include <QStringList>
#include <QTextStream>

namespace dsw {

// The commands that read or write ds_configs: lint, import, export, diff. They throw BadInput on bad input.
int runLint(const QStringList& args, QTextStream& out);
int runImport(const QStringList& args, QTextStream& out);
int runExport(const QStringList& args, QTextStream& out);
int runDiff(const QStringList& args, QTextStream& out);

} // namespace dsw
