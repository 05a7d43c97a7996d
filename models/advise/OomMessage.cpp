// Reads out-of-memory messages by scanning for the fixed phrases the programs print and reading the
// sizes next to them. The wordings come from PyTorch's c10/cuda/CUDACachingAllocator.cpp (both the
// PyTorch <= 2.0 and >= 2.1 messages, format_size's units), DeepSpeed's launcher and _batch_assertion
// (deepspeed-facts §2.1), torch.distributed.elastic and the shell. No regex: every pass is linear in
// the (capped) input, so arbitrary bytes cannot make it slow.
#include "advise/OomMessage.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <vector>

namespace dsw {

namespace {

using sv = std::string_view;
constexpr std::size_t npos = sv::npos;
// How far after "Tried to allocate" the other numbers of one message are looked for.
constexpr std::size_t kMessageWindow = 2048;
// Larger batch numbers are not a real job; the cap keeps micro × accumulation × world far from overflow.
constexpr std::int64_t kMaxBatchNumber = 1000000;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// The first kMaxOomMessageBytes, every run of whitespace made one space, so wrapped log lines read as one.
std::string collapseWhitespace(const std::string& text)
{
    std::string out;
    const std::size_t n = std::min(text.size(), kMaxOomMessageBytes);
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!isSpace(text[i]))
            out.push_back(text[i]);
        else if (!out.empty() && out.back() != ' ')
            out.push_back(' ');
    }
    return out;
}

std::size_t findIn(sv s, sv needle, std::size_t from, std::size_t to)
{
    if (from >= to || to > s.size())
        return npos;
    const std::size_t at = s.substr(0, to).find(needle, from);
    return at;
}

// An unsigned integer at s[pos...]; its end goes to `end`. At most 18 digits, so it cannot overflow.
std::optional<std::int64_t> readInteger(sv s, std::size_t pos, std::size_t& end)
{
    std::size_t i = pos;
    std::int64_t value = 0;
    while (i < s.size() && isDigit(s[i]) && i - pos < 18)
        value = value * 10 + (s[i++] - '0');
    if (i == pos || (i < s.size() && isDigit(s[i])))
        return std::nullopt;
    end = i;
    return value;
}

// A count printed by Python, which may be a float with a zero fraction ("4.0" when world_size is a division).
std::optional<std::int64_t> readWholeNumber(sv s, std::size_t pos, std::size_t& end)
{
    auto value = readInteger(s, pos, end);
    if (value && end + 1 < s.size() && s[end] == '.' && isDigit(s[end + 1])) {
        std::size_t i = end + 1;
        while (i < s.size() && s[i] == '0')
            ++i;
        if (i < s.size() && isDigit(s[i]))
            return std::nullopt; // a real fraction is not a count
        end = i;
    }
    return value;
}

std::size_t skipSpaces(sv s, std::size_t i)
{
    while (i < s.size() && s[i] == ' ')
        ++i;
    return i;
}

// "12.34 MiB" at s[pos...]; `end` receives the index just after the unit.
std::optional<std::int64_t> readSize(sv s, std::size_t pos, std::size_t& end)
{
    std::size_t i = pos;
    std::int64_t whole = 0;
    while (i < s.size() && isDigit(s[i])) {
        if (i - pos >= 15)
            return std::nullopt;
        whole = whole * 10 + (s[i++] - '0');
    }
    if (i == pos)
        return std::nullopt;
    std::int64_t fraction = 0, scale = 1;
    if (i < s.size() && s[i] == '.') {
        const std::size_t start = ++i;
        while (i < s.size() && isDigit(s[i])) {
            if (i - start >= 6)
                return std::nullopt;
            fraction = fraction * 10 + (s[i++] - '0');
            scale *= 10;
        }
        if (i == start)
            return std::nullopt;
    }
    if (i >= s.size() || s[i] != ' ')
        return std::nullopt;
    ++i;
    std::size_t u = i;
    while (u < s.size() && isAlpha(s[u]) && u - i < 6)
        ++u;
    const sv unitText = s.substr(i, u - i);
    std::int64_t unit = 0;
    if (unitText == "GiB")
        unit = 1073741824;
    else if (unitText == "MiB")
        unit = 1048576;
    else if (unitText == "KiB")
        unit = 1024;
    else if (unitText == "bytes" || unitText == "B")
        unit = 1;
    else
        return std::nullopt;
    if (whole > std::numeric_limits<std::int64_t>::max() / unit - 1)
        return std::nullopt;
    end = u;
    // whole·unit + fraction·unit/scale, rounded half up; fraction·unit < 10^6·2^30 fits easily.
    return whole * unit + (2 * fraction * unit + scale) / (2 * scale);
}

