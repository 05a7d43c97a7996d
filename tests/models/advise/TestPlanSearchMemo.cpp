// The plan search memo (models/advise/PlanSearchMemo.h): the same search input gives the stored search and ZeRO
// advice; every answer the memo's key leaves out really is one neither reads (varied over its values, every search
// and advice stays the same), and a change to any other answer misses the memo; the plan made through it is the plan
// made without it.
#include "advise/PlanSearchMemo.h"

#include "AnswerGrid.h"
#include "Plan.h"
#include "TestAnswers.h"
#include "advise/OnebitAdvisor.h"
#include "advise/ZeroAdvisor.h"
#include "estimate/StepModel.h"
#include "project/InputRegistry.h"

#include <QTest>

using namespace dsw;
using dsw::test::answerGrid;
using dsw::test::answersFrom;
using oj = nlohmann::ordered_json;

namespace {

// Everything a search result says.
oj fingerprint(const PlanSearch& s)
{
    oj j = oj::array();
    for (std::size_t i = 0; i < s.candidates.size(); ++i) {
        oj c = candidateJson(s.candidates[i]);
        c["label"] = s.candidates[i].label();
        c["why_not"] = s.candidates[i].whyNot();
        c["asked"] = bool(s.asked[i]);
        j.push_back(c);
    }
    return oj{{"candidates", j},
              {"chosen", s.chosen},
              {"wizard_pick", s.wizardPick ? oj(*s.wizardPick) : oj(nullptr)},
              {"user_forced", s.userForced}};
}

oj fingerprintOf(const Answers& a)
{
    try {
        return fingerprint(searchPlans(a));
    } catch (const std::invalid_argument& e) {
        return oj{{"throws", e.what()}};
    }
}

// The ZeRO advice as `recommend --format json` prints it.
std::string zeroAdviceOf(const Answers& a) { return toJson(adviseZero(a)).dump(); }

// Valid values of an input to try: every choice, the bounds and a middle of a number, a few texts.
std::vector<nlohmann::json> valuesOf(const InputSpec& spec)
{
    std::vector<std::string> texts;
    switch (spec.type) {
    case InputType::Choice: texts = spec.values; break;
    case InputType::Boolean: texts = {"true", "false"}; break;
    case InputType::Gpu: texts = {"A100-80GB", "H100-80GB", "T4"}; break;
    case InputType::Text:
        texts = {"x", "/local_nvme", "1e9,2e9,2e9,1e9",
                 "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
                 "of 79.15 GiB of which 1.02 GiB is free."};
        break;
    default: {
        const double mid = spec.min + (spec.max - spec.min) / 2;
        for (const double v : {spec.min, spec.max, mid, spec.min + 1, 2.0, 0.5})
            texts.push_back(spec.type == InputType::Number ? std::to_string(v)
                                                           : std::to_string(static_cast<long long>(v)));
    }
    }
    std::vector<nlohmann::json> out;
    for (const std::string& t : texts)
        if (auto r = InputRegistry::instance().parse(spec.id, t);
            r && std::find(out.begin(), out.end(), r.value()) == out.end())
            out.push_back(r.value());
    return out;
}

const std::vector<QStringList> kBases = {
    {},
    {"model.preset=llama-3.1-70b", "hardware.nodes=4", "hardware.nvme=nvme", "hardware.nvme_path=/local_nvme",
     "training.gradient_accumulation_steps=16"},
    {"model.preset=qwen2.5-0.5b", "hardware.gpus_per_node=4", "pipeline.stages=2", "training.precision=bf16",
     "pipeline.grad_accum_dtype=fp32"},
};

} // namespace

class TestPlanSearchMemo : public QObject {
    Q_OBJECT
private slots:
    void theSameInputHitsTheStoredSearch()
    {
        PlanSearchMemo memo;
        const Answers a = answersFrom({"model.preset=llama-3.1-8b", "hardware.nodes=2"});
        const auto first = memo.search(a);
        QCOMPARE(memo.searches(), std::uint64_t{1});
        QCOMPARE(memo.search(a).get(), first.get());
        QCOMPARE(memo.searches(), std::uint64_t{1});
        QVERIFY(fingerprint(*first) == fingerprintOf(a));
        Answers edited = a; // an answer the search does not read: still a hit
        edited.set("sparse.pattern", "fixed");
        edited.set("training.learning_rate", 1e-4);
        QCOMPARE(memo.search(edited).get(), first.get());
        edited.set("hardware.nodes", 4); // one it reads: a search of its own
        QVERIFY(memo.search(edited).get() != first.get());
        QCOMPARE(memo.searches(), std::uint64_t{2});
    }

