#pragma once
#include "project/Answers.h"
#include "util/JsonLimits.h"
#include "util/Result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// A workflow the user finished: which, when (ISO 8601, supplied by the caller), what it concluded, and a
// fingerprint of the advice reviewed (Pages.h: adviceFingerprint; empty in files written before it existed).
struct HandledWorkflow {
    std::string workflow;
    std::string at;
    std::string summary;
    std::string fingerprint;
    nlohmann::ordered_json extra = nlohmann::ordered_json::object(); // other fields, kept on re-save
    bool operator==(const HandledWorkflow&) const = default;
};

// What an imported file's text said beyond its JSON (config/ConfigText.h: ParsedConfig), kept so that the file's own
// lint findings (duplicate-key, not-strict-json, unquoted-value) stay in the plan after import and reopening.
struct ImportedText {
    struct Duplicate {
        std::string pointer; // a key written more than once in one object: the file's last value is the one kept
        int line = 0;        // the line of that later occurrence in the file
        bool operator==(const Duplicate&) const = default;
    };
    std::vector<Duplicate> duplicates;
    std::vector<std::string> hjsonSyntax;     // "comments", "trailing commas", ...: empty for strict JSON
    std::vector<std::string> quotelessValues; // pointers of hjson quoteless values
    bool empty() const { return duplicates.empty() && hjsonSyntax.empty() && quotelessValues.empty(); }
    bool operator==(const ImportedText&) const = default;
};

// A *.dswiz file: {"format": "ds-wizard-project", "version": 1, "answers", "handled", "notes"}.
struct Project {
    Answers answers;
    std::vector<HandledWorkflow> handled;
    std::string notes;
    // A ds_config the project was imported from, kept whole: it is what the project exports, plus the
    // wizard's suggestions the user accepted (JSON pointers into the composed config). Null when not imported.
    nlohmann::ordered_json importedConfig;
    std::vector<std::string> acceptedSuggestions;
    ImportedText importedText;                                                // saved as "imported_text" when not empty
    nlohmann::ordered_json unknownKeys = nlohmann::ordered_json::object();    // kept on re-save
    nlohmann::ordered_json unknownAnswers = nlohmann::ordered_json::object(); // ids this version does not know

    bool isHandled(const std::string& workflow) const;
    const HandledWorkflow* handledEntry(const std::string& workflow) const; // null when not handled
    void markHandled(const std::string& workflow, const std::string& at, const std::string& summary,
                     const std::string& fingerprint = {});
};

inline constexpr int kProjectFormatVersion = 1;

// Reads a project. Fails with a message for more than kMaxProjectBytes, nesting deeper than
// kMaxProjectDepth (checked before anything recursive runs), malformed JSON (with line and column), a
// different format, a newer version, or any bad answer (each named); never drops a value silently.
// Time and memory are linear in the size of the text.
Result<Project> parseProject(const std::string& bytes);
std::string serializeProject(const Project& project);
// serializeProject, or why parseProject would refuse the result (larger than kMaxProjectBytes, with
// both numbers): what is written can always be opened again.
Result<std::string> serializeProjectForFile(const Project& project);

} // namespace dsw