// The size that ends exactly at `end` (where a label such as " is free" begins).
std::optional<std::int64_t> readSizeBefore(sv s, std::size_t end)
{
    std::size_t i = end;
    while (i > 0 && isAlpha(s[i - 1]) && end - i < 6)
        --i;
    if (i == end || i == 0 || s[i - 1] != ' ')
        return std::nullopt;
    --i;
    const std::size_t numberEnd = i;
    while (i > 0 && (isDigit(s[i - 1]) || s[i - 1] == '.') && numberEnd - i < 25)
        --i;
    std::size_t parsedEnd = 0;
    auto value = readSize(s, i, parsedEnd);
    return value && parsedEnd == end ? value : std::nullopt;
}

std::optional<std::int64_t> sizeAfterLabel(sv s, sv label, std::size_t from, std::size_t to)
{
    const std::size_t at = findIn(s, label, from, to);
    std::size_t end = 0;
    return at == npos ? std::nullopt : readSize(s, at + label.size(), end);
}

std::optional<std::int64_t> sizeBeforeLabel(sv s, sv label, std::size_t from, std::size_t to)
{
    const std::size_t at = findIn(s, label, from, to);
    return at == npos ? std::nullopt : readSizeBefore(s, at);
}

// What the listed processes other than this one hold. PyTorch prints this process's own NVML entry as "this
// process has", but when its pid differs from NVML's (a container's pid namespace) this process is listed again
// as "Process <pid> has": such an entry is not another process. With "this process has", an entry of the same
// size (within kOomSizeTolerance) is dropped unless total − free shows room for both; without it, this process
// is one of the entries — the only one, or else the smallest that holds at least what PyTorch reserved.
std::optional<std::int64_t> othersAmong(std::vector<std::int64_t> listed, const OomReport& r)
{
    if (listed.empty())
        return std::nullopt;
    std::int64_t sum = 0;
    for (std::int64_t size : listed)
        sum += size;
    auto dropped = listed.end();
    if (r.processInUse) {
        const std::int64_t self = *r.processInUse;
        dropped = std::find_if(listed.begin(), listed.end(),
                               [&](std::int64_t size) { return std::abs(size - self) <= kOomSizeTolerance; });
        const bool roomForBoth =
            r.totalCapacity && r.free && *r.totalCapacity - *r.free >= self + sum - kOomSizeTolerance;
        if (roomForBoth)
            dropped = listed.end();
    } else if (listed.size() == 1) {
        dropped = listed.begin();
    } else {
        const std::int64_t atLeast = r.reserved.value_or(0);
        for (auto it = listed.begin(); it != listed.end(); ++it)
            if (*it >= atLeast && (dropped == listed.end() || *it < *dropped))
                dropped = it;
        if (dropped == listed.end())
            return std::nullopt; // which entry is this process cannot be told
    }
    return dropped == listed.end() ? sum : sum - *dropped;
}

