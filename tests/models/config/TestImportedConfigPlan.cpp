// Import suggestions (models/config/ImportedConfigPlan.h, their reasons set in models/Plan.cpp): each says why its
// own key is suggested, and none argues against itself.
#include "Plan.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"

#include <QTest>

#include <set>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

// DeepSpeed's tests/model/Megatron_GPT2/ds_config_func_bs8_zero2_offload.json: the deprecated cpu_offload.
const char* kDeprecatedOffload = R"({
  "train_batch_size": 8,
  "gradient_accumulation_steps": 1,
  "zero_optimization": {"stage": 2, "reduce_bucket_size": 7000000, "allgather_bucket_size": 7000000,
                        "reduce_scatter": true, "cpu_offload": true},
  "gradient_clipping": 1.0,
  "fp16": {"enabled": true, "loss_scale": 0, "loss_scale_window": 1000, "hysteresis": 2, "min_loss_scale": 1}
})";

const Suggestion* find(const std::vector<Suggestion>& all, const std::string& pointer)
{
    for (const auto& s : all)
        if (s.pointer == pointer)
            return &s;
    return nullptr;
}

} // namespace

class TestImportedConfigPlan : public QObject {
    Q_OBJECT
private slots:
    void deprecatedOffloadIsReplacedForItsOwnReason()
    {
        const oj imported = oj::parse(kDeprecatedOffload);
        const Suggestion s{"/zero_optimization/offload_optimizer", nullptr, {{"device", "cpu"}}, "zero", "", false};
        const std::string why = suggestionReason(s, imported);
        QVERIFY2(why.find("cpu_offload is deprecated") != std::string::npos, why.c_str());
        QVERIFY2(why.find("replacement") != std::string::npos && why.find("ds-zero-config") != std::string::npos,
                 why.c_str());
        // Without the deprecated key the same suggestion has no such reason.
        oj modern = imported;
        modern["zero_optimization"].erase("cpu_offload");
        QVERIFY(suggestionReason(s, modern).empty());
    }

    void everySuggestionHasItsOwnReason()
    {
        auto parsed = parseConfigText(kDeprecatedOffload);
        QVERIFY(parsed.ok());
        Project project = importConfig(parsed.value()).project;
        project.answers.set("model.params", 7e9);
        project.answers.set("hardware.gpu", "A100-80GB");
        project.answers.set("hardware.gpus_per_node", 8);
        project.answers.set("hardware.nodes", 1);
        const Plan plan = makePlan(project);
        const Suggestion* offload = find(plan.suggestions, "/zero_optimization/offload_optimizer");
        QVERIFY2(offload, "no offload_optimizer suggestion");
        QVERIFY2(offload->reason.find("cpu_offload is deprecated") != std::string::npos, offload->reason.c_str());
        // The reason does not argue against the suggestion (the wizard's own pick without offload is faster).
        QVERIFY2(offload->reason.find("faster") == std::string::npos, offload->reason.c_str());
        std::set<std::string> zeroReasons;
        int zeroSuggestions = 0;
        for (const auto& s : plan.suggestions) {
            QVERIFY2(!s.reason.empty(), s.pointer.c_str());
            if (s.workflow == "zero") {
                ++zeroSuggestions;
                zeroReasons.insert(s.reason);
            }
        }
        QVERIFY(zeroSuggestions >= 3);
        QCOMPARE(int(zeroReasons.size()), zeroSuggestions); // no headline repeated as every key's reason
        const Suggestion* overlap = find(plan.suggestions, "/zero_optimization/overlap_comm");
        QVERIFY(overlap);
        QVERIFY2(overlap->reason.find("overlaps the gradient reduction") != std::string::npos, overlap->reason.c_str());
    }
};

QTEST_APPLESS_MAIN(TestImportedConfigPlan)
#include "TestImportedConfigPlan.moc"
