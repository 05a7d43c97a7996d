// The semantic diff: DeepSpeed's defaults, aliases and deprecated spellings compare equal.
#include "config/ConfigDiff.h"

#include <QTest>

using namespace dsw;
using oj = nlohmann::ordered_json;

class TestConfigDiff : public QObject {
    Q_OBJECT
private slots:
    void differences_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QStringList>("pointers"); // expected differing pointers, in order
        QTest::newRow("identical") << R"({"train_batch_size": 8})"
                                   << R"({"train_batch_size": 8})" << QStringList{};
        QTest::newRow("absent equals default stage 0") << R"({"zero_optimization": {"stage": 0}})"
                                                       << "{}" << QStringList{};
        QTest::newRow("exponent equals integer")
            << R"({"zero_optimization": {"reduce_bucket_size": 5e8}})"
            << R"({"zero_optimization": {"reduce_bucket_size": 500000000}})" << QStringList{};
        // overlap_comm's default is None, which DeepSpeed turns into True at stage 3 and False below.
        QTest::newRow("overlap_comm at stage 3") << R"({"zero_optimization": {"stage": 3, "overlap_comm": true}})"
                                                 << R"({"zero_optimization": {"stage": 3}})" << QStringList{};
        QTest::newRow("overlap_comm at stage 2")
            << R"({"zero_optimization": {"stage": 2, "overlap_comm": true}})"
            << R"({"zero_optimization": {"stage": 2}})" << QStringList{"/zero_optimization/overlap_comm"};
        // populate_by_name: the pydantic field name and the stage3_ alias are the same key; 5e7 is its default.
        QTest::newRow("alias and field name")
            << R"({"zero_optimization": {"stage3_prefetch_bucket_size": 1000}})"
            << R"({"zero_optimization": {"prefetch_bucket_size": 1000}})" << QStringList{};
        QTest::newRow("prefetch default 5e7, not the docs' 5e8")
            << R"({"zero_optimization": {"stage3_prefetch_bucket_size": 50000000}})"
            << "{}" << QStringList{};
        QTest::newRow("bfloat16 is bf16") << R"({"bfloat16": {"enabled": true}})"
                                          << R"({"bf16": {"enabled": true}})" << QStringList{};
        QTest::newRow("cpu_offload is offload_optimizer cpu")
            << R"({"zero_optimization": {"stage": 2, "cpu_offload": true}})"
            << R"({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})" << QStringList{};
        QTest::newRow("stage differs") << R"({"zero_optimization": {"stage": 2}})"
                                       << R"({"zero_optimization": {"stage": 3}})"
                                       << QStringList{"/zero_optimization/stage"};
        QTest::newRow("unknown key on one side") << R"({"my_key": 1})"
                                                 << "{}" << QStringList{"/my_key"};
        QTest::newRow("fp16 disabled equals absent") << R"({"fp16": {"enabled": false}})"
                                                     << "{}" << QStringList{};
    }
    void differences()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QStringList, pointers);
        const auto diffs = diffConfigs(oj::parse(a.toStdString()), oj::parse(b.toStdString()));
        QStringList got;
        for (const auto& d : diffs)
            got << QString::fromStdString(d.pointer);
        QCOMPARE(got, pointers);
        // Symmetric: the same pointers the other way round.
        QCOMPARE(int(diffConfigs(oj::parse(b.toStdString()), oj::parse(a.toStdString())).size()), int(pointers.size()));
    }

    void reportsTheValuesDeepSpeedUses()
    {
        const auto diffs = diffConfigs(oj::parse(R"({"gradient_clipping": 0.5})"), oj::parse("{}"));
        QCOMPARE(int(diffs.size()), 1);
        QVERIFY(diffs[0].a == 0.5);
        QVERIFY(diffs[0].b == 1.0); // the default since 0.19.3
        QVERIFY(diffs[0].bAbsent && !diffs[0].aAbsent);
        QVERIFY(!diffs[0].meaning.empty());
    }
};

QTEST_APPLESS_MAIN(TestConfigDiff)
#include "TestConfigDiff.moc"
