#pragma once
#include "project/Answers.h"
#include "util/JsonLimits.h"
#include "util/Result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// A workflow the user finished: which, when (ISO 8601, supplied by the caller), what it concluded, and a
// fingerprint of the advice reviewed (Steps.h: adviceFingerprint; empty in files written before it existed).
struct HandledWorkflow {
    std::string workflow;
    std::string at;
    std::string summary;
    std::string fingerprint;
    nlohmann::ordered_json extra = nlohmann::ordered_json::object(); // other fields, kept on re-save
    bool operator==(const HandledWorkflow&) const = default;
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
