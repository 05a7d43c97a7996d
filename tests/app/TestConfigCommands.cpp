// lint, import, export and diff through the real binary: exit codes, output shapes, nothing written on failure.
#include "ProgramRun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using oj = nlohmann::ordered_json;

class TestConfigCommands : public QObject {
    Q_OBJECT

    using Run = dsw::test::ProgramRun;
    QTemporaryDir m_dir;

    Run run(const QStringList& args)
    {
        return dsw::test::runProgram(QStringLiteral(DSW_EXECUTABLE), args, dsw::test::isolatedEnvironment(m_dir.path()),
                                     m_dir.path(), 30000);
    }
    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        f.write(bytes);
        return path;
    }
    static void oneLineNaming(const Run& r, const QString& what)
    {
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(what), r.err.constData());
    }

private slots:
    void lintExitCodes()
    {
        const QString clean = write("clean.json", R"({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2,
            "gradient_accumulation_steps": 1, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}})");
        Run r = run({"lint", clean, "--set", "hardware.gpus_per_node=8", "--set", "software.deepspeed_version=0.19.5"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QString typo = write(
            "typo.json",
            R"({"train_batch_size": 16, "gradient_clipp1ng": 1.0, "zero_optimization": {"stage": 2, "stage3_prefetch_bucket": 5}})");
        r = run({"lint", typo, "--format", "json"});
        QCOMPARE(r.exitCode, 1);
        const oj findings = oj::parse(r.out.toStdString()).at("findings");
        bool ignored = false, rejected = false;
        for (const auto& f : findings) {
            QVERIFY(f.contains("level") && f.contains("code") && f.contains("path") && f.contains("message")
                    && f.contains("suggestion") && f.contains("source"));
            if (f["path"] == "/gradient_clipp1ng") {
                ignored =
                    f["level"] == "warning" && f["suggestion"].dump().find("gradient_clipping") != std::string::npos;
            }
            if (f["path"] == "/zero_optimization/stage3_prefetch_bucket")
                rejected = f["level"] == "error";
        }
        QVERIFY2(ignored, "top-level typo: a warning naming gradient_clipping");
        QVERIFY2(rejected, "typo in zero_optimization: an error (extra=forbid)");
    }

    void lintUnreadable()
    {
        oneLineNaming(run({"lint", m_dir.filePath("missing.json")}), "no such file");
        const QString broken = write("broken.json", "{\n  \"a\": 1,\n  \"b\": \n}");
        const Run r = run({"lint", broken});
        oneLineNaming(r, "line 4");
        oneLineNaming(run({"lint", write("latin1.json", "{\"a\": \"\xe9\"}")}), "UTF-8");
        oneLineNaming(run({"lint", write("deep.json", QByteArray(100000, '['))}), "nest");
    }

    // Many files in one call: a block per file and a summary, the worst exit status; an unreadable file is named
    // on stderr and does not stop the others; a Hugging Face model config.json is skipped, not linted.
    void lintManyFiles()
    {
        QTemporaryDir dir;
        const auto put = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        put("a-clean.json", R"({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
            "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}})");
        put("b-typo.conf",
            R"({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 2, "stage3_x": 1}})");
        put("c-broken.json", "{\"train_batch_size\": ");
        put("d-model.json", R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32})");
        put("notes.txt", "not a config");
        const QStringList sets{"--set", "hardware.gpus_per_node=8", "--set", "software.deepspeed_version=0.19.5"};
        Run r = run(QStringList{"lint", dir.path()} + sets);
        QCOMPARE(r.exitCode, 2); // the worst: one unreadable
        const QString text = QString::fromUtf8(r.out);
        QCOMPARE(text.count(QStringLiteral("== ")), 4); // notes.txt is not a config file name
        QVERIFY2(text.contains("4 file(s): 1 clean, 1 with findings, 1 unreadable, 1 skipped."), r.out.constData());
        QVERIFY(text.contains("skipped: a Hugging Face model config.json"));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.err.contains("c-broken.json"));

        r = run(QStringList{"lint", dir.path(), "--format", "json"} + sets);
        QCOMPARE(r.exitCode, 2);
        const oj all = oj::parse(r.out.toStdString());
        QVERIFY(all.is_array());
        QCOMPARE(all.size(), std::size_t{4});
        QVERIFY(all[0].at("findings").is_array() && all[1].at("findings").is_array());
        QVERIFY(all[2].contains("error") && all[3].contains("skipped"));

        // Two files, no unreadable one: exit 1 for the typo.
        r = run(QStringList{"lint", dir.filePath("a-clean.json"), dir.filePath("b-typo.conf")} + sets);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("2 file(s): 1 clean, 1 with findings, 0 unreadable, 0 skipped."));
        // One model config.json alone is refused, naming what it is.
        oneLineNaming(run({"lint", dir.filePath("d-model.json")}), "Hugging Face model config.json");
    }

    // A folder with nothing to lint is an error, not a clean pass: a typo'd or emptied folder must not go green.
    void lintFolderWithoutConfigs()
    {
        QTemporaryDir empty;
        oneLineNaming(run({"lint", empty.path()}), empty.path() + ": no *.json or *.conf files");
        QTemporaryDir notes;
        QFile f(notes.filePath("notes.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a config");
        f.close();
        const Run r = run({"lint", notes.path(), "--format", "json"});
        oneLineNaming(r, "no *.json or *.conf files");
        QVERIFY(r.out.isEmpty());
    }

    // An empty, cut-off or binary file gets its own message in every command that reads configs, never the
    // "Extra data" meant for text after a complete value.
    void incompleteConfigFiles()
    {
        const QString empty = write("empty.json", "");
        const QString cut = write("cut.json", "{\"a\": 1");
        const QString nul = write("nul.json", QByteArray(1, '\0'));
        const QString other = write("other.json", "{}");
        for (const QStringList& args :
             {QStringList{"lint", empty}, QStringList{"import", empty, "-o", m_dir.filePath("e.dswiz")},
              QStringList{"diff", empty, other}})
            oneLineNaming(run(args), "the file is empty");
        oneLineNaming(run({"lint", cut}), "line 1, column 8: the file ends before the config is complete");
        oneLineNaming(run({"diff", other, cut}), "the file ends before the config is complete");
        oneLineNaming(run({"lint", nul}), "not JSON text");
        QVERIFY(!QFile::exists(m_dir.filePath("e.dswiz")));
    }

    // A finding about the whole config has no line: `FILE: ...`, not `FILE:0: ...`.
    void findingWithoutALineHasNoLineNumber()
    {
        const QString path =
            write("whole.json", "{\n  \"gradient_clipp1ng\": 1.0,\n  \"zero_optimization\": {\"stage\": 2}\n}");
        const Run r = run({"lint", path});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(!text.contains(path + ":0:"), r.out.constData());
        QVERIFY2(text.contains(path + ": "), r.out.constData());   // at least one finding on the whole config
        QVERIFY2(text.contains(path + ":2: "), r.out.constData()); // the typo keeps its line
    }

    // The whole corpus in one process: every file read, none unreadable.
    void lintTheCorpusInOneCall()
    {
        const QDir corpus(QStringLiteral(DSW_SOURCE_DIR "/../shared/corpus/ds_configs"));
        QVERIFY2(corpus.exists(), "the config corpus is missing beside the checkout");
        const auto files = corpus.entryList({"*.json", "*.conf"}, QDir::Files);
        QVERIFY(files.size() >= 70);
        const Run r = run({"lint", corpus.path(), "--format", "json"});
        QVERIFY(r.exitCode == 0 || r.exitCode == 1);
        const oj all = oj::parse(r.out.toStdString());
        QCOMPARE(all.size(), static_cast<std::size_t>(files.size()));
        for (const auto& one : all)
            QVERIFY2(one.contains("findings"), one.dump().c_str());
    }

    void importThenRecommendGivesTheConfigBack()
    {
        const QByteArray text = R"({"steps_per_print": 7, "zero_optimization": {"stage": 3, "reduce_bucket_size": 5e8},
            "train_micro_batch_size_per_gpu": 1, "custom": {"kept": [1, 2, 3]}, "big": 9007199254740993})";
        const QString config = write("imported.json", text);
        const QString project = m_dir.filePath("imported.dswiz");
        Run r = run({"import", config, "-o", project});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("suggestions for this config wait for the model and the cluster"));
        r = run({"recommend", "--project", project, "--format", "config"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(oj::parse(r.out.toStdString()).dump(), oj::parse(text.toStdString()).dump());
        // Suggestions wait for the model and the cluster (the import says so), then come from those answers.
        r = run({"recommend", "--project", project});
        const oj waiting = oj::parse(r.out.toStdString());
        QVERIFY(!waiting.contains("suggestions"));
        QVERIFY(waiting["suggestions_need"].size() == 4);
        r = run({"recommend", "--project", project, "--set", "model.params=7e9", "--set", "hardware.gpu=a100-80gb",
                 "--set", "hardware.gpus_per_node=8", "--set", "hardware.nodes=1"});
        const oj given = oj::parse(r.out.toStdString());
        QVERIFY(given.contains("suggestions"));
        QVERIFY(!given.contains("suggestions_need"));
        // A failed import writes nothing.
        const QString never = m_dir.filePath("never.dswiz");
        oneLineNaming(run({"import", write("bad.json", "[1, 2]"), "-o", never}), "object");
        QVERIFY(!QFile::exists(never));
    }

    // A Hugging Face config.json fills the model answers of the project it writes; it is not linted as a ds_config.
    void importHuggingFaceModelConfig()
    {
        const QString project = m_dir.filePath("qwen.dswiz");
        Run r = run({"import", QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/qwen2.5-7b.json"), "-o", project});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("Hugging Face"));
        QFile f(project);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const oj answers = oj::parse(f.readAll().toStdString()).at("answers");
        QCOMPARE(answers.at("model.hidden_size").get<int>(), 3584);
        QCOMPARE(answers.at("model.kv_heads").get<int>(), 4);
        QCOMPARE(answers.at("model.mlp").get<std::string>(), std::string("swiglu"));
        QVERIFY(!answers.contains("model.params")); // counted from the shape
        r = run({"recommend", "--project", project});
        QCOMPARE(r.exitCode, 0);
        const oj plan = oj::parse(r.out.toStdString());
        QVERIFY(!plan.contains("suggestions")); // no imported ds_config
        QVERIFY(plan.at("input_errors").empty());
    }

    // A mixture of experts keeps its expert shape in the project it is imported into; recommend sizes every expert
    // (issue 25) and its candidates carry the expert-parallel size and both counts; estimate, whose rows count
    // --params as one dense model, refuses it and says where to go.
    void aMixtureOfExpertsIsSizedByRecommend()
    {
        const QString project = m_dir.filePath("mixtral.dswiz");
        Run r = run({"import", QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/mixtral-8x7b-v0.1.json"), "-o", project});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("model.experts 8") && r.out.contains("sizes all its experts"), r.out.constData());
        QFile f(project);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(oj::parse(f.readAll().toStdString()).at("answers").at("model.experts").get<int>(), 8);

        const QStringList on8H100{
            "--project", project, "--set", "hardware.gpu=H100-80GB", "--set", "hardware.gpus_per_node=8"};
        r = run(QStringList{"recommend", "--format", "text"} + on8H100);
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains("moe-sized: Mixture of experts: 46.7B parameters, 12.88B used per token"),
                 qPrintable(text));
        r = run(QStringList{"recommend"} + on8H100);
        QCOMPARE(r.exitCode, 0);
        const oj plan = oj::parse(r.out.toStdString());
        QCOMPARE(plan.at("job").at("experts").get<int>(), 8);
        // Its counts from the shape (knowledge/MoeShape.h): every expert, and what one token uses (2 of 8).
        QCOMPARE(plan.at("job").at("total_params").get<std::int64_t>(), std::int64_t(46702792704));
        QCOMPARE(plan.at("job").at("active_params").get<std::int64_t>(), std::int64_t(12879925248));
        const oj& candidates = plan.at("workflows").at("zero").at("candidates");
        QVERIFY(!candidates.empty());
        for (const oj& c : candidates) {
            QCOMPARE(c.at("total_params").get<std::int64_t>(), std::int64_t(46702792704));
            QCOMPARE(c.at("active_params").get<std::int64_t>(), std::int64_t(12879925248));
            QVERIFY(c.at("expert_parallel_size").get<int>() >= 1);
        }
        QVERIFY(plan.at("config").contains("zero_optimization"));

        // estimate sizes nothing for it, not even DeepSpeed's rows: one line naming the input, exit 2.
        for (const QString& format : {QString(), QStringLiteral("--json")}) {
            QStringList args{"estimate", "--params", "46.7B", "--gpus-per-node", "8",
                             "--nodes",  "1",        "--set", "model.experts=8"};
            if (!format.isEmpty())
                args << format;
            r = run(args);
            oneLineNaming(r, "model.experts 8");
            QVERIFY(r.err.contains("recommend sizes a mixture of experts"));
            QVERIFY(r.out.isEmpty());
        }
    }

    // estimate's rows count every parameter as trained: for LoRA it prints none of them and says where to go.
    void estimateRefusesAdapters()
    {
        for (const QString method : {"lora", "qlora"}) {
            const Run r = run({"estimate", "--params", "70B", "--gpus-per-node", "8", "--nodes", "1", "--set",
                               "training.method=" + method});
            oneLineNaming(r, "training.method " + method);
            QVERIFY(QString::fromUtf8(r.err).contains("recommend --set training.method=" + method));
            QVERIFY(r.out.isEmpty());
        }
        QCOMPARE(run({"estimate", "--params", "70B", "--gpus-per-node", "8", "--nodes", "1", "--set",
                      "training.method=full"})
                     .exitCode,
                 0);
    }

    void importRefusesWhatIsNeitherConfig()
    {
        const QString never = m_dir.filePath("never.dswiz");
        oneLineNaming(run({"import", write("package.json", R"({"name": "x", "version": "1.0.0"})"), "-o", never}),
                      "neither a DeepSpeed config");
        QVERIFY(!QFile::exists(never));
        oneLineNaming(
            run({"import", write("bad-model.json", R"({"model_type": "llama", "hidden_size": 96, "num_hidden_layers": 2,
                               "num_attention_heads": 12, "num_key_value_heads": 5, "vocab_size": 10})"),
                 "-o", never}),
            "model.kv_heads");
        QVERIFY(!QFile::exists(never));
    }

    void exportTargets()
    {
        const QString json = m_dir.filePath("ds.json");
        Run r = run({"export", "--to", "hf-json", "--set", "software.launcher=hf-trainer", "-o", json});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(oj::parse(f.readAll().toStdString())["train_micro_batch_size_per_gpu"] == "auto");
        const QString bundle = m_dir.filePath("bundle");
        r = run({"export", "--to", "bundle", "--set", "software.launcher=accelerate", "--set", "hardware.nodes=2", "-o",
                 bundle});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const char* name : {"ds_config.json", "accelerate_config.yaml", "launch.sh"})
            QVERIFY2(QFile::exists(QDir(bundle).filePath(name)), name);
        QVERIFY(QFileInfo(QDir(bundle).filePath("launch.sh")).isExecutable());
        oneLineNaming(run({"export", "--to", "yaml", "-o", json}), "--to");
        const QString never = m_dir.filePath("never.json");
        oneLineNaming(run({"export", "--to", "deepspeed-json", "--set", "hardware.gpu=Z80", "-o", never}),
                      "hardware.gpu");
        QVERIFY(!QFile::exists(never));
        // What the launcher's reader cannot run is refused, saying why, and nothing is written.
        oneLineNaming(run({"export", "--to", "bundle", "--set", "software.launcher=hf-trainer", "--set",
                           "pipeline.stages=2", "-o", m_dir.filePath("pipe")}),
                      "PipelineModule");
        QVERIFY(!QFile::exists(m_dir.filePath("pipe")));
        oneLineNaming(run({"export", "--to", "accelerate-yaml", "--set", "software.launcher=hf-trainer", "-o", never}),
                      "software.launcher = accelerate");
        QVERIFY(!QFile::exists(never));
    }

    // -o is checked before anything is computed: a FIFO (opening it would block), a folder, a device or the
    // command's own input is refused with exit 2 naming it, and is left as it was.
    void outputThatMustNotBeReplaced_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("import") << "import";
        QTest::newRow("export") << "export";
        QTest::newRow("recommend") << "recommend";
    }
    void outputThatMustNotBeReplaced()
    {
        QFETCH(QString, command);
        QTemporaryDir dir;
        const QString config = dir.filePath("in.json");
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"train_micro_batch_size_per_gpu": 2})");
        }
        const QString project = dir.filePath("in.dswiz");
        QCOMPARE(run({"import", config, "-o", project}).exitCode, 0);
        QFile p(project);
        QVERIFY(p.open(QIODevice::ReadOnly));
        const QByteArray projectBytes = p.readAll();
        const QString fifo = dir.filePath("fifo");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const QString input = command == "import" ? config : project;
        const QString link = dir.filePath("link-to-input");
        QVERIFY(QFile::link(input, link));
        auto args = [&](const QString& out) {
            if (command == "import")
                return QStringList{"import", config, "-o", out};
            if (command == "export")
                return QStringList{"export", "--project", project, "--to", "deepspeed-json", "-o", out};
            return QStringList{"recommend", "--project", project, "-o", out};
        };
        oneLineNaming(run(args(fifo)), fifo + ": it is a FIFO");
        oneLineNaming(run(args(dir.path())), dir.path() + ": it is a folder");
        oneLineNaming(run(args("/dev/null")), "/dev/null: it is a character device");
        oneLineNaming(run(args(input)), "is the input file");
        oneLineNaming(run(args(link)), "is the input file");
        oneLineNaming(run(args("")), "empty");
        if (command != "import") // checked before the answers are even read: the -o problem is the one reported
            oneLineNaming(run(args(fifo) + QStringList{"--set", "hardware.nodes=0"}), fifo + ": it is a FIFO");
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
        QVERIFY(::stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
        QVERIFY(QFileInfo(link).isSymLink());
        QFile c(config), again(project);
        QVERIFY(c.open(QIODevice::ReadOnly) && again.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll(), QByteArray(R"({"train_micro_batch_size_per_gpu": 2})"));
        QCOMPARE(again.readAll(), projectBytes);
    }

    // A hostfile the user did not name is replaced only with --force; launch.sh does not appear without it.
    void hostfileNeedsForce()
    {
        QTemporaryDir dir;
        const QString launch = dir.filePath("launch.sh"), hostfile = dir.filePath("hostfile");
        const QStringList args{"export", "--to", "launch", "--set", "hardware.nodes=2", "-o", launch};
        {
            QFile f(hostfile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("gpu-17 slots=8\ngpu-18 slots=8\n");
        }
        oneLineNaming(run(args), hostfile + " exists and -o does not name it; --force");
        QVERIFY(!QFile::exists(launch));
        QFile h(hostfile);
        QVERIFY(h.open(QIODevice::ReadOnly));
        QCOMPARE(h.readAll(), QByteArray("gpu-17 slots=8\ngpu-18 slots=8\n"));
        h.close();
        Run r = run(args + QStringList{"--force"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFileInfo(launch).isExecutable());
        QVERIFY(h.open(QIODevice::ReadOnly) && !h.readAll().contains("gpu-17"));
        r = run(args); // the hostfile is what it would write: nothing to overwrite, no --force needed
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString bundle = dir.filePath("bundle");
        QVERIFY(QDir(dir.path()).mkdir("bundle"));
        {
            QFile f(bundle + "/hostfile");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("edited");
        }
        oneLineNaming(run({"export", "--to", "bundle", "--set", "hardware.nodes=2", "-o", bundle}), "--force");
        QCOMPARE(QDir(bundle).entryList(QDir::Files | QDir::Hidden), QStringList{"hostfile"});
    }

    // Control characters from a config (here in a key) reach the terminal only as visible escapes.
    void lintIsTerminalSafe()
    {
        const QString path = write("control.json", "{\"a\\u001b[31mb\\r\": 1, \"train_batch_size\": 8}");
        Run r = run({"lint", path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(!r.out.contains('\x1b') && !r.out.contains('\r'), r.out.constData());
        QVERIFY2(r.out.contains("a\\x1b[31mb\\r"), r.out.constData());
        r = run({"lint", path, "--format", "json"});
        QVERIFY(!r.out.contains('\x1b') && !r.out.contains('\r'));
        QVERIFY(oj::parse(r.out.toStdString()).at("findings").dump().find("a\\u001b[31mb\\r") != std::string::npos);
        // The same through diff, and a file name with control characters in an error.
        r = run({"diff", path, write("other.json", "{}")});
        QVERIFY(!r.out.contains('\x1b') && !r.out.contains('\r'));
        const Run bad = run({"lint", m_dir.filePath("two\nlines\x1b[2J.json")});
        oneLineNaming(bad, "two\\nlines\\x1b[2J.json");
        QVERIFY(!bad.err.contains('\x1b'));
    }

    void diffAppliesDefaults()
    {
        const QString a =
            write("a.json",
                  R"({"zero_optimization": {"stage": 3, "overlap_comm": true, "stage3_prefetch_bucket_size": 5e7}})");
        const QString b = write("b.json", R"({"zero_optimization": {"stage": 3}})");
        Run r = run({"diff", a, b});
        QCOMPARE(r.exitCode, 0);
        const QString c = write("c.json", R"({"zero_optimization": {"stage": 2}})");
        r = run({"diff", a, c, "--format", "json"});
        QVERIFY(r.out.contains("overlap_comm")); // at stage 2 its default is false, so true differs
        QCOMPARE(r.exitCode, 1);
        bool stage = false;
        const oj result = oj::parse(r.out.toStdString());
        for (const auto& d : result.at("differences"))
            stage = stage || d["pointer"] == "/zero_optimization/stage";
        QVERIFY(stage);
        oneLineNaming(run({"diff", a}), "missing argument: expected A.json B.json");
        oneLineNaming(run({"diff", m_dir.filePath("none-a.json"), m_dir.filePath("none-b.json")}), "none-a.json");
    }
};

QTEST_GUILESS_MAIN(TestConfigCommands)
#include "TestConfigCommands.moc"
