// DeepNVMe advice (models/advise/NvmeAdvisor.h). Every expectation below is read by hand from the facts, not from
// the program's output:
//   handle       gds_handle only when nvme.gds, tensors on cuda, an NVIDIA GPU, CUDA >= 11.4 and DeepSpeed >= 0.15.0
//                (deepspeed-facts §4.2, §4.5, §5); aio_handle otherwise, with one check per reason.
//   constructor  < 0.15.0: five positional args; 0.15.0-0.15.2: keyword num_threads; >= 0.15.3: intra_op_parallelism (§4.3)
//   tools        ds_nvme_tune from 0.15.2 (§4.4); new_cpu_locked_tensor from 0.8.1 (§4.3)
//   aio key      thread_count -> intra_op_parallelism in the ds_config aio block in 0.16.4 (§2.7)
//   defaults     handle: 1048576, 128, False, False, 1 (§4.1); ds_config aio: 1048576, 8, 1, false, true, use_gds false (§2.7)
//   blog         CPU buffers 10 / 5 GB/sec; GPU with GDS 9.6 / 5; without GDS 7 / 4 (§4.6)
#include "PlanFor.h"
#include "TestAnswers.h"
#include "knowledge/SourceCatalog.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"
#include "util/Version.h"

#include <QTest>

#include <algorithm>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// NVMe present at /local_nvme; everything else at the registry's defaults (cuda tensors, no GDS, CUDA 12.4,
// DeepSpeed 0.19.5, A100-80GB) unless a row overrides it.
QStringList withNvme(QStringList extra = {})
{
    return QStringList{"hardware.nvme=nvme", "hardware.nvme_path=/local_nvme"} + extra;
}

QStringList checkList(const Advice& adv)
{
    QStringList out;
    for (const auto& c : adv.checks)
        out << q(c.code + "=" + toString(c.level));
    out.sort();
    return out;
}

const Snippet* snippet(const Advice& adv, const std::string& titleStart)
{
    auto it = std::find_if(adv.snippets.begin(), adv.snippets.end(),
                           [&](const Snippet& s) { return s.title.rfind(titleStart, 0) == 0; });
    return it == adv.snippets.end() ? nullptr : &*it;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const Check* findCheck(const Advice& adv, const std::string& code)
{
    auto it = std::find_if(adv.checks.begin(), adv.checks.end(), [&](const Check& c) { return c.code == code; });
    return it == adv.checks.end() ? nullptr : &*it;
}

} // namespace

class TestNvmeAdvisor : public QObject {
    Q_OBJECT
private slots:
    void scenarios_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("handle");
        QTest::addColumn<QString>("form"); // constructor keyword: intra_op_parallelism | num_threads | positional
        QTest::addColumn<bool>("tune");    // ds_nvme_tune offered (DeepSpeed >= 0.15.2)
        QTest::addColumn<QStringList>("checks");

