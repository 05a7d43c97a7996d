// Words, not ids (models/project/InputLabels.h): messages name inputs by their labels, values read back as typed
// in a readable form, fields carry their units, Setup is grouped.
#include "project/InputLabels.h"
#include "project/InputRegistry.h"

#include <QTest>
#include <algorithm>

using namespace dsw;

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
const InputSpec& spec(const char* id) { return *InputRegistry::instance().find(id); }
} // namespace

class TestInputLabels : public QObject {
    Q_OBJECT
private slots:
    void labelsReplaceIds_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("assignment") << "set hardware.nvme = nvme"
                                    << "set “Local NVMe” = nvme";
        QTest::newRow("end of sentence") << "type training.micro_batch_size."
                                         << "type “Micro-batch per GPU”.";
        QTest::newRow("error prefix") << "hardware.gpus_per_node: \"lots\" is not a whole number"
                                      << "“GPUs per node”: \"lots\" is not a whole number";
        QTest::newRow("two") << "zero.stage 3 and pipeline.stages 4"
                             << "“ZeRO stage” 3 and “Pipeline stages” 4";
        QTest::newRow("a ds_config key stays") << "zero_optimization.offload_optimizer.pin_memory"
                                               << "zero_optimization.offload_optimizer.pin_memory";
        QTest::newRow("a longer dotted name stays") << "hardware.nvme.extra"
                                                    << "hardware.nvme.extra";
        QTest::newRow("a file name stays") << "see models/project.cpp"
                                           << "see models/project.cpp";
        QTest::newRow("no ids") << "Fits: 31.00 GiB of 72.00 GiB."
                                << "Fits: 31.00 GiB of 72.00 GiB.";
    }
    void labelsReplaceIds()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(q(withInputLabels(text.toStdString())), expected);
    }

    void messagesSplitIntoLabelsAndText()
    {
        const auto parts = labelledParts("set hardware.nvme = nvme and pipeline.stages.");
        QCOMPARE(parts.size(), std::size_t(5));
        QCOMPARE(q(parts[0].text), QStringLiteral("set "));
        QVERIFY(parts[0].inputId.empty());
        QCOMPARE(q(parts[1].text), QStringLiteral("Local NVMe"));
        QCOMPARE(q(parts[1].inputId), QStringLiteral("hardware.nvme"));
        QCOMPARE(q(parts[2].text), QStringLiteral(" = nvme and "));
        QCOMPARE(q(parts[3].inputId), QStringLiteral("pipeline.stages"));
        QCOMPARE(q(parts[4].text), QStringLiteral(".")); // the full stop is text
        // Nothing to link: one plain part, or none for empty text.
        QCOMPARE(labelledParts("zero_optimization.stage 3").size(), std::size_t(1));
        QVERIFY(labelledParts("").empty());
    }

    // A message's link goes to the one step that asks the input: Setup for a shared one, else its workflow's.
    void everyInputIsAskedOnOnePage()
    {
        QCOMPARE(q(inputPage("hardware.nodes")), QStringLiteral("setup"));
        QCOMPARE(q(inputPage("pipeline.stages")), QStringLiteral("pipeline"));
        QCOMPARE(q(inputPage("memory.oom_message")), QStringLiteral("memory"));
        QCOMPARE(q(inputPage("no.such_input")), QString());
        for (const InputSpec& s : InputRegistry::instance().all()) {
            const std::string page = inputPage(s.id);
            QVERIFY2(page == "setup" || std::find(s.workflows.begin(), s.workflows.end(), page) != s.workflows.end(),
                     s.id.c_str());
            const auto onPage = InputRegistry::instance().onPage(page);
            QVERIFY2(std::find(onPage.begin(), onPage.end(), &s) != onPage.end(), s.id.c_str());
        }
    }

    void anUnknownIdIsItsOwnLabel()
    {
        QCOMPARE(q(inputLabel("memory.oom_message")), QStringLiteral("Out-of-memory message"));
        QCOMPARE(q(inputLabel("no.such_input")), QStringLiteral("no.such_input"));
    }

    void largeCountsReadBackExactly()
    {
        QCOMPARE(q(displayValue(spec("model.params"), 13000000000LL)), QStringLiteral("13B"));
        QCOMPARE(q(displayValue(spec("model.params"), 350000000LL)), QStringLiteral("350M"));
        // A short form that would read back as another number is not used; the digits are grouped instead.
        QCOMPARE(q(displayValue(spec("model.params"), 6738415616LL)), QStringLiteral("6,738,415,616"));
        QCOMPARE(q(displayValue(spec("model.params"), 1234567LL)), QStringLiteral("1,234,567"));
        // Whatever is shown parses back to the same count.
        for (const long long n : {13000000000LL, 350000000LL, 1300000000LL, 6738415616LL, 7000000LL, 125000000LL})
            QVERIFY2(InputRegistry::instance().parse("model.params", displayValue(spec("model.params"), n)).value()
                         == nlohmann::json(n),
                     qPrintable(QString::number(n)));
        QCOMPARE(q(displayValue(spec("hardware.cpu_memory_gib"), 1024.0)), QStringLiteral("1024"));
        QCOMPARE(q(displayValue(spec("training.learning_rate"), 0.0001)), QStringLiteral("0.0001"));
        QCOMPARE(q(displayValue(spec("hardware.nodes"), nullptr)), QString());
    }

    void everyFieldWithAUnitShowsIt()
    {
        QCOMPARE(q(labelWithUnit(spec("hardware.inter_node_gbps"))), QStringLiteral("Inter-node bandwidth (Gbit/s)"));
        QCOMPARE(q(labelWithUnit(spec("model.seq_len"))), QStringLiteral("Sequence length (tokens)"));
        QCOMPARE(q(labelWithUnit(spec("training.total_steps"))), QStringLiteral("Total training steps"));
        QCOMPARE(q(labelWithUnit(spec("training.gradient_accumulation_steps"))),
                 QStringLiteral("Gradient accumulation (steps)"));
        QCOMPARE(q(labelWithUnit(spec("hardware.cpu_memory_gib"))), QStringLiteral("CPU memory per node (GiB)"));
        for (const InputSpec& s : InputRegistry::instance().all()) {
            const std::string shown = labelWithUnit(s);
            QVERIFY2(s.unit.empty() || shown.find(s.unit) != std::string::npos
                         || QString::fromStdString(shown).contains(q(s.unit), Qt::CaseInsensitive),
                     s.id.c_str());
        }
    }

    void setupIsGroupedIntoFourSections()
    {
        for (const InputSpec* s : InputRegistry::instance().onPage("setup")) {
            const std::string section = inputSection(*s);
            QVERIFY2(section == "Model" || section == "Cluster" || section == "Training" || section == "Software",
                     s->id.c_str());
        }
        QCOMPARE(q(inputSection(spec("hardware.gpu"))), QStringLiteral("Cluster"));
        QCOMPARE(q(inputSection(spec("zero.stage"))), QString());
    }
};

QTEST_APPLESS_MAIN(TestInputLabels)
#include "TestInputLabels.moc"
