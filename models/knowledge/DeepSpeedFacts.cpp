#include "knowledge/DeepSpeedFacts.h"

#include "knowledge/KnowledgeFiles.h"

#include <cctype>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;
// Finds where each top-level member's value lies in JSON object text, one member at a time, by skipping values
// (strings with their escapes, nested brackets) without building them: a caller that wants the version, the second
// member, reads a few hundred bytes of the file. Syntax inside a value is checked by the parse of that value.
class MemberScanner {
public:
    explicit MemberScanner(std::string_view text)
        : m_text(text)
    {
    }

    // The next member; false at the end of the object, or when the text is not an object this scanner can read
    // (then failed() is true and the caller takes the whole parse, which reports the file's error as before).
    bool next(std::string_view& key, std::string_view& value)
    {
        if (m_state == State::Done || m_state == State::Failed)
            return false;
        skipSpace();
        if (m_state == State::Start) {
            if (!take('{'))
                return fail();
            skipSpace();
            if (take('}'))
                return finish();
            m_state = State::Member;
        } else if (take('}')) {
            return finish();
        } else if (!take(',')) {
            return fail();
        }
        skipSpace();
        const std::size_t keyStart = m_at;
        if (!skipString())
            return fail();
        key = m_text.substr(keyStart + 1, m_at - keyStart - 2);
        if (key.find('\\') != std::string_view::npos) // an escaped key: compared decoded, by the whole parse
            return fail();
        skipSpace();
        if (!take(':'))
            return fail();
        skipSpace();
        const std::size_t valueStart = m_at;
        if (!skipValue())
            return fail();
        value = m_text.substr(valueStart, m_at - valueStart);
        return true;
    }
    bool failed() const { return m_state == State::Failed; }

private:
    enum class State { Start, Member, Done, Failed };

    bool fail()
    {
        m_state = State::Failed;
        return false;
    }
    bool finish()
    {
        skipSpace();
        m_state = m_at == m_text.size() ? State::Done : State::Failed;
        return false;
    }
    bool take(char c)
    {
        if (m_at < m_text.size() && m_text[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    void skipSpace()
    {
        while (m_at < m_text.size()
               && (m_text[m_at] == ' ' || m_text[m_at] == '\t' || m_text[m_at] == '\n' || m_text[m_at] == '\r'))
            ++m_at;
    }
    // From an opening quote past its closing one: the next quote not escaped by an odd run of backslashes.
    bool skipString()
    {
        if (!take('"'))
            return false;
        for (;;) {
            const std::size_t quote = m_text.find('"', m_at);
            if (quote == std::string_view::npos)
                return false;
            std::size_t backslashes = 0;
            while (quote - backslashes > m_at && m_text[quote - backslashes - 1] == '\\')
                ++backslashes;
            m_at = quote + 1;
            if (backslashes % 2 == 0)
                return true;
        }
    }
    bool skipValue()
    {
        if (m_at >= m_text.size())
            return false;
        if (m_text[m_at] == '"')
            return skipString();
        if (m_text[m_at] == '{' || m_text[m_at] == '[') {
            std::size_t depth = 0;
            while (m_at < m_text.size()) {
                const char c = m_text[m_at];
                if (c == '"') {
                    if (!skipString())
                        return false;
                    continue;
                }
                ++m_at;
                if (c == '{' || c == '[')
                    ++depth;
                else if ((c == '}' || c == ']') && --depth == 0)
                    return true;
            }
            return false;
        }
        const std::size_t start = m_at; // a number, true, false or null
        while (m_at < m_text.size() && m_text[m_at] != ',' && m_text[m_at] != '}'
               && !std::isspace(static_cast<unsigned char>(m_text[m_at])))
            ++m_at;
        return m_at > start;
    }

    std::string_view m_text;
    std::size_t m_at = 0;
    State m_state = State::Start;
};

} // namespace

const nlohmann::ordered_json& deepspeedKnowledge()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const oj& knowledge = *new oj(oj::parse(knowledgeFile("deepspeed.json")));
    return knowledge;
}

const nlohmann::ordered_json& deepspeedKnowledgeMember(std::string_view key)
{
    // Never destroyed, like deepspeedKnowledge(): members parsed so far (map nodes never move), and the scan's place.
    static std::mutex& mutex = *new std::mutex;
    static auto& parsed = *new std::map<std::string, oj, std::less<>>;
    static auto& scanned = *new std::vector<std::pair<std::string_view, std::string_view>>;
    static MemberScanner& scanner = *new MemberScanner(knowledgeFile("deepspeed.json"));

    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = parsed.find(key); it != parsed.end())
        return it->second;
    // The file's first member of that name (TestDeepSpeedFacts holds every member equal to the whole parse's,
    // which keeps a repeated key's last value, so a repeated key fails there).
    std::size_t found = 0;
    while (found < scanned.size() && scanned[found].first != key)
        ++found;
    for (std::string_view name, value; found == scanned.size() && scanner.next(name, value);)
        if (scanned.emplace_back(name, value).first != key)
            ++found;
    if (found == scanned.size()) // not in the file (out_of_range), or a file the scan cannot read
        return deepspeedKnowledge().at(std::string(key));
    const std::string_view text = scanned[found].second;
    return parsed.emplace(std::string(key), oj::parse(text.begin(), text.end())).first->second;
}

std::string knowledgeVersion()
{
    static const std::string& version =
        *new std::string(deepspeedKnowledgeMember("knowledge_version").get<std::string>());
    return version;
}

std::string basisStatement()
{
    static const std::string& statement =
        *new std::string("Based on DeepSpeed " + knowledgeVersion()
                         + "'s documentation and code; ds-wizard did not run or test this configuration.");
    return statement;
}

TorchRequirement torchRequirement()
{
    const auto& r = deepspeedKnowledgeMember("torch_requirement");
    return {r.at("minimum").get<std::string>(), r.at("known_from").get<std::string>()};
}

ChangedDefault changedDefault(const std::string& key)
{
    for (const auto& change : deepspeedKnowledgeMember("changed_defaults"))
        if (change.at("key") == key)
            return {change.at("from").get<std::string>(), change.at("old"), change.at("new")};
    throw std::out_of_range("deepspeed.json lists no changed default for " + key);
}

} // namespace dsw