        const QString aioKey = "nvme-aio-key-renamed=warn", wear = "nvme-ssd-endurance=warn";
        QTest::newRow("no NVMe") << QStringList{"hardware.nvme=none", "nvme.gds=true"} << "not_applicable"
                                 << ""
                                 << "" << false << QStringList{};
        QTest::newRow("defaults: CUDA tensors, no GDS")
            << withNvme() << "complete"
            << "aio_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-unavailable=pass", aioKey, wear};
        QTest::newRow("GDS ready: A100, CUDA 12.4, DeepSpeed 0.19.5")
            << withNvme({"nvme.gds=true"}) << "complete"
            << "gds_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-ready=pass", aioKey, wear};
        QTest::newRow("GDS at CUDA 11.4 exactly, H100")
            << withNvme({"nvme.gds=true", "software.cuda_version=11.4", "hardware.gpu=H100-80GB"}) << "complete"
            << "gds_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-ready=pass", aioKey, wear};
        QTest::newRow("GDS with CUDA 11.3")
            << withNvme({"nvme.gds=true", "software.cuda_version=11.3"}) << "complete"
            << "aio_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-cuda-too-old=warn", aioKey, wear};
        QTest::newRow("GDS on an AMD MI300X")
            << withNvme({"nvme.gds=true", "hardware.gpu=MI300X"}) << "complete"
            << "aio_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-not-nvidia=warn", aioKey, wear};
        QTest::newRow("GDS with host tensors")
            << withNvme({"nvme.gds=true", "nvme.tensor_location=cpu"}) << "complete"
            << "aio_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-cpu-tensors=warn", aioKey, wear};
        QTest::newRow("host tensors, no GDS")
            << withNvme({"nvme.tensor_location=cpu"}) << "complete"
            << "aio_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-cpu-tensors=pass", aioKey, wear};
        QTest::newRow("GDS on DeepSpeed 0.15.0: num_threads, no ds_nvme_tune")
            << withNvme({"nvme.gds=true", "software.deepspeed_version=0.15.0"}) << "complete"
            << "gds_handle"
            << "num_threads" << false
            << QStringList{"nvme-gds-ready=pass", "nvme-num-threads-keyword=warn", "nvme-tune-unavailable=warn", aioKey,
                           wear};
        QTest::newRow("aio on DeepSpeed 0.15.2: num_threads, ds_nvme_tune exists")
            << withNvme({"software.deepspeed_version=0.15.2"}) << "complete"
            << "aio_handle"
            << "num_threads" << true
            << QStringList{"nvme-gds-unavailable=pass", "nvme-num-threads-keyword=warn", aioKey, wear};
        QTest::newRow("DeepSpeed 0.15.3: intra_op_parallelism")
            << withNvme({"software.deepspeed_version=0.15.3"}) << "complete"
            << "aio_handle"
            << "intra_op_parallelism" << true << QStringList{"nvme-gds-unavailable=pass", aioKey, wear};
        QTest::newRow("GDS asked on DeepSpeed 0.14.4: fail, positional aio")
            << withNvme({"nvme.gds=true", "software.deepspeed_version=0.14.4"}) << "complete"
            << "aio_handle"
            << "positional" << false
            << QStringList{"nvme-deepspeed-too-old=fail", "nvme-tune-unavailable=warn", aioKey, wear};
        QTest::newRow("aio on DeepSpeed 0.14.4: warn, positional")
            << withNvme({"software.deepspeed_version=0.14.4"}) << "complete"
            << "aio_handle"
            << "positional" << false
            << QStringList{"nvme-deepspeed-too-old=warn", "nvme-gds-unavailable=pass", "nvme-tune-unavailable=warn",
                           aioKey, wear};
        QTest::newRow("GDS with host tensors on DeepSpeed 0.14.4: GDS moot, so only a warning")
            << withNvme({"nvme.gds=true", "nvme.tensor_location=cpu", "software.deepspeed_version=0.14.4"})
            << "complete"
            << "aio_handle"
            << "positional" << false
            << QStringList{"nvme-deepspeed-too-old=warn", "nvme-gds-cpu-tensors=warn", "nvme-tune-unavailable=warn",
                           aioKey, wear};
        QTest::newRow("DeepSpeed 0.3.10 predates aio_handle")
            << withNvme({"software.deepspeed_version=0.3.10"}) << "complete"
            << "aio_handle"
            << "positional" << false
            << QStringList{"nvme-deepspeed-too-old=fail", "nvme-gds-unavailable=pass", "nvme-tune-unavailable=warn",
                           aioKey, wear};
        QTest::newRow("every GDS blocker at once: MI250X, CUDA 11.0, DeepSpeed 0.14.0")
            << withNvme({"nvme.gds=true", "hardware.gpu=MI250X", "software.cuda_version=11.0",
                         "software.deepspeed_version=0.14.0"})
            << "complete"
            << "aio_handle"
            << "positional" << false
            << QStringList{"nvme-gds-not-nvidia=warn",
                           "nvme-gds-cuda-too-old=warn",
                           "nvme-deepspeed-too-old=fail",
                           "nvme-tune-unavailable=warn",
                           aioKey,
                           wear};
        QTest::newRow("NVMe without a path: needs input")
            << QStringList{"hardware.nvme=nvme"} << "needs_input"
            << "aio_handle"
            << "intra_op_parallelism" << true
            << QStringList{"nvme-path-missing=fail", "nvme-gds-unavailable=pass", aioKey, wear};
    }

    void scenarios()
    {
        QFETCH(QStringList, settings);
        QFETCH(QString, status);
        QFETCH(QString, handle);
        QFETCH(QString, form);
        QFETCH(bool, tune);
        QFETCH(QStringList, checks);
        const Answers a = answersFrom(settings);
        const Advice adv = adviceFor("nvme", a);

        QCOMPARE(q(adv.workflow), QString("nvme"));
        QCOMPARE(q(toString(adv.status)), status);
        checks.sort();
        QCOMPARE(checkList(adv), checks);
        QVERIFY2(adv.fragment.empty(), "the ZeRO advisor owns the aio block; this fragment must stay empty");
        QVERIFY(!adv.tradeoffs.empty());

        if (status == "not_applicable") {
            QVERIFY(adv.snippets.empty());
            QVERIFY(contains(adv.headline, "NVMe SSD"));
            QVERIFY(adv.details.at("handle").is_null());
            return;
        }
        QCOMPARE(q(adv.details.at("handle").get<std::string>()), handle);
        QCOMPARE(q(adv.details.at("constructor_form").get<std::string>()), form);
        QCOMPARE(q(adv.details.at("tensor_location").get<std::string>()), q(a.text("nvme.tensor_location")));
        QCOMPARE(adv.details.at("ds_nvme_tune").get<bool>(), tune);
        QCOMPARE(adv.missing == std::vector<std::string>{"hardware.nvme_path"}, status == "needs_input");
        const bool gds = handle == "gds_handle";
        const bool cuda = a.text("nvme.tensor_location") == "cuda";

        // Construction: the builder, the import, and the keyword this DeepSpeed version accepts.
        const Snippet* create = snippet(adv, "Create the ");
        QVERIFY(create);
        QCOMPARE(q(create->language), QString("python"));
        const std::string& c = create->code;
        QVERIFY(contains(c,
                         gds ? "from deepspeed.ops.op_builder import AsyncIOBuilder, GDSBuilder\n"
                             : "from deepspeed.ops.op_builder import AsyncIOBuilder\n"));
        QVERIFY(contains(c, gds ? "GDSBuilder().load().gds_handle(" : "AsyncIOBuilder().load().aio_handle("));
        QVERIFY(contains(c, "NVME_DIR = \"/local_nvme\""));
        if (form == "intra_op_parallelism")
            QVERIFY(contains(c, "intra_op_parallelism=1)") && contains(c, "block_size=1048576,")
                    && contains(c, "queue_depth=128,") && !contains(c, "num_threads"));
        else if (form == "num_threads")
            QVERIFY(contains(c, "num_threads=1)") && contains(c, "block_size=1048576,")
                    && !contains(c, "intra_op_parallelism="));
        else
            QVERIFY(contains(c, "aio_handle(1048576, 128, False, False, 1)") && !contains(c, "block_size="));
        QVERIFY(contains(c, cuda ? "device=\"cuda\"" : ".pin_memory()"));

        const Snippet* blocking = snippet(adv, "Blocking");
        QVERIFY(blocking && contains(blocking->code, "h.sync_pwrite(t, path)")
                && contains(blocking->code, "h.sync_pread(back, path)"));

        // Non-blocking: wait() after the submission, and the data-race warning.
        const Snippet* async = snippet(adv, "Non-blocking");
        QVERIFY(async);
        const auto submit = async->code.find("h.async_pwrite(t, path)");
        QVERIFY(submit != std::string::npos);
        QVERIFY(async->code.find("h.wait()", submit) != std::string::npos);
        QVERIFY(contains(async->code, "To avoid data races and corruptions, `.wait()` must be"));

        const Snippet* parallel = snippet(adv, "Several files");
        QVERIFY(parallel && contains(parallel->code, "h.pwrite(part, ") && contains(parallel->code, ", False, True)")
                && contains(parallel->code, "h.wait()"));

        const Snippet* pinned = snippet(adv, "Pinned tensors");
        QVERIFY(pinned);
        if (gds)
            QVERIFY(contains(pinned->code, "h.new_pinned_device_tensor(")
                    && contains(pinned->code, "h.pin_device_tensor(t)"));
        else if (versionAtLeast(a.text("software.deepspeed_version"), "0.8.1"))
            QVERIFY(contains(pinned->code, "h.new_cpu_locked_tensor(") && contains(pinned->code, "example_tenosr")
                    && contains(pinned->code, "h.free_cpu_locked_tensor(buf)"));
        else // before 0.8.1: PyTorch's pin_memory()
            QVERIFY(contains(pinned->code, ".pin_memory()") && !contains(pinned->code, "new_cpu_locked_tensor("));

        const Snippet* report = snippet(adv, "Check the ops with ds_report");
        QVERIFY(report && report->language == "bash" && contains(report->code, "ds_report"));
        const Snippet* libaio = snippet(adv, "Install libaio");
        QVERIFY(libaio && libaio->language == "bash");
        QVERIFY(contains(libaio->code, "apt install libaio-dev") && contains(libaio->code, "yum install libaio-devel")
                && contains(libaio->code, "pacman -S libaio"));

        const Snippet* tuneCmd = snippet(adv, "Tune the handle with ds_nvme_tune");
        QCOMPARE(tuneCmd != nullptr, tune);
        QCOMPARE(snippet(adv, "Use ds_nvme_tune's result") != nullptr, tune);
        if (tune) {
            QVERIFY(contains(tuneCmd->code, "ds_nvme_tune --nvme_dir '/local_nvme'"));
            QCOMPARE(contains(tuneCmd->code, " --gpu"), cuda);
            QCOMPARE(contains(tuneCmd->code, " --gds"), gds);
            const std::string& apply = snippet(adv, "Use ds_nvme_tune's result")->code;
            QVERIFY(contains(apply, "v == \"true\""));
            QCOMPARE(contains(apply, "kwargs[\"num_threads\"]"), form == "num_threads");
        }

        // Every cited source is listed with the advice.
        auto listed = [&](const std::string& id) {
            return id.empty() || std::find(adv.sources.begin(), adv.sources.end(), id) != adv.sources.end();
        };
        for (const auto& ck : adv.checks)
            QVERIFY2(listed(ck.source), ck.source.c_str());
        for (const auto& t : adv.tradeoffs)
            QVERIFY2(listed(t.source), t.source.c_str());
        for (const auto& e : adv.estimates)
            QVERIFY2(listed(e.source), e.source.c_str());
    }

    // The blog's figures for the path the user is on (deepspeed-facts §4.6), as the source states them.
    void publishedNumbers_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<double>("read");
        QTest::addColumn<double>("write");
        QTest::newRow("host tensors: 10 / 5") << withNvme({"nvme.tensor_location=cpu"}) << 10.0 << 5.0;
        QTest::newRow("GPU with GDS: 9.6 / 5") << withNvme({"nvme.gds=true"}) << 9.6 << 5.0;
        QTest::newRow("GPU without GDS: 7 / 4") << withNvme() << 7.0 << 4.0;
    }
    void publishedNumbers()
    {
        QFETCH(QStringList, settings);
        QFETCH(double, read);
        QFETCH(double, write);
        const Advice adv = adviceFor("nvme", answersFrom(settings));
        QCOMPARE(adv.estimates.size(), size_t(2));
        QCOMPARE(adv.estimates[0].value, read);
        QCOMPARE(adv.estimates[1].value, write);
        for (const auto& e : adv.estimates) {
            QCOMPARE(q(e.unit), QString("GB/sec"));
            QVERIFY(contains(e.formula, "not a prediction"));
        }
    }

    void aioKeyRename_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("says");
        QTest::newRow("0.16.3 reads thread_count") << "0.16.3"
                                                   << "write it as thread_count";
        QTest::newRow("0.16.4 ignores thread_count") << "0.16.4"
                                                     << "silently ignored";
        QTest::newRow("0.19.5 ignores thread_count") << "0.19.5"
                                                     << "silently ignored";
    }
    void aioKeyRename()
    {
        QFETCH(QString, version);
        QFETCH(QString, says);
        const Advice adv = adviceFor("nvme", answersFrom(withNvme({"software.deepspeed_version=" + version})));
        const Check* c = findCheck(adv, "nvme-aio-key-renamed");
        QVERIFY(c);
        QVERIFY2(contains(c->message, says.toStdString()), c->message.c_str());
    }

    // new_cpu_locked_tensor arrived in 0.8.1; before it, host tensors are pinned with PyTorch.
    void pinnedBeforeLockedTensor_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("lockedTensor");
        QTest::newRow("0.8.0") << "0.8.0" << false;
        QTest::newRow("0.8.1") << "0.8.1" << true;
    }
    void pinnedBeforeLockedTensor()
    {
        QFETCH(QString, version);
        QFETCH(bool, lockedTensor);
        const Advice adv = adviceFor("nvme", answersFrom(withNvme({"software.deepspeed_version=" + version})));
        const Snippet* pinned = snippet(adv, "Pinned tensors");
        QVERIFY(pinned);
        QCOMPARE(contains(pinned->code, "new_cpu_locked_tensor("), lockedTensor);
        QCOMPARE(contains(pinned->code, "torch.empty(1024**3, dtype=torch.uint8).pin_memory()"), !lockedTensor);
    }

    // A typed path reaches Python and bash as one literal, whatever characters it holds.
    void pathQuoting()
    {
        Answers a = answersFrom({"hardware.nvme=nvme", "nvme.tensor_location=cpu"});
        a.set("hardware.nvme_path", "/mnt/it's \"fast\"\\x");
        const Advice adv = adviceFor("nvme", a);
        QVERIFY(contains(snippet(adv, "Create the ")->code, "NVME_DIR = \"/mnt/it's \\\"fast\\\"\\\\x\""));
        QVERIFY(contains(snippet(adv, "Tune the handle")->code, "--nvme_dir '/mnt/it'\\''s \"fast\"\\x'"));
    }

    void details()
    {
        const Advice adv = adviceFor("nvme", answersFrom(withNvme({"nvme.gds=true"})));
        QVERIFY(adv.details.at("handle") == "gds_handle");
        QVERIFY(adv.details.at("tensor_location") == "cuda");
        const oj handleDefaults{{"block_size", 1048576},
                                {"queue_depth", 128},
                                {"single_submit", false},
                                {"overlap_events", false},
                                {"intra_op_parallelism", 1}};
        const oj aioDefaults{{"block_size", 1048576},  {"queue_depth", 8},       {"intra_op_parallelism", 1},
                             {"single_submit", false}, {"overlap_events", true}, {"use_gds", false}};
        QVERIFY(adv.details.at("handle_defaults") == handleDefaults);
        QVERIFY(adv.details.at("ds_config_aio_defaults") == aioDefaults);
        const auto t = std::find_if(adv.tradeoffs.begin(), adv.tradeoffs.end(),
                                    [](const Tradeoff& x) { return x.title.rfind("Handle defaults", 0) == 0; });
        QVERIFY(t != adv.tradeoffs.end());
        QVERIFY(contains(t->text, "queue_depth 128") && contains(t->text, "queue_depth 8")
                && contains(t->text, "overlap_events False") && contains(t->text, "overlap_events true"));
    }

    // Quotes shown as the sources give them.
    void quotes()
    {
        const Advice adv = adviceFor("nvme", answersFrom(withNvme()));
        const Source* wear = SourceCatalog::instance().find("ds-nvme-endurance");
        QVERIFY(wear);
        QVERIFY(contains(findCheck(adv, "nvme-ssd-endurance")->message, wear->quote));
        auto said = [&](const std::string& text) {
            return std::any_of(adv.tradeoffs.begin(), adv.tradeoffs.end(),
                               [&](const Tradeoff& t) { return contains(t.text, text); });
        };
        QVERIFY(said("Best performance (GB/sec): read =  3.69, write =  3.18"));
        QVERIFY(
            said("\"The `aio_handle` is usable on both host and device tensors. while `gds_handle` works only on CUDA "
                 "tensors, but is more efficient.\""));
        QVERIFY(said("\"`aio_handle` requires `async_io` operator, while `gds_handle` requires both `async_io` and "
                     "`gds` operators.\""));
        QVERIFY(said(
            "\"With GDS, DeepNVMe achieves a maximum of 9.6GB/sec reads and 5GB/sec writes, and without GDS achieves "
            "7GB/sec reads and 4GB/sec writes.\""));
    }
};

QTEST_APPLESS_MAIN(TestNvmeAdvisor)
#include "TestNvmeAdvisor.moc"