    void theZeroAdviceIsStoredWithItsSearch()
    {
        PlanSearchMemo memo;
        Answers a = answersFrom({"model.preset=llama-3.1-8b", "hardware.nodes=2", "hardware.nvme=nvme",
                                 "hardware.nvme_path=/local_nvme", "zero.offload_optimizer=nvme"});
        const auto advice = memo.zeroAdvice(a);
        QCOMPARE(toJson(*advice).dump(), zeroAdviceOf(a));
        a.set("onebit.comm_backend", "mpi");
        QCOMPARE(memo.zeroAdvice(a).get(), advice.get());
        a.set("software.deepspeed_version", "0.14.0"); // the advice reads it (the aio key's name): not ignored
        const auto older = memo.zeroAdvice(a);
        QVERIFY(older.get() != advice.get());
        QCOMPARE(toJson(*older).dump(), zeroAdviceOf(a));
        QVERIFY(toJson(*older).dump() != toJson(*advice).dump());
    }

    void anIntegerAndAFloatAreDifferentInputs()
    {
        PlanSearchMemo memo;
        Answers a, b;
        a.set("hardware.gpu_memory_gib", 40);
        b.set("hardware.gpu_memory_gib", 40.0);
        QVERIFY(memo.search(a).get() != memo.search(b).get());
    }

    void boundedLeastRecentlyUsedFirst()
    {
        PlanSearchMemo memo(2);
        Answers one, two, three;
        two.set("hardware.nodes", 2);
        three.set("hardware.nodes", 3);
        const auto kept = memo.search(one);
        memo.search(two);
        memo.search(one); // used again: `two` is now the oldest
        memo.search(three);
        QCOMPARE(memo.size(), std::size_t{2});
        QCOMPARE(memo.search(one).get(), kept.get());
        const auto before = memo.searches();
        memo.search(two);
        QCOMPARE(memo.searches(), before + 1);
    }