void readNewFormat(sv s, std::size_t from, std::size_t to, OomReport& r)
{
    r.format = OomFormat::New;
    r.totalCapacity = sizeAfterLabel(s, "has a total capacity of ", from, to);
    if (!r.totalCapacity) // PyTorch 2.1 printed it misspelt
        r.totalCapacity = sizeAfterLabel(s, "has a total capacty of ", from, to);
    r.free = sizeBeforeLabel(s, " is free", from, to);
    r.processInUse = sizeAfterLabel(s, "this process has ", from, to);
    r.allocated = sizeAfterLabel(s, "Of the allocated memory ", from, to);
    r.reservedUnallocated = sizeBeforeLabel(s, " is reserved by PyTorch but unallocated", from, to);
    if (r.allocated && r.reservedUnallocated) // the message prints no total: reserved = allocated + cached-but-free
        r.reserved = *r.allocated + *r.reservedUnallocated;
    // The processes NVML lists on the device: "Process 12345 has 1.20 GiB memory in use."
    std::vector<std::int64_t> listed;
    for (std::size_t at = findIn(s, "Process ", from, to); at != npos; at = findIn(s, "Process ", at + 8, to)) {
        std::size_t end = 0;
        if (!readInteger(s, at + 8, end) || s.substr(end, 5) != " has ")
            continue;
        if (auto size = readSize(s, end + 5, end); size && s.substr(end, 14) == " memory in use")
            listed.push_back(*size);
    }
    r.otherProcessesInUse = othersAmong(listed, r);
}

void readOldFormat(sv s, std::size_t from, std::size_t to, OomReport& r)
{
    r.format = OomFormat::Old;
    r.totalCapacity = sizeBeforeLabel(s, " total capacity", from, to);
    r.allocated = sizeBeforeLabel(s, " already allocated", from, to);
    r.free = sizeBeforeLabel(s, " free;", from, to);
    r.reserved = sizeBeforeLabel(s, " reserved in total by PyTorch", from, to);
    if (!r.reserved) // PyTorch <= 1.4 called the reserved memory "cached"
        r.reserved = sizeBeforeLabel(s, " cached)", from, to);
}

bool readCudaMessage(sv s, OomReport& r)
{
    constexpr sv kTried = "out of memory. Tried to allocate ";
    for (std::size_t at = s.find(kTried); at != npos; at = s.find(kTried, at + 1)) {
        std::string device;
        if (at >= 5 && s.substr(at - 5, 5) == "CUDA ")
            device = "CUDA";
        else if (at >= 4 && s.substr(at - 4, 4) == "HIP ")
            device = "HIP";
        std::size_t end = 0;
        const auto tried = readSize(s, at + kTried.size(), end);
        if (device.empty() || !tried)
            continue;
        r.kind = OomKind::CudaOutOfMemory;
        r.device = device;
        r.triedToAllocate = tried;
        r.marker = std::string(s.substr(at - device.size() - 1, end - at + device.size() + 1));
        const std::size_t next = s.find(kTried, end);
        const std::size_t to = std::min({s.size(), end + kMessageWindow, next});
        std::size_t indexEnd = 0;
        if (s.substr(end, 6) == ". GPU ") {
            if (auto index = readInteger(s, end + 6, indexEnd); index && *index <= 1024)
                r.gpuIndex = static_cast<int>(*index);
            readNewFormat(s, end, to, r);
        } else if (s.substr(end, 6) == " (GPU ") {
            if (auto index = readInteger(s, end + 6, indexEnd); index && *index <= 1024)
                r.gpuIndex = static_cast<int>(*index);
            readOldFormat(s, end, to, r);
        }
        if (findIn(s, "expandable_segments", end, to) != npos)
            r.allocatorHint = "expandable_segments";
        else if (findIn(s, "max_split_size_mb", end, to) != npos)
            r.allocatorHint = "max_split_size_mb";
        return true;
    }
    return false;
}

bool readBatchAssertion(sv s, OomReport& r)
{
    constexpr sv kCheck = "Check batch related parameters";
    const std::size_t at = s.find(kCheck);
    if (at == npos)
        return false;
    r.kind = OomKind::BatchAssertion;
    r.marker = std::string(kCheck);
    // "... world_size 100 != 3 * 4 * 8": train, then micro * accumulation * world.
    const std::size_t label = findIn(s, "world_size ", at, std::min(s.size(), at + 400));
    if (label == npos)
        return true;
    std::size_t i = label + 11, end = 0;
    std::int64_t values[4];
    for (int k = 0; k < 4; ++k) {
        auto value = readWholeNumber(s, skipSpaces(s, i), end);
        if (!value || *value > kMaxBatchNumber)
            return true;
        values[k] = *value;
        i = skipSpaces(s, end);
        const sv separator = k == 0 ? sv("!=") : sv("*");
        if (k < 3) {
            if (s.substr(i, separator.size()) != separator)
                return true;
            i += separator.size();
        }
    }
    r.batchTrain = values[0];
    r.batchMicro = values[1];
    r.batchAccumulation = values[2];
    r.batchWorld = values[3];
    r.marker = std::string(s.substr(at, end - at));
    return true;
}

