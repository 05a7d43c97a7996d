#include "AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace dsw {

namespace {

// Temporaries older than this belong to a process that died (kill -9, power loss) mid-write.
const timespec kProcessStart = [] {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    return now;
}();

constexpr std::string_view kTempMarker = ".dswiz-";
constexpr int kTempSuffixLength = 6;

FileWriteHooks realSystemCalls()
{
    FileWriteHooks h;
    h.write = [](int fd, const void* data, std::size_t size) { return ::write(fd, data, size); };
    h.fsync = [](int fd) { return ::fsync(fd); };
    h.close = [](int fd) { return ::close(fd); };
    h.rename = [](const char* from, const char* to) { return ::rename(from, to); };
    return h;
}

QString cannotWrite(const QString& path, int error)
{
    return QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error)));
}

QByteArray native(const QString& path) { return QFile::encodeName(path); }

// ".NAME.dswiz-XXXXXX": hidden, recognisably ours, and naming the file it was going to replace.
QString tempPathFor(const QString& target)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    QString suffix;
    for (int i = 0; i < kTempSuffixLength; ++i)
        suffix += QChar(alphabet[QRandomGenerator::global()->bounded(int(sizeof alphabet - 1))]);
    const QFileInfo info(target);
    return info.absolutePath() + "/." + info.fileName()
        + QLatin1String(kTempMarker.data(), qsizetype(kTempMarker.size())) + suffix;
}

// Whether directory entry `entry` (its bytes, as readdir gives them) is a temporary of `name` (tempPathFor).
bool isTempNameOf(std::string_view entry, std::string_view name)
{
    const std::size_t prefix = 1 + name.size() + kTempMarker.size();
    if (entry.size() != prefix + kTempSuffixLength || entry[0] != '.' || entry.substr(1, name.size()) != name
        || entry.substr(1 + name.size(), kTempMarker.size()) != kTempMarker)
        return false;
    return std::all_of(entry.begin() + static_cast<std::ptrdiff_t>(prefix), entry.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    });
}

bool olderThanThisProcess(const struct stat& st)
{
    return st.st_mtim.tv_sec < kProcessStart.tv_sec
        || (st.st_mtim.tv_sec == kProcessStart.tv_sec && st.st_mtim.tv_nsec < kProcessStart.tv_nsec);
}

// Removes what a killed writer of `target` left behind (see writeFileAtomically). The folder is read with readdir,
// not QDir: every write ends here, and Qt's listing (sorted QStrings and file infos) cost more than the write.
void removeStaleTemporaries(const QString& target)
{
    const QFileInfo info(target);
    const QByteArray folder = native(info.absolutePath());
    const QByteArray name = native(info.fileName());
    DIR* dir = ::opendir(folder.constData());
    if (!dir)
        return;
    std::vector<QByteArray> stale;
    while (const dirent* e = ::readdir(dir))
        if (isTempNameOf(e->d_name, std::string_view(name.constData(), static_cast<std::size_t>(name.size()))))
            stale.push_back(folder + '/' + e->d_name);
    ::closedir(dir);
    for (const QByteArray& path : stale) {
        struct stat st {};
        if (::lstat(path.constData(), &st) != 0 || !olderThanThisProcess(st))
            continue;
        if (S_ISDIR(st.st_mode))
            QDir(QFile::decodeName(path)).removeRecursively();
        else
            ::unlink(path.constData());
    }
}

// The file a write replaces: a symbolic link is followed (the link stays a link).
QString resolvedTarget(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isSymLink())
        return info.absoluteFilePath();
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.symLinkTarget() : canonical; // dangling: create what it points at
}

int retryingFsync(int fd)
{
    int rc;
    do
        rc = fileWriteHooks().fsync(fd);
    while (rc != 0 && errno == EINTR);
    return rc == 0 ? 0 : errno;
}

