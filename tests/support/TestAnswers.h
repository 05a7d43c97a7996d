#pragma once
// Shared by the models tests: answers typed as a user would, through the registry's parser, so a
// typo in a test table fails loudly instead of testing the defaults.
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>

// Compares two JSON values and prints both on failure (QCOMPARE cannot print nlohmann::json).
#define JSON_COMPARE(actual, expected)                                                                                 \
    do {                                                                                                               \
        const auto a_ = (actual);                                                                                      \
        const auto e_ = (expected);                                                                                    \
        QVERIFY2(a_ == e_, qPrintable(QString::fromStdString(a_.dump() + " != expected " + e_.dump())));               \
    } while (false)

namespace dsw::test {

inline QString q(const std::string& s) { return QString::fromStdString(s); }

inline Answers answersFrom(const QStringList& settings)
{
    Answers a;
    for (const QString& s : settings) {
        const int eq = s.indexOf('=');
        const std::string id = s.left(eq).toStdString();
        auto r = InputRegistry::instance().parse(id, s.mid(eq + 1).toStdString());
        if (!r)
            qFatal("bad test setting %s: %s", qPrintable(s), r.error().c_str());
        a.set(id, r.value());
    }
    return a;
}

} // namespace dsw::test
