#include "project/ProjectFile.h"

#include "project/InputRegistry.h"
#include "util/OrderedJsonReader.h"
#include "util/OrderedObjectBuilder.h"
#include "util/Utf8.h"

#include <algorithm>
#include <limits>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// nlohmann's offset is just past the offending byte.
std::string lineAndColumn(const std::string& bytes, std::size_t offset)
{
    const TextPosition at = positionOf(bytes, offset > 0 ? offset - 1 : 0);
    return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
}

std::string mebibytes(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

// root[key], or `absent` when root has no such member: by reference, where value() returns a copy.
const oj& memberOr(const oj& root, const char* key, const oj& absent)
{
    const auto it = root.find(key);
    return it == root.end() ? absent : *it;
}

bool isTextList(const oj& v)
{
    return v.is_array() && std::all_of(v.begin(), v.end(), [](const oj& item) { return item.is_string(); });
}

// "imported_text": {"duplicates": [{"pointer", "line"}], "syntax": [text], "quoteless": [pointer]}.
Result<ImportedText> parseImportedText(const oj& v)
{
    const auto bad = [] {
        return Result<ImportedText>::failure("\"imported_text\" must be {\"duplicates\": [{\"pointer\", \"line\"}], "
                                             "\"syntax\": [text], \"quoteless\": [JSON pointers]}");
    };
    if (!v.is_object())
        return bad();
    ImportedText text;
    const oj duplicates = v.value("duplicates", oj::array());
    const oj syntax = v.value("syntax", oj::array());
    const oj quoteless = v.value("quoteless", oj::array());
    if (!duplicates.is_array() || !isTextList(syntax) || !isTextList(quoteless))
        return bad();
    for (const oj& d : duplicates) {
        if (!d.is_object() || !d.contains("pointer") || !d["pointer"].is_string() || !d.contains("line")
            || !d["line"].is_number_integer() || d["line"].get<std::int64_t>() < 0
            || d["line"].get<std::int64_t>() > std::numeric_limits<int>::max())
            return bad();
        text.duplicates.push_back({d["pointer"].get<std::string>(), d["line"].get<int>()});
    }
    text.hjsonSyntax = syntax.get<std::vector<std::string>>();
    text.quotelessValues = quoteless.get<std::vector<std::string>>();
    return text;
}

} // namespace

bool Project::isHandled(const std::string& workflow) const
{
    return std::any_of(handled.begin(), handled.end(),
                       [&](const HandledWorkflow& h) { return h.workflow == workflow; });
}

const HandledWorkflow* Project::handledEntry(const std::string& workflow) const
{
    auto it =
        std::find_if(handled.begin(), handled.end(), [&](const HandledWorkflow& h) { return h.workflow == workflow; });
    return it == handled.end() ? nullptr : &*it;
}

void Project::markHandled(const std::string& workflow, const std::string& at, const std::string& summary,
                          const std::string& fingerprint)
{
    handled.erase(std::remove_if(handled.begin(), handled.end(),
                                 [&](const HandledWorkflow& h) { return h.workflow == workflow; }),
                  handled.end());
    handled.push_back({workflow, at, summary, fingerprint, nlohmann::ordered_json::object()});
}

