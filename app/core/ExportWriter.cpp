#include "ExportWriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace dsw {

ExportPlacement placeExport(const std::vector<ExportFile>& files, const QString& path, bool bundle)
{
    ExportPlacement placement{path, bundle, {}, {}};
    for (size_t i = 0; i < files.size(); ++i) {
        const QString name = QString::fromStdString(files[i].name);
        const QString target = bundle ? QDir(path).filePath(name)
            : i == 0                  ? path
                                      : QFileInfo(path).dir().filePath(name);
        placement.files.push_back({target, QByteArray::fromStdString(files[i].content), files[i].executable});
        placement.named.push_back(bundle ? files[i].name != kHostfileName : i == 0);
    }
    return placement;
}

QStringList unnamedFilesToOverwrite(const ExportPlacement& placement)
{
    QStringList out;
    for (size_t i = 0; i < placement.files.size(); ++i) {
        const FileToWrite& f = placement.files[i];
        QFile existing(f.path);
        if (placement.named[i] || !QFileInfo(f.path).isFile() || !existing.open(QIODevice::ReadOnly))
            continue; // not there (or not a file: the writer refuses it with its own message)
        if (existing.read(f.bytes.size() + 1) != f.bytes) // the same bytes again change nothing
            out << f.path;
    }
    return out;
}

QString writeExport(const ExportPlacement& placement)
{
    if (!placement.bundle)
        return writeFilesAtomically(placement.files);
    const QFileInfo folder(placement.path);
    if (folder.exists() && !folder.isDir())
        return QStringLiteral("%1 exists and is not a folder").arg(placement.path);
    if (folder.exists())
        return writeFilesAtomically(placement.files);
    std::vector<FileToWrite> byName;
    for (const auto& f : placement.files)
        byName.push_back({QFileInfo(f.path).fileName(), f.bytes, f.executable});
    return writeNewFolderAtomically(placement.path, byName);
}

} // namespace dsw
