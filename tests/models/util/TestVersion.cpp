// Version numbers as users type them (models/util/Version.h): compared part by part, numerically.
#include "util/Version.h"

#include <QTest>

using namespace dsw;

class TestVersion : public QObject {
    Q_OBJECT
private slots:
    void parsesDottedNumbersAndIgnoresSuffixes()
    {
        QCOMPARE(Version::parse("0.19.5").parts, (std::vector<int>{0, 19, 5}));
        QCOMPARE(Version::parse("2.8.0+cu124").parts, (std::vector<int>{2, 8, 0}));
        QCOMPARE(Version::parse("2.1.0a0").parts, (std::vector<int>{2, 1, 0}));
        QCOMPARE(Version::parse("12.4").parts, (std::vector<int>{12, 4}));
        QVERIFY(!Version::parse("").valid());
        QVERIFY(!Version::parse("v0.19").valid()); // a leading letter is not a version
        QVERIFY(!Version::parse("latest").valid());
    }
    void comparesNumericallyNotAsText()
    {
        QVERIFY(versionAtLeast("0.19.10", "0.19.9"));
        QVERIFY(!versionAtLeast("0.9.9", "0.19"));
        QVERIFY(versionAtLeast("1.0", "1.0.0")); // missing parts are 0
        QCOMPARE(Version::parse("1.0").compare(Version::parse("1.0.0")), 0);
        QVERIFY(Version::parse("2.0").compare(Version::parse("10.0")) < 0);
        QVERIFY(!versionAtLeast("0.19.4", "0.19.5"));
    }
    void hugeNumbersDoNotOverflow()
    {
        const Version v = Version::parse("99999999999999999999.1");
        QVERIFY(v.valid());
        QVERIFY(v.parts[0] > 0); // capped, never wrapped negative
        QVERIFY(versionAtLeast("99999999999999999999", "99999"));
    }
};

QTEST_APPLESS_MAIN(TestVersion)
#include "TestVersion.moc"
