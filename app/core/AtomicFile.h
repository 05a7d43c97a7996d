#pragma once
#include <QByteArray>
#include <QString>

namespace dsw {

// The one function that writes files: a temporary file renamed over the target (QSaveFile), so a
// failure leaves the old file untouched. Returns an empty string on success, else the reason.
// `executable` also sets the execute bits (for launch scripts).
QString writeFileAtomically(const QString& path, const QByteArray& bytes, bool executable = false);

// Reads a file the user chose, refusing anything larger than `maxBytes`. Empty error on success.
QString readUserFile(const QString& path, qint64 maxBytes, QByteArray& bytes);

} // namespace dsw
