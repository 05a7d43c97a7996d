#include "LintCommand.h"

#include "CommandLineSupport.h"
#include "TerminalText.h"
#include "config/ConfigText.h"
#include "config/HfModelConfig.h"
#include "knowledge/DeepSpeedFacts.h"
#include "lint/ConfigLinter.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

QString safe(const std::string& text) { return terminalSafe(QString::fromStdString(text)); }

// The files the arguments name: a file as given, a directory's *.json and *.conf files. Several arguments or a
// directory make a multi-file run, whose output has a block per file and a summary.
QStringList lintTargets(const QStringList& args, bool& many)
{
    QStringList files;
    many = args.size() > 1;
    for (const QString& arg : args) {
        if (QFileInfo(arg).isDir()) {
            many = true;
            const QDir dir(arg);
            const QStringList names =
                dir.entryList({QStringLiteral("*.json"), QStringLiteral("*.conf")}, QDir::Files, QDir::Name);
            if (names.isEmpty()) // a lint of nothing must not pass as clean
                throw BadInput{arg + QStringLiteral(": no *.json or *.conf files")};
            for (const QString& name : names)
                files << dir.filePath(name);
        } else {
            files << arg;
        }
        if (files.size() > kMaxLintFiles)
            throw BadInput{
                QStringLiteral("more than %1 files to lint in one call; lint fewer at a time").arg(kMaxLintFiles)};
    }
    return files;
}

struct FileResult {
    QString path;
    std::optional<QString> error;   // unreadable: why
    std::optional<QString> skipped; // not a DeepSpeed config: what it is
    std::vector<LintFinding> findings;
    int status() const
    {
        if (error)
            return 2;
        return std::any_of(findings.begin(), findings.end(), [](const auto& f) { return f.level != LintLevel::Info; })
            ? 1
            : 0;
    }
};

FileResult lintFile(const QString& path, const Answers& context)
{
    FileResult r{path, std::nullopt, std::nullopt, {}};
    try {
        auto parsed = parseConfigText(readInputFile(path, kMaxConfigBytes));
        if (!parsed)
            r.error = QString::fromStdString(parsed.error());
        else if (classifyConfigFile(parsed.value().json) == ConfigFileKind::HuggingFaceModel)
            r.skipped = QStringLiteral("a Hugging Face model config.json, not a DeepSpeed config: not linted "
                                       "(ds-wizard import fills a project's model answers from it)");
        else
            r.findings = lintConfig(parsed.value(), context);
    } catch (const BadInput& bad) { // readInputFile names the file; the report names it once
        const QString prefix = path + QStringLiteral(": ");
        r.error = bad.message.startsWith(prefix) ? bad.message.mid(prefix.size()) : bad.message;
    }
    return r;
}

oj resultJson(const FileResult& r)
{
    oj o{{"file", r.path.toStdString()}};
    if (r.error || r.skipped) {
        o[r.error ? "error" : "skipped"] = (r.error ? *r.error : *r.skipped).toStdString();
        return o;
    }
    oj list = oj::array();
    for (const auto& f : r.findings)
        list.push_back(toJson(f));
    o["findings"] = std::move(list);
    return o;
}

void printFindings(const FileResult& r, QTextStream& out)
{
    for (const auto& f : r.findings) {
        out << terminalSafe(r.path) << ":"; // a finding on the whole config has no line (0): none is printed
        if (f.line > 0)
            out << f.line << ":";
        out << " " << QString::fromStdString(mark(f.level) + " " + toString(f.level)) << " [" << safe(f.code) << "] "
            << safe(f.path.empty() ? std::string("/") : f.path) << ": " << safe(f.message) << "\n";
        if (f.suggestion)
            out << "    suggestion: " << safe(*f.suggestion) << "\n";
    }
}

QString basedOn()
{
    return "Based on DeepSpeed " + QString::fromStdString(knowledgeVersion())
        + "'s code and documentation; nothing was run.";
}

} // namespace

int runLint(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QCommandLineParser p;
    p.addOptions({{"set",
                   "Context a config alone lacks (GPU, GPU counts, launcher, versions): id=value; ds-wizard keys lists "
                   "the ids.",
                   "id=value"},
                  {"format", "text or json.", "FORMAT", "text"}});
    parseOrThrow(p, args, QStringLiteral("CONFIG|DIR..."));
    const QString format = p.value("format");
    if (format != "text" && format != "json")
        throw BadInput{QStringLiteral("--format: '%1' is not allowed; one of: text, json").arg(format)};
    Answers context;
    applySets(p.values("set"), context);
    bool many = false;
    const QStringList files = lintTargets(p.positionalArguments(), many);

    if (!many) { // one file: its findings, or its error as the command's one-line error
        const FileResult r = lintFile(files.at(0), context);
        if (r.error || r.skipped)
            throw BadInput{files.at(0) + ": " + (r.error ? *r.error : *r.skipped)};
        if (format == "json")
            out << QString::fromStdString(jsonTerminalSafe(resultJson(r).dump(2))) << "\n";
        else {
            printFindings(r, out);
            out << r.findings.size() << " finding(s). " << basedOn() << "\n";
        }
        return r.status();
    }

    int worst = 0, clean = 0, withFindings = 0, unreadable = 0, skipped = 0;
    oj all = oj::array();
    for (const QString& path : files) {
        const FileResult r = lintFile(path, context);
        worst = std::max(worst, r.status());
        (r.skipped ? skipped : r.status() == 0 ? clean : r.status() == 1 ? withFindings : unreadable)++;
        if (r.error)
            err << "ds-wizard lint: " << terminalSafe(path) << ": " << terminalSafe(*r.error) << "\n";
        if (format == "json") {
            all.push_back(resultJson(r));
            continue;
        }
        out << "== " << terminalSafe(path) << "\n";
        if (r.error)
            out << "unreadable: " << terminalSafe(*r.error) << "\n";
        else if (r.skipped)
            out << "skipped: " << terminalSafe(*r.skipped) << "\n";
        else {
            printFindings(r, out);
            out << r.findings.size() << " finding(s).\n";
        }
    }
    if (format == "json")
        out << QString::fromStdString(jsonTerminalSafe(all.dump(2))) << "\n";
    else
        out << files.size() << " file(s): " << clean << " clean, " << withFindings << " with findings, " << unreadable
            << " unreadable, " << skipped << " skipped. " << basedOn() << "\n";
    return worst;
}

} // namespace dsw
