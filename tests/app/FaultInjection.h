#pragma once
// Makes one stage of the file writers fail like a full disk or a broken one (AtomicFile.h's hooks).
#include "AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QString>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/stat.h>

namespace dsw::test {

enum class Stage { Write, Fsync, Close, Rename };

inline const char* stageName(Stage s)
{
    switch (s) {
    case Stage::Write: return "write";
    case Stage::Fsync: return "fsync";
    case Stage::Close: return "close";
    case Stage::Rename: return "rename";
    }
    return "?";
}

// While alive, the `failAt`-th call (0 = the first) of `stage`, and every later one, fails with `error`.
class InjectedFailure {
public:
    InjectedFailure(Stage stage, int error, int failAt = 0)
    {
        auto& hooks = fileWriteHooks();
        auto calls = std::make_shared<int>(0);
        auto failing = [calls, failAt, error] {
            if ((*calls)++ < failAt)
                return false;
            errno = error;
            return true;
        };
        switch (stage) {
        case Stage::Write: {
            auto real = hooks.write;
            hooks.write = [real, failing](int fd, const void* d, std::size_t n) -> ssize_t {
                return failing() ? -1 : real(fd, d, n);
            };
            break;
        }
        case Stage::Fsync: {
            auto real = hooks.fsync;
            hooks.fsync = [real, failing](int fd) { return failing() ? -1 : real(fd); };
            break;
        }
        case Stage::Close: {
            auto real = hooks.close;
            hooks.close = [real, failing](int fd) {
                if (failing()) {
                    const int e = errno;
                    real(fd); // a failed close still closes the descriptor on Linux
                    errno = e;
                    return -1;
                }
                return real(fd);
            };
            break;
        }
        case Stage::Rename: {
            auto real = hooks.rename;
            hooks.rename = [real, failing](const char* a, const char* b) { return failing() ? -1 : real(a, b); };
            break;
        }
        }
    }
    ~InjectedFailure() { resetFileWriteHooks(); }
    InjectedFailure(const InjectedFailure&) = delete;
    InjectedFailure& operator=(const InjectedFailure&) = delete;
};

inline QString reason(int error) { return QString::fromLocal8Bit(std::strerror(error)); }

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

// Every file under `dir` (hidden ones included: temporaries) with its bytes and mode, to compare before and after.
inline QMap<QString, QByteArray> snapshot(const QString& dir)
{
    QMap<QString, QByteArray> out;
    const QDir d(dir);
    for (const QString& entry : d.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
        const QString path = d.filePath(entry);
        struct stat st {};
        ::lstat(QFile::encodeName(path).constData(), &st);
        if (S_ISDIR(st.st_mode)) {
            out.insert(entry + "/", QByteArray::number(st.st_mode, 8));
            const auto inner = snapshot(path);
            for (auto it = inner.begin(); it != inner.end(); ++it)
                out.insert(entry + "/" + it.key(), it.value());
        } else {
            out.insert(entry, QByteArray::number(st.st_mode, 8) + ":" + readAll(path));
        }
    }
    return out;
}

} // namespace dsw::test