int writeAll(int fd, const QByteArray& bytes)
{
    const char* data = bytes.constData();
    std::size_t left = static_cast<std::size_t>(bytes.size());
    while (left > 0) {
        const ssize_t n = fileWriteHooks().write(fd, data, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return ENOSPC; // no progress on a regular file: the device took nothing
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    return 0;
}

// One file of a set, from its temporary to its place.
struct Staged {
    QString shown;  // the path the user gave: every message names it
    QString target; // the file replaced (symbolic links followed)
    QString temp;
    QString backup; // a hard link to the old file while a set is renamed, so a failed set can be undone
    bool existed = false;
    bool renamed = false;
};

// Creates the temporary beside the target with the target's permissions and writes it completely.
int stage(const FileToWrite& file, Staged& s)
{
    struct stat old {};
    if (::stat(native(s.target).constData(), &old) == 0) {
        if (!S_ISREG(old.st_mode))
            return EEXIST; // callers check the kind first and say what it is; this is the last guard
        s.existed = true;
    } else if (errno != ENOENT) {
        return errno;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        s.temp = tempPathFor(s.target);
        fd = ::open(native(s.temp).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666); // 0666 less the umask
        if (fd < 0 && errno != EEXIST) {
            s.temp.clear();
            return errno;
        }
    }
    if (fd < 0) {
        s.temp.clear();
        return EEXIST;
    }
    int error = 0;
    struct stat created {};
    ::fstat(fd, &created);
    mode_t mode = (s.existed ? old.st_mode : created.st_mode) & 0777; // never set-user-ID on rewritten bytes
    if (file.executable)
        mode |= (mode & 0444) >> 2; // executable by whoever may read it
    if (s.existed && (old.st_uid != created.st_uid || old.st_gid != created.st_gid))
        // Keeps a file's owner when root saves it; for anyone else it fails, and the saver owns the file.
        if (::fchown(fd, old.st_uid, old.st_gid) != 0) {
        }
    if (::fchmod(fd, mode) != 0)
        error = errno;
    if (!error)
        error = writeAll(fd, file.bytes);
    if (!error)
        error = retryingFsync(fd);
    if (!error) {
        const int rc = fileWriteHooks().close(fd);
        fd = -1;
        if (rc != 0 && errno != EINTR) // after EINTR Linux has closed it; fsync already reported the data's fate
            error = errno;
    }
    if (fd >= 0)
        ::close(fd);
    if (error) {
        ::unlink(native(s.temp).constData());
        s.temp.clear();
    }
    return error;
}

void discard(std::vector<Staged>& staged)
{
    for (auto& s : staged) {
        if (!s.temp.isEmpty())
            ::unlink(native(s.temp).constData());
        if (!s.backup.isEmpty())
            ::unlink(native(s.backup).constData());
    }
}

// Puts the old files back after a rename in the middle of a set failed.
void undoRenames(std::vector<Staged>& staged)
{
    for (auto it = staged.rbegin(); it != staged.rend(); ++it) {
        if (!it->renamed)
            continue;
        if (!it->backup.isEmpty() && ::rename(native(it->backup).constData(), native(it->target).constData()) == 0)
            it->backup.clear();
        else if (!it->existed)
            ::unlink(native(it->target).constData());
    }
}

int fsyncFolder(const QString& folder)
{
    const int fd = ::open(native(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int error = retryingFsync(fd);
    ::close(fd);
    return error == EINVAL || error == ENOTSUP ? 0
                                               : error; // a file system that cannot sync folders has nothing to sync
}

QString writeSet(const std::vector<FileToWrite>& files, const std::vector<QString>& shown, bool removeStale)
{
    std::vector<Staged> staged(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        staged[i].shown = shown[i];
        staged[i].target = resolvedTarget(files[i].path);
        if (const int error = stage(files[i], staged[i])) {
            discard(staged);
            return cannotWrite(staged[i].shown, error);
        }
    }
    for (auto& s : staged) {
        if (staged.size() > 1 && s.existed) {
            for (int attempt = 0; attempt < 100 && s.backup.isEmpty(); ++attempt) {
                s.backup = tempPathFor(s.target);
                if (::link(native(s.target).constData(), native(s.backup).constData()) != 0) {
                    const bool retry = errno == EEXIST;
                    s.backup.clear();
                    if (!retry)
                        break; // no hard links here: this one file cannot be put back if a later rename fails
                }
            }
        }
        if (fileWriteHooks().rename(native(s.temp).constData(), native(s.target).constData()) != 0) {
            const int error = errno;
            undoRenames(staged);
            discard(staged);
            return cannotWrite(s.shown, error);
        }
        s.renamed = true;
        s.temp.clear();
    }
    discard(staged); // the backups
    std::set<QString> folders;
    for (const auto& s : staged)
        folders.insert(QFileInfo(s.target).absolutePath());
    for (const QString& folder : folders)
        if (const int error = fsyncFolder(folder)) // the new names are in place but may not survive a crash
            return cannotWrite(staged.front().shown, error);
    if (removeStale)
        for (const auto& s : staged)
            removeStaleTemporaries(s.target);
    return {};
}

} // namespace

FileWriteHooks& fileWriteHooks()
{
    static FileWriteHooks hooks = realSystemCalls();
    return hooks;
}

void resetFileWriteHooks() { fileWriteHooks() = realSystemCalls(); }

QString nonRegularFileKind(const QString& path)
{
    struct stat st {};
    if (path.isEmpty() || ::stat(native(path).constData(), &st) != 0 || S_ISREG(st.st_mode))
        return {};
    if (S_ISDIR(st.st_mode))
        return QStringLiteral("a folder");
    if (S_ISCHR(st.st_mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(st.st_mode))
        return QStringLiteral("a block device");
    if (S_ISFIFO(st.st_mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(st.st_mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

QString writeFileAtomically(const QString& path, const QByteArray& bytes, bool executable)
{
    return writeFilesAtomically({{path, bytes, executable}});
}

QString writeFilesAtomically(const std::vector<FileToWrite>& files)
{
    std::vector<QString> shown;
    for (const auto& f : files) {
        if (const QString kind = nonRegularFileKind(f.path); !kind.isEmpty())
            return QStringLiteral("cannot write %1: it is %2, not a regular file").arg(f.path, kind);
        shown.push_back(f.path);
    }
    return writeSet(files, shown, true);
}

QString writeNewFolderAtomically(const QString& folder, const std::vector<FileToWrite>& filesByName)
{
    const QFileInfo info(folder);
    if (info.exists() || info.isSymLink())
        return cannotWrite(folder, EEXIST);
    QString temp;
    for (int attempt = 0; attempt < 100 && temp.isEmpty(); ++attempt) {
        temp = tempPathFor(info.absoluteFilePath());
        if (::mkdir(native(temp).constData(), 0777) != 0) { // 0777 less the umask, as any new folder
            const int error = errno;
            temp.clear();
            if (error != EEXIST)
                return cannotWrite(folder, error);
        }
    }
    if (temp.isEmpty())
        return cannotWrite(folder, EEXIST);
    std::vector<FileToWrite> inside;
    std::vector<QString> shown;
    for (const auto& f : filesByName) {
        inside.push_back({QDir(temp).filePath(f.path), f.bytes, f.executable});
        shown.push_back(QDir(folder).filePath(f.path));
    }
    QString error = writeSet(inside, shown, false);
    if (error.isEmpty()
        && fileWriteHooks().rename(native(temp).constData(), native(info.absoluteFilePath()).constData()) != 0)
        error = cannotWrite(folder, errno);
    if (!error.isEmpty()) {
        QDir(temp).removeRecursively();
        return error;
    }
    if (const int syncError = fsyncFolder(info.absolutePath()))
        return cannotWrite(folder, syncError);
    removeStaleTemporaries(info.absoluteFilePath());
    return {};
}

QString readUserFile(const QString& path, qint64 maxBytes, QByteArray& bytes)
{
    QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1: no such file").arg(path);
    if (!info.isFile())
        return QStringLiteral("%1: not a regular file").arg(path);
    if (info.size() > maxBytes)
        return QStringLiteral("%1: larger than %2 bytes").arg(path).arg(maxBytes);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    // A buffer of what the file holds, not of the limit (read(maxBytes + 1) allocated 16 MiB for a 2 KB project);
    // on while a read fills what it asked (the file grew, or says size 0 as /proc files do), to one byte past it.
    qint64 asked = std::min(info.size(), maxBytes) + 1;
    bytes = file.read(asked);
    while (bytes.size() == asked && asked <= maxBytes) {
        const qint64 more = std::min(maxBytes + 1 - asked, std::max<qint64>(asked, 4096));
        bytes.append(file.read(more));
        asked += more;
    }
    if (bytes.size() > maxBytes)
        return QStringLiteral("%1: larger than %2 bytes").arg(path).arg(maxBytes);
    return {};
}

} // namespace dsw
