// The linter against DeepSpeed's own verdicts: every *.jsonl in tests/data/deepspeed-verdicts/ holds configs that
// DeepSpeed 0.19.5's config class and engine checks judged (tests/reference/deepspeed_verdicts.py runs the oracle,
// see the README there). DeepSpeed rejected => at least one error finding; accepted => no error finding. Only the
// committed data is read: neither torch nor the oracle is needed here.
#include "lint/ConfigLinter.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <map>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

QString verdictDir() { return QStringLiteral(DSW_SOURCE_DIR) + "/tests/data/deepspeed-verdicts"; }

struct Verdict {
    std::string file, id, source;
    long long worldSize = 1;
    long long pipelineStages = 1;
    bool hfFill = false;
    oj config;
    bool accepted = false;
    std::string error;
};

std::vector<Verdict> readVerdicts(QStringList& problems)
{
    std::vector<Verdict> out;
    for (const QString& name : QDir(verdictDir()).entryList({"*.jsonl"}, QDir::Files, QDir::Name)) {
        QFile f(verdictDir() + "/" + name);
        if (!f.open(QIODevice::ReadOnly)) {
            problems << name + ": cannot be read";
            continue;
        }
        int lineNumber = 0;
        while (!f.atEnd()) {
            const QByteArray line = f.readLine().trimmed();
            ++lineNumber;
            if (line.isEmpty())
                continue;
            const QString where = name + ":" + QString::number(lineNumber);
            try {
                const oj j = oj::parse(line.toStdString());
                Verdict v;
                v.file = name.toStdString();
                v.id = j.at("id").get<std::string>();
                v.source = j.at("source").get<std::string>();
                v.worldSize = j.at("world_size").get<long long>();
                if (!j.at("pipeline_stages").is_null())
                    v.pipelineStages = j.at("pipeline_stages").get<long long>();
                v.hfFill = j.at("hf_fill").get<bool>();
                v.config = j.at("config");
                const oj& ds = j.at("deepspeed");
                v.accepted = ds.at("accepted").get<bool>();
                v.error = ds.at("error").is_null() ? std::string() : ds.at("error").get<std::string>();
                if (!ds.at("warnings").is_array() || !j.contains("dp"))
                    throw std::runtime_error("warnings must be a list, dp present");
                if (!v.accepted && v.error.empty())
                    throw std::runtime_error("a rejection without DeepSpeed's error");
                out.push_back(std::move(v));
            } catch (const std::exception& e) {
                problems << where + ": " + e.what();
            }
        }
    }
    return out;
}

// What the oracle was told, as the answers the linter reads.
Answers contextOf(const Verdict& v)
{
    Answers a;
    a.set("hardware.gpus_per_node", v.worldSize);
    a.set("hardware.nodes", 1LL);
    if (v.pipelineStages > 1)
        a.set("pipeline.stages", v.pipelineStages);
    a.set("software.launcher", std::string(v.hfFill ? "hf-trainer" : "deepspeed"));
    // No version: the oracle judges the config and engine init, not which ops the installed PyTorch can build (a
    // sparse_attention block is an error with a known DeepSpeed >= 0.19.5, whose torch >= 2 cannot build the op).
    return a;
}

} // namespace

class TestDeepSpeedVerdicts : public QObject {
    Q_OBJECT
private slots:
    void linterAgreesWithDeepSpeed()
    {
        QStringList problems;
        const std::vector<Verdict> verdicts = readVerdicts(problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        QVERIFY2(verdicts.size() >= 150,
                 qPrintable(QString("only %1 verdicts in %2").arg(verdicts.size()).arg(verdictDir())));

        int agree = 0, rejected = 0, trainerFilled = 0;
        std::map<std::string, std::pair<int, int>> perFile; // file -> (configs, agree)
        QStringList disagreements;
        for (const Verdict& v : verdicts) {
            const auto parsed = parseConfigText(v.config.dump(2));
            QVERIFY2(parsed.ok(), qPrintable(QString::fromStdString(v.file + " " + v.id)));
            const std::vector<LintFinding> findings = lintConfig(parsed.value(), contextOf(v));
            std::string errors;
            bool warmupWarning = false;
            for (const LintFinding& f : findings) {
                // What the Hugging Face readers refuse before DeepSpeed reads the config (accelerator.prepare, the
                // DeepSpeedPlugin, no pipeline engine) is not the oracle's to judge: it runs DeepSpeed alone.
                const bool hfReader = f.code == "hf-zero-block-missing" || f.code == "pipeline-needs-deepspeed-launcher"
                    || f.source == std::optional<std::string>("accelerate-auto-kwargs");
                if (f.level == LintLevel::Error && !hfReader)
                    errors += (errors.empty() ? "" : ", ") + f.code + " " + f.path;
                warmupWarning = warmupWarning || f.code == "hf-warmup-auto";
            }
            // The one rejection the linter warns about instead: the Trainer fills warmup "auto" with 0 only when
            // it runs without --warmup_steps / --warmup_ratio, which the config cannot say (the oracle assumes it).
            const bool filledWarmup = v.hfFill && warmupWarning
                && v.error.find("warmup_num_steps must be a positive integer, got 0") != std::string::npos;
            rejected += v.accepted ? 0 : 1;
            trainerFilled += filledWarmup && errors.empty() ? 1 : 0;
            const bool ok = v.accepted ? errors.empty() : (!errors.empty() || filledWarmup);
            ++perFile[v.file].first;
            if (ok) {
                ++agree;
                ++perFile[v.file].second;
            }
            if (!ok)
                disagreements << QString::fromStdString(
                    v.file + " " + v.id + " (" + v.source + "): DeepSpeed "
                    + (v.accepted ? "accepts, lint errors: " + errors
                                  : "rejects (" + v.error.substr(0, 160) + "), no lint error"));
        }
        qInfo("%zu configs (%d rejected by DeepSpeed), %d agree; %d of the rejections are the Trainer's warmup "
              "\"auto\" filled with 0, a warning naming --warmup_steps",
              verdicts.size(), rejected, agree, trainerFilled);
        for (const auto& [file, counts] : perFile)
            qInfo("  %s: %d configs, %d agree", file.c_str(), counts.first, counts.second);
        QVERIFY2(disagreements.isEmpty(), qPrintable(disagreements.join('\n')));
    }
};

QTEST_APPLESS_MAIN(TestDeepSpeedVerdicts)
#include "TestDeepSpeedVerdicts.moc"
