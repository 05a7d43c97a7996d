#include "advise/PlanSearchMemo.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace dsw {

namespace {

using Given = std::map<std::string, nlohmann::json>;

// Equal in type as well as value: 1 and 1.0 compare equal in nlohmann::json but are not the same answer.
bool sameValue(const nlohmann::json& x, const nlohmann::json& y)
{
    if (x.type() != y.type())
        return false;
    if (x.is_array()) {
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!sameValue(x[i], y[i]))
                return false;
        return true;
    }
    if (x.is_object()) {
        if (x.size() != y.size())
            return false;
        for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
            if (i.key() != j.key() || !sameValue(i.value(), j.value()))
                return false;
        return true;
    }
    return x == y;
}

// The same answers as far as the search reads them: both maps walked in id order, the ignored ids skipped.
bool sameSearchInput(const Given& x, const Given& y)
{
    auto i = x.begin(), j = y.begin();
    while (true) {
        while (i != x.end() && PlanSearchMemo::searchIgnores(i->first))
            ++i;
        while (j != y.end() && PlanSearchMemo::searchIgnores(j->first))
            ++j;
        if (i == x.end() || j == y.end())
            return i == x.end() && j == y.end();
        if (i->first != j->first || !sameValue(i->second, j->second))
            return false;
        ++i;
        ++j;
    }
}

bool sameCandidate(const StepCandidate& x, const StepCandidate& y)
{
    return x.placement.stage == y.placement.stage && x.placement.offloadOptimizer == y.placement.offloadOptimizer
        && x.placement.offloadParam == y.placement.offloadParam && x.checkpointing == y.checkpointing
        && x.microBatch == y.microBatch && x.accumulation == y.accumulation;
}

} // namespace

PlanSearchMemo::PlanSearchMemo(std::size_t capacity)
    : m_capacity(std::max<std::size_t>(1, capacity))
{
}

PlanSearchMemo& PlanSearchMemo::shared()
{
    // Never destroyed: its searches live until the process ends, and freeing them at exit would only delay the exit.
    static PlanSearchMemo& memo = *new PlanSearchMemo;
    return memo;
}

bool PlanSearchMemo::searchIgnores(const std::string& id)
{
    // Read only by other workflows' advisors (grep the ids in models/: none is read by estimate/, BatchKeys,
    // zeroStageLimit or Answers' derived defaults, which the search reads through).
    static constexpr std::array<std::string_view, 9> prefixes = {"memory.",
                                                                 "nvme.",
                                                                 "onebit.",
                                                                 "sparse.",
                                                                 "pipeline.layer_params",
                                                                 "pipeline.partition_method",
                                                                 "precision.",
                                                                 "software.launcher",
                                                                 "software.cuda_version"};
    static constexpr std::array<std::string_view, 3> ids = {"training.gradient_clipping", "training.learning_rate",
                                                            "training.total_steps"};
    const std::string_view s(id);
    for (const std::string_view p : prefixes)
        if (p.back() == '.' ? s.substr(0, p.size()) == p : s == p)
            return true;
    return std::find(ids.begin(), ids.end(), s) != ids.end();
}

std::shared_ptr<const PlanSearch> PlanSearchMemo::search(const Answers& answers)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (Entry& e : m_entries)
            if (sameSearchInput(e.answers.given(), answers.given())) {
                e.lastUse = ++m_clock;
                return e.search;
            }
    }
    auto found = std::make_shared<const PlanSearch>(searchPlans(answers)); // outside the lock
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_searches;
    for (Entry& e : m_entries) // another thread stored it meanwhile: keep one object per input
        if (sameSearchInput(e.answers.given(), answers.given())) {
            e.lastUse = ++m_clock;
            return e.search;
        }
    if (m_entries.size() >= m_capacity)
        m_entries.erase(std::min_element(m_entries.begin(), m_entries.end(),
                                         [](const Entry& x, const Entry& y) { return x.lastUse < y.lastUse; }));
    m_entries.push_back({answers, found, nullptr, ++m_clock, {}});
    return found;
}

std::shared_ptr<const Advice> PlanSearchMemo::zeroAdvice(const Answers& answers)
{
    const std::shared_ptr<const PlanSearch> found = search(answers);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const Entry& e : m_entries)
            if (e.search == found && e.zeroAdvice)
                return e.zeroAdvice;
    }
    auto advice = std::make_shared<const Advice>(adviseZero(answers, *found)); // outside the lock
    std::lock_guard<std::mutex> lock(m_mutex);
    for (Entry& e : m_entries)
        if (e.search == found) {
            if (!e.zeroAdvice)
                e.zeroAdvice = advice;
            return e.zeroAdvice;
        }
    return advice; // evicted meanwhile: still the advice for these answers
}

StepTime PlanSearchMemo::stepTimeWithNics(const PlanSearch& search, const StepCandidate& candidate,
                                          std::int64_t nicsPerNode)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const Entry& e : m_entries)
            if (e.search.get() == &search) // a search the memo holds: its address is not reused while it does
                for (const Entry::NicsTime& t : e.nicsTimes)
                    if (t.nicsPerNode == nicsPerNode && sameCandidate(t.candidate, candidate))
                        return t.time;
    }
    StepJob job = search.job; // outside the lock
    job.time.nicsPerNode = nicsPerNode;
    const StepTime time = predictStep(job, candidate).time;
    std::lock_guard<std::mutex> lock(m_mutex);
    for (Entry& e : m_entries)
        if (e.search.get() == &search) {
            constexpr std::size_t kKept = 4; // one plan per 1-bit page; a few in case several pages ask
            if (e.nicsTimes.size() >= kKept)
                e.nicsTimes.erase(e.nicsTimes.begin());
            e.nicsTimes.push_back({candidate, nicsPerNode, time});
        }
    return time;
}

std::uint64_t PlanSearchMemo::searches() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_searches;
}

std::size_t PlanSearchMemo::size() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_entries.size();
}

void PlanSearchMemo::clear()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_entries.clear();
}

} // namespace dsw
