// The bound on user regular expressions (models/util/RegexLimits.h): the patterns people write for
// partition_method "type:" pass; the ones whose backtracking explodes are named with the reason.
#include "util/RegexLimits.h"

#include <QTest>

#include <chrono>
#include <regex>

using namespace dsw;

class TestRegexLimits : public QObject {
    Q_OBJECT
private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("pattern");
        for (const char* p :
             {"transformer", "TransformerBlock|Embedding", "^block$", "[Bb]lock", ".*Block", "embed|head",
              "(?:embed|head)", "layer\\d+", "a{2,3}b", "[(*]+x", "\\(.*\\)", "trans.*former.*block"})
            QTest::newRow(p) << QString::fromLatin1(p);
    }
    void accepted()
    {
        QFETCH(QString, pattern);
        const auto why = regexTooComplex(pattern.toStdString());
        QVERIFY2(!why, why ? why->c_str() : "");
    }

    void refused_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("reason");
        QTest::newRow("(.*)*x") << "(.*)*x"
                                << "repeats a group that itself repeats";
        QTest::newRow("((.*)*)*x") << "((.*)*)*x"
                                   << "repeats a group that itself repeats";
        QTest::newRow("(a|a)*b") << "(a|a)*b"
                                 << "alternates";
        QTest::newRow("(?:a+)+b") << "(?:a+)+b"
                                  << "repeats a group that itself repeats";
        QTest::newRow("(x{1,3}){2}") << "(x{1,3}){2}"
                                     << "repeats a group";
        QTest::newRow("four repetitions") << ".*.*.*.*x"
                                          << "more than 3 repetitions";
        QTest::newRow("lazy ones count too") << ".*?.+?.??a*?"
                                             << "more than 3 repetitions";
        QTest::newRow("too long") << QString(257, 'a') << "longer than 256";
    }
    void refused()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, reason);
        const auto why = regexTooComplex(pattern.toStdString());
        QVERIFY(why);
        QVERIFY2(QString::fromStdString(*why).contains(reason), why->c_str());
    }

    // What the limit is for: an accepted pattern of the worst shape matches the wizard's longest layer
    // name fast (a 16-character name; "(.*)*x" took over 30 s over 34 names).
    void acceptedWorstCaseIsFast()
    {
        const std::string pattern = ".*.*.*x";
        QVERIFY(!regexTooComplex(pattern));
        const std::regex regex(pattern, std::regex::ECMAScript | std::regex::icase);
        const auto start = std::chrono::steady_clock::now();
        for (const char* name : {"TransformerBlock", "Embedding", "LMHead", "Layer"})
            QVERIFY(!std::regex_search(name, regex));
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        QVERIFY2(ms.count() < 1000, qPrintable(QString::number(ms.count()) + " ms"));
    }
};

QTEST_APPLESS_MAIN(TestRegexLimits)
#include "TestRegexLimits.moc"
