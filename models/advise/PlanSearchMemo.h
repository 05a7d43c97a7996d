#pragma once
#include "advise/Advice.h"
#include "advise/PlanSearch.h"
#include "project/Answers.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dsw {

// The plan searches already run (advise/PlanSearch.h), one per distinct search input, so that an edit to an answer
// the search does not read (the other workflows' inputs: the OOM message, DeepNVMe's, 1-bit Adam's and sparse
// attention's answers, the learning rate, clipping, the launcher, ...) costs a lookup instead of ~160 step-model
// predictions. The key is every answer given except those the search never reads (searchIgnores), compared
// exactly (type and value), so an answer the search might read always takes part. Bounded: the least recently
// used entry goes first. Thread-safe.
class PlanSearchMemo {
public:
    explicit PlanSearchMemo(std::size_t capacity = 8);
    PlanSearchMemo(const PlanSearchMemo&) = delete;
    PlanSearchMemo& operator=(const PlanSearchMemo&) = delete;

    // The one every plan uses.
    static PlanSearchMemo& shared();

    // The stored search for these answers, else searchPlans(answers) stored; the same object on every hit.
    // Throws what searchPlans throws (a model shape that contradicts itself), storing nothing.
    std::shared_ptr<const PlanSearch> search(const Answers& answers);

    // The ZeRO workflow's advice written from that search (adviseZero(answers, search)), stored with it: it reads no
    // answer the key leaves out either (tested like the search), so an edit to one of those reuses both. The
    // search is `*search(answers)`; throws as search() does.
    std::shared_ptr<const Advice> zeroAdvice(const Answers& answers);

    // predictStep(job, candidate).time where `job` is `search.job` with `time.nicsPerNode` set to `nicsPerNode`: the
    // 1-bit Adam page's "one NIC per GPU" check, which every recompute of a multi-node plan asks for the same stored
    // search and the same plan of its stored ZeRO advice. Kept with the search while the memo holds it (predictStep
    // is pure), else computed.
    StepTime stepTimeWithNics(const PlanSearch& search, const StepCandidate& candidate, std::int64_t nicsPerNode);

    // Whether the search never reads answer `id` (the memo's key leaves it out). Tested: varying each such answer
    // over its values leaves every search the same.
    static bool searchIgnores(const std::string& id);

    // How many searches search() has run (a test hook: a hit runs none).
    std::uint64_t searches() const;
    std::size_t size() const;
    void clear();

private:
    struct Entry {
        Answers answers; // those that produced the search; compared without the ignored ids
        std::shared_ptr<const PlanSearch> search;
        std::shared_ptr<const Advice> zeroAdvice; // null until asked for
        std::uint64_t lastUse = 0;
        struct NicsTime {
            StepCandidate candidate;
            std::int64_t nicsPerNode = 0;
            StepTime time;
        };
        std::vector<NicsTime> nicsTimes; // stepTimeWithNics' answers, the latest last (a few at most)
    };

    mutable std::mutex m_mutex;
    std::size_t m_capacity;
    std::vector<Entry> m_entries;
    std::uint64_t m_clock = 0;
    std::uint64_t m_searches = 0;
};

} // namespace dsw
