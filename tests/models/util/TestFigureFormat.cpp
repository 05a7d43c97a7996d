// util/Count: figures shown to people carry three significant digits, none after the point from 100 up, thousands
// grouped (the Why tab's estimates printed six: "1.93919 s", "4224.45 tokens/s").
#include "util/Count.h"

#include <QTest>

#include <cmath>

using namespace dsw;

class TestFigureFormat : public QObject {
    Q_OBJECT
private slots:
    void figures_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("seconds") << 1.939186412635897 << "1.94";
        QTest::newRow("small seconds") << 0.01343201754385965 << "0.0134";
        QTest::newRow("percent") << 7.48267528432368 << "7.48";
        QTest::newRow("two digits") << 42.567 << "42.6";
        QTest::newRow("tokens per second") << 4224.452041650178 << "4,224";
        QTest::newRow("a rate") << 1600.0 << "1,600";
        QTest::newRow("millions") << 12345678.9 << "12,345,679";
        QTest::newRow("negative") << -2500.4 << "-2,500";
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("tiny") << 0.000012345 << "0.0000123";
        QTest::newRow("huge") << 3.2e18 << "3.2e+18";
        QTest::newRow("not a number") << std::nan("") << "nan";
    }
    void figures()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatFigure(value)), text);
    }
};

QTEST_APPLESS_MAIN(TestFigureFormat)
#include "TestFigureFormat.moc"
