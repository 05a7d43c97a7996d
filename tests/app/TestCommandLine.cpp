// The headless command line, through the real binary (DSW_EXECUTABLE) run with QProcess:
// --version, --help, estimate, recommend (formats, --set, --project, -o), keys, and bad input
// (exit 2, exactly one line on stderr naming the problem, nothing written).
#include "CommandLine.h"
#include "ProgramRun.h"
#include "project/InputRegistry.h"
#include "project/ProjectFile.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <limits>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

using Run = dsw::test::ProgramRun;

QString q(const std::string& s) { return QString::fromStdString(s); }

QStringList lines(const QByteArray& bytes) { return QString::fromUtf8(bytes).split('\n', Qt::SkipEmptyParts); }

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT

    QTemporaryDir m_home; // HOME, XDG dirs and working directory of every run: nothing touches the real ones

    Run run(const QStringList& args, int timeoutMs = 30000)
    {
        return dsw::test::runProgram(QStringLiteral(DSW_EXECUTABLE), args,
                                     dsw::test::isolatedEnvironment(m_home.path()), m_home.path(), timeoutMs);
    }

    // Runs a command that must succeed and print JSON.
    oj runJson(const QStringList& args)
    {
        const Run r = run(args);
        if (!r.finished || r.exitCode != 0) {
            qWarning("%s: exit %d, stderr: %s", qPrintable(args.join(' ')), r.exitCode, r.err.constData());
            return oj();
        }
        try {
            return oj::parse(r.out.toStdString());
        } catch (const std::exception& e) {
            qWarning("%s: not JSON: %s", qPrintable(args.join(' ')), e.what());
            return oj();
        }
    }

    static QStringList setArgs(const QStringList& settings)
    {
        QStringList out;
        for (const auto& s : settings)
            out << "--set" << s;
        return out;
    }

