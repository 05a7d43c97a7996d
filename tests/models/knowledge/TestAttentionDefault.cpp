// knowledge/AttentionDefault: flash where the GPU (compute capability 8.0+) and PyTorch allow it, else sdpa
// (PyTorch 2.0+), else eager, with a reason that names the GPU and the version.
#include "knowledge/AttentionDefault.h"

#include <QTest>

using namespace dsw;

Q_DECLARE_METATYPE(AttentionImpl)

class TestAttentionDefault : public QObject {
    Q_OBJECT
private slots:
    void rule_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("torch");
        QTest::addColumn<AttentionImpl>("expected");
        QTest::addColumn<QString>("reasonNames");
        QTest::newRow("A100, torch 2.8") << "A100-80GB" << "2.8.0" << AttentionImpl::Flash << "8.0";
        QTest::newRow("H100, torch 1.13") << "H100-80GB" << "1.13.1" << AttentionImpl::Flash << "9.0";
        QTest::newRow("V100, torch 2.8") << "V100-32GB" << "2.8.0" << AttentionImpl::Sdpa << "7.0";
        QTest::newRow("T4, torch 2.0") << "T4" << "2.0" << AttentionImpl::Sdpa << "7.5";
        QTest::newRow("V100, torch 1.13") << "V100-32GB" << "1.13.1" << AttentionImpl::Eager << "1.13.1";
        QTest::newRow("A100, torch 1.11") << "A100-80GB" << "1.11.0" << AttentionImpl::Eager << "1.11.0";
        QTest::newRow("unknown GPU") << "nope" << "2.8.0" << AttentionImpl::Sdpa << "not in the catalog";
    }
    void rule()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, torch);
        QFETCH(AttentionImpl, expected);
        QFETCH(QString, reasonNames);
        const AttentionDefault d = defaultAttentionImpl(GpuCatalog::instance().find(gpu.toStdString()), torch.toStdString());
        QCOMPARE(toString(d.impl), toString(expected));
        QVERIFY2(d.reason.find(reasonNames.toStdString()) != std::string::npos, d.reason.c_str());
        QVERIFY(d.reason.rfind(std::string(toString(expected)) + ":", 0) == 0);
    }
};

QTEST_APPLESS_MAIN(TestAttentionDefault)
#include "TestAttentionDefault.moc"
