#include "project/InputLabels.h"

#include "project/InputRegistry.h"
#include "util/Count.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace dsw {

namespace {

bool idCharacter(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'; }

} // namespace

std::string inputLabel(const std::string& id)
{
    const InputSpec* spec = InputRegistry::instance().find(id);
    return spec && !spec->label.empty() ? spec->label : id;
}

std::string inputPage(const std::string& id)
{
    const InputSpec* spec = InputRegistry::instance().find(id);
    return spec ? spec->page : std::string();
}

std::vector<LabelledPart> labelledParts(const std::string& text)
{
    std::vector<LabelledPart> parts;
    auto addText = [&parts](const std::string& piece) {
        if (piece.empty())
            return;
        if (parts.empty() || !parts.back().inputId.empty())
            parts.push_back({piece, {}});
        else
            parts.back().text += piece;
    };
    std::size_t i = 0;
    while (i < text.size()) {
        // An id starts a word: a lowercase letter not preceded by an id character (or a letter of another case).
        const bool wordStart = i == 0
            || !(idCharacter(text[i - 1]) || (text[i - 1] >= 'A' && text[i - 1] <= 'Z') || text[i - 1] == '/'
                 || text[i - 1] == '-');
        if (!wordStart || text[i] < 'a' || text[i] > 'z') {
            addText(text.substr(i++, 1));
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && idCharacter(text[end]))
            ++end;
        std::size_t idEnd = end;
        while (idEnd > i && text[idEnd - 1] == '.') // a sentence's full stop is not part of the id
            --idEnd;
        const std::string word = text.substr(i, idEnd - i);
        const bool nextIsWordy = idEnd < text.size()
            && ((text[idEnd] >= 'A' && text[idEnd] <= 'Z') || text[idEnd] == '-' || text[idEnd] == '/');
        const InputSpec* spec =
            word.find('.') != std::string::npos && !nextIsWordy ? InputRegistry::instance().find(word) : nullptr;
        if (spec && !spec->label.empty())
            parts.push_back({spec->label, spec->id});
        else
            addText(word);
        addText(text.substr(idEnd, end - idEnd));
        i = end;
    }
    return parts;
}

std::string withInputLabels(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const LabelledPart& part : labelledParts(text))
        out += part.inputId.empty() ? part.text : "“" + part.text + "”";
    return out;
}

std::string displayValue(const InputSpec& spec, const nlohmann::json& value)
{
    if (value.is_null())
        return {};
    if (value.is_string())
        return value.get<std::string>();
    if (spec.type == InputType::Count && value.is_number_integer()) {
        const std::int64_t n = value.get<std::int64_t>();
        const std::string shortForm = formatCount(n);
        if (n >= 1000000 && parseCount(shortForm) == n)
            return shortForm;
        // Exact, in groups of three digits (6,738,415,616), which reads back as the same count.
        std::string digits = std::to_string(n), grouped;
        for (std::size_t i = 0; i < digits.size(); ++i) {
            if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-')
                grouped.push_back(',');
            grouped.push_back(digits[i]);
        }
        return grouped;
    }
    if (value.is_number_float()) {
        const double v = value.get<double>();
        if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15)
            return std::to_string(static_cast<std::int64_t>(v));
        std::ostringstream out;
        out << std::setprecision(12) << v;
        return out.str();
    }
    return value.dump();
}

std::string labelWithUnit(const InputSpec& spec)
{
    std::string lowerLabel, lowerUnit;
    for (char c : spec.label)
        lowerLabel.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    for (char c : spec.unit)
        lowerUnit.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (spec.unit.empty() || lowerLabel.find(lowerUnit) != std::string::npos)
        return spec.label;
    return spec.label + " (" + spec.unit + ")";
}

std::string inputSection(const InputSpec& spec)
{
    const std::string prefix = spec.id.substr(0, spec.id.find('.'));
    if (prefix == "model")
        return "Model";
    if (prefix == "hardware")
        return "Cluster";
    if (prefix == "training" || prefix == "lora" || prefix == "moe") // how the model (its adapters, experts) trains
        return "Training";
    if (prefix == "software")
        return "Software";
    return {};
}

} // namespace dsw