// "exitcode: -9", "exit code -9", "return code = -9", "Exit Code: 137" (128 + SIGKILL in shells and containers).
std::string killedExitCode(sv s, sv lowered)
{
    for (sv keyword : {sv("exitcode"), sv("exit code"), sv("return code"), sv("returncode"), sv("exit status")}) {
        for (std::size_t at = lowered.find(keyword); at != npos; at = lowered.find(keyword, at + 1)) {
            std::size_t i = skipSpaces(s, at + keyword.size());
            if (i < s.size() && (s[i] == ':' || s[i] == '='))
                i = skipSpaces(s, i + 1);
            for (sv code : {sv("-9"), sv("137")}) {
                const std::size_t end = i + code.size();
                if (s.substr(i, code.size()) == code && (end == s.size() || !isDigit(s[end])))
                    return std::string(s.substr(at, end - at));
            }
        }
    }
    return {};
}

bool readHostKill(sv s, OomReport& r)
{
    std::string lowered(s);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), lower);
    std::string marker = killedExitCode(s, lowered);
    // "Killed" as a word, as the shell and the kernel's OOM killer print it.
    for (std::size_t at = s.find("Killed"); marker.empty() && at != npos; at = s.find("Killed", at + 1)) {
        const std::size_t end = at + 6;
        if ((at == 0 || !isAlnum(s[at - 1])) && (end == s.size() || !isAlnum(s[end])))
            marker = "Killed";
    }
    for (sv word : {sv("sigkill"), sv("oomkilled"), sv("oom-kill"), sv("oom_kill"), sv("out of memory: kill")}) {
        if (const std::size_t at = lowered.find(word); marker.empty() && at != npos)
            marker = std::string(s.substr(at, word.size()));
    }
    if (marker.empty())
        return false;
    r.kind = OomKind::HostKilled;
    r.marker = marker;
    return true;
}

} // namespace

std::optional<std::int64_t> parseSizeBytes(std::string_view text)
{
    std::size_t end = 0;
    auto value = readSize(text, 0, end);
    return value && end == text.size() ? value : std::nullopt;
}

OomReport parseOomMessage(const std::string& text)
{
    OomReport r;
    r.truncated = text.size() > kMaxOomMessageBytes;
    const std::string collapsed = collapseWhitespace(text);
    const sv s = collapsed;
    // Most specific first: a CUDA message with sizes explains more than the kill that may follow it.
    if (readCudaMessage(s, r) || readBatchAssertion(s, r))
        return r;
    if (const std::size_t at = s.find("CUDA error: out of memory"); at != npos) {
        r.kind = OomKind::CudaOutOfMemory;
        r.format = OomFormat::NoNumbers;
        r.device = "CUDA";
        r.marker = "CUDA error: out of memory";
        return r;
    }
    readHostKill(s, r);
    return r;
}

std::string toString(OomKind kind)
{
    switch (kind) {
    case OomKind::CudaOutOfMemory: return "cuda-out-of-memory";
    case OomKind::HostKilled: return "host-killed";
    case OomKind::BatchAssertion: return "batch-assertion";
    case OomKind::Unrecognised: break;
    }
    return "unrecognised";
}

std::string toString(OomFormat format)
{
    switch (format) {
    case OomFormat::Old: return "pytorch-2.0-or-older";
    case OomFormat::New: return "pytorch-2.1-or-newer";
    case OomFormat::NoNumbers: return "cuda-runtime-error";
    case OomFormat::None: break;
    }
    return "";
}

} // namespace dsw
