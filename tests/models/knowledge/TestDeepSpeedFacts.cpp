// What ds-wizard knows of DeepSpeed itself (resources/knowledge/deepspeed.json via models/knowledge/DeepSpeedFacts.h),
// and the rule that version facts live there once: no string literal in models/ writes the knowledge version.
#include "knowledge/DeepSpeedFacts.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <stdexcept>

using namespace dsw;

class TestDeepSpeedFacts : public QObject {
    Q_OBJECT
private slots:
    void versionAndBasis()
    {
        const std::string v = knowledgeVersion();
        QVERIFY(QRegularExpression("^\\d+\\.\\d+\\.\\d+$").match(QString::fromStdString(v)).hasMatch());
        QVERIFY(basisStatement().find("DeepSpeed " + v) != std::string::npos);
        QVERIFY(basisStatement().find("did not run or test") != std::string::npos);
    }
    void torchRequirementIsRead()
    {
        const TorchRequirement r = torchRequirement();
        QCOMPARE(r.minimum, std::string("2.0.0"));
        QCOMPARE(r.knownFrom, knowledgeVersion()); // read from the requirements.txt of the knowledge version
    }
    void changedDefaults()
    {
        const ChangedDefault pin = changedDefault("zero_optimization.offload_optimizer.pin_memory");
        QCOMPARE(pin.from, std::string("0.19.5"));
        QVERIFY(pin.before == false);
        QVERIFY(pin.after == true);
        QCOMPARE(changedDefault("gradient_clipping").from, std::string("0.19.3"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, changedDefault("no.such.key"));
    }
    // A version fact in prose would go stale when the knowledge is re-read from a new DeepSpeed.
    void noLiteralWritesTheKnowledgeVersion()
    {
        const QString version = QString::fromStdString(knowledgeVersion());
        const QRegularExpression literal(QStringLiteral("\"((?:[^\"\\\\\n]|\\\\.)*)\""));
        QStringList found;
        QDirIterator it(QStringLiteral(DSW_SOURCE_DIR "/models"), {"*.h", "*.cpp"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
            for (int i = 0; i < lines.size(); ++i) {
                const QString code = lines[i].section(QStringLiteral("//"), 0, 0);
                for (auto m = literal.globalMatch(code); m.hasNext();) {
                    const QString text = m.next().captured(1);
                    if (text.contains(version) && !text.contains(QStringLiteral("github.com")))
                        found << QString("%1:%2: %3").arg(path).arg(i + 1).arg(text.left(80));
                }
            }
        }
        QVERIFY2(found.isEmpty(), qPrintable("take versions from DeepSpeedFacts:\n" + found.join('\n')));
    }
};

QTEST_APPLESS_MAIN(TestDeepSpeedFacts)
#include "TestDeepSpeedFacts.moc"
