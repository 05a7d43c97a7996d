#pragma once
#include <QByteArray>
#include <QString>

#include <cstddef>
#include <functional>
#include <sys/types.h>
#include <vector>

namespace dsw {

// The system calls the writers make, replaceable so tests can inject ENOSPC, EIO or EDQUOT at each stage.
// A hook fails like the call it replaces: it returns -1 with errno set. Production never changes them.
struct FileWriteHooks {
    std::function<ssize_t(int fd, const void* data, std::size_t size)> write;
    std::function<int(int fd)> fsync; // the file's and, after the rename, its folder's
    std::function<int(int fd)> close;
    std::function<int(const char* from, const char* to)> rename;
};
FileWriteHooks& fileWriteHooks(); // the hooks in use
void resetFileWriteHooks();       // back to the real system calls

struct FileToWrite {
    QString path;
    QByteArray bytes;
    bool executable = false; // launch scripts: execute permission wherever the file is readable
};

// The one function that writes files. Each file goes to a temporary ".NAME.dswiz-XXXXXX" beside its target,
// written with checked write() calls, fsync()ed and closed; only when every file of the set is complete are
// they renamed over their targets, and the folders fsync()ed. A write succeeds only when the bytes are on
// disk: on any failure every temporary is removed, every target keeps its old bytes (renames already done
// are undone), and the answer is "cannot write PATH: <the system's reason>". Empty string on success.
// An existing target keeps its permissions (and owner, where allowed); a symbolic link is followed; a
// target that exists and is not a regular file (a device, FIFO, socket, folder) is refused, never replaced.
// A kill leaves at most a ".NAME.dswiz-XXXXXX" temporary; the next successful write of NAME removes those
// older than this process (younger ones may belong to another ds-wizard writing the same file).
QString writeFileAtomically(const QString& path, const QByteArray& bytes, bool executable = false);
QString writeFilesAtomically(const std::vector<FileToWrite>& files);

// Writes the files into the folder `folder`, which must not exist yet: they are written into a temporary
// folder beside it, renamed to `folder` when all are complete. Empty string on success.
QString writeNewFolderAtomically(const QString& folder, const std::vector<FileToWrite>& filesByName);

// What `path` is when it exists and is not a regular file ("a folder", "a FIFO", "a character device", ...),
// following symbolic links; empty when it is a regular file or does not exist. Only stat()s it: never opens it.
QString nonRegularFileKind(const QString& path);

// Reads a file the user chose, refusing anything larger than `maxBytes`. Empty error on success.
QString readUserFile(const QString& path, qint64 maxBytes, QByteArray& bytes);

} // namespace dsw