namespace {

Result<Project> parse(const std::string& bytes)
{
    if (bytes.size() > kMaxProjectBytes)
        return Result<Project>::failure("the project file is " + std::to_string(bytes.size())
                                        + " bytes; ds-wizard opens at most " + std::to_string(kMaxProjectBytes)
                                        + " bytes (" + mebibytes(kMaxProjectBytes)
                                        + "); a ds-wizard project is a few kilobytes");
    if (auto bad = firstInvalidUtf8(bytes))
        return Result<Project>::failure("invalid UTF-8 at byte offset " + std::to_string(*bad)
                                        + ": a project file must be UTF-8 text");
    // Before anything recursive (copies, comparisons and dumps of nlohmann values all recurse).
    if (auto deep = firstTooDeep(bytes, kMaxProjectDepth))
        return Result<Project>::failure("the project file is nested too deeply: " + describe(*deep, kMaxProjectDepth));
    OrderedJsonRead read = readOrderedJson(bytes);
    if (read.error && read.error->syntax)
        return Result<Project>::failure("the project file is not valid JSON (" + lineAndColumn(bytes, read.error->byte)
                                        + ")");
    if (read.error) // e.g. a number too large for a double
        return Result<Project>::failure("the project file cannot be read: " + read.error->what);
    oj root = std::move(read.value);
    if (!root.is_object() || !root.contains("format")
        || root["format"] != "ds-wizard-project") // value() throws on a non-string
        return Result<Project>::failure("not a ds-wizard project: \"format\" must be \"ds-wizard-project\"");
    if (!root.contains("version") || !root["version"].is_number_integer())
        return Result<Project>::failure("the project file has no integer \"version\"");
    const auto version = root["version"].get<long long>();
    if (version > kProjectFormatVersion)
        return Result<Project>::failure("this project was written by a newer ds-wizard (format version "
                                        + std::to_string(version) + "); this ds-wizard reads version "
                                        + std::to_string(kProjectFormatVersion) + " — update ds-wizard to open it");
    if (version < 1)
        return Result<Project>::failure("the project file's \"version\" must be 1");

    Project project;
    std::vector<std::string> errors;
    static const oj noAnswers = oj::object();
    static const oj noneHandled = oj::array();
    const oj& answers = memberOr(root, "answers", noAnswers);
    if (!answers.is_object())
        return Result<Project>::failure("\"answers\" must be an object of input id to value");
    const auto& registry = InputRegistry::instance();
    OrderedObjectBuilder unknownAnswers;
    for (const auto& [id, value] : answers.items()) {
        if (!registry.find(id)) {
            unknownAnswers.set(id, value);
            continue;
        }
        auto r = registry.validate(id, nlohmann::json(value));
        if (r)
            project.answers.set(id, r.value());
        else
            errors.push_back(r.error());
    }
    project.unknownAnswers = unknownAnswers.take();
    const oj& handled = memberOr(root, "handled", noneHandled);
    if (!handled.is_array())
        errors.push_back("\"handled\" must be a list of {workflow, at, summary}");
    else
        for (const auto& h : handled) {
            if (!h.is_object() || !h.contains("workflow") || !h["workflow"].is_string()
                || !h.value("at", oj("")).is_string() || !h.value("summary", oj("")).is_string()
                || !h.value("fingerprint", oj("")).is_string())
                errors.push_back("\"handled\": each entry needs a \"workflow\" string; \"at\", \"summary\" and "
                                 "\"fingerprint\" are text");
            else {
                HandledWorkflow entry{h["workflow"].get<std::string>(), h.value("at", ""), h.value("summary", ""),
                                      h.value("fingerprint", "")};
                OrderedObjectBuilder extra;
                for (const auto& [key, value] : h.items())
                    if (key != "workflow" && key != "at" && key != "summary" && key != "fingerprint")
                        extra.set(key, value);
                entry.extra = extra.take();
                project.handled.push_back(std::move(entry));
            }
        }
    if (root.contains("notes") && !root["notes"].is_string())
        errors.push_back("\"notes\" must be text");
    else
        project.notes = root.value("notes", "");
    if (!errors.empty()) {
        std::string message = "the project has " + std::to_string(errors.size()) + " bad value(s):";
        for (const auto& e : errors)
            message += "\n  " + e;
        return Result<Project>::failure(message);
    }
    if (root.contains("imported_config")) {
        project.importedConfig = root["imported_config"];
        if (!project.importedConfig.is_object())
            return Result<Project>::failure("\"imported_config\" must be a ds_config object");
        const oj accepted = root.value("accepted_suggestions", oj::array());
        if (!accepted.is_array()
            || !std::all_of(accepted.begin(), accepted.end(), [](const oj& p) { return p.is_string(); }))
            return Result<Project>::failure("\"accepted_suggestions\" must be a list of JSON pointers");
        for (const auto& p : accepted)
            project.acceptedSuggestions.push_back(p.get<std::string>());
        if (root.contains("imported_text")) {
            auto text = parseImportedText(root["imported_text"]);
            if (!text)
                return Result<Project>::failure(text.error());
            project.importedText = std::move(text).value();
        }
    }
    static const std::vector<std::string> known = {
        "format", "version", "answers", "handled", "notes", "imported_config", "accepted_suggestions", "imported_text"};
    OrderedObjectBuilder unknownKeys;
    for (const auto& [key, value] : root.items())
        if (std::find(known.begin(), known.end(), key) == known.end())
            unknownKeys.set(key, value);
    project.unknownKeys = unknownKeys.take();
    return project;
}

} // namespace

Result<Project> parseProject(const std::string& bytes)
{
    try {
        return parse(bytes);
    } catch (const std::exception& e) { // e.g. out of memory: report, never throw to the caller
        return Result<Project>::failure(std::string("the project file cannot be read: ") + e.what());
    }
}

std::string serializeProject(const Project& project)
{
    OrderedObjectBuilder root;
    root.set("format", "ds-wizard-project");
    root.set("version", kProjectFormatVersion);
    OrderedObjectBuilder answers;
    for (const auto& [id, value] : project.answers.given())
        answers.set(id, value);
    for (const auto& [id, value] : project.unknownAnswers.items())
        answers.set(id, value);
    root.set("answers", answers.take());
    oj handled = oj::array();
    for (const auto& h : project.handled) {
        OrderedObjectBuilder entry;
        entry.set("workflow", h.workflow);
        entry.set("at", h.at);
        entry.set("summary", h.summary);
        if (!h.fingerprint.empty())
            entry.set("fingerprint", h.fingerprint);
        for (const auto& [key, value] : h.extra.items())
            entry.set(key, value);
        handled.push_back(entry.take());
    }
    root.set("handled", std::move(handled));
    root.set("notes", project.notes);
    if (!project.importedConfig.is_null()) {
        root.set("imported_config", project.importedConfig);
        root.set("accepted_suggestions", project.acceptedSuggestions);
        if (!project.importedText.empty()) {
            oj duplicates = oj::array();
            for (const auto& d : project.importedText.duplicates)
                duplicates.push_back(oj{{"pointer", d.pointer}, {"line", d.line}});
            root.set("imported_text",
                     oj{{"duplicates", duplicates},
                        {"syntax", project.importedText.hjsonSyntax},
                        {"quoteless", project.importedText.quotelessValues}});
        }
    }
    for (const auto& [key, value] : project.unknownKeys.items())
        root.set(key, value);
    return root.take().dump(2) + "\n";
}

Result<std::string> serializeProjectForFile(const Project& project)
{
    std::string bytes = serializeProject(project);
    if (bytes.size() > kMaxProjectBytes)
        return Result<std::string>::failure("the project would be " + std::to_string(bytes.size())
                                            + " bytes (its config "
                                              "indented inside the project), and ds-wizard opens projects of at most "
                                            + std::to_string(kMaxProjectBytes) + " bytes ("
                                            + mebibytes(kMaxProjectBytes) + ")");
    return bytes;
}

} // namespace dsw