private slots:
    // Standard output that cannot take the bytes (a full disk, /dev/full) is an error, not a silent exit 0: for
    // the commands that write through writeOutput (recommend) and those that print as they go.
    void standardOutputThatCannotBeWrittenIsAnError_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString config = m_home.filePath("to-full.json");
        QVERIFY(writeFile(config, R"({"train_batch_size": 64, "zero_optimization": {"stage": 2}})"));
        QTest::newRow("recommend") << QStringList{"recommend"};
        QTest::newRow("recommend text") << QStringList{"recommend", "--format", "text"};
        QTest::newRow("keys") << QStringList{"keys"};
        QTest::newRow("estimate") << QStringList{"estimate", "--params", "7e9", "--gpus-per-node", "8", "--nodes", "1"};
        QTest::newRow("--help") << QStringList{"--help"};
        QTest::newRow("--version") << QStringList{"--version"};
        QTest::newRow("lint") << QStringList{"lint", config};
        QTest::newRow("diff") << QStringList{"diff", config, config};
    }
    void standardOutputThatCannotBeWrittenIsAnError()
    {
        QFETCH(QStringList, args);
        QProcess full;
        full.setStandardOutputFile(QStringLiteral("/dev/full"));
        full.start(QStringLiteral(DSW_EXECUTABLE), args);
        QVERIFY(full.waitForFinished(30000));
        QCOMPARE(full.exitCode(), 2);
        const QByteArray err = full.readAllStandardError();
        QVERIFY2(err.startsWith("ds-wizard " + args.front().toUtf8() + ": cannot write to standard output: ")
                     && err.count('\n') == 1,
                 err.constData());
    }

    // Standard output takes the bytes as they are (writeOutput); a stream on a string takes them through a QString.
    // Both give the same text.
    void standardOutputBytesEqualTheStringStreamsText()
    {
        for (const QStringList& args :
             {QStringList{"recommend"}, QStringList{"recommend", "--format", "text"}, QStringList{"keys"}}) {
            QString text, errors;
            QTextStream out(&text), err(&errors);
            QCOMPARE(runCommandLine(QStringList{"ds-wizard"} + args, out, err), 0);
            out.flush();
            const Run r = run(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out == text.toUtf8(), qPrintable(args.join(' ')));
        }
    }

    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY2(QFile::exists(QStringLiteral(DSW_EXECUTABLE)), DSW_EXECUTABLE " is not built");
    }

    // ---- --version, --help ------------------------------------------------------------------------
    void version_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--version") << "--version";
        QTest::newRow("-v") << "-v";
    }
    void version()
    {
        QFETCH(QString, flag);
        const Run r = run({flag});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("ds-wizard " DSW_VERSION "\n"));
        QVERIFY(r.err.isEmpty());
    }

    void help_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--help") << "--help";
        QTest::newRow("-h") << "-h";
    }
    void help()
    {
        QFETCH(QString, flag);
        const Run r = run({flag});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QString text = QString::fromUtf8(r.out);
        for (const char* word :
             {"Usage", "recommend", "estimate", "keys", "--set id=value", "--project", "--format", "json", "config",
              "text", "--params", "--gpus-per-node", "--nodes", "--largest-layer", "-o"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
    }

    // Each command's -h/--help: its usage line and its options with what they allow, exit 0, nothing on stderr.
    void commandHelp_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("shown");
        QTest::newRow("lint --help") << QStringList{"lint", "--help"}
                                     << QStringList{"Usage: ds-wizard lint CONFIG|DIR...", "--format", "text or json",
                                                    "--set", "-h, --help"};
        QTest::newRow("recommend -h") << QStringList{"recommend", "-h"}
                                      << QStringList{"Usage: ds-wizard recommend", "--workflow", "zero, precision",
                                                     "json (default), config", "-o, --output"};
        QTest::newRow("estimate --help") << QStringList{"estimate", "--help"}
                                         << QStringList{"Usage: ds-wizard estimate", "--params", "1M to 100T",
                                                        "--gpus-per-node", "1 to 64"};
        QTest::newRow("export -h") << QStringList{"export", "-h"}
                                   << QStringList{"Usage: ds-wizard export", "--to", "deepspeed-json", "--force"};
        QTest::newRow("import --help") << QStringList{"import", "--help"}
                                       << QStringList{"Usage: ds-wizard import", "-o"};
        QTest::newRow("diff --help") << QStringList{"diff", "--help"}
                                     << QStringList{"Usage: ds-wizard diff", "--format"};
        QTest::newRow("keys --help") << QStringList{"keys", "--help"} << QStringList{"Usage: ds-wizard keys", "--json"};
        QTest::newRow("help after other options")
            << QStringList{"lint", "x.json", "--help"} << QStringList{"Usage: ds-wizard lint"};
    }
    void commandHelp()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, shown);
        const Run r = run(args);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.startsWith("Usage: ds-wizard " + args.first() + " "), qPrintable(text));
        for (const QString& s : shown)
            QVERIFY2(text.contains(s), qPrintable(s + " not in: " + text));
        QVERIFY2(!text.contains("Unknown option"), qPrintable(text));
    }

    // The one-line errors a reviewer met: each names what is allowed.
    void errorsNameWhatIsAllowed_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named");
        QTest::newRow("unknown option lists the options")
            << QStringList{"recommend", "--bogus"}
            << QStringList{"bogus", "--project", "--set", "--workflow", "-o/--output", "ds-wizard recommend --help"};
        QTest::newRow("export without --to")
            << QStringList{"export", "-o", "X"} << QStringList{"--to is required", "deepspeed-json", "bundle"};
        QTest::newRow("unknown command lists the commands")
            << QStringList{"frobnicate"}
            << QStringList{
                   "unknown command 'frobnicate'", "recommend", "estimate", "lint", "import", "export", "diff", "keys"};
        // estimate --params is model.params: the registry's range and wording (--set model.params=5 says the same).
        QTest::newRow("estimate --params below the range")
            << QStringList{"estimate", "--params", "5", "--gpus-per-node", "8", "--nodes", "1"}
            << QStringList{"--params", "\"5\"", "1M to 100T", "7B"};
        QTest::newRow("--set model.params below the range")
            << QStringList{"recommend", "--set", "model.params=5"} << QStringList{"model.params", "1M to 100T", "7B"};
        QTest::newRow("--version with more") << QStringList{"--version", "extra"} << QStringList{"extra"};
        QTest::newRow("--help with more") << QStringList{"--help", "a", "b"} << QStringList{"'a' 'b'"};
        QTest::newRow("lint without a file") << QStringList{"lint"} << QStringList{"missing argument", "CONFIG|DIR"};
    }
    void errorsNameWhatIsAllowed()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        const Run r = run(args);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(int(err.count('\n')), 1);
        QVERIFY2(err.startsWith("ds-wizard " + args.first() + ": "), qPrintable(err));
        for (const QString& n : named)
            QVERIFY2(err.contains(n), qPrintable(n + " not in: " + err));
        QVERIFY2(!err.contains("is not allowed") || !args.contains("-o"), qPrintable(err)); // not "--to: ''"
    }

    // ---- estimate ---------------------------------------------------------------------------------
    // Expected bytes from deepspeed-facts §1.1/1.2 by hand (P params, G GPUs per node, N nodes, T = G·N, f = 1.5,
    // L largest layer, LLM = 4L). Stage 2: offload gpu 2P, cpu P·max(4T,16)·f; no offload gpu 2P + 18P/T,
    // cpu P·4G·f. Stage 3 in DeepSpeed's order (opt,param,zero_init) = (cpu,cpu,1) (cpu,cpu,0) (cpu,none,1)
    // (cpu,none,0) (none,none,1) (none,none,0): gpu LLM, LLM, LLM + 2P/T, LLM + 2P/T, LLM + 18P/T, LLM + 18P/T;
    // cpu P·18/N·f, P·max(4G,18/N)·f, P·16/N·f, P·max(4G,16/N)·f, L·4G·f, P·4G·f.
    void estimateJson_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QList<qint64>>("gpu"); // 8 rows: 2 stage-2 then 6 stage-3
        QTest::addColumn<QList<qint64>>("cpu");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<int>("dataParallel");
        // 7B, 8 GPUs, 1 node, L = 131072000 (LLM 524288000): 18P/T = 15.75e9, 2P/T = 1.75e9.
        QTest::newRow("7B 8x1") << QStringList{"--params", "7B", "--gpus-per-node", "8",
                                               "--nodes",  "1",  "--largest-layer", "131072000"}
                                << QList<qint64>{14000000000LL, 29750000000LL, 524288000LL,   524288000LL,
                                                 2274288000LL,  2274288000LL,  16274288000LL, 16274288000LL}
                                << QList<qint64>{336000000000LL, 336000000000LL, 189000000000LL, 336000000000LL,
                                                 168000000000LL, 336000000000LL, 6291456000LL,   336000000000LL}
                                << qint64(7000000000LL) << 8;
        // 70B, 8 GPUs × 4 nodes, L = 262144000: deepspeed-facts §1.3 lists three of these rows (ZeRO-2 offload
        // gpu 140000000000 / cpu 13440000000000, ZeRO-2 none gpu 179375000000 / cpu 3360000000000, ZeRO-3 full
        // offload zero_init gpu 1048576000 / cpu 472500000000). The rest by hand: 2P/T = 4375000000,
        // 18P/T = 39375000000; cpu (cpu,cpu,0) = 70e9·max(32, 4.5)·1.5 = 3.36e12, (cpu,none,1) = 70e9·4·1.5 = 4.2e11,
        // (none,none,1) = 262144000·32·1.5 = 12582912000.
        QTest::newRow("70B 8x4") << QStringList{"--params", "70000000000", "--gpus-per-node", "8",
                                                "--nodes",  "4",           "--largest-layer", "262144000"}
                                 << QList<qint64>{140000000000LL, 179375000000LL, 1048576000LL,  1048576000LL,
                                                  5423576000LL,   5423576000LL,   40423576000LL, 40423576000LL}
                                 << QList<qint64>{13440000000000LL, 3360000000000LL, 472500000000LL, 3360000000000LL,
                                                  420000000000LL,   3360000000000LL, 12582912000LL,  3360000000000LL}
                                 << qint64(70000000000LL) << 32;
        // 1.3e9 on one GPU, L = 102926336 (LLM 411705344): stage 2 offload cpu 1.3e9·16·1.5 = 31.2e9; none
        // gpu 2.6e9 + 23.4e9 = 26e9, cpu 1.3e9·4·1.5 = 7.8e9; stage 3 cpu: 1.3e9·18·1.5 = 35.1e9,
        // 1.3e9·max(4,18)·1.5 = 35.1e9, 1.3e9·16·1.5 = 31.2e9, 1.3e9·max(4,16)·1.5 = 31.2e9, 102926336·4·1.5 =
        // 617558016, 1.3e9·4·1.5 = 7.8e9.
        QTest::newRow("1.3e9 1x1") << QStringList{"--params", "1.3e9", "--gpus-per-node", "1",
                                                  "--nodes",  "1",     "--largest-layer", "102926336"}
                                   << QList<qint64>{2600000000LL, 26000000000LL, 411705344LL,   411705344LL,
                                                    3011705344LL, 3011705344LL,  23811705344LL, 23811705344LL}
                                   << QList<qint64>{31200000000LL, 7800000000LL,  35100000000LL, 35100000000LL,
                                                    31200000000LL, 31200000000LL, 617558016LL,   7800000000LL}
                                   << qint64(1300000000LL) << 1;
    }
    void estimateJson()
    {
        QFETCH(QStringList, args);
        QFETCH(QList<qint64>, gpu);
        QFETCH(QList<qint64>, cpu);
        QFETCH(qint64, params);
        QFETCH(int, dataParallel);
        const oj j = runJson(QStringList{"estimate"} + args + QStringList{"--json"});
        QVERIFY(j.is_object());
        QVERIFY2(!j.contains("assumed"), "nothing is assumed when --largest-layer is given");

        const oj& rows = j.at("deepspeed_estimator");
        QCOMPARE(int(rows.size()), 8);
        int stage2 = 0, stage3 = 0;
        const QStringList fields = {"stage",     "offload_optimizer", "offload_param",
                                    "zero_init", "gpu_bytes",         "cpu_bytes"};
        const char* expectedOpt[] = {"cpu", "none", "cpu", "cpu", "cpu", "cpu", "none", "none"};
        const char* expectedParam[] = {"none", "none", "cpu", "cpu", "none", "none", "none", "none"};
        for (int i = 0; i < 8; ++i) {
            const oj& row = rows.at(i);
            QStringList keys;
            for (const auto& [k, v] : row.items())
                keys << q(k);
            QCOMPARE(keys, fields);
            const int stage = row.at("stage").get<int>();
            QCOMPARE(stage, i < 2 ? 2 : 3);
            (stage == 2 ? stage2 : stage3)++;
            QCOMPARE(q(row.at("offload_optimizer").get<std::string>()), QString::fromLatin1(expectedOpt[i]));
            QCOMPARE(q(row.at("offload_param").get<std::string>()), QString::fromLatin1(expectedParam[i]));
            if (stage == 2) {
                QVERIFY(row.at("zero_init").is_null());
            } else {
                QVERIFY(row.at("zero_init").is_boolean());
                QCOMPARE(row.at("zero_init").get<bool>(), i % 2 == 0); // zero_init True, then False
            }
            QVERIFY2(row.at("gpu_bytes").is_number_integer(), row.dump().c_str());
            QVERIFY2(row.at("cpu_bytes").is_number_integer(), row.dump().c_str());
            QCOMPARE(qint64(row.at("gpu_bytes").get<std::int64_t>()), gpu.at(i));
            QCOMPARE(qint64(row.at("cpu_bytes").get<std::int64_t>()), cpu.at(i));
        }
        QCOMPARE(stage2, 2);
        QCOMPARE(stage3, 6);

        // ZeRO paper (K = 12): optimizer 12P, grads 2P, params 2P, each divided by Nd from stage 1, 2, 3 on.
        const oj& states = j.at("model_states");
        QCOMPARE(int(states.size()), 4);
        for (int stage = 0; stage < 4; ++stage) {
            const oj& row = states.at(stage);
            QStringList keys;
            for (const auto& [k, v] : row.items())
                keys << q(k);
            QCOMPARE(keys, (QStringList{"stage", "params_bytes", "grads_bytes", "optimizer_bytes", "total_bytes"}));
            QCOMPARE(row.at("stage").get<int>(), stage);
            const qint64 opt = stage >= 1 ? 12 * params / dataParallel : 12 * params;
            const qint64 grads = stage >= 2 ? 2 * params / dataParallel : 2 * params;
            const qint64 prm = stage >= 3 ? 2 * params / dataParallel : 2 * params;
            QCOMPARE(qint64(row.at("optimizer_bytes").get<std::int64_t>()), opt);
            QCOMPARE(qint64(row.at("grads_bytes").get<std::int64_t>()), grads);
            QCOMPARE(qint64(row.at("params_bytes").get<std::int64_t>()), prm);
            QCOMPARE(qint64(row.at("total_bytes").get<std::int64_t>()), opt + grads + prm);
        }
        // Stage 0 is 16 bytes per parameter.
        QCOMPARE(qint64(states.at(0).at("total_bytes").get<std::int64_t>()), 16 * params);
    }

    // Issue 10's contract: estimate --json adds step_model with the activations and every candidate.
    void estimateStepModelContract()
    {
        const oj j =
            runJson({"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--json", "--set",
                     "model.preset=llama-2-7b", "--set", "hardware.gpu=A100-80GB", "--set", "model.seq_len=4096"});
        QVERIFY(j.contains("deepspeed_estimator") && j.contains("model_states")); // the old output stays
        const oj& sm = j.at("step_model");
        const oj& act = sm.at("activations");
        QCOMPARE(q(act.at("attention_impl").get<std::string>()), QStringLiteral("flash")); // A100: FlashAttention-2
        QVERIFY(act.at("per_layer_bytes").get<std::int64_t>()
                > act.at("per_layer_bytes_checkpointed").get<std::int64_t>());
        QVERIFY(act.at("logits_bytes").get<std::int64_t>() > 0);
        const oj& candidates = sm.at("candidates");
        QVERIFY(candidates.size() >= 20);
        // The one candidate shape: recommend prints its candidates with exactly these keys.
        const oj recommended = runJson({"recommend", "--set", "model.preset=llama-2-7b", "--set",
                                        "hardware.gpu=A100-80GB", "--set", "model.seq_len=4096"});
        const oj& printed = recommended.at("workflows").at("zero").at("candidates").at(0);
        QCOMPARE(candidates.at(0).size(), printed.size());
        for (auto it = printed.begin(); it != printed.end(); ++it)
            QVERIFY2(candidates.at(0).contains(it.key()), it.key().c_str());
        bool seenUnfit = false;
        for (const oj& c : candidates) {
            for (const char* key :
                 {"label", "stage", "offload_optimizer", "offload_param", "activation_checkpointing",
                  "micro_batch_size", "gradient_accumulation_steps", "gpu_bytes", "cpu_bytes_per_node",
                  "nvme_bytes_per_node", "fits", "step_seconds", "tokens_per_second_per_gpu"})
                QVERIFY2(c.contains(key), key);
            const oj& g = c.at("gpu_bytes");
            QCOMPARE(g.at("total").get<std::int64_t>(),
                     g.at("params").get<std::int64_t>() + g.at("grads").get<std::int64_t>()
                         + g.at("optimizer").get<std::int64_t>() + g.at("buffers").get<std::int64_t>()
                         + g.at("activations").get<std::int64_t>() + g.at("other").get<std::int64_t>());
            const oj& s = c.at("step_seconds");
            QVERIFY(std::abs(s.at("total").get<double>()
                             - (s.at("compute").get<double>() + s.at("communication").get<double>()
                                + s.at("offload").get<double>() + s.at("bubble").get<double>()))
                    < 1e-9 * s.at("total").get<double>() + 1e-12);
            // Fitting candidates first: none fits after the first that does not.
            if (!c.at("fits").get<bool>())
                seenUnfit = true;
            else
                QVERIFY(!seenUnfit);
        }
        // Bad shapes are refused with exit 2 and the input named.
        const Run bad =
            run({"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--set", "model.kv_heads=5"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("model.kv_heads"));
    }

    void estimateAssumesLargestLayer()
    {
        // Not given: the token embedding of a 32000-token vocabulary with hidden (7e9·128/12)^(1/3) = 4210.9 → 4211,
        // i.e. 32000 × 4211 = 134752000 (4210³ = 74618461000 < 74666666667 < 4211³ = 74671645931).
        const oj j = runJson({"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--json"});
        QVERIFY(j.is_object());
        QVERIFY(j.contains("assumed"));
        QCOMPARE(qint64(j.at("assumed").at("largest_layer_params").get<std::int64_t>()), qint64(134752000));
        const QString how = q(j.at("assumed").at("how").get<std::string>());
        QVERIFY2(how.contains("--largest-layer"), qPrintable(how));
        QCOMPARE(qint64(j.at("deepspeed_estimator").at(2).at("gpu_bytes").get<std::int64_t>()),
                 qint64(4 * 134752000LL));

        const Run text = run({"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1"});
        QCOMPARE(text.exitCode, 0);
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains("(assumed)"), qPrintable(out));
        QVERIFY2(out.contains("Assumed:"), qPrintable(out));
        QVERIFY2(out.contains("134.8M"), qPrintable(out)); // formatCount(134752000)

        // Given: the text says nothing about an assumption.
        const Run given =
            run({"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--largest-layer", "131072000"});
        QCOMPARE(given.exitCode, 0);
        QVERIFY(!QString::fromUtf8(given.out).contains("ssumed"));
    }

    // ---- recommend ----------------------------------------------------------------------------------
    void recommendJsonShape()
    {
        const Run r = run({"recommend"}); // json is the default format
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const oj j = oj::parse(r.out.toStdString());
        QVERIFY(j.at("config").is_object());
        QVERIFY(j.at("findings").is_array());
        QVERIFY(j.at("workflows").is_object());
        QVERIFY(j.at("workflows").contains("precision"));
        const oj& zero = j.at("workflows").at("zero");
        QVERIFY(zero.at("status").is_string());
        QCOMPARE(q(zero.at("status").get<std::string>()), QStringLiteral("complete"));
        QVERIFY(zero.at("missing").is_array());
        QVERIFY(zero.at("checks").is_array());
        QVERIFY(!zero.at("checks").empty());
        for (const auto& c : zero.at("checks")) {
            const QString level = q(c.at("level").get<std::string>());
            QVERIFY2(level == "pass" || level == "warn" || level == "fail", qPrintable(level));
            QVERIFY(!c.at("code").get<std::string>().empty());
            QVERIFY(!c.at("message").get<std::string>().empty());
        }
        for (const char* key : {"tradeoffs", "estimates", "snippets", "sources"}) {
            QVERIFY2(zero.at(key).is_array(), key);
            QVERIFY2(!zero.at(key).empty(), key);
        }
        for (const auto& e : zero.at("estimates")) {
            QVERIFY(e.at("name").is_string());
            QVERIFY(e.at("value").is_number());
            QVERIFY(e.at("unit").is_string());
        }
        for (const auto& s : zero.at("snippets")) {
            QVERIFY(s.at("language").is_string());
            QVERIFY(s.at("code").is_string());
        }
        for (const auto& s : zero.at("sources"))
            QVERIFY(s.is_string());
        // --workflow limits the workflows.
        const oj only = runJson({"recommend", "--workflow", "zero"});
        QCOMPARE(int(only.at("workflows").size()), 1);
        QVERIFY(only.at("workflows").contains("zero"));
    }

    void setChangesBatch_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<qint64>("trainBatch");
        // Defaults: micro 4, accumulation 1, 8 GPUs per node.
        QTest::newRow("defaults: 4 x 1 x 8") << QStringList{} << qint64(32);
        QTest::newRow("2 nodes: 4 x 1 x 16") << QStringList{"hardware.nodes=2"} << qint64(64);
        QTest::newRow("4 nodes, micro 2: 2 x 1 x 32")
            << QStringList{"hardware.nodes=4", "training.micro_batch_size=2"} << qint64(64);
        QTest::newRow("accumulation 4, 2 GPUs: 4 x 4 x 2")
            << QStringList{"training.gradient_accumulation_steps=4", "hardware.gpus_per_node=2"} << qint64(32);
        QTest::newRow("later --set wins") << QStringList{"hardware.nodes=3", "hardware.nodes=2"} << qint64(64);
    }
    void setChangesBatch()
    {
        QFETCH(QStringList, settings);
        QFETCH(qint64, trainBatch);
        const oj cfg = runJson(QStringList{"recommend", "--format", "config"} + setArgs(settings));
        QVERIFY(cfg.is_object());
        QCOMPARE(qint64(cfg.at("train_batch_size").get<std::int64_t>()), trainBatch);
    }

    // --set splits at the first '=': the rest, '=' included, is the value.
    void setSplitsAtFirstEquals()
    {
        // 70B on 8×A100-80GB with 350 GiB RAM and NVMe: only ZeRO-Infinity with both offloaded to NVMe fits
        // (the host still holds the gradient partition and the swap buffers), so the path shows up in the config.
        const QStringList settings = {"model.params=70B",
                                      "model.layers=80",
                                      "model.hidden_size=8192",
                                      "model.attention_heads=64",
                                      "training.micro_batch_size=1",
                                      "hardware.cpu_memory_gib=350",
                                      "hardware.nvme=nvme",
                                      "hardware.nvme_path=/mnt/a=b"};
        const oj cfg = runJson(QStringList{"recommend", "--format", "config"} + setArgs(settings));
        QVERIFY(cfg.is_object());
        const oj& zero = cfg.at("zero_optimization");
        QCOMPARE(zero.at("stage").get<int>(), 3);
        QCOMPARE(q(zero.at("offload_optimizer").at("nvme_path").get<std::string>()), QStringLiteral("/mnt/a=b"));
        QCOMPARE(q(zero.at("offload_param").at("nvme_path").get<std::string>()), QStringLiteral("/mnt/a=b"));
        QVERIFY(cfg.contains("aio"));
    }

    void formatConfigIsOnlyTheConfig()
    {
        const QStringList settings = setArgs({"hardware.nodes=2", "hardware.gpu=V100-32GB"});
        const Run r = run(QStringList{"recommend", "--format", "config"} + settings);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const oj cfg = oj::parse(r.out.toStdString());
        QVERIFY(cfg.is_object());
        QVERIFY(cfg.contains("train_batch_size"));
        QVERIFY(cfg.contains("zero_optimization"));
        QVERIFY(cfg.contains("fp16")); // V100: no bf16
        for (const char* k : {"config", "workflows", "findings", "basis", "input_errors"})
            QVERIFY2(!cfg.contains(k), k);
        // The same config, key order included, as in the full JSON.
        const oj full = runJson(QStringList{"recommend", "--format", "json"} + settings);
        QCOMPARE(q(cfg.dump()), q(full.at("config").dump()));
    }

    void formatText()
    {
        const Run r = run({"recommend", "--format", "text"});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.contains("ds_config.json"));
        QVERIFY(out.contains("zero-fits-gpu") || out.contains("zero-nothing-fits"));
        QVERIFY(out.contains("not run") || out.contains("Based on"));
    }

    void outputFile_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("config") << "config";
        QTest::newRow("json") << "json";
        QTest::newRow("text") << "text";
    }
    void outputFile()
    {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString target = dir.filePath("out." + format);
        const QStringList args = QStringList{"recommend", "--format", format} + setArgs({"hardware.nodes=2"});
        const Run toFile = run(args + QStringList{"-o", target});
        QCOMPARE(toFile.exitCode, 0);
        QVERIFY(toFile.out.isEmpty());
        QVERIFY(toFile.err.isEmpty());
        const Run toStdout = run(args);
        QCOMPARE(readFile(target), toStdout.out);
        QVERIFY(!toStdout.out.isEmpty());
        // An existing file is replaced; --output is the long form.
        QVERIFY(writeFile(target, "old"));
        QCOMPARE(run(args + QStringList{"--output", target}).exitCode, 0);
        QCOMPARE(readFile(target), toStdout.out);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{"out." + format}); // no temporaries left
    }

    void projectFile()
    {
        QTemporaryDir dir;
        Project p;
        p.answers.set("hardware.nodes", 4);
        p.answers.set("training.micro_batch_size", 2);
        const QString path = dir.filePath("job.dswiz");
        QVERIFY(writeFile(path, QByteArray::fromStdString(serializeProject(p))));
        // 2 × 1 × (8 × 4) = 64
        const oj cfg = runJson({"recommend", "--project", path, "--format", "config"});
        QVERIFY(cfg.is_object());
        QCOMPARE(cfg.at("train_batch_size").get<int>(), 64);
        QCOMPARE(cfg.at("train_micro_batch_size_per_gpu").get<int>(), 2);
        // --set applies on top of the project: 2 × 1 × 8 = 16
        const oj over = runJson({"recommend", "--project", path, "--set", "hardware.nodes=1", "--format", "config"});
        QCOMPARE(over.at("train_batch_size").get<int>(), 16);
        // The project file is only read.
        QCOMPARE(readFile(path), QByteArray::fromStdString(serializeProject(p)));
    }

    // A preset fills the shape: the count it implies (8.03B for Llama 3.1 8B) is what a given 7B is compared with.
    void presetFillsTheShape()
    {
        const oj plan = runJson(QStringList{"recommend", "--format", "json"}
                                + setArgs({"model.preset=llama-3.1-8b", "model.params=7B"}));
        QVERIFY(plan.at("input_errors").empty());
        bool reported = false;
        for (const auto& f : plan.at("findings"))
            reported = reported
                || (f.at("code") == "params-disagree-with-shape"
                    && f.at("message").get<std::string>().find("8.03B") != std::string::npos);
        QVERIFY2(reported, plan.at("findings").dump().c_str());
        const oj alone = runJson(QStringList{"recommend", "--format", "json"} + setArgs({"model.preset=llama-3.1-8b"}));
        for (const auto& f : alone.at("findings"))
            QVERIFY(f.at("code") != "params-disagree-with-shape");
    }

    // ---- bad input: exit 2, one line naming the problem, nothing written ---------------------------------
    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named"); // each must appear in the stderr line
        QTest::addColumn<bool>("recommend");    // takes -o
        auto row = [](const char* name, QStringList args, QStringList named) {
            QTest::newRow(name) << args << named << (args.first() == "recommend");
        };
        row("unknown id", {"recommend", "--set", "model.parms=7B"}, {"model.parms"});
        row("nodes zero", {"recommend", "--set", "hardware.nodes=0"}, {"hardware.nodes", "0", "1 to 100000"});
        row("nodes negative", {"recommend", "--set", "hardware.nodes=-3"}, {"hardware.nodes", "-3"});
        row("params not a count", {"recommend", "--set", "model.params=lots"}, {"model.params", "lots"});
        row("unknown GPU", {"recommend", "--set", "hardware.gpu=Z100"}, {"hardware.gpu", "Z100", "A100-80GB"});
        row("unknown choice", {"recommend", "--set", "hardware.nvme=ssd"}, {"hardware.nvme", "ssd", "none, nvme"});
        row("no =", {"recommend", "--set", "hardware.nodes"}, {"hardware.nodes", "id=value"});
        row("empty id", {"recommend", "--set", "=4"}, {"id=value"});
        row("bad --format", {"recommend", "--format", "yaml"}, {"--format", "yaml", "json, config, text"});
        row("bad --workflow", {"recommend", "--workflow", "nope"}, {"--workflow", "nope", "zero"});
        row("unknown option", {"recommend", "--bogus"}, {"bogus"});
        row("extra argument", {"recommend", "extra"}, {"extra"});
        row("missing project", {"recommend", "--project", "/nonexistent/p.dswiz"}, {"/nonexistent/p.dswiz"});
        row("value with a newline", {"recommend", "--set", "hardware.gpu=A100\nX"}, {"hardware.gpu"});
        row("missing --params", {"estimate", "--gpus-per-node", "8", "--nodes", "1"}, {"--params"});
        row("bad --params", {"estimate", "--params", "abc", "--gpus-per-node", "8", "--nodes", "1"},
            {"--params", "abc"});
        row("zero GPUs", {"estimate", "--params", "7B", "--gpus-per-node", "0", "--nodes", "1"}, {"--gpus-per-node"});
        // The registry's hardware.gpus_per_node range and wording, as --set gives them (it was 1 to 1024 here).
        row("GPUs per node above the registry's 64",
            {"estimate", "--params", "7B", "--gpus-per-node", "65", "--nodes", "1"},
            {"--gpus-per-node: \"65\" is out of range", "allowed: a whole number from 1 to 64"});
        row("GPUs per node not a count", {"estimate", "--params", "7B", "--gpus-per-node", "x", "--nodes", "1"},
            {"--gpus-per-node", "\"x\"", "1 to 64"});
        row("missing --nodes", {"estimate", "--params", "7B", "--gpus-per-node", "8"}, {"--nodes"});
        row("largest layer above params",
            {"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--largest-layer", "8B"},
            {"--largest-layer"});
        row("bad --buffer-factor",
            {"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--buffer-factor", "x"},
            {"--buffer-factor"});
        row("keys option", {"keys", "--bogus"}, {"bogus"});
        row("unknown preset", {"recommend", "--set", "model.preset=llama-3.1-9b"},
            {"model.preset", "llama-3.1-9b", "nearest: llama-3.1-8b"});
        row("hidden not divisible by heads", {"recommend", "--set", "model.hidden_size=4100"},
            {"model.hidden_size", "model.attention_heads"});
        row("kv heads do not divide", {"recommend", "--set", "model.preset=llama-3.1-8b", "--set", "model.kv_heads=5"},
            {"model.kv_heads", "5"});
        row("intermediate size 0", {"recommend", "--set", "model.intermediate_size=0"}, {"model.intermediate_size"});
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        QFETCH(bool, recommend);
        QTemporaryDir dir;
        const QString fresh = dir.filePath("fresh.json");
        const QString existing = dir.filePath("existing.json");
        QVERIFY(writeFile(existing, "keep me"));
        for (const QString& target : recommend ? QStringList{fresh, existing} : QStringList{QString()}) {
            const Run r = run(target.isEmpty() ? args : args + QStringList{"-o", target});
            QVERIFY(r.finished);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.out.isEmpty(), r.out.constData());
            const QString err = QString::fromUtf8(r.err);
            QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, qPrintable("not exactly one line: " + err));
            for (const QString& n : named)
                QVERIFY2(err.contains(n), qPrintable(n + " not in: " + err));
            QVERIFY2(err.startsWith("ds-wizard " + args.first() + ": "), qPrintable(err));
            QVERIFY(!QFile::exists(fresh));
            QCOMPARE(readFile(existing), QByteArray("keep me"));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"existing.json"});
    }

    void badProjectFile_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("named");
        QTest::newRow("bad value") << QByteArray(
            R"({"format": "ds-wizard-project", "version": 1, "answers": {"hardware.nodes": -3}})")
                                   << QStringList{"hardware.nodes", "bad.dswiz"};
        QTest::newRow("two bad values") << QByteArray(
            R"({"format": "ds-wizard-project", "version": 1, "answers": {"hardware.nodes": -3, "hardware.gpu": "nope"}})")
                                        << QStringList{"hardware.nodes", "hardware.gpu", "nope"};
        QTest::newRow("newer version") << QByteArray(R"({"format": "ds-wizard-project", "version": 9})")
                                       << QStringList{"newer"};
        QTest::newRow("not JSON") << QByteArray("{\n  \"format\": \"ds-wizard-project\",\n  oops\n}")
                                  << QStringList{"line 3"};
        QTest::newRow("a ds_config") << QByteArray(R"({"train_batch_size": 8})") << QStringList{"format"};
    }
    void badProjectFile()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, named);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.dswiz");
        QVERIFY(writeFile(path, bytes));
        const QString target = dir.filePath("out.json");
        const Run r = run({"recommend", "--project", path, "-o", target});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, qPrintable("not exactly one line: " + err));
        for (const QString& n : named)
            QVERIFY2(err.contains(n), qPrintable(n + " not in: " + err));
        QVERIFY(!QFile::exists(target));
        QCOMPARE(readFile(path), bytes); // not touched
    }

    // An unknown command must not open the window (a script would hang); it is bad input like any other.
    void unknownCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("word") << QStringList{"frobnicate"};
        QTest::newRow("word with options") << QStringList{"frobnicate", "--format", "json"};
        QTest::newRow("option") << QStringList{"--frobnicate"};
        QTest::newRow("command-like file name with more arguments") << QStringList{"x.dswiz", "extra"};
    }
    void unknownCommand()
    {
        QFETCH(QStringList, args);
        const Run r = run(args, 8000);
        QVERIFY2(r.finished, "did not exit: opened the window?");
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(args.first()), qPrintable(err));
        QVERIFY2(err.contains("unknown command"), qPrintable(err));
        QCOMPARE(int(err.count('\n')), 1);
    }

    // A plan whose checks fail is still a plan: exit 0.
    void failedChecksExitZero_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("code");
        QTest::newRow("nvme without path") << QStringList{"hardware.nvme=nvme"} << "nvme-path-missing";
        QTest::newRow("70B on one T4") << QStringList{"model.params=70B", "hardware.gpu=T4", "hardware.gpus_per_node=1",
                                                      "hardware.cpu_memory_gib=64"}
                                       << "zero-nothing-fits";
        QTest::newRow("bf16 on a V100") << QStringList{"hardware.gpu=V100-16GB", "training.precision=bf16"}
                                        << "bf16-unsupported-gpu";
    }
    void failedChecksExitZero()
    {
        QFETCH(QStringList, settings);
        QFETCH(QString, code);
        const Run r = run(QStringList{"recommend"} + setArgs(settings));
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        const oj j = oj::parse(r.out.toStdString());
        bool found = false;
        for (const auto& [workflow, advice] : j.at("workflows").items())
            for (const auto& c : advice.at("checks"))
                if (q(c.at("code").get<std::string>()) == code) {
                    QCOMPARE(q(c.at("level").get<std::string>()), QStringLiteral("fail"));
                    found = true;
                }
        QVERIFY2(found, qPrintable(code));
        QVERIFY(j.at("config").contains("train_batch_size"));
    }

    // ---- keys -------------------------------------------------------------------------------------------
    void keysListsEveryInput()
    {
        const Run r = run({"keys"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QStringList listed;
        for (const QString& line : lines(r.out))
            if (!line.startsWith(' '))
                listed << line.section(' ', 0, 0);
        QStringList expected;
        for (const auto& s : InputRegistry::instance().all())
            expected << q(s.id);
        QCOMPARE(listed, expected);
        for (const char* id : {"model.params", "hardware.gpu", "hardware.nvme_path",
                               "training.activation_checkpointing", "software.launcher"})
            QVERIFY2(listed.contains(QLatin1String(id)), id);

        const oj j = runJson({"keys", "--json"});
        QVERIFY(j.is_array());
        QCOMPARE(int(j.size()), int(expected.size()));
        for (int i = 0; i < expected.size(); ++i) {
            const oj& row = j.at(i);
            QCOMPARE(q(row.at("id").get<std::string>()), expected.at(i));
            for (const char* k : {"type", "allowed", "help", "page"})
                QVERIFY2(row.at(k).is_string() && !row.at(k).get<std::string>().empty(), k);
            QVERIFY(row.contains("default"));
        }
    }

    // NaN and infinity are refused for every number, with the input named and its range (issue 8).
    void nonFiniteNumbersRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named");
        const QStringList estimate{"estimate", "--params", "7B", "--gpus-per-node", "8", "--nodes", "1"};
        for (const char* v : {"nan", "NaN", "inf", "-inf", "infinity", "-1", "0", "1e400", "10.5"})
            QTest::addRow("--buffer-factor %s", v)
                << estimate + QStringList{"--buffer-factor", v} << QStringList{"--buffer-factor", v, "1 to 10"};
        for (const char* v : {"nan", "inf"}) {
            QTest::addRow("--params %s", v)
                << QStringList{"estimate", "--params", v, "--gpus-per-node", "8", "--nodes", "1"}
                << QStringList{"--params", v};
            QTest::addRow("--largest-layer %s", v)
                << estimate + QStringList{"--largest-layer", v} << QStringList{"--largest-layer", v};
            QTest::addRow("--gpus-per-node %s", v)
                << QStringList{"estimate", "--params", "7B", "--gpus-per-node", v, "--nodes", "1"}
                << QStringList{"--gpus-per-node", v};
        }
        for (const char* set :
             {"model.params=nan", "model.params=inf", "model.params=NaN", "model.params=1e400",
              "hardware.gpu_memory_gib=nan", "hardware.gpu_memory_gib=inf", "training.learning_rate=nan",
              "hardware.cpu_memory_gib=-inf", "model.seq_len=nan", "training.gradient_clipping=infinity"}) {
            const QString id = QString::fromLatin1(set).section('=', 0, 0);
            QTest::addRow("--set %s", set) << QStringList{"recommend", "--set", set} << QStringList{id, "allowed: a"};
        }
    }
    void nonFiniteNumbersRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        const Run r = run(args);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, qPrintable("not exactly one line: " + err));
        for (const QString& n : named)
            QVERIFY2(err.contains(n), qPrintable(n + " not in: " + err));
    }

    // At the largest inputs estimate's figures exceed 2^63 bytes: they saturate, they are never negative, and
    // the text says "more than 8 EiB" (it printed −8589934592 GiB).
    void estimateAtTheLargestInputs()
    {
        // --gpus-per-node at the registry's hardware.gpus_per_node maximum (64).
        const QStringList args{"estimate", "--params",        "1e14", "--gpus-per-node", "64", "--nodes",
                               "100000",   "--buffer-factor", "10"};
        const oj j = runJson(args + QStringList{"--json"});
        QVERIFY(j.contains("deepspeed_estimator"));
        bool saturated = false;
        for (const auto& table : {j["deepspeed_estimator"], j["model_states"]})
            for (const auto& row : table)
                for (const auto& [key, value] : row.items())
                    if (value.is_number()) {
                        QVERIFY2(value.get<double>() >= 0, qPrintable(q(key + " = " + value.dump())));
                        saturated = saturated || value.get<std::int64_t>() == std::numeric_limits<std::int64_t>::max();
                    }
        QVERIFY(saturated); // the ZeRO-2 offload CPU term: 10^14 × 4 × 102 400 000 GPUs × 10
        const Run text = run(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("more than 8 EiB"), text.out.constData());
        QVERIFY2(!QString::fromUtf8(text.out).contains(QRegularExpression("-[0-9.]+ GiB")), text.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "TestCommandLine.moc"
