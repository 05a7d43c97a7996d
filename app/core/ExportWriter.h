#pragma once
#include "AtomicFile.h"
#include "config/ConfigExport.h"

#include <QStringList>
#include <vector>

namespace dsw {

// Where the files of one export go, and what the user named. `path` is the file the user chose (the
// other files, e.g. the hostfile, go beside it) or, for a bundle, the folder.
struct ExportPlacement {
    QString path;
    bool bundle = false;
    std::vector<FileToWrite> files; // full paths
    std::vector<bool> named;        // false: a file the user did not name (the hostfile)
};
ExportPlacement placeExport(const std::vector<ExportFile>& files, const QString& path, bool bundle);

// Existing files the export would change although the user did not name them (a hostfile holds the
// user's real host names): the window asks first, the command line needs --force.
QStringList unnamedFilesToOverwrite(const ExportPlacement& placement);

// Writes every file or none (AtomicFile.h): a bundle into a new folder appears whole. Empty on success.
QString writeExport(const ExportPlacement& placement);

} // namespace dsw