    void aShapeThatContradictsItselfIsNotStored()
    {
        PlanSearchMemo memo;
        const Answers bad = answersFrom({"model.hidden_size=1000", "model.attention_heads=3"});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memo.search(bad));
        QCOMPARE(memo.size(), std::size_t{0});
    }

    // The key's exclusions are sound: each answer it leaves out, set to each of its values on each base, leaves
    // the search and the ZeRO advice exactly as they were.
    void everyIgnoredAnswerLeavesTheZeroWorkflowAlone()
    {
        int ignored = 0;
        for (const InputSpec& spec : InputRegistry::instance().all()) {
            if (!PlanSearchMemo::searchIgnores(spec.id))
                continue;
            ++ignored;
            const auto values = valuesOf(spec);
            QVERIFY2(values.size() >= 2, spec.id.c_str());
            for (const QStringList& base : kBases) {
                const Answers a = answersFrom(base);
                const oj expected = fingerprintOf(a);
                const std::string advice = zeroAdviceOf(a);
                for (const auto& v : values) {
                    Answers varied = a;
                    varied.set(spec.id, v);
                    const std::string what = spec.id + " = " + v.dump();
                    QVERIFY2(fingerprintOf(varied) == expected, what.c_str());
                    QVERIFY2(zeroAdviceOf(varied) == advice, what.c_str());
                }
            }
        }
        QVERIFY(ignored >= 15);
    }

    // Every other answer is part of the key: changing it misses the memo. Most of them change the search itself.
    void everyOtherAnswerMissesTheMemo()
    {
        int read = 0, changed = 0;
        const Answers base = answersFrom(kBases[1]);
        const oj expected = fingerprintOf(base);
        for (const InputSpec& spec : InputRegistry::instance().all()) {
            if (PlanSearchMemo::searchIgnores(spec.id))
                continue;
            ++read;
            PlanSearchMemo memo;
            const auto stored = memo.search(base);
            bool tried = false, differs = false;
            for (const auto& v : valuesOf(spec)) {
                if (base.has(spec.id) && base.value(spec.id) == v)
                    continue;
                Answers varied = base;
                varied.set(spec.id, v);
                const auto before = memo.searches();
                try {
                    QVERIFY2(memo.search(varied).get() != stored.get(), spec.id.c_str());
                    QCOMPARE(memo.searches(), before + 1);
                } catch (const std::invalid_argument&) { // the varied shape contradicts itself: not stored either
                }
                differs = differs || fingerprintOf(varied) != expected;
                tried = true;
            }
            QVERIFY2(tried, spec.id.c_str());
            changed += differs;
        }
        QVERIFY(read >= 30);
        QVERIFY2(changed >= read * 2 / 3, qPrintable(QString("%1 of %2").arg(changed).arg(read)));
    }

    // The 1-bit page takes the search's job and stage-0 prediction (advise/OnebitStep.h) instead of computing them
    // again: over the answer grid its advice is the one computed from the answers alone.
    void theOnebitPageReusesTheSearchsFigures()
    {
        int compared = 0;
        for (const QStringList& settings : answerGrid()) {
            const Answers source = answersFrom(settings);
            PlanSearch search;
            try {
                search = searchPlans(source);
            } catch (const std::invalid_argument&) {
                continue;
            }
            const Advice zero = adviseZero(source, search);
            const StepCandidate& chosen = search.candidates.at(search.chosen).candidate;
            const Answers answers = withChosenBatch(source, chosen.microBatch, chosen.accumulation);
            QVERIFY2(toJson(adviseOnebit(answers, zero, &search)).dump() == toJson(adviseOnebit(answers, zero)).dump(),
                     qPrintable(settings.join(' ')));
            ++compared;
        }
        QVERIFY(compared >= 500);
    }

    // A plan holds the stored ZeRO advice itself (shared, not a copy), and a copy of the plan shares every advice.
    void thePlanSharesTheStoredZeroAdvice()
    {
        PlanSearchMemo::shared().clear();
        const Answers a = answersFrom({"model.preset=llama-3.1-8b"});
        const Plan plan = makePlan(a);
        QCOMPARE(plan.find("zero"), PlanSearchMemo::shared().zeroAdvice(a).get());
        const Plan copy = plan;
        QCOMPARE(copy.workflows.size(), plan.workflows.size());
        for (std::size_t i = 0; i < plan.workflows.size(); ++i)
            QCOMPARE(&copy.workflows[i], &plan.workflows[i]);
    }

    // The step time kept with a stored search for another NIC count is predictStep's for that job: when it is first
    // asked (computed and stored), when asked again (the stored one), and for a search the memo does not hold.
    void theStepTimeWithOtherNicsIsPredictStepsTime()
    {
        PlanSearchMemo memo;
        const Answers a = answersFrom({"model.preset=llama-3.1-70b", "hardware.nodes=4"});
        const std::shared_ptr<const PlanSearch> held = memo.search(a);
        const PlanSearch apart = searchPlans(a);
        auto fresh = [&](const StepCandidate& c, std::int64_t nics) {
            StepJob job = held->job;
            job.time.nicsPerNode = nics;
            return stepTimeJson(predictStep(job, c).time).dump();
        };
        int compared = 0;
        for (const StepPrediction& p : held->candidates)
            for (const std::int64_t nics : {std::int64_t(1), std::int64_t(8)}) {
                const std::string expected = fresh(p.candidate, nics);
                QCOMPARE(stepTimeJson(memo.stepTimeWithNics(*held, p.candidate, nics)).dump(), expected); // stored
                QCOMPARE(stepTimeJson(memo.stepTimeWithNics(*held, p.candidate, nics)).dump(), expected); // a hit
                QCOMPARE(stepTimeJson(memo.stepTimeWithNics(apart, p.candidate, nics)).dump(), expected); // not held
                if (++compared >= 12)
                    return;
            }
    }

    // The plan made through the shared memo, over edits the search does and does not read, is the plan made from
    // a fresh search.
    void thePlanIsTheSameWithAndWithoutTheMemo()
    {
        Answers a = answersFrom(kBases[1]);
        const std::vector<std::pair<std::string, nlohmann::json>> edits = {{"sparse.pattern", "fixed"},
                                                                           {"hardware.nodes", 2},
                                                                           {"training.learning_rate", 1e-4},
                                                                           {"onebit.comm_backend", "mpi"},
                                                                           {"zero.stage", "3"},
                                                                           {"memory.oom_message", "CUDA out of memory"},
                                                                           {"hardware.nodes", 4},
                                                                           {"software.launcher", "hf-trainer"}};
        for (const auto& [id, value] : edits) {
            a.set(id, value);
            const std::string warm = toJson(makePlan(a)).dump();
            PlanSearchMemo::shared().clear();
            QCOMPARE(warm, toJson(makePlan(a)).dump());
        }
    }
};

QTEST_APPLESS_MAIN(TestPlanSearchMemo)
#include "TestPlanSearchMemo.moc"
